//! The 3D density generator ("Cliffs").
//!
//! `density = (n + cliff) * scale + offset - y`, `cliff = (n * 0.5 + 0.5) * cliff_scale`,
//! solid where `density > threshold`, with `n` an fBm in `[-1, 1]`.
//!
//! Speed comes from three things, none of which breaks seams or determinism:
//! - the field is evaluated on a coarse lattice fixed in **world** space (every
//!   [`STEP_XZ`] blocks across, [`STEP_Y`] up) and interpolated trilinearly, so every
//!   block's value depends only on its world position;
//! - since `|n| <= 1` the density is bounded at each height: chunks wholly above the
//!   highest possible surface are air, wholly below the lowest are stone, with no noise;
//! - a lattice segment whose two ends share a sign is filled without per-block work
//!   (linear interpolation between same-signed values keeps that sign).

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, PADDED, PADDED_VOLUME};

use crate::config::DensityConfig;
use crate::fbm::Fbm;
use crate::surface::Surface;

/// Lattice spacing across (x and z), in blocks.
pub const STEP_XZ: i32 = 4;
/// Lattice spacing up (y), in blocks.
pub const STEP_Y: i32 = 8;
/// Blocks above the padded chunk looked at to find the surface depth.
const LOOKAHEAD: i32 = 4;
/// Lattice points across a chunk (padding included).
const NXZ: usize = ((CHUNK + 2 * STEP_XZ) / STEP_XZ) as usize; // 10
/// Lattice levels up a chunk (padding and look-ahead included).
const NY: usize = ((TOP + STEP_Y - 1) / STEP_Y + 2) as usize; // 7
/// Local `y` of the highest block whose solidity is computed.
const TOP: i32 = CHUNK + LOOKAHEAD;

/// Interpolation `a + (b - a) * t`. With finite values it is exactly `a` when
/// `t == 0`, which is what lets a chunk's padding equal its neighbour's blocks bit for
/// bit, and it is monotonic in `t`.
#[inline]
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// The interpolation fraction of a local coordinate (`-1..`) inside its lattice cell.
const fn frac(local: i32, step: i32) -> f64 {
    ((local + step) % step) as f64 / step as f64
}

/// [`frac`] across (x and z) for local `-1..=32`, indexed by `local + 1`.
const FRAC_XZ: [f64; PADDED] = {
    let mut t = [0.0; PADDED];
    let mut i = 0;
    while i < PADDED {
        t[i] = frac(i as i32 - 1, STEP_XZ);
        i += 1;
    }
    t
};

/// [`frac`] up for local `-1..=TOP`, indexed by `local + 1`.
const FRAC_Y: [f64; (TOP + 2) as usize] = {
    let mut t = [0.0; (TOP + 2) as usize];
    let mut i = 0;
    while i < t.len() {
        t[i] = frac(i as i32 - 1, STEP_Y);
        i += 1;
    }
    t
};

/// The density generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct DensityGen {
    fbm: Fbm,
    cfg: DensityConfig,
    pub surface: Surface,
    /// At or above this height every block is air.
    air_from: f64,
    /// Below this height every block is solid.
    solid_below: f64,
}

impl DensityGen {
    pub fn new(cfg: &DensityConfig, seed: u64, sea_level: i32) -> Self {
        let n = &cfg.noise;
        let fbm = Fbm::new(
            n.kind,
            seed,
            0,
            n.frequency,
            n.octaves,
            n.persistence,
            n.lacunarity,
        );
        // (n + cliff) ranges over [-1, 1 + cliff_scale]; one block of margin covers rounding.
        let air_from = cfg.scale * (1.0 + cfg.cliff_scale) + cfg.offset - cfg.threshold + 1.0;
        let solid_below = -cfg.scale + cfg.offset - cfg.threshold - 1.0;
        Self {
            fbm,
            cfg: cfg.clone(),
            surface: Surface {
                sea_level,
                snow_line: cfg.snow_line,
            },
            air_from,
            solid_below,
        }
    }

    /// `density - threshold` straight from the formula at one point.
    #[inline]
    fn field(&self, x: f64, y: f64, z: f64) -> f64 {
        let c = &self.cfg;
        let n = self.fbm.get3(x, y, z);
        let cliff = (n * 0.5 + 0.5) * c.cliff_scale;
        (n + cliff) * c.scale + c.offset - y - c.threshold
    }

    /// The field at a lattice point (lattice coordinates; in `f64`, so lattice points
    /// next to the ends of the `i32` range do not overflow).
    #[inline]
    fn lattice(&self, lx: i32, ly: i32, lz: i32) -> f64 {
        self.field(
            lx as f64 * STEP_XZ as f64,
            ly as f64 * STEP_Y as f64,
            lz as f64 * STEP_XZ as f64,
        )
    }

    /// Whether a chunk (with its padding and look-ahead) is provably air or stone.
    fn trivial(&self, pos: ChunkPos) -> Option<Chunk> {
        let oy = pos.y * CHUNK;
        if (oy - 1) as f64 >= self.air_from {
            Some(self.surface.fluid_chunk(pos))
        } else if ((oy + TOP) as f64) < self.solid_below {
            Some(Chunk::Uniform(Block::Stone))
        } else {
            None
        }
    }

    /// `density - threshold` for a noise value `n` at height `y`.
    #[inline]
    fn value(&self, n: f64, y: f64) -> f64 {
        let c = &self.cfg;
        let cliff = (n * 0.5 + 0.5) * c.cliff_scale;
        (n + cliff) * c.scale + c.offset - y - c.threshold
    }

    /// One chunk, with padding.
    ///
    /// Lattice points are evaluated octave by octave. After each octave the partial
    /// sum bounds the final value; a lattice cell whose eight corners are all provably
    /// solid (or all provably not) is decided, and a point stops as soon as every cell
    /// it belongs to is decided. Cells the surface really crosses get exact corner
    /// values and are interpolated block by block. The result equals interpolating
    /// fully evaluated corners everywhere, bit for bit.
    pub fn generate(&self, pos: ChunkPos) -> Chunk {
        if let Some(c) = self.trivial(pos) {
            return c;
        }
        let o = pos.origin();
        let (x0, y0, z0) = (o.x / STEP_XZ - 1, o.y / STEP_Y - 1, o.z / STEP_XZ - 1);
        // World coordinates of every lattice point, `[j][k][i]`.
        let world: [(f64, f64, f64); NP] = std::array::from_fn(|p| {
            let (i, k, j) = (p % NXZ, (p / NXZ) % NXZ, p / (NXZ * NXZ));
            (
                ((x0 + i as i32) * STEP_XZ) as f64,
                ((y0 + j as i32) * STEP_Y) as f64,
                ((z0 + k as i32) * STEP_XZ) as f64,
            )
        });

        let octaves = self.fbm.octaves();
        // Per lattice level: the octave sum at which the density crosses the threshold
        // (`value` is increasing in `n`, and `n = sum / amplitude_sum`).
        let c = &self.cfg;
        let amp = self.fbm.rest(0);
        let slope = c.scale * (1.0 + 0.5 * c.cliff_scale);
        let root = |j: usize| {
            let y = ((y0 + j as i32) * STEP_Y) as f64;
            (y + c.threshold - c.offset - 0.5 * c.cliff_scale * c.scale) / slope * amp
        };
        let roots: [f64; NY] = std::array::from_fn(root);
        let eps = 1e-6 * amp;

        let mut sums = [0.0f64; NP];
        let mut values = [0.0f64; NP];
        let mut sign = [Sign::Unknown; NP];
        let mut active = [true; NP];
        let mut decided = [false; CXZ * CXZ * CY];
        for m in 0..octaves {
            let last = m + 1 == octaves;
            let rest = self.fbm.rest(m + 1);
            for p in (0..NP).filter(|&p| active[p]) {
                let (x, y, z) = world[p];
                sums[p] += self.fbm.octave3(m, x, y, z);
                let r = roots[p / (NXZ * NXZ)];
                sign[p] = if last {
                    values[p] = self.value(self.fbm.finish(sums[p]), y);
                    if values[p] > 0.0 {
                        Sign::Solid
                    } else {
                        Sign::Empty
                    }
                } else if sums[p] - rest > r + eps {
                    Sign::Solid
                } else if sums[p] + rest < r - eps {
                    Sign::Empty
                } else {
                    Sign::Unknown
                };
            }
            if last {
                break;
            }
            active = [false; NP];
            let mut any = false;
            let mut n = 0;
            for_each_cell(|corners, _, _, _| {
                if !decided[n] {
                    if cell_sign(&sign, corners).is_some() {
                        decided[n] = true;
                    } else {
                        for c in corners {
                            active[c] = true;
                        }
                        any = true;
                    }
                }
                n += 1;
            });
            if !any {
                break;
            }
        }

        let mut masks = [0u64; PADDED * PADDED];
        for_each_cell(|corners, ci, ck, j| {
            let (ys, ye) = span(j, STEP_Y, TOP);
            let bits = ((1u64 << (ye - ys + 1)) - 1) << (ys + 1);
            let decided = cell_sign(&sign, corners);
            if decided == Some(Sign::Empty) {
                return;
            }
            for lz in span(ck, STEP_XZ, CHUNK).0..=span(ck, STEP_XZ, CHUNK).1 {
                for lx in span(ci, STEP_XZ, CHUNK).0..=span(ci, STEP_XZ, CHUNK).1 {
                    let mask = &mut masks[column_index(lx, lz)];
                    match decided {
                        Some(Sign::Solid) => *mask |= bits,
                        Some(_) => {}
                        None => {
                            let c = corners.map(|n| values[n]);
                            let (tx, tz) = (FRAC_XZ[(lx + 1) as usize], FRAC_XZ[(lz + 1) as usize]);
                            let lo = lerp(lerp(c[0], c[1], tx), lerp(c[2], c[3], tx), tz);
                            let hi = lerp(lerp(c[4], c[5], tx), lerp(c[6], c[7], tx), tz);
                            if lo > 0.0 && hi > 0.0 {
                                *mask |= bits;
                            } else if lo > 0.0 {
                                // `lerp` is monotonic in t: the solid blocks are a
                                // run from the bottom of the segment...
                                for ly in ys..=ye {
                                    if lerp(lo, hi, FRAC_Y[(ly + 1) as usize]) <= 0.0 {
                                        break;
                                    }
                                    *mask |= 1 << (ly + 1);
                                }
                            } else if hi > 0.0 {
                                // ...or a run from the top.
                                for ly in (ys..=ye).rev() {
                                    if lerp(lo, hi, FRAC_Y[(ly + 1) as usize]) <= 0.0 {
                                        break;
                                    }
                                    *mask |= 1 << (ly + 1);
                                }
                            }
                        }
                    }
                }
            }
        });
        self.blocks_from_masks(pos, &masks)
    }

    /// Turns per-column solidity bits (bit `ly + 1` for `ly` in `-1..=TOP`, columns by
    /// [`column_index`]) into blocks, layer by layer.
    fn blocks_from_masks(&self, pos: ChunkPos, masks: &[u64; PADDED * PADDED]) -> Chunk {
        let (all, any) = masks
            .iter()
            .fold((u64::MAX, 0), |(a, o), &m| (a & m, o | m));
        if any == 0 {
            return self.surface.fluid_chunk(pos);
        }
        if all & FULL == FULL {
            return Chunk::Uniform(Block::Stone);
        }
        let oy = pos.y * CHUNK;
        // Every layer is written once, in order: no pre-filled array.
        let mut blocks: Vec<Block> = Vec::with_capacity(PADDED_VOLUME);
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
                let lut: [Block; 32] = std::array::from_fn(|bits| {
                    if bits & 1 == 0 {
                        fluid
                    } else {
                        let depth = ((!bits >> 1) | 16).trailing_zeros() as i32;
                        self.surface.solid_block(y, depth)
                    }
                });
                blocks.extend(masks.iter().map(|&m| lut[(m >> shift) as usize & 31]));
            }
        }
        let blocks: Box<[Block; PADDED_VOLUME]> = blocks
            .into_boxed_slice()
            .try_into()
            .expect("PADDED_VOLUME blocks were written");
        Chunk::Dense(blocks)
    }

    /// The bilinear field value of column `(x, z)` at lattice level `ly`.
    fn column_levels(&self, x: i32, z: i32, ly: i32) -> f64 {
        let (xi, tx) = (
            x.div_euclid(STEP_XZ),
            x.rem_euclid(STEP_XZ) as f64 / STEP_XZ as f64,
        );
        let (zi, tz) = (
            z.div_euclid(STEP_XZ),
            z.rem_euclid(STEP_XZ) as f64 / STEP_XZ as f64,
        );
        let row = |zz: i32| lerp(self.lattice(xi, ly, zz), self.lattice(xi + 1, ly, zz), tx);
        lerp(row(zi), row(zi + 1), tz)
    }

    /// The highest solid block of a column and its block type.
    /// The most noise octaves [`DensityGen::column_top`] evaluates: four lattice
    /// columns at every level between the highest and lowest possible surface.
    pub fn column_cost(&self) -> usize {
        let levels = ((self.air_from - self.solid_below) / STEP_Y as f64).ceil() as usize + 2;
        levels * 4 * self.fbm.octaves()
    }

    pub fn column_top(&self, x: i32, z: i32) -> (i32, Block) {
        let top = self.air_from.ceil() as i32;
        let mut ly = top.div_euclid(STEP_Y) + 1;
        let mut upper = self.column_levels(x, z, ly);
        loop {
            let lower = self.column_levels(x, z, ly - 1);
            for step in (0..STEP_Y).rev() {
                let y = (ly - 1) * STEP_Y + step;
                let t = step as f64 / STEP_Y as f64;
                if lerp(lower, upper, t) > 0.0 {
                    return (y, self.surface.solid_block(y, 0));
                }
            }
            if (((ly - 1) * STEP_Y) as f64) < self.solid_below {
                // Unreachable by the bound, but never loop forever.
                return ((ly - 1) * STEP_Y, Block::Stone);
            }
            upper = lower;
            ly -= 1;
        }
    }

    /// The same chunk by evaluating the formula at every block, with no lattice and no
    /// early-outs: the yardstick for benchmarks and for checking the interpolation.
    pub fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        let o = pos.origin();
        let mut masks = [0u64; PADDED * PADDED];
        for lz in -1..=CHUNK {
            for lx in -1..=CHUNK {
                for ly in -1..=TOP {
                    if self.field((o.x + lx) as f64, (o.y + ly) as f64, (o.z + lz) as f64) > 0.0 {
                        masks[column_index(lx, lz)] |= 1 << (ly + 1);
                    }
                }
            }
        }
        self.blocks_from_masks(pos, &masks)
    }
}

/// What is known of the field's sign at a lattice point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Solid,
    Empty,
    Unknown,
}

/// Lattice points in a chunk.
const NP: usize = NY * NXZ * NXZ;
/// Lattice cells across (the last one is the one-block plane at local 32).
const CXZ: usize = NXZ;
/// Lattice cells up.
const CY: usize = NY - 1;

/// Index of column `(lx, lz)` (padded local coordinates) in a layer.
#[inline]
const fn column_index(lx: i32, lz: i32) -> usize {
    (lz + 1) as usize * PADDED + (lx + 1) as usize
}

/// The local coordinates (inclusive) covered by cell `c` on an axis, clipped to
/// `-1..=last`.
#[inline]
fn span(c: usize, step: i32, last: i32) -> (i32, i32) {
    let start = (c as i32 - 1) * step;
    (start.max(-1), (start + step - 1).min(last))
}

/// Calls `f(corners, ci, ck, j)` for every lattice cell touching the padded chunk;
/// `corners` are point indices ordered `[j][k][i]`. The cells at local 32 across are
/// planes: their "far" corners repeat the near ones (their fraction there is 0).
fn for_each_cell(mut f: impl FnMut([usize; 8], usize, usize, usize)) {
    let idx = |i: usize, k: usize, j: usize| (j * NXZ + k) * NXZ + i;
    for j in 0..CY {
        for ck in 0..CXZ {
            let k1 = (ck + 1).min(NXZ - 1);
            for ci in 0..CXZ {
                let i1 = (ci + 1).min(NXZ - 1);
                let corners = [
                    idx(ci, ck, j),
                    idx(i1, ck, j),
                    idx(ci, k1, j),
                    idx(i1, k1, j),
                    idx(ci, ck, j + 1),
                    idx(i1, ck, j + 1),
                    idx(ci, k1, j + 1),
                    idx(i1, k1, j + 1),
                ];
                f(corners, ci, ck, j);
            }
        }
    }
}

/// The sign shared by all of a cell's corners, if they are known and agree.
#[inline]
fn cell_sign(sign: &[Sign; NP], corners: [usize; 8]) -> Option<Sign> {
    let first = sign[corners[0]];
    (first != Sign::Unknown && corners.iter().all(|&c| sign[c] == first)).then_some(first)
}

/// All `TOP + 2` solidity bits set.
const FULL: u64 = (1 << (TOP + 2)) - 1;

const _: () = assert!(PADDED == 34 && NXZ == 10 && NY == 7);
