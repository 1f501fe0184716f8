// This Source Code Form is subject to the terms of the Mozilla Public
// License, v. 2.0. If a copy of the MPL was not distributed with this
// file, You can obtain one at https://mozilla.org/MPL/2.0/.
//
// Phacelle Noise and the Advanced Terrain Erosion Filter: copyright (c) 2025 Rune Skovbo
// Johansen, "Fast and Gorgeous Erosion Filter"
// (https://blog.runevision.com/2026/03/fast-and-gorgeous-erosion-filter.html, Shadertoy
// https://www.shadertoy.com/view/wXcfWn), MPL-2.0.
// Ported to Rust through bevy_erosion_filter 0.2.0, src/cpu.rs (Korbin de Man,
// https://github.com/korbindeman/bevy_erosion_filter, MPL-2.0).
//
// Changed in terravox: f64 throughout and no glam; IQ's floating-point cell hash
// replaced with a seeded integer hash (the SplitMix64 finaliser) of the integer cell
// coordinates, one key per octave; cells of zero weight skipped (identical output);
// the height and gradient delta accumulated from zero rather than subtracted from the
// input (so the input height is not needed); positions, heights and `scale` in blocks;
// the height and ridge outputs renamed; the parameters checked.

//! Rune Skovbo Johansen's erosion filter ("Phacelle" noise): branching gullies, sharp
//! ridges and V-shaped valleys carved into any smooth height function, one point at a
//! time, with no simulation and no neighbours (so chunks stay independent).
//!
//! The density generator's version-4 relief (`ShapeConfig::relief`'s `erosion`) runs
//! it over its mountain ranges; changing what it computes changes those worlds.
//!
//! ```
//! use terravox_worldgen::erosion::{Erosion, ErosionParams};
//!
//! let erosion = Erosion::new(&ErosionParams::default(), 42).expect("the defaults are valid");
//! // A column halfway up (fade target 0) a flank rising 0.8 blocks per block towards +x.
//! let (height, gradient, fade) = (150.0, [0.8, 0.0], 0.0);
//! let e = erosion.apply(1000.0, -40.0, gradient, fade);
//! let eroded = height + e.centred_offset(fade);
//! assert!((eroded - height).abs() <= 2.0 * e.magnitude);
//! ```
//!
//! # Inputs
//!
//! Per column: the position `(x, z)` and the **gradient** of the base height
//! `(dh/dx, dh/dz)`, in blocks and blocks per block (the slope is dimensionless and is
//! compared with the `onset` thresholds, so heights and positions must share a unit);
//! and a **fade target** in `[-1, 1]`: -1 on valley floors, +1 on peaks, 0 halfway
//! (upstream: `clamp((h - mid) / (0.6 * amplitude), -1, 1)`), which is what flat,
//! uneroded places lean towards. The gradient must be continuous (a gradient that jumps,
//! such as that of a bilinear interpolation at its grid lines, leaves seams): use an
//! analytic gradient of a C1 height or wide central differences of a continuous one.
//! Only its direction steers the gullies (with the default `assumed_slope`); its length
//! drives the masks. The base height itself is not needed.
//!
//! # Algorithm
//!
//! Per octave `i` (cells `scale * cell_scale / lacunarity^i` blocks wide, stripes
//! `scale / lacunarity^i` blocks apart, `± strength * scale * gain^i * gully_weight`
//! blocks deep), Phacelle noise:
//!
//! ```text
//!  the 4x4 cells around P; each cell has a pivot (+) up to half a cell from its corner
//!  (a seeded integer hash of the cell's integer coordinates, one key per octave)
//!
//!   +------+------+------+------+   each pivot carries a cosine wave whose stripes
//!   |  +   |    + |   +  |    + |   run along the gully direction g (down the slope):
//!   +------+------+------+------+          | | | |   crests: ridges  (cos = +1)
//!   |   +  |  +   |  +   |   +  |          | | | |   troughs: gullies (cos = -1)
//!   +------+------+--P---+------+
//!   |  +   |   +  |    + |  +   |   P blends the waves of all 16 pivots with bell
//!   +------+------+------+------+   weights w = max(0, exp(-2 d^2) - 0.01111), d the
//!   | +    |  +   |   +  |    + |   distance P-pivot in cells: w is 0 from d = 1.5, so
//!   +------+------+------+------+   a cell outside the window never counts (no seams)
//! ```
//!
//! The blend `(cos, sin)` is normalised (`normalization`) and the octave adds
//! `strength_i * lerp(fade, gully_weight * cos, mask)` to the height (the fade target
//! follows it). Then, before the next octave:
//!
//! ```text
//!   octave i:    | | | |    g += sign(sin) * (the wave's gradient) * strength_i * gully_weight
//!                | | | |    (plus or minus 0.69 across g with the defaults): the next
//!   octave i+1:  \|/ \|/    octave's stripes follow the steepest part of this octave's
//!                 |   |     gully walls, so they branch off at an angle
//! ```
//!
//! and `mask *= ease_out(|sin| * onset.y)` (softened by `detail` and `rounding`):
//! smaller octaves stay off the flat crests and troughs of the larger ones, which keeps
//! ridges sharp and valley floors V-shaped. The ridge output follows `cos` of the
//! octaves while the terrain is steep enough (`onset.z`, `onset.w`).
//!
//! # Cost
//!
//! Per point and octave: 16 cell hashes (20 `mix64`s), and one `exp` and one `sin_cos`
//! for each cell within 1.5 cells of the point (about 7 of the 16: the others are
//! skipped), plus one `powf` and a square root: about 1.9 µs a point with the default 5
//! octaves and 0.9 µs with 3, the same far from the origin (`cargo bench -p
//! terravox-worldgen --bench erosion`). Evaluate it once per column, not per lattice
//! point: a chunk's 16 x 16 columns cost about 0.5 ms, its 5 x 5 lattice columns 50 µs.
//!
//! # Pitfalls
//!
//! - **Flat land shifts.** Where the input is flat every octave's mask is 0 and it adds
//!   `fade_target * strength_i`, so flat land moves by `fade_target * magnitude` (up
//!   to `magnitude`, 55 blocks with the defaults), while slopes get gullies around 0.
//!   The caller must do one of: add [`Eroded::centred_offset`] (`height_offset -
//!   fade_target * magnitude`, 0 on flat land; it lowers upper flanks instead) rather
//!   than `height_offset`; or add a constant `k * magnitude` (upstream's demo: `k =
//!   -0.65`, mostly carving; flat land then moves by `(fade_target + k) * magnitude`);
//!   and in either case fade `strength` to 0 outside the mountains with a smooth mask,
//!   so `magnitude` (and every shift) goes to 0 on the plains and under the sea.
//! - **Aliasing.** The smallest stripes are `scale / lacunarity^(octaves - 1)` blocks
//!   apart ([`ErosionParams::smallest_wavelength`]); sampled less than twice per
//!   stripe they alias into noise, so on the 4-block lattice keep that at 8 blocks or
//!   more (the defaults give 8), or evaluate every column.
//! - `scale`, `cell_scale`, `normalization`, `octaves`, `lacunarity` and `gain` must
//!   not vary from point to point (that breaks the cells and the stripes); `strength`,
//!   `gully_weight`, `detail`, `rounding`, `onset` and `assumed_slope` may (make a
//!   second [`Erosion`]; construction is cheap).
//!
//! # Determinism
//!
//! The cell pivots come from an integer hash of integer cell coordinates (`floor` of
//! `x * frequency`, carried as `i64`), so they never repeat or collapse anywhere in
//! the world (`|x|, |z|` up to 2^30 blocks; the f32 hash of the original gives one
//! constant from a few hundred cells out, and its f32 positions lose the cells' insides
//! further out); the waves are evaluated relative to each pivot,
//! so their phases stay small numbers. The result is a pure function of the seed, the
//! parameters and the point. `exp`, `sin_cos` and `powf` come from the platform's maths
//! library, as in the island generator's falloff.

use std::f64::consts::TAU;

use crate::mix::{SplitMix64, mix64};

/// Separates the erosion pivots' keys from the other fields drawn from a world seed.
const SALT: u64 = 0x6572_6f73_696f_6e31; // "erosion1"

/// The Phacelle bell weight's floor: `exp(-2 * 1.5^2)` rounded up, so the weight is 0
/// from 1.5 cells out.
const WEIGHT_FLOOR: f64 = 0.01111;

/// Cells at or beyond this squared distance (in cells) weigh exactly 0 and are
/// skipped: `exp(-2 * 2.25) = 0.011109 < WEIGHT_FLOOR`.
const SKIP_SQUARED_DISTANCE: f64 = 2.25;

/// The stripes' phase offset in cycles: a quarter, so height follows the cosine.
const OFFSET_CYCLES: f64 = 0.25;

/// The erosion filter's parameters (upstream names and defaults; only `scale` has a
/// unit: blocks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErosionParams {
    /// Horizontal and vertical scale, in blocks: the first octave's stripes (gullies)
    /// are this far apart, and depths are `strength` times it. Rune Skovbo Johansen's
    /// rule: a mountain's width divided by five to ten. Default 128 (upstream 0.15 in
    /// its shader's units): gullies 128, 64, 32, 16 and 8 blocks apart.
    pub scale: f64,
    /// Vertical strength, a fraction of `scale` (0..0.5): the first octave carves
    /// `± strength * scale * gully_weight` blocks; also bends the gully directions.
    /// Default 0.22 (28 blocks).
    pub strength: f64,
    /// How much of the octaves' depth are gullies, in `[0, 1]`: 0 sharpens peaks and
    /// valleys with no gullies, 1 gives full gullies but rounded peaks. Default 0.5.
    pub gully_weight: f64,
    /// Detail (> 0, typically 0.1..4): lower values keep the smaller octaves to steeper
    /// slopes. Default 1.5.
    pub detail: f64,
    /// Rounding (each >= 0): of ridges, of creases, multiplier for the input height
    /// (0.2 when the base height is 5 times lower in frequency than the first gullies),
    /// and per-octave multiplier (equal to `lacunarity` for even rounding). Default
    /// `[0.1, 0.0, 0.1, 2.0]`.
    pub rounding: [f64; 4],
    /// Slope onsets (dimensionless multipliers of slopes, >= 0): erosion reaches full
    /// strength where `slope * onset >= 1`. Initial, per octave, ridge output initial,
    /// ridge output per octave. Default `[1.25, 1.25, 2.8, 1.5]` (the input at full
    /// strength from a slope of 0.8).
    pub onset: [f64; 4],
    /// An idealised slope (dimensionless) and how much, in `[0, 1]`, it replaces the
    /// input slope's length when steering the gullies. Default `[0.7, 1.0]`: only the
    /// input gradient's direction steers.
    pub assumed_slope: [f64; 2],
    /// The Phacelle cells' size relative to `scale` (> 0, about 1): smaller is grainier,
    /// larger is curvier and then chaotic. Default 0.7.
    pub cell_scale: f64,
    /// Phacelle normalisation in `[0, 1]`: 0 leaves stripes weak where cells disagree,
    /// values near 1 force full strength and make loop-shaped meeting points.
    /// Default 0.5.
    pub normalization: f64,
    /// Octaves (3..8 typical; the cost is linear in them). Default 5.
    pub octaves: u32,
    /// Frequency multiplier per octave (> 1). Default 2.
    pub lacunarity: f64,
    /// Amplitude multiplier per octave (> 0). Default 0.5.
    pub gain: f64,
}

impl Default for ErosionParams {
    fn default() -> Self {
        Self {
            scale: 128.0,
            strength: 0.22,
            gully_weight: 0.5,
            detail: 1.5,
            rounding: [0.1, 0.0, 0.1, 2.0],
            onset: [1.25, 1.25, 2.8, 1.5],
            assumed_slope: [0.7, 1.0],
            cell_scale: 0.7,
            normalization: 0.5,
            octaves: 5,
            lacunarity: 2.0,
            gain: 0.5,
        }
    }
}

impl ErosionParams {
    /// The sum of every octave's strength in blocks, `strength * scale * (1 + gain +
    /// ... + gain^(octaves - 1))`: [`Eroded::magnitude`] at every point, and a bound on
    /// [`Eroded::height_offset`] (and on [`Eroded::centred_offset`] to twice it).
    pub fn magnitude(&self) -> f64 {
        let (mut strength, mut sum) = (self.strength * self.scale, 0.0);
        for _ in 0..self.octaves {
            sum += strength;
            strength *= self.gain;
        }
        sum
    }

    /// The distance between the smallest stripes, in blocks: `scale /
    /// lacunarity^(octaves - 1)`. Sample at most half this far apart.
    pub fn smallest_wavelength(&self) -> f64 {
        self.scale / self.lacunarity.powi(self.octaves.max(1) as i32 - 1)
    }

    /// Checks the ranges documented on the fields (and that every value is finite);
    /// the error names the first field out of range.
    pub fn check(&self) -> Result<(), &'static str> {
        let ok = |v: f64, lo: f64, hi: f64| v.is_finite() && (lo..=hi).contains(&v);
        let checks = [
            (self.scale > 0.0 && self.scale.is_finite(), "scale"),
            (ok(self.strength, 0.0, f64::MAX), "strength"),
            (ok(self.gully_weight, 0.0, 1.0), "gully_weight"),
            (self.detail > 0.0 && self.detail.is_finite(), "detail"),
            (
                self.rounding.iter().all(|&v| ok(v, 0.0, f64::MAX)),
                "rounding",
            ),
            (self.onset.iter().all(|&v| ok(v, 0.0, f64::MAX)), "onset"),
            (
                ok(self.assumed_slope[0], 0.0, f64::MAX) && ok(self.assumed_slope[1], 0.0, 1.0),
                "assumed_slope",
            ),
            (
                self.cell_scale > 0.0 && self.cell_scale.is_finite(),
                "cell_scale",
            ),
            (ok(self.normalization, 0.0, 1.0), "normalization"),
            (self.octaves <= 32, "octaves"),
            (
                self.lacunarity > 0.0 && self.lacunarity.is_finite(),
                "lacunarity",
            ),
            (ok(self.gain, 0.0, f64::MAX), "gain"),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, field)) => Err(field),
            None => Ok(()),
        }
    }
}

/// What [`Erosion::apply`] gives for one point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eroded {
    /// The change of height, in blocks, within `± magnitude`. On flat land it is
    /// `fade_target * magnitude`: see [`Eroded::centred_offset`].
    pub height_offset: f64,
    /// The (approximate, upstream's) change of the gradient `(d/dx, d/dz)`, in blocks
    /// per block: the stripes' own slopes, for shading or slope rules.
    pub gradient_offset: [f64; 2],
    /// The sum of the octaves' strengths, in blocks ([`ErosionParams::magnitude`]).
    pub magnitude: f64,
    /// A ridge map in `[-1, 1]`: near +1 on ridges, near -1 in gullies and creases,
    /// the fade target on flat land (for scree, snow, drainage and tree rules).
    pub ridge: f64,
}

impl Eroded {
    /// The height offset less the flat-land shift, `height_offset - fade_target *
    /// magnitude` (`fade_target` clamped to `[-1, 1]`, the value given to
    /// [`Erosion::apply`]), within `± 2 * magnitude`: 0 where the input is flat (peaks,
    /// valley floors, plains), gullies and ridges on slopes, whose upper flanks
    /// (`fade_target > 0`) it lowers and lower flanks raises by up to `fade_target *
    /// magnitude` (the concave profile of eroded mountains; upstream's
    /// `TERRAIN_HEIGHT_OFFSET = (_, 1)`). What a generator adds to its base height.
    pub fn centred_offset(&self, fade_target: f64) -> f64 {
        self.height_offset - fade_target.clamp(-1.0, 1.0) * self.magnitude
    }
}

/// An erosion parameter out of its documented range: the field's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("erosion parameter `{0}` is out of range")]
pub struct OutOfRange(pub &'static str);

/// A seeded erosion filter: [`Erosion::apply`] is a pure function of the seed, the
/// parameters and the point.
#[derive(Clone, Debug)]
pub struct Erosion {
    params: ErosionParams,
    /// One hash key per octave.
    keys: Vec<u64>,
}

impl Erosion {
    /// The filter for `params` and a world `seed` (its own salt keeps it independent of
    /// the other fields drawn from the same seed), or the first parameter out of range
    /// ([`ErosionParams::check`]): parameters from a config are refused, never a panic.
    pub fn new(params: &ErosionParams, seed: u64) -> Result<Self, OutOfRange> {
        params.check().map_err(OutOfRange)?;
        let mut rng = SplitMix64::new(seed ^ SALT);
        Ok(Self {
            params: *params,
            keys: (0..params.octaves).map(|_| rng.next_u64()).collect(),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &ErosionParams {
        &self.params
    }

    /// Erodes the point `(x, z)` (blocks) of a height whose gradient there is
    /// `gradient` (`(dh/dx, dh/dz)`, blocks per block), leaning flat places towards
    /// `fade_target` (-1 valley floors .. +1 peaks; clamped). See the module docs.
    pub fn apply(&self, x: f64, z: f64, gradient: [f64; 2], fade_target: f64) -> Eroded {
        let p = &self.params;
        let mut strength = p.strength * p.scale;
        let mut fade = fade_target.clamp(-1.0, 1.0);
        let mut freq = 1.0 / (p.scale * p.cell_scale);
        let slope_length = length(gradient).max(1e-10);
        let mut delta = [0.0; 3];
        let mut magnitude = 0.0;
        let mut rounding_mult = 1.0;

        let rounding_for_input =
            mix(p.rounding[1], p.rounding[0], clamp01(fade + 0.5)) * p.rounding[2];
        let mut combi_mask = ease_out(smooth_start(
            slope_length * p.onset[0],
            rounding_for_input * p.onset[0],
        ));
        let mut ridge_mask = ease_out(slope_length * p.onset[2]);
        let mut ridge_fade = fade;

        let assumed = p.assumed_slope[0] / slope_length;
        let mut gully = [
            mix(gradient[0], gradient[0] * assumed, p.assumed_slope[1]),
            mix(gradient[1], gradient[1] * assumed, p.assumed_slope[1]),
        ];

        for &key in &self.keys {
            let (wave, side) = phacelle(
                key,
                [x * freq, z * freq],
                normalize(gully),
                p.cell_scale,
                OFFSET_CYCLES,
                p.normalization,
            );
            // The cosine wave's gradient per block is `-sin * side * freq`.
            let wave_slope = [side[0] * -freq, side[1] * -freq];
            let sloping = wave[1].abs();

            let bend = sign(wave[1]) * strength * p.gully_weight;
            gully[0] += wave_slope[0] * bend;
            gully[1] += wave_slope[1] * bend;

            let octave = [wave[0], wave[1] * wave_slope[0], wave[1] * wave_slope[1]];
            let faded = [
                mix(fade, octave[0] * p.gully_weight, combi_mask),
                mix(0.0, octave[1] * p.gully_weight, combi_mask),
                mix(0.0, octave[2] * p.gully_weight, combi_mask),
            ];
            for (d, f) in delta.iter_mut().zip(faded) {
                *d += f * strength;
            }
            magnitude += strength;
            fade = faded[0];

            let rounding_for_octave =
                mix(p.rounding[1], p.rounding[0], clamp01(wave[0] + 0.5)) * rounding_mult;
            let new_mask = ease_out(smooth_start(
                sloping * p.onset[1],
                rounding_for_octave * p.onset[1],
            ));
            combi_mask = pow_inv(combi_mask, p.detail) * new_mask;

            ridge_fade = mix(ridge_fade, octave[0], ridge_mask);
            ridge_mask *= ease_out(sloping * p.onset[3]);

            strength *= p.gain;
            freq *= p.lacunarity;
            rounding_mult *= p.rounding[3];
        }

        Eroded {
            height_offset: delta[0],
            gradient_offset: [delta[1], delta[2]],
            magnitude,
            ridge: ridge_fade * (1.0 - ridge_mask),
        }
    }
}

/// Rune Skovbo Johansen's Phacelle noise at `p` (in cells): the blended, normalised
/// `(cos, sin)` of the stripe waves of the 4x4 cells around `p`, whose stripes run
/// along the unit vector `dir` with `freq` cycles per cell, and the wave's phase
/// gradient per cell, `perp(dir) * freq * TAU` (so `-sin` times it is the cosine's
/// gradient per cell).
#[inline]
fn phacelle(
    key: u64,
    p: [f64; 2],
    dir: [f64; 2],
    freq: f64,
    offset_cycles: f64,
    normalization: f64,
) -> ([f64; 2], [f64; 2]) {
    let side = [-dir[1] * freq * TAU, dir[0] * freq * TAU];
    let offset = offset_cycles * TAU;
    let floor = [p[0].floor(), p[1].floor()];
    let frac = [p[0] - floor[0], p[1] - floor[1]];
    let (cx, cz) = (floor[0] as i64, floor[1] as i64);

    let mut sum = [0.0, 0.0];
    let mut weight_sum = 0.0;
    for i in -1i64..=2 {
        let column = mix64(key.wrapping_add(cx.wrapping_add(i) as u64));
        for j in -1i64..=2 {
            let [jx, jz] = jitter(mix64(column.wrapping_add(cz.wrapping_add(j) as u64)));
            let v = [frac[0] - i as f64 - jx, frac[1] - j as f64 - jz];
            let sqr_dist = v[0] * v[0] + v[1] * v[1];
            if sqr_dist >= SKIP_SQUARED_DISTANCE {
                continue;
            }
            let weight = ((-sqr_dist * 2.0).exp() - WEIGHT_FLOOR).max(0.0);
            weight_sum += weight;
            let (sin, cos) = (v[0] * side[0] + v[1] * side[1] + offset).sin_cos();
            sum[0] += cos * weight;
            sum[1] += sin * weight;
        }
    }

    // The nearest pivot is at most 2 * sqrt(0.5) < 1.5 cells away: weight_sum > 0.
    let interpolated = [sum[0] / weight_sum, sum[1] / weight_sum];
    let magnitude = (1.0 - normalization)
        .max(length(interpolated))
        .max(f64::MIN_POSITIVE);
    (
        [interpolated[0] / magnitude, interpolated[1] / magnitude],
        side,
    )
}

/// A cell's pivot offset from its corner, each coordinate in `[-0.5, 0.5)` cells, from
/// its hash.
#[inline(always)]
fn jitter(h: u64) -> [f64; 2] {
    const UNIT: f64 = 1.0 / (1u64 << 32) as f64;
    [
        (h >> 32) as f64 * UNIT - 0.5,
        (h & 0xffff_ffff) as f64 * UNIT - 0.5,
    ]
}

/// GLSL `mix`: `a * (1 - t) + b * t` (exactly `a` at `t = 0`, `b` at `t = 1`).
#[inline(always)]
fn mix(a: f64, b: f64, t: f64) -> f64 {
    a * (1.0 - t) + b * t
}

#[inline(always)]
fn clamp01(t: f64) -> f64 {
    t.clamp(0.0, 1.0)
}

/// `1 - (1 - t)^power`, `t` clamped to `[0, 1]`.
#[inline(always)]
fn pow_inv(t: f64, power: f64) -> f64 {
    1.0 - (1.0 - clamp01(t)).powf(power)
}

/// `1 - (1 - t)^2`, `t` clamped to `[0, 1]`.
#[inline(always)]
fn ease_out(t: f64) -> f64 {
    let v = 1.0 - clamp01(t);
    1.0 - v * v
}

/// `t`, less `smoothing / 2`, with a quadratic start below `smoothing`.
#[inline(always)]
fn smooth_start(t: f64, smoothing: f64) -> f64 {
    if t >= smoothing {
        t - 0.5 * smoothing
    } else {
        0.5 * t * t / smoothing
    }
}

#[inline(always)]
fn length(v: [f64; 2]) -> f64 {
    (v[0] * v[0] + v[1] * v[1]).sqrt()
}

/// `v` scaled to length 1 (unchanged if about 0).
#[inline(always)]
fn normalize(v: [f64; 2]) -> [f64; 2] {
    let l = length(v);
    if l > 1e-10 { [v[0] / l, v[1] / l] } else { v }
}

/// GLSL `sign`: -1, 0 or 1.
#[inline(always)]
fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FAR: f64 = (1u64 << 29) as f64;

    fn filter(seed: u64) -> Erosion {
        Erosion::new(&ErosionParams::default(), seed).expect("the defaults are valid")
    }

    /// A cone 200 blocks high at the origin, falling 0.8 blocks per block: height,
    /// gradient and fade target at `(x, z)`.
    fn cone(x: f64, z: f64) -> (f64, [f64; 2], f64) {
        let r = (x * x + z * z).sqrt();
        let h = 200.0 - 0.8 * r;
        (
            h,
            [-0.8 * x / r, -0.8 * z / r],
            ((h - 100.0) / 60.0).clamp(-1.0, 1.0),
        )
    }

    fn mean_std(v: &[f64]) -> (f64, f64) {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / v.len() as f64;
        (mean, var.sqrt())
    }

    #[test]
    fn defaults_are_upstreams_with_scale_in_blocks() {
        let p = ErosionParams::default();
        assert_eq!(p.check(), Ok(()));
        assert_eq!(p.smallest_wavelength(), 8.0);
        let m = 0.22 * 128.0 * (1.0 + 0.5 + 0.25 + 0.125 + 0.0625);
        assert!((p.magnitude() - m).abs() < 1e-9);
        let bad = ErosionParams {
            normalization: 1.5,
            ..p
        };
        assert_eq!(bad.check(), Err("normalization"));
        assert_eq!(
            Erosion::new(&bad, 1).err(),
            Some(OutOfRange("normalization"))
        );
    }

    #[test]
    fn skipped_cells_weigh_nothing() {
        let at_limit = (-2.0 * SKIP_SQUARED_DISTANCE).exp() - WEIGHT_FLOOR;
        assert!(at_limit < 0.0, "{at_limit}");
        // And the nearest pivot always counts.
        assert!((-2.0f64 * 2.0).exp() - WEIGHT_FLOOR > 0.0);
    }

    /// [`phacelle`] without skipping the cells of zero weight.
    fn phacelle_unskipped(key: u64, p: [f64; 2], dir: [f64; 2]) -> [f64; 2] {
        let (freq, normalization): (f64, f64) = (0.7, 0.5);
        let side = [-dir[1] * freq * TAU, dir[0] * freq * TAU];
        let (cx, cz) = (p[0].floor() as i64, p[1].floor() as i64);
        let frac = [p[0] - p[0].floor(), p[1] - p[1].floor()];
        let (mut sum, mut weight_sum) = ([0.0, 0.0], 0.0);
        for i in -1i64..=2 {
            let column = mix64(key.wrapping_add(cx.wrapping_add(i) as u64));
            for j in -1i64..=2 {
                let [jx, jz] = jitter(mix64(column.wrapping_add(cz.wrapping_add(j) as u64)));
                let v = [frac[0] - i as f64 - jx, frac[1] - j as f64 - jz];
                let weight = ((-(v[0] * v[0] + v[1] * v[1]) * 2.0).exp() - WEIGHT_FLOOR).max(0.0);
                weight_sum += weight;
                let (sin, cos) = (v[0] * side[0] + v[1] * side[1] + OFFSET_CYCLES * TAU).sin_cos();
                sum[0] += cos * weight;
                sum[1] += sin * weight;
            }
        }
        let w = [sum[0] / weight_sum, sum[1] / weight_sum];
        let m = (1.0 - normalization).max(length(w)).max(f64::MIN_POSITIVE);
        [w[0] / m, w[1] / m]
    }

    #[test]
    fn skipping_empty_cells_changes_no_bit() {
        let mut rng = SplitMix64::new(4);
        for _ in 0..20_000 {
            let p = [rng.range_f64(-1e8, 1e8), rng.range_f64(-1e8, 1e8)];
            let dir = normalize([rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0)]);
            let key = rng.next_u64();
            let (fast, _) = phacelle(key, p, dir, 0.7, OFFSET_CYCLES, 0.5);
            let slow = phacelle_unskipped(key, p, dir);
            assert_eq!(fast.map(f64::to_bits), slow.map(f64::to_bits), "at {p:?}");
        }
    }

    #[test]
    fn same_seed_same_bits_other_seed_differs() {
        let (a, b, c) = (filter(7), filter(7), filter(8));
        let mut differ = 0;
        for i in 0..200 {
            let (x, z) = (i as f64 * 13.7 - 900.0, i as f64 * -7.1 + 40.0);
            let (_, g, f) = cone(x, z);
            let (ea, eb, ec) = (
                a.apply(x, z, g, f),
                b.apply(x, z, g, f),
                c.apply(x, z, g, f),
            );
            assert_eq!(ea.height_offset.to_bits(), eb.height_offset.to_bits());
            assert_eq!(ea.ridge.to_bits(), eb.ridge.to_bits());
            assert_eq!(
                ea.gradient_offset.map(f64::to_bits),
                eb.gradient_offset.map(f64::to_bits)
            );
            differ += usize::from((ea.height_offset - ec.height_offset).abs() > 1e-6);
        }
        assert!(differ > 150, "{differ} of 200 differ");
    }

    #[test]
    fn zero_strength_changes_nothing() {
        let e = Erosion::new(
            &ErosionParams {
                strength: 0.0,
                ..ErosionParams::default()
            },
            3,
        )
        .expect("valid");
        for i in 0..100 {
            let (x, z) = (i as f64 * 9.3 - 400.0, i as f64 * 4.1 - 200.0);
            let (_, g, f) = cone(x, z);
            let r = e.apply(x, z, g, f);
            assert_eq!(r.height_offset, 0.0);
            assert_eq!(r.gradient_offset, [0.0, 0.0]);
            assert_eq!(r.magnitude, 0.0);
            assert_eq!(r.centred_offset(f), 0.0);
        }
    }

    #[test]
    fn flat_land_shifts_by_fade_target_times_magnitude() {
        let e = filter(5);
        for fade in [-1.0, -0.3, 0.0, 0.6, 1.0] {
            let r = e.apply(123.0, -456.0, [0.0, 0.0], fade);
            assert_eq!(r.magnitude, e.params().magnitude());
            assert!((r.height_offset - fade * r.magnitude).abs() < 1e-6, "{r:?}");
            assert!(r.centred_offset(fade).abs() < 1e-6);
            assert!((r.ridge - fade).abs() < 1e-6);
        }
    }

    #[test]
    fn carves_gullies_and_ridges_into_a_cone() {
        let e = filter(11);
        let m = e.params().magnitude();
        let (mut ridges, mut gullies) = (0, 0);
        for radius in [80.0, 120.0, 160.0] {
            let offsets: Vec<f64> = (0..720)
                .map(|k| {
                    let a = k as f64 * TAU / 720.0;
                    let (x, z) = (radius * a.cos(), radius * a.sin());
                    let (_, g, f) = cone(x, z);
                    let r = e.apply(x, z, g, f);
                    ridges += usize::from(r.ridge > 0.3);
                    gullies += usize::from(r.ridge < -0.3);
                    r.centred_offset(f)
                })
                .collect();
            let (_, std) = mean_std(&offsets);
            // Gullies around the ring: the offset varies by several blocks.
            assert!(
                std > 0.08 * m,
                "radius {radius}: std {std} of magnitude {m}"
            );
        }
        assert!(
            ridges > 100 && gullies > 100,
            "{ridges} ridges, {gullies} gullies"
        );
    }

    /// Mean |height offset| and the ridge's variance over a 64 x 64 grid, 23 blocks
    /// apart, on a plane tilted 0.7 blocks per block.
    fn grid_stats(e: &Erosion, x0: f64, z0: f64) -> (f64, f64) {
        let (mut offsets, mut ridges) = (Vec::new(), Vec::new());
        for i in 0..64 {
            for j in 0..64 {
                let r = e.apply(
                    x0 + i as f64 * 23.0,
                    z0 + j as f64 * 23.0,
                    [0.56, -0.42],
                    0.0,
                );
                offsets.push(r.height_offset.abs());
                ridges.push(r.ridge);
            }
        }
        (mean_std(&offsets).0, mean_std(&ridges).1.powi(2))
    }

    #[test]
    fn far_from_the_origin_looks_like_near_it() {
        for seed in [1, 2, 3] {
            let e = filter(seed);
            let (near_offset, near_ridge) = grid_stats(&e, 0.0, 0.0);
            let (far_offset, far_ridge) = grid_stats(&e, FAR, -FAR);
            assert!(
                near_offset > 2.0 && near_ridge > 0.05,
                "{near_offset} {near_ridge}"
            );
            let close = |a: f64, b: f64| (a / b - 1.0).abs() < 0.15;
            assert!(
                close(far_offset, near_offset),
                "{far_offset} vs {near_offset}"
            );
            assert!(close(far_ridge, near_ridge), "{far_ridge} vs {near_ridge}");
        }
    }

    #[test]
    fn pivots_do_not_repeat_far_out() {
        // The original's f32 hash gave one value for every cell from ~600 out.
        let key = filter(9).keys[4];
        for base in [0i64, 1 << 20, 1 << 31, -(1 << 33)] {
            let mut seen: Vec<[u64; 2]> = (0..64)
                .map(|k| {
                    let column = mix64(key.wrapping_add((base + k) as u64));
                    jitter(mix64(column.wrapping_add((-base) as u64))).map(f64::to_bits)
                })
                .collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 64);
        }
    }

    #[test]
    fn continuous_across_cell_borders() {
        let e = filter(21);
        let p = e.params();
        let mut worst: f64 = 0.0;
        // Points 0.01 blocks apart either side of the borders of every octave's cells.
        let mut freq = 1.0 / (p.scale * p.cell_scale);
        for _ in 0..p.octaves {
            for (x0, z) in [(0.0, 37.3), (FAR, -FAR + 11.9)] {
                for k in 1..40 {
                    let border = ((x0 * freq).round() + k as f64) / freq;
                    let (a, b) = (border - 0.005, border + 0.005);
                    assert_ne!((a * freq).floor(), (b * freq).floor());
                    let g = [0.5 + 0.3 * (k as f64).sin(), 0.4];
                    let (ra, rb) = (e.apply(a, z, g, 0.2), e.apply(b, z, g, 0.2));
                    worst = worst.max((ra.height_offset - rb.height_offset).abs());
                    assert!((ra.ridge - rb.ridge).abs() < 0.2, "{ra:?} {rb:?}");
                }
            }
            freq *= p.lacunarity;
        }
        assert!(worst < 0.1, "a jump of {worst} blocks over 0.01 blocks");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn outputs_are_bounded(
            seed in any::<u64>(),
            x in -1e9f64..1e9,
            z in -1e9f64..1e9,
            gx in -3.0f64..3.0,
            gz in -3.0f64..3.0,
            fade in -2.0f64..2.0,
            strength in 0.0f64..0.5,
            gully_weight in 0.0f64..=1.0,
            normalization in 0.0f64..=1.0,
        ) {
            let params = ErosionParams { strength, gully_weight, normalization, ..ErosionParams::default() };
            let r = Erosion::new(&params, seed).expect("valid").apply(x, z, [gx, gz], fade);
            let m = params.magnitude();
            prop_assert_eq!(r.magnitude, m);
            prop_assert!(r.height_offset.abs() <= m * (1.0 + 1e-12), "{:?}", r);
            prop_assert!(r.centred_offset(fade).abs() <= 2.0 * m * (1.0 + 1e-12));
            prop_assert!(r.ridge.abs() <= 1.0 + 1e-12, "{:?}", r);
            prop_assert!(r.gradient_offset.iter().all(|v| v.is_finite()));
        }

        #[test]
        fn neighbours_a_hundredth_apart_stay_close(
            seed in any::<u64>(),
            x in -1.07e9f64..1.07e9,
            z in -1.07e9f64..1.07e9,
            angle in 0.0f64..TAU,
            gx in -1.5f64..1.5,
            gz in -1.5f64..1.5,
            fade in -1.0f64..=1.0,
        ) {
            let e = filter(seed);
            let (dx, dz) = (0.01 * angle.cos(), 0.01 * angle.sin());
            let (a, b) = (e.apply(x, z, [gx, gz], fade), e.apply(x + dx, z + dz, [gx, gz], fade));
            // The stripes' slopes add up to at most about 7 blocks per block with the
            // defaults (0.07 over 0.01 blocks, the most seen in 800,000 samples).
            prop_assert!((a.height_offset - b.height_offset).abs() < 0.2, "{:?} {:?}", a, b);
            prop_assert!((a.ridge - b.ridge).abs() < 0.2, "{:?} {:?}", a, b);
        }
    }
}
