//! The lattice a chunk evaluates the field on, every [`STEP_XZ`] blocks across and
//! [`STEP_Y`] up, fixed in world space: the block columns and heights a chunk computes
//! ([`Region`]: the padded chunk, or wider for trees), the lattice points covering
//! them ([`Lattice`]), what is known of the field at each point ([`Field`]), and the
//! evaluation octave by octave that turns them into per-column solidity bits
//! ([`DensityGen::masks_for`]).

use terravox_voxel::{BlockPos, CHUNK, PADDED};

use super::{DensityGen, STEP_XZ, STEP_Y, TOP, frac, lerp};
use crate::nature::trees::{CROWN, TALLEST};
use crate::shape::climate::ColumnShape;

/// a chunk computes, in local coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Region {
    /// The lowest local column, on x and z.
    pub(super) lo: i32,
    /// The highest local column, on x and z.
    pub(super) hi: i32,
    /// The lowest local height.
    pub(super) ylo: i32,
}

/// The padded chunk (and the look-ahead above it for the surface depth).
pub(super) const PLAIN: Region = Region {
    lo: -1,
    hi: CHUNK,
    ylo: -1,
};
/// The padded chunk plus the columns on its low sides where the trunks of trees
/// reaching into it stand (they lie in the lattice cells the chunk evaluates anyway),
/// from the lowest height the chunk's lattice covers anyway. Trunks on the high
/// sides (up to [`REACH_HI`]) and soil further down (from [`LOWEST_SOIL`]) are
/// looked up for the trunks that need it ([`DensityGen::column_bits`]).
pub(super) const TREED: Region = Region {
    lo: -1 - CROWN,
    hi: CHUNK,
    ylo: -STEP_Y,
};

/// The highest local column of a trunk of a tree reaching into the padded chunk.
pub(super) const REACH_HI: i32 = CHUNK + CROWN;

/// The lowest local height of the soil of a tree reaching into the padded chunk.
pub(super) const LOWEST_SOIL: i32 = -1 - TALLEST;

impl Region {
    /// Block columns across.
    const fn width(self) -> usize {
        (self.hi - self.lo + 1) as usize
    }

    /// Index of block column `(lx, lz)`.
    #[inline]
    pub(super) const fn column(self, lx: i32, lz: i32) -> usize {
        (lz - self.lo) as usize * self.width() + (lx - self.lo) as usize
    }
}

/// The lattice points covering local `lo..=hi` at `step`: the first point's local
/// coordinate and how many points.
const fn axis(lo: i32, hi: i32, step: i32) -> (i32, usize) {
    let first = lo.div_euclid(step);
    let last = hi.div_euclid(step) + (hi.rem_euclid(step) != 0) as i32;
    (first * step, (last - first + 1) as usize)
}

/// Block columns a side of the widest region.
const MAX_W: usize = TREED.width();
/// Block columns of the widest region.
pub(super) const MAX_COLUMNS: usize = MAX_W * MAX_W;
/// Lattice points a side of the widest region.
const MAX_NXZ: usize = axis(TREED.lo, TREED.hi, STEP_XZ).1;
/// Lattice columns a side whose shapes a chunk knows: one more than it evaluates,
/// for the trunks beyond its high sides.
pub(super) const WIDE: usize = axis(TREED.lo, REACH_HI, STEP_XZ).1;
/// Lattice levels a trunk's column may need, from below [`LOWEST_SOIL`] up.
pub(super) const LEVELS: usize = axis(LOWEST_SOIL, TOP, STEP_Y).1;
/// Lattice levels of the widest region.
const MAX_NY: usize = axis(TREED.ylo, TOP, STEP_Y).1;
/// Lattice points of the widest region.
const MAX_NP: usize = MAX_NXZ * MAX_NXZ * MAX_NY;
/// Lattice cells of the widest region (at most one a point).
const MAX_CELLS: usize = MAX_NXZ * MAX_NXZ * MAX_NY;

/// [`frac`] across for local `TREED.lo..=TREED.hi`, indexed by `local - TREED.lo`.
const FRAC_XZ: [f64; MAX_W] = {
    let mut t = [0.0; MAX_W];
    let mut i = 0;
    while i < MAX_W {
        t[i] = frac(i as i32 + TREED.lo, STEP_XZ);
        i += 1;
    }
    t
};

/// Block heights of the widest region.
const NY_BLOCKS: usize = (TOP - TREED.ylo + 1) as usize;
/// [`frac`] up for local `TREED.ylo..=TOP`, indexed by `local - TREED.ylo`.
const FRAC_Y: [f64; NY_BLOCKS] = {
    let mut t = [0.0; NY_BLOCKS];
    let mut i = 0;
    while i < NY_BLOCKS {
        t[i] = frac(i as i32 + TREED.ylo, STEP_Y);
        i += 1;
    }
    t
};

/// [`frac`] across of local `local`, from the table.
#[inline]
fn frac_xz(local: i32) -> f64 {
    FRAC_XZ[(local - TREED.lo) as usize]
}

/// [`frac`] up of local `local`, from the table.
#[inline]
fn frac_y(local: i32) -> f64 {
    FRAC_Y[(local - TREED.ylo) as usize]
}

/// A chunk's lattice: which points, where.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lattice {
    /// The block columns and heights it covers.
    pub(super) region: Region,
    /// Points across.
    pub(super) nxz: usize,
    /// Points up.
    pub(super) ny: usize,
    /// Local coordinate of the first point across.
    pub(super) lx0: i32,
    /// Local coordinate of the first point up.
    pub(super) ly0: i32,
}

impl Lattice {
    /// The lattice covering `region`.
    pub(super) fn new(region: Region) -> Self {
        let (lx0, nxz) = axis(region.lo, region.hi, STEP_XZ);
        let (ly0, ny) = axis(region.ylo, TOP, STEP_Y);
        Self {
            region,
            nxz,
            ny,
            lx0,
            ly0,
        }
    }

    /// Points in all.
    fn points(&self) -> usize {
        self.nxz * self.nxz * self.ny
    }

    /// The local coordinates (inclusive) covered by cell `c` across, clipped to the
    /// region; `None` when it covers none.
    #[inline]
    fn span_xz(&self, c: usize) -> Option<(i32, i32)> {
        let start = self.lx0 + c as i32 * STEP_XZ;
        let (a, b) = (
            start.max(self.region.lo),
            (start + STEP_XZ - 1).min(self.region.hi),
        );
        (a <= b).then_some((a, b))
    }

    /// The heights (inclusive) covered by cell `j` up.
    #[inline]
    fn span_y(&self, j: usize) -> (i32, i32) {
        let start = self.ly0 + j as i32 * STEP_Y;
        (start.max(self.region.ylo), (start + STEP_Y - 1).min(TOP))
    }

    /// Calls `f(corners, x span, z span, j)` for every lattice cell touching the
    /// region; `corners` are point indices ordered `[j][k][i]`, spans are the local
    /// coordinates the cell covers. Cells at the far edge across may be planes whose
    /// "far" corners repeat the near ones (their fraction is 0). Inlined, so that in
    /// [`DensityGen::masks_for`]'s copies the lattice's sizes stay constants.
    #[inline]
    fn for_each_cell(&self, mut f: impl FnMut([usize; 8], (i32, i32), (i32, i32), usize)) {
        let n = self.nxz;
        let idx = |i: usize, k: usize, j: usize| (j * n + k) * n + i;
        let mut cells = [(0, (0, 0)); MAX_NXZ];
        let mut count = 0;
        for c in 0..n {
            if let Some(span) = self.span_xz(c) {
                cells[count] = (c, span);
                count += 1;
            }
        }
        let cells = &cells[..count];
        for j in 0..self.ny - 1 {
            for &(ck, zspan) in cells {
                let k1 = (ck + 1).min(n - 1);
                for &(ci, xspan) in cells {
                    let i1 = (ci + 1).min(n - 1);
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
                    f(corners, xspan, zspan, j);
                }
            }
        }
    }
}

/// What a chunk's evaluation knows of the field at its lattice points, `[j][k][i]`:
/// where they are, the octaves summed so far (and the first alone), the exact value
/// where all were summed, and the sign where it is known.
pub(super) struct Field {
    /// World positions.
    world: [(f64, f64, f64); MAX_NP],
    /// The octaves summed so far.
    sums: [f64; MAX_NP],
    /// The first octave alone.
    pub(super) first: [f64; MAX_NP],
    /// How many octaves were summed.
    pub(super) done: [u8; MAX_NP],
    /// The exact values, where every octave was summed.
    values: [f64; MAX_NP],
    /// The signs, where known.
    pub(super) sign: [Sign; MAX_NP],
}

impl Field {
    /// Nothing evaluated yet at the points of `lat`, whose signs are `sign`.
    pub(super) fn new(o: BlockPos, lat: &Lattice, sign: Sign) -> Self {
        let n = lat.nxz;
        let mut world = [(0.0, 0.0, 0.0); MAX_NP];
        for (p, w) in world.iter_mut().enumerate().take(lat.points()) {
            let (i, k, j) = ((p % n) as i32, ((p / n) % n) as i32, (p / (n * n)) as i32);
            *w = (
                (o.x + lat.lx0 + i * STEP_XZ) as f64,
                (o.y + lat.ly0 + j * STEP_Y) as f64,
                (o.z + lat.lx0 + k * STEP_XZ) as f64,
            );
        }
        Self {
            world,
            sums: [0.0; MAX_NP],
            first: [0.0; MAX_NP],
            done: [0; MAX_NP],
            values: [0.0; MAX_NP],
            sign: [sign; MAX_NP],
        }
    }
}

/// What is known of the field's sign at a lattice point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sign {
    /// Surely solid.
    Solid,
    /// Surely not solid.
    Empty,
    /// Not known yet.
    Unknown,
}

/// The sign a point's density surely has when its octaves summed so far make `sum`
/// and the rest can add at most `rest` either way, `root` being the sum at which it
/// crosses the threshold (`eps` of slack for rounding).
#[inline]
fn bounded_sign(sum: f64, rest: f64, root: f64, eps: f64) -> Sign {
    if sum - rest > root + eps {
        Sign::Solid
    } else if sum + rest < root - eps {
        Sign::Empty
    } else {
        Sign::Unknown
    }
}

/// The sign shared by all of a cell's corners, if they are known and agree.
#[inline]
pub(super) fn cell_sign(sign: &[Sign; MAX_NP], corners: [usize; 8]) -> Option<Sign> {
    let first = sign[corners[0]];
    (first != Sign::Unknown && corners.iter().all(|&c| sign[c] == first)).then_some(first)
}

impl DensityGen {
    /// [`DensityGen::masks`] for the chunk's region and shape, each combination
    /// compiled on its own so the lattice's sizes are constants.
    pub(super) fn masks_for(
        &self,
        region: Region,
        shapes: &[ColumnShape],
        needed: Option<&[bool; MAX_COLUMNS]>,
        field: &mut Field,
    ) -> [u64; MAX_COLUMNS] {
        const P: (i32, i32, i32) = (PLAIN.lo, PLAIN.hi, PLAIN.ylo);
        const T: (i32, i32, i32) = (TREED.lo, TREED.hi, TREED.ylo);
        let shaped = self.cfg.shape.is_some();
        let f = field;
        match ((region.lo, region.hi, region.ylo), shaped) {
            (P, false) => self.masks::<{ P.0 }, { P.1 }, { P.2 }, false>(shapes, None, f),
            (P, true) => self.masks::<{ P.0 }, { P.1 }, { P.2 }, true>(shapes, None, f),
            (T, false) => self.masks::<{ T.0 }, { T.1 }, { T.2 }, false>(shapes, needed, f),
            _ => self.masks::<{ T.0 }, { T.1 }, { T.2 }, true>(shapes, needed, f),
        }
    }

    /// The solidity of every block of the region `LO..=HI` (columns) by `YLO..=TOP`:
    /// per column (see [`Region::column`]) bit `ly - YLO`; of the columns outside the
    /// padded chunk, only the `needed` ones (all when `None`). Without a shape every
    /// lattice column has the same parameters (`shapes[0]`).
    ///
    /// Over 150 lines, and left so on purpose: it is the generator's hot loop (most of
    /// a chunk's time), its state (the lattice's samples, signs and column bits) kept
    /// in locals the compiler holds in registers across the passes, with the sizes
    /// constants of each instance; split into functions, that state would be passed
    /// and re-borrowed through every call (the `generate` benchmark is the judge).
    fn masks<const LO: i32, const HI: i32, const YLO: i32, const SHAPED: bool>(
        &self,
        shapes: &[ColumnShape],
        needed: Option<&[bool; MAX_COLUMNS]>,
        field: &mut Field,
    ) -> [u64; MAX_COLUMNS] {
        let lat = &Lattice::new(Region {
            lo: LO,
            hi: HI,
            ylo: YLO,
        });
        let shape = |p: usize| {
            if SHAPED {
                &shapes[p / lat.nxz % lat.nxz * WIDE + p % lat.nxz]
            } else {
                &shapes[0]
            }
        };
        let np = lat.points();
        let Field {
            world,
            sums,
            first,
            done,
            values,
            sign,
        } = field;

        let octaves = self.fbm.octaves();
        // Per lattice point: the octave sum at which the density crosses the threshold.
        let amp = self.fbm.rest(0);
        let mut roots = [0.0f64; MAX_NP];
        for p in 0..np {
            roots[p] = self.root(shape(p), world[p].1, amp);
        }
        let eps = 1e-6 * amp;

        // Before any octave, with all of them still to add: a point far enough above
        // or below the surface has its sign already (octave by octave, the bound
        // only tightens, so every sign known here is the one the octaves would give).
        for p in 0..np {
            sign[p] = bounded_sign(0.0, amp, roots[p], eps);
        }
        let mut decided = [false; MAX_CELLS];
        // Marks the corners of the cells still undecided as active; whether any is.
        let mark = |active: &mut [bool; MAX_NP],
                    decided: &mut [bool; MAX_CELLS],
                    sign: &[Sign; MAX_NP]| {
            *active = [false; MAX_NP];
            let mut any = false;
            let mut c = 0;
            lat.for_each_cell(|corners, _, _, _| {
                if !decided[c] {
                    if cell_sign(sign, corners).is_some() {
                        decided[c] = true;
                    } else {
                        for p in corners {
                            active[p] = true;
                        }
                        any = true;
                    }
                }
                c += 1;
            });
            any
        };
        let mut active = [false; MAX_NP];
        let mut any = mark(&mut active, &mut decided, sign);
        for m in 0..octaves {
            if !any {
                break;
            }
            let last = m + 1 == octaves;
            let rest = self.fbm.rest(m + 1);
            for p in (0..np).filter(|&p| active[p]) {
                let (x, y, z) = world[p];
                sums[p] += self.fbm.octave3(m, x, y, z);
                if m == 0 {
                    first[p] = sums[p];
                }
                done[p] = (m + 1) as u8;
                sign[p] = if last {
                    values[p] = self.value(shape(p), self.fbm.finish(sums[p]), y);
                    if values[p] > 0.0 {
                        Sign::Solid
                    } else {
                        Sign::Empty
                    }
                } else {
                    bounded_sign(sums[p], rest, roots[p], eps)
                };
            }
            if !last {
                any = mark(&mut active, &mut decided, sign);
            }
        }

        let r = lat.region;
        let mut masks = [0u64; MAX_COLUMNS];
        lat.for_each_cell(|corners, (xs, xe), (zs, ze), j| {
            let (ys, ye) = lat.span_y(j);
            let bits = ((1u64 << (ye - ys + 1)) - 1) << (ys - r.ylo);
            // Columns outside the padded chunk only where needed.
            let keep = |lx: i32, lz: i32, c: usize| {
                (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz)
                    || needed.is_none_or(|n| n[c])
            };
            match cell_sign(sign, corners) {
                Some(Sign::Empty) => return,
                Some(_) => {
                    for lz in zs..=ze {
                        for lx in xs..=xe {
                            let c = r.column(lx, lz);
                            if keep(lx, lz, c) {
                                masks[c] |= bits;
                            }
                        }
                    }
                    return;
                }
                None => {}
            }
            // The corners' values interpolated across, once per column of cells:
            // the same operations, in the same order, as at each block column.
            let v = corners.map(|n| values[n]);
            let mut across = [[0.0; 4]; STEP_XZ as usize];
            for lx in xs..=xe {
                let tx = frac_xz(lx);
                across[(lx - xs) as usize] = [
                    lerp(v[0], v[1], tx),
                    lerp(v[2], v[3], tx),
                    lerp(v[4], v[5], tx),
                    lerp(v[6], v[7], tx),
                ];
            }
            for lz in zs..=ze {
                let tz = frac_xz(lz);
                for lx in xs..=xe {
                    let c = r.column(lx, lz);
                    if !keep(lx, lz, c) {
                        continue;
                    }
                    let mask = &mut masks[c];
                    let a = &across[(lx - xs) as usize];
                    let (lo, hi) = (lerp(a[0], a[1], tz), lerp(a[2], a[3], tz));
                    if lo > 0.0 && hi > 0.0 {
                        *mask |= bits;
                    } else if lo > 0.0 {
                        // `lerp` is monotonic in t: the solid blocks are a run from
                        // the bottom of the segment...
                        for ly in ys..=ye {
                            if lerp(lo, hi, frac_y(ly)) <= 0.0 {
                                break;
                            }
                            *mask |= 1 << (ly - r.ylo);
                        }
                    } else if hi > 0.0 {
                        // ...or a run from the top.
                        for ly in (ys..=ye).rev() {
                            if lerp(lo, hi, frac_y(ly)) <= 0.0 {
                                break;
                            }
                            *mask |= 1 << (ly - r.ylo);
                        }
                    }
                }
            }
        });
        masks
    }
}

const _: () = assert!(
    PADDED == 34 && MAX_NXZ == 10 && WIDE == 11 && MAX_NY == 7 && MAX_W == 36 && LEVELS == 8
);
