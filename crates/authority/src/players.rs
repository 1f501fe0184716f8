//! The players in a world as the authority sees them: where each body stands, whether
//! its bucket holds water, and how many edits it may still make right now (the rate
//! every player's edits are held to: [`EDIT_RATE`] a second, [`EDIT_BURST`] at
//! once).

use std::collections::BTreeMap;

/// Edits a player may make a second, sustained.
pub const EDIT_RATE: f32 = 20.0;

/// Edits a player may make at once.
pub const EDIT_BURST: f32 = 40.0;

/// A player of a world: 0 is single-player's own; a server numbers its players.
pub type PlayerId = u64;

/// One player's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Player {
    /// Where its feet are, in world coordinates.
    pub(crate) feet: [f64; 3],
    /// Whether its bucket holds a source of water.
    pub(crate) bucket_full: bool,
    /// Edits it may make at once (refilled at [`EDIT_RATE`] a second, up to
    /// [`EDIT_BURST`]).
    pub(crate) tokens: f32,
}

/// The players in a world, by id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Players {
    players: BTreeMap<PlayerId, Player>,
}

impl Players {
    /// Puts player `id` at `feet` (adding it with an empty bucket if it is new).
    pub fn place(&mut self, id: PlayerId, feet: [f64; 3]) {
        self.players
            .entry(id)
            .and_modify(|p| p.feet = feet)
            .or_insert(Player {
                feet,
                bucket_full: false,
                tokens: EDIT_BURST,
            });
    }

    /// Takes player `id` out of the world.
    pub fn remove(&mut self, id: PlayerId) {
        self.players.remove(&id);
    }

    /// Where player `id`'s feet are.
    pub fn feet(&self, id: PlayerId) -> Option<[f64; 3]> {
        self.players.get(&id).map(|p| p.feet)
    }

    /// Whether player `id`'s bucket holds water.
    pub fn bucket_full(&self, id: PlayerId) -> bool {
        self.players.get(&id).is_some_and(|p| p.bucket_full)
    }

    /// Sets whether player `id`'s bucket holds water (a client following its server).
    pub fn set_bucket(&mut self, id: PlayerId, full: bool) {
        if let Some(p) = self.players.get_mut(&id) {
            p.bucket_full = full;
        }
    }

    /// The players, by id.
    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, [f64; 3])> + '_ {
        self.players.iter().map(|(id, p)| (*id, p.feet))
    }

    /// How many players there are.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    pub(crate) fn get_mut(&mut self, id: PlayerId) -> Option<&mut Player> {
        self.players.get_mut(&id)
    }

    /// Refills every player's edits for `seconds` of game time.
    pub(crate) fn refill(&mut self, seconds: f32) {
        for p in self.players.values_mut() {
            p.tokens = (p.tokens + seconds * EDIT_RATE).min(EDIT_BURST);
        }
    }
}
