//! Surface rules shared by both generators: the block of a solid by its height and
//! depth below the surface (snow, gravel, sand, grass, dirt, stone), water at or below
//! sea level, and chunks holding no solid at all.

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};

use crate::biome::{self, Kind};

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

    /// The block of a solid at height `y` with `depth` solid blocks above it, in a
    /// column of look `kind` (version 2): the biome's top, patches and filler, its
    /// shore and sea floor, snow above the snow line.
    #[inline]
    pub fn biome_block(self, y: i32, depth: i32, kind: Kind) -> Block {
        let sea = self.sea_level;
        let looks = biome::biome_of(kind).looks();
        match depth {
            0 if y >= self.snow_line => Block::Snow,
            0 if y < sea - 6 => looks.floor,
            0 if y <= sea + 1 => looks.shore,
            0 => biome::top_of(kind),
            1..=3 if y + depth <= sea + 1 => looks.shore,
            1..=3 => looks.filler,
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
            // Water up to sea level, air above, a layer at a time.
            let mut blocks = terravox_voxel::dense_array(Block::Air);
            let layer = terravox_voxel::PADDED * terravox_voxel::PADDED;
            for (ly, slab) in blocks.chunks_mut(layer).enumerate() {
                slab.fill(self.fluid_block(oy + ly as i32 - 1));
            }
            Chunk::Dense(blocks)
        }
    }
}
