//! Relief statistics of a square of a world's surface, for `terravox map --stats`: the
//! measuring stick for mountains (how high, how much, what shape, how steep) and for
//! the lowlands that must stay.
//!
//! The surface is sampled on a grid every `step` blocks ([`STEP`], 8, on the command
//! line): `n = size_blocks / step` samples a side (at least 1) centred as a map of `n`
//! pixels at `step` blocks a pixel is, plus a one-sample border for the slopes. `h` is
//! a sample's [`Generator::surface_height`] (its highest solid block) less the sea
//! level; rows are sampled by the caller's [`ForEach`] (in parallel where it has
//! threads) and the figures do not depend on how they were run. Definitions, all over
//! the `n x n` samples:
//!
//! ```text
//! land        h >= 0 (the map's rule: water covers surfaces below sea level)
//! heights     median, p90 (nearest rank) and highest h of the land; 0 without land
//! high        h >= HIGH (64); as a share of the map and of the land
//! mountain    a 4-connected group of high samples of at least MIN_AREA_SAMPLES (16);
//!   areas     their count, their share of the land, the largest in km2
//! elongation  of one area: sqrt(l1 / l2), l1 >= l2 the eigenvalues of the 2x2
//!             covariance of its samples' coordinates, each sample taken as a unit
//!             square (+1/12 on the diagonal, so a line of k samples gives k and a
//!             disc about 1); the areas' mean weighted by area; 0 without areas
//! steep       land where |grad h| > 1 (45 degrees), by central differences:
//!             |grad h|^2 = ((h[x+1]-h[x-1]) / 2s)^2 + ((h[z+1]-h[z-1]) / 2s)^2, s = step
//! relief      per square of RELIEF_SQUARE (128) blocks (tiled from the north-west
//!             corner, partial squares at the far edges included) holding land: the
//!             highest minus the lowest h of its samples, the sea floor's included;
//!             median and p90 (nearest rank); 0 without land
//! lowland     land with h <= LOWLAND (16), as a share of the land
//! ```

use std::fmt;

use crate::generator::Generator;
use crate::query::{ForEach, collect};

/// Blocks between two samples on the command line: the figures' definitions (slope
/// over 8 blocks, areas of 16 samples) are made for it.
pub const STEP: u32 = 8;
/// Blocks above the sea from which a sample counts as high, the stuff of mountains.
pub const HIGH: i32 = 64;
/// The fewest 4-connected high samples that make a mountain area.
pub const MIN_AREA_SAMPLES: usize = 16;
/// The side of the squares whose local relief is measured, in blocks.
pub const RELIEF_SQUARE: u32 = 128;
/// Land at most this many blocks above the sea is lowland.
pub const LOWLAND: i32 = 16;
/// The most samples a side the command line measures (memory and time grow with
/// its square: 16.8 million samples take about 150 MB).
pub const MAX_SAMPLES: u32 = 4096;

/// The relief figures of a square of the world (definitions in the module doc).
/// Shares are fractions in `0..=1`; heights are blocks above sea level.
#[derive(Clone, Debug, PartialEq)]
pub struct ReliefStats {
    /// Blocks between samples.
    pub step: u32,
    /// Samples a side.
    pub samples: u32,
    /// Share of the map that is land.
    pub land_fraction: f64,
    /// Median height of the land above the sea (0 without land).
    pub land_height_median: i32,
    /// 90th percentile of the land's height above the sea (0 without land).
    pub land_height_p90: i32,
    /// The highest land sample's height above the sea (0 without land).
    pub highest: i32,
    /// Share of the map at least [`HIGH`] blocks above the sea.
    pub high_map_fraction: f64,
    /// Share of the land at least [`HIGH`] blocks above the sea.
    pub high_land_fraction: f64,
    /// How many mountain areas: 4-connected high groups of at least
    /// [`MIN_AREA_SAMPLES`] samples.
    pub mountain_areas: usize,
    /// Share of the land in mountain areas.
    pub mountain_land_fraction: f64,
    /// The largest mountain area in km² (0 without areas).
    pub largest_mountain_km2: f64,
    /// Area-weighted elongation of the mountain areas (0 without areas).
    pub elongation: f64,
    /// Share of the land steeper than 45 degrees.
    pub steep_land_fraction: f64,
    /// Median local relief of the [`RELIEF_SQUARE`] squares with land (0 without).
    pub relief_median: i32,
    /// 90th percentile of that local relief (0 without land).
    pub relief_p90: i32,
    /// Share of the land at most [`LOWLAND`] blocks above the sea.
    pub lowland_fraction: f64,
}

/// The targets of the "mountains worth climbing" issue for `continents`.
mod target {
    pub(super) const HIGHEST: i32 = 200;
    pub(super) const MOUNTAIN_LAND: f64 = 0.12;
    pub(super) const ELONGATION: f64 = 2.0;
    pub(super) const STEEP_LAND: f64 = 0.03;
    pub(super) const RELIEF_P90: i32 = 80;
    pub(super) const LOWLAND: f64 = 0.25;
}

/// `"met"` or `"not met"`.
pub(super) fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "not met" }
}

/// A share as a percentage.
fn pct(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

impl fmt::Display for ReliefStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let no_land = self.land_fraction == 0.0;
        let no_areas = self.mountain_areas == 0;
        let side = self.samples as u64 * self.step as u64;
        writeln!(
            f,
            "relief of {side} x {side} blocks, heights every {} blocks ({n} x {n} samples):",
            self.step,
            n = self.samples
        )?;
        let mut line = |label: &str, value: String, target: Option<(String, bool)>| {
            let label = format!("{label}:");
            match target {
                Some((t, ok)) => writeln!(f, "  {label:<40} {value}   (target {t}: {})", met(ok)),
                None => writeln!(f, "  {label:<40} {value}"),
            }
        };
        line(
            "land",
            format!("{} of the map", pct(self.land_fraction)),
            None,
        )?;
        line(
            "land height above sea level",
            if no_land {
                "none (no land)".into()
            } else {
                format!(
                    "median {} / p90 {} / highest {} blocks",
                    self.land_height_median, self.land_height_p90, self.highest
                )
            },
            Some((
                format!("highest >= {}", target::HIGHEST),
                self.highest >= target::HIGHEST,
            )),
        )?;
        line(
            &format!("{HIGH}+ blocks above the sea"),
            format!(
                "{} of the map, {} of the land",
                pct(self.high_map_fraction),
                pct(self.high_land_fraction)
            ),
            None,
        )?;
        line(
            &format!("mountain areas ({HIGH}+, {MIN_AREA_SAMPLES}+ samples)"),
            if no_areas {
                "none".into()
            } else {
                format!(
                    "{}, the biggest {:.2} km2, {} of the land",
                    self.mountain_areas,
                    self.largest_mountain_km2,
                    pct(self.mountain_land_fraction)
                )
            },
            Some((
                format!(">= {} of the land", pct(target::MOUNTAIN_LAND)),
                self.mountain_land_fraction >= target::MOUNTAIN_LAND,
            )),
        )?;
        line(
            "mountain elongation (area-weighted)",
            if no_areas {
                "none".into()
            } else {
                format!("{:.2}", self.elongation)
            },
            Some((
                format!(">= {:.1}", target::ELONGATION),
                self.elongation >= target::ELONGATION,
            )),
        )?;
        line(
            "land steeper than 45 degrees",
            pct(self.steep_land_fraction),
            Some((
                format!(">= {}", pct(target::STEEP_LAND)),
                self.steep_land_fraction >= target::STEEP_LAND,
            )),
        )?;
        line(
            &format!("local relief ({RELIEF_SQUARE}-block squares)"),
            if no_land {
                "none (no land)".into()
            } else {
                format!(
                    "median {} / p90 {} blocks",
                    self.relief_median, self.relief_p90
                )
            },
            Some((
                format!("p90 >= {}", target::RELIEF_P90),
                self.relief_p90 >= target::RELIEF_P90,
            )),
        )?;
        line(
            &format!("land within {LOWLAND} blocks of sea level"),
            pct(self.lowland_fraction),
            Some((
                format!(">= {}", pct(target::LOWLAND)),
                self.lowland_fraction >= target::LOWLAND,
            )),
        )
    }
}

/// The relief figures of the `size_blocks`-wide square centred on column `centre`
/// (`[x, z]`), sampling `generator`'s surface every `step` blocks (0 counts as 1).
/// Takes `(size_blocks / step + 2)²` column heights, a row of them a job run by
/// `rows`, and memory in proportion; callers bound the size ([`MAX_SAMPLES`]).
/// Columns outside the world are the nearest inside it.
pub fn relief_stats(
    generator: &Generator,
    centre: [i32; 2],
    size_blocks: u32,
    step: u32,
    rows: ForEach<'_>,
) -> ReliefStats {
    stats_of(
        |x, z| generator.surface_height(x, z),
        generator.sea_level(),
        centre,
        size_blocks,
        step,
        rows,
    )
}

/// Samples a side for a square `size_blocks` wide at `step` blocks a sample.
pub fn samples_per_side(size_blocks: u32, step: u32) -> u32 {
    (size_blocks / step.max(1)).max(1)
}

/// [`relief_stats`] of any surface: `height(x, z)` is the surface height of column
/// `(x, z)`, `sea` the sea level; `rows` runs a row of samples a job.
fn stats_of(
    height: impl Fn(i32, i32) -> i32 + Sync,
    sea: i32,
    centre: [i32; 2],
    size_blocks: u32,
    step: u32,
    rows: ForEach<'_>,
) -> ReliefStats {
    let step = step.max(1);
    let n = samples_per_side(size_blocks, step) as usize;
    // The grid with its one-sample border: sample (i, j) of the map is cell
    // (i + 1, j + 1); heights are relative to the sea.
    let g = n + 2;
    let column = |c: i32, k: usize| {
        let v = c as i64 + (k as i64 - 1 - (n / 2) as i64) * step as i64;
        v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    };
    let h: Vec<i32> = collect(rows, g, |gz| {
        let z = column(centre[1], gz);
        (0..g)
            .map(|gx| height(column(centre[0], gx), z).saturating_sub(sea))
            .collect::<Vec<_>>()
    })
    .concat();
    let at = |i: usize, j: usize| h[(j + 1) * g + i + 1];
    let samples = n * n;

    let mut land: Vec<i32> = Vec::new();
    let (mut high, mut high_land, mut steep, mut lowland) = (0usize, 0usize, 0usize, 0usize);
    let limit = (2 * step as i64).pow(2);
    for j in 0..n {
        for i in 0..n {
            let v = at(i, j);
            high += usize::from(v >= HIGH);
            if v < 0 {
                continue;
            }
            land.push(v);
            high_land += usize::from(v >= HIGH);
            lowland += usize::from(v <= LOWLAND);
            // Neighbours in the bordered grid: cell (i + 1, j + 1) and its four.
            let (c, r) = (i + 1, j + 1);
            let dx = h[r * g + c + 1] as i64 - h[r * g + c - 1] as i64;
            let dz = h[(r + 1) * g + c] as i64 - h[(r - 1) * g + c] as i64;
            steep += usize::from(dx * dx + dz * dz > limit);
        }
    }
    let share = |k: usize, of: usize| if of == 0 { 0.0 } else { k as f64 / of as f64 };
    let land_count = land.len();
    land.sort_unstable();

    let areas = mountain_areas(n, |i, j| at(i, j) >= HIGH);
    let in_areas: usize = areas.iter().map(|a| a.samples).sum();
    let largest = areas.iter().map(|a| a.samples).max().unwrap_or(0);
    let elongation = if in_areas == 0 {
        0.0
    } else {
        areas
            .iter()
            .map(|a| a.samples as f64 * a.elongation)
            .sum::<f64>()
            / in_areas as f64
    };

    // Local relief of the squares with land.
    let q = (RELIEF_SQUARE / step).max(1) as usize;
    let mut reliefs = Vec::new();
    for sj in (0..n).step_by(q) {
        for si in (0..n).step_by(q) {
            let (mut lo, mut hi, mut has_land) = (i32::MAX, i32::MIN, false);
            for j in sj..(sj + q).min(n) {
                for i in si..(si + q).min(n) {
                    let v = at(i, j);
                    has_land |= v >= 0;
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
            if has_land {
                reliefs.push(hi - lo);
            }
        }
    }
    reliefs.sort_unstable();

    let block_area = step as f64 * step as f64;
    ReliefStats {
        step,
        samples: n as u32,
        land_fraction: share(land_count, samples),
        land_height_median: percentile(&land, 0.5),
        land_height_p90: percentile(&land, 0.9),
        highest: land.last().copied().unwrap_or(0),
        high_map_fraction: share(high, samples),
        high_land_fraction: share(high_land, land_count),
        mountain_areas: areas.len(),
        mountain_land_fraction: share(in_areas, land_count),
        largest_mountain_km2: largest as f64 * block_area / 1e6,
        elongation,
        steep_land_fraction: share(steep, land_count),
        relief_median: percentile(&reliefs, 0.5),
        relief_p90: percentile(&reliefs, 0.9),
        lowland_fraction: share(lowland, land_count),
    }
}

/// The nearest-rank percentile `p` (in `0..=1`) of `sorted`; 0 if it is empty.
fn percentile(sorted: &[i32], p: f64) -> i32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// One mountain area.
#[derive(Clone, Copy, Debug)]
struct Area {
    samples: usize,
    elongation: f64,
}

/// The 4-connected groups of at least [`MIN_AREA_SAMPLES`] samples of an `n x n` grid
/// where `high(i, j)`, in the order of their first sample (row by row).
fn mountain_areas(n: usize, high: impl Fn(usize, usize) -> bool) -> Vec<Area> {
    let mut seen = vec![false; n * n];
    let mut stack = Vec::new();
    let mut areas = Vec::new();
    for start in 0..n * n {
        if seen[start] || !high(start % n, start / n) {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        // Moments relative to the first sample, for accuracy.
        let (oi, oj) = ((start % n) as i64, (start / n) as i64);
        let (mut k, mut si, mut sj, mut sii, mut sjj, mut sij) =
            (0i64, 0i64, 0i64, 0i64, 0i64, 0i64);
        while let Some(c) = stack.pop() {
            let (i, j) = (c % n, c / n);
            let (di, dj) = (i as i64 - oi, j as i64 - oj);
            k += 1;
            si += di;
            sj += dj;
            sii += di * di;
            sjj += dj * dj;
            sij += di * dj;
            let mut visit = |ni: usize, nj: usize| {
                let nc = nj * n + ni;
                if !seen[nc] && high(ni, nj) {
                    seen[nc] = true;
                    stack.push(nc);
                }
            };
            if i > 0 {
                visit(i - 1, j);
            }
            if i + 1 < n {
                visit(i + 1, j);
            }
            if j > 0 {
                visit(i, j - 1);
            }
            if j + 1 < n {
                visit(i, j + 1);
            }
        }
        if (k as usize) < MIN_AREA_SAMPLES {
            continue;
        }
        let kf = k as f64;
        let (mi, mj) = (si as f64 / kf, sj as f64 / kf);
        // Covariance of the area as unit squares: of the centres, plus 1/12 each way.
        let a = sii as f64 / kf - mi * mi + 1.0 / 12.0;
        let c = sjj as f64 / kf - mj * mj + 1.0 / 12.0;
        let b = sij as f64 / kf - mi * mj;
        let mean = (a + c) / 2.0;
        let d = (((a - c) / 2.0).powi(2) + b * b).sqrt();
        let (l1, l2) = (mean + d, (mean - d).max(1.0 / 12.0));
        areas.push(Area {
            samples: k as usize,
            elongation: (l1 / l2).sqrt(),
        });
    }
    areas
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::world::WorldConfig;
    use crate::query::sequential;

    const SEA: i32 = 40;

    /// Stats of `height` over 1024 blocks around the origin, every 8 blocks.
    fn stats(height: impl Fn(i32, i32) -> i32 + Sync) -> ReliefStats {
        stats_of(height, SEA, [0, 0], 1024, STEP, &sequential)
    }

    fn radius(x: i32, z: i32) -> f64 {
        ((x as f64).powi(2) + (z as f64).powi(2)).sqrt()
    }

    #[test]
    fn a_cone_is_one_round_steep_mountain() {
        // Rises 2 blocks a block to 280 above the sea; the sea floor 20 below.
        let s = stats(|x, z| SEA - 20 + (300.0 - 2.0 * radius(x, z)).max(0.0) as i32);
        assert_eq!(s.samples, 128);
        assert_eq!(s.highest, 280);
        assert_eq!(s.mountain_areas, 1);
        assert!(s.elongation > 0.95 && s.elongation < 1.1, "{s:?}");
        // Land: r <= 140; high: r <= 108. About (108/140)^2 of the land is high.
        assert!((s.high_land_fraction - 0.595).abs() < 0.05, "{s:?}");
        assert_eq!(s.mountain_land_fraction, s.high_land_fraction);
        assert!(s.steep_land_fraction > 0.95, "{s:?}");
        // Squares with land span the cone: up to 280 blocks of relief.
        assert!(s.relief_p90 >= 200 && s.relief_median > 0, "{s:?}");
        assert!(
            s.lowland_fraction > 0.0 && s.lowland_fraction < 0.3,
            "{s:?}"
        );
    }

    #[test]
    fn a_long_ridge_is_elongated() {
        // 800 blocks long along x, high within 56 blocks of its crest.
        let s = stats(|x, z| {
            if x.abs() < 400 {
                SEA + 120 - z.abs()
            } else {
                SEA - 10
            }
        });
        assert_eq!(s.mountain_areas, 1);
        // 99 x 15 samples: about 99 / 15.
        assert!(s.elongation > 5.0 && s.elongation < 8.0, "{s:?}");
        assert!((s.largest_mountain_km2 - 99.0 * 15.0 * 64.0 / 1e6).abs() < 0.01);
        assert_eq!(s.highest, 120);
    }

    #[test]
    fn a_plain_at_sea_level_is_all_lowland_and_flat() {
        let s = stats(|_, _| SEA);
        assert_eq!(s.land_fraction, 1.0);
        assert_eq!([s.land_height_median, s.land_height_p90, s.highest], [0; 3]);
        assert_eq!([s.relief_median, s.relief_p90], [0, 0]);
        assert_eq!(s.mountain_areas, 0);
        assert_eq!(s.elongation, 0.0);
        assert_eq!(s.steep_land_fraction, 0.0);
        assert_eq!(s.lowland_fraction, 1.0);
        let text = s.to_string();
        let areas = text
            .lines()
            .find(|l| l.contains("mountain areas (64+, 16+ samples):"));
        assert!(areas.is_some_and(|l| l.contains(" none ")), "{text}");
    }

    #[test]
    fn separated_blobs_are_separate_areas_and_small_ones_do_not_count() {
        // Two discs of radius 60 (about 177 samples each) and a 2 x 2 sample knob.
        let s = stats(|x, z| {
            let disc = |cx: i32| radius(x - cx, z) <= 60.0;
            if disc(-250) || disc(250) {
                SEA + 100
            } else if (0..16).contains(&x) && (300..316).contains(&z) {
                SEA + 150
            } else {
                SEA + 5
            }
        });
        assert_eq!(s.mountain_areas, 2);
        assert!(s.high_map_fraction > s.mountain_land_fraction, "{s:?}");
        assert_eq!(s.highest, 150);
        assert!(s.elongation < 1.2, "{s:?}");
        let largest = s.largest_mountain_km2 * 1e6 / 64.0;
        assert!(
            (largest - std::f64::consts::PI * 7.5 * 7.5).abs() < 12.0,
            "{s:?}"
        );
    }

    #[test]
    fn local_relief_is_measured_in_squares_with_land_sea_floor_included() {
        // Land 10 above the sea west of x = 64, sea floor 30 below it east of it: the
        // 128-block squares (x from -512, -384, ...) over x = 0..128 hold both.
        let s = stats(|x, _| if x < 64 { SEA + 10 } else { SEA - 30 });
        // 32 flat squares of land, 8 of 40 blocks' relief, none all sea.
        assert_eq!([s.relief_median, s.relief_p90], [0, 40]);
    }

    #[test]
    fn steep_means_steeper_than_one_block_a_block() {
        // Exactly 45 degrees is not steeper; 9 blocks in 8 is.
        assert_eq!(stats(|x, _| SEA + 1000 + x).steep_land_fraction, 0.0);
        assert_eq!(
            stats(|x, _| SEA + 2000 + x * 9 / 8).steep_land_fraction,
            1.0
        );
        assert_eq!(
            stats(|x, z| SEA + 2000 + x * 3 / 4 + z * 3 / 4).steep_land_fraction,
            1.0
        );
    }

    #[test]
    fn all_sea_and_a_single_sample_are_well_defined() {
        let sea = stats(|_, _| SEA - 50);
        assert_eq!(sea.land_fraction, 0.0);
        assert_eq!(
            [sea.highest, sea.relief_p90, sea.land_height_median],
            [0; 3]
        );
        assert_eq!(sea.lowland_fraction, 0.0);
        let text = sea.to_string();
        assert!(text.contains("none (no land)"), "{text}");

        for (size, step) in [(1, 8), (0, 0), (8, 8), (5, 1)] {
            let one = stats_of(|x, z| SEA + x + z, SEA, [0, 0], size, step, &sequential);
            assert_eq!(one.samples, if size == 5 { 5 } else { 1 });
            assert_eq!(one.mountain_areas, 0);
        }
        let one = stats_of(|_, _| SEA + 300, SEA, [0, 0], 8, 8, &sequential);
        assert_eq!(
            (one.highest, one.high_map_fraction, one.mountain_areas),
            (300, 1.0, 0)
        );
        // Far columns saturate rather than wrap.
        let edge = stats_of(
            |x, _| SEA + (x > 0) as i32,
            SEA,
            [i32::MAX, 0],
            64,
            8,
            &sequential,
        );
        assert_eq!(edge.land_height_median, 1);
    }

    #[test]
    fn the_real_surface_is_measured_at_the_map_columns() {
        let generator = Generator::new(&WorldConfig::default()).unwrap();
        let s = relief_stats(&generator, [0, 0], 16, 8, &sequential);
        assert_eq!(s.samples, 2);
        // Samples at x, z in {-8, 0}.
        let sea = generator.sea_level();
        let land: Vec<i32> = [(-8, -8), (0, -8), (-8, 0), (0, 0)]
            .into_iter()
            .map(|(x, z)| generator.surface_height(x, z) - sea)
            .filter(|&h| h >= 0)
            .collect();
        assert_eq!(s.land_fraction, land.len() as f64 / 4.0);
        assert_eq!(s.highest, land.iter().copied().max().unwrap_or(0));
    }
}
