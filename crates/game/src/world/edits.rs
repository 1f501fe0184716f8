//! The player's edits of the active world: a sparse overlay laid over every chunk the
//! generator makes. World state only; reading and writing save files is the
//! persistence plugin's job.

use std::collections::BTreeSet;

use bevy::prelude::*;
use terravox_edits::Edits;
use terravox_edits::fluid::{Cells, Pending};
use terravox_voxel::{Block, BlockPos, ChunkPos};
use terravox_worldgen::WorldConfig;

/// The edits of the world being played, with the water they woke.
#[derive(Resource, Debug)]
pub struct WorldEdits {
    world: WorldConfig,
    edits: Edits,
    /// Bumped by every change, never reset (also not by a world switch), so a saved
    /// revision identifies one state of one world's edits.
    revision: u64,
    /// Bumped when the edits are replaced or cleared: water stepped from the edits
    /// before belongs to other edits.
    lineage: u64,
    /// What changed since the horizon last asked ([`WorldEdits::take_changed`]).
    changed: Changed,
}

/// Where the edits changed since the horizon last asked: so it can make the coarse
/// chunks that hold them again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Changed {
    /// Nothing.
    #[default]
    Nothing,
    /// The blocks of these chunks.
    Chunks(BTreeSet<ChunkPos>),
    /// Anything: the edits were replaced whole.
    Everything,
}

impl WorldEdits {
    /// No edits yet for `world`.
    pub(crate) fn new(world: WorldConfig) -> Self {
        Self {
            world,
            edits: Edits::new(),
            revision: 0,
            lineage: 0,
            changed: Changed::Nothing,
        }
    }

    /// Which edits these are: bumped when they are replaced or cleared.
    pub(crate) fn lineage(&self) -> u64 {
        self.lineage
    }

    /// The water waiting to tick.
    pub fn pending(&self) -> &Pending {
        self.edits.pending()
    }

    /// The water waiting to tick, to change (a change to save).
    pub(crate) fn pending_mut(&mut self) -> &mut Pending {
        self.revision += 1;
        self.edits.pending_mut()
    }

    /// Wakes the water around `p`, which just changed.
    pub(crate) fn wake_around(&mut self, p: BlockPos, cells: &(impl Cells + ?Sized)) {
        let before = self.edits.pending().due_count();
        self.edits.pending_mut().wake_around(p, cells);
        if self.edits.pending().due_count() != before {
            self.revision += 1;
        }
    }

    /// The world these edits belong to.
    pub fn world(&self) -> &WorldConfig {
        &self.world
    }

    /// The edited blocks.
    pub fn edits(&self) -> &Edits {
        &self.edits
    }

    /// The revision of the edits: it changes with every change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Records an edit (after the loaded chunks took it).
    pub(crate) fn record(&mut self, pos: BlockPos, block: Block) {
        if self.edits.set(pos, block) {
            self.revision += 1;
            self.changed_in([pos.to_chunk().0]);
        }
    }

    /// Notes that the blocks of `chunks` changed.
    fn changed_in(&mut self, chunks: impl IntoIterator<Item = ChunkPos>) {
        match &mut self.changed {
            Changed::Everything => {}
            Changed::Chunks(set) => set.extend(chunks),
            Changed::Nothing => self.changed = Changed::Chunks(chunks.into_iter().collect()),
        }
    }

    /// Whether the edits changed since [`WorldEdits::take_changed`] was last called.
    pub(crate) fn has_changed(&self) -> bool {
        self.changed != Changed::Nothing
    }

    /// Where the edits changed since this was last called.
    pub(crate) fn take_changed(&mut self) -> Changed {
        std::mem::take(&mut self.changed)
    }

    /// Takes another world's edits (loaded from its save).
    pub(crate) fn replace(&mut self, world: WorldConfig, edits: Edits) {
        let any = !(self.edits.is_empty() && edits.is_empty());
        self.world = world;
        self.edits = edits;
        self.revision += 1;
        self.lineage += 1;
        if any {
            self.changed = Changed::Everything;
        }
    }

    /// Forgets every edit; returns the chunks they touched (padding holders included).
    pub(crate) fn clear(&mut self) -> Vec<ChunkPos> {
        let touched: Vec<ChunkPos> = self.edits.touched_chunks().into_iter().collect();
        self.edits = Edits::new();
        self.revision += 1;
        self.lineage += 1;
        self.changed_in(touched.iter().copied());
        touched
    }
}

/// Asks to discard the active world's edits and delete its save (the panel has
/// confirmed it).
#[derive(Message, Clone, Copy, Debug)]
pub struct DiscardEdits;

/// Asks streaming to generate these loaded chunks again (their edits were discarded).
#[derive(Message, Clone, Debug)]
pub(crate) struct ReloadChunks(pub Vec<ChunkPos>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changes_are_noted_until_taken() {
        let mut e = WorldEdits::new(WorldConfig::default());
        assert!(!e.has_changed());
        e.record(BlockPos::new(40, 5, -1), Block::Brick);
        e.record(BlockPos::new(41, 6, -2), Block::Brick);
        e.record(BlockPos::new(-1, 0, 0), Block::Air);
        let chunks = [ChunkPos::new(1, 0, -1), ChunkPos::new(-1, 0, 0)];
        assert_eq!(
            e.take_changed(),
            Changed::Chunks(chunks.into_iter().collect())
        );
        assert_eq!(e.take_changed(), Changed::Nothing);
        // Setting a block to what it already is changes nothing.
        e.record(BlockPos::new(40, 5, -1), Block::Brick);
        assert!(!e.has_changed());
        // Discarding the edits changes every chunk they touched.
        let touched = e.clear();
        assert_eq!(
            e.take_changed(),
            Changed::Chunks(touched.into_iter().collect())
        );
        // Taking the edits of a save changes everything, unless neither had any.
        e.replace(WorldConfig::default(), Edits::new());
        assert!(!e.has_changed());
        let mut saved = Edits::new();
        saved.set(BlockPos::new(0, 0, 0), Block::Brick);
        e.replace(WorldConfig::default(), saved);
        assert_eq!(e.take_changed(), Changed::Everything);
    }
}
