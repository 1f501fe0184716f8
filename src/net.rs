//! `terravox serve` (a dedicated server: no window, no GPU), `terravox ping` (what a
//! server says of itself) and `terravox bot` (a headless client, for `bench --net`
//! and the tests): the command lines over `terravox_net`.

use std::io::BufRead;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

use clap::Args;
use terravox_net::bot::{self, BotOptions};
use terravox_net::client::{JoinOptions, Profile};
use terravox_net::known::Pin;
use terravox_net::server::{self, COMMANDS, Command, DEFAULT_PORT, Server, ServerOptions};
use terravox_net::swarm;
use terravox_net::{MAX_MOTD, MAX_PASSWORD, MAX_SERVER_NAME};

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
    /// A password players need to join (it travels sealed to the server's identity:
    /// nobody who captures the traffic can read it or try guesses against it).
    /// Without one anyone who reaches the port may join. Traffic is encrypted and
    /// every player identified by its key either way.
    #[arg(long)]
    password: Option<String>,
    /// The server's name, shown by `terravox ping` and to joining players (at most
    /// 32 bytes).
    #[arg(long, default_value = "terravox")]
    name: String,
    /// A message of the day, shown by `terravox ping` and to joining players (at
    /// most 200 bytes).
    #[arg(long, default_value = "")]
    motd: String,
    /// Let every player fly and pass through blocks (a builders' world); else only
    /// operators may, and the server takes only the moves a walking, swimming body
    /// makes.
    #[arg(long)]
    allow_flying: bool,
    /// Serve metrics in Prometheus's text format at http://ADDR/metrics (tick time,
    /// players, bytes, edits, water, journal), e.g. 127.0.0.1:9225: keep it off a
    /// public address.
    #[arg(long)]
    metrics: Option<SocketAddr>,
    /// Make this player (a name, or a key of 64 hex digits) an operator (kept in
    /// ops.txt); may be given more than once.
    #[arg(long = "op")]
    ops: Vec<String>,
    /// How far, in blocks across the land, a player is sent the others' edits: a
    /// far view shows them; farther ones come as the player travels.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(16..=65_536))]
    edit_reach: u32,
    /// How far, in blocks, a player is sent the water's changes as they happen;
    /// farther water is sent as it is when the player comes near.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=65_536))]
    water_reach: u32,
}

/// `terravox ping`.
#[derive(Args, Debug)]
pub(crate) struct PingArgs {
    /// The server, HOST[:PORT] (port 27050 unless given).
    address: String,
    /// The player profile whose pinned servers to compare with (default: the data
    /// folder's `player`).
    #[arg(long)]
    profile: Option<PathBuf>,
}

/// How a client joins: the player's profile, and whether to take a server's new
/// identity.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ProfileArgs {
    /// The player's profile folder: its identity (`identity.key`, made on first use:
    /// servers bind your name to it) and the servers it joined (`known_servers.txt`).
    /// Default: `player` in the platform's data folder.
    #[arg(long)]
    pub(crate) profile: Option<PathBuf>,
    /// Join a server whose identity changed since you first joined it, and pin its
    /// new one (only when its owner told you it made a new one).
    #[arg(long)]
    pub(crate) accept_new_identity: bool,
}

impl ProfileArgs {
    fn profile(&self) -> Result<Profile, String> {
        profile(self.profile.clone())
    }
}

/// The profile in `dir`, or the data folder's.
fn profile(dir: Option<PathBuf>) -> Result<Profile, String> {
    match dir {
        Some(d) => Ok(Profile(d)),
        None => terravox_edits::default_save_dir()
            .map(|d| Profile::in_data(&d))
            .ok_or_else(|| "no data folder on this platform: give one with --profile".to_owned()),
    }
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
    #[command(flatten)]
    profile: ProfileArgs,
    /// Walk a circle and dig and build.
    #[arg(long)]
    walk: bool,
    /// Edits a second while walking.
    #[arg(long, default_value_t = 2.0)]
    edits_per_second: f32,
    /// Leave after this many seconds (else at `quit` or when standard input ends).
    #[arg(long)]
    seconds: Option<f64>,
    /// Join again when the connection is lost, and offer the unanswered edits again.
    #[arg(long)]
    rejoin: bool,
    /// Stand at X,Y,Z.
    #[arg(long, value_parser = crate::parse::parse_at, allow_hyphen_values = true, conflicts_with = "swarm")]
    at: Option<[f64; 3]>,
    /// Run N bots in this one process, named NAME0, NAME1, ..., each with its own
    /// connection and keys (in the folder NAME0, ... of --profile, which it needs);
    /// a command line `NAME COMMAND` goes to one, `* COMMAND` to all, and each line
    /// written starts with its bot's name.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1000))]
    swarm: Option<u16>,
    /// With --swarm: blocks between neighbours on the square grid the bots stand on,
    /// centred on the land near the origin (500 spreads them far apart).
    #[arg(long, default_value_t = 8, requires = "swarm", value_parser = clap::value_parser!(u32).range(0..=100_000))]
    spread: u32,
}

/// The loopback address swarm bot `i` sends from: 127.0.0.2 on, 250 a /24.
fn own_loopback(i: usize) -> IpAddr {
    IpAddr::from([127, 0, (i / 250) as u8, (2 + i % 250) as u8])
}

/// Where bot `i` of `n` stands, from the land near the origin: a square grid
/// `spread` blocks apart, centred on it.
fn grid(i: usize, n: usize, spread: u32) -> [i32; 2] {
    let side = (1..).find(|s| s * s >= n).unwrap_or(1);
    let spread = spread as i32;
    let at = |k: usize| (k as i32 - (side as i32 - 1) / 2) * spread;
    [at(i % side), at(i / side)]
}

/// Runs a dedicated server until `stop` on its console, SIGINT or SIGTERM.
pub(crate) fn serve(args: &ServeArgs) -> Result<(), String> {
    let world = args.world.resolve()?;
    for (what, text, most) in [
        ("--name", &args.name, MAX_SERVER_NAME),
        ("--motd", &args.motd, MAX_MOTD),
    ] {
        if text.len() > most {
            return Err(format!("{what} is {} bytes: at most {most}", text.len()));
        }
    }
    if args
        .password
        .as_ref()
        .is_some_and(|p| p.len() > MAX_PASSWORD)
    {
        return Err(format!("--password is longer than {MAX_PASSWORD} bytes"));
    }
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
        motd: args.motd.clone(),
        allow_flying: args.allow_flying,
        metrics: args.metrics,
        ops: args.ops.clone(),
        build: build(),
        reaches: server::Reaches {
            edits: f64::from(args.edit_reach),
            water: f64::from(args.water_reach),
        },
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
    say!(
        "identity {} (in {}: clients pin it the first time they join)",
        server.identity(),
        save_dir.join(server::IDENTITY_FILE).display()
    );
    if args.password.is_some() {
        say!("password set: players need it to join");
    } else {
        say!(
            "no password: anyone who can reach this port may join (set --password, or the allowlist, to close it)"
        );
    }
    if let Some(addr) = server.metrics_addr() {
        say!("metrics on http://{addr}/metrics");
    }
    say!("console: {COMMANDS}");
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
            profile: args.profile.profile()?,
            accept_new_identity: args.profile.accept_new_identity,
            from: None,
        },
        walk: args.walk,
        edits_per_second: args.edits_per_second,
        seconds: args.seconds,
        at: args.at,
        offset: [0, 0],
        rejoin: args.rejoin,
        pace: bot::PACE,
    };
    let Some(n) = args.swarm.map(usize::from) else {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        return bot::run(&options, &Default::default(), commands, &mut out);
    };
    let dir = args
        .profile
        .profile
        .clone()
        .ok_or("--swarm needs --profile DIR: each of its bots keeps its keys in DIR/NAME")?;
    // On this machine's loopback each bot sends from an address of its own, as
    // players do: a server limits what one address may send.
    let loopback = terravox_net::client::resolve(&args.join)
        .map_err(|e| e.to_string())?
        .ip()
        .is_loopback();
    let members = (0..n)
        .map(|i| {
            let mut o = options.clone();
            o.join.name = format!("{}{i}", args.name);
            o.join.profile = Profile(dir.join(&o.join.name));
            o.offset = grid(i, n, args.spread);
            o.join.from = loopback.then(|| own_loopback(i));
            o.pace = bot::FRAME;
            o
        })
        .collect();
    swarm::run(
        members,
        commands,
        // Buffered: the swarm flushes it every 50 ms (thousands of lines a second).
        Arc::new(std::sync::Mutex::new(std::io::BufWriter::with_capacity(
            1 << 16,
            std::io::stdout(),
        ))),
    );
    Ok(())
}

/// Joins the server at `address` for `play --join`: the session for the game, the
/// world, and where this name last stood there.
pub(crate) fn join_for_play(
    address: &str,
    name: Option<String>,
    password: Option<String>,
    how: &ProfileArgs,
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
        profile: how.profile()?,
        accept_new_identity: how.accept_new_identity,
        from: None,
    };
    let pinged = terravox_net::client::ping(address).map_err(|e| e.to_string())?;
    say_server(&pinged.info);
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

/// What a server says of itself, a line each.
fn say_server(info: &terravox_net::Info) {
    say!("server: {}", info.name);
    if !info.motd.is_empty() {
        say!("  {}", info.motd);
    }
    say!(
        "  {} of {} players; {}; protocol {}, generator version {}",
        info.players.0,
        info.players.1,
        if info.password {
            "wants a password"
        } else {
            "no password"
        },
        info.protocol,
        info.generator_version
    );
}

/// `terravox ping`: what the server at an address says of itself, and whether this
/// player's profile pinned its identity.
pub(crate) fn ping(args: &PingArgs) -> Result<(), String> {
    let p = terravox_net::client::ping(&args.address).map_err(|e| e.to_string())?;
    say!(
        "{} answered in {:.1} ms",
        p.addr,
        p.round_trip.as_secs_f64() * 1000.0
    );
    say_server(&p.info);
    let profile = profile(args.profile.clone())?;
    let pin =
        terravox_net::client::pinned(&profile, p.addr, p.info.key).map_err(|e| e.to_string())?;
    say!(
        "  identity {} ({})",
        p.info.key,
        match pin {
            Pin::New => "not joined before: pinned when you join".to_owned(),
            Pin::Same => "the one you pinned".to_owned(),
            Pin::Changed(old) => format!(
                "NOT the one you pinned, {}: joining is refused unless you accept it",
                old.short()
            ),
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::grid;

    #[test]
    fn a_swarm_stands_on_a_square_grid_around_the_land_near_the_origin() {
        assert_eq!(grid(0, 1, 500), [0, 0]);
        let nine: Vec<[i32; 2]> = (0..9).map(|i| grid(i, 9, 8)).collect();
        assert_eq!(nine[0], [-8, -8]);
        assert_eq!(nine[4], [0, 0]);
        assert_eq!(nine[8], [8, 8]);
        // A hundred, 500 apart: ten by ten, 4.5 km across.
        let hundred: std::collections::BTreeSet<[i32; 2]> =
            (0..100).map(|i| grid(i, 100, 500)).collect();
        assert_eq!(hundred.len(), 100);
        assert_eq!(hundred.first(), Some(&[-2000, -2000]));
        assert_eq!(hundred.last(), Some(&[2500, 2500]));
    }

    #[test]
    fn each_bot_of_a_swarm_has_a_loopback_address_of_its_own() {
        use super::own_loopback;
        let all: std::collections::BTreeSet<_> = (0..1000).map(own_loopback).collect();
        assert_eq!(all.len(), 1000);
        assert!(all.iter().all(|a| a.is_loopback()));
        assert_eq!(own_loopback(0).to_string(), "127.0.0.2");
        assert_eq!(own_loopback(250).to_string(), "127.0.1.2");
    }
}
