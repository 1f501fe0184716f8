//! The padded chunk's blocks from the lattice's verdicts: the biome looks and tints
//! of its columns ([`DensityGen::looks`]), its blocks layer by layer from the
//! solidity bits by each column's look, then its trees ([`DensityGen::finish`]).

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos, ColumnTints, PADDED, PADDED_VOLUME};

use super::column::{BIOME_FIRST, Columns};
use super::lattice::{Lattice, MAX_COLUMNS, PLAIN};
use super::{DensityGen, TOP};
use crate::biome::{self, Biome, Kind};
use crate::trees::planting::Tree;

/// All `TOP + 2` solidity bits set.
const FULL: u64 = (1 << (TOP + 2)) - 1;

/// The biome looks of a chunk's columns and its trees.
pub(super) struct Looks {
    /// The look of every padded column, `(lz + 1) * PADDED + lx + 1`.
    kinds: Box<[Kind; PADDED * PADDED]>,
    /// The tints of the padded columns.
    tints: Box<ColumnTints>,
    /// The region's columns where a tree's trunk stands.
    pub(super) needed: Box<[bool; MAX_COLUMNS]>,
    /// Those trees, and those on the region's high sides whose blocks may reach the
    /// chunk.
    pub(super) trees: Vec<Tree>,
}

impl DensityGen {
    /// The looks of the padded columns, their tints, and the trees whose trunks stand
    /// in the region (with nature).
    pub(super) fn looks(&self, o: BlockPos, lat: &Lattice, cols: &Columns) -> Option<Looks> {
        let (nature, biomes) = (self.nature.as_ref()?, cols.biomes.as_ref()?);
        let mut kinds = Box::new([0; PADDED * PADDED]);
        let tints = biome::columns(
            nature.seed,
            [o.x, o.z],
            (-1, CHUNK),
            BIOME_FIRST,
            biomes,
            &mut kinds[..],
        );
        let (needed, trees) = if nature.grows() {
            self.trees_in(*nature, o, lat, &kinds, biomes)
        } else {
            (Box::new([false; MAX_COLUMNS]), Vec::new())
        };
        Some(Looks {
            kinds,
            tints,
            needed,
            trees,
        })
    }

    /// Blocks, biomes and trees from the solidity of a chunk's region.
    pub(super) fn finish(
        &self,
        pos: ChunkPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        cols: Option<&Columns>,
        looks: Option<Looks>,
    ) -> (Chunk, Option<Box<ColumnTints>>) {
        let (Some(looks), Some(cols)) = (looks, cols) else {
            return (self.blocks_from_masks(pos, lat, masks, None), None);
        };
        let mut chunk = self.blocks_from_masks(pos, lat, masks, Some(&looks.kinds));
        self.plant(
            &mut chunk,
            pos.origin(),
            lat,
            masks,
            &cols.shapes,
            &looks.trees,
        );
        (chunk, Some(looks.tints))
    }

    /// Turns the region's solidity bits into the padded chunk's blocks, layer by
    /// layer, with each column's biome look when there are biomes.
    fn blocks_from_masks(
        &self,
        pos: ChunkPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        kinds: Option<&[Kind; PADDED * PADDED]>,
    ) -> Chunk {
        let r = lat.region;
        // The padded columns, shifted so bit 0 is local -1 (the plain region's masks
        // already are); their looks.
        let mut copy = [0u64; PADDED * PADDED];
        let cols: &[u64] = if r == PLAIN {
            &masks[..PADDED * PADDED]
        } else {
            let shift0 = (-1 - r.ylo) as u32;
            for lz in -1..=CHUNK {
                for lx in -1..=CHUNK {
                    copy[(lz + 1) as usize * PADDED + (lx + 1) as usize] =
                        masks[r.column(lx, lz)] >> shift0;
                }
            }
            &copy
        };
        let present = kinds.map_or(0u32, |k| k.iter().fold(0, |p, &k| p | 1 << k));
        let (all, any) = cols.iter().fold((u64::MAX, 0), |(a, o), &m| (a & m, o | m));
        if any == 0 {
            return self.surface.fluid_chunk(pos);
        }
        if all & FULL == FULL {
            return Chunk::Uniform(Block::Stone);
        }
        let oy = pos.y * CHUNK;
        // Every layer is written once, in order: no pre-filled array.
        let mut blocks: Vec<Block> = Vec::with_capacity(PADDED_VOLUME);
        let mut luts = [[Block::Air; 32]; 2 * Biome::ALL.len()];
        for ly in -1..=CHUNK {
            let (y, shift) = (oy + ly, ly + 1);
            let fluid = self.surface.fluid_block(y);
            if any >> shift & 1 == 0 {
                blocks.resize(blocks.len() + PADDED * PADDED, fluid);
            } else if all >> shift & 0b11111 == 0b11111 {
                blocks.resize(blocks.len() + PADDED * PADDED, Block::Stone);
            } else {
                // The block for each pattern of this block and the four above it
                // (bit 0: solid here; bits 1..=4: solid above).
                let lut = |solid: &dyn Fn(i32) -> Block| -> [Block; 32] {
                    std::array::from_fn(|bits| {
                        if bits & 1 == 0 {
                            fluid
                        } else {
                            solid(((!bits >> 1) | 16).trailing_zeros() as i32)
                        }
                    })
                };
                match kinds {
                    None => {
                        let lut = lut(&|depth| self.surface.solid_block(y, depth));
                        blocks.extend(cols.iter().map(|&m| lut[(m >> shift) as usize & 31]));
                    }
                    Some(looks) => {
                        for k in (0..luts.len()).filter(|k| present >> k & 1 == 1) {
                            luts[k] = lut(&|depth| self.surface.biome_block(y, depth, k as Kind));
                        }
                        blocks.extend(
                            cols.iter()
                                .zip(looks.iter())
                                .map(|(&m, &k)| luts[k as usize][(m >> shift) as usize & 31]),
                        );
                    }
                }
            }
        }
        let blocks: Box<[Block; PADDED_VOLUME]> = blocks
            .into_boxed_slice()
            .try_into()
            .expect("PADDED_VOLUME blocks were written");
        Chunk::Dense(blocks)
    }
}
