//! Playing on a server (`terravox play --join`): the connection the command line
//! made, kept by [`Session`]. The world's authority decides for a client
//! (`Role::Client`): an edit shows at once and is sent to the server, whose answer
//! puts it right if it was refused; the server's edits, water and clock are laid in
//! as they arrive (the backlog first); where this player is goes out ten times a
//! second; the others ([`Others`]) and the chat ([`Chat`]) are kept for the screen.
//! A lost connection is joined again every few seconds, the world's edits made again
//! from the new backlog, and this player's edits the server had not answered asked
//! for again (`terravox_net::unanswered`): a long outage loses none. Nothing of a
//! server's world is saved here.

mod host;
mod others;

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, futures::check_ready};
use terravox_authority::{Clock, PlayerId, Role};
use terravox_net::client::{Connection, Event, JoinOptions, Joined, join};
use terravox_net::protocol::{Pose, ToClient, ToServer};
use terravox_net::unanswered::Unanswered;

use crate::config::Remote;
use crate::editing::Acted;
use crate::mode::CanChat;
use crate::player::{Player, Spawn};
use crate::schedule::GameSystems;
use crate::streaming::WorldBlocks;
use crate::world::{LOCAL_PLAYER, Notices, ReloadChunks, WorldAuthority};
pub use host::{Hosting, OpenToOthers};
pub use others::Others;

/// Time between moves sent.
const MOVE_EVERY: f64 = 0.1;
/// Time between tries to join again after the connection was lost.
const REJOIN_EVERY: f64 = 3.0;
/// Lines of chat kept.
const CHAT_LINES: usize = 100;

/// The lines of chat: who said what, joins and leaves, the server's lines.
#[derive(Resource, Default, Debug)]
pub struct Chat {
    /// `(when, in seconds of this game; the line)`, oldest first.
    pub lines: VecDeque<(f64, String)>,
}

impl Chat {
    fn push(&mut self, now: f64, line: String) {
        if self.lines.len() == CHAT_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back((now, line));
    }
}

/// Asks to send a line of chat (the chat box).
#[derive(Message, Clone, Debug)]
pub struct Say(pub String);

/// This game's session with a server.
#[derive(Resource)]
pub struct Session {
    connection: Option<Connection>,
    options: JoinOptions,
    /// This player's id on the server.
    you: PlayerId,
    /// Whether the backlog of edits is in.
    backlog_done: bool,
    /// Edits made and not answered (kept while the connection is lost).
    sent: Unanswered,
    /// Those to ask for again once the world's edits are in, after joining again.
    offer: Vec<ToServer>,
    /// The server's corrections of this player's moves taken.
    corrections: u32,
    /// Whether the server lets this player fly.
    may_fly: bool,
    last_move: f64,
    /// A join under way after the connection was lost.
    rejoin: Option<Task<Result<Joined, String>>>,
    last_try: f64,
    /// What the HUD says of the connection.
    status: String,
}

impl Session {
    /// The server's address and this player's name.
    pub fn server(&self) -> (&str, &str) {
        (&self.options.address, &self.options.name)
    }

    /// Whether the connection is up and the world's edits are all in.
    pub fn playing(&self) -> bool {
        self.connection.is_some() && self.backlog_done
    }

    /// What to say of the connection.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// UDP payload bytes received on this connection.
    pub fn received_bytes(&self) -> u64 {
        self.connection
            .as_ref()
            .map_or(0, Connection::received_bytes)
    }
}

/// The net plugin: the session's systems (while there is one: a server joined at
/// start, or this world opened to others), and the resources the screen reads.
pub(crate) fn plugin(
    remote: Option<Remote>,
    server_exe: Option<std::path::PathBuf>,
) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.init_resource::<Others>()
            .init_resource::<Chat>()
            .add_message::<Say>()
            .add_plugins(host::plugin(server_exe.clone()))
            .add_systems(
                Update,
                (receive, rejoin)
                    .chain()
                    .run_if(resource_exists::<Session>)
                    .in_set(GameSystems::Input),
            )
            .add_systems(
                Update,
                (keep_to_the_ground, send_move)
                    .run_if(resource_exists::<Session>)
                    .in_set(GameSystems::Simulate),
            )
            .add_systems(
                Update,
                (send_edits, send_chat)
                    .run_if(resource_exists::<Session>)
                    .in_set(GameSystems::Edit),
            );
        if let Some(remote) = remote.clone() {
            app.add_systems(
                Startup,
                move |mut commands: Commands,
                      mut world: ResMut<WorldAuthority>,
                      mut others: ResMut<Others>,
                      mut chat: ResMut<Chat>| {
                    let Some((joined, options)) = remote.take() else {
                        return;
                    };
                    let session = begin(joined, options, &mut others, &mut chat, &mut world, 0.0);
                    commands.insert_resource(session);
                    commands.insert_resource(CanChat);
                },
            );
        }
    }
}

/// A session on the server `joined`: this game becomes its client (the world's
/// authority decides for a client, its clock is the server's).
fn begin(
    joined: Joined,
    options: JoinOptions,
    others: &mut Others,
    chat: &mut Chat,
    world: &mut WorldAuthority,
    now: f64,
) -> Session {
    let mut session = Session {
        connection: None,
        options,
        you: 0,
        backlog_done: false,
        sent: Unanswered::default(),
        offer: Vec::new(),
        corrections: 0,
        may_fly: false,
        last_move: 0.0,
        rejoin: None,
        last_try: 0.0,
        status: String::new(),
    };
    world.set_role(Role::Client);
    start(&mut session, joined, others, chat, world, now);
    session
}

/// Takes a joined server into the session: its players, its clock, the bucket as
/// this player left it.
fn start(
    session: &mut Session,
    joined: Joined,
    others: &mut Others,
    chat: &mut Chat,
    world: &mut WorldAuthority,
    now: f64,
) {
    let w = &joined.welcome;
    world.set_clock(Clock::at(w.clock.0, w.clock.1));
    world.players_mut().set_bucket(LOCAL_PLAYER, w.bucket_full);
    session.you = w.you;
    session.backlog_done = false;
    session.offer = session.sent.offer_again();
    session.corrections = 0;
    session.may_fly = w.may_fly;
    session.status = format!(
        "on {} as {}: {} edits to load",
        session.options.address, session.options.name, w.backlog
    );
    others.clear();
    for (id, name) in &w.players {
        others.joined(*id, name.clone());
    }
    chat.push(
        now,
        format!(
            "joined {} as {} ({} playing)",
            session.options.address,
            session.options.name,
            w.players.len() + 1
        ),
    );
    session.connection = Some(joined.connection);
}

/// Takes in what the server sent.
fn receive(
    time: Res<Time>,
    mut session: ResMut<Session>,
    mut others: ResMut<Others>,
    mut chat: ResMut<Chat>,
    mut notices: ResMut<Notices>,
    mut blocks: WorldBlocks,
    mut player: Query<&mut Player>,
) {
    let now = time.elapsed_secs_f64();
    while let Some(event) = session.connection.as_ref().and_then(Connection::try_recv) {
        match event {
            Event::Message(ToClient::Correct {
                feet,
                corrections,
                why,
            }) => {
                session.corrections = corrections;
                if let Ok(mut p) = player.single_mut() {
                    p.position = bevy::math::DVec3::from_array(feet);
                    p.velocity = Vec3::ZERO;
                }
                chat.push(now, format!("the server put you back ({why})"));
            }
            Event::Message(m) => message(m, now, &mut session, &mut others, &mut chat, &mut blocks),
            Event::Ended(why) => {
                let line = format!(
                    "disconnected from {}: {why}; joining again…",
                    session.options.address
                );
                notices.push(line.clone());
                chat.push(now, line);
                session.connection = None;
                session.status = "disconnected: joining again…".to_owned();
                session.last_try = now;
                others.clear();
            }
        }
    }
}

/// One message from the server.
fn message(
    m: ToClient,
    now: f64,
    session: &mut Session,
    others: &mut Others,
    chat: &mut Chat,
    blocks: &mut WorldBlocks,
) {
    match m {
        ToClient::Blocks { changes, .. } => {
            for (p, b) in changes {
                blocks.lay(p, b);
            }
        }
        ToClient::BacklogDone => {
            session.backlog_done = true;
            if let Some(connection) = &session.connection {
                for m in std::mem::take(&mut session.offer) {
                    connection.send(m);
                }
            }
            session.status = format!("on {} as {}", session.options.address, session.options.name);
        }
        ToClient::Answer(a) => {
            if let Some(why) = a.refused {
                debug!("the server refused an edit: {why}");
            }
            if let Some((p, b)) = session.sent.answer(&a) {
                blocks.lay(p, b);
            }
            blocks
                .authority_mut()
                .players_mut()
                .set_bucket(LOCAL_PLAYER, a.bucket_full);
        }
        ToClient::Joined(id, name) => {
            chat.push(now, format!("{name} joined"));
            others.joined(id, name);
        }
        ToClient::Left(id, line) => {
            chat.push(now, line);
            others.left(id);
            blocks.authority_mut().players_mut().remove(id);
        }
        ToClient::Chat(id, text) => {
            let name = if id == session.you {
                session.options.name.clone()
            } else {
                others.name(id).unwrap_or("?").to_owned()
            };
            chat.push(now, format!("<{name}> {text}"));
        }
        ToClient::Say(line) | ToClient::Refused(line) => chat.push(now, line),
        ToClient::Clock(hours, paused) => {
            blocks.authority_mut().set_clock(Clock::at(hours, paused))
        }
        // Taken by `receive`, which holds the body.
        ToClient::Correct { .. } => {}
        ToClient::Players(poses) => {
            for (id, pose) in poses {
                others.update(id, pose, now);
                // Their bodies, for the rules' "not into a player" (a server counts
                // its players from 1: this game's own is 0).
                blocks.authority_mut().players_mut().place(id, pose.feet);
            }
        }
        ToClient::Welcome(_) => {}
    }
}

/// Joins again after the connection was lost, every few seconds, on a thread; the
/// world's edits are made again from the new backlog.
fn rejoin(
    time: Res<Time>,
    mut session: ResMut<Session>,
    mut others: ResMut<Others>,
    mut chat: ResMut<Chat>,
    mut world: ResMut<WorldAuthority>,
    mut reload: MessageWriter<ReloadChunks>,
) {
    let now = time.elapsed_secs_f64();
    if session.connection.is_some() {
        return;
    }
    if let Some(task) = &mut session.rejoin {
        match check_ready(task) {
            Some(Ok(joined)) => {
                session.rejoin = None;
                start(
                    &mut session,
                    joined,
                    &mut others,
                    &mut chat,
                    &mut world,
                    now,
                );
                reload.write(ReloadChunks(world.clear()));
            }
            Some(Err(why)) => {
                session.rejoin = None;
                session.status = format!("disconnected: {why}; trying again…");
            }
            None => {}
        }
        return;
    }
    if now - session.last_try >= REJOIN_EVERY {
        session.last_try = now;
        let options = session.options.clone();
        // A join waits on the network a few seconds at most: the I/O pool's.
        session.rejoin =
            Some(IoTaskPool::get().spawn(async move { join(&options).map_err(|e| e.to_string()) }));
    }
}

/// Tells the server of the edits this player made (kept to be offered again if the
/// connection is lost meanwhile).
fn send_edits(mut acted: MessageReader<Acted>, mut session: ResMut<Session>) {
    for a in acted.read() {
        let (_, message) = session.sent.send(a.action, a.before);
        if let Some(connection) = &session.connection {
            connection.send(message);
        }
    }
}

/// Sends the chat box's lines.
fn send_chat(mut said: MessageReader<Say>, session: Res<Session>) {
    for Say(text) in said.read() {
        if let Some(connection) = &session.connection {
            connection.send(ToServer::Chat(text.clone()));
        }
    }
}

/// On a server that does not let this player fly, it walks (F and N do nothing).
fn keep_to_the_ground(session: Res<Session>, mut player: Query<&mut Player>) {
    if session.may_fly {
        return;
    }
    for mut p in &mut player {
        if p.flying || p.noclip {
            p.flying = false;
            p.noclip = false;
        }
    }
}

/// Tells the server where this player is, ten times a second, once it stands where
/// it starts (the server judges every move from the first).
fn send_move(
    time: Res<Time>,
    mut session: ResMut<Session>,
    player: Query<&Player>,
    spawn: Res<Spawn>,
) {
    let now = time.elapsed_secs_f64();
    if now - session.last_move < MOVE_EVERY || spawn.feet().is_none() {
        return;
    }
    let (Ok(p), Some(connection)) = (player.single(), &session.connection) else {
        return;
    };
    let pose = Pose {
        feet: p.position.to_array(),
        yaw: p.yaw,
        pitch: p.pitch,
    };
    connection.send(ToServer::Move(pose, session.corrections));
    session.last_move = now;
}
