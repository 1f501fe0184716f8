//! "Open to others": the world being played, hosted by a server of this terravox (a
//! process of its own, `terravox serve`, as a dedicated server runs), which this game
//! then joins like any other player. The game writes its edits and hands the world's
//! save and lock over first; from then on the server saves the world. When the game
//! ends the server is told to stop (it saves, then exits).

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, futures::check_ready};
use terravox_net::client::{JoinOptions, Joined, Profile, join};
use terravox_net::loopback::ServerProcess;

use super::{Chat, Others, begin};
use crate::mode::CanChat;
use crate::persistence::Saves;
use crate::schedule::GameSystems;
use crate::world::{Notices, WorldAuthority};

/// Asks to open the world being played to others (the panel).
#[derive(Message, Clone, Debug)]
pub struct OpenToOthers {
    /// The UDP port to listen on (0: any free one).
    pub port: u16,
    /// A password others need, if any.
    pub password: Option<String>,
    /// This player's name.
    pub name: String,
}

/// What the server started, joined.
type Started = Result<(ServerProcess, Joined, JoinOptions), String>;

/// Whether this world is open to others, and how.
#[derive(Resource, Default)]
pub enum Hosting {
    /// Not open.
    #[default]
    Closed,
    /// The server is starting.
    Starting(Task<Started>),
    /// Open: the server, and its port.
    Open(ServerProcess),
    /// It could not be opened, and why.
    Failed(String),
}

impl Hosting {
    /// What the panel says of it.
    pub fn describe(&self) -> String {
        match self {
            Hosting::Closed => String::new(),
            Hosting::Starting(_) => "starting the server…".to_owned(),
            Hosting::Open(server) => format!(
                "open to others on port {0}: they join with terravox play --join <this machine's address>:{0}",
                server.port
            ),
            Hosting::Failed(why) => format!("could not open the world: {why}"),
        }
    }
}

/// Where the server's executable is (`None`: this one).
#[derive(Resource, Clone)]
struct ServerExe(Option<PathBuf>);

pub(super) fn plugin(exe: Option<PathBuf>) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.init_resource::<Hosting>()
            .insert_resource(ServerExe(exe.clone()))
            .add_message::<OpenToOthers>()
            .add_systems(
                Update,
                (
                    open_world.run_if(on_message::<OpenToOthers>),
                    take_in_server,
                )
                    .chain()
                    .in_set(GameSystems::Persist),
            )
            .add_systems(Last, stop_server.run_if(on_message::<AppExit>));
    }
}

/// Hands the save over and starts the server on the I/O pool (it joins it there).
fn open_world(
    mut asked: MessageReader<OpenToOthers>,
    mut hosting: ResMut<Hosting>,
    exe: Res<ServerExe>,
    mut saves: ResMut<Saves>,
    mut world: ResMut<WorldAuthority>,
    mut notices: ResMut<Notices>,
) {
    let Some(ask) = asked.read().last().cloned() else {
        return;
    };
    if matches!(*hosting, Hosting::Starting(_) | Hosting::Open(_)) {
        return;
    }
    if world.role() == terravox_authority::Role::Client {
        *hosting = Hosting::Failed("this game plays on a server already".to_owned());
        return;
    }
    let dir = match saves.hand_over(&mut world, &mut notices) {
        Ok(dir) => dir,
        Err(why) => {
            *hosting = Hosting::Failed(why);
            return;
        }
    };
    let exe = match exe.0.clone().map_or_else(std::env::current_exe, Ok) {
        Ok(exe) => exe,
        Err(e) => {
            *hosting = Hosting::Failed(format!("cannot find terravox's executable: {e}"));
            return;
        }
    };
    let config = dir.dir().join("hosted-world.ron");
    let text = world.world().to_ron_pretty();
    *hosting = Hosting::Starting(IoTaskPool::get().spawn(async move {
        std::fs::write(&config, text)
            .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        let port = ask.port.to_string();
        let mut args = vec!["--bind", "0.0.0.0", "--config"];
        let config = config.display().to_string();
        args.push(&config);
        let name = format!("{}'s world", ask.name);
        args.extend(["--name", &name]);
        // The player who opened the world is its operator (it may fly, ban, ...).
        let profile = Profile::in_data(dir.dir());
        let key = profile
            .identity()
            .map_err(|e| e.to_string())?
            .public()
            .hex();
        args.extend(["--op", &key]);
        if let Some(p) = &ask.password {
            args.extend(["--password", p]);
        }
        let server = ServerProcess::start_on(&exe, dir.dir(), &port, &args)?;
        let options = JoinOptions {
            address: format!("127.0.0.1:{}", server.port),
            name: ask.name.clone(),
            password: ask.password.clone(),
            build: format!("terravox {}", env!("CARGO_PKG_VERSION")),
            profile,
            accept_new_identity: false,
            from: None,
        };
        let joined = join(&options).map_err(|e| e.to_string())?;
        Ok((server, joined, options))
    }));
}

/// Takes in the started server: this game plays on it from now on.
fn take_in_server(
    mut commands: Commands,
    time: Res<Time>,
    mut hosting: ResMut<Hosting>,
    mut world: ResMut<WorldAuthority>,
    mut others: ResMut<Others>,
    mut chat: ResMut<Chat>,
    mut notices: ResMut<Notices>,
) {
    let Hosting::Starting(task) = &mut *hosting else {
        return;
    };
    let Some(started) = check_ready(task) else {
        return;
    };
    match started {
        Ok((server, joined, options)) => {
            let now = time.elapsed_secs_f64();
            commands.insert_resource(begin(
                joined,
                options,
                &mut others,
                &mut chat,
                &mut world,
                now,
            ));
            commands.insert_resource(CanChat);
            *hosting = Hosting::Open(server);
            notices.push(hosting.describe());
        }
        Err(why) => {
            *hosting = Hosting::Failed(why);
            notices.push(hosting.describe());
        }
    }
}

/// The game ends: the server stops (saving the world) before it does.
fn stop_server(mut hosting: ResMut<Hosting>) {
    if let Hosting::Open(server) = std::mem::take(&mut *hosting)
        && let Err(e) = server.stop_within(Duration::from_secs(60))
    {
        error!("the hosted server: {e}");
    }
}
