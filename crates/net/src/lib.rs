//! Playing together. A server runs a world's authority headless and is sent edits,
//! chat and where its players are; it sends each client the world code once, then
//! the edits (the backlog, then every change), the water's changes (coalesced by
//! chunk under a budget), the players and the clock. No terrain travels: every
//! client makes its chunks from the world code, as single-player does, after
//! checking a few against the server's hashes.
//!
//! - [`protocol`]: the messages and their bytes.
//! - [`identity`], [`known`] and the handshake: who a server and a player are, the
//!   servers a player pinned, and the join's handshake that proves both and earns
//!   the connect token.
//!
//! This crate never depends on Bevy. The project's architecture is in `docs/design.md`.

mod around;
pub mod bot;
pub mod client;
mod files;
mod handshake;
pub mod identity;
pub mod known;
pub mod loopback;
pub mod protocol;
pub mod relay;
pub mod server;
pub mod swarm;
mod transport;
pub mod unanswered;
mod wire;

pub use handshake::MAX_PASSWORD;
pub use transport::{Info, MAX_MOTD, MAX_SERVER_NAME, ReachError};
