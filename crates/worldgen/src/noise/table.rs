// `floor` follows `floor_to_isize` of the `noise` crate 0.9.0
// (https://github.com/Razaekel/noise-rs, src/math/vectors.rs), Copyright (c) 2017 The
// Noise-rs Project Developers, licensed under MIT OR Apache-2.0 (as terravox is).

//! What the `noise` crate's gradient noises look up: the permutation table of a seed
//! (as a plain array, hashed without its slices and checks) and its way of finding the
//! lattice cell a coordinate lies in. [`perlin`](super::perlin) and
//! [`open_simplex`](super::open_simplex) compute the crate's noises through them, bit
//! for bit.

use noise::permutationtable::{NoiseHasher, PermutationTable};

/// The `noise` crate's permutation table of a seed.
#[derive(Clone, Debug)]
pub(crate) struct Table([u8; 256]);

impl Table {
    /// The table `noise::PermutationTable::new(seed)` holds.
    pub(crate) fn new(seed: u32) -> Self {
        let table = PermutationTable::new(seed);
        // Hashing one coordinate looks it up in the table.
        Self(std::array::from_fn(|i| table.hash(&[i as isize]) as u8))
    }

    /// The entry at the low 8 bits of `i`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> usize {
        self.0[i & 0xff] as usize
    }

    /// The crate's hash of lattice vertex `(i, j)`.
    #[inline(always)]
    pub(crate) fn hash2(&self, i: i64, j: i64) -> usize {
        self.at(self.at(i as usize) ^ (j as usize & 0xff))
    }
}

/// The `noise` crate's `floor_to_isize`: one less than the truncation at or below
/// zero (so `-1` at `0.0`, `-3` at `-2.0`).
#[inline(always)]
pub(crate) fn floor(v: f64) -> i64 {
    let t = v as i64;
    if v <= 0.0 { t - 1 } else { t }
}

/// Noise coordinates at or beyond this magnitude are folded (see [`fold`]).
const FOLD_FROM: f64 = (1u64 << 62) as f64;
/// What folded coordinates are reduced modulo: a multiple of every noise lattice
/// period, small enough that skewed simplex coordinates stay in `isize`.
const FOLD_PERIOD: f64 = (1u64 << 60) as f64;

/// Keeps a noise coordinate where the `noise` crate can take it: it turns lattice
/// coordinates into `isize` and panics beyond that range, which extreme frequency x
/// lacunarity^octaves reaches far from the origin. Coordinates that big are whole
/// numbers, so reducing them by a multiple of the 256-cell lattice period is exact for
/// Perlin noise; smaller coordinates (every ordinary world) are untouched, so worlds
/// stay bit-identical.
#[inline]
pub(crate) fn fold(v: f64) -> f64 {
    if v.abs() < FOLD_FROM { v } else { fold_far(v) }
}

/// [`fold`] beyond [`FOLD_FROM`]: out of line, so that the common path does not
/// compute the remainder and throw it away (which a select in its place did).
#[cold]
#[inline(never)]
fn fold_far(v: f64) -> f64 {
    v % FOLD_PERIOD
}

/// Points to compare a noise with the crate's at, the `n`th of a run drawn from `rng`:
/// anywhere a world's noise coordinates go, near the origin (where cells and signs
/// change), on whole numbers (where the crate's floor steps down at or below 0), and
/// far out (where coordinates are whole).
#[cfg(test)]
pub(crate) fn test_point<const N: usize>(rng: &mut crate::mix::SplitMix64, n: usize) -> [f64; N] {
    match n % 4 {
        0 => std::array::from_fn(|_| rng.range_f64(-3e5, 3e5)),
        1 => std::array::from_fn(|_| rng.range_f64(-3.0, 3.0)),
        2 => std::array::from_fn(|_| rng.range_f64(-300.0, 300.0).round()),
        _ => std::array::from_fn(|_| rng.range_f64(-1e17, 1e17)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_hashes_as_the_crate_does() {
        for seed in [0, 1, 42, u32::MAX] {
            let crate_table = PermutationTable::new(seed);
            let table = Table::new(seed);
            for i in -300..300i64 {
                for j in [-257, -1, 0, 3, 255, 256, 1000] {
                    let want = crate_table.hash(&[i as isize, j as isize]);
                    assert_eq!(table.hash2(i, j), want, "seed {seed} ({i}, {j})");
                }
            }
        }
    }

    #[test]
    fn floor_is_the_crates_own() {
        assert_eq!(floor(0.0), -1);
        assert_eq!(floor(-2.0), -3);
        assert_eq!(floor(-1.5), -2);
        assert_eq!(floor(1.0), 1);
        assert_eq!(floor(1.5), 1);
    }
}
