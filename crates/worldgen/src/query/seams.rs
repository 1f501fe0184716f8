//! Straight seams, for `terravox map --stats`: the longest straight biome border and
//! the longest straight crease in the ground of a square of a world, lines that
//! nothing in nature draws so straight.
//!
//! The square is sampled every [`STEP`] (2) blocks: each sample's biome and surface
//! height ([`Generator::column_top`]). Definitions:
//!
//! ```text
//! border      a sample whose biome differs from the sample east or south of it;
//!             its direction from its neighbours within ORIENT_RADIUS (16 blocks):
//!             with l1 >= l2 the eigenvalues of their coordinates' covariance,
//!             sqrt(l1 / l2) >= 2, along the eigenvector of l1 (a speckled border,
//!             edges every way, has no direction and draws no line)
//! ground      the heights averaged over SMOOTH (10) blocks each way (a box twice),
//!             so rock's jags and the voxels' steps fall away
//! crease      a sample of that ground where it bends: the Hessian's eigenvalue of
//!             the largest size, as a second difference over BEND_OVER (12) blocks
//!             each way, at least CREASE_BEND (4 blocks) and no less than at the
//!             samples beside it across the crease, running along the other
//!             eigenvector; or where the ground turns steep (its slope over 24
//!             blocks crosses 45 degrees between it and the sample east or south),
//!             running along the contour. Samples whose averaging reaches past the
//!             square's edge are not judged
//! straight    a run of edge samples (borders, or creases), each within 12 degrees
//!   run       of the run's direction, all within TOLERANCE (6 blocks) of one line,
//!             with gaps along it of at most GAP (12 blocks), covering at least
//!             half its length (a line, not edges scattered over an area); its
//!             length from its first sample to its last along the line. Lines are
//!             tried every degree, in bands 12 blocks wide at two offsets 6 apart
//! ```
//!
//! What it does not see: a step across flat land of less than about 16 blocks
//! (averaged, it bends the ground less than a crease), and so a row of one-block
//! steps; borders in worlds without biomes.
//!
//! An arc bending less than a circle of 1 km stays within 6 blocks of its chord for
//! about 310 blocks (a sagitta of 12), so it counts as a straight run of that length;
//! one of 500 m for about 220.

use std::fmt;

use crate::generator::Generator;
use crate::query::{ForEach, collect};
use crate::surface::biome::Biome;

/// Blocks between two samples.
pub const STEP: u32 = 2;
/// How far from its line a straight run's samples may lie, in blocks.
pub const TOLERANCE: f64 = 6.0;
/// The longest gap along a straight run, in blocks.
pub const GAP: f64 = 12.0;
/// How much the ground bends at a crease: the second difference over 4 blocks, in
/// blocks.
pub const CREASE_BEND: f32 = 4.0;
/// The blocks each way the ground's bend is measured over.
pub const BEND_OVER: f64 = 12.0;
/// The blocks each way the ground is averaged over before its bend is measured.
pub const SMOOTH: f64 = 10.0;
/// The radius of the neighbourhood that gives a border sample its direction, in
/// blocks.
pub const ORIENT_RADIUS: f64 = 16.0;
/// The goals over 4 km x 4 km: no straight border longer, no straight crease longer.
pub mod target {
    /// Blocks.
    pub const BORDER: f64 = 300.0;
    /// Blocks.
    pub const CREASE: f64 = 250.0;
}

/// Directions tried, evenly over half a turn.
const DIRECTIONS: usize = 180;
/// How far an edge sample's direction may be from the line's, in degrees.
const ALIGNED: f64 = 12.0;
/// The share of a straight run's length its samples cover, at least: a line, not
/// edges scattered over an area.
const FILL: f64 = 0.5;
/// How much longer than wide an edge sample's neighbourhood must be.
const ELONGATED: f64 = 2.0;

/// A straight run: its length in blocks and its ends, world columns `[x, z]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Run {
    /// Blocks from its first sample to its last, along its line.
    pub length: f64,
    /// Its first sample.
    pub from: [f64; 2],
    /// Its last sample.
    pub to: [f64; 2],
}

/// The seams of a square (definitions in the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Seams {
    /// The longest straight biome border (none in a world without biomes).
    pub border: Run,
    /// The longest straight crease.
    pub crease: Run,
}

impl fmt::Display for Seams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |r: &Run| {
            format!(
                "at ({:.0}, {:.0})-({:.0}, {:.0})",
                r.from[0], r.from[1], r.to[0], r.to[1]
            )
        };
        writeln!(
            f,
            "seams: longest straight biome border {:.0} blocks {}; longest straight crease {:.0} blocks {} (goals over 4 km: at most {:.0} and {:.0})",
            self.border.length,
            at(&self.border),
            self.crease.length,
            at(&self.crease),
            target::BORDER,
            target::CREASE
        )
    }
}

/// Samples on a grid `w` wide, sample `(i, j)` at world column `origin + step *
/// (i, j)`.
#[derive(Clone, Debug)]
pub(crate) struct Grid<T> {
    pub(crate) w: usize,
    pub(crate) h: usize,
    pub(crate) origin: [f64; 2],
    pub(crate) step: f64,
    pub(crate) v: Vec<T>,
}

impl<T> Grid<T> {
    /// A grid of `v` over the same samples.
    fn like<U>(&self, v: Vec<U>) -> Grid<U> {
        Grid {
            w: self.w,
            h: self.h,
            origin: self.origin,
            step: self.step,
            v,
        }
    }
}

impl<T: Copy> Grid<T> {
    fn at(&self, i: usize, j: usize) -> T {
        self.v[j * self.w + i]
    }

    fn column(&self, i: usize, j: usize) -> [f64; 2] {
        [
            self.origin[0] + self.step * i as f64,
            self.origin[1] + self.step * j as f64,
        ]
    }
}

/// The seams of the `size_blocks`-wide square centred on column `centre`, sampling
/// `generator` every [`STEP`] blocks, a row a job run by `rows`.
pub fn seams(
    generator: &Generator,
    centre: [i32; 2],
    size_blocks: u32,
    rows: ForEach<'_>,
) -> Seams {
    let n = (size_blocks / STEP).max(1) as usize;
    let half = (n / 2) as i64 * i64::from(STEP);
    let column = |c: i32, k: usize| {
        (i64::from(c) - half + k as i64 * i64::from(STEP)).clamp(i32::MIN as i64, i32::MAX as i64)
            as i32
    };
    let tops: Vec<(Option<Biome>, i32)> = collect(rows, n, |j| {
        let z = column(centre[1], j);
        (0..n)
            .map(|i| {
                let t = generator.column_top(column(centre[0], i), z);
                (t.biome, t.y)
            })
            .collect::<Vec<_>>()
    })
    .concat();
    let origin = [
        f64::from(column(centre[0], 0)),
        f64::from(column(centre[1], 0)),
    ];
    let heights = Grid {
        w: n,
        h: n,
        origin,
        step: f64::from(STEP),
        v: tops.iter().map(|t| t.1).collect(),
    };
    let biomes = heights.like(tops.iter().map(|t| t.0).collect());
    Seams {
        border: longest_run(&oriented(&borders(&biomes)), rows),
        crease: longest_run(&creases(&heights), rows),
    }
}

/// The border samples of a grid of biomes (see the module docs).
pub(crate) fn borders(biomes: &Grid<Option<Biome>>) -> Grid<bool> {
    let (w, h) = (biomes.w, biomes.h);
    let mut v = vec![false; w * h];
    for j in 0..h {
        for i in 0..w {
            let b = biomes.at(i, j);
            let east = i + 1 < w && biomes.at(i + 1, j) != b;
            let south = j + 1 < h && biomes.at(i, j + 1) != b;
            v[j * w + i] = b.is_some() && (east || south);
        }
    }
    biomes.like(v)
}

/// The ground at the scale a player reads its shape: `heights` averaged over
/// [`SMOOTH`] blocks each way (a box twice, near a Gaussian), so rock's jags and
/// the voxels' steps fall away and a range's foot or a seam stays.
fn smoothed(heights: &Grid<i32>) -> Grid<f32> {
    let r = (SMOOTH / heights.step).round().max(1.0) as usize;
    let (w, h) = (heights.w, heights.h);
    let mut v: Vec<f32> = heights.v.iter().map(|&y| y as f32).collect();
    let mut tmp = vec![0f32; v.len()];
    let blur = |src: &[f32], dst: &mut [f32], along_x: bool| {
        let (n, m) = if along_x { (w, h) } else { (h, w) };
        for line in 0..m {
            let idx = |k: usize| if along_x { line * w + k } else { k * w + line };
            let mut sum = 0f32;
            let mut count = 0f32;
            for k in 0..=r.min(n - 1) {
                sum += src[idx(k)];
                count += 1.0;
            }
            for k in 0..n {
                dst[idx(k)] = sum / count;
                if k + r + 1 < n {
                    sum += src[idx(k + r + 1)];
                    count += 1.0;
                }
                if k >= r {
                    sum -= src[idx(k - r)];
                    count -= 1.0;
                }
            }
        }
    };
    for _ in 0..2 {
        blur(&v, &mut tmp, true);
        blur(&tmp, &mut v, false);
    }
    heights.like(v)
}

/// The crease samples of a grid of surface heights, each with its direction (see
/// the module docs).
pub(crate) fn creases(heights: &Grid<i32>) -> Vec<Oriented> {
    let g = smoothed(heights);
    let d = (BEND_OVER / heights.step).round().max(1.0) as i64;
    let (w, h) = (g.w as i64, g.h as i64);
    let get = |i: i64, j: i64| g.at(i as usize, j as usize) as f64;
    // Samples whose smoothing and bend reach past the grid's edge are not judged.
    let m = d + 2 * (SMOOTH / heights.step).round() as i64;
    let inside = |i: i64, j: i64| i >= m && j >= m && i + m < w && j + m < h;
    let run = (d as f64) * g.step;
    // The slope and the bend at a sample: the gradient, and the Hessian's eigenvalue
    // of the largest size (in blocks over `run`) with its eigenvector's angle.
    let shape = |i: i64, j: i64| -> ([f64; 2], f64, f64) {
        let c = get(i, j);
        let gx = (get(i + d, j) - get(i - d, j)) / (2.0 * run);
        let gz = (get(i, j + d) - get(i, j - d)) / (2.0 * run);
        let a = get(i + d, j) - 2.0 * c + get(i - d, j);
        let cc = get(i, j + d) - 2.0 * c + get(i, j - d);
        let b =
            (get(i + d, j + d) - get(i + d, j - d) - get(i - d, j + d) + get(i - d, j - d)) / 4.0;
        let (mean, diff) = ((a + cc) / 2.0, ((a - cc) / 2.0).hypot(b));
        let phi = 0.5 * (2.0 * b).atan2(a - cc);
        if (mean + diff).abs() >= (mean - diff).abs() {
            ([gx, gz], (mean + diff).abs(), phi)
        } else {
            (
                [gx, gz],
                (mean - diff).abs(),
                phi + std::f64::consts::FRAC_PI_2,
            )
        }
    };
    let half = std::f64::consts::FRAC_PI_2;
    let mut out = Vec::new();
    for j in 0..h {
        for i in 0..w {
            if !inside(i, j) {
                continue;
            }
            let (grad, bend, phi) = shape(i, j);
            let at = g.column(i as usize, j as usize);
            let across = [phi.cos().round() as i64, phi.sin().round() as i64];
            let peak = bend >= f64::from(CREASE_BEND)
                && [-1, 1].iter().all(|&s| {
                    let (x, z) = (i + s * across[0], j + s * across[1]);
                    !inside(x, z) || shape(x, z).1 <= bend
                });
            if peak {
                out.push(Oriented {
                    at,
                    angle: (phi + half).rem_euclid(std::f64::consts::PI),
                });
                continue;
            }
            let steep = |v: [f64; 2]| v[0].hypot(v[1]) > 1.0;
            let edge = [(i + 1, j), (i, j + 1)]
                .iter()
                .any(|&(x, z)| inside(x, z) && steep(shape(x, z).0) != steep(grad));
            if edge {
                out.push(Oriented {
                    at,
                    angle: (grad[1].atan2(grad[0]) + half).rem_euclid(std::f64::consts::PI),
                });
            }
        }
    }
    out
}

/// An edge sample with a direction: its column and the direction in radians, in
/// `[0, pi)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Oriented {
    at: [f64; 2],
    angle: f64,
}

/// The border samples of `edges` that have a direction (see the module docs).
pub(crate) fn oriented(edges: &Grid<bool>) -> Vec<Oriented> {
    let r = (ORIENT_RADIUS / edges.step).round().max(1.0) as i64;
    let (w, h) = (edges.w as i64, edges.h as i64);
    let mut out = Vec::new();
    for j in 0..h {
        for i in 0..w {
            if !edges.at(i as usize, j as usize) {
                continue;
            }
            let (mut n, mut sx, mut sz, mut sxx, mut szz, mut sxz) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            for dj in -r..=r {
                for di in -r..=r {
                    let (x, z) = (i + di, j + dj);
                    if di * di + dj * dj > r * r || x < 0 || z < 0 || x >= w || z >= h {
                        continue;
                    }
                    if edges.at(x as usize, z as usize) {
                        let (fx, fz) = (di as f64, dj as f64);
                        n += 1.0;
                        sx += fx;
                        sz += fz;
                        sxx += fx * fx;
                        szz += fz * fz;
                        sxz += fx * fz;
                    }
                }
            }
            let (mx, mz) = (sx / n, sz / n);
            let (a, b, c) = (sxx / n - mx * mx, sxz / n - mx * mz, szz / n - mz * mz);
            // The eigenvalues of [[a, b], [b, c]], each sample a unit square.
            let (mean, diff) = ((a + c) / 2.0, ((a - c) / 2.0).hypot(b));
            let (l1, l2) = (mean + diff + 1.0 / 12.0, mean - diff + 1.0 / 12.0);
            if n < 3.0 || l1 < ELONGATED * ELONGATED * l2 {
                continue;
            }
            let angle = (0.5 * (2.0 * b).atan2(a - c)).rem_euclid(std::f64::consts::PI);
            out.push(Oriented {
                at: edges.column(i as usize, j as usize),
                angle,
            });
        }
    }
    out
}

/// The longest straight run of `edges` (see the module docs), a direction a job run
/// by `rows`; of runs as long, the one at the first direction.
pub(crate) fn longest_run(edges: &[Oriented], rows: ForEach<'_>) -> Run {
    collect(rows, DIRECTIONS, |k| longest_along(edges, k))
        .into_iter()
        .fold(Run::default(), |best, r| {
            if r.length > best.length { r } else { best }
        })
}

/// The longest straight run of `edges` along direction `k` (of [`DIRECTIONS`]).
fn longest_along(edges: &[Oriented], k: usize) -> Run {
    let pi = std::f64::consts::PI;
    let theta = pi * k as f64 / DIRECTIONS as f64;
    let (s, c) = theta.sin_cos();
    let aligned = ALIGNED.to_radians();
    let mut best = Run::default();
    let mut keyed: Vec<(i64, f64, usize)> = Vec::new();
    for offset in [0.0, TOLERANCE] {
        keyed.clear();
        for (idx, e) in edges.iter().enumerate() {
            let off = (e.angle - theta).rem_euclid(pi);
            if off.min(pi - off) > aligned {
                continue;
            }
            let along = e.at[0] * c + e.at[1] * s;
            let across = -e.at[0] * s + e.at[1] * c;
            let band = ((across + offset) / (2.0 * TOLERANCE)).floor() as i64;
            keyed.push((band, along, idx));
        }
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut start = 0;
        for i in 1..=keyed.len() {
            let broken = i == keyed.len()
                || keyed[i].0 != keyed[i - 1].0
                || keyed[i].1 - keyed[i - 1].1 > GAP;
            if !broken {
                continue;
            }
            let run = &keyed[start..i];
            let length = run[run.len() - 1].1 - run[0].1;
            if length > best.length && filled(run, length) {
                best = Run {
                    length,
                    from: edges[run[0].2].at,
                    to: edges[run[run.len() - 1].2].at,
                };
            }
            start = i;
        }
    }
    best
}

/// Whether the samples of a run `length` long (sorted along it) cover at least
/// [`FILL`] of it, in cells of [`STEP`] blocks.
fn filled(run: &[(i64, f64, usize)], length: f64) -> bool {
    let mut cells = 0usize;
    let mut last = i64::MIN;
    for k in run {
        let cell = (k.1 / f64::from(STEP)).floor() as i64;
        cells += usize::from(cell != last);
        last = cell;
    }
    cells as f64 * f64::from(STEP) >= FILL * length
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::sequential;

    /// A grid `n` samples a side, 2 blocks apart, from the origin.
    fn grid<T: Copy>(n: usize, f: impl Fn(f64, f64) -> T) -> Grid<T> {
        let v = (0..n * n)
            .map(|k| f(2.0 * (k % n) as f64, 2.0 * (k / n) as f64))
            .collect();
        Grid {
            w: n,
            h: n,
            origin: [0.0, 0.0],
            step: 2.0,
            v,
        }
    }

    /// Two biomes on either side of `side(x, z) > 0`.
    fn split(n: usize, side: impl Fn(f64, f64) -> f64) -> Grid<Option<Biome>> {
        grid(n, |x, z| {
            Some(if side(x, z) > 0.0 {
                Biome::Plains
            } else {
                Biome::Forest
            })
        })
    }

    fn border_run(b: &Grid<Option<Biome>>) -> Run {
        longest_run(&oriented(&borders(b)), &sequential)
    }

    #[test]
    fn a_straight_border_is_found_whole_at_any_angle() {
        // 1 km square; a border at 23 degrees across it, about 1,000 blocks long in
        // the square's middle part.
        let (t, n) = (23f64.to_radians(), 500);
        let b = split(n, |x, z| (z - 500.0) * t.cos() - (x - 500.0) * t.sin());
        let run = border_run(&b);
        assert!(run.length > 950.0, "{run:?}");
        let angle = (run.to[1] - run.from[1]).atan2(run.to[0] - run.from[0]);
        assert!((angle - t).abs() < 2f64.to_radians(), "{run:?}");
    }

    #[test]
    fn a_border_bending_like_a_1_km_circle_is_straight_for_300_blocks_and_one_of_500_m_is_not() {
        let arc = |r: f64| {
            let b = split(700, |x, z| (x - 700.0).hypot(z - (700.0 + r)) - r);
            border_run(&b).length
        };
        let wide = arc(1000.0);
        assert!((300.0..380.0).contains(&wide), "{wide}");
        let tight = arc(500.0);
        assert!(tight < 260.0 && tight > 150.0, "{tight}");
    }

    #[test]
    fn a_wandering_border_and_a_speckled_one_draw_no_long_line() {
        // A border that wanders 40 blocks either way every 300 blocks.
        let wander = split(500, |x, z| {
            z - 500.0 - 40.0 * (x / 48.0).sin() - 25.0 * (x / 21.0 + 1.0).sin()
        });
        let run = border_run(&wander);
        assert!(run.length < 200.0, "{run:?}");
        // Two biomes mixed sample by sample: edges everywhere, lines nowhere.
        let speckle = grid(300, |x, z| {
            let h = crate::mix::mix64(((x as u64) << 32) ^ z as u64);
            Some(if h.is_multiple_of(3) {
                Biome::Plains
            } else {
                Biome::Forest
            })
        });
        let run = border_run(&speckle);
        assert!(run.length < 60.0, "{run:?}");
    }

    #[test]
    fn the_foot_of_a_straight_slope_is_a_crease_and_an_even_slope_or_a_cone_is_not() {
        // Flat land meeting a 1:1 slope along a line at 60 degrees.
        let t = 60f64.to_radians();
        let foot = grid(400, |x, z| {
            let d = (x - 400.0) * t.sin() - (z - 400.0) * t.cos();
            d.max(0.0).floor() as i32
        });
        let run = longest_run(&creases(&foot), &sequential);
        assert!(run.length > 700.0, "{run:?}");
        // A straight step of 16 blocks across flat land (a seam) is one too (one
        // of 8 is not: averaged, it bends the ground too little).
        let step = grid(400, |x, z| if x * 0.3 + z > 500.0 { 16 } else { 0 });
        let run = longest_run(&creases(&step), &sequential);
        assert!(run.length > 600.0, "{run:?}");
        // An even slope of voxels (one-block steps every 3 blocks) has no crease.
        let even = grid(300, |x, z| ((x * 0.2 + z * 0.25).floor()) as i32);
        assert_eq!(longest_run(&creases(&even), &sequential).length, 0.0);
        // A cone's foot is a circle of 150 blocks: no long straight run.
        let cone = grid(300, |x, z| {
            (150.0 - (x - 300.0).hypot(z - 300.0)).max(0.0).floor() as i32
        });
        let run = longest_run(&creases(&cone), &sequential);
        assert!(run.length < 170.0 && run.length > 40.0, "{run:?}");
    }
}
