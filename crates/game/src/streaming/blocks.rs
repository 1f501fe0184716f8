//! [`WorldBlocks`]: the one way systems read and change blocks of the loaded world.

use std::sync::Arc;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use terravox_authority::{Action, Blocks, PlayerId, Refusal};
use terravox_edits::fluid::Cells;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};

use super::Chunks;
use crate::world::{ActiveWorld, WorldAuthority};

/// Reads blocks of the loaded world and changes them through the world's authority:
/// a change updates every loaded chunk that holds the block (its own and the
/// neighbours whose padding it is), schedules their remesh on worker tasks, records
/// the edit in the overlay, so it is saved and survives unloading, and wakes the
/// water around it.
#[derive(SystemParam)]
pub struct WorldBlocks<'w> {
    chunks: ResMut<'w, Chunks>,
    authority: ResMut<'w, WorldAuthority>,
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

    /// The world's authority.
    pub fn authority(&self) -> &WorldAuthority {
        &self.authority
    }

    /// The world's authority, to place a player's body or set the clock.
    pub fn authority_mut(&mut self) -> &mut WorldAuthority {
        &mut self.authority
    }

    /// Player `id` asks for `action`: the authority decides and makes it (see
    /// `terravox_authority::rules`).
    pub fn act(&mut self, id: PlayerId, action: Action) -> Result<(BlockPos, Block), Refusal> {
        self.authority.act(id, action, &mut *self.chunks)
    }

    /// Sets the block at `p` and records the edit, waking the water around it: a
    /// change no player's rules decide (the bench's lake, a test's land).
    pub fn set(&mut self, p: BlockPos, block: Block) -> Result<(), Refusal> {
        if self.world.is_draft() {
            return Err(Refusal::Draft);
        }
        if !self.authority.set_block(p, block, &mut *self.chunks) {
            return Err(Refusal::NotLoaded);
        }
        Ok(())
    }

    /// Lays the block at `p` still, waking nothing (see `Authority::lay`).
    pub fn lay(&mut self, p: BlockPos, block: Block) {
        self.authority.lay(p, block, &mut *self.chunks);
    }

    /// The world's authority and the loaded chunks it reads and changes, apart.
    pub(crate) fn split(&mut self) -> (&mut WorldAuthority, &mut Chunks) {
        (&mut self.authority, &mut self.chunks)
    }
}

impl Cells for WorldBlocks<'_> {
    fn block(&self, p: BlockPos) -> Option<Block> {
        self.chunks.block(p)
    }
}

/// The authority reads and changes the loaded chunks: a change updates every chunk
/// holding the block and queues its remesh.
impl Blocks for Chunks {
    fn set(&mut self, p: BlockPos, b: Block) -> bool {
        self.set_block(p, b)
    }

    fn chunk(&self, c: ChunkPos) -> Option<&Arc<Chunk>> {
        self.blocks(c)
    }
}
