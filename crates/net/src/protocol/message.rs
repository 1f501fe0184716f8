//! The messages: what a client says to its server ([`ToServer`]) and what a server
//! says to its clients ([`ToClient`]), each a tag byte and its fields. Decoding checks
//! every length, number and block before anything is kept; a message that does not
//! decode drops the peer that sent it.

use terravox_authority::{Action, PlayerId, Refusal};
use terravox_voxel::{Block, BlockPos, ChunkPos};

use super::blocks;
use super::codec::{DecodeError, Reader, Writer};

/// The longest player name, in characters.
pub const MAX_NAME: usize = 16;
/// The longest chat line, in bytes.
pub const MAX_CHAT: usize = 256;
/// The longest reason or server line, in bytes.
const MAX_TEXT: usize = 1024;
/// The longest world code, in bytes.
const MAX_WORLD_CODE: usize = 64 << 10;
/// The most chunk hashes a welcome carries.
const MAX_HASHES: usize = 16;
/// The most players a message lists.
pub const MAX_PLAYERS: usize = 1024;
/// The longest packed batch of blocks, in bytes.
const MAX_PACKED: usize = 1 << 20;

/// Where a player is and where it looks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// Its feet, in world coordinates (sent in 64ths of a block).
    pub feet: [f64; 3],
    /// Its look around the vertical, in radians (sent in 65,536ths of a turn).
    pub yaw: f32,
    /// Its look up (positive) or down, in radians.
    pub pitch: f32,
}

/// What a server answers an edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The edit's number, as the client counted it.
    pub seq: u32,
    /// Why it was refused, or `None`: made (and durable).
    pub refused: Option<Refusal>,
    /// The block the edit was at.
    pub pos: BlockPos,
    /// What that block holds now on the server (a refused edit shown at once is put
    /// back to this); `None` where the server has not made that chunk: the client
    /// puts back what it had.
    pub block: Option<Block>,
    /// Whether the player's bucket holds water now.
    pub bucket_full: bool,
}

/// What a joining client is told first.
#[derive(Clone, Debug, PartialEq)]
pub struct Welcome {
    /// Its player's number.
    pub you: PlayerId,
    /// The world: its code (the canonical config, RON).
    pub world_code: String,
    /// The world's generator version.
    pub generator_version: u32,
    /// The server's build (`terravox x.y.z`).
    pub build: String,
    /// Chunks of the world as generated (no edits) and the hash of their blocks: the
    /// client makes them too and plays only if every hash agrees.
    pub hashes: Vec<(ChunkPos, u64)>,
    /// The time of day, and whether the clock stands still.
    pub clock: (f32, bool),
    /// The players already there.
    pub players: Vec<(PlayerId, String)>,
    /// Where this player last stood in this world, if it played here.
    pub at: Option<Pose>,
    /// Whether its bucket holds water (as it left it).
    pub bucket_full: bool,
    /// Whether this player may fly (and pass through blocks): the server takes
    /// only moves a walking, swimming body makes otherwise.
    pub may_fly: bool,
    /// How many edits the backlog that follows holds.
    pub backlog: u64,
}

/// What a client says.
#[derive(Clone, Debug, PartialEq)]
pub enum ToServer {
    /// The first message: who it is.
    Hello {
        /// The player's name.
        name: String,
        /// The client's build.
        build: String,
    },
    /// An edit, numbered.
    Act {
        /// Counted by the client, for the answer.
        seq: u32,
        /// The edit.
        action: Action,
    },
    /// A line of chat.
    Chat(String),
    /// Where the player is now (unreliable, often), and the number of the server's
    /// corrections it has taken (moves made before the latest are not judged).
    Move(Pose, u32),
}

/// What a server says.
#[derive(Clone, Debug, PartialEq)]
pub enum ToClient {
    /// The client may play (see [`Welcome`]).
    Welcome(Box<Welcome>),
    /// The client may not play, and why; it is disconnected.
    Refused(String),
    /// Blocks as they are now: the backlog of edits (`backlog`) or changes since.
    Blocks {
        /// Part of the backlog a joining client is sent.
        backlog: bool,
        /// The blocks.
        changes: Vec<(BlockPos, Block)>,
    },
    /// The backlog is complete: the client has the world as it is.
    BacklogDone,
    /// The answer to one of the client's edits.
    Answer(Answer),
    /// A player joined.
    Joined(PlayerId, String),
    /// A player left, and why.
    Left(PlayerId, String),
    /// A player's line of chat.
    Chat(PlayerId, String),
    /// A line from the server (its console's `say`, a notice).
    Say(String),
    /// The time of day and whether the clock stands still.
    Clock(f32, bool),
    /// The server did not take this player's move: it is back at `feet` (in 64ths of
    /// a block), and its moves from now on follow correction `corrections`.
    Correct {
        /// Where the player is.
        feet: [f64; 3],
        /// The correction's number.
        corrections: u32,
        /// Why.
        why: String,
    },
    /// Where the players are (unreliable, often).
    Players(Vec<(PlayerId, Pose)>),
}

/// Every refusal, its index its number on the wire.
const REFUSALS: [Refusal; 16] = [
    Refusal::NoFace,
    Refusal::InsidePlayer,
    Refusal::Occupied,
    Refusal::NotLoaded,
    Refusal::Draft,
    Refusal::Water,
    Refusal::NoSource,
    Refusal::Nothing,
    Refusal::Floating,
    Refusal::NotPlaceable,
    Refusal::BucketEmpty,
    Refusal::BucketFull,
    Refusal::OutOfReach,
    Refusal::TooFast,
    Refusal::WaterBusy,
    Refusal::UnknownPlayer,
];

/// A refusal's number on the wire (a match, so a new refusal needs one).
fn refusal_code(r: Refusal) -> u8 {
    match r {
        Refusal::NoFace => 0,
        Refusal::InsidePlayer => 1,
        Refusal::Occupied => 2,
        Refusal::NotLoaded => 3,
        Refusal::Draft => 4,
        Refusal::Water => 5,
        Refusal::NoSource => 6,
        Refusal::Nothing => 7,
        Refusal::Floating => 8,
        Refusal::NotPlaceable => 9,
        Refusal::BucketEmpty => 10,
        Refusal::BucketFull => 11,
        Refusal::OutOfReach => 12,
        Refusal::TooFast => 13,
        Refusal::WaterBusy => 14,
        Refusal::UnknownPlayer => 15,
    }
}

fn write_pos(w: &mut Writer, p: BlockPos) {
    for v in [p.x, p.y, p.z] {
        w.zigzag(i64::from(v));
    }
}

fn read_pos(r: &mut Reader) -> Result<BlockPos, DecodeError> {
    Ok(BlockPos::new(
        r.i32("position")?,
        r.i32("position")?,
        r.i32("position")?,
    ))
}

fn read_block(r: &mut Reader) -> Result<Block, DecodeError> {
    Block::ALL
        .get(usize::from(r.u8()?))
        .copied()
        .ok_or(DecodeError::Invalid("block"))
}

fn write_pose(w: &mut Writer, p: &Pose) {
    for v in p.feet {
        w.zigzag((v * 64.0).round() as i64);
    }
    let turn = (p.yaw / std::f32::consts::TAU).rem_euclid(1.0);
    w.raw(&((turn * 65_536.0).round() as u32 as u16).to_le_bytes());
    let up = (p.pitch / std::f32::consts::FRAC_PI_2).clamp(-1.0, 1.0);
    w.raw(&((up * 32_767.0).round() as i16).to_le_bytes());
}

fn read_pose(r: &mut Reader) -> Result<Pose, DecodeError> {
    let mut feet = [0.0; 3];
    for v in &mut feet {
        let q = r.zigzag()?;
        // 2^40 64ths is 2^34 blocks, past the world's 2^30 each way: anything beyond
        // that is no place.
        if q.unsigned_abs() > 1 << 40 {
            return Err(DecodeError::Invalid("position"));
        }
        *v = q as f64 / 64.0;
    }
    let yaw = r.take(2)?;
    let pitch = r.take(2)?;
    Ok(Pose {
        feet,
        yaw: f32::from(u16::from_le_bytes([yaw[0], yaw[1]])) / 65_536.0 * std::f32::consts::TAU,
        pitch: f32::from(i16::from_le_bytes([pitch[0], pitch[1]])) / 32_767.0
            * std::f32::consts::FRAC_PI_2,
    })
}

/// Checks a line of text: at most `max` bytes (already checked) and no control
/// characters.
fn printable(s: String, what: &'static str) -> Result<String, DecodeError> {
    if s.chars().any(char::is_control) {
        return Err(DecodeError::Invalid(what));
    }
    Ok(s)
}

impl ToServer {
    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            ToServer::Hello { name, build } => {
                w.u8(0);
                w.str(name);
                w.str(build);
            }
            ToServer::Act { seq, action } => {
                w.u8(1);
                w.varint(u64::from(*seq));
                match *action {
                    Action::Break(p) => {
                        w.u8(0);
                        write_pos(&mut w, p);
                    }
                    Action::Place(p, b) => {
                        w.u8(1);
                        write_pos(&mut w, p);
                        w.u8(b as u8);
                    }
                    Action::Take(p) => {
                        w.u8(2);
                        write_pos(&mut w, p);
                    }
                }
            }
            ToServer::Chat(text) => {
                w.u8(2);
                w.str(text);
            }
            ToServer::Move(pose, corrections) => {
                w.u8(3);
                write_pose(&mut w, pose);
                w.varint(u64::from(*corrections));
            }
        }
        w.into_bytes()
    }

    /// Reads a message (all of `bytes`).
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let m = match r.u8()? {
            0 => ToServer::Hello {
                name: printable(r.str("name", MAX_NAME * 4)?, "name")?,
                build: printable(r.str("build", MAX_TEXT)?, "build")?,
            },
            1 => {
                let seq = r.u32("edit number")?;
                let action = match r.u8()? {
                    0 => Action::Break(read_pos(&mut r)?),
                    1 => Action::Place(read_pos(&mut r)?, read_block(&mut r)?),
                    2 => Action::Take(read_pos(&mut r)?),
                    _ => return Err(DecodeError::Invalid("edit")),
                };
                ToServer::Act { seq, action }
            }
            2 => ToServer::Chat(printable(r.str("chat", MAX_CHAT)?, "chat")?),
            3 => ToServer::Move(read_pose(&mut r)?, r.u32("corrections")?),
            _ => return Err(DecodeError::Invalid("message")),
        };
        r.finish()?;
        Ok(m)
    }
}

impl ToClient {
    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            ToClient::Welcome(welcome) => {
                w.u8(0);
                write_welcome(&mut w, welcome);
            }
            ToClient::Refused(why) => {
                w.u8(1);
                w.str(why);
            }
            ToClient::Blocks { backlog, changes } => {
                w.u8(2);
                w.u8(u8::from(*backlog));
                w.bytes(&blocks::pack(changes));
            }
            ToClient::BacklogDone => w.u8(3),
            ToClient::Answer(a) => {
                w.u8(4);
                w.varint(u64::from(a.seq));
                w.u8(a.refused.map_or(u8::MAX, refusal_code));
                write_pos(&mut w, a.pos);
                w.u8(a.block.map_or(u8::MAX, |b| b as u8));
                w.u8(u8::from(a.bucket_full));
            }
            ToClient::Joined(id, name) | ToClient::Left(id, name) | ToClient::Chat(id, name) => {
                w.u8(match self {
                    ToClient::Joined(..) => 5,
                    ToClient::Left(..) => 6,
                    _ => 7,
                });
                w.varint(*id);
                w.str(name);
            }
            ToClient::Say(text) => {
                w.u8(8);
                w.str(text);
            }
            ToClient::Clock(hours, paused) => {
                w.u8(9);
                w.f32(*hours);
                w.u8(u8::from(*paused));
            }
            ToClient::Players(players) => {
                w.u8(10);
                w.varint(players.len() as u64);
                for (id, pose) in players {
                    w.varint(*id);
                    write_pose(&mut w, pose);
                }
            }
            ToClient::Correct {
                feet,
                corrections,
                why,
            } => {
                w.u8(11);
                write_pose(
                    &mut w,
                    &Pose {
                        feet: *feet,
                        ..Pose::default()
                    },
                );
                w.varint(u64::from(*corrections));
                w.str(why);
            }
        }
        w.into_bytes()
    }

    /// Reads a message (all of `bytes`).
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let m = match r.u8()? {
            0 => ToClient::Welcome(Box::new(read_welcome(&mut r)?)),
            1 => ToClient::Refused(printable(r.str("reason", MAX_TEXT)?, "reason")?),
            2 => {
                let backlog = read_bool(&mut r)?;
                let changes = blocks::unpack(r.bytes("packed blocks", MAX_PACKED)?)?;
                ToClient::Blocks { backlog, changes }
            }
            3 => ToClient::BacklogDone,
            4 => {
                let seq = r.u32("edit number")?;
                let refused = match r.u8()? {
                    u8::MAX => None,
                    code => Some(
                        *REFUSALS
                            .get(usize::from(code))
                            .ok_or(DecodeError::Invalid("refusal"))?,
                    ),
                };
                ToClient::Answer(Answer {
                    seq,
                    refused,
                    pos: read_pos(&mut r)?,
                    block: match r.u8()? {
                        u8::MAX => None,
                        b => Some(
                            *Block::ALL
                                .get(usize::from(b))
                                .ok_or(DecodeError::Invalid("block"))?,
                        ),
                    },
                    bucket_full: read_bool(&mut r)?,
                })
            }
            tag @ 5..=7 => {
                let id = r.varint()?;
                let text = printable(r.str("text", MAX_TEXT)?, "text")?;
                match tag {
                    5 => ToClient::Joined(id, text),
                    6 => ToClient::Left(id, text),
                    _ => ToClient::Chat(id, text),
                }
            }
            8 => ToClient::Say(printable(r.str("text", MAX_TEXT)?, "text")?),
            9 => ToClient::Clock(read_hours(&mut r)?, read_bool(&mut r)?),
            10 => {
                let n = r.len("players", MAX_PLAYERS)?;
                let mut players = Vec::with_capacity(n);
                for _ in 0..n {
                    players.push((r.varint()?, read_pose(&mut r)?));
                }
                ToClient::Players(players)
            }
            11 => ToClient::Correct {
                feet: read_pose(&mut r)?.feet,
                corrections: r.u32("corrections")?,
                why: printable(r.str("why", MAX_TEXT)?, "why")?,
            },
            _ => return Err(DecodeError::Invalid("message")),
        };
        r.finish()?;
        Ok(m)
    }
}

fn read_bool(r: &mut Reader) -> Result<bool, DecodeError> {
    match r.u8()? {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(DecodeError::Invalid("flag")),
    }
}

fn read_hours(r: &mut Reader) -> Result<f32, DecodeError> {
    let h = r.f32("hours")?;
    (0.0..24.0)
        .contains(&h)
        .then_some(h)
        .ok_or(DecodeError::Invalid("hours"))
}

fn write_welcome(w: &mut Writer, m: &Welcome) {
    w.varint(m.you);
    w.str(&m.world_code);
    w.varint(u64::from(m.generator_version));
    w.str(&m.build);
    w.varint(m.hashes.len() as u64);
    for (c, h) in &m.hashes {
        write_pos(w, BlockPos::new(c.x, c.y, c.z));
        w.u64_fixed(*h);
    }
    w.f32(m.clock.0);
    w.u8(u8::from(m.clock.1));
    w.varint(m.players.len() as u64);
    for (id, name) in &m.players {
        w.varint(*id);
        w.str(name);
    }
    match &m.at {
        Some(pose) => {
            w.u8(1);
            write_pose(w, pose);
        }
        None => w.u8(0),
    }
    w.u8(u8::from(m.bucket_full));
    w.u8(u8::from(m.may_fly));
    w.varint(m.backlog);
}

fn read_welcome(r: &mut Reader) -> Result<Welcome, DecodeError> {
    let you = r.varint()?;
    let world_code = r.str("world code", MAX_WORLD_CODE)?;
    let generator_version = r.u32("generator version")?;
    let build = printable(r.str("build", MAX_TEXT)?, "build")?;
    let n = r.len("hashes", MAX_HASHES)?;
    let mut hashes = Vec::with_capacity(n);
    for _ in 0..n {
        let p = read_pos(r)?;
        hashes.push((ChunkPos::new(p.x, p.y, p.z), r.u64_fixed()?));
    }
    let clock = (read_hours(r)?, read_bool(r)?);
    let n = r.len("players", MAX_PLAYERS)?;
    let mut players = Vec::with_capacity(n);
    for _ in 0..n {
        players.push((
            r.varint()?,
            printable(r.str("name", MAX_NAME * 4)?, "name")?,
        ));
    }
    let at = if read_bool(r)? {
        Some(read_pose(r)?)
    } else {
        None
    };
    Ok(Welcome {
        you,
        world_code,
        generator_version,
        build,
        hashes,
        clock,
        players,
        at,
        bucket_full: read_bool(r)?,
        may_fly: read_bool(r)?,
        backlog: r.varint()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_own_number() {
        for (i, r) in REFUSALS.iter().enumerate() {
            assert_eq!(usize::from(refusal_code(*r)), i, "{r:?}");
        }
    }
}
