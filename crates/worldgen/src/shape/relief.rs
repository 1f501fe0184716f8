//! Mountain ranges (generator version 4): the lift a column's `offset` gets from the
//! ranges, their erosion and their jagged peaks, on top of the version-3 shape
//! (see [`ReliefConfig`] for the formula).
//!
//! ```text
//!   fields (c, e, w)          ridge noise n (direct,     erosion filter        jag noise
//!   bilinear, 32 blocks)      every lattice column)      (per lattice column)  (high ground)
//!          |                          |                          |                  |
//!   mask = ranges(e)           crest = (1 - |n|/0.12)^k   gullies along the     spikes,
//!        * inland(c)                  |                   crest's gradient      negative
//!        * valley(w)  -------> lift = mask * height * crest  ----> + mask * gullies  ---> + half
//! ```
//!
//! Every term is a pure function of the world column (the mask is computed at the
//! fields' coarse points, fixed in world space, and interpolated by Catmull-Rom, whose
//! gradient has no kinks; the noises are evaluated at the column itself), so the
//! lift is the same from every chunk, every level of detail and every thread. The
//! erosion filter needs a continuous gradient: it is taken from the crest alone (the
//! ridge noise is smooth, central differences [`GRADIENT_STEP`] blocks each way), and
//! the mask only scales it, so the bilinear fields' kinks at their grid lines never
//! turn a gully.

use crate::config::world::{ReliefConfig, ShapeConfig, Spline};
use crate::mix::SplitMix64;
use crate::noise::erosion::Erosion;
use crate::noise::fbm::{Fbm, NoiseKind};
use crate::noise::open_simplex::lanes::{Cell, LANES};
use crate::shape::climate::{CoarseGrid, ColumnShape, Fields, Lift, smoothstep};

/// Half-width of a crest on the ridge noise: the crest falls to 0 where `|n|` reaches
/// it.
const CREST_WIDTH: f64 = 0.12;

/// Octaves of the ridge noise.
const RIDGE_OCTAVES: usize = 3;
/// Octaves of the jagged peaks' noise.
const JAG_OCTAVES: usize = 3;

/// How much the crest's |n| is rounded off, on the ridge noise: the erosion filter
/// sharpens the ridge again.
const CREST_ROUNDING: f64 = 0.15 * CREST_WIDTH;

/// Blocks each way of the central differences giving the crest's gradient: the
/// lattice spacing.
const GRADIENT_STEP: f64 = 4.0;

/// How far the jag noise is spread before its negative half is halved (a 3-octave
/// fBm seldom leaves `[-0.6, 0.6]`).
const JAG_SPREAD: f64 = 1.6;

/// Noise salts of the ridge and jag noises (the shape's fields use 10 to 14).
const RIDGE_SALT: u64 = 20;
const JAG_SALT: u64 = 21;
/// Separates the ranges' trend from the other draws of a world seed.
const TREND_SALT: u64 = 0x7472_656e_6434; // "trend4"

/// What the lattice says of the ground at a block column: the expected surface's
/// height above sea level and slope, and the erosion's ridge map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ground {
    /// Height above sea level, in blocks.
    pub height: f64,
    /// Blocks per block.
    pub slope: f64,
    /// Near -1 in a gully, near 1 on an eroded ridge.
    pub gully: f64,
}

impl Ground {
    /// The ground at fraction `(tx, tz)` of a cell `step` blocks wide whose corners
    /// are shaped `c` (`[north-west, north-east, south-west, south-east]`): values
    /// interpolated bilinearly, the slope that of the bilinear surface there.
    pub(crate) fn between(c: [&ColumnShape; 4], tx: f64, tz: f64, step: f64) -> Self {
        let lerp = |a: f64, b: f64, t: f64| a + (b - a) * t;
        let dx = lerp(c[1].offset - c[0].offset, c[3].offset - c[2].offset, tz) / step;
        let dz = lerp(c[2].offset - c[0].offset, c[3].offset - c[1].offset, tx) / step;
        let at = |f: fn(&ColumnShape) -> f64| {
            lerp(lerp(f(c[0]), f(c[1]), tx), lerp(f(c[2]), f(c[3]), tx), tz)
        };
        Self {
            height: at(|s| s.height),
            slope: (dx * dx + dz * dz).sqrt(),
            gully: at(|s| s.gully),
        }
    }
}

/// A seeded [`ReliefConfig`], ready to lift columns.
#[derive(Clone, Debug)]
pub(crate) struct Relief {
    cfg: ReliefConfig,
    /// The shape's continentalness-to-height spline (coasts stay low).
    height: Spline,
    /// Half-width of a river's channel on the weirdness noise.
    river_width: f64,
    ridge: Fbm,
    /// The ranges' trend: a unit vector `[x, z]` drawn from the seed.
    trend: [f64; 2],
    jag: Fbm,
    erosion: Option<Erosion>,
    /// The world seed, for the columns' dither (see `Relief::face`, a surface rule).
    pub(crate) seed: u64,
}

impl Relief {
    /// The relief of a shape with relief, for world seed `seed`. `None` without relief,
    /// or (which validation prevents) with erosion settings the filter refuses.
    pub(crate) fn new(shape: &ShapeConfig, seed: u64) -> Option<Self> {
        let cfg = shape.relief.as_deref()?.clone();
        let erosion = match &cfg.erosion {
            Some(e) => Some(Erosion::new(&e.params(), seed).ok()?),
            None => None,
        };
        let mut rng = SplitMix64::new(seed ^ TREND_SALT);
        let trend = loop {
            // A direction drawn evenly from the disc (square roots are exact, unlike
            // a sine of a drawn angle).
            let (a, b) = (rng.range_f64(-1.0, 1.0), rng.range_f64(-1.0, 1.0));
            let r = (a * a + b * b).sqrt();
            if (0.1..=1.0).contains(&r) {
                break [a / r, b / r];
            }
        };
        Some(Self {
            trend,
            ridge: Fbm::of_scale(
                NoiseKind::OpenSimplex,
                seed,
                RIDGE_SALT,
                cfg.range_scale,
                RIDGE_OCTAVES as u32,
            ),
            jag: Fbm::of_scale(
                NoiseKind::OpenSimplex,
                seed,
                JAG_SALT,
                cfg.jag_scale,
                JAG_OCTAVES as u32,
            ),
            height: shape.height.clone(),
            river_width: shape.rivers.width,
            erosion,
            cfg,
            seed,
        })
    }

    /// Stores in `grid` how much of the ranges stands at each of its points, for
    /// [`Relief::lift`] to interpolate.
    pub(crate) fn fill_masks(&self, grid: &mut CoarseGrid) {
        grid.masks = grid.points().iter().map(|f| self.mask(f)).collect();
    }

    /// How much of the ranges stands at a column with fields `f`, in `[0, 1]`.
    fn mask(&self, f: &Fields) -> f64 {
        let inland = smoothstep((self.height.at(f.c) - 2.0) / 8.0);
        let valley = smoothstep((f.w.abs() - self.river_width) / self.cfg.valley_width);
        self.cfg.ranges.at(f.e).clamp(0.0, 1.0) * inland * valley
    }

    /// The crest profile at a column: 1 on a ridge line, 0 between ranges.
    fn crest(&self, x: f64, z: f64) -> f64 {
        let [along, across] = self.ridge_at(x, z);
        self.profile(self.ridge.get2(along, across))
    }

    /// Where column `(x, z)` lies in the ridge noise: along the trend the noise is
    /// stretched, so ranges run that way.
    fn ridge_at(&self, x: f64, z: f64) -> [f64; 2] {
        let [tx, tz] = self.trend;
        let (along, across) = (x * tx + z * tz, z * tx - x * tz);
        [along / self.cfg.elongation, across]
    }

    /// The crest profile where the ridge noise is `n`.
    fn profile(&self, n: f64) -> f64 {
        // A rounded |n|: a crease would flip the gradient across the ridge line, and
        // the erosion filter's stripes (which follow the gradient) with it.
        let n = (n * n + CREST_ROUNDING * CREST_ROUNDING).sqrt() - CREST_ROUNDING;
        (1.0 - n / CREST_WIDTH).max(0.0).powf(self.cfg.sharpness)
    }

    /// [`Relief::crest`] at [`LANES`] columns, bit for bit, their noise at once.
    fn crests(&self, x: [f64; LANES], z: [f64; LANES]) -> [f64; LANES] {
        let at: [[f64; 2]; LANES] = std::array::from_fn(|l| self.ridge_at(x[l], z[l]));
        let mut cells = [Cell::NONE; RIDGE_OCTAVES];
        let n = self
            .ridge
            .get2_lanes(&at.map(|a| a[0]), &at.map(|a| a[1]), &mut cells);
        n.map(|n| self.profile(n))
    }

    /// [`Relief::lift`] without the erosion filter at [`LANES`] columns `(x[l], z)`
    /// inside `grid` (whose masks are filled): the same lifts, bit for bit, their
    /// noises [`LANES`] at a time.
    pub(crate) fn lifts_uneroded(
        &self,
        x: [i32; LANES],
        z: i32,
        grid: &CoarseGrid,
    ) -> [Lift; LANES] {
        let mask = x.map(|x| grid.smooth(&grid.masks, x, z).clamp(0.0, 1.0));
        let mut lifts = [Lift::default(); LANES];
        if mask.iter().all(|&m| m <= 0.0) {
            return lifts;
        }
        let (x, z) = (x.map(f64::from), [z as f64; LANES]);
        let crest = self.crests(x, z);
        for l in (0..LANES).filter(|&l| mask[l] > 0.0) {
            lifts[l].height = mask[l] * self.cfg.range_height * crest[l];
        }
        let high = lifts.map(|lift| self.high(&lift));
        if (0..LANES).any(|l| mask[l] > 0.0 && high[l] > 0.0) {
            let mut cells = [Cell::NONE; JAG_OCTAVES];
            let j = self.jag.get2_lanes(&x, &z, &mut cells);
            for l in (0..LANES).filter(|&l| mask[l] > 0.0 && high[l] > 0.0) {
                lifts[l].height += self.jagged(high[l], j[l]);
            }
        }
        lifts
    }

    /// How high up the ranges a lift stands, for the jagged peaks: 0 below a third
    /// of their height (and without jagged peaks), 1 from four fifths.
    fn high(&self, lift: &Lift) -> f64 {
        if self.cfg.jaggedness > 0.0 && self.cfg.range_height > 0.0 {
            smoothstep((lift.height / self.cfg.range_height - 0.3) / 0.5)
        } else {
            0.0
        }
    }

    /// What the jagged peaks add `high` up the ranges ([`Relief::high`]) where
    /// their noise is `j`: spread, the dips half as deep as the spikes are high.
    fn jagged(&self, high: f64, j: f64) -> f64 {
        let j = j * JAG_SPREAD;
        let j = if j > 0.0 { j } else { 0.5 * j };
        self.cfg.jaggedness * high * j
    }

    /// The relief's layers at column `(x, z)` inside `grid` (whose masks are
    /// filled): how much of the ranges stands here, the crest profile, how much the
    /// jagged-peaks noise roughens it, and the erosion filter's ridge map.
    pub(crate) fn layers(&self, x: i32, z: i32, grid: &CoarseGrid) -> [f64; 4] {
        let mask = grid.smooth(&grid.masks, x, z).clamp(0.0, 1.0);
        let crest = self.crest(x as f64, z as f64);
        let lift = self.lift(x, z, grid, true);
        let jag = if self.cfg.jaggedness > 0.0 && self.cfg.range_height > 0.0 {
            smoothstep((mask * crest - 0.3) / 0.5)
        } else {
            0.0
        };
        [mask, crest, jag, lift.gully]
    }

    /// The erosion filter's gullies on a slope that rises `slope` blocks a block
    /// towards `rises` (a unit vector) at column `(x, z)` inside `grid` (whose masks
    /// are filled), as much as the ranges stand there: the height offset (gullies
    /// only, never above 0) and the ridge map. `None` outside the ranges or without
    /// the filter. Version 7 runs it down the valley walls rivers cut through the
    /// ranges, so the gullies there lead down to the river.
    pub(crate) fn gullies_down(
        &self,
        x: i32,
        z: i32,
        grid: &CoarseGrid,
        rises: [f64; 2],
        slope: f64,
    ) -> Option<(f64, f64)> {
        let erosion = self.erosion.as_ref()?;
        let mask = grid.smooth(&grid.masks, x, z).clamp(0.0, 1.0);
        if mask <= 0.0 {
            return None;
        }
        let e = erosion.apply(x as f64, z as f64, rises.map(|r| r * slope), 0.0);
        Some((mask * e.height_offset.min(0.0), mask * e.ridge))
    }

    /// The lift of column `(x, z)` inside `grid` (whose masks are filled). With
    /// `eroded` false the erosion filter is left out (a biome's altitude: cheaper,
    /// within its magnitude).
    pub(crate) fn lift(&self, x: i32, z: i32, grid: &CoarseGrid, eroded: bool) -> Lift {
        // Smoothly interpolated: the mask scales the whole lift, so a kink in it
        // would show as a crease across the mountains at every grid line.
        let mask = grid.smooth(&grid.masks, x, z).clamp(0.0, 1.0);
        if mask <= 0.0 {
            return Lift::default();
        }
        let (x, z) = (x as f64, z as f64);
        let amplitude = mask * self.cfg.range_height;
        let crest = self.crest(x, z);
        let mut lift = Lift {
            height: amplitude * crest,
            gully: 0.0,
        };
        if let (true, Some(erosion)) = (eroded, &self.erosion) {
            // The crest's slope from four points around, their noise at once.
            let (d, g) = (2.0 * GRADIENT_STEP, GRADIENT_STEP);
            let around = [[x + g, z], [x - g, z], [x, z + g], [x, z - g]];
            let c = self.crests(around.map(|[x, _]| x), around.map(|[_, z]| z));
            let gradient = [(c[0] - c[1]) / d, (c[2] - c[3]) / d].map(|g| g * amplitude);
            // Fade target 0: flat ground (the rounded crest, the foot of a range)
            // stays where it is, slopes get gullies and ridges around their height.
            // Leaning peaks up or flanks down instead would raise a wall along the
            // crest, where the slope and with it the erosion fades out within a few
            // blocks.
            let e = erosion.apply(x, z, gradient, 0.0);
            lift.height += mask * e.height_offset;
            lift.gully = mask * e.ridge;
        }
        let high = self.high(&lift);
        if high > 0.0 {
            lift.height += self.jagged(high, self.jag.get2(x, z));
        }
        lift
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::world::GeneratorConfig;
    use crate::shape::climate::FieldNoise;

    /// The lifts made in lanes (the drainage network's land) are the lifts made one
    /// at a time, bit for bit, in and out of the ranges and on the jagged peaks.
    #[test]
    fn lifts_in_lanes_are_the_lifts_one_at_a_time() {
        let cfg = crate::config::presets::builtin("continents").unwrap();
        let GeneratorConfig::Density(d) = &cfg.generator else {
            panic!("continents is a density world")
        };
        let shape = d.shape.as_ref().unwrap();
        let relief = Relief::new(shape, 7).unwrap();
        let fields = FieldNoise::new(7, Some(shape), None).with_margin();
        let (x0, z0, side) = (-6000, 2000, 4096);
        let mut grid = fields.grid(x0, z0, x0 + side, z0 + side);
        relief.fill_masks(&mut grid);
        let (mut lifted, mut jagged) = (0, 0);
        for z in (z0..=z0 + side).step_by(64) {
            for x in (x0..x0 + side).step_by(4 * 16) {
                let xs = std::array::from_fn(|l| x + 16 * l as i32);
                let lanes = relief.lifts_uneroded(xs, z, &grid);
                for (&x, lane) in xs.iter().zip(lanes) {
                    let one = relief.lift(x, z, &grid, false);
                    assert_eq!(lane.height.to_bits(), one.height.to_bits(), "({x}, {z})");
                    assert_eq!(lane.gully.to_bits(), one.gully.to_bits(), "({x}, {z})");
                    lifted += (one.height != 0.0) as usize;
                    jagged += (relief.high(&one) > 0.0) as usize;
                }
            }
        }
        assert!(
            lifted > 200 && jagged > 20,
            "{lifted} lifted, {jagged} jagged"
        );
    }
}
