//! UDP: netcode's packets (renetcode: connections, encryption and authentication,
//! replay protection) carrying renet's (channels), and beside them a few packets of
//! terravox's own that netcode would drop: a client's query (is a terravox server
//! there, which protocol and generator version, its identity, name, message of the
//! day and players, does it want a password) and the join's handshake
//! ([`crate::handshake`]), which earns a client the connect token netcode needs. A
//! side packet starts with a byte netcode never starts one with, and an answer is
//! never longer than the question (no amplification); side packets and connection
//! requests are limited per address in fixed memory, and the packets read an update
//! are capped.

use std::io;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime};

use renet::{RenetClient, RenetServer};
use renetcode::{
    ClientAuthentication, ConnectToken, NETCODE_MAX_PACKET_BYTES, NetcodeClient, NetcodeServer,
    ServerAuthentication, ServerConfig, ServerResult,
};

use crate::handshake::{self, Opening, REQUEST_BYTES, Request, Verdict};
use crate::identity::{Identity, PublicKey};
use crate::protocol::{PROTOCOL, PROTOCOL_ID};
use crate::wire::Wire;

/// The first byte of a side packet (netcode's packet types are 0 to 6).
const SIDE: u8 = 0xff;
/// netcode's first byte of a connection request (the only packet that makes the
/// server decrypt a token before it knows the sender).
const CONNECTION_REQUEST: u8 = 0;
/// Side packets.
const QUERY: &[u8; 4] = b"TVXQ";
const INFO: &[u8; 4] = b"TVXI";
const HANDSHAKE: &[u8; 4] = b"TVXH";
const ANSWER: &[u8; 4] = b"TVXA";
/// A side packet's header: the byte, the kind, the protocol.
const HEADER: usize = 9;
/// A query is padded to this; its answer is never longer.
pub(crate) const QUERY_BYTES: usize = 384;
/// Side packets an address may send a second (queries and handshakes).
const SIDE_RATE: u32 = 10;
/// Connection requests an address may send a second (netcode resends one every
/// tenth of a second while it connects).
const CONNECT_RATE: u32 = 20;
/// Packets read in one update; more wait in the socket's buffer for the next.
const READ_PER_UPDATE: usize = 2048;
/// Handshakes kept for the server in one update; more are dropped (and resent).
const ASKED_PER_UPDATE: usize = 32;
/// The longest server name and message of the day, in bytes.
pub const MAX_SERVER_NAME: usize = 32;
/// The longest message of the day, in bytes.
pub const MAX_MOTD: usize = 200;
/// How long a connect token may be used to connect.
const TOKEN_SECONDS: u64 = 30;
/// netcode's timeout: a connection silent this long is lost.
const TIMEOUT_SECONDS: i32 = 15;

/// Every connect token holds this address, and so does the server's list: a server
/// listening on every address cannot name the one a client used.
pub(crate) fn sentinel() -> SocketAddr {
    SocketAddr::from(([0, 0, 0, 0], 0))
}

/// The time netcode's tokens are dated by.
pub(crate) fn unix_now() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// What a server says of itself to a query (`terravox ping`, and a client before it
/// joins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Its protocol.
    pub protocol: u32,
    /// Whether it wants a password.
    pub password: bool,
    /// Its identity, as it claims it (a client proves it in the handshake).
    pub key: PublicKey,
    /// Players in it now, and at most.
    pub players: (u16, u16),
    /// Its world's generator version.
    pub generator_version: u32,
    /// Its name.
    pub name: String,
    /// Its message of the day.
    pub motd: String,
}

/// `s` cut to at most `most` bytes, on a character's boundary.
fn cut(s: &str, most: usize) -> &str {
    let mut end = s.len().min(most);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

impl Info {
    fn encode(&self, client: &[u8; 16]) -> Vec<u8> {
        let mut out = vec![SIDE];
        out.extend_from_slice(INFO);
        out.extend_from_slice(&self.protocol.to_le_bytes());
        out.extend_from_slice(client);
        out.push(u8::from(self.password));
        out.extend_from_slice(&self.key.0);
        out.extend_from_slice(&self.players.0.to_le_bytes());
        out.extend_from_slice(&self.players.1.to_le_bytes());
        out.extend_from_slice(&self.generator_version.to_le_bytes());
        for text in [cut(&self.name, MAX_SERVER_NAME), cut(&self.motd, MAX_MOTD)] {
            out.push(text.len() as u8);
            out.extend_from_slice(text.as_bytes());
        }
        out
    }

    fn decode(b: &[u8], client: &[u8; 16]) -> Option<Self> {
        // SIDE, INFO, protocol (5..9), the client's nonce (9..25), password (25),
        // key (26..58), players (58..62), generator version (62..66), name, motd.
        if b.len() < 68 || b[0] != SIDE || &b[1..5] != INFO || &b[9..25] != client {
            return None;
        }
        let name_end = 67 + usize::from(b[66]);
        let name = b.get(67..name_end)?;
        let motd_len = usize::from(*b.get(name_end)?);
        let motd = b.get(name_end + 1..name_end + 1 + motd_len)?;
        Some(Self {
            protocol: u32::from_le_bytes(b[5..9].try_into().ok()?),
            password: b[25] == 1,
            key: PublicKey(b[26..58].try_into().ok()?),
            players: (
                u16::from_le_bytes([b[58], b[59]]),
                u16::from_le_bytes([b[60], b[61]]),
            ),
            generator_version: u32::from_le_bytes(b[62..66].try_into().ok()?),
            name: String::from_utf8_lossy(name).into_owned(),
            motd: String::from_utf8_lossy(motd).into_owned(),
        })
    }
}

/// Slots of a [`Limits`]: its memory, whatever the number of addresses.
const LIMIT_SLOTS: usize = 4096;

/// Counts what addresses send, a window at a time, in fixed memory and constant work
/// a packet: an address's count lives in the slot its keyed hash picks (the key is
/// random, so nobody outside can aim at a slot). Two addresses that share a slot in
/// the same window share its count: an honest client may be limited with an
/// attacker who shares its slot, never let through.
pub(crate) struct Limits {
    key: [u8; 32],
    slots: Box<[(Option<IpAddr>, Instant, u32)]>,
    window: Duration,
    most: u32,
}

impl Limits {
    /// `most` a `window` an address.
    pub(crate) fn new(window: Duration, most: u32) -> Self {
        Self {
            key: renetcode::generate_random_bytes::<32>(),
            slots: vec![(None, Instant::now(), 0); LIMIT_SLOTS].into_boxed_slice(),
            window,
            most,
        }
    }

    fn slot(&mut self, ip: IpAddr, now: Instant) -> &mut (Option<IpAddr>, Instant, u32) {
        let bytes = match ip {
            IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
            IpAddr::V6(v6) => v6.octets(),
        };
        let h = blake3::keyed_hash(&self.key, &bytes);
        let i = u64::from_le_bytes(h.as_bytes()[..8].try_into().expect("8 bytes")) as usize
            % LIMIT_SLOTS;
        let window = self.window;
        let slot = &mut self.slots[i];
        if now.duration_since(slot.1) >= window {
            *slot = (Some(ip), now, 0);
        }
        slot
    }

    /// Counts one more from `ip` at `now`: whether it is within the limit.
    pub(crate) fn allow(&mut self, ip: IpAddr, now: Instant) -> bool {
        let most = self.most;
        let slot = self.slot(ip, now);
        slot.2 = slot.2.saturating_add(1);
        slot.2 <= most
    }

    /// Whether `ip` used its limit already at `now` (counting nothing).
    pub(crate) fn spent(&mut self, ip: IpAddr, now: Instant) -> bool {
        let most = self.most;
        self.slot(ip, now).2 >= most
    }
}

/// A side packet: `kind`, the protocol, then `body`, padded to `len`.
fn side_packet(kind: &[u8; 4], body: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![SIDE];
    out.extend_from_slice(kind);
    out.extend_from_slice(&PROTOCOL.to_le_bytes());
    out.extend_from_slice(body);
    out.resize(len.max(out.len()), 0);
    out
}

/// A query of the server, carrying the client's `nonce` (the answer echoes it).
pub(crate) fn query_packet(nonce: &[u8; 16]) -> Vec<u8> {
    side_packet(QUERY, nonce, QUERY_BYTES)
}

/// The side packet that carries a handshake's Noise `message`.
pub(crate) fn handshake_packet(message: &[u8]) -> Vec<u8> {
    side_packet(HANDSHAKE, message, 0)
}

/// The Noise message of the server's answer to a handshake, if `packet` is one.
pub(crate) fn answer_in(packet: &[u8]) -> Option<&[u8]> {
    (packet.len() > HEADER && packet[0] == SIDE && &packet[1..5] == ANSWER)
        .then(|| &packet[HEADER..])
}

/// A handshake that arrived: from where, its Noise message.
pub(crate) struct Knock {
    pub(crate) from: SocketAddr,
    pub(crate) message: Vec<u8>,
}

/// The server's socket: netcode for its clients, and the side packets.
pub(crate) struct ServerTransport {
    wire: Box<dyn Wire>,
    netcode: NetcodeServer,
    /// netcode's key: made at start, it never leaves this process (only the server
    /// makes connect tokens).
    token_key: [u8; 32],
    info: Info,
    side: Limits,
    connects: Limits,
    knocks: Vec<Knock>,
    buf: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Bytes of UDP payload sent and received.
    pub(crate) sent: u64,
    pub(crate) received: u64,
}

impl ServerTransport {
    /// Listens on `wire` for at most `max` clients, saying `info` of itself.
    pub(crate) fn new(wire: Box<dyn Wire>, max: usize, info: Info) -> Self {
        let token_key = renetcode::generate_random_bytes::<32>();
        let netcode = NetcodeServer::new(ServerConfig {
            current_time: unix_now(),
            max_clients: max,
            protocol_id: PROTOCOL_ID,
            public_addresses: vec![sentinel()],
            authentication: ServerAuthentication::Secure {
                private_key: token_key,
            },
        });
        Self {
            wire,
            netcode,
            token_key,
            info,
            side: Limits::new(Duration::from_secs(1), SIDE_RATE),
            connects: Limits::new(Duration::from_secs(1), CONNECT_RATE),
            knocks: Vec::new(),
            buf: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            sent: 0,
            received: 0,
        }
    }

    /// The address it listens on.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.wire.local_addr()
    }

    /// The client's address, while connected.
    pub(crate) fn client_addr(&self, client: u64) -> Option<SocketAddr> {
        self.netcode.client_addr(client)
    }

    /// How long since the client was last heard from, while connected.
    pub(crate) fn silent_for(&self, client: u64) -> Option<Duration> {
        self.netcode.time_since_last_received_packet(client)
    }

    /// How many players the query reports.
    pub(crate) fn set_players(&mut self, n: usize) {
        self.info.players.0 = n.min(usize::from(u16::MAX)) as u16;
    }

    /// A connect token for `client`, which only this server can read.
    pub(crate) fn mint(&self, client: u64) -> Option<ConnectToken> {
        ConnectToken::generate(
            unix_now(),
            PROTOCOL_ID,
            TOKEN_SECONDS,
            client,
            TIMEOUT_SECONDS,
            vec![sentinel()],
            None,
            &self.token_key,
        )
        .ok()
    }

    /// The handshakes that arrived since the last call.
    pub(crate) fn take_knocks(&mut self) -> Vec<Knock> {
        std::mem::take(&mut self.knocks)
    }

    /// Sends the answer to a handshake.
    pub(crate) fn answer(&mut self, to: SocketAddr, message: &[u8]) {
        let packet = side_packet(ANSWER, message, 0);
        self.sent += packet.len() as u64;
        self.wire.send(&packet, to);
    }

    /// A side packet from `from`: a query answered at once, a handshake kept for the
    /// server.
    fn side_packet(&mut self, from: SocketAddr, len: usize, now: Instant) {
        if !self.side.allow(from.ip(), now) || len < HEADER {
            return;
        }
        let p = &self.buf[..len];
        match &p[1..5] {
            k if k == QUERY && len == QUERY_BYTES => {
                let Ok(client) = <[u8; 16]>::try_from(&p[HEADER..HEADER + 16]) else {
                    return;
                };
                let answer = self.info.encode(&client);
                self.sent += answer.len() as u64;
                self.wire.send(&answer, from);
            }
            k if k == HANDSHAKE
                && len == HEADER + REQUEST_BYTES
                && self.knocks.len() < ASKED_PER_UPDATE =>
            {
                self.knocks.push(Knock {
                    from,
                    message: p[HEADER..].to_vec(),
                });
            }
            _ => {}
        }
    }

    /// Receives what arrived (at most [`READ_PER_UPDATE`] packets), advancing by
    /// `dt` to the server's `now`.
    pub(crate) fn update(&mut self, now: Instant, dt: Duration, server: &mut RenetServer) {
        self.netcode.update(dt);
        for _ in 0..READ_PER_UPDATE {
            let Some((len, from)) = self.wire.receive(&mut self.buf[..]) else {
                break;
            };
            self.received += len as u64;
            match self.buf[..len].first() {
                Some(&SIDE) => {
                    self.side_packet(from, len, now);
                    continue;
                }
                Some(&CONNECTION_REQUEST) if !self.connects.allow(from.ip(), now) => continue,
                None => continue,
                _ => {}
            }
            let result = self.netcode.process_packet(from, &mut self.buf[..len]);
            handle(result, &mut *self.wire, server, &mut self.sent);
        }
        for client in self.netcode.clients_id() {
            let result = self.netcode.update_client(client);
            handle(result, &mut *self.wire, server, &mut self.sent);
        }
        for client in server.disconnections_id() {
            let result = self.netcode.disconnect(client);
            handle(result, &mut *self.wire, server, &mut self.sent);
        }
    }

    /// Sends what renet has for every client.
    pub(crate) fn send(&mut self, server: &mut RenetServer) {
        for client in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client) else {
                continue;
            };
            for packet in packets {
                if let Ok((addr, payload)) = self.netcode.generate_payload_packet(client, &packet) {
                    self.sent += payload.len() as u64;
                    self.wire.send(payload, addr);
                }
            }
        }
    }

    /// Disconnects every client at once (the server stops).
    pub(crate) fn disconnect_all(&mut self, server: &mut RenetServer) {
        for client in self.netcode.clients_id() {
            let result = self.netcode.disconnect(client);
            handle(result, &mut *self.wire, server, &mut self.sent);
        }
    }
}

/// Does what netcode asks after a packet or an update.
fn handle(result: ServerResult, wire: &mut dyn Wire, server: &mut RenetServer, sent: &mut u64) {
    let mut send = |payload: &[u8], addr: SocketAddr| {
        *sent += payload.len() as u64;
        wire.send(payload, addr);
    };
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => send(payload, addr),
        ServerResult::Payload { client_id, payload } => {
            // A payload renet cannot read disconnects that client (renet's choice).
            let _ = server.process_packet_from(payload, client_id);
        }
        ServerResult::ClientConnected {
            client_id,
            addr,
            payload,
            ..
        } => {
            server.add_connection(client_id);
            send(payload, addr);
        }
        ServerResult::ClientDisconnected {
            client_id,
            addr,
            payload,
        } => {
            server.remove_connection(client_id);
            if let Some(payload) = payload {
                send(payload, addr);
            }
        }
    }
}

/// Why a client could not reach a server.
#[derive(Debug, thiserror::Error)]
pub enum ReachError {
    /// The socket failed.
    #[error("network error: {0}")]
    Io(#[from] io::Error),
    /// Nobody answered.
    #[error("no terravox server answered at {0} (is it running, and is its port open to you?)")]
    Silent(SocketAddr),
    /// Another protocol.
    #[error(
        "the server at {addr} speaks terravox protocol {theirs}, this terravox speaks {PROTOCOL}: play with the same version"
    )]
    Protocol {
        /// Where.
        addr: SocketAddr,
        /// Its protocol.
        theirs: u32,
    },
    /// A password is needed.
    #[error("the server at {0} wants a password (--password)")]
    NeedsPassword(SocketAddr),
    /// The server refused this player, and said why.
    #[error("the server at {0} refused: {1}")]
    Refused(SocketAddr, String),
    /// The server did not prove the identity it was asked for.
    #[error(
        "the server at {0} did not prove its identity (it answered, but not as the server \
         it says it is)"
    )]
    Unproven(SocketAddr),
    /// The handshake could not be made.
    #[error("cannot join: {0}")]
    Handshake(String),
    /// netcode refused.
    #[error("could not start the connection: {0}")]
    Token(String),
}

/// Asks the server at `addr` about itself, over `socket`, for up to `wait`.
pub(crate) fn query(
    socket: &UdpSocket,
    addr: SocketAddr,
    wait: Duration,
) -> Result<Info, ReachError> {
    let nonce = renetcode::generate_random_bytes::<16>();
    let ask = query_packet(&nonce);
    let answer = ask_until(
        socket,
        addr,
        wait,
        || Ok((ask.clone(), ())),
        |b, ()| Info::decode(b, &nonce),
    )?;
    if answer.protocol != PROTOCOL {
        return Err(ReachError::Protocol {
            addr,
            theirs: answer.protocol,
        });
    }
    Ok(answer)
}

/// Makes the handshake with the server at `addr` that is `server`, as `me`: the
/// connect token it gave this client.
pub(crate) fn handshake(
    socket: &UdpSocket,
    addr: SocketAddr,
    me: &Identity,
    server: &PublicKey,
    request: &Request,
    wait: Duration,
) -> Result<ConnectToken, ReachError> {
    let mut answered = false;
    // The handshake under way: sent again as it is until an answer is read (a late
    // answer to it still reads), a new one only once an answer ended it.
    let current: std::cell::RefCell<Option<(Vec<u8>, Opening)>> = Default::default();
    let verdict = ask_until(
        socket,
        addr,
        wait,
        || {
            let mut current = current.borrow_mut();
            if current.is_none() {
                let (opening, message) =
                    handshake::open(me, server, addr, request).map_err(ReachError::Handshake)?;
                *current = Some((handshake_packet(&message), opening));
            }
            Ok((
                current.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
                (),
            ))
        },
        |b, ()| {
            let answer = answer_in(b)?;
            answered = true;
            // A handshake's state reads one answer: a forged one ends it (the next
            // try starts another).
            let (_, opening) = current.borrow_mut().take()?;
            opening.read(answer)
        },
    );
    match verdict {
        Ok(Verdict::Admitted(token)) => Ok(*token),
        Ok(Verdict::Refused(why)) => Err(ReachError::Refused(addr, why)),
        Err(ReachError::Silent(_)) if answered => Err(ReachError::Unproven(addr)),
        Err(e) => Err(e),
    }
}

/// Sends what `ask` makes every quarter second (`ask` is called again each time)
/// until `answer` reads a reply, for up to `wait`.
fn ask_until<T, S>(
    socket: &UdpSocket,
    addr: SocketAddr,
    wait: Duration,
    mut ask: impl FnMut() -> Result<(Vec<u8>, S), ReachError>,
    mut answer: impl FnMut(&[u8], &S) -> Option<T>,
) -> Result<T, ReachError> {
    let end = Instant::now() + wait;
    let mut buf = [0u8; NETCODE_MAX_PACKET_BYTES];
    while Instant::now() < end {
        let (packet, state) = ask()?;
        socket.send_to(&packet, addr)?;
        let resend = Instant::now() + Duration::from_millis(250);
        while Instant::now() < resend.min(end) {
            socket.set_read_timeout(Some(Duration::from_millis(50)))?;
            match socket.recv_from(&mut buf) {
                Ok((len, from)) if from == addr => {
                    if let Some(a) = answer(&buf[..len], &state) {
                        return Ok(a);
                    }
                }
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock
                            | io::ErrorKind::TimedOut
                            | io::ErrorKind::ConnectionRefused
                            | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    Err(ReachError::Silent(addr))
}

/// A client's socket: netcode to its server.
pub(crate) struct ClientTransport {
    wire: Box<dyn Wire>,
    netcode: NetcodeClient,
    buf: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Bytes of UDP payload sent and received.
    pub(crate) sent: u64,
    pub(crate) received: u64,
}

impl ClientTransport {
    /// Starts connecting over `wire` with the `token` its server gave.
    pub(crate) fn connect(wire: Box<dyn Wire>, token: ConnectToken) -> Result<Self, ReachError> {
        let netcode = NetcodeClient::new(
            unix_now(),
            ClientAuthentication::Secure {
                connect_token: token,
            },
        )
        .map_err(|e| ReachError::Token(e.to_string()))?;
        Ok(Self {
            wire,
            netcode,
            buf: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            sent: 0,
            received: 0,
        })
    }

    /// Why netcode ended the connection, if it did.
    pub(crate) fn ended(&self) -> Option<renetcode::DisconnectReason> {
        self.netcode.disconnect_reason()
    }

    /// Receives what arrived, advancing by `dt`.
    pub(crate) fn update(&mut self, dt: Duration, client: &mut RenetClient) {
        if self.netcode.is_disconnected() {
            client.disconnect_due_to_transport();
            return;
        }
        if self.netcode.is_connected() {
            client.set_connected();
        } else if self.netcode.is_connecting() {
            client.set_connecting();
        }
        while let Some((len, from)) = self.wire.receive(&mut self.buf[..]) {
            self.received += len as u64;
            if from != self.netcode.server_addr() {
                continue;
            }
            if let Some(payload) = self.netcode.process_packet(&mut self.buf[..len]) {
                client.process_packet(payload);
            }
        }
        if let Some((packet, addr)) = self.netcode.update(dt) {
            self.sent += packet.len() as u64;
            self.wire.send(packet, addr);
        }
    }

    /// Sends what renet has for the server.
    pub(crate) fn send(&mut self, client: &mut RenetClient) {
        if self.netcode.is_disconnected() {
            return;
        }
        for packet in client.get_packets_to_send() {
            if let Ok((addr, payload)) = self.netcode.generate_payload_packet(&packet) {
                self.sent += payload.len() as u64;
                self.wire.send(payload, addr);
            }
        }
    }

    /// Tells the server this client leaves.
    pub(crate) fn disconnect(&mut self) {
        if let Ok((addr, packet)) = self.netcode.disconnect() {
            self.wire.send(packet, addr);
        }
    }
}
