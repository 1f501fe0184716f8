// This file follows `perlin_3d` of the `noise` crate 0.9.0
// (https://github.com/Razaekel/noise-rs, src/core/perlin.rs), Copyright (c) 2017 The
// Noise-rs Project Developers, licensed under MIT OR Apache-2.0 (as terravox is).

//! 3D Perlin noise as the `noise` crate computes it, bit for bit (the test compares
//! them), without its generic vectors, slice hashing, range checks and branches: the
//! eight corners' hashes share their first lookups, and each corner's gradient is
//! chosen from tables instead of by a 16-way `match` (a jump the processor cannot
//! predict, eight times a point).

use super::table::{Table, floor};

/// `2 / sqrt(3)`, as the crate writes it: the scale to `[-1, 1]`.
const SCALE: f64 = 1.154_700_538_379_251_5;

/// The crate's gradients, by hash modulo 16: the gradient dotted with a corner's
/// offset `d` is `±d[U] ± d[V]`, the first axis (`U_AXIS`) and second (`V_AXIS`) and
/// their signs (`U_SIGN`, `V_SIGN`: the sign bit to flip) as the crate's `match`
/// writes them (`-x + y`, `x - y`: a negation is exact, and so is `a - b = a + -b`).
const U_AXIS: [usize; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1];
const V_AXIS: [usize; 16] = [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2];
const NEG: u64 = 1 << 63;
const U_SIGN: [u64; 16] = [
    0, NEG, 0, NEG, 0, NEG, 0, NEG, 0, NEG, 0, NEG, 0, NEG, NEG, NEG,
];
const V_SIGN: [u64; 16] = [0, 0, NEG, NEG, 0, 0, NEG, NEG, 0, 0, NEG, NEG, 0, 0, 0, NEG];

/// The gradient of hash `h` dotted with offset `d`.
#[inline(always)]
fn gradient(h: usize, d: [f64; 3]) -> f64 {
    let h = h & 0b1111;
    let u = f64::from_bits(d[U_AXIS[h]].to_bits() ^ U_SIGN[h]);
    let v = f64::from_bits(d[V_AXIS[h]].to_bits() ^ V_SIGN[h]);
    u + v
}

/// The crate's quintic S-curve of a distance into the cell.
#[inline(always)]
fn quintic(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * x * (x * (x * 6.0 - 15.0) + 10.0)
}

/// The crate's linear interpolation from `a` to `b`.
#[inline(always)]
fn linear(a: f64, b: f64, alpha: f64) -> f64 {
    b * alpha + a * (1.0 - alpha)
}

/// `noise::Perlin::get([x, y, z])` of the Perlin noise whose table is `t`.
#[inline]
pub(crate) fn perlin3(t: &Table, [x, y, z]: [f64; 3]) -> f64 {
    let (cx, cy, cz) = (floor(x), floor(y), floor(z));
    let (dx, dy, dz) = (x - cx as f64, y - cy as f64, z - cz as f64);
    let (cx, cy, cz) = (cx as usize, cy as usize & 0xff, cz as usize & 0xff);
    let (y1, z1) = ((cy + 1) & 0xff, (cz + 1) & 0xff);
    let (a0, a1) = (t.at(cx), t.at(cx.wrapping_add(1)));
    let (b00, b01, b10, b11) = (t.at(a0 ^ cy), t.at(a0 ^ y1), t.at(a1 ^ cy), t.at(a1 ^ y1));
    // The offset from corner (i, j, k): the crate subtracts `0.0` or `1.0` each way.
    let d = |i: f64, j: f64, k: f64| [dx - i, dy - j, dz - k];
    let g000 = gradient(t.at(b00 ^ cz), d(0.0, 0.0, 0.0));
    let g100 = gradient(t.at(b10 ^ cz), d(1.0, 0.0, 0.0));
    let g010 = gradient(t.at(b01 ^ cz), d(0.0, 1.0, 0.0));
    let g110 = gradient(t.at(b11 ^ cz), d(1.0, 1.0, 0.0));
    let g001 = gradient(t.at(b00 ^ z1), d(0.0, 0.0, 1.0));
    let g101 = gradient(t.at(b10 ^ z1), d(1.0, 0.0, 1.0));
    let g011 = gradient(t.at(b01 ^ z1), d(0.0, 1.0, 1.0));
    let g111 = gradient(t.at(b11 ^ z1), d(1.0, 1.0, 1.0));
    let (ux, uy, uz) = (quintic(dx), quintic(dy), quintic(dz));
    let result = linear(
        linear(linear(g000, g001, uz), linear(g010, g011, uz), uy),
        linear(linear(g100, g101, uz), linear(g110, g111, uz), uy),
        ux,
    ) * SCALE;
    result.clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use noise::{NoiseFn, Perlin};

    use super::*;
    use crate::mix::SplitMix64;
    use crate::noise::table::test_point;

    #[test]
    fn it_is_the_crates_perlin_noise_bit_for_bit() {
        let mut rng = SplitMix64::new(17);
        for seed in [0, 7, 1234, u32::MAX] {
            let (crate_noise, table) = (Perlin::new(seed), Table::new(seed));
            for n in 0..20_000 {
                let p = test_point(&mut rng, n);
                let (want, got) = (crate_noise.get(p), perlin3(&table, p));
                assert_eq!(got.to_bits(), want.to_bits(), "seed {seed} at {p:?}");
            }
        }
    }
}
