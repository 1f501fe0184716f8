//! Trees in a density chunk: the trees whose blocks may reach it, decided on the tree
//! grid by the looks of their trunk columns ([`DensityGen::trees_in`]), and the soil
//! of their trunk columns, from the chunk's own solidity where its region holds the
//! column and from the lattice extended to the column where it does not
//! ([`DensityGen::plant`]). Both go through [`crate::nature::planting`], as every
//! generator's trees do.

use terravox_voxel::{BlockPos, CHUNK, Chunk, PADDED};

use super::column::{BIOME_FIRST, Columns};
use super::lattice::{LEVELS, LOWEST_SOIL, Lattice, MAX_COLUMNS, REACH_HI, WIDE};
use super::{DensityGen, STEP_XZ, STEP_Y, frac, lerp};
use crate::nature::planting::{self, Tree, TreeGrid};
use crate::shape::climate::ColumnShape;
use crate::surface::biome::{self, Kind};

impl DensityGen {
    /// The trees of `grid` whose trunks stand in the region's columns or beyond its
    /// high sides (up to [`REACH_HI`]), by the looks of their columns (`kinds` in the
    /// padded chunk, from the biome grid `biomes` beyond it), and the region's columns
    /// where they stand.
    pub(super) fn trees_in(
        &self,
        grid: TreeGrid,
        o: BlockPos,
        lat: &Lattice,
        kinds: &[Kind; PADDED * PADDED],
        cols: &Columns,
    ) -> (Box<[bool; MAX_COLUMNS]>, Vec<Tree>) {
        let r = lat.region;
        let mut needed = Box::new([false; MAX_COLUMNS]);
        let area = [o.x + r.lo, o.z + r.lo, o.x + REACH_HI, o.z + REACH_HI];
        let biomes = cols.biomes.as_ref().map_or(&[][..], |b| &b[..]);
        let mut trees = grid.trees(area, |t| {
            let (lx, lz) = (t.x - o.x, t.z - o.z);
            let padded = (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz);
            Some(if padded {
                kinds[(lz + 1) as usize * PADDED + (lx + 1) as usize]
            } else {
                biome::lattice_kind(grid.seed, [o.x, o.z], BIOME_FIRST, biomes, lx, lz)
            })
        });
        // The trees the biomes grow, then those the ground and the caves allow (the
        // dearer test, on fewer trunks).
        trees.retain(|t| {
            let (lx, lz) = (t.trunk.x - o.x, t.trunk.z - o.z);
            self.keeps_tree(cols.corners(lat, lx, lz), &t.trunk)
        });
        for t in &trees {
            let (lx, lz) = (t.trunk.x - o.x, t.trunk.z - o.z);
            if lx <= r.hi && lz <= r.hi {
                needed[r.column(lx, lz)] = true;
            }
        }
        (needed, trees)
    }

    /// Plants `trees` into the chunk ([`planting::plant`]) on every soil block of
    /// their trunk columns with air above it. A column's solidity comes from `masks`
    /// inside the region, is computed for columns beyond it, and below it only where
    /// the region's lowest block is air and the species grows tall enough to reach
    /// the chunk from there.
    pub(super) fn plant(
        &self,
        chunk: &mut Chunk,
        o: BlockPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        shapes: &[ColumnShape; WIDE * WIDE],
        trees: &[Tree],
    ) {
        let r = lat.region;
        let mut cache = [[None; LEVELS]; WIDE * WIDE];
        planting::plant(chunk, o, self.surface, trees, |t| {
            let (lx, lz) = (t.trunk.x - o.x, t.trunk.z - o.z);
            // Solidity from LOWEST_SOIL up (bit 0).
            let m = if lx <= r.hi && lz <= r.hi {
                let below = (r.ylo - LOWEST_SOIL) as u32;
                let m = masks[r.column(lx, lz)] << below;
                if m >> below & 1 == 0 && r.ylo - 1 + t.species.tallest() >= -1 {
                    m | self.column_bits(o, lat, shapes, lx, lz, r.ylo - 1, &mut cache)
                } else {
                    m
                }
            } else {
                self.column_bits(o, lat, shapes, lx, lz, CHUNK, &mut cache)
            };
            // Soil with air right above, at most at local 31.
            (LOWEST_SOIL..CHUNK)
                .filter(move |&ly| m >> (ly - LOWEST_SOIL) & 0b11 == 0b01)
                .map(move |ly| o.y + ly)
        });
    }

    /// The solidity of block column `(lx, lz)` (local) from [`LOWEST_SOIL`] up to
    /// local `to` (bit 0 is `LOWEST_SOIL`), as the chunk's lattice extended to it
    /// would give it: the four lattice corners' values at the levels that matter
    /// (fully evaluated, and kept in `cache`), interpolated exactly as
    /// [`DensityGen::masks`] does. Level pairs wholly above or below every corner's
    /// possible surface need no noise.
    #[allow(clippy::too_many_arguments)]
    fn column_bits(
        &self,
        o: BlockPos,
        lat: &Lattice,
        shapes: &[ColumnShape; WIDE * WIDE],
        lx: i32,
        lz: i32,
        to: i32,
        cache: &mut [[Option<f64>; LEVELS]; WIDE * WIDE],
    ) -> u64 {
        let cell = |l: i32| {
            let c = (l - lat.lx0).div_euclid(STEP_XZ) as usize;
            (c, c + 1)
        };
        let ((i, i1), (k, k1)) = (cell(lx), cell(lz));
        let corners = [(i, k), (i1, k), (i, k1), (i1, k1)];
        let (highest, lowest) = ColumnShape::bounds(
            corners.iter().map(|&(ci, ck)| &shapes[ck * WIDE + ci]),
            self.cfg.threshold,
        );
        let base = LOWEST_SOIL.div_euclid(STEP_Y) * STEP_Y;
        let mut level = |q: usize| {
            let v = corners.map(|(ci, ck)| {
                *cache[ck * WIDE + ci][q].get_or_insert_with(|| {
                    let (x, z) = (
                        (o.x + lat.lx0 + ci as i32 * STEP_XZ) as f64,
                        (o.z + lat.lx0 + ck as i32 * STEP_XZ) as f64,
                    );
                    let y = (o.y + base + q as i32 * STEP_Y) as f64;
                    self.value(&shapes[ck * WIDE + ci], self.fbm.get3(x, y, z), y)
                })
            });
            let (tx, tz) = (frac(lx, STEP_XZ), frac(lz, STEP_XZ));
            lerp(lerp(v[0], v[1], tx), lerp(v[2], v[3], tx), tz)
        };
        let mut bits = 0;
        let mut pair: Option<(usize, f64, f64)> = None;
        for ly in LOWEST_SOIL..=to {
            let q = (ly - base).div_euclid(STEP_Y) as usize;
            let (y0, y1) = (
                (o.y + base + q as i32 * STEP_Y) as f64,
                (o.y + base + (q as i32 + 1) * STEP_Y) as f64,
            );
            let solid = if y0 >= highest {
                false
            } else if y1 < lowest {
                true
            } else {
                let (lo, hi) = match pair {
                    Some((p, lo, hi)) if p == q => (lo, hi),
                    _ => {
                        let v = (level(q), level(q + 1));
                        pair = Some((q, v.0, v.1));
                        v
                    }
                };
                lerp(lo, hi, frac(ly, STEP_Y)) > 0.0
            };
            if solid {
                bits |= 1 << (ly - LOWEST_SOIL);
            }
        }
        bits
    }
}

/// The padded columns (`(lz + 1) * PADDED + lx + 1`) where the trunk of a tree stands.
pub(super) fn trunk_columns(trees: &[Tree], o: BlockPos) -> Box<[bool; PADDED * PADDED]> {
    let mut columns = Box::new([false; PADDED * PADDED]);
    for t in trees {
        let (lx, lz) = (t.trunk.x - o.x, t.trunk.z - o.z);
        if (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz) {
            columns[(lz + 1) as usize * PADDED + (lx + 1) as usize] = true;
        }
    }
    columns
}
