//! The join's handshake: one round trip of Noise `IK` (snow) before netcode, over
//! side packets. The client knows the server's identity (pinned, or taken on trust
//! the first time) and sends, sealed to it, its own identity, its name, its build
//! and the password; the server answers, sealed to that client alone, either a
//! netcode connect token it made with a private key that never leaves it, or why
//! not.
//!
//! - Only the server's identity opens the request: a captured one tells nobody the
//!   password, and no guess can be tried against it offline.
//! - Only a server holding the pinned identity can answer: another is refused.
//! - The token's keys (the connection's encryption) reach that client alone, so a
//!   player who knows the password and captures another's traffic can read and
//!   forge none of it; nobody but the server can make a token.
//! - A request replayed earns a token only its sender can read.
//!
//! Sizes: the request is padded to [`REQUEST_BYTES`], and the answer is never
//! longer (no amplification).

use std::net::SocketAddr;

use renetcode::ConnectToken;
use snow::{Builder, HandshakeState};

use crate::identity::{Identity, NOISE, PublicKey};
use crate::protocol::codec::{Reader, Writer};
use crate::protocol::{MAX_NAME, PROTOCOL, PROTOCOL_ID};
/// Both sides hash this into the handshake: another protocol's cannot be taken for it.
const PROLOGUE: &[u8] = b"terravox join";
/// A handshake's request is padded to this many bytes of Noise message (what the
/// header of its side packet adds aside): its answer fits within it.
pub(crate) const REQUEST_BYTES: usize = 1200;
/// The longest password.
pub const MAX_PASSWORD: usize = 256;
/// The longest build string.
const MAX_BUILD: usize = 64;
/// The longest refusal.
const MAX_WHY: usize = 512;
/// netcode's version, as every connect token holds it (renetcode does not export it;
/// a test compares it with a token renetcode makes).
const NETCODE_VERSION: [u8; 13] = *b"NETCODE 1.02\0";

/// What a client asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Request {
    /// The player's name.
    pub(crate) name: String,
    /// Its build (`terravox x.y.z`).
    pub(crate) build: String,
    /// The server's password, if it knows one.
    pub(crate) password: Option<String>,
}

/// What a server answers.
#[derive(Clone, Debug)]
pub(crate) enum Verdict {
    /// In: netcode's connect token (its public part names the server address the
    /// client dialled; the server's own list is sealed inside).
    Admitted(Box<ConnectToken>),
    /// Not in, and why.
    Refused(String),
}

fn builder() -> Builder<'static> {
    Builder::new(NOISE.parse().expect("valid Noise parameters"))
}

fn prologue() -> Vec<u8> {
    let mut p = PROLOGUE.to_vec();
    p.extend_from_slice(&PROTOCOL.to_le_bytes());
    p
}

/// A client's handshake under way.
pub(crate) struct Opening {
    state: HandshakeState,
    dialled: SocketAddr,
}

/// Starts a handshake with the server at `dialled` that is `server`, as `me`: the
/// state and the request's Noise message.
pub(crate) fn open(
    me: &Identity,
    server: &PublicKey,
    dialled: SocketAddr,
    request: &Request,
) -> Result<(Opening, Vec<u8>), String> {
    let prologue = prologue();
    let mut state = builder()
        .local_private_key(me.private())
        .and_then(|b| b.remote_public_key(&server.0))
        .and_then(|b| b.prologue(&prologue))
        .and_then(Builder::build_initiator)
        .map_err(|e| format!("cannot start the handshake: {e}"))?;
    let mut w = Writer::new();
    w.str(&request.name);
    w.str(&request.build);
    match &request.password {
        Some(p) => {
            w.u8(1);
            w.str(p);
        }
        None => w.u8(0),
    }
    let mut payload = w.into_bytes();
    // e, s and two tags: 96 bytes of Noise around the payload.
    let room = REQUEST_BYTES - 96;
    if payload.len() > room {
        return Err("the name, build or password is too long".to_owned());
    }
    payload.resize(room, 0);
    let mut message = vec![0; REQUEST_BYTES];
    let n = state
        .write_message(&payload, &mut message)
        .map_err(|e| format!("cannot write the handshake: {e}"))?;
    message.truncate(n);
    Ok((Opening { state, dialled }, message))
}

impl Opening {
    /// Reads the server's answer: `None` if `message` is not one (from another
    /// server, or forged: it does not open with this handshake's keys).
    pub(crate) fn read(mut self, message: &[u8]) -> Option<Verdict> {
        let mut payload = vec![0; message.len()];
        let n = self.state.read_message(message, &mut payload).ok()?;
        let mut r = Reader::new(&payload[..n]);
        match r.u8().ok()? {
            0 => {
                let mut token = read_token(&mut r)?;
                r.finish().ok()?;
                token.server_addresses = [None; 32];
                token.server_addresses[0] = Some(self.dialled);
                Some(Verdict::Admitted(Box::new(token)))
            }
            1 => {
                let why = r.str("refusal", MAX_WHY).ok()?;
                r.finish().ok()?;
                Some(Verdict::Refused(why))
            }
            _ => None,
        }
    }
}

/// A request a server read: who asks, and for what; answered with [`Asked::answer`].
pub(crate) struct Asked {
    /// The player's identity (proven: the request opened with it).
    pub(crate) player: PublicKey,
    pub(crate) request: Request,
    state: HandshakeState,
}

/// Reads a request sealed to `me`: `None` if it is none (garbage, another server's,
/// too long a field).
pub(crate) fn read_request(me: &Identity, message: &[u8]) -> Option<Asked> {
    if message.len() != REQUEST_BYTES {
        return None;
    }
    let prologue = prologue();
    let mut state = builder()
        .local_private_key(me.private())
        .and_then(|b| b.prologue(&prologue))
        .and_then(Builder::build_responder)
        .ok()?;
    let mut payload = vec![0; message.len()];
    let n = state.read_message(message, &mut payload).ok()?;
    let player = PublicKey(state.get_remote_static()?.try_into().ok()?);
    let mut r = Reader::new(&payload[..n]);
    let name = r.str("name", MAX_NAME * 4).ok()?;
    let build = r.str("build", MAX_BUILD).ok()?;
    let password = match r.u8().ok()? {
        0 => None,
        1 => Some(r.str("password", MAX_PASSWORD).ok()?),
        _ => return None,
    };
    if r.take(r.rest()).ok()?.iter().any(|&b| b != 0) {
        return None;
    }
    Some(Asked {
        player,
        request: Request {
            name,
            build,
            password,
        },
        state,
    })
}

impl Asked {
    /// The answer's Noise message, sealed to the client that asked.
    pub(crate) fn answer(mut self, verdict: &Verdict) -> Option<Vec<u8>> {
        let mut w = Writer::new();
        match verdict {
            Verdict::Admitted(token) => {
                w.u8(0);
                write_token(&mut w, token);
            }
            Verdict::Refused(why) => {
                w.u8(1);
                let mut end = why.len().min(MAX_WHY);
                while !why.is_char_boundary(end) {
                    end -= 1;
                }
                w.str(&why[..end]);
            }
        }
        let payload = w.into_bytes();
        let mut message = vec![0; payload.len() + 64];
        let n = self.state.write_message(&payload, &mut message).ok()?;
        message.truncate(n);
        (n <= REQUEST_BYTES).then_some(message)
    }
}

/// What the client needs of a token (its public part names no address: the client
/// knows where it dialled).
fn write_token(w: &mut Writer, t: &ConnectToken) {
    w.u64_fixed(t.client_id);
    w.u64_fixed(t.create_timestamp);
    w.u64_fixed(t.expire_timestamp);
    w.raw(&t.xnonce);
    w.raw(&t.timeout_seconds.to_le_bytes());
    w.raw(&t.client_to_server_key);
    w.raw(&t.server_to_client_key);
    w.raw(&t.private_data);
}

fn read_token(r: &mut Reader) -> Option<ConnectToken> {
    let client_id = r.u64_fixed().ok()?;
    let create_timestamp = r.u64_fixed().ok()?;
    let expire_timestamp = r.u64_fixed().ok()?;
    let xnonce = r.take(24).ok()?.try_into().ok()?;
    let timeout_seconds = i32::from_le_bytes(r.take(4).ok()?.try_into().ok()?);
    let client_to_server_key = r.take(32).ok()?.try_into().ok()?;
    let server_to_client_key = r.take(32).ok()?.try_into().ok()?;
    let private_data = r.take(1024).ok()?.try_into().ok()?;
    Some(ConnectToken {
        client_id,
        version_info: NETCODE_VERSION,
        protocol_id: PROTOCOL_ID,
        create_timestamp,
        expire_timestamp,
        xnonce,
        server_addresses: [None; 32],
        client_to_server_key,
        server_to_client_key,
        private_data,
        timeout_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(key: &[u8; 32]) -> ConnectToken {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        let addr = "0.0.0.0:0".parse().unwrap();
        ConnectToken::generate(now, PROTOCOL_ID, 30, 77, 15, vec![addr], None, key).unwrap()
    }

    fn request(password: Option<&str>) -> Request {
        Request {
            name: "ada".into(),
            build: "terravox 0.1.0".into(),
            password: password.map(str::to_owned),
        }
    }

    const DIALLED: &str = "127.0.0.1:27050";

    /// `ada`'s request to `server`, with `password`.
    fn asking(ada: &Identity, server: &Identity, password: Option<&str>) -> (Opening, Vec<u8>) {
        open(
            ada,
            &server.public(),
            DIALLED.parse().unwrap(),
            &request(password),
        )
        .unwrap()
    }

    #[test]
    fn the_server_reads_who_asks_and_only_that_client_reads_the_token() {
        let (server, ada) = (Identity::generate(), Identity::generate());
        let (opening, message) = asking(&ada, &server, Some("pw"));
        assert_eq!(message.len(), REQUEST_BYTES);
        let asked = read_request(&server, &message).unwrap();
        assert_eq!(asked.player, ada.public());
        assert_eq!(asked.request, request(Some("pw")));
        let made = token(&[9; 32]);
        let answer = asked
            .answer(&Verdict::Admitted(Box::new(made.clone())))
            .unwrap();
        assert!(answer.len() <= message.len(), "{}", answer.len());
        let Some(Verdict::Admitted(got)) = opening.read(&answer) else {
            panic!("not admitted");
        };
        assert_eq!(got.version_info, made.version_info);
        assert_eq!(got.private_data, made.private_data);
        assert_eq!(got.client_to_server_key, made.client_to_server_key);
        assert_eq!(got.server_addresses[0], Some(DIALLED.parse().unwrap()));
    }

    #[test]
    fn another_server_can_neither_read_the_request_nor_answer_it() {
        let (server, impostor, ada) = (
            Identity::generate(),
            Identity::generate(),
            Identity::generate(),
        );
        // A password long enough that random bytes never hold it by chance (two
        // bytes did, once in a few hundred runs).
        let password = "correct-horse-battery";
        let (opening, message) = asking(&ada, &server, Some(password));
        // The password is nowhere in the bytes, and another key cannot open them.
        let pw = password.as_bytes();
        assert!(!message.windows(pw.len()).any(|w| w == pw));
        assert!(read_request(&impostor, &message).is_none());
        // An impostor answering a request of its own making is not read either.
        let (_, to_impostor) = asking(&ada, &impostor, None);
        let forged = read_request(&impostor, &to_impostor)
            .unwrap()
            .answer(&Verdict::Refused("no".into()))
            .unwrap();
        assert!(opening.read(&forged).is_none());
    }

    #[test]
    fn a_flipped_byte_or_a_short_request_is_no_request() {
        let (server, ada) = (Identity::generate(), Identity::generate());
        let (_, mut message) = asking(&ada, &server, None);
        message[100] ^= 1;
        assert!(read_request(&server, &message).is_none());
        assert!(read_request(&server, &message[..500]).is_none());
    }

    #[test]
    fn a_refusal_reaches_the_client() {
        let (server, ada) = (Identity::generate(), Identity::generate());
        let (opening, message) = asking(&ada, &server, None);
        let answer = read_request(&server, &message)
            .unwrap()
            .answer(&Verdict::Refused("wrong password".into()))
            .unwrap();
        assert!(
            matches!(opening.read(&answer), Some(Verdict::Refused(w)) if w == "wrong password")
        );
    }
}
