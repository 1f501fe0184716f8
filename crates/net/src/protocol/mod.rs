//! The protocol between a server and its clients: [`ToServer`] and [`ToClient`]
//! messages over renet's channels ([`Channel`]), their bytes ([`codec`]) and the
//! packed batches of blocks they carry ([`blocks`]). No terrain travels: a client
//! makes its chunks from the world code in the welcome, checks a few against the
//! server's hashes, and is sent only edits, water and players.

pub mod blocks;
pub mod codec;
mod message;

pub use message::{Answer, MAX_CHAT, MAX_NAME, MAX_PLAYERS, Pose, ToClient, ToServer, Welcome};

/// The protocol's version: a client and a server of other versions do not talk
/// (the query says so before anything else). 2: servers with identities, players
/// with keys, the join's handshake.
pub const PROTOCOL: u32 = 2;

/// netcode's protocol id: terravox's protocol (clients of other versions are told so
/// by the query first).
pub(crate) const PROTOCOL_ID: u64 = 0x7476_7800_0000_0000 | PROTOCOL as u64;

/// renet's channels, the same numbers both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// In order and never lost: the welcome, the backlog, blocks, answers, chat.
    World = 0,
    /// Lossy and frequent: where the players are. A lost one is replaced by the next.
    Moves = 1,
}

impl From<Channel> for u8 {
    fn from(c: Channel) -> u8 {
        c as u8
    }
}
