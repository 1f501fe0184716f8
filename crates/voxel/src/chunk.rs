//! Chunk storage: a uniform chunk, or a dense padded `34^3` array.

use crate::block::Block;
use crate::coords::CHUNK;
use crate::hash::Fnv64;

/// Blocks along one side of a padded chunk (the chunk plus a one-block border).
pub const PADDED: usize = CHUNK as usize + 2;
/// Blocks in a padded chunk.
pub const PADDED_VOLUME: usize = PADDED * PADDED * PADDED;

/// The index of a padded local coordinate (each in `-1..=32`) in a dense array.
/// Layout: `x` fastest, then `z`, then `y`.
#[inline]
pub const fn padded_index(x: i32, y: i32, z: i32) -> usize {
    ((y + 1) as usize * PADDED + (z + 1) as usize) * PADDED + (x + 1) as usize
}

/// A chunk's blocks, including the one-block padding border.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// Every block (padding included) is this block.
    Uniform(Block),
    /// A padded `34^3` array, indexed by [`padded_index`].
    Dense(Box<[Block; PADDED_VOLUME]>),
}

impl Chunk {
    /// A dense chunk filled with `block`.
    pub fn dense_filled(block: Block) -> Self {
        Chunk::Dense(dense_array(block))
    }

    /// Builds a chunk from a function of padded local coordinates (`-1..=32`),
    /// collapsing it to [`Chunk::Uniform`] when every block is the same.
    pub fn from_fn(mut f: impl FnMut(i32, i32, i32) -> Block) -> Self {
        let mut blocks = dense_array(Block::Air);
        for y in -1..=CHUNK {
            for z in -1..=CHUNK {
                for x in -1..=CHUNK {
                    blocks[padded_index(x, y, z)] = f(x, y, z);
                }
            }
        }
        Chunk::Dense(blocks).compacted()
    }

    /// The block at a padded local coordinate (each in `-1..=32`).
    ///
    /// # Panics
    /// If a coordinate is outside `-1..=32`.
    #[inline]
    pub fn get(&self, x: i32, y: i32, z: i32) -> Block {
        match self {
            Chunk::Uniform(b) => *b,
            Chunk::Dense(blocks) => {
                assert!(
                    in_padded(x) && in_padded(y) && in_padded(z),
                    "local coordinate out of range"
                );
                blocks[padded_index(x, y, z)]
            }
        }
    }

    /// Sets the block at a padded local coordinate (each in `-1..=32`), turning a
    /// uniform chunk dense when the block differs.
    ///
    /// # Panics
    /// If a coordinate is outside `-1..=32`.
    pub fn set(&mut self, x: i32, y: i32, z: i32, block: Block) {
        assert!(
            in_padded(x) && in_padded(y) && in_padded(z),
            "local coordinate out of range"
        );
        if let Chunk::Uniform(b) = *self {
            if b == block {
                return;
            }
            *self = Chunk::dense_filled(b);
        }
        if let Chunk::Dense(blocks) = self {
            blocks[padded_index(x, y, z)] = block;
        }
    }

    /// The same chunk, collapsed to [`Chunk::Uniform`] if every block is equal.
    pub fn compacted(self) -> Self {
        match self {
            Chunk::Dense(ref blocks) => {
                let first = blocks[0];
                if blocks.iter().all(|&b| b == first) {
                    Chunk::Uniform(first)
                } else {
                    self
                }
            }
            uniform => uniform,
        }
    }

    /// The padded block array, if the chunk is dense.
    pub fn dense(&self) -> Option<&[Block; PADDED_VOLUME]> {
        match self {
            Chunk::Dense(blocks) => Some(blocks),
            Chunk::Uniform(_) => None,
        }
    }

    /// Whether every block is the same.
    pub fn is_uniform(&self) -> bool {
        matches!(self, Chunk::Uniform(_))
    }

    /// Feeds every block (padding included) into a stable 64-bit FNV-1a hash, for
    /// golden tests. A uniform chunk hashes like the dense chunk it stands for.
    pub fn content_hash(&self) -> u64 {
        let mut h = Fnv64::new();
        for y in -1..=CHUNK {
            for z in -1..=CHUNK {
                for x in -1..=CHUNK {
                    h.write_u8(self.get(x, y, z) as u8);
                }
            }
        }
        h.finish()
    }
}

/// A heap array of `PADDED_VOLUME` copies of `block`, allocated in place (no large
/// stack temporary).
pub fn dense_array(block: Block) -> Box<[Block; PADDED_VOLUME]> {
    vec![block; PADDED_VOLUME]
        .into_boxed_slice()
        .try_into()
        .expect("the vector has exactly PADDED_VOLUME blocks")
}

#[inline]
pub(crate) const fn in_padded(v: i32) -> bool {
    v >= -1 && v <= CHUNK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_chunks_compact_and_expand() {
        let c = Chunk::from_fn(|_, _, _| Block::Stone);
        assert_eq!(c, Chunk::Uniform(Block::Stone));
        let mut c = c;
        c.set(-1, 32, 0, Block::Air);
        assert_eq!(c.get(-1, 32, 0), Block::Air);
        assert_eq!(c.get(0, 0, 0), Block::Stone);
        assert!(!c.is_uniform());
        assert_eq!(
            Chunk::Uniform(Block::Sand).content_hash(),
            Chunk::dense_filled(Block::Sand).content_hash()
        );
    }
}
