// Parts of this file (the 2D OpenSimplex octave: its constants, lattice walk and
// contributions) follow `open_simplex_2d` of the `noise` crate 0.9.0
// (https://github.com/Razaekel/noise-rs, src/core/open_simplex.rs), Copyright (c)
// 2017 The Noise-rs Project Developers, licensed under MIT OR Apache-2.0 (as terravox
// is).

//! OpenSimplex octaves in 2D [`LANES`] columns at a time, for the island heightmap and
//! the fields' grids: the same floating-point operations in the same order as the
//! `noise` crate's `open_simplex_2d` (so the same bits; the tests of `islands::noise`
//! and `shape::climate` compare them), in arrays the compiler turns into vector
//! instructions; columns inside the lattice cell the last ones fell in ([`Cell`])
//! skip finding it.
//!
//! OpenSimplex noise stays within [`SIMPLEX_BOUND`] (proven by a test), which tells
//! sooner than the fBm's clamp at 1 that the octaves left cannot matter.

use super::{GRADIENTS, NORM, SQUISH, STRETCH, open_simplex2};
use crate::noise::table::{Table, fold};

/// A bound on the magnitude of the `noise` crate's 2D OpenSimplex noise: each of the
/// three vertices adds `t^4 (d . g) / 14` with `|g| = 1`, at most `t^4 |d| / 14`,
/// whose sum over a cell peaks at about 0.553 at its centre (the test
/// `open_simplex_stays_within_its_bound` proves the bound over a grid and the sum's
/// slope). A chunk's columns are settled sooner with it than with the fBm's clamp
/// at 1.
pub(crate) const SIMPLEX_BOUND: f64 = 0.56;

/// `1.5 * 2^52`: adding it to a float of magnitude below `2^51` rounds it to a whole
/// number, held in the low bits of the sum.
const MAGIC: f64 = 6_755_399_441_055_744.0;
/// Lanes take coordinates below this magnitude (which [`fold`] leaves alone, and
/// whose stretched coordinates stay below `2^51`, as [`MAGIC`] needs); others go one
/// at a time.
const LANE_LIMIT: f64 = (1u64 << 50) as f64;

/// How many columns go at once.
pub(crate) const LANES: usize = 4;

/// One value per lane, with lane-wise arithmetic (written out for four lanes, which
/// the compiler turns into pairs of two-lane instructions best).
#[derive(Clone, Copy, Debug)]
struct Lanes([f64; LANES]);

impl std::ops::Add for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn add(self, o: Lanes) -> Lanes {
        let ([a0, a1, a2, a3], [b0, b1, b2, b3]) = (self.0, o.0);
        Lanes([a0 + b0, a1 + b1, a2 + b2, a3 + b3])
    }
}

impl std::ops::Sub for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn sub(self, o: Lanes) -> Lanes {
        let ([a0, a1, a2, a3], [b0, b1, b2, b3]) = (self.0, o.0);
        Lanes([a0 - b0, a1 - b1, a2 - b2, a3 - b3])
    }
}

impl std::ops::Mul for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn mul(self, o: Lanes) -> Lanes {
        let ([a0, a1, a2, a3], [b0, b1, b2, b3]) = (self.0, o.0);
        Lanes([a0 * b0, a1 * b1, a2 * b2, a3 * b3])
    }
}

impl Lanes {
    #[inline(always)]
    fn splat(v: f64) -> Lanes {
        Lanes([v; LANES])
    }

    /// 1 in each lane above 1, else 0.
    #[inline(always)]
    fn above_one(self) -> Lanes {
        let mut r = self.0;
        for v in &mut r {
            *v = if *v > 1.0 { 1.0 } else { 0.0 };
        }
        Lanes(r)
    }

    /// Each lane where above zero, else zero (one instruction a pair of lanes).
    #[inline(always)]
    fn positive(self) -> Lanes {
        let mut r = self.0;
        for v in &mut r {
            *v = if *v > 0.0 { *v } else { 0.0 };
        }
        Lanes(r)
    }

    /// The `noise` crate's floor ([`table::floor`](crate::noise::table::floor)) of each lane (below `2^51` in magnitude) as floats, and the low
    /// 8 bits of each.
    #[inline(always)]
    fn floor(self) -> ([usize; LANES], Lanes) {
        // In floats, selecting with masks (no conversions, no branches).
        let mut cells = self.0;
        for c in &mut cells {
            let v = *c;
            let near = v + MAGIC - MAGIC;
            let down = near - if near > v { 1.0 } else { 0.0 };
            // One less again at whole numbers at or below zero.
            *c = down - if (v <= 0.0) & (down == v) { 1.0 } else { 0.0 };
        }
        (
            cells.map(|c| ((c + MAGIC).to_bits() & 0xff) as usize),
            Lanes(cells),
        )
    }
}

/// One octave of OpenSimplex noise: its permutation table and where its lattice lies.
#[derive(Clone, Debug)]
pub(crate) struct SimplexOctave {
    /// The `noise` crate's permutation table of the octave's seed.
    table: Table,
    /// The gradient of each value of the first lookup in the table: that of the
    /// second lookup, `GRADIENTS[perm[k] % 8]`.
    gradients: [[f64; 2]; 256],
    frequency: f64,
    amplitude: f64,
    /// `[x, z]` offsets.
    offset: [f64; 2],
}

impl SimplexOctave {
    /// The octave of these parameters.
    pub(crate) fn new(table: Table, frequency: f64, amplitude: f64, offset: [f64; 2]) -> Self {
        Self {
            gradients: std::array::from_fn(|k| GRADIENTS[table.at(k) % 8]),
            table,
            frequency,
            amplitude,
            offset,
        }
    }

    /// How far from the origin columns stay within [`LANE_LIMIT`] (with room to
    /// spare for rounding).
    pub(crate) fn reach(&self) -> f64 {
        (LANE_LIMIT * 0.5 - self.offset[0].abs().max(self.offset[1].abs())) / self.frequency
    }

    /// The weighted, clamped contribution at column `(x, z)`: [`Fbm::octave2`](crate::noise::fbm::Fbm::octave2).
    #[inline(always)]
    pub(crate) fn term(&self, x: f64, z: f64) -> f64 {
        let p = [
            fold(x * self.frequency + self.offset[0]),
            fold(z * self.frequency + self.offset[1]),
        ];
        open_simplex2(&self.table, p).clamp(-1.0, 1.0) * self.amplitude
    }
}

/// The cell of an octave's stretched grid that columns last fell in, with what its
/// vertices need: a chunk's neighbouring columns mostly share cells, and where all
/// [`LANES`] columns are well inside one they are evaluated without finding it again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    /// The cell's origin on the stretched grid (not a number: no cell yet).
    grid: [f64; 2],
    /// The cell's origin in noise coordinates (`grid` plus the squish offset).
    origin: [f64; 2],
    /// The gradients of its vertices `(1, 0)`, `(0, 1)`, `(0, 0)` and `(1, 1)`.
    gradients: [[f64; 2]; 4],
}

impl Cell {
    /// No cell yet.
    pub(crate) const NONE: Cell = Cell {
        grid: [f64::NAN; 2],
        origin: [f64::NAN; 2],
        gradients: [[0.0; 2]; 4],
    };
}

impl SimplexOctave {
    /// [`SimplexOctave::term`] at [`LANES`] columns; `near` where they are known to
    /// be within [`SimplexOctave::reach`]; `cell` the cell columns last fell in, kept
    /// up to date. Not inlined: on its own the compiler keeps its many values in
    /// registers.
    #[inline(never)]
    pub(crate) fn terms(
        &self,
        x: &[f64; LANES],
        z: &[f64; LANES],
        near: bool,
        cell: &mut Cell,
    ) -> [f64; LANES] {
        let p = Lanes(std::array::from_fn(|l| {
            x[l] * self.frequency + self.offset[0]
        }));
        let q = Lanes(std::array::from_fn(|l| {
            z[l] * self.frequency + self.offset[1]
        }));
        let within = |v: &Lanes| v.0.iter().all(|c| c.abs() < LANE_LIMIT);
        if !(near || within(&p) && within(&q)) {
            return std::array::from_fn(|l| self.term(x[l], z[l]));
        }
        let value = self.open_simplex_lanes(p, q, cell);
        std::array::from_fn(|l| value.0[l].clamp(-1.0, 1.0) * self.amplitude)
    }

    /// [`open_simplex2`] in lanes (every coordinate below
    /// [`LANE_LIMIT`]), `cell` as in [`SimplexOctave::terms`]. Besides finding cells
    /// by rounding in floats (or not at all, inside `cell`), it leaves out the
    /// `0.0 +` starting sums whose other terms are never `-0.0` (squares, cell
    /// coordinates, distances into the cell), and the dot products' (whose sign of
    /// zero does not matter, as above).
    #[inline(always)]
    fn open_simplex_lanes(&self, x: Lanes, y: Lanes, cell: &mut Cell) -> Lanes {
        let (zero, one) = (Lanes::splat(0.0), Lanes::splat(1.0));
        let stretch = (zero + x + y) * Lanes::splat(STRETCH);
        let (sx, sy) = (x + stretch, y + stretch);
        // Strictly inside the cell, the floors are its origin's.
        let [gx, gy] = cell.grid;
        let mut inside = true;
        for l in 0..LANES {
            inside &= (sx.0[l] > gx) & (sx.0[l] < gx + 1.0) & (sy.0[l] > gy) & (sy.0[l] < gy + 1.0);
        }
        if !inside {
            return self.open_simplex_cells(x, y, sx, sy, cell);
        }
        let (fx, fy) = (Lanes::splat(gx), Lanes::splat(gy));
        let region = (sx - fx) + (sy - fy);
        let (px, py) = (
            x - Lanes::splat(cell.origin[0]),
            y - Lanes::splat(cell.origin[1]),
        );
        let far = region.above_one();
        let squish = Lanes::splat(SQUISH);
        let [g10, g01, g00, g11] = cell.gradients;
        let mut value = zero + contribution(px - squish - one, py - squish, g10.map(Lanes::splat));
        value = value + contribution(px - squish, py - squish - one, g01.map(Lanes::splat));
        let squished = squish * (far + far);
        let g = [0, 1].map(|k| {
            Lanes(std::array::from_fn(|l| {
                if far.0[l] > 0.0 { g11[k] } else { g00[k] }
            }))
        });
        value = value + contribution(px - squished - far, py - squished - far, g);
        value * Lanes::splat(NORM)
    }

    /// [`SimplexOctave::open_simplex_lanes`] finding each lane's cell (`sx`, `sy`
    /// the stretched coordinates), and keeping the last lane's in `cell`.
    #[inline(always)]
    fn open_simplex_cells(
        &self,
        x: Lanes,
        y: Lanes,
        sx: Lanes,
        sy: Lanes,
        cell: &mut Cell,
    ) -> Lanes {
        let (zero, one) = (Lanes::splat(0.0), Lanes::splat(1.0));
        let ((ix, fx), (iy, fy)) = (sx.floor(), sy.floor());
        let squish = (fx + fy) * Lanes::splat(SQUISH);
        let region = (sx - fx) + (sy - fy);
        let (ox, oy) = (fx + squish, fy + squish);
        let (px, py) = (x - ox, y - oy);
        let far = region.above_one();
        // 1 where `far` is 1.0 (whose lowest exponent bit is set), 0 where 0.0.
        let steps = far.0.map(|f| (f.to_bits() >> 52) as usize & 1);
        let gradient = |l: usize, [i, j]: [usize; 2]| {
            self.gradients[self.table.at(ix[l] + i) ^ ((iy[l] + j) & 0xff)]
        };
        let lanes = |offsets: [[usize; 2]; LANES]| {
            let g: [[f64; 2]; LANES] = std::array::from_fn(|l| gradient(l, offsets[l]));
            [0, 1].map(|k| Lanes(g.map(|g| g[k])))
        };
        let squished = Lanes::splat(SQUISH);
        let mut value =
            zero + contribution(px - squished - one, py - squished, lanes([[1, 0]; LANES]));
        value = value + contribution(px - squished, py - squished - one, lanes([[0, 1]; LANES]));
        let squished = squished * (far + far);
        value = value
            + contribution(
                px - squished - far,
                py - squished - far,
                lanes(steps.map(|s| [s, s])),
            );
        let last = LANES - 1;
        *cell = Cell {
            grid: [fx.0[last], fy.0[last]],
            origin: [ox.0[last], oy.0[last]],
            gradients: [[1, 0], [0, 1], [0, 0], [1, 1]].map(|o| gradient(last, o)),
        };
        value * Lanes::splat(NORM)
    }
}

/// The contribution of a vertex at `(dx, dy)` from the point with gradient
/// `[gx, gy]`: `t^4 (d . g)` where `t = 2 - |d|^2` is positive, else zero times the
/// dot product (see [`open_simplex2`]).
#[inline(always)]
fn contribution(dx: Lanes, dy: Lanes, [gx, gy]: [Lanes; 2]) -> Lanes {
    let t = (Lanes::splat(2.0) - (dx * dx + dy * dy)).positive();
    let t2 = t * t;
    t2 * t2 * (dx * gx + dy * gy)
}
