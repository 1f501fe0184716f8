//! Caves (version 3) cut into a chunk: the carve field on the cave lattice (every
//! [`CAVE_STEP`] blocks, world-aligned, every other terrain lattice column) at the
//! corners of the cave cells the terrain does not leave all air, interpolated into
//! cave air and the shell of rock around it ([`DensityGen::carve`]), then dug out of
//! the chunk's blocks ([`DensityGen::dig`]).

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos, PADDED};

use super::flood::WaterTops;
use super::lattice::{Field, Lattice, MAX_COLUMNS, Sign, WIDE, cell_sign};
use super::{DensityGen, STEP_XZ, STEP_Y, lerp};
use crate::shape::climate::ColumnShape;
use crate::surface::caves::{self, Caves};

/// Cave lattice spacing, across and up: every other terrain lattice column, every
/// terrain level.
pub(super) const CAVE_STEP: i32 = 8;
/// Local x and z of the cave lattice's first point (world-aligned: chunks are 32
/// wide); its points run to local 36, the last lattice column whose shape a chunk
/// with caves knows.
pub(super) const CAVE_FIRST: i32 = -4;
/// Cave lattice points a side: local -4, 4, ..., 36.
const CAVE_POINTS: usize = 6;
/// Cave lattice levels: local -8, 0, ..., 40 (the terrain's).
const CAVE_LEVELS: usize = 7;
/// The corners of a cave cell, `(di, dk, dj)`, ordered like the terrain's.
const CORNERS: [(usize, usize, usize); 8] = [
    (0, 0, 0),
    (1, 0, 0),
    (0, 1, 0),
    (1, 1, 0),
    (0, 0, 1),
    (1, 0, 1),
    (0, 1, 1),
    (1, 1, 1),
];

/// The bits `0..k` of a column's mask set (none for `k <= 0`, all for `k >= 64`): bit
/// `ly + 1` holds local height `ly`, so `below_bits(level - origin + 1)` are the
/// heights under a world height `level`.
fn below_bits(k: i64) -> u64 {
    match k {
        ..=0 => 0,
        64.. => u64::MAX,
        k => (1u64 << k) - 1,
    }
}

/// The blocks caves carve out of a chunk, per padded column (`(lz + 1) * PADDED +
/// lx + 1`, bit `ly + 1` for local heights `-1..=CHUNK + 1`): cave air, and the rock
/// right next to a cave.
pub(super) struct Carved {
    /// Cave air.
    air: [u64; PADDED * PADDED],
    /// Rock next to a cave.
    shell: [u64; PADDED * PADDED],
}

impl DensityGen {
    /// Whether caves may open to the surface at column `(x, z)` or a cave cell away
    /// from it (see [`Caves::may_open_at`]): where they cannot, the surface fade
    /// keeps every cave closed under the ground.
    pub(crate) fn cave_mouth_near(&self, x: i32, z: i32) -> bool {
        let Some(caves) = &self.caves else {
            return false;
        };
        [
            (0, 0),
            (-CAVE_STEP, 0),
            (CAVE_STEP, 0),
            (0, -CAVE_STEP),
            (0, CAVE_STEP),
        ]
        .iter()
        .any(|&(dx, dz)| {
            caves.may_open_at(
                x.saturating_add(dx),
                z.saturating_add(dz),
                CAVE_STEP,
                CAVE_FIRST,
            )
        })
    }

    /// The lowest density the terrain can have at a lattice point (local `lx, ly,
    /// lz`) given its first octave: at most its depth below the surface, in blocks,
    /// and so a conservative depth for the caves' fades. `None` when it is at least
    /// `deep`. The first octave is the one the chunk summed first, when the point is
    /// on its lattice; one noise lookup otherwise.
    fn depth_at(
        &self,
        o: BlockPos,
        lat: &Lattice,
        shapes: &[ColumnShape],
        field: &Field,
        [lx, ly, lz]: [i32; 3],
        deep: f64,
    ) -> Option<f64> {
        let (i, k) = ((lx - lat.lx0) / STEP_XZ, (lz - lat.lx0) / STEP_XZ);
        let j = (ly - lat.ly0) / STEP_Y;
        let s = if shapes.len() == 1 {
            &shapes[0]
        } else {
            &shapes[k as usize * WIDE + i as usize]
        };
        let (x, y, z) = ((o.x + lx) as f64, (o.y + ly) as f64, (o.z + lz) as f64);
        let n = lat.nxz as i32;
        let first = match (i < n && k < n).then(|| ((j * n + k) * n + i) as usize) {
            Some(p) if field.done[p] > 0 => field.first[p],
            _ => self.fbm.octave3(0, x, y, z),
        };
        let n = self.fbm.finish(first - self.fbm.rest(1));
        Some(self.value(s, n, y)).filter(|&d| d < deep)
    }

    /// The cave air and the rock next to caves in the padded chunk (and one block
    /// above it): the carve values on the cave lattice (every [`CAVE_STEP`] blocks,
    /// world-aligned, every other lattice column of the terrain's) at the corners of
    /// every cave cell that is not all air, interpolated trilinearly. `None` when no
    /// cave comes near.
    pub(super) fn carve(
        &self,
        caves: &Caves,
        o: BlockPos,
        lat: &Lattice,
        field: &Field,
        shapes: &[ColumnShape],
        all_solid: bool,
    ) -> Option<Box<Carved>> {
        const N: usize = CAVE_POINTS;
        const NY: usize = CAVE_LEVELS;
        let point = |i: usize, k: usize, j: usize| (j * N + k) * N + i;
        let local = |i: usize| CAVE_FIRST + i as i32 * CAVE_STEP;
        let level = |j: usize| lat.ly0 + j as i32 * CAVE_STEP;
        // Whether the terrain cell with low corner (ti, tk, tj) is surely all air.
        let n = lat.nxz;
        let empty = |ti: usize, tk: usize, tj: usize| {
            !all_solid && ti + 1 < n && tk + 1 < n && tj + 1 < lat.ny && {
                let corners = CORNERS.map(|(di, dk, dj)| ((tj + dj) * n + tk + dk) * n + ti + di);
                cell_sign(&field.sign, corners) == Some(Sign::Empty)
            }
        };
        let deep = caves.deep();
        let mut carve = [f64::NAN; N * N * NY];
        let mut near = false;
        for cj in 0..NY - 1 {
            for ck in 0..N - 1 {
                for ci in 0..N - 1 {
                    // The cave cell covers two by two terrain cells of one level.
                    let (ti, tk) = (
                        (local(ci) - lat.lx0) as usize / 4,
                        (local(ck) - lat.lx0) as usize / 4,
                    );
                    let tj = (level(cj) - lat.ly0) as usize / STEP_Y as usize;
                    if (0..2).all(|a| (0..2).all(|b| empty(ti + a, tk + b, tj))) {
                        continue;
                    }
                    for (di, dk, dj) in CORNERS {
                        let p = point(ci + di, ck + dk, cj + dj);
                        if carve[p].is_nan() {
                            let l = [local(ci + di), level(cj + dj), local(ck + dk)];
                            let depth = self.depth_at(o, lat, shapes, field, l, deep);
                            let w = [o.x + l[0], o.y + l[1], o.z + l[2]].map(|v| v as f64);
                            carve[p] = caves.carve(w[0], w[1], w[2], depth);
                            near |= carve[p] > -caves::SHELL;
                        }
                    }
                }
            }
        }
        if !near {
            return None;
        }
        let mut out = Box::new(Carved {
            air: [0; PADDED * PADDED],
            shell: [0; PADDED * PADDED],
        });
        let frac = |l: i32, start: i32| (l - start) as f64 / CAVE_STEP as f64;
        for cj in 0..NY - 1 {
            let y0 = level(cj);
            let (ys, ye) = (y0.max(-1), (y0 + CAVE_STEP - 1).min(CHUNK + 1));
            if ys > ye {
                continue;
            }
            for ck in 0..N - 1 {
                for ci in 0..N - 1 {
                    let c = CORNERS.map(|(di, dk, dj)| carve[point(ci + di, ck + dk, cj + dj)]);
                    if c.iter().any(|v| v.is_nan()) || c.iter().all(|&v| v <= -caves::SHELL) {
                        continue;
                    }
                    let (x0, z0) = (local(ci), local(ck));
                    for lz in z0.max(-1)..=(z0 + CAVE_STEP - 1).min(CHUNK) {
                        for lx in x0.max(-1)..=(x0 + CAVE_STEP - 1).min(CHUNK) {
                            let (tx, tz) = (frac(lx, x0), frac(lz, z0));
                            let lo = lerp(lerp(c[0], c[1], tx), lerp(c[2], c[3], tx), tz);
                            let hi = lerp(lerp(c[4], c[5], tx), lerp(c[6], c[7], tx), tz);
                            let col = (lz + 1) as usize * PADDED + (lx + 1) as usize;
                            for ly in ys..=ye {
                                let v = lerp(lo, hi, frac(ly, y0));
                                if v > 0.0 {
                                    out.air[col] |= 1 << (ly + 1);
                                } else if v > -caves::SHELL {
                                    out.shell[col] |= 1 << (ly + 1);
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// Carves `carved` out of a chunk whose terrain solidity is `masks` (all solid
    /// when `None`): solid blocks with a positive carve value become cave air, unless
    /// water lies right above them (the sea's, or a river's or lake's in `water`), or
    /// they are the surface of a column where a tree may stand (`trunks`); stone right
    /// under cave air or next to it may turn into gravel, clay or ore.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dig(
        &self,
        caves: &Caves,
        chunk: Chunk,
        pos: ChunkPos,
        lat: &Lattice,
        masks: Option<&[u64; MAX_COLUMNS]>,
        trunks: Option<&[bool; PADDED * PADDED]>,
        carved: Option<&Carved>,
        water: Option<&WaterTops>,
    ) -> Chunk {
        let Some(carved) = carved else { return chunk };
        let r = lat.region;
        let o = pos.origin();
        let sea = self.surface.sea_level;
        // Terrain solidity of a padded column, bit `ly + 1`.
        let solid = |lx: i32, lz: i32| match masks {
            Some(m) => m[r.column(lx, lz)] >> (-1 - r.ylo) as u32,
            None => u64::MAX,
        };
        let uniform = match chunk {
            Chunk::Uniform(b) if !b.is_solid() => return chunk,
            Chunk::Uniform(b) => Some(b),
            Chunk::Dense(_) => None,
        };
        let mut blocks = match chunk {
            Chunk::Dense(b) => b,
            Chunk::Uniform(b) => terravox_voxel::dense_array(b),
        };
        let mut changed = false;
        for lz in -1..=CHUNK {
            for lx in -1..=CHUNK {
                let col = (lz + 1) as usize * PADDED + (lx + 1) as usize;
                let (air, shell) = (carved.air[col], carved.shell[col]);
                if air | shell == 0 {
                    continue;
                }
                let t = solid(lx, lz);
                // Water stands at or below this height in the column.
                let wet = water.map_or(sea, |w| w.tops[col].max(sea));
                // Cave air: solid and carved, with no water right above, and no tree.
                let mut cave = air & t;
                if trunks.is_some_and(|columns| columns[col]) {
                    cave &= t >> 1;
                }
                // Not under water: where the block above is open (bit `ly + 1` for
                // local height `ly`) below the water's level; nor beside a river or
                // lake, at or below its level.
                let beside = water.map_or(i32::MIN, |w| w.beside[col]);
                let open_above = !(t >> 1);
                let below = |level: i32| below_bits(level as i64 - o.y as i64 + 1);
                cave &= !(open_above & below(wet) | below(beside.saturating_add(1)));
                // Only the padded chunk's own heights (bits 0..=PADDED - 1).
                let own = (1u64 << PADDED) - 1;
                let mut bits = cave & own;
                while bits != 0 {
                    let ly = bits.trailing_zeros() as i32 - 1;
                    bits &= bits - 1;
                    blocks[terravox_voxel::padded_index(lx, ly, lz)] = Block::CaveAir;
                    changed = true;
                }
                // Rock under cave air or next to a cave.
                let mut bits = (shell | cave >> 1) & t & !cave & own;
                while bits != 0 {
                    let ly = bits.trailing_zeros() as i32 - 1;
                    bits &= bits - 1;
                    let bit = 1u64 << (ly + 1);
                    let i = terravox_voxel::padded_index(lx, ly, lz);
                    let floor = cave & (bit << 1) != 0;
                    let p = [o.x + lx, o.y + ly, o.z + lz];
                    let b = caves.decorate(blocks[i], p, floor, shell & bit != 0);
                    changed |= b != blocks[i];
                    blocks[i] = b;
                }
            }
        }
        match uniform {
            Some(b) if !changed => Chunk::Uniform(b),
            _ => Chunk::Dense(blocks),
        }
    }
}
