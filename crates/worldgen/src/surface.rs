//! Surface rules shared by both generators: the block of a solid by its height and
//! depth below the surface (snow, gravel, sand, grass, dirt, stone), water at or below
//! sea level, and chunks holding no solid at all.

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};

/// The block rules of a world's surface: which block a solid or a fluid is at a height.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surface {
    pub sea_level: i32,
    pub snow_line: i32,
}

impl Surface {
    /// The block of a solid at height `y` with `depth` solid blocks above it.
    #[inline]
    pub fn solid_block(self, y: i32, depth: i32) -> Block {
        let sea = self.sea_level;
        match depth {
            0 if y >= self.snow_line => Block::Snow,
            0 if y < sea - 6 => Block::Gravel,
            0 if y <= sea + 1 => Block::Sand,
            0 => Block::Grass,
            1..=3 if y + depth <= sea + 1 => Block::Sand,
            1..=3 => Block::Dirt,
            _ => Block::Stone,
        }
    }

    /// The block of a non-solid at height `y`.
    #[inline]
    pub fn fluid_block(self, y: i32) -> Block {
        if y <= self.sea_level {
            Block::Water
        } else {
            Block::Air
        }
    }

    /// A chunk holding no solid block.
    pub fn fluid_chunk(self, pos: ChunkPos) -> Chunk {
        let oy = pos.y * CHUNK;
        if oy + CHUNK <= self.sea_level {
            Chunk::Uniform(Block::Water)
        } else if oy - 1 > self.sea_level {
            Chunk::Uniform(Block::Air)
        } else {
            Chunk::from_fn(|_, y, _| self.fluid_block(oy + y))
        }
    }
}
