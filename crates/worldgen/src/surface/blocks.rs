//! Surface rules shared by both generators: the block of a solid by its height and
//! depth below the surface (snow, gravel, sand, grass, dirt, stone) or by its biome's
//! look, water at or below sea level, and chunks holding no solid at all; and
//! (version 4, with relief) the blocks of a [`Face`] other than soil: stone with beds
//! of slate on rock faces, gravel in gullies.

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};

use crate::surface::biome::{self, Kind};
use crate::surface::face::Face;

/// Rock faces are slate in the strata a hash of the height picks: this many out of
/// 256, so beds of uneven thickness and spacing run through every face.
const SLATE_SHARE: u64 = 80;

/// Whether height `y` lies in a bed of slate: three-block layers, each slate when a
/// hash of it says so, so beds of 3, 6 or more blocks lie at uneven spacing.
fn slate_bed(y: i32) -> bool {
    let layer = y.div_euclid(3) as u32 as u64;
    crate::mix::mix64(layer ^ 0x51a7_e000) & 0xff < SLATE_SHARE
}

/// The block rules of a world's surface: which block a solid or a fluid is at a height.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surface {
    pub sea_level: i32,
    pub snow_line: i32,
}

impl Surface {
    /// The block of a solid at height `y` with `depth` solid blocks above it.
    #[inline]
    pub(crate) fn solid_block(self, y: i32, depth: i32) -> Block {
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
    pub(crate) fn biome_block(self, y: i32, depth: i32, kind: Kind) -> Block {
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

    /// The block of a solid at height `y` with `depth` solid blocks above it on a
    /// `face` other than soil, where the face decides it: `None` leaves it to the
    /// biome's rules (soil, shores, the sea floor, and below the filler).
    #[inline]
    pub(crate) fn face_block(self, y: i32, depth: i32, face: Face) -> Option<Block> {
        match (face, depth) {
            (Face::Soil, _) | (_, 4..) => None,
            (Face::Rock, _) if slate_bed(y) => Some(Block::Slate),
            (Face::Rock, _) => Some(Block::Stone),
            (Face::Scree, _) if y <= self.sea_level + 1 => None,
            (Face::Scree, 0) if y >= self.snow_line => Some(Block::Snow),
            (Face::Scree, 0..=1) => Some(Block::Gravel),
            (Face::Scree, _) => None,
        }
    }

    /// The block of a non-solid at height `y`.
    #[inline]
    pub(crate) fn fluid_block(self, y: i32) -> Block {
        if y <= self.sea_level {
            Block::Water
        } else {
            Block::Air
        }
    }

    /// A chunk holding no solid block.
    pub(crate) fn fluid_chunk(self, pos: ChunkPos) -> Chunk {
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
