//! UDP: netcode's packets (renetcode: connections, encryption and authentication,
//! replay protection) carrying renet's (channels), and beside them a few packets of
//! terravox's own that netcode would drop: a client's query (is a terravox server
//! there, which protocol, does it want a password, its salt) and its password check.
//! A side packet starts with a byte netcode never starts one with, and an answer is
//! never longer than the question (no amplification); side packets are limited per
//! address.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime};

use renet::{RenetClient, RenetServer};
use renetcode::{
    ClientAuthentication, ConnectToken, NETCODE_MAX_PACKET_BYTES, NetcodeClient, NetcodeServer,
    ServerAuthentication, ServerConfig, ServerResult,
};

use crate::protocol::PROTOCOL;
use crate::secret::{self, Key};

/// netcode's protocol id: terravox's protocol (clients of other versions are told so
/// by the query first).
pub(crate) const PROTOCOL_ID: u64 = 0x7476_7800_0000_0000 | PROTOCOL as u64;

/// The first byte of a side packet (netcode's packet types are 0 to 6).
const SIDE: u8 = 0xff;
/// Side packets.
const QUERY: &[u8; 4] = b"TVXQ";
const INFO: &[u8; 4] = b"TVXI";
const CHECK: &[u8; 4] = b"TVXC";
const VERDICT: &[u8; 4] = b"TVXV";
/// A query or a check is padded to this; an answer is never longer.
pub(crate) const SIDE_BYTES: usize = 128;
/// Side packets an address may send a second.
const SIDE_RATE: u32 = 20;
/// Wrong password checks an address may make a minute.
const WRONG_RATE: u32 = 10;
/// The longest server name.
const MAX_SERVER_NAME: usize = 32;

/// Every connect token holds this address, and so does the server's list: a client
/// makes its own token (from the password), so the list proves nothing, and a server
/// listening on every address cannot name the one a client used.
fn sentinel() -> SocketAddr {
    SocketAddr::from(([0, 0, 0, 0], 0))
}

/// The time netcode's tokens are dated by.
pub(crate) fn unix_now() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// What a server says of itself to a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Its protocol.
    pub protocol: u32,
    /// Whether it wants a password.
    pub password: bool,
    /// The salt of its password's key.
    pub salt: [u8; 16],
    /// Its nonce for password checks.
    pub nonce: [u8; 16],
    /// Players in it now, and at most.
    pub players: (u16, u16),
    /// Its name.
    pub name: String,
}

impl Info {
    fn encode(&self, client: &[u8; 16]) -> Vec<u8> {
        let mut out = vec![SIDE];
        out.extend_from_slice(INFO);
        out.extend_from_slice(&self.protocol.to_le_bytes());
        out.extend_from_slice(client);
        out.push(u8::from(self.password));
        out.extend_from_slice(&self.salt);
        out.extend_from_slice(&self.nonce);
        out.extend_from_slice(&self.players.0.to_le_bytes());
        out.extend_from_slice(&self.players.1.to_le_bytes());
        let name = &self.name.as_bytes()[..self.name.len().min(MAX_SERVER_NAME)];
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        out
    }

    fn decode(b: &[u8], client: &[u8; 16]) -> Option<Self> {
        // SIDE, INFO, protocol (5..9), the client's nonce (9..25), password (25),
        // salt (26..42), the server's nonce (42..58), players (58..62), the name.
        if b.len() < 63 || b[0] != SIDE || &b[1..5] != INFO || &b[9..25] != client {
            return None;
        }
        let name = b.get(63..63 + usize::from(b[62]))?;
        Some(Self {
            protocol: u32::from_le_bytes(b[5..9].try_into().ok()?),
            password: b[25] == 1,
            salt: b[26..42].try_into().ok()?,
            nonce: b[42..58].try_into().ok()?,
            players: (
                u16::from_le_bytes([b[58], b[59]]),
                u16::from_le_bytes([b[60], b[61]]),
            ),
            name: String::from_utf8_lossy(name).into_owned(),
        })
    }
}

/// Counts packets an address sends, a window at a time.
#[derive(Default)]
struct Limits {
    windows: HashMap<IpAddr, (Instant, u32)>,
}

impl Limits {
    /// Whether `ip` may send one more within `window`, `most` allowed.
    fn allow(&mut self, ip: IpAddr, window: Duration, most: u32) -> bool {
        let now = Instant::now();
        if self.windows.len() > 4096 {
            self.windows.retain(|_, (start, _)| now - *start < window);
        }
        let (start, n) = self.windows.entry(ip).or_insert((now, 0));
        if now - *start >= window {
            (*start, *n) = (now, 0);
        }
        *n += 1;
        *n <= most
    }
}

/// The server's side of the side packets.
struct Side {
    info: Info,
    key: Option<Key>,
    packets: Limits,
    wrong: Limits,
}

impl Side {
    /// The answer to a side packet from `from`, if it earns one.
    fn answer(&mut self, from: SocketAddr, p: &[u8]) -> Option<Vec<u8>> {
        if p.len() != SIDE_BYTES
            || !self
                .packets
                .allow(from.ip(), Duration::from_secs(1), SIDE_RATE)
        {
            return None;
        }
        let client: [u8; 16] = p[9..25].try_into().ok()?;
        match p[1..5].try_into().ok()? {
            QUERY => Some(self.info.encode(&client)),
            CHECK => {
                let key = self.key.as_ref()?;
                let server: [u8; 16] = p[25..41].try_into().ok()?;
                let tag: [u8; 32] = p[41..73].try_into().ok()?;
                let ok =
                    server == self.info.nonce && tag == secret::check_tag(key, &server, &client);
                if !ok
                    && !self
                        .wrong
                        .allow(from.ip(), Duration::from_secs(60), WRONG_RATE)
                {
                    return None;
                }
                let mut out = vec![SIDE];
                out.extend_from_slice(VERDICT);
                out.extend_from_slice(&[0; 4]);
                out.extend_from_slice(&client);
                out.push(u8::from(ok));
                Some(out)
            }
            _ => None,
        }
    }
}

/// A side packet: `kind`, the protocol, the client's nonce and `body`, padded.
fn side_packet(kind: &[u8; 4], client: &[u8; 16], body: &[u8]) -> Vec<u8> {
    let mut out = vec![SIDE];
    out.extend_from_slice(kind);
    out.extend_from_slice(&PROTOCOL.to_le_bytes());
    out.extend_from_slice(client);
    out.extend_from_slice(body);
    out.resize(SIDE_BYTES, 0);
    out
}

/// The server's socket: netcode for its clients, and the side packets.
pub(crate) struct ServerTransport {
    socket: UdpSocket,
    netcode: NetcodeServer,
    side: Side,
    buf: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Bytes of UDP payload sent and received.
    pub(crate) sent: u64,
    pub(crate) received: u64,
}

impl ServerTransport {
    /// Listens on `socket` for at most `max` clients; with a `password`, connections
    /// are encrypted and authenticated with its key.
    pub(crate) fn new(
        socket: UdpSocket,
        max: usize,
        password: Option<&str>,
        name: &str,
    ) -> io::Result<Self> {
        socket.set_nonblocking(true)?;
        let salt = renetcode::generate_random_bytes::<16>();
        let key = password.map(|p| secret::derive(p, &salt));
        let authentication = match key {
            Some(private_key) => ServerAuthentication::Secure { private_key },
            None => ServerAuthentication::Unsecure,
        };
        let netcode = NetcodeServer::new(ServerConfig {
            current_time: unix_now(),
            max_clients: max,
            protocol_id: PROTOCOL_ID,
            public_addresses: vec![sentinel()],
            authentication,
        });
        let info = Info {
            protocol: PROTOCOL,
            password: key.is_some(),
            salt,
            nonce: renetcode::generate_random_bytes::<16>(),
            players: (0, max.min(usize::from(u16::MAX)) as u16),
            name: name.to_owned(),
        };
        Ok(Self {
            socket,
            netcode,
            side: Side {
                info,
                key,
                packets: Limits::default(),
                wrong: Limits::default(),
            },
            buf: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
            sent: 0,
            received: 0,
        })
    }

    /// The address it listens on.
    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
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
        self.side.info.players.0 = n.min(usize::from(u16::MAX)) as u16;
    }

    /// Receives what arrived (and answers side packets), advancing by `dt`.
    pub(crate) fn update(&mut self, dt: Duration, server: &mut RenetServer) {
        self.netcode.update(dt);
        loop {
            let (len, from) = match self.socket.recv_from(&mut self.buf[..]) {
                Ok(got) => got,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => break,
                // An ICMP error for a packet sent earlier: nothing to read.
                Err(_) => continue,
            };
            self.received += len as u64;
            if len > 0 && self.buf[0] == SIDE {
                if let Some(answer) = self.side.answer(from, &self.buf[..len]) {
                    self.sent += answer.len() as u64;
                    let _ = self.socket.send_to(&answer, from);
                }
                continue;
            }
            let result = self.netcode.process_packet(from, &mut self.buf[..len]);
            handle(result, &self.socket, server, &mut self.sent);
        }
        for client in self.netcode.clients_id() {
            let result = self.netcode.update_client(client);
            handle(result, &self.socket, server, &mut self.sent);
        }
        for client in server.disconnections_id() {
            let result = self.netcode.disconnect(client);
            handle(result, &self.socket, server, &mut self.sent);
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
                    let _ = self.socket.send_to(payload, addr);
                }
            }
        }
    }

    /// Disconnects every client at once (the server stops).
    pub(crate) fn disconnect_all(&mut self, server: &mut RenetServer) {
        for client in self.netcode.clients_id() {
            let result = self.netcode.disconnect(client);
            handle(result, &self.socket, server, &mut self.sent);
        }
    }
}

/// Does what netcode asks after a packet or an update.
fn handle(result: ServerResult, socket: &UdpSocket, server: &mut RenetServer, sent: &mut u64) {
    let mut send = |payload: &[u8], addr: SocketAddr| {
        *sent += payload.len() as u64;
        let _ = socket.send_to(payload, addr);
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
    /// The password is wrong.
    #[error("wrong password for the server at {0}")]
    WrongPassword(SocketAddr),
    /// netcode refused.
    #[error("could not make a connect token: {0}")]
    Token(String),
}

/// Asks the server at `addr` about itself, over `socket`, for up to `wait`.
pub(crate) fn query(
    socket: &UdpSocket,
    addr: SocketAddr,
    wait: Duration,
) -> Result<Info, ReachError> {
    let nonce = renetcode::generate_random_bytes::<16>();
    let ask = side_packet(QUERY, &nonce, &[]);
    let answer = ask_until(socket, addr, &ask, wait, |b| Info::decode(b, &nonce))?;
    if answer.protocol != PROTOCOL {
        return Err(ReachError::Protocol {
            addr,
            theirs: answer.protocol,
        });
    }
    Ok(answer)
}

/// Checks `key` with the server at `addr`, which answered `info`.
pub(crate) fn check(
    socket: &UdpSocket,
    addr: SocketAddr,
    key: &Key,
    info: &Info,
    wait: Duration,
) -> Result<(), ReachError> {
    let nonce = renetcode::generate_random_bytes::<16>();
    let mut body = info.nonce.to_vec();
    body.extend_from_slice(&secret::check_tag(key, &info.nonce, &nonce));
    let ask = side_packet(CHECK, &nonce, &body);
    let ok = ask_until(socket, addr, &ask, wait, |b| {
        (b.len() == 26 && b[0] == SIDE && &b[1..5] == VERDICT && b[9..25] == nonce)
            .then_some(b[25] == 1)
    })?;
    if ok {
        Ok(())
    } else {
        Err(ReachError::WrongPassword(addr))
    }
}

/// Sends `ask` every quarter second until `answer` reads a reply, for up to `wait`.
fn ask_until<T>(
    socket: &UdpSocket,
    addr: SocketAddr,
    ask: &[u8],
    wait: Duration,
    answer: impl Fn(&[u8]) -> Option<T>,
) -> Result<T, ReachError> {
    let end = Instant::now() + wait;
    let mut buf = [0u8; NETCODE_MAX_PACKET_BYTES];
    while Instant::now() < end {
        socket.send_to(ask, addr)?;
        let resend = Instant::now() + Duration::from_millis(250);
        while Instant::now() < resend.min(end) {
            socket.set_read_timeout(Some(Duration::from_millis(50)))?;
            match socket.recv_from(&mut buf) {
                Ok((len, from)) if from == addr => {
                    if let Some(a) = answer(&buf[..len]) {
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
    socket: UdpSocket,
    netcode: NetcodeClient,
    buf: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
    /// Bytes of UDP payload sent and received.
    pub(crate) sent: u64,
    pub(crate) received: u64,
}

impl ClientTransport {
    /// Starts connecting to `addr` over `socket` as `client`; with a key, with a
    /// connect token it makes from it.
    pub(crate) fn connect(
        socket: UdpSocket,
        addr: SocketAddr,
        client: u64,
        key: Option<&Key>,
    ) -> Result<Self, ReachError> {
        socket.set_nonblocking(true)?;
        let now = unix_now();
        let authentication = match key {
            Some(key) => ClientAuthentication::Secure {
                connect_token: ConnectToken::generate(
                    now,
                    PROTOCOL_ID,
                    300,
                    client,
                    15,
                    vec![addr, sentinel()],
                    None,
                    key,
                )
                .map_err(|e| ReachError::Token(e.to_string()))?,
            },
            None => ClientAuthentication::Unsecure {
                protocol_id: PROTOCOL_ID,
                client_id: client,
                server_addr: addr,
                user_data: None,
            },
        };
        let netcode = NetcodeClient::new(now, authentication)
            .map_err(|e| ReachError::Token(e.to_string()))?;
        Ok(Self {
            socket,
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
        loop {
            let (len, from) = match self.socket.recv_from(&mut self.buf[..]) {
                Ok(got) => got,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => break,
                Err(_) => continue,
            };
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
            let _ = self.socket.send_to(packet, addr);
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
                let _ = self.socket.send_to(payload, addr);
            }
        }
    }

    /// Tells the server this client leaves.
    pub(crate) fn disconnect(&mut self) {
        if let Ok((addr, packet)) = self.netcode.disconnect() {
            let _ = self.socket.send_to(packet, addr);
        }
    }
}
