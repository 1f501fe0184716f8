// This file follows `open_simplex_2d` of the `noise` crate 0.9.0
// (https://github.com/Razaekel/noise-rs, src/core/open_simplex.rs), Copyright (c)
// 2017 The Noise-rs Project Developers, licensed under MIT OR Apache-2.0 (as terravox
// is): its constants, lattice walk and contributions.

//! 2D OpenSimplex noise as the `noise` crate computes it: the same floating-point
//! operations in the same order as its `open_simplex_2d` (so the same bits; the test
//! compares them), without its generic vectors, slice hashing, range checks and
//! branches; and the same [`LANES`](lanes::LANES) columns at a time ([`lanes`]).

pub(crate) mod lanes;

use super::table::{Table, floor};

/// `(1 / sqrt(2 + 1) - 1) / 2`, as the `noise` crate writes it.
pub(crate) const STRETCH: f64 = -0.211_324_865_405_187;
/// `(sqrt(2 + 1) - 1) / 2`, as the `noise` crate writes it.
pub(crate) const SQUISH: f64 = 0.366_025_403_784_439;
/// The `noise` crate's normalisation of 2D OpenSimplex noise.
pub(crate) const NORM: f64 = 1.0 / 14.0;
/// The `noise` crate's 2D gradients, by hash modulo 8.
pub(crate) const GRADIENTS: [[f64; 2]; 8] = {
    const D: f64 = std::f64::consts::FRAC_1_SQRT_2;
    [
        [1.0, 0.0],
        [-1.0, 0.0],
        [0.0, 1.0],
        [0.0, -1.0],
        [D, D],
        [-D, D],
        [D, -D],
        [-D, -D],
    ]
};

/// `noise::OpenSimplex::get([x, y])` of the noise whose table is `t`, operation for
/// operation (sums start from `0.0`, as its vector sums and dot products do). Where
/// that skips a vertex outside its radius (adding `0.0`) this adds `t = 0` times the
/// dot product, `+0.0` or `-0.0`: the sum it adds to is never `-0.0` (it starts at
/// `+0.0` and a rounded sum of non-zeros is never `-0.0`), so either zero leaves it
/// as it is.
#[inline]
pub(crate) fn open_simplex2(t: &Table, [x, y]: [f64; 2]) -> f64 {
    // Onto the stretched grid, and the rhombus cell holding the point.
    let stretch = (0.0 + x + y) * STRETCH;
    let (sx, sy) = (x + stretch, y + stretch);
    let (ix, iy) = (floor(sx), floor(sy));
    let (fx, fy) = (ix as f64, iy as f64);
    let squish = (0.0 + fx + fy) * SQUISH;
    let (ox, oy) = (fx + squish, fy + squish);
    let region = 0.0 + (sx - fx) + (sy - fy);
    let (px, py) = (x - ox, y - oy);
    // A vertex at `offset` from the cell origin, `offset_sum` its coordinate sum.
    let surflet = |offset: [f64; 2], offset_sum: f64| {
        let i = (fx + offset[0]) as i64;
        let j = (fy + offset[1]) as i64;
        let squished = SQUISH * offset_sum;
        let dx = px - squished - offset[0];
        let dy = py - squished - offset[1];
        let t2 = 2.0 - (0.0 + dx * dx + dy * dy);
        let t2 = if t2 > 0.0 { t2 } else { 0.0 };
        let g = GRADIENTS[t.hash2(i, j) % 8];
        t2.powi(4) * (0.0 + dx * g[0] + dy * g[1])
    };
    let far = if region > 1.0 { 1.0 } else { 0.0 };
    let mut value = 0.0;
    value += surflet([1.0, 0.0], 1.0);
    value += surflet([0.0, 1.0], 1.0);
    value += surflet([far, far], 0.0 + far + far);
    value * NORM
}

#[cfg(test)]
mod tests {
    use noise::{NoiseFn, OpenSimplex};

    use super::*;
    use crate::mix::SplitMix64;
    use crate::noise::table::test_point;

    #[test]
    fn it_is_the_crates_open_simplex_noise_bit_for_bit() {
        let mut rng = SplitMix64::new(23);
        for seed in [0, 7, 1234, u32::MAX] {
            let (crate_noise, table) = (OpenSimplex::new(seed), Table::new(seed));
            for n in 0..20_000 {
                let p = test_point(&mut rng, n);
                let (want, got) = (crate_noise.get(p), open_simplex2(&table, p));
                assert_eq!(got.to_bits(), want.to_bits(), "seed {seed} at {p:?}");
            }
        }
    }
}
