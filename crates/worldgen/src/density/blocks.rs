//! The padded chunk's blocks from the lattice's verdicts: the biome looks and tints
//! of its columns ([`DensityGen::looks`]), its blocks layer by layer from the
//! solidity bits by each column's look, then its trees ([`DensityGen::finish`]).

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos, ColumnTints, PADDED, PADDED_VOLUME};

use super::column::{BIOME_FIRST, Columns};
use super::lattice::WIDE;
use super::lattice::{Lattice, MAX_COLUMNS, PLAIN};
use super::{DensityGen, STEP_XZ, TOP};
use crate::nature::planting::Tree;
use crate::surface::biome::{self, Biome, Kind};
use crate::surface::face::Face;

/// Biome looks ([`Kind`]s).
const LOOKS: usize = 2 * Biome::ALL.len();
/// The faces, in the order of their discriminants.
const FACES: [Face; 3] = [Face::Soil, Face::Rock, Face::Scree];

/// All `TOP + 2` solidity bits set.
const FULL: u64 = (1 << (TOP + 2)) - 1;

/// The biome looks of a chunk's columns and its trees.
pub(super) struct Looks {
    /// The look of every padded column, `(lz + 1) * PADDED + lx + 1`.
    kinds: Box<[Kind; PADDED * PADDED]>,
    /// The tints of the padded columns.
    tints: Box<ColumnTints>,
    /// The face of every padded column (version 4, with relief), as `kinds`.
    faces: Option<Box<[Face; PADDED * PADDED]>>,
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
            self.trees_in(*nature, o, lat, &kinds, cols)
        } else {
            (Box::new([false; MAX_COLUMNS]), Vec::new())
        };
        let faces =
            (self.relief.is_some() && Face::possible(&cols.shapes, WIDE, STEP_XZ)).then(|| {
                Box::new(std::array::from_fn(|c| {
                    let (lx, lz) = ((c % PADDED) as i32 - 1, (c / PADDED) as i32 - 1);
                    self.face(cols.corners(lat, lx, lz), o.x + lx, o.z + lz)
                }))
            });
        Some(Looks {
            kinds,
            tints,
            faces,
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
        let looked = Some((&*looks.kinds, looks.faces.as_deref()));
        let mut chunk = self.blocks_from_masks(pos, lat, masks, looked);
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
    /// layer, with each column's biome look (and face, with relief) when there are
    /// biomes.
    fn blocks_from_masks(
        &self,
        pos: ChunkPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        looks: Option<(&[Kind; PADDED * PADDED], Option<&[Face; PADDED * PADDED]>)>,
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
        // Each column's look: its kind, and its face's rules on top (`LOOKS` apart).
        let looks: Option<Box<[u8; PADDED * PADDED]>> = looks.map(|(kinds, faces)| {
            Box::new(std::array::from_fn(|c| {
                kinds[c] + faces.map_or(0, |f| f[c] as u8 * LOOKS as u8)
            }))
        });
        let mut present = [false; 3 * LOOKS];
        for &l in looks.iter().flat_map(|l| l.iter()) {
            present[l as usize] = true;
        }
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
        let mut luts = [[Block::Air; 32]; 3 * LOOKS];
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
                match &looks {
                    None => {
                        let lut = lut(&|depth| self.surface.solid_block(y, depth));
                        blocks.extend(cols.iter().map(|&m| lut[(m >> shift) as usize & 31]));
                    }
                    Some(looks) => {
                        for l in (0..luts.len()).filter(|&l| present[l]) {
                            let (kind, face) = ((l % LOOKS) as Kind, FACES[l / LOOKS]);
                            let biome = |depth| self.surface.biome_block(y, depth, kind);
                            luts[l] = match face {
                                Face::Soil => lut(&biome),
                                face => lut(&|depth| {
                                    self.surface
                                        .face_block(y, depth, face)
                                        .unwrap_or_else(|| biome(depth))
                                }),
                            };
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
