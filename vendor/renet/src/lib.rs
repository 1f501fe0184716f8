mod channel;
mod connection_stats;
mod error;
mod packet;
mod remote_connection;
mod server;

pub use channel::{ChannelConfig, DefaultChannel, SendType};
pub use error::{ChannelError, ClientNotFound, DisconnectReason};
pub use channel::reliable::REDUNDANT_GAP;
pub use remote_connection::{ConnectionConfig, NetworkInfo, RenetClient, RenetConnectionStatus, MIN_RESEND_TIME, REDUNDANT_FROM_LOSS};
pub use server::{RenetServer, ServerEvent};

pub use bytes::Bytes;

pub type ClientId = u64;
