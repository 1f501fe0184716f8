//! [`Blocks`]: the loaded world an authority reads and changes.

use std::sync::Arc;

use terravox_edits::fluid::Cells;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};

/// The world of whoever drives an authority: the chunks it has loaded (the game's
/// streamed chunks, the server's [`crate::Terrain`], a test's hand-made land). Only
/// loaded chunks are read ([`Cells::block`] is `None` elsewhere) and changed.
pub trait Blocks: Cells {
    /// Sets the block at `p` in every loaded chunk holding it (its own and the
    /// neighbours whose padding holds it); whether its own chunk is loaded and took it.
    fn set(&mut self, p: BlockPos, b: Block) -> bool;

    /// The loaded chunk `c`, shared (a step of the water reads a picture of them).
    fn chunk(&self, c: ChunkPos) -> Option<&Arc<Chunk>>;
}
