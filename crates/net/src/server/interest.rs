//! Which edits a client is sent, by where it is: a player's edits within the edit
//! reach (what its far view shows), the water's within the water reach (what it
//! plays among). A chunk changed beyond its reach is *owed*: the client is sent the
//! chunk's edits as they are then once it comes within reach, nearest first, and
//! nothing of it before. A joining client owes every edited chunk, so its backlog is
//! the area around it and the rest comes as it travels.

use std::collections::BTreeMap;

use terravox_voxel::{BlockPos, CHUNK, ChunkPos};

/// How far, in blocks across the land, a client is sent each kind of change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reaches {
    /// A player's edits: what a far view shows.
    pub edits: f64,
    /// The water's changes: what a player plays among.
    pub water: f64,
}

impl Default for Reaches {
    /// 4,096 blocks of edits (the far view's horizon) and 512 of water (a view
    /// distance of 32 chunks).
    fn default() -> Self {
        Self {
            edits: 4096.0,
            water: 512.0,
        }
    }
}

/// The distance across the land from `at` to the middle of chunk `c`'s column.
pub(crate) fn distance(c: ChunkPos, at: [f64; 3]) -> f64 {
    let o = c.origin();
    let half = f64::from(CHUNK) / 2.0;
    let dx = f64::from(o.x) + half - at[0];
    let dz = f64::from(o.z) + half - at[2];
    dx.hypot(dz)
}

/// The chunk holding `at`.
pub(crate) fn chunk_of(at: [f64; 3]) -> ChunkPos {
    BlockPos::containing_f64(at).to_chunk().0
}

/// The chunks a client is owed, each with the reach it is sent within.
#[derive(Debug, Default)]
pub(crate) struct Owed {
    chunks: BTreeMap<ChunkPos, f64>,
    /// Those within reach of where the client was when it entered the chunk `from`,
    /// farthest first (the nearest is popped): made again when it enters another.
    due: Vec<ChunkPos>,
    from: Option<(ChunkPos, [f64; 3])>,
}

impl Owed {
    /// Owes chunk `c`, to be sent within `reach` (the farther reach, if it was owed
    /// already).
    pub(crate) fn owe(&mut self, c: ChunkPos, reach: f64) {
        let r = self.chunks.entry(c).or_insert(f64::NEG_INFINITY);
        if *r >= reach {
            return;
        }
        *r = reach;
        // Within reach of where the list was made: into it, in its place (water
        // that churns beyond the reach owes the same chunk again and again, and
        // makes no list again).
        if let Some((_, at)) = self.from {
            let d = distance(c, at);
            if d <= reach && !self.due.contains(&c) {
                let i = self.due.partition_point(|&o| distance(o, at) > d);
                self.due.insert(i, c);
            }
        }
    }

    /// Whether `c` is owed.
    pub(crate) fn holds(&self, c: ChunkPos) -> bool {
        self.chunks.contains_key(&c)
    }

    /// The nearest owed chunk within its reach of `at`, taken off the list.
    pub(crate) fn next(&mut self, at: [f64; 3]) -> Option<ChunkPos> {
        let here = chunk_of(at);
        if self.from.is_none_or(|(c, _)| c != here) {
            self.from = Some((here, at));
            let mut due: Vec<(f64, ChunkPos)> = (self.chunks.iter())
                .map(|(&c, &reach)| (distance(c, at), c, reach))
                .filter(|&(d, _, reach)| d <= reach)
                .map(|(d, c, _)| (d, c))
                .collect();
            due.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
            self.due = due.into_iter().map(|(_, c)| c).collect();
        }
        while let Some(c) = self.due.pop() {
            if self.chunks.remove(&c).is_some() {
                return Some(c);
            }
        }
        None
    }

    /// How many chunks are owed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.chunks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feet(x: f64, z: f64) -> [f64; 3] {
        [x, 70.0, z]
    }

    /// Every chunk due at `at`, in the order they come.
    fn drain(owed: &mut Owed, at: [f64; 3]) -> Vec<ChunkPos> {
        std::iter::from_fn(|| owed.next(at)).collect()
    }

    #[test]
    fn owed_chunks_come_nearest_first_and_only_within_their_reach() {
        let mut owed = Owed::default();
        let [near, mid, far] = [1, 10, 20].map(|x| ChunkPos::new(x, 4, 0));
        owed.owe(far, 1000.0);
        owed.owe(mid, 300.0);
        owed.owe(near, 100.0);
        // From the origin (32-block chunks): the near one, 48 blocks off, then the
        // far one, 656 off, within its 1000; the middle one is 336 off, beyond its
        // 300.
        assert_eq!(drain(&mut owed, feet(0.0, 0.0)), [near, far]);
        assert_eq!(owed.len(), 1);
        // Walked over to it: the middle one comes.
        assert_eq!(drain(&mut owed, feet(100.0, 0.0)), [mid]);
        assert_eq!(owed.len(), 0);
    }

    #[test]
    fn a_chunk_owed_twice_keeps_the_farther_reach_and_comes_once() {
        let mut owed = Owed::default();
        let c = ChunkPos::new(20, 4, 0);
        owed.owe(c, 100.0);
        assert!(drain(&mut owed, feet(0.0, 0.0)).is_empty());
        owed.owe(c, 50.0);
        owed.owe(c, 700.0);
        assert!(owed.holds(c));
        // Owed again with a farther reach it is due at once, in its place.
        let near = ChunkPos::new(2, 4, 0);
        owed.owe(near, 100.0);
        assert_eq!(drain(&mut owed, feet(0.0, 0.0)), [near, c]);
        assert!(!owed.holds(c));
        assert!(owed.next(feet(0.0, 0.0)).is_none());
    }

    #[test]
    fn distance_is_across_the_land_to_the_middle_of_the_column() {
        let c = ChunkPos::new(0, -3, 0);
        let half = f64::from(CHUNK) / 2.0;
        assert_eq!(distance(c, [half, 1000.0, half]), 0.0);
        assert_eq!(distance(c, [half + 3.0, 0.0, half + 4.0]), 5.0);
    }
}
