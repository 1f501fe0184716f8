//! `terravox serve` (a dedicated server: no window, no GPU) and `terravox bot` (a
//! headless client, for `bench --net` and the tests): the command lines over
//! `terravox_net`.

use std::io::BufRead;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

use clap::Args;
use terravox_net::bot::{self, BotOptions};
use terravox_net::client::JoinOptions;
use terravox_net::server::{self, Command, DEFAULT_PORT, Server, ServerOptions};

use crate::world::WorldArgs;

/// This build, as servers and clients tell each other.
pub(crate) fn build() -> String {
    format!("terravox {}", env!("CARGO_PKG_VERSION"))
}

/// `terravox serve`.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    world: WorldArgs,
    /// The UDP port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to listen on (default: every address of this machine).
    #[arg(long, default_value = "0.0.0.0")]
    bind: IpAddr,
    /// Folder of the world's save (default: the platform's data folder, as the game).
    #[arg(long)]
    save_dir: Option<PathBuf>,
    /// Players at most.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=1024))]
    max_players: u16,
    /// A password: players need it to join, and traffic is encrypted and
    /// authenticated with a key made from it. Without one the server is open to
    /// anyone who reaches its port, and unencrypted.
    #[arg(long)]
    password: Option<String>,
    /// The server's name, shown to joining players.
    #[arg(long, default_value = "terravox")]
    name: String,
}

/// `terravox bot`: a headless client.
#[derive(Args, Debug)]
pub(crate) struct BotArgs {
    /// The server, HOST[:PORT].
    #[arg(long)]
    join: String,
    /// The player's name.
    #[arg(long, default_value = "bot")]
    name: String,
    /// The server's password.
    #[arg(long)]
    password: Option<String>,
    /// Walk a circle and dig and build.
    #[arg(long)]
    walk: bool,
    /// Edits a second while walking.
    #[arg(long, default_value_t = 2.0)]
    edits_per_second: f32,
    /// Leave after this many seconds (else at `quit` or when standard input ends).
    #[arg(long)]
    seconds: Option<f64>,
    /// Stand at X,Y,Z.
    #[arg(long, value_parser = crate::parse_at, allow_hyphen_values = true)]
    at: Option<[f64; 3]>,
}

/// Runs a dedicated server until `stop` on its console, SIGINT or SIGTERM.
pub(crate) fn serve(args: &ServeArgs) -> Result<(), String> {
    let world = args.world.resolve()?;
    let save_dir = args
        .save_dir
        .clone()
        .or_else(terravox_edits::default_save_dir)
        .ok_or("no data folder on this platform: give the save folder with --save-dir")?;
    let server = Server::start(ServerOptions {
        world: world.clone(),
        bind: SocketAddr::new(args.bind, args.port),
        save_dir: save_dir.clone(),
        max_players: usize::from(args.max_players),
        password: args.password.clone(),
        name: args.name.clone(),
        build: build(),
    })?;
    say!(
        "terravox server: a {} world, seed {:?}, generator version {}; saved in {}",
        world.generator_name(),
        world.seed.text(),
        world.version,
        save_dir.display()
    );
    say!(
        "listening on {} (players join with: terravox play --join HOST:{})",
        server.local_addr(),
        server.local_addr().port()
    );
    if args.password.is_some() {
        say!("password set: players need it, and traffic is encrypted and authenticated");
    } else {
        say!(
            "open and unencrypted: anyone who can reach this port can join and read the traffic (set --password to close it)"
        );
    }
    say!("console: list, kick NAME, say TEXT, stop");
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
        eprintln!("terravox: no handler for SIGINT/SIGTERM ({e}): use `stop` to save");
    }
    let (tx, console) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            match Command::parse(&line) {
                Ok(c) => {
                    if tx.send(c).is_err() {
                        break;
                    }
                }
                Err(e) => eprintln!("{e}"),
            }
        }
    });
    server::run(server, &console, &stop, &mut |line| say!("{line}"))
}

/// Runs a headless client (see `terravox_net::bot`), reading commands from standard
/// input and writing what happens to standard output.
pub(crate) fn bot(args: &BotArgs) -> Result<(), String> {
    let (tx, commands) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let options = BotOptions {
        join: JoinOptions {
            address: args.join.clone(),
            name: args.name.clone(),
            password: args.password.clone(),
            build: build(),
        },
        walk: args.walk,
        edits_per_second: args.edits_per_second,
        seconds: args.seconds,
        at: args.at,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    bot::run(&options, commands, &mut out)
}

/// Joins the server at `address` for `play --join`: the session for the game, the
/// world, and where this name last stood there.
pub(crate) fn join_for_play(
    address: &str,
    name: Option<String>,
    password: Option<String>,
) -> Result<
    (
        terravox_game::Remote,
        terravox_worldgen::WorldConfig,
        Option<[f64; 3]>,
    ),
    String,
> {
    let options = JoinOptions {
        address: address.to_owned(),
        name: name.unwrap_or_else(terravox_net::client::default_name),
        password,
        build: build(),
    };
    say!("joining {} as {}…", options.address, options.name);
    let joined = terravox_net::client::join(&options).map_err(|e| e.to_string())?;
    say!(
        "joined: a {} world, generator version {}, {} edits to load, {} other players",
        joined.world.generator_name(),
        joined.world.version,
        joined.welcome.backlog,
        joined.welcome.players.len()
    );
    let (world, at) = (joined.world.clone(), joined.welcome.at.map(|p| p.feet));
    Ok((terravox_game::Remote::new(joined, options), world, at))
}
