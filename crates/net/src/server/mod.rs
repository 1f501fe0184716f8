//! The dedicated server: a world's authority run headless over the terrain it makes
//! itself (the chunks around its players and where water flows), its players'
//! connections, and the save. It decides every edit, steps the water, keeps the
//! clock, and sends each client the backlog of edits when it joins, then every
//! change (a player's edits at once, the water's coalesced by chunk under a budget),
//! where the others are and the time. No terrain is sent.
//!
//! One tick ([`Server::tick`], 30 a second) reads what arrived, answers the join's
//! handshakes, lets the authority decide, makes the edits durable (the journal)
//! before answering them, steps the water, and sends. A client that sends what the
//! protocol does not allow (a message that does not decode, an edit before hello, a
//! flood) is dropped; nobody else is.
//!
//! A file a concern: `join` (handshakes, connections, hello, leaving), `reading`
//! (messages and edits), `moving` (moves judged), `water`, `sending`, `operate`
//! (commands), with the state they share here.
//!
//! The server has an identity of its own (`server-identity.key` in its save folder,
//! [`crate::identity`]); every player is someone (a name bound to a key,
//! `players.txt`, `roster`); who may join is in plain files (`access`), changed
//! from the console or by operators in chat (`operate`).

mod access;
mod admission;
mod clients;
mod console;
mod interest;
mod join;
mod metrics;
mod moving;
mod operate;
mod reading;
mod roster;
mod sending;
mod store;
#[cfg(test)]
mod tests;
mod tracking;
mod water;

use std::collections::{BTreeMap, VecDeque};
use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use renet::{ChannelConfig, ConnectionConfig, RenetServer, SendType};
use terravox_authority::{Authority, PlayerId, Role};
use terravox_voxel::{BlockPos, ChunkPos};
use terravox_worldgen::{Generator, WorldConfig};

use crate::around::Around;
use crate::identity::{Identity, PublicKey};
use crate::protocol::{Channel, ToClient};
use crate::transport::{Info, ServerTransport};
use crate::wire::{Udp, Wire};
use access::Access;
use admission::Door;
use clients::Client;
pub use console::{COMMANDS, Command};
pub use interest::Reaches;
use reading::{Asked, Made};
use roster::Roster;
pub use sending::WATER_BYTES_PER_SECOND;
use store::Store;
use water::WaterWork;

/// Time between ticks.
pub const TICK: Duration = Duration::from_micros(33_333);
/// The port a server listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 27_050;
/// A client has this long to say hello once connected.
const HELLO_WAIT: Duration = Duration::from_secs(5);
/// A client silent this long is taken for gone when its name joins again.
const STALE: Duration = Duration::from_secs(1);
/// Bytes the server's reliable channel may hold unacknowledged, per client (renet's
/// bound): the backlog's room and the messages after it.
const CHANNEL_BYTES: usize = 8 << 20;
/// Bytes a client's reliable channel may hold on the server: what a client says in a
/// second at its most (messages at their rate and burst, each under a kilobyte,
/// chat the longest) several times over.
const CLIENT_CHANNEL_BYTES: usize = 256 << 10;
/// Bytes of a client's moves held: a few seconds of them.
const CLIENT_MOVES_BYTES: usize = 16 << 10;
/// Tick times kept for the figures.
const TICKS_KEPT: usize = 100_000;
/// Time between readings of the access files and writings of the roster.
const RELOAD_EVERY: Duration = Duration::from_secs(2);
const ROSTER_EVERY: Duration = Duration::from_secs(30);
/// Time between settings of the metrics, and the ticks their quantiles cover (30 s).
const METRICS_EVERY: Duration = Duration::from_secs(1);
const METRICS_TICKS: usize = 900;
/// The file of the server's identity in its save folder.
pub const IDENTITY_FILE: &str = "server-identity.key";

/// How a server is set up.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// The world.
    pub world: WorldConfig,
    /// Where to listen.
    pub bind: SocketAddr,
    /// Where the world is saved.
    pub save_dir: PathBuf,
    /// Players at most.
    pub max_players: usize,
    /// The password, if any: then traffic is encrypted and authenticated.
    pub password: Option<String>,
    /// Its name, for queries.
    pub name: String,
    /// Its message of the day, for queries.
    pub motd: String,
    /// Whether every player may fly (and pass through blocks); else only operators.
    pub allow_flying: bool,
    /// Where to serve the metrics (Prometheus's text format at `/metrics`), if
    /// anywhere.
    pub metrics: Option<SocketAddr>,
    /// Names or keys made operators at start (written to `ops.txt`): a game that
    /// opens its world to others makes its own player one.
    pub ops: Vec<String>,
    /// This build, said to clients (`terravox x.y.z`).
    pub build: String,
    /// How far each client is sent the edits and the water's changes.
    pub reaches: Reaches,
}

/// Figures of a running server.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Every tick's time, the latest 100,000.
    pub ticks: Vec<Duration>,
    /// UDP payload bytes sent and received.
    pub sent: u64,
    /// UDP payload bytes received.
    pub received: u64,
}

/// A running server (see the module docs).
pub struct Server {
    options: ServerOptions,
    transport: ServerTransport,
    renet: RenetServer,
    authority: Authority,
    chunks: Around,
    store: Option<Store>,
    clients: BTreeMap<u64, Client>,
    next_player: PlayerId,
    hashes: Vec<(ChunkPos, u64)>,
    /// Its identity: what proves it to clients that pinned it.
    identity: Identity,
    /// The password, the wrong guesses, the tokens given.
    door: Door,
    /// Operators, allowlist, bans.
    access: Access,
    /// Names bound to keys; where each player last stood.
    roster: Roster,
    /// The world's save key (the roster keeps poses per world).
    world_key: u64,
    /// The server's clock: when it started, and every tick's time since. Its rules
    /// read this, never the wall clock, so a test drives them tick by tick.
    now: Instant,
    last_reload: Instant,
    last_roster: Instant,
    /// The metrics, if served, and when they were last set.
    metrics: Option<(metrics::Metrics, Instant)>,
    /// Edits made and durable since the server started.
    edits_made: u64,
    water: WaterWork,
    /// Edits made, not yet durable (the journal could not be written).
    held: Vec<Made>,
    /// Edits asked for in chunks the server is still making.
    waiting: Vec<Asked>,
    last_poses: Instant,
    /// Updates of where the players are so far (whose turn it is, by distance).
    pose_updates: u64,
    /// The group of clients sent the current update next ([`sending`]'s
    /// `POSE_GROUPS` when all were).
    pose_group: u64,
    last_clock: Instant,
    ticks: VecDeque<Duration>,
    /// Lines for the console.
    notes: Vec<String>,
}

/// The renet channels (both ways the same).
pub(crate) fn connection_config() -> ConnectionConfig {
    let channels = |world: usize, moves: usize| {
        vec![
            ChannelConfig {
                channel_id: Channel::World.into(),
                max_memory_usage_bytes: world,
                send_type: SendType::ReliableOrdered {
                    resend_time: Duration::from_millis(200),
                },
            },
            ChannelConfig {
                channel_id: Channel::Moves.into(),
                max_memory_usage_bytes: moves,
                send_type: SendType::Unreliable,
            },
        ]
    };
    ConnectionConfig {
        available_bytes_per_tick: 256 << 10,
        server_channels_config: channels(CHANNEL_BYTES, 1 << 20),
        client_channels_config: channels(CLIENT_CHANNEL_BYTES, CLIENT_MOVES_BYTES),
    }
}

/// The chunks whose hashes a joining client checks: the land at a few columns spread
/// over the world's first kilometres (the surface, its water and trees), as generated.
pub fn hash_chunks(generator: &Generator) -> Vec<(ChunkPos, u64)> {
    [[0, 0], [1000, -700], [-2500, 1800], [300, 3000]]
        .into_iter()
        .map(|[x, z]| {
            let c = BlockPos::new(x, generator.surface_height(x, z), z)
                .to_chunk()
                .0;
            (c, generator.generate(c).content_hash())
        })
        .collect()
}

impl Server {
    /// Opens the world's save (refused where another terravox holds it or it cannot
    /// be read) and listens.
    pub fn start(options: ServerOptions) -> Result<Self, String> {
        let listen = |e: std::io::Error| format!("cannot listen on {}: {e}", options.bind);
        let socket = UdpSocket::bind(options.bind).map_err(listen)?;
        let wire = Udp::drained(socket).map_err(listen)?;
        Self::start_on(options, Box::new(wire))
    }

    /// [`Server::start`] over `wire`.
    fn start_on(options: ServerOptions, wire: Box<dyn Wire>) -> Result<Self, String> {
        let now = Instant::now();
        let generator = Arc::new(Generator::new(&options.world).map_err(|e| e.to_string())?);
        let identity = Identity::load_or_create(&options.save_dir.join(IDENTITY_FILE))
            .map_err(|e| e.to_string())?;
        let roster = Roster::open(&options.save_dir)?;
        let opened = Store::open(&options.save_dir, &options.world)?;
        let (mut access, mut notes) = Access::open(&options.save_dir);
        for word in &options.ops {
            let who = match access::Who::parse(word) {
                Some(access::Who::Address(_)) | None => {
                    return Err(format!("--op {word}: an operator is a name or a key"));
                }
                Some(who) => who,
            };
            if let Err(e) = access.add(access::Kind::Ops, who, "") {
                notes.push(e);
            }
        }
        notes.extend(opened.notes);
        let door = Door::new(options.password.as_deref());
        let info = Info {
            protocol: crate::protocol::PROTOCOL,
            password: door.wants_password(),
            key: identity.public(),
            players: (0, options.max_players.min(usize::from(u16::MAX)) as u16),
            generator_version: options.world.version,
            name: options.name.clone(),
            motd: options.motd.clone(),
        };
        let transport = ServerTransport::new(wire, options.max_players, info);
        let metrics = match options.metrics {
            Some(addr) => Some((metrics::Metrics::serve(addr)?, now)),
            None => None,
        };
        let mut authority = Authority::new(options.world.clone(), Role::Local);
        authority.replace(options.world.clone(), opened.edits);
        let hashes = hash_chunks(&generator);
        Ok(Self {
            transport,
            renet: RenetServer::new(connection_config()),
            authority,
            chunks: Around::new(generator),
            store: Some(opened.store),
            clients: BTreeMap::new(),
            next_player: 1,
            hashes,
            identity,
            door,
            access,
            roster,
            world_key: terravox_edits::world_key(&options.world),
            now,
            last_reload: now,
            last_roster: now,
            metrics,
            edits_made: 0,
            water: WaterWork::default(),
            held: Vec::new(),
            waiting: Vec::new(),
            last_poses: now,
            pose_updates: 0,
            pose_group: u64::MAX,
            last_clock: now,
            ticks: VecDeque::new(),
            notes,
            options,
        })
    }

    /// Where its metrics are served, if they are.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(|(m, _)| m.addr)
    }

    /// Its identity, as clients pin it.
    pub fn identity(&self) -> PublicKey {
        self.identity.public()
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.transport.local_addr().unwrap_or(self.options.bind)
    }

    /// The world's authority.
    pub fn authority(&self) -> &Authority {
        &self.authority
    }

    /// Takes the lines for the console written since the last call.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The figures so far.
    pub fn figures(&self) -> Figures {
        Figures {
            ticks: self.ticks.iter().copied().collect(),
            sent: self.transport.sent,
            received: self.transport.received,
        }
    }

    /// One tick of `dt` (see the module docs).
    pub fn tick(&mut self, dt: Duration) {
        let started = Instant::now();
        self.now += dt;
        self.transport.update(self.now, dt, &mut self.renet);
        self.renet.update(dt);
        self.knocks();
        self.connections();
        let mut made = self.read_all(dt);
        self.chunks_in();
        self.act_waiting(&mut made);
        self.authority.advance(dt.as_secs_f32());
        self.make_durable(made);
        self.step_water();
        // Where the edits changed is for a horizon to make again; a server has none.
        let _ = self.authority.take_changed();
        if let Some(store) = &mut self.store
            && let Some(note) = store.tick(&self.authority, self.now)
        {
            self.notes.push(note);
        }
        self.send_all(dt);
        self.transport.send(&mut self.renet);
        self.leave_departed();
        self.transport.set_players(self.playing());
        self.housekeeping();
        if self.ticks.len() == TICKS_KEPT {
            self.ticks.pop_front();
        }
        self.ticks.push_back(started.elapsed());
    }

    /// How many clients play (said hello and were let in).
    fn playing(&self) -> usize {
        self.clients.values().filter(|c| c.player.is_some()).count()
    }

    /// The access files edited by hand taken up, the roster written, now and then.
    fn housekeeping(&mut self) {
        if self.now.duration_since(self.last_reload) >= RELOAD_EVERY {
            self.last_reload = self.now;
            let notes = self.access.reload();
            self.notes.extend(notes);
        }
        if self.now.duration_since(self.last_roster) >= ROSTER_EVERY {
            self.last_roster = self.now;
            self.keep_players();
        }
        self.set_metrics();
    }

    /// The metrics' figures, once a second while they are served.
    fn set_metrics(&mut self) {
        if self
            .metrics
            .as_ref()
            .is_none_or(|(_, last)| self.now.duration_since(*last) < METRICS_EVERY)
        {
            return;
        }
        let players = self.playing();
        let Some((m, last)) = &mut self.metrics else {
            return;
        };
        *last = self.now;
        let window = self.ticks.len().saturating_sub(METRICS_TICKS);
        let pending = self.authority.pending();
        m.set(&metrics::Figures {
            ticks: metrics::quantiles(
                self.ticks
                    .range(window..)
                    .map(Duration::as_secs_f64)
                    .collect(),
            ),
            players,
            received: self.transport.received,
            sent: self.transport.sent,
            edits: self.edits_made,
            water_due: pending.due_count(),
            water_waiting: pending.waiting().len(),
            journal_bytes: self.store.as_ref().map_or(0, Store::journal_bytes),
        });
    }

    /// The ticks' times so far: median, 99th percentile, longest, and how many.
    pub fn tick_figures(&self) -> ([Duration; 3], usize) {
        (
            metrics::quantiles(self.ticks.iter().copied().collect()),
            self.ticks.len(),
        )
    }

    /// Stops: tells every client, disconnects them and saves the world whole.
    pub fn stop(mut self) -> Result<String, String> {
        self.broadcast(&ToClient::Say("the server stops".to_owned()));
        self.keep_players();
        self.transport.send(&mut self.renet);
        self.transport.disconnect_all(&mut self.renet);
        // Edits still held (the journal failed) are in the final save.
        match self.store.take() {
            Some(store) => store.finish(&self.authority),
            None => Ok(String::new()),
        }
    }
}

/// Runs `server` until `stop` is set or the console says `stop`, a tick every
/// [`TICK`]; `console` brings the console's commands, `say` prints a line. Saves the
/// world whole when it stops.
pub fn run(
    mut server: Server,
    console: &Receiver<Command>,
    stop: &std::sync::atomic::AtomicBool,
    say: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let mut last = Instant::now();
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let now = Instant::now();
        server.tick(now - last);
        last = now;
        for note in server.take_notes() {
            say(&note);
        }
        while let Ok(command) = console.try_recv() {
            let stopping = command == Command::Stop;
            say(&server.command(command));
            if stopping {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        if let Some(wait) = TICK.checked_sub(now.elapsed()) {
            std::thread::sleep(wait);
        }
    }
    let ([median, p99, max], n) = server.tick_figures();
    say(&format!(
        "ticks: {n}, median {} µs, p99 {} µs, longest {} µs",
        median.as_micros(),
        p99.as_micros(),
        max.as_micros()
    ));
    let saved = server.stop()?;
    say(&saved);
    Ok(())
}
