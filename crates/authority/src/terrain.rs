//! [`Terrain`]: loaded chunks made from a world's generator and its edits, for an
//! authority driven without a game (the server, which makes only the chunks around
//! its players and where water flows, and tests).

use std::collections::HashMap;
use std::sync::Arc;

use terravox_edits::Edits;
use terravox_edits::fluid::Cells;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};
use terravox_worldgen::Generator;

use crate::blocks::Blocks;

/// Loaded chunks, each as generated with the edits laid over it.
#[derive(Clone, Debug, Default)]
pub struct Terrain {
    chunks: HashMap<ChunkPos, Arc<Chunk>>,
}

impl Terrain {
    /// No chunks loaded.
    pub fn new() -> Self {
        Self::default()
    }

    /// Chunk `c` of the world `generator` makes, with `edits` laid over it: what a
    /// loaded chunk holds. A pure function of its arguments, for any thread.
    pub fn make(generator: &Generator, edits: &Edits, c: ChunkPos) -> Chunk {
        let mut chunk = generator.generate(c);
        edits.apply(c, &mut chunk);
        chunk
    }

    /// Loads chunk `c` (made by [`Terrain::make`]).
    pub fn insert(&mut self, c: ChunkPos, chunk: Chunk) {
        self.chunks.insert(c, Arc::new(chunk));
    }

    /// Unloads chunk `c`.
    pub fn remove(&mut self, c: ChunkPos) {
        self.chunks.remove(&c);
    }

    /// Whether chunk `c` is loaded.
    pub fn is_loaded(&self, c: ChunkPos) -> bool {
        self.chunks.contains_key(&c)
    }

    /// The loaded chunks, in no order.
    pub fn loaded(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        self.chunks.keys().copied()
    }

    /// How many chunks are loaded.
    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }
}

impl Cells for Terrain {
    fn block(&self, p: BlockPos) -> Option<Block> {
        let (c, l) = p.to_chunk();
        self.chunks.get(&c).map(|chunk| chunk.get(l[0], l[1], l[2]))
    }
}

impl Blocks for Terrain {
    fn set(&mut self, p: BlockPos, b: Block) -> bool {
        let own = p.to_chunk().0;
        let mut took = false;
        for (c, [x, y, z]) in p.holders() {
            if let Some(chunk) = self.chunks.get_mut(&c) {
                Arc::make_mut(chunk).set(x, y, z, b);
                took |= c == own;
            }
        }
        took
    }

    fn chunk(&self, c: ChunkPos) -> Option<&Arc<Chunk>> {
        self.chunks.get(&c)
    }
}
