//! The player's edits of the active world: a sparse overlay laid over every chunk the
//! generator makes. World state only; reading and writing save files is the
//! persistence plugin's job.

use bevy::prelude::*;
use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos, ChunkPos};
use terravox_worldgen::WorldConfig;

/// The edits of the world being played.
#[derive(Resource, Debug)]
pub struct WorldEdits {
    world: WorldConfig,
    edits: Edits,
    /// Bumped by every change, never reset (also not by a world switch), so a saved
    /// revision identifies one state of one world's edits.
    revision: u64,
}

impl WorldEdits {
    /// No edits yet for `world`.
    pub(crate) fn new(world: WorldConfig) -> Self {
        Self {
            world,
            edits: Edits::new(),
            revision: 0,
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
        }
    }

    /// Takes another world's edits (loaded from its save).
    pub(crate) fn replace(&mut self, world: WorldConfig, edits: Edits) {
        self.world = world;
        self.edits = edits;
        self.revision += 1;
    }

    /// Forgets every edit; returns the chunks they touched (padding holders included).
    pub(crate) fn clear(&mut self) -> Vec<ChunkPos> {
        let touched = self.edits.touched_chunks().into_iter().collect();
        self.edits = Edits::new();
        self.revision += 1;
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
