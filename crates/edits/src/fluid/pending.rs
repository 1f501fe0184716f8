//! The water blocks waiting to tick: woken by an edit or by a change beside them, in
//! the order they tick, and those waiting for a chunk to load.
//!
//! Held in persistent maps, so a clone (a save's snapshot, a coarse chunk's task, the
//! cross-section) costs the same at any size, as the edits themselves do; and bounded
//! ([`MAX_PENDING`] due, [`MAX_WAITING`] waiting): past a bound a wake is dropped and
//! counted ([`Pending::dropped`]). The waiting are set aside by chunk: water left
//! flowing where nobody is waits there without filling the bound of the water due,
//! and taking it up again costs the chunks it waits for, not its blocks.

use imbl::{OrdMap, OrdSet, Vector};

use terravox_voxel::{BlockPos, ChunkPos};

use super::step::Cells;

/// The most blocks that may be due or waiting at once. Past it a wake is dropped
/// (that block stays as it is until a change beside it wakes it again, once there is
/// room) and counted; the water already due goes on, so a world at the bound settles
/// and makes room. A dam break of a 16 x 16 lake has a few hundred due at most; the
/// bound is there so no flood, honest or not, can fill memory or a save.
pub const MAX_PENDING: usize = 1 << 18;

/// The most blocks that may wait for a chunk at once (past it a block put aside is
/// dropped and counted, as past [`MAX_PENDING`]): water left flowing in a few
/// hundred places a player left, each a dam break's worth.
pub const MAX_WAITING: usize = 1 << 20;

/// The blocks due to tick, by the step they were woken for and then by position
/// (so the order never depends on the order of wakes within a step), the blocks of
/// the step under way, and the blocks waiting for a chunk. Empty in a world nobody
/// changed: it does no fluid work.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// The number of the next step.
    next: u64,
    /// The blocks of the step under way (taken, not yet laid): a save keeps them, so
    /// the step is taken again after a reload.
    running: Vector<BlockPos>,
    /// `(step, block)`: due to tick at that step (or the first step after it that
    /// has room).
    due: OrdSet<(u64, BlockPos)>,
    /// The step each due block is due at.
    at: OrdMap<BlockPos, u64>,
    /// Blocks whose tick needs this chunk loaded.
    waiting: OrdMap<BlockPos, ChunkPos>,
    /// The same, by chunk.
    parked: OrdMap<ChunkPos, OrdSet<BlockPos>>,
    /// Wakes dropped at the bound since this was made (not saved).
    dropped: u64,
}

impl Pending {
    /// The next step being number `next`, the blocks `due` (with their steps), those
    /// of the step under way (`running`) and those `waiting` (with the chunk each
    /// waits for): what a save holds. Blocks past [`MAX_PENDING`] are dropped.
    pub fn from_parts(
        next: u64,
        due: impl IntoIterator<Item = (u64, BlockPos)>,
        running: Vec<BlockPos>,
        waiting: impl IntoIterator<Item = (BlockPos, ChunkPos)>,
    ) -> Self {
        let mut p = Self {
            next,
            running: running.into_iter().collect(),
            ..Self::default()
        };
        for (step, pos) in due {
            if p.at.contains_key(&pos) {
                continue;
            }
            if p.full() {
                p.dropped += 1;
                continue;
            }
            p.at.insert(pos, step);
            p.due.insert((step, pos));
        }
        for (pos, c) in waiting {
            if p.at.contains_key(&pos) {
                continue;
            }
            p.park(pos, c);
        }
        p
    }

    /// The number of the next step.
    pub fn next_step(&self) -> u64 {
        self.next
    }

    /// The blocks due, with their steps, in the order they tick.
    pub fn due(&self) -> impl ExactSizeIterator<Item = (u64, BlockPos)> + '_ {
        self.due.iter().copied()
    }

    /// The blocks of the step under way (taken and not yet laid), in order.
    pub fn running(&self) -> impl ExactSizeIterator<Item = BlockPos> + '_ {
        self.running.iter().copied()
    }

    /// Whether a step is under way (taken and not yet laid).
    pub fn is_running(&self) -> bool {
        !self.running.is_empty()
    }

    /// The blocks waiting for a chunk, with that chunk.
    pub fn waiting(&self) -> impl ExactSizeIterator<Item = (BlockPos, ChunkPos)> + '_ {
        self.waiting.iter().map(|(p, c)| (*p, *c))
    }

    /// Whether nothing is due, under way or waiting.
    pub fn is_empty(&self) -> bool {
        self.due.is_empty() && self.running.is_empty() && self.waiting.is_empty()
    }

    /// How many blocks are due to tick.
    pub fn due_count(&self) -> usize {
        self.due.len()
    }

    /// How many blocks are due or waiting (what a save holds).
    pub fn len(&self) -> usize {
        self.due.len() + self.waiting.len()
    }

    /// Whether the bound of the water due is reached: a wake now is dropped.
    pub fn full(&self) -> bool {
        self.due.len() >= MAX_PENDING
    }

    /// The chunks blocks wait for, each once.
    pub fn waiting_chunks(&self) -> impl ExactSizeIterator<Item = ChunkPos> + '_ {
        self.parked.keys().copied()
    }

    /// Sets `p` aside for chunk `c` (past [`MAX_WAITING`] it is dropped and counted).
    fn park(&mut self, p: BlockPos, c: ChunkPos) {
        if self.waiting.contains_key(&p) {
            return;
        }
        if self.waiting.len() >= MAX_WAITING {
            self.dropped += 1;
            return;
        }
        self.waiting.insert(p, c);
        self.parked.entry(c).or_default().insert(p);
    }

    /// Wakes dropped at the bound since this was made or read.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Wakes the block at `p` for the next step (a block already due or waiting
    /// stays where it is; one under way ticks again). Returns whether it was woken:
    /// not when it already was, nor past the bound (then it is counted as dropped).
    pub fn wake(&mut self, p: BlockPos) -> bool {
        if self.waiting.contains_key(&p) || self.at.contains_key(&p) {
            return false;
        }
        if self.full() {
            self.dropped += 1;
            return false;
        }
        self.at.insert(p, self.next);
        self.due.insert((self.next, p));
        true
    }

    /// Wakes the water among the block at `p` and its six neighbours, after `p`
    /// changed: what Minecraft schedules when a block changes beside water. Blocks
    /// of chunks that are not loaded are woken too (they wait for their chunk).
    /// Returns how many were woken.
    pub fn wake_around(&mut self, p: BlockPos, cells: &(impl Cells + ?Sized)) -> usize {
        let mut woken = 0;
        for q in Self::woken_by(p, cells) {
            woken += usize::from(self.wake(q));
        }
        woken
    }

    /// The blocks a change at `p` wakes: the water among `p` and its six neighbours,
    /// and those of them in chunks that are not loaded.
    pub fn woken_by(
        p: BlockPos,
        cells: &(impl Cells + ?Sized),
    ) -> impl Iterator<Item = BlockPos> + '_ {
        std::iter::once(p)
            .chain(p.neighbours())
            .filter(|&q| cells.block(q).is_none_or(|b| b.is_water()))
    }

    /// Takes the blocks that tick in the next step: the first `most` due, in order;
    /// the rest are carried over. They are the step under way until it is laid
    /// ([`Pending::finish`]); the step after it becomes the next.
    pub fn take(&mut self, most: usize) -> Vec<BlockPos> {
        let mut out = Vec::with_capacity(most.min(self.due.len()));
        while out.len() < most {
            let Some((_, p)) = self.due.remove_min() else {
                break;
            };
            self.at.remove(&p);
            out.push(p);
        }
        self.next += 1;
        self.running = out.iter().copied().collect();
        out
    }

    /// The step under way was laid into the world.
    pub fn finish(&mut self) {
        self.running.clear();
    }

    /// Puts `p` aside until chunk `c` is loaded (past [`MAX_WAITING`] it is dropped).
    pub fn wait(&mut self, p: BlockPos, c: ChunkPos) {
        if let Some(step) = self.at.remove(&p) {
            self.due.remove(&(step, p));
        }
        self.park(p, c);
    }

    /// Wakes the waiting blocks whose chunk `loaded` says is loaded now (asking once
    /// a chunk); returns how many.
    pub fn resume(&mut self, loaded: impl Fn(ChunkPos) -> bool) -> usize {
        let ready: Vec<ChunkPos> = self.parked.keys().copied().filter(|&c| loaded(c)).collect();
        let mut woken = 0;
        for c in ready {
            for p in self.parked.remove(&c).unwrap_or_default() {
                self.waiting.remove(&p);
                self.wake(p);
                woken += 1;
            }
        }
        woken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_bound_a_wake_is_dropped_and_counted_and_the_due_water_goes_on() {
        let mut p = Pending::default();
        let at = |i: usize| BlockPos::new(i as i32 % 1000, 0, i as i32 / 1000);
        for i in 0..MAX_PENDING {
            assert!(p.wake(at(i)));
        }
        assert!(p.full());
        assert!(!p.wake(BlockPos::new(5, 5, 5)));
        assert_eq!(p.dropped(), 1);
        // Water set aside for a chunk does not count towards the bound of the due.
        p.wait(BlockPos::new(6, 6, 6), ChunkPos::new(0, 0, 0));
        assert_eq!((p.due_count(), p.waiting().len()), (MAX_PENDING, 1));
        // A block already due may still be put aside to wait: room is made.
        p.wait(at(0), ChunkPos::new(0, 0, 0));
        assert_eq!((p.due_count(), p.waiting().len()), (MAX_PENDING - 1, 2));
        // The due water ticks and makes room.
        let taken = p.take(1024);
        assert_eq!(taken.len(), 1024);
        assert_eq!(taken[0], at(1000));
        p.finish();
        assert!(p.wake(BlockPos::new(5, 5, 5)));
        // A save of it reads back within the bound, whatever the file says.
        let over = (0..MAX_PENDING + 10).map(|i| (0, at(i)));
        let read = Pending::from_parts(3, over, Vec::new(), [(at(1), ChunkPos::new(0, 0, 0))]);
        // Ten due past the bound, and the waiting block (already due) not counted twice.
        assert_eq!((read.due_count(), read.dropped()), (MAX_PENDING, 10));
        assert_eq!(read.waiting().len(), 0);
    }

    #[test]
    fn a_clone_shares_its_maps_and_keeps_its_blocks_while_the_original_changes() {
        let mut p = Pending::default();
        for i in 0..100 {
            p.wake(BlockPos::new(i, 0, 0));
        }
        let snapshot = p.clone();
        p.take(10);
        p.wait(BlockPos::new(50, 0, 0), ChunkPos::new(1, 0, 0));
        assert_eq!(snapshot.due_count(), 100);
        assert!(!snapshot.is_running());
        assert_eq!(p.due_count(), 89);
        assert_eq!(p.running().len(), 10);
    }

    #[test]
    fn water_set_aside_where_nobody_is_leaves_room_and_is_taken_up_by_chunk() {
        let mut p = Pending::default();
        // A hundred places, each with a thousand blocks waiting for its chunk.
        for place in 0..100 {
            let c = ChunkPos::new(place * 10, 0, 0);
            for i in 0..1000 {
                p.wait(BlockPos::new(place * 320 + i % 32, i / 32, 0), c);
            }
        }
        assert_eq!(
            (p.waiting().len(), p.waiting_chunks().len()),
            (100_000, 100)
        );
        assert!(!p.full());
        assert!(p.wake(BlockPos::new(0, 100, 0)));
        // Taken up when its chunk is loaded, asking once a chunk.
        let asked = std::cell::Cell::new(0);
        let woken = p.resume(|c| {
            asked.set(asked.get() + 1);
            c.x == 0
        });
        assert_eq!((woken, asked.get()), (1000, 100));
        assert_eq!((p.waiting().len(), p.waiting_chunks().len()), (99_000, 99));
        assert_eq!(p.due_count(), 1001);
    }
}
