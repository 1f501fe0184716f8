//! A client's connection: joining (the query, the server's identity checked against
//! the one pinned, the handshake that proves both sides and carries the password,
//! netcode with the token it earned, hello, the welcome, and the check that this
//! build makes the server's world), then a thread of its own that keeps the
//! connection and hands over what arrives, so the game's frame rate never decides
//! how fast the network is read. A player's identity and the servers it pinned live
//! in its profile folder ([`Profile`]).

use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use renet::RenetClient;
use terravox_worldgen::{GENERATOR_VERSION, Generator, WorldConfig};
use thiserror::Error;

use crate::handshake::Request;
use crate::identity::{Identity, PublicKey};
use crate::known::{KnownServers, Pin};
use crate::protocol::{Channel, ToClient, ToServer, Welcome};
use crate::server::{DEFAULT_PORT, connection_config};
use crate::transport::{self, ClientTransport, Info, ReachError};
use crate::wire::Udp;

/// How long a join waits for each answer.
const WAIT: Duration = Duration::from_secs(5);
/// How long the connection thread sleeps between looks at the socket.
const POLL: Duration = Duration::from_millis(4);
/// Time between sends when there is nothing new to send (acknowledgements).
const IDLE_SEND: Duration = Duration::from_millis(50);

/// How to join.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    /// `HOST[:PORT]`.
    pub address: String,
    /// The player's name.
    pub name: String,
    /// The server's password, if it has one.
    pub password: Option<String>,
    /// This build, said to the server.
    pub build: String,
    /// The player's profile: its identity and the servers it pinned.
    pub profile: Profile,
    /// Take a server whose identity changed since it was pinned, and pin the new one.
    pub accept_new_identity: bool,
    /// The address of this machine's to send from, if not any (a swarm on one
    /// machine gives each bot a loopback address of its own, as players have their
    /// own: a server limits what one address may send).
    pub from: Option<std::net::IpAddr>,
}

/// A player's profile folder: `identity.key` (who the player is to every server)
/// and `known_servers.txt` (the servers it joined and the identity each proved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile(pub PathBuf);

impl Profile {
    /// The profile in the data folder `data` (the game's save folder): `data/player`.
    pub fn in_data(data: &Path) -> Self {
        Self(data.join("player"))
    }

    /// The player's identity, made on first use.
    pub fn identity(&self) -> Result<Identity, JoinError> {
        Identity::load_or_create(&self.0.join("identity.key"))
            .map_err(|e| JoinError::Profile(e.to_string()))
    }

    /// The servers it pinned.
    pub fn known(&self) -> Result<KnownServers, JoinError> {
        KnownServers::open(&self.0.join("known_servers.txt")).map_err(JoinError::Profile)
    }
}

/// Why a join failed.
#[derive(Debug, Error)]
pub enum JoinError {
    /// The address does not name a host.
    #[error("cannot find the server {0}: {1}")]
    Address(String, String),
    /// The server did not answer, speaks another protocol or wants a password.
    #[error(transparent)]
    Reach(#[from] ReachError),
    /// The player's profile (its identity, its pinned servers) cannot be used.
    #[error("{0}")]
    Profile(String),
    /// The server is not the one pinned.
    #[error(
        "the server at {addr} is not the one you joined before: it has another identity \
         ({now}, pinned {pinned} in {file}). Someone may be posing as it, or its owner made \
         it anew. If its owner tells you its new identity is {now}, join with \
         --accept-new-identity (or remove its line from that file)"
    )]
    IdentityChanged {
        /// Where.
        addr: SocketAddr,
        /// What was pinned (short).
        pinned: String,
        /// What it says now (short).
        now: String,
        /// The known servers file.
        file: String,
    },
    /// netcode's connection failed.
    #[error("the connection to {0} failed: {1}")]
    Connect(SocketAddr, String),
    /// The server refused this player.
    #[error("the server refused: {0}")]
    Refused(String),
    /// The world code cannot be made by this build.
    #[error("the server's world cannot be made by this terravox: {0}")]
    World(String),
    /// This build makes other blocks than the server's.
    #[error(
        "this terravox ({ours}, generator versions 1 to {GENERATOR_VERSION}) makes other blocks \
         than the server's ({theirs}, generator version {version}) for this world (chunk {chunk:?} \
         hashes {here:016x} here, {there:016x} there): joining would show you a different world, \
         so it stops here; play with the server's build"
    )]
    OtherWorld {
        /// This build.
        ours: String,
        /// The server's.
        theirs: String,
        /// The world's generator version.
        version: u32,
        /// The chunk that differs.
        chunk: terravox_voxel::ChunkPos,
        /// Its hash here and there.
        here: u64,
        /// Its hash on the server.
        there: u64,
    },
}

/// What the connection hands over.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A message from the server.
    Message(ToClient),
    /// The connection ended, and why.
    Ended(String),
}

/// What the connection's thread sends.
enum Outgoing {
    Message(ToServer),
    /// Raw bytes on the world channel (test-tools).
    #[cfg(feature = "test-tools")]
    Bytes(Vec<u8>),
}

/// A live connection to a server (see the module docs).
pub struct Connection {
    tx: Sender<Outgoing>,
    rx: std::sync::Mutex<Receiver<Event>>,
    link: Arc<LinkFigures>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// What the connection's thread says of the link, as it goes.
#[derive(Debug, Default)]
struct LinkFigures {
    /// UDP payload bytes received.
    received: AtomicU64,
    /// The smoothed round trip and the World channel's resend time, in µs.
    rtt_us: AtomicU64,
    resend_us: AtomicU64,
}

/// A joined game: the connection, the welcome, and the world it makes.
pub struct Joined {
    /// The connection.
    pub connection: Connection,
    /// What the server said first.
    pub welcome: Welcome,
    /// The world, from its code.
    pub world: WorldConfig,
    /// Its generator, checked against the server's hashes (shared with the other
    /// connections of the same [`Worlds`]).
    pub generator: Arc<Generator>,
}

/// The worlds a process joined: each world code's generator, made once and shared
/// (with the land it stores) by every connection to that world, and the server's
/// hashes it was checked against. A swarm's bots share one, so a hundred joins
/// make one generator and check it once.
#[derive(Default)]
pub struct Worlds {
    made: std::sync::Mutex<Vec<Made>>,
}

/// A world code's generator, and the hashes it matched.
struct Made {
    code: String,
    generator: Arc<Generator>,
    checked: Vec<Vec<(terravox_voxel::ChunkPos, u64)>>,
}

impl Worlds {
    /// The generator of `welcome`'s world, checked against its hashes (at most once
    /// for the same code and hashes).
    fn checked(
        &self,
        world: &WorldConfig,
        welcome: &Welcome,
        ours: &str,
    ) -> Result<Arc<Generator>, JoinError> {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        let i = match made.iter().position(|m| m.code == welcome.world_code) {
            Some(i) => i,
            None => {
                let generator =
                    Generator::new(world).map_err(|e| JoinError::World(e.to_string()))?;
                made.push(Made {
                    code: welcome.world_code.clone(),
                    generator: Arc::new(generator),
                    checked: Vec::new(),
                });
                made.len() - 1
            }
        };
        let m = &mut made[i];
        if !m.checked.contains(&welcome.hashes) {
            check_world(&m.generator, welcome, ours)?;
            m.checked.push(welcome.hashes.clone());
        }
        Ok(m.generator.clone())
    }
}

/// The user's name as a player's name (letters, digits, `_` and `-`, at most 16), or
/// `player`.
pub fn default_name() -> String {
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let name: String = user
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(crate::protocol::MAX_NAME)
        .collect();
    if name.is_empty() {
        "player".to_owned()
    } else {
        name
    }
}

/// The address `HOST[:PORT]` names (an IPv6 address in brackets with a port, or bare
/// without one; port 27050 unless given).
pub fn resolve(address: &str) -> Result<SocketAddr, JoinError> {
    let address = address.trim();
    let bad = |why: String| JoinError::Address(address.to_owned(), why);
    if let Ok(a) = address.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Ok(ip) = address.trim_matches(['[', ']']).parse::<std::net::IpAddr>() {
        return Ok(SocketAddr::new(ip, DEFAULT_PORT));
    }
    let with_port = match address.rsplit_once(':') {
        Some((_, port)) if port.parse::<u16>().is_ok() => address.to_owned(),
        _ => format!("{address}:{DEFAULT_PORT}"),
    };
    with_port
        .to_socket_addrs()
        .map_err(|e| bad(e.to_string()))?
        .next()
        .ok_or_else(|| bad("no address".to_owned()))
}

/// A socket of this machine's from which to reach `addr`: at `from`, or any.
fn socket_for(addr: SocketAddr, from: Option<std::net::IpAddr>) -> Result<UdpSocket, JoinError> {
    let local: SocketAddr = match from {
        Some(ip) => (ip, 0).into(),
        None if addr.is_ipv4() => ([0, 0, 0, 0], 0).into(),
        None => (std::net::Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    Ok(UdpSocket::bind(local).map_err(ReachError::from)?)
}

/// Joins the server `options` name (see the module docs). Blocks until the welcome
/// and the check of the world, a few seconds at most.
pub fn join(options: &JoinOptions) -> Result<Joined, JoinError> {
    join_among(options, &Worlds::default())
}

/// [`join`], the world's generator taken from `worlds` if another connection of
/// theirs made it.
pub fn join_among(options: &JoinOptions, worlds: &Worlds) -> Result<Joined, JoinError> {
    let addr = resolve(&options.address)?;
    let socket = socket_for(addr, options.from)?;
    let info = transport::query(&socket, addr, WAIT)?;
    if info.password && options.password.is_none() {
        return Err(ReachError::NeedsPassword(addr).into());
    }
    let me = options.profile.identity()?;
    let mut known = options.profile.known()?;
    let pin = known.check(addr, info.key);
    if let Pin::Changed(pinned) = pin
        && !options.accept_new_identity
    {
        return Err(JoinError::IdentityChanged {
            addr,
            pinned: pinned.short(),
            now: info.key.short(),
            file: known.path().display().to_string(),
        });
    }
    let request = Request {
        name: options.name.clone(),
        build: options.build.clone(),
        password: options.password.clone(),
    };
    // The handshake proves the server holds the identity it claimed: pinned after.
    let token = transport::handshake(&socket, addr, &me, &info.key, &request, WAIT)?;
    if pin != Pin::Same {
        known.pin(addr, info.key).map_err(JoinError::Profile)?;
    }
    let transport =
        ClientTransport::connect(Box::new(Udp::new(socket).map_err(ReachError::from)?), token)?;
    let mut link = Link {
        transport,
        renet: RenetClient::new(connection_config()),
        last: Instant::now(),
    };
    link.renet.send_message(
        Channel::World,
        ToServer::Hello {
            name: options.name.clone(),
            build: options.build.clone(),
        }
        .encode(),
    );
    let welcome = link.welcome(addr)?;
    let world =
        WorldConfig::from_ron(&welcome.world_code).map_err(|e| JoinError::World(e.to_string()))?;
    let connection = Connection::start(link);
    let generator = match worlds.checked(&world, &welcome, &options.build) {
        Ok(g) => g,
        Err(e) => {
            connection.leave();
            return Err(e);
        }
    };
    Ok(Joined {
        connection,
        welcome,
        world,
        generator,
    })
}

/// What a server said of itself to `terravox ping`.
#[derive(Clone, Debug)]
pub struct Pinged {
    /// Where it answered.
    pub addr: SocketAddr,
    /// What it said.
    pub info: Info,
    /// How long the answer took.
    pub round_trip: Duration,
}

/// Asks the server at `address` (`HOST[:PORT]`) about itself.
pub fn ping(address: &str) -> Result<Pinged, JoinError> {
    let addr = resolve(address)?;
    let socket = socket_for(addr, None)?;
    let asked = Instant::now();
    let info = transport::query(&socket, addr, WAIT)?;
    Ok(Pinged {
        addr,
        info,
        round_trip: asked.elapsed(),
    })
}

/// The server's identity as `ping` shows it, and whether `profile` pinned it.
pub fn pinned(profile: &Profile, addr: SocketAddr, key: PublicKey) -> Result<Pin, JoinError> {
    Ok(profile.known()?.check(addr, key))
}

/// Makes the chunks the server hashed with `generator` and compares.
fn check_world(generator: &Generator, welcome: &Welcome, ours: &str) -> Result<(), JoinError> {
    for &(chunk, there) in &welcome.hashes {
        let here = generator.generate(chunk).content_hash();
        // A fault for the tests (test-tools): a build that makes other blocks.
        #[cfg(feature = "test-tools")]
        let here = if std::env::var_os("TERRAVOX_TEST_OTHER_BLOCKS").is_some() {
            here ^ 1
        } else {
            here
        };
        if here != there {
            return Err(JoinError::OtherWorld {
                ours: ours.to_owned(),
                theirs: welcome.build.clone(),
                version: welcome.generator_version,
                chunk,
                here,
                there,
            });
        }
    }
    Ok(())
}

/// netcode and renet together, on one thread.
struct Link {
    transport: ClientTransport,
    renet: RenetClient,
    last: Instant,
}

impl Link {
    /// Receives what arrived.
    fn update(&mut self) {
        let now = Instant::now();
        let dt = now - self.last;
        self.last = now;
        self.transport.update(dt, &mut self.renet);
        self.renet.update(dt);
    }

    /// Why the connection ended, if it did.
    fn ended(&self, addr: Option<SocketAddr>) -> Option<String> {
        if let Some(reason) = self.transport.ended() {
            let at = addr.map_or_else(String::new, |a| format!(" ({a})"));
            return Some(match reason {
                renetcode::DisconnectReason::ConnectionDenied => {
                    format!("the server{at} is full or refused the connection")
                }
                renetcode::DisconnectReason::ConnectionRequestTimedOut
                | renetcode::DisconnectReason::ConnectionResponseTimedOut => {
                    format!("the server{at} did not let this client connect")
                }
                renetcode::DisconnectReason::ConnectionTimedOut => {
                    format!("the connection to the server{at} was lost (no word for 15 s)")
                }
                renetcode::DisconnectReason::DisconnectedByServer => {
                    "the server ended the connection".to_owned()
                }
                other => format!("the connection ended ({other:?})"),
            });
        }
        self.renet
            .disconnect_reason()
            .map(|r| format!("the connection ended ({r})"))
    }

    /// Waits for the welcome.
    fn welcome(&mut self, addr: SocketAddr) -> Result<Welcome, JoinError> {
        let end = Instant::now() + WAIT * 2;
        while Instant::now() < end {
            self.update();
            if let Some(bytes) = self.renet.receive_message(Channel::World) {
                match ToClient::decode(&bytes) {
                    Ok(ToClient::Welcome(w)) => return Ok(*w),
                    Ok(ToClient::Refused(why)) => return Err(JoinError::Refused(why)),
                    Ok(other) => {
                        return Err(JoinError::Connect(
                            addr,
                            format!("the server began with {other:?}"),
                        ));
                    }
                    Err(e) => {
                        return Err(JoinError::Connect(
                            addr,
                            format!("an unreadable message ({e})"),
                        ));
                    }
                }
            }
            if let Some(why) = self.ended(Some(addr)) {
                return Err(JoinError::Connect(addr, why));
            }
            self.transport.send(&mut self.renet);
            std::thread::sleep(POLL);
        }
        Err(JoinError::Connect(addr, "no welcome in time".to_owned()))
    }
}

impl LinkFigures {
    /// Notes what `link` says now.
    fn note(&self, link: &Link) {
        self.received
            .store(link.transport.received, Ordering::Relaxed);
        let rtt = Duration::from_secs_f64(link.renet.rtt().max(0.0));
        self.rtt_us.store(rtt.as_micros() as u64, Ordering::Relaxed);
        if let Some(t) = link.renet.resend_time(Channel::World.into()) {
            self.resend_us
                .store(t.as_micros() as u64, Ordering::Relaxed);
        }
    }
}

impl Connection {
    /// Runs `link` on a thread of its own.
    fn start(mut link: Link) -> Self {
        let (tx, commands) = channel::<Outgoing>();
        let (events, rx) = channel();
        let figures = Arc::new(LinkFigures::default());
        let stop = Arc::new(AtomicBool::new(false));
        let (counted, stopping) = (figures.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("terravox-net".to_owned())
            .spawn(move || {
                let mut last_send = Instant::now();
                // While the link loses packets, a send is followed by another after
                // renet's gap: what it sends twice goes in that one.
                let mut again: Option<Instant> = None;
                loop {
                    if stopping.load(Ordering::Relaxed) {
                        link.transport.disconnect();
                        return;
                    }
                    link.update();
                    counted.note(&link);
                    for channel in [Channel::World, Channel::Moves] {
                        while let Some(bytes) = link.renet.receive_message(channel) {
                            let event = match ToClient::decode(&bytes) {
                                Ok(m) => Event::Message(m),
                                Err(e) => Event::Ended(format!(
                                    "the server sent a message this terravox cannot read ({e})"
                                )),
                            };
                            let end = matches!(event, Event::Ended(_));
                            if events.send(event).is_err() || end {
                                link.transport.disconnect();
                                return;
                            }
                        }
                    }
                    let mut fresh = false;
                    while let Ok(m) = commands.try_recv() {
                        match m {
                            Outgoing::Message(m @ ToServer::Move(..)) => {
                                link.renet.send_message(Channel::Moves, m.encode());
                            }
                            Outgoing::Message(m) => {
                                link.renet.send_message(Channel::World, m.encode())
                            }
                            #[cfg(feature = "test-tools")]
                            Outgoing::Bytes(b) => link.renet.send_message(Channel::World, b),
                        }
                        fresh = true;
                    }
                    if let Some(why) = link.ended(None) {
                        let _ = events.send(Event::Ended(why));
                        return;
                    }
                    let followup = again.is_some_and(|t| Instant::now() >= t);
                    if fresh || followup || last_send.elapsed() >= IDLE_SEND {
                        link.transport.send(&mut link.renet);
                        last_send = Instant::now();
                        again = (fresh && link.renet.packet_loss() > renet::REDUNDANT_FROM_LOSS)
                            .then(|| last_send + renet::REDUNDANT_GAP);
                    }
                    std::thread::sleep(POLL);
                }
            })
            .expect("a thread for the connection");
        Self {
            tx,
            rx: std::sync::Mutex::new(rx),
            link: figures,
            stop,
            thread: Some(thread),
        }
    }

    /// Sends `message` to the server.
    pub fn send(&self, message: ToServer) {
        let _ = self.tx.send(Outgoing::Message(message));
    }

    /// Sends bytes that may be no message at all (how the tests send garbage).
    #[cfg(feature = "test-tools")]
    pub fn send_bytes(&self, bytes: Vec<u8>) {
        let _ = self.tx.send(Outgoing::Bytes(bytes));
    }

    /// What arrived, if anything.
    pub fn try_recv(&self) -> Option<Event> {
        self.rx.lock().ok()?.try_recv().ok()
    }

    /// What arrives within `wait`.
    pub fn recv_timeout(&self, wait: Duration) -> Option<Event> {
        let rx = self.rx.lock().ok()?;
        match rx.recv_timeout(wait) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(Event::Ended("the connection's thread ended".to_owned()))
            }
        }
    }

    /// UDP payload bytes received so far.
    pub fn received_bytes(&self) -> u64 {
        self.link.received.load(Ordering::Relaxed)
    }

    /// The link's smoothed round trip, and the time after which a message the
    /// server has not acknowledged is sent again (it follows the round trips).
    pub fn round_trip(&self) -> (Duration, Duration) {
        let us = |a: &AtomicU64| Duration::from_micros(a.load(Ordering::Relaxed));
        (us(&self.link.rtt_us), us(&self.link.resend_us))
    }

    /// Leaves the server (at once).
    pub fn leave(mut self) {
        self.close();
    }

    fn close(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_takes_the_default_port_unless_it_names_one() {
        let port = |a: &str| resolve(a).unwrap().port();
        assert_eq!(port("127.0.0.1:5"), 5);
        assert_eq!(port("127.0.0.1"), DEFAULT_PORT);
        assert_eq!(resolve("::1").unwrap(), "[::1]:27050".parse().unwrap());
        assert_eq!(port("[::1]:7"), 7);
        assert_eq!(port("[::1]"), DEFAULT_PORT);
        assert_eq!(port("localhost:9"), 9);
        assert_eq!(port("localhost"), DEFAULT_PORT);
        assert!(resolve("no such host.invalid").is_err());
    }
}
