//! [`WorldBlocks`]: the one way systems read and change blocks of the loaded world.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use terravox_voxel::{Block, BlockPos};
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
}

/// Reads blocks of the loaded world and changes them: a change updates every loaded
/// chunk that holds the block (its own and the neighbours whose padding it is),
/// schedules their remesh on worker tasks and records the edit in the overlay, so it
/// is saved and survives unloading.
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
        Ok(())
    }
}
