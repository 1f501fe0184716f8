//! [`WorldBlocks`]: the one way systems read and change blocks of the loaded world.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use terravox_edits::fluid::{Cells, Pending, Waters};
use terravox_voxel::{Block, BlockPos, ChunkPos};
use thiserror::Error;

use super::Chunks;
use crate::world::{ActiveWorld, WorldEdits};

/// Why an edit was not made.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum EditRefused {
    /// The ray started inside a block: there is no face to place against.
    #[error("no face to place against")]
    NoFace,
    /// The block would overlap the player's body.
    #[error("that space is taken by you")]
    InsidePlayer,
    /// Something solid is already there.
    #[error("that space is not empty")]
    Occupied,
    /// The chunk is not loaded.
    #[error("that part of the world is not loaded")]
    NotLoaded,
    /// The world is a live draft of the panel, which keeps no edits.
    #[error("this is a draft of the world: Apply it to build")]
    Draft,
    /// Water is not broken: it is taken with the bucket.
    #[error("water is taken with the bucket, not broken")]
    Water,
    /// The bucket needs a source to take (flowing water is not one).
    #[error("the bucket takes only a source of water")]
    NoSource,
}

/// Reads blocks of the loaded world and changes them: a change updates every loaded
/// chunk that holds the block (its own and the neighbours whose padding it is),
/// schedules their remesh on worker tasks, records the edit in the overlay, so it
/// is saved and survives unloading, and wakes the water around it.
#[derive(SystemParam)]
pub struct WorldBlocks<'w> {
    chunks: ResMut<'w, Chunks>,
    edits: ResMut<'w, WorldEdits>,
    world: Res<'w, ActiveWorld>,
}

impl WorldBlocks<'_> {
    /// The block at `p`, if its chunk is loaded.
    pub fn block(&self, p: BlockPos) -> Option<Block> {
        self.chunks.block(p)
    }

    /// The loaded chunks.
    pub fn chunks(&self) -> &Chunks {
        &self.chunks
    }

    /// Sets the block at `p` and records the edit.
    pub fn set(&mut self, p: BlockPos, block: Block) -> Result<(), EditRefused> {
        if self.world.is_draft() {
            return Err(EditRefused::Draft);
        }
        if !self.chunks.set_block(p, block) {
            return Err(EditRefused::NotLoaded);
        }
        self.edits.record(p, block);
        self.edits.wake_around(p, &*self.chunks);
        Ok(())
    }

    /// What block `p` holds once broken: the water that runs into it at once, else
    /// air or cave air ([`terravox_edits::fluid::broken`]).
    pub(crate) fn broken(&self, p: BlockPos) -> Block {
        terravox_edits::fluid::broken(&*self.chunks, p)
    }

    /// Wakes the water waiting for chunks that are loaded now.
    pub(crate) fn resume_water(&mut self) {
        let chunks = &self.chunks;
        if self.edits.pending().waiting().len() > 0 {
            self.edits
                .pending_mut()
                .resume(|c: ChunkPos| chunks.is_loaded(c));
        }
    }

    /// How many water blocks are due to tick.
    pub(crate) fn water_due(&self) -> usize {
        self.edits.pending().due_count()
    }

    /// The water blocks that tick in the next step: the step under way when a save
    /// was read in the middle of one, else the next at most `most` due (none when
    /// nothing is due).
    pub(crate) fn take_water(&mut self, most: usize) -> Vec<BlockPos> {
        let pending = self.edits.pending();
        if !pending.running().is_empty() {
            return pending.running().to_vec();
        }
        if pending.due_count() == 0 {
            return Vec::new();
        }
        self.edits.pending_mut().take(most)
    }

    /// The edits' lineage (see [`WorldEdits::lineage`]).
    pub(crate) fn lineage(&self) -> u64 {
        self.edits.lineage()
    }
}

impl Cells for WorldBlocks<'_> {
    fn block(&self, p: BlockPos) -> Option<Block> {
        self.chunks.block(p)
    }
}

/// The water's steps lay their writes through here: the loaded chunks and the
/// overlay take them (the step wakes what they wake).
impl Waters for WorldBlocks<'_> {
    fn flow(&mut self, p: BlockPos, b: Block) {
        if self.chunks.set_block(p, b) {
            self.edits.record(p, b);
        }
    }

    fn pending(&mut self) -> &mut Pending {
        self.edits.pending_mut()
    }
}
