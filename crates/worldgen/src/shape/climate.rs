//! Low-frequency 2D fields in world coordinates (version 2): continentalness, erosion
//! and weirdness shape the terrain, temperature and humidity choose biomes.
//!
//! The fields are sampled on a coarse grid fixed in world space (every [`COARSE`]
//! blocks) and interpolated bilinearly, so a column's values are the same from every
//! chunk that asks, and a chunk costs a few dozen noise evaluations rather than a few
//! per column. Their features are hundreds of blocks wide, so the interpolation loses
//! nothing visible. Neighbouring chunks share most of their coarse points: each
//! thread remembers the last ones it made ([`POINTS`]), so a chunk beside those it
//! made before makes only a row or two.
//!
//! ```text
//!   coarse point (every 32 blocks)      lattice column (every 4)    block column
//!   o---------------o                   values = bilerp(4 coarse)   biome dithered
//!   |   .   .   .   |                   shape  = splines(values)    among its 4
//!   |   .   .   .   |                   biome (every 8 blocks)      biome corners,
//!   o---------------o                     = nearest fit             tint bilerped
//! ```

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::config::world::{DensityConfig, NatureConfig, ShapeConfig};
use crate::mix::mix64;
use crate::noise::fbm::{Fbm, NoiseKind};
use crate::noise::open_simplex::lanes::{Cell, LANES};

/// Spacing of the coarse grid, in blocks.
pub(crate) const COARSE: i32 = 32;

/// How far temperature and humidity are spread before clamping to `[-1, 1]`: an fBm
/// of two octaves rarely leaves `[-0.6, 0.6]`, and the biome table is laid out on the
/// full range.
const CLIMATE_SPREAD: f64 = 1.8;

/// The fields at one column. `c`, `e` and `w` are 0 without a shape; `t` and `h` are
/// 0 without nature.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Fields {
    /// Continentalness: -1 deep ocean .. 1 far inland.
    pub c: f64,
    /// Erosion: -1 mountainous .. 1 flat.
    pub e: f64,
    /// Weirdness: rivers along its zero line, peaks and valleys from its magnitude.
    pub w: f64,
    /// Temperature: -1 frozen .. 1 hot.
    pub t: f64,
    /// Humidity: -1 arid .. 1 wet.
    pub h: f64,
}

impl Fields {
    fn lerp(self, o: Fields, t: f64) -> Fields {
        let l = |a: f64, b: f64| a + (b - a) * t;
        Fields {
            c: l(self.c, o.c),
            e: l(self.e, o.e),
            w: l(self.w, o.w),
            t: l(self.t, o.t),
            h: l(self.h, o.h),
        }
    }
}

/// Coarse points a thread remembers ([`POINTS`]): a power of two, more than the
/// points of the chunk columns a game loads around the player at a time.
const REMEMBERED: usize = 2048;

/// The key of a remembered coarse point: its noises' [`FieldNoise::id`] (never 0, so
/// an empty slot matches nothing) and the point's `(i, j)`.
type PointKey = (u64, i64, i64);

thread_local! {
    /// The coarse points this thread made last, each in the slot its key hashes to
    /// (a newer point takes the slot of an older one): the same value as making it
    /// again, so what a thread made before never changes a result.
    static POINTS: RefCell<Vec<(PointKey, Fields)>> = const { RefCell::new(Vec::new()) };
}

/// Forgets the coarse points this thread remembers (see
/// [`forget_recent_columns`](crate::density::column::forget_recent_columns)).
#[cfg(feature = "test-support")]
pub(crate) fn forget_points() {
    POINTS.with_borrow_mut(Vec::clear);
}

/// The seeded noises behind [`Fields`].
#[derive(Clone, Debug)]
pub(crate) struct FieldNoise {
    /// Continentalness, erosion, weirdness.
    shape: Option<[Fbm; 3]>,
    /// Temperature, humidity.
    climate: Option<[Fbm; 2]>,
    /// Extra coarse points each side of a grid's area (1 for smooth interpolation).
    margin: i64,
    /// These noises' key in [`POINTS`]: unique to the noises made by one
    /// [`FieldNoise::new`] (their copies share it; the margin changes no point).
    id: u64,
}

impl FieldNoise {
    pub(crate) fn new(
        seed: u64,
        shape: Option<&ShapeConfig>,
        nature: Option<&NatureConfig>,
    ) -> Self {
        let fbm = |salt, scale, octaves| {
            Fbm::of_scale(NoiseKind::OpenSimplex, seed, salt, scale, octaves)
        };
        Self {
            shape: shape.map(|s| {
                [
                    fbm(10, s.continent_scale, 5),
                    fbm(11, s.erosion_scale, 3),
                    fbm(12, s.ridge_scale, 4),
                ]
            }),
            climate: nature.map(|n| {
                [
                    fbm(13, n.temperature_scale, 2),
                    fbm(14, n.humidity_scale, 2),
                ]
            }),
            margin: 0,
            id: {
                static NEXT: AtomicU64 = AtomicU64::new(1);
                NEXT.fetch_add(1, Ordering::Relaxed)
            },
        }
    }

    /// The same noises with grids one coarse point wider each side, as
    /// [`CoarseGrid::smooth`] needs.
    pub(crate) fn with_margin(mut self) -> Self {
        self.margin = 1;
        self
    }

    /// Fresh [`Cell`]s for each octave of each field, `[c, e, w, t, h]` (what
    /// [`FieldNoise::points`] keeps up to date).
    fn cells(&self) -> [Vec<Cell>; 5] {
        let fresh = |f: &Fbm| vec![Cell::NONE; f.octaves()];
        let mut cells: [Vec<Cell>; 5] = Default::default();
        if let Some(shape) = &self.shape {
            for (c, f) in cells[..3].iter_mut().zip(shape) {
                *c = fresh(f);
            }
        }
        if let Some(climate) = &self.climate {
            for (c, f) in cells[3..].iter_mut().zip(climate) {
                *c = fresh(f);
            }
        }
        cells
    }

    /// The fields at coarse grid points `at` (`(i, j)`: world column
    /// `(i, j) * COARSE`), [`LANES`] at a time; `cells` from [`FieldNoise::cells`].
    fn points(&self, at: &[(i64, i64); LANES], cells: &mut [Vec<Cell>; 5]) -> [Fields; LANES] {
        let x = at.map(|(i, _)| (i * COARSE as i64) as f64);
        let z = at.map(|(_, j)| (j * COARSE as i64) as f64);
        let [cc, ce, cw, ct, ch] = cells;
        let mut f = [Fields::default(); LANES];
        // Each field stretched so that oceans and continents, mountains and plains,
        // peaks and valleys all reach the ends of their splines.
        let spread = |v: f64, by: f64| (v * by).clamp(-1.0, 1.0);
        if let Some([c, e, w]) = &self.shape {
            let (c, e, w) = (
                c.get2_lanes(&x, &z, cc),
                e.get2_lanes(&x, &z, ce),
                w.get2_lanes(&x, &z, cw),
            );
            for (l, f) in f.iter_mut().enumerate() {
                (f.c, f.e, f.w) = (spread(c[l], 1.4), spread(e[l], 1.8), spread(w[l], 2.2));
            }
        }
        if let Some([t, h]) = &self.climate {
            let (t, h) = (t.get2_lanes(&x, &z, ct), h.get2_lanes(&x, &z, ch));
            for (l, f) in f.iter_mut().enumerate() {
                (f.t, f.h) = (spread(t[l], CLIMATE_SPREAD), spread(h[l], CLIMATE_SPREAD));
            }
        }
        f
    }

    /// The coarse points covering columns `x0..=x1` by `z0..=z1`.
    pub(crate) fn grid(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> CoarseGrid {
        self.grid_for(x0, z0, x1, z1, None)
    }

    /// [`FieldNoise::grid`], but where `columns` (`xs` and `zs`, inside the area)
    /// are given only the points that their columns read are made (the four either
    /// way of each, which [`CoarseGrid::at`] and [`CoarseGrid::smooth`] read), the
    /// others left at their defaults: the same fields at those columns, for far fewer
    /// noise calls where the columns lie far apart (the horizon's coarsest levels).
    pub(crate) fn grid_for(
        &self,
        x0: i32,
        z0: i32,
        x1: i32,
        z1: i32,
        columns: Option<[&[i32]; 2]>,
    ) -> CoarseGrid {
        let lo = |v: i32| v.div_euclid(COARSE) as i64;
        let m = self.margin;
        let (i0, j0) = (lo(x0) - m, lo(z0) - m);
        let (ni, nj) = (
            (lo(x1) - i0 + 2 + m) as usize,
            (lo(z1) - j0 + 2 + m) as usize,
        );
        // Per axis, whether a column reads the points of that row.
        let read = |vs: Option<&[i32]>, first: i64, n: usize| -> Vec<bool> {
            let Some(vs) = vs else {
                return vec![true; n];
            };
            let mut read = vec![false; n];
            for &v in vs {
                for p in lo(v) - 1..=lo(v) + 2 {
                    if let Some(r) = usize::try_from(p - first)
                        .ok()
                        .and_then(|p| read.get_mut(p))
                    {
                        *r = true;
                    }
                }
            }
            read
        };
        let (rx, rz) = (
            read(columns.map(|c| c[0]), i0, ni),
            read(columns.map(|c| c[1]), j0, nj),
        );
        let points = POINTS.with_borrow_mut(|remembered| {
            if remembered.is_empty() {
                remembered.resize(REMEMBERED, ((0, 0, 0), Fields::default()));
            }
            // The points read: those remembered now, the others made after,
            // [`LANES`] at a time.
            let mut points = vec![Fields::default(); ni * nj];
            let mut missing = Vec::new();
            for (n, point) in points.iter_mut().enumerate() {
                let (i, j) = (n % ni, n / ni);
                if !(rx[i] && rz[j]) {
                    continue;
                }
                let key = (self.id, i0 + i as i64, j0 + j as i64);
                match &remembered[slot(key)] {
                    (k, f) if *k == key => *point = *f,
                    _ => missing.push((n, key)),
                }
            }
            let mut cells = self.cells();
            for group in missing.chunks(LANES) {
                // A short last group repeats its last point.
                let key = |l: usize| group[l.min(group.len() - 1)].1;
                let made = self.points(&std::array::from_fn(|l| (key(l).1, key(l).2)), &mut cells);
                for (&(n, key), f) in group.iter().zip(made) {
                    points[n] = f;
                    remembered[slot(key)] = (key, f);
                }
            }
            points
        });
        CoarseGrid {
            i0,
            j0,
            ni,
            points,
            masks: Vec::new(),
        }
    }

    /// The fields at one column (computing its four coarse points).
    pub(crate) fn at(&self, x: i32, z: i32) -> Fields {
        self.grid(x, z, x, z).at(x, z)
    }
}

/// The slot of [`POINTS`] that `key` takes.
#[inline]
fn slot((id, i, j): PointKey) -> usize {
    let h = mix64(id ^ mix64(i as u64 ^ mix64(j as u64)));
    h as usize & (REMEMBERED - 1)
}

/// The coarse points around an area, ready to interpolate.
pub(crate) struct CoarseGrid {
    i0: i64,
    j0: i64,
    ni: usize,
    points: Vec<Fields>,
    /// The relief's mask at each point (version 4), empty without relief.
    pub masks: Vec<f64>,
}

impl CoarseGrid {
    /// The fields at column `(x, z)`, which must lie in the grid's area.
    pub(crate) fn at(&self, x: i32, z: i32) -> Fields {
        let (i, j) = (x.div_euclid(COARSE) as i64, z.div_euclid(COARSE) as i64);
        let (tx, tz) = (
            x.rem_euclid(COARSE) as f64 / COARSE as f64,
            z.rem_euclid(COARSE) as f64 / COARSE as f64,
        );
        let n = (j - self.j0) as usize * self.ni + (i - self.i0) as usize;
        let p = &self.points;
        let north = p[n].lerp(p[n + 1], tx);
        let south = p[n + self.ni].lerp(p[n + self.ni + 1], tx);
        north.lerp(south, tz)
    }

    /// The fields at every point, in the order of [`CoarseGrid::smooth`]'s values.
    pub(crate) fn points(&self) -> &[Fields] {
        &self.points
    }

    /// Catmull-Rom interpolation at column `(x, z)` of `values`, one per point: a
    /// curve with a continuous gradient (bilinear interpolation's gradient jumps at
    /// every grid line) through each point's value exactly. The grid needs a margin
    /// ([`FieldNoise::with_margin`]).
    pub(crate) fn smooth(&self, values: &[f64], x: i32, z: i32) -> f64 {
        let (i, j) = (x.div_euclid(COARSE) as i64, z.div_euclid(COARSE) as i64);
        let t = |v: i32| v.rem_euclid(COARSE) as f64 / COARSE as f64;
        let (wx, wz) = (catmull_rom(t(x)), catmull_rom(t(z)));
        let first = (j - 1 - self.j0) as usize * self.ni + (i - 1 - self.i0) as usize;
        let mut sum = 0.0;
        for (b, wz) in wz.iter().enumerate() {
            let row = &values[first + b * self.ni..][..4];
            let across = row.iter().zip(&wx).fold(0.0, |s, (v, w)| s + v * w);
            sum += across * wz;
        }
        sum
    }
}

/// The Catmull-Rom weights of the four points around a fraction `t` of the way from
/// the second to the third: exactly `[0, 1, 0, 0]` at `t = 0`.
fn catmull_rom(t: f64) -> [f64; 4] {
    let (t2, t3) = (t * t, t * t * t);
    [
        0.5 * (-t3 + 2.0 * t2 - t),
        0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
        0.5 * (-3.0 * t3 + 4.0 * t2 + t),
        0.5 * (t3 - t2),
    ]
}

/// What the relief (version 4, `relief`) does to one column's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Lift {
    /// Blocks added to the column's `offset`.
    pub height: f64,
    /// The erosion's ridge map where the ranges stand: near -1 in gullies, near 1 on
    /// eroded ridges, 0 elsewhere.
    pub gully: f64,
}

/// The density formula's parameters at one column, and what the biome choice needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ColumnShape {
    /// `offset` of the formula here.
    pub offset: f64,
    /// `scale` of the formula here.
    pub scale: f64,
    /// `cliff_scale` of the formula here.
    pub cliff: f64,
    /// Where the surface is expected (the offset), in blocks above sea level.
    pub height: f64,
    /// 1 in a river's middle, 0 outside rivers.
    pub river: f64,
    /// The relief's ridge map (version 4): near -1 in a gully of a range, near 1 on
    /// its eroded ridges, 0 elsewhere.
    pub gully: f64,
    /// Blocks beyond the edge of the nearest river or lake (version 5; negative in
    /// the water, infinite where none comes near).
    pub wet: f64,
}

impl ColumnShape {
    /// The same parameters everywhere (no shape).
    pub(crate) fn flat(d: &DensityConfig, sea_level: i32) -> Self {
        Self {
            offset: d.offset,
            scale: d.scale,
            cliff: d.cliff_scale,
            height: d.offset - d.threshold - sea_level as f64,
            river: 0.0,
            gully: 0.0,
            wet: f64::INFINITY,
        }
    }

    /// The parameters at a column with fields `f` and the relief's `lift` there (see
    /// [`ShapeConfig`] and [`ReliefConfig`](crate::config::world::ReliefConfig) for the
    /// formula).
    pub(crate) fn shaped(
        d: &DensityConfig,
        s: &ShapeConfig,
        sea_level: i32,
        f: &Fields,
        lift: Lift,
    ) -> Self {
        let pv = 1.0 - ((3.0 * f.w.abs()) - 2.0).abs();
        let base = s.height.at(f.c);
        let land = smoothstep(base / 12.0);
        let mut offset = d.offset + base + land * s.mountains.at(f.e) * s.peaks.at(pv);
        // Exactly the version-3 offset without relief (adding 0.0 changes no bit).
        offset += lift.height;
        let mut scale = d.scale * s.roughness.at(f.e) * (0.3 + 0.7 * land);
        // Full depth over the middle half of the channel, banks over the rest.
        let river = if s.rivers.width > 0.0 {
            smoothstep(2.0 * (1.0 - f.w.abs() / s.rivers.width))
        } else {
            0.0
        };
        // Rivers cut all land down to their bed, fading out below sea level.
        let river = river * smoothstep((base + 8.0) / 8.0);
        if river > 0.0 {
            let bed = sea_level as f64 - s.rivers.depth + d.threshold;
            offset = offset.min(offset + (bed - offset) * river);
            scale += (scale.min(2.0) - scale) * river;
        }
        Self {
            offset,
            scale,
            cliff: d.cliff_scale * s.crags.at(f.e),
            height: offset - d.threshold - sea_level as f64,
            river,
            gully: lift.gully,
            wet: f64::INFINITY,
        }
    }

    /// The highest surface possible in this column, minus the threshold.
    pub(crate) fn highest(&self, threshold: f64) -> f64 {
        self.scale * (1.0 + self.cliff) + self.offset - threshold
    }

    /// The lowest surface possible in this column, minus the threshold.
    pub(crate) fn lowest(&self, threshold: f64) -> f64 {
        -self.scale + self.offset - threshold
    }

    /// The highest [`ColumnShape::highest`] and the lowest [`ColumnShape::lowest`]
    /// of some columns: between them lies every surface they can have.
    pub(crate) fn bounds<'a>(
        shapes: impl Iterator<Item = &'a ColumnShape>,
        threshold: f64,
    ) -> (f64, f64) {
        shapes.fold((f64::NEG_INFINITY, f64::INFINITY), |(hi, lo), s| {
            (hi.max(s.highest(threshold)), lo.min(s.lowest(threshold)))
        })
    }
}

/// `3t^2 - 2t^3` of `t` clamped to `[0, 1]`.
#[inline]
pub(crate) fn smoothstep(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::world::GeneratorConfig;

    #[test]
    fn interpolated_fields_do_not_depend_on_the_area_asked_for() {
        let cfg = crate::config::presets::builtin("continents").unwrap();
        let GeneratorConfig::Density(d) = &cfg.generator else {
            panic!("continents is a density world")
        };
        let noise = FieldNoise::new(3, d.shape.as_ref(), cfg.nature.as_ref());
        let big = noise.grid(-100, -100, 100, 100);
        for (x, z) in [(-100, -100), (-1, 0), (0, 0), (17, -33), (100, 100)] {
            assert_eq!(big.at(x, z), noise.at(x, z), "({x}, {z})");
        }
        // On a coarse point the value is that point's, exactly: each field's fBm
        // there, spread (made in lanes, the same bits as one at a time).
        let spread = |f: &Fbm, x: f64, z: f64, by: f64| (f.get2(x, z) * by).clamp(-1.0, 1.0);
        let [c, e, w] = noise.shape.as_ref().unwrap();
        let [t, h] = noise.climate.as_ref().unwrap();
        for (i, j) in [(2i64, -1i64), (-40, 7), (1000, -3), (5, 5), (6, 5), (7, 5)] {
            let (x, z) = ((i * COARSE as i64) as f64, (j * COARSE as i64) as f64);
            let want = Fields {
                c: spread(c, x, z, 1.4),
                e: spread(e, x, z, 1.8),
                w: spread(w, x, z, 2.2),
                t: spread(t, x, z, CLIMATE_SPREAD),
                h: spread(h, x, z, CLIMATE_SPREAD),
            };
            let (cx, cz) = ((i * COARSE as i64) as i32, (j * COARSE as i64) as i32);
            let got = noise.at(cx, cz);
            for (g, w) in [
                (got.c, want.c),
                (got.e, want.e),
                (got.w, want.w),
                (got.t, want.t),
                (got.h, want.h),
            ] {
                assert_eq!(g.to_bits(), w.to_bits(), "({i}, {j})");
            }
        }
    }

    /// A grid made only for some columns gives those columns what the whole grid
    /// gives, smooth values included, from fewer points where they lie far apart.
    #[test]
    fn a_grid_for_columns_reads_as_the_whole_grid_there() {
        let cfg = crate::config::presets::builtin("continents").unwrap();
        let GeneratorConfig::Density(d) = &cfg.generator else {
            panic!("continents is a density world")
        };
        let noise = FieldNoise::new(3, d.shape.as_ref(), cfg.nature.as_ref()).with_margin();
        let (x0, z0, x1, z1) = (-2048, -1024, 2048, 1024);
        let xs: Vec<i32> = (x0..=x1).step_by(256).collect();
        let zs: Vec<i32> = (z0..=z1).step_by(256).chain([5, 700]).collect();
        let whole = noise.grid(x0, z0, x1, z1);
        let some = noise.grid_for(x0, z0, x1, z1, Some([&xs, &zs]));
        let values = |g: &CoarseGrid| {
            g.points()
                .iter()
                .map(|f| f.c * f.e - f.w)
                .collect::<Vec<_>>()
        };
        let (vw, vs) = (values(&whole), values(&some));
        for &z in &zs {
            for &x in &xs {
                assert_eq!(some.at(x, z), whole.at(x, z), "({x}, {z})");
                assert_eq!(
                    some.smooth(&vs, x, z),
                    whole.smooth(&vw, x, z),
                    "({x}, {z})"
                );
            }
        }
        let made = some
            .points()
            .iter()
            .filter(|f| **f != Fields::default())
            .count();
        assert!(
            made * 2 < whole.points().len(),
            "{made} of {} points made",
            whole.points().len()
        );
    }
}
