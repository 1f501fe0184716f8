//! One connected client as the server keeps it: who it is once it said hello, the
//! chunks of edits it is owed, the blocks changed since (the latest of each, by chunk),
//! where it is, and what it may still send.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use terravox_authority::PlayerId;
use terravox_authority::moves::Motion;
use terravox_voxel::{Block, BlockPos, ChunkPos};

use super::interest::Owed;
use super::tracking::Tracked;
use crate::identity::PublicKey;
use crate::protocol::Pose;

/// Messages a client may send a second on the world channel, sustained, and at once:
/// an honest client sends a few (edits at the authority's rate, chat).
pub(crate) const MESSAGE_RATE: f32 = 60.0;
pub(crate) const MESSAGE_BURST: f32 = 120.0;
/// Lines of chat a player may send a second, sustained, and at once.
pub(crate) const CHAT_RATE: f32 = 0.5;
pub(crate) const CHAT_BURST: f32 = 5.0;
/// Moves a client may send a second: more are dropped.
pub(crate) const MOVE_RATE: f32 = 40.0;

/// A token bucket: `rate` a second, `burst` at once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bucket {
    tokens: f32,
    rate: f32,
    burst: f32,
}

impl Bucket {
    pub(crate) fn new(rate: f32, burst: f32) -> Self {
        Self {
            tokens: burst,
            rate,
            burst,
        }
    }

    /// Refills for `seconds`.
    pub(crate) fn refill(&mut self, seconds: f32) {
        self.tokens = (self.tokens + seconds * self.rate).min(self.burst);
    }

    /// Takes one, if there is one.
    pub(crate) fn take(&mut self) -> bool {
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A connected client.
pub(crate) struct Client {
    /// The name it was let in as (by the handshake).
    pub(crate) asked_name: String,
    /// Its identity (proven by the handshake).
    pub(crate) key: PublicKey,
    /// Its player, once it said hello and was let in.
    pub(crate) player: Option<(PlayerId, String)>,
    pub(crate) connected: Instant,
    /// Whether it is joining: told `BacklogDone` once nothing within reach is owed.
    pub(crate) joining: bool,
    /// The chunks whose edits it is owed ([`interest`](super::interest)).
    pub(crate) owed: Owed,
    /// Blocks changed since it joined, the latest of each, by chunk.
    pub(crate) changes: BTreeMap<ChunkPos, BTreeMap<BlockPos, Block>>,
    /// Chunks among them with a player's edit: sent at once, whatever the budget.
    pub(crate) urgent: BTreeSet<ChunkPos>,
    /// Bytes of water it may still be sent now.
    pub(crate) water_budget: f32,
    /// Where it is, and when it last moved.
    pub(crate) pose: Option<(Pose, Instant)>,
    /// Its movement as the server judges it (from its first move or where it
    /// stood when it last left), and when its last move was judged.
    pub(crate) motion: Option<(Motion, Instant)>,
    /// When a correction was last told the console.
    pub(crate) noted_correction: Option<Instant>,
    /// What it was last sent of where each other player is.
    pub(crate) tracked: Tracked,
    pub(crate) messages: Bucket,
    pub(crate) chat: Bucket,
    pub(crate) moves: Bucket,
    /// Why it is to be disconnected, and when (a tick or two after its last message
    /// left, so it arrives).
    pub(crate) leaving: Option<(String, u32)>,
}

impl Client {
    /// A client let in as `asked_name` with `key`, connected at `now`.
    pub(crate) fn new(asked_name: String, key: PublicKey, now: Instant) -> Self {
        Self {
            asked_name,
            key,
            player: None,
            connected: now,
            joining: false,
            owed: Owed::default(),
            changes: BTreeMap::new(),
            urgent: BTreeSet::new(),
            water_budget: 0.0,
            pose: None,
            motion: None,
            noted_correction: None,
            tracked: Tracked::default(),
            messages: Bucket::new(MESSAGE_RATE, MESSAGE_BURST),
            chat: Bucket::new(CHAT_RATE, CHAT_BURST),
            moves: Bucket::new(MOVE_RATE, MOVE_RATE),
            leaving: None,
        }
    }

    /// Its player's id, once it plays.
    pub(crate) fn id(&self) -> Option<PlayerId> {
        self.player.as_ref().map(|(id, _)| *id)
    }

    /// Its player's name, once it plays.
    pub(crate) fn name(&self) -> Option<&str> {
        self.player.as_ref().map(|(_, n)| n.as_str())
    }

    /// Notes that the block at `p` is now `b` (a player's edit: `urgent`).
    pub(crate) fn changed(&mut self, p: BlockPos, b: Block, urgent: bool) {
        let c = p.to_chunk().0;
        self.changes.entry(c).or_default().insert(p, b);
        if urgent {
            self.urgent.insert(c);
        }
    }

    /// Takes the changed blocks of `c`.
    pub(crate) fn take_chunk(&mut self, c: ChunkPos) -> Vec<(BlockPos, Block)> {
        self.urgent.remove(&c);
        self.changes
            .remove(&c)
            .map(|m| m.into_iter().collect())
            .unwrap_or_default()
    }
}

/// Whether `name` may be a player's name: 1 to 16 letters, digits, `_` or `-`.
pub(crate) fn valid_name(name: &str) -> bool {
    (1..=crate::protocol::MAX_NAME).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_plain_words() {
        assert!(valid_name("ada"));
        assert!(valid_name("Bo_the-2nd"));
        assert!(!valid_name(""));
        assert!(!valid_name("seventeen_letters"));
        assert!(!valid_name("two words"));
        assert!(!valid_name("ünï"));
        assert!(!valid_name("a\u{202e}b"));
    }

    #[test]
    fn a_bucket_gives_its_burst_then_its_rate() {
        let mut b = Bucket::new(2.0, 3.0);
        assert!(b.take() && b.take() && b.take());
        assert!(!b.take());
        b.refill(0.5);
        assert!(b.take());
        assert!(!b.take());
        b.refill(100.0);
        assert_eq!((0..10).filter(|_| b.take()).count(), 3);
    }

    #[test]
    fn the_latest_block_of_a_position_is_kept_and_urgent_chunks_noted() {
        let mut c = Client::new(
            "ada".into(),
            crate::identity::Identity::generate().public(),
            Instant::now(),
        );
        let p = BlockPos::new(1, 2, 3);
        c.changed(p, Block::Water, false);
        c.changed(p, Block::Brick, true);
        c.changed(BlockPos::new(100, 2, 3), Block::Air, false);
        assert_eq!(c.urgent.len(), 1);
        assert_eq!(c.take_chunk(p.to_chunk().0), [(p, Block::Brick)]);
        assert!(c.urgent.is_empty());
        assert_eq!(c.changes.len(), 1);
    }
}
