//! The water blocks waiting to tick: woken by an edit or by a change beside them, in
//! the order they tick, and those waiting for a chunk to load.

use std::collections::{BTreeMap, BTreeSet};

use terravox_voxel::{BlockPos, ChunkPos};

use super::step::Cells;

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
    running: Vec<BlockPos>,
    /// `(step, block)`: due to tick at that step (or the first step after it that
    /// has room).
    due: BTreeSet<(u64, BlockPos)>,
    /// The step each due block is due at.
    at: BTreeMap<BlockPos, u64>,
    /// Blocks whose tick needs this chunk loaded.
    waiting: BTreeMap<BlockPos, ChunkPos>,
}

impl Pending {
    /// The next step being number `next`, the blocks `due` (with their steps), those
    /// of the step under way (`running`) and those `waiting` (with the chunk each
    /// waits for): what a save holds.
    pub fn from_parts(
        next: u64,
        due: impl IntoIterator<Item = (u64, BlockPos)>,
        running: Vec<BlockPos>,
        waiting: impl IntoIterator<Item = (BlockPos, ChunkPos)>,
    ) -> Self {
        let mut p = Self {
            next,
            running,
            ..Self::default()
        };
        for (step, pos) in due {
            if p.at.insert(pos, step).is_none() {
                p.due.insert((step, pos));
            }
        }
        p.waiting = waiting
            .into_iter()
            .filter(|(pos, _)| !p.at.contains_key(pos))
            .collect();
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
    pub fn running(&self) -> &[BlockPos] {
        &self.running
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

    /// Wakes the block at `p` for the next step (a block already due or waiting
    /// stays where it is; one under way ticks again).
    pub fn wake(&mut self, p: BlockPos) {
        if self.waiting.contains_key(&p) || self.at.contains_key(&p) {
            return;
        }
        self.at.insert(p, self.next);
        self.due.insert((self.next, p));
    }

    /// Wakes the water among the block at `p` and its six neighbours, after `p`
    /// changed: what Minecraft schedules when a block changes beside water. Blocks
    /// of chunks that are not loaded are woken too (they wait for their chunk).
    pub fn wake_around(&mut self, p: BlockPos, cells: &(impl Cells + ?Sized)) {
        for q in Self::woken_by(p, cells) {
            self.wake(q);
        }
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
            let Some((_, p)) = self.due.pop_first() else {
                break;
            };
            self.at.remove(&p);
            out.push(p);
        }
        self.next += 1;
        self.running.clone_from(&out);
        out
    }

    /// The step under way was laid into the world.
    pub fn finish(&mut self) {
        self.running.clear();
    }

    /// Puts `p` aside until chunk `c` is loaded.
    pub fn wait(&mut self, p: BlockPos, c: ChunkPos) {
        if let Some(step) = self.at.remove(&p) {
            self.due.remove(&(step, p));
        }
        self.waiting.insert(p, c);
    }

    /// Wakes the waiting blocks whose chunk `loaded` says is loaded now; returns how
    /// many.
    pub fn resume(&mut self, loaded: impl Fn(ChunkPos) -> bool) -> usize {
        let ready: Vec<BlockPos> = self
            .waiting
            .iter()
            .filter(|(_, c)| loaded(**c))
            .map(|(p, _)| *p)
            .collect();
        for p in &ready {
            self.waiting.remove(p);
            self.wake(*p);
        }
        ready.len()
    }
}
