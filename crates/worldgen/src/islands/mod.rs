//! The 2D island generator ("Islands").
//!
//! ```text
//! h01    = (fbm2(x, z) + 1) / 2          normalised by the analytic amplitude sum
//! g      = clamp01(dist((x, z), nearest centre) / (island_size * radius))
//! fall   = g^a / (g^a + (b - b*g)^a)
//! height = clamp01(h01 - fall)
//! ```
//!
//! Everything is in world coordinates, so there is one island (or one per archipelago
//! cell) and the sea beyond it, never one island per chunk. Each column's height is
//! computed once per chunk; columns where `g = 1` are ocean floor without any noise.
//!
//! Chunks are made fast without changing a block (the reference chunk, made the
//! plain way, is the yardstick):
//!
//! - A chunk needs little of most columns: a column wholly below the chunk is water
//!   and air there, one far above it stone, whatever its exact height. So a chunk sums
//!   a column's octaves in order and stops as soon as the octaves left (each adds at
//!   most its amplitude times a proven bound on the noise) cannot change what the
//!   chunk needs of it ([`Needs`]); columns whose blocks depend on their height get
//!   every octave, and so the same height as always. Neighbouring columns are alike,
//!   so where they needed every octave, the next ones are not tested early.
//! - The noise is evaluated by [`noise`]: the same operations as the `noise` crate's,
//!   four columns at a time, finding the lattice cell they share once.
//! - The falloff's two `powf` are replaced by products enclosing it
//!   ([`IslandGen::fall_bounds`]), which decide the surface but in the rarest cases.
//! - The nearby islands are found once per chunk; the lattice columns of the biome
//!   grid reuse the octave sums of the block columns they stand on; trunk columns
//!   outside the padded chunk are only computed where a tree grows; blocks are
//!   filled a row at a time.
//!
//! Version 2 varies the archipelago: some cells are empty, sizes range from islets to
//! big islands (whose middles rise into mountains: `+ boost * (1 - g)^2`), islands
//! are ellipses at any angle, and biomes come from the height band and the climate.

mod coarse;
mod noise;

use terravox_voxel::{
    Block, CHUNK, Chunk, ChunkPos, ColumnTints, PADDED, dense_array, padded_index,
};

use crate::biome::{self, Biome, Kind};
use crate::climate::{FieldNoise, Fields};
use crate::config::{IslandConfig, IslandLayout, NatureConfig};
use crate::fbm::Fbm;
use crate::layers::{ColumnFields, Field};
use crate::planting::{self, TreeGrid};
use crate::seed::mix64;
use crate::surface::Surface;
use crate::trees::{CROWN, TALLEST};
use noise::{Cell, HeightNoise, LANES};

/// An island centre and how far its land can reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Island {
    /// Centre `[x, z]` in blocks.
    pub centre: [f64; 2],
    /// Distance at which the falloff reaches 1 (`island_size * radius`, varied per
    /// archipelago island) along the island's long axis.
    pub reach: f64,
    /// Direction of the long axis, radians (version 2; 0 before).
    pub angle: f64,
    /// Short axis over long axis, `(0, 1]` (version 2; 1 before).
    pub aspect: f64,
    /// How much the middle rises: big version-2 islands get mountains.
    pub boost: f64,
}

/// An island near the columns at hand, with the sine and cosine of its angle worked
/// out once for all of them.
#[derive(Clone, Copy, Debug)]
struct Near {
    island: Island,
    sin: f64,
    cos: f64,
}

/// What the islands make of a column the nearest one reaches: its falloff and how
/// much the island's mountains lift it (`boost * (1 - g)^2`).
#[derive(Clone, Copy, Debug)]
struct Shape {
    fall: f64,
    lift: f64,
}

/// What the islands make of a column the nearest one reaches, for settling it: `g`
/// and the lift as in [`Shape`], and the falloff enclosed
/// ([`IslandGen::fall_bounds`]).
#[derive(Clone, Copy, Debug)]
struct Rough {
    g: f64,
    lift: f64,
    fall: [f64; 2],
}

/// One column of the island world.
#[derive(Clone, Copy, Debug)]
struct Column {
    surface: i32,
    top: Block,
    under: Block,
    /// The biome look (version 2 with nature).
    kind: Option<Kind>,
}

/// What a chunk needs to know of a column's surface height: the height itself where
/// it lies in `exact` (half-open), elsewhere only on which side of `cut` it lies (the
/// blocks of a column wholly below or above the chunk do not depend on its height).
/// No cut is `i32::MIN`.
#[derive(Clone, Copy, Debug)]
struct Needs {
    exact: [i32; 2],
    cut: i32,
}

impl Needs {
    /// Whether every surface height in `lo..=hi` tells the chunk the same.
    #[inline]
    fn settled(&self, lo: i32, hi: i32) -> bool {
        (hi < self.exact[0] || lo >= self.exact[1]) && (hi < self.cut || lo >= self.cut)
    }
}

/// [`Needs`] in normalised heights before clamping, for guessing cheaply whether a
/// column is settled (only the exact test on surface heights decides).
#[derive(Clone, Copy, Debug)]
struct Plan {
    needs: Needs,
    /// Heights below the first and from the second look outside the exact range (or
    /// clamped to an end).
    outside: [f64; 2],
    /// The height at which the surface reaches the cut.
    cut: f64,
    /// Heights between these are well inside the exact range, and not clamped.
    inside: [f64; 2],
}

impl Plan {
    /// Whether normalised heights (before clamping) `guess - spread ..= guess +
    /// spread` look settled: on one side of the cut and all outside the exact range,
    /// or clamped to an end; and whether they are surely in it (then every octave is
    /// needed). `|` and `&`, not `||` and `&&`: no branches.
    #[inline(always)]
    fn looks(&self, guess: f64, spread: f64) -> (bool, bool) {
        let (lo, hi) = (guess - spread, guess + spread);
        let outside = (hi < self.outside[0]) | (lo >= self.outside[1]);
        let cut = (hi < self.cut) | (lo >= self.cut);
        let inside = (lo > self.inside[0]) & (hi < self.inside[1]);
        (outside & cut, inside)
    }
}

/// What [`IslandGen::settle_lanes`] keeps from one group of columns to the next.
struct Pass<'a> {
    plan: &'a Plan,
    /// Whether [`HeightNoise::near`] holds for every column.
    near: bool,
    /// Each octave's [`Cell`] that columns last fell in.
    cells: Vec<Cell>,
    /// The octave after which the next group is first tested.
    first: usize,
}

/// What a chunk learnt of one column.
#[derive(Clone, Copy, Debug)]
struct Settled {
    /// The surface height where `exact`, else the highest it may be: the surface is
    /// at most this, and on the same side as this of every threshold of the
    /// [`Needs`] it was settled for (outside its exact range).
    surface: i32,
    exact: bool,
    /// The normalised height where known, or one with the same surface and band
    /// (within the falloff's enclosure).
    h: Option<f64>,
    /// The sum of every octave, where computed.
    sum: Option<f64>,
}

/// The island generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct IslandGen {
    noise: HeightNoise,
    cfg: IslandConfig,
    seed: u64,
    surface: Surface,
    reach: f64,
    /// Version 2 layout (varied islands).
    varied: bool,
    /// Climate noise and the tree grid (version 2 with nature).
    nature: Option<(FieldNoise, TreeGrid)>,
    /// The most the octaves from each on can add to a column's octave sum (their
    /// amplitudes times [`HeightNoise::bound`]), with room for rounding.
    rests: Vec<f64>,
    /// About how fast the normalised height grows with the octave sum (half the
    /// inverse of the amplitude sum), for guesses.
    slope: f64,
    /// The first octave from which the octaves left move the surface by less than a
    /// block either way (so that it may be known before the last one).
    pin_from: usize,
    /// The steepness, where a whole number (see [`IslandGen::fall_bounds`]).
    whole_steepness: Option<u32>,
}

/// Normalised height bands to the biome table's height above sea level (blocks)
/// and continentalness: water, beach, land, rock, snow.
fn band_fields(b: &crate::config::Bands, h: f64) -> (f64, f64) {
    if h < b.shallow_water {
        (-30.0, -0.5)
    } else if h < b.sand {
        (0.0, -0.2)
    } else if h < b.rock {
        (8.0 + 50.0 * (h - b.sand) / (b.rock - b.sand), 0.3)
    } else if h < b.rock + (1.0 - b.rock) * 0.4 {
        (80.0, 0.3)
    } else {
        (130.0, 0.3)
    }
}

/// Whether any of `flags` is set, found without a branch for each flag (as
/// `Iterator::any` takes, whose way lanes of columns make hard to guess).
#[inline(always)]
fn any<const N: usize>(flags: [bool; N]) -> bool {
    flags.iter().fold(false, |a, &f| a | f)
}

/// `v.floor() as i32`, without the library call `floor` is on baseline x86-64.
#[inline(always)]
fn floor_i32(v: f64) -> i32 {
    if (-2_147_483_647.0..=2_147_483_647.0).contains(&v) {
        // Truncation rounds up below zero.
        let t = v as i32;
        t - i32::from(f64::from(t) > v)
    } else {
        // Beyond the range (saturating) or not a number (0): rare.
        v.floor() as i32
    }
}

impl IslandGen {
    /// The generator of an island world with seed `seed`, sea level `sea_level`,
    /// generator version `version` and `nature` (version 2).
    pub(crate) fn new(
        cfg: &IslandConfig,
        seed: u64,
        sea_level: i32,
        version: u32,
        nature: Option<&NatureConfig>,
    ) -> Self {
        let fbm = Fbm::new(
            cfg.kind,
            seed,
            1,
            1.0 / cfg.noise_scale,
            cfg.octaves,
            cfg.persistence,
            cfg.lacunarity,
        );
        let noise = HeightNoise::new(fbm);
        let fbm = noise.fbm();
        // Each octave adds at most its amplitude times the noise's bound; a sum of a
        // few dozen terms at most a few units each is off by far less than the slack.
        let slack = 1e-9 * (1.0 + fbm.rest(0));
        let rests: Vec<f64> = (0..=fbm.octaves())
            .map(|i| noise.bound() * fbm.rest(i) + slack)
            .collect();
        let slope = 0.5 / fbm.rest(0);
        let pin_from = (0..fbm.octaves())
            .find(|&i| slope * rests[i] * cfg.height_scale < 0.5)
            .unwrap_or(fbm.octaves());
        Self {
            noise,
            cfg: cfg.clone(),
            seed,
            surface: Surface {
                sea_level,
                snow_line: i32::MAX,
            },
            reach: cfg.island_size * cfg.radius,
            varied: version >= 2,
            nature: nature.map(|n| (FieldNoise::new(seed, None, Some(n)), TreeGrid::new(seed, n))),
            rests,
            slope,
            pin_from,
            whole_steepness: (cfg.steepness.fract() == 0.0 && (1.0..=8.0).contains(&cfg.steepness))
                .then_some(cfg.steepness as u32),
        }
    }

    /// Whether chunks grow trees.
    fn trees(&self) -> bool {
        self.tree_grid().is_some()
    }

    /// The tree grid, when chunks grow trees.
    fn tree_grid(&self) -> Option<TreeGrid> {
        self.nature
            .as_ref()
            .map(|&(_, grid)| grid)
            .filter(TreeGrid::grows)
    }

    /// The S-curve falloff `g^a / (g^a + (b - b*g)^a)`.
    pub(crate) fn falloff(&self, g: f64) -> f64 {
        let (a, b) = (self.cfg.steepness, self.cfg.attenuation);
        let ga = g.powf(a);
        ga / (ga + (b - b * g).powf(a))
    }

    /// The island of archipelago cell `(i, j)`, if it has one.
    fn cell_island(&self, i: i64, j: i64, cell: f64, jitter: f64) -> Option<Island> {
        let h = mix64(self.seed ^ mix64((i as u64) ^ mix64(j as u64 ^ 0x5157_4c41_4e44)));
        let unit = |bits: u64| (bits & 0xffff) as f64 / 65535.0;
        let (size, angle, aspect, boost) = if self.varied {
            // Some cells empty (never the one at the centre), many islets, a few big
            // islands with mountains, ellipses at any angle.
            if unit(h >> 48) < 0.25 && (i, j) != (0, 0) {
                return None;
            }
            let shape = mix64(h);
            let size = 0.5 + 1.3 * unit(h >> 32).powi(2);
            (
                size,
                unit(shape) * std::f64::consts::PI,
                0.55 + 0.45 * unit(shape >> 16),
                0.45 * (size - 1.0).max(0.0),
            )
        } else {
            (0.7 + 0.3 * unit(h >> 32), 0.0, 1.0, 0.0)
        };
        let reach = self.reach * size;
        // Version 2 lets a centre go anywhere in its cell (islands may merge), so the
        // grid does not show; version 1 kept every island inside its cell.
        let room = if self.varied {
            cell * 0.5
        } else {
            (cell * 0.5 - reach).max(0.0)
        } * jitter;
        let [ox, oz] = self.cfg.centre_offset;
        Some(Island {
            centre: [
                ox + i as f64 * cell + (unit(h) * 2.0 - 1.0) * room,
                oz + j as f64 * cell + (unit(h >> 16) * 2.0 - 1.0) * room,
            ],
            reach,
            angle,
            aspect,
            boost,
        })
    }

    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]`.
    pub(crate) fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        let candidates = match self.cfg.layout {
            IslandLayout::Single => vec![Island {
                centre: self.cfg.centre_offset,
                reach: self.reach,
                angle: 0.0,
                aspect: 1.0,
                boost: 0.0,
            }],
            IslandLayout::Archipelago { cell_size, jitter } => {
                let [ox, oz] = self.cfg.centre_offset;
                let ci = |v: f64, o: f64| ((v - o) / cell_size + 0.5).floor() as i64;
                let mut v = Vec::new();
                for j in ci(z0, oz) - 1..=ci(z1, oz) + 1 {
                    for i in ci(x0, ox) - 1..=ci(x1, ox) + 1 {
                        v.extend(self.cell_island(i, j, cell_size, jitter));
                    }
                }
                v
            }
        };
        candidates
            .into_iter()
            .filter(|isl| {
                let dx = isl.centre[0] - isl.centre[0].clamp(x0, x1);
                let dz = isl.centre[1] - isl.centre[1].clamp(z0, z1);
                (dx * dx + dz * dz).sqrt() < isl.reach
            })
            .collect()
    }

    /// [`IslandGen::islands_near`] the columns `x0..=x1` by `z0..=z1`, ready for
    /// [`IslandGen::g`].
    fn near(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> Vec<Near> {
        self.islands_near(x0 as f64, z0 as f64, x1 as f64, z1 as f64)
            .into_iter()
            .map(|island| {
                let (sin, cos) = island.angle.sin_cos();
                Near { island, sin, cos }
            })
            .collect()
    }

    /// `g` at a column given the islands near it, and the nearest island's boost.
    #[inline]
    fn g(&self, islands: &[Near], x: f64, z: f64) -> (f64, f64) {
        let ([g], [boost]) = self.g_lanes(islands, [x], [z]);
        (g, boost)
    }

    /// [`IslandGen::g`] at `N` columns.
    #[inline(always)]
    fn g_lanes<const N: usize>(
        &self,
        islands: &[Near],
        x: [f64; N],
        z: [f64; N],
    ) -> ([f64; N], [f64; N]) {
        // The first nearest island, as a fold from (1, 0) taking strictly nearer ones.
        let (mut g, mut boost) = ([1.0; N], [0.0; N]);
        for &Near {
            island: isl,
            sin,
            cos,
        } in islands
        {
            for l in 0..N {
                let (dx, dz) = (x[l] - isl.centre[0], z[l] - isl.centre[1]);
                let d = if self.varied {
                    let (u, v) = (dx * cos + dz * sin, (dz * cos - dx * sin) / isl.aspect);
                    (u * u + v * v).sqrt()
                } else {
                    (dx * dx + dz * dz).sqrt()
                };
                let here = d / isl.reach;
                if here < g[l] {
                    (g[l], boost[l]) = (here, isl.boost);
                }
            }
        }
        (g, boost)
    }

    /// [`IslandGen::falloff`] enclosed without `powf` where the steepness is a whole
    /// number (else exactly): `[lo, hi]`, `None` where that cannot be done well.
    ///
    /// `powf` is the costliest step of a column after the noise, and what a chunk
    /// needs of a column rarely depends on the falloff's last bits: the enclosure
    /// decides it but where the surface lies within about `1e-10` blocks of a whole
    /// number (then the falloff itself is computed). The powers here are products,
    /// within a few rounding errors of the true powers, as `powf`'s results are (the
    /// common libraries' `pow` is accurate to about 1 ULP, glibc's to 0.52); the
    /// quotient's relative error is at most the sum of theirs and its own rounding,
    /// so `1e-12` either way (thousands of ULPs) holds what `falloff(g)` computes.
    /// Powers near the subnormal range lose relative precision and are not enclosed.
    #[inline(always)]
    fn fall_bounds(&self, g: f64) -> Option<[f64; 2]> {
        let Some(k) = self.whole_steepness else {
            let fall = self.falloff(g);
            return Some([fall, fall]);
        };
        let b = self.cfg.attenuation;
        let (x, y) = (g, b - b * g);
        let (mut gx, mut gy) = (x, y);
        for _ in 1..k {
            gx *= x;
            gy *= y;
        }
        const REL: f64 = 1e-12;
        let fall = gx / (gx + gy);
        (gx > 1e-290 && gy > 1e-290 && fall.is_finite())
            .then_some([fall * (1.0 - REL), fall * (1.0 + REL)])
    }

    /// The shape of a column given the islands near it; `None` where no island
    /// reaches it (`g = 1`: `fall(1) = 1` and `h01 <= 1`, so the height is 0 whatever
    /// the noise).
    #[inline]
    fn shape(&self, islands: &[Near], x: f64, z: f64) -> Option<Shape> {
        let (g, boost) = self.g(islands, x, z);
        (g < 1.0).then(|| Shape {
            fall: self.falloff(g),
            lift: boost * (1.0 - g) * (1.0 - g),
        })
    }

    /// The normalised height `0..=1` of a column of shape `shape` and octave sum `sum`.
    #[inline]
    fn height_of(&self, shape: Shape, sum: f64) -> f64 {
        self.height_with(sum, shape.fall, shape.lift)
    }

    /// The normalised height `0..=1` of a column of octave sum `sum`, falloff `fall`
    /// and lift `lift`: non-decreasing in `sum`, non-increasing in `fall`.
    #[inline(always)]
    fn height_with(&self, sum: f64, fall: f64, lift: f64) -> f64 {
        let h01 = (self.noise.finish(sum) + 1.0) * 0.5;
        (h01 - fall + lift).clamp(0.0, 1.0)
    }

    /// The normalised heights at the ends of octave sums `sums` (low, high) of a
    /// column roughly `rough`: the column's height lies between them.
    #[inline(always)]
    fn heights(&self, rough: &Rough, sums: [f64; 2]) -> [f64; 2] {
        [
            self.height_with(sums[0], rough.fall[1], rough.lift),
            self.height_with(sums[1], rough.fall[0], rough.lift),
        ]
    }

    /// Normalised height `0..=1` of a column.
    fn height01(&self, islands: &[Near], x: f64, z: f64) -> f64 {
        self.shape(islands, x, z)
            .map_or(0.0, |shape| self.height_of(shape, self.noise.sum(x, z)))
    }

    /// [`IslandGen::height01`] with the fBm evaluated through the `noise` crate, as
    /// the reference chunk does.
    fn height01_reference(&self, islands: &[Near], x: f64, z: f64) -> f64 {
        self.shape(islands, x, z).map_or(0.0, |shape| {
            (((self.noise.fbm().get2(x, z) + 1.0) * 0.5) - shape.fall + shape.lift).clamp(0.0, 1.0)
        })
    }

    /// Surface height in blocks of a normalised height: sea level at the top of the
    /// shallow-water band.
    #[inline]
    fn surface_y(&self, h: f64) -> i32 {
        let s = self.surface.sea_level as f64
            + (h - self.cfg.bands.shallow_water) * self.cfg.height_scale;
        floor_i32(s)
    }

    /// The normalised height (before clamping) at which the surface reaches `y`.
    fn height_at(&self, y: i32) -> f64 {
        self.cfg.bands.shallow_water
            + (y as f64 - self.surface.sea_level as f64) / self.cfg.height_scale
    }

    /// `needs` with its thresholds in normalised heights.
    fn plan(&self, needs: Needs) -> Plan {
        let at = |y: i32| {
            if y == i32::MIN {
                f64::NEG_INFINITY
            } else {
                self.height_at(y)
            }
        };
        let exact = needs.exact.map(at);
        // Room for the guess's error, which is far smaller.
        const WIDE: f64 = 1e-6;
        Plan {
            needs,
            outside: [exact[0].max(0.0), exact[1].min(1.0)],
            cut: at(needs.cut),
            inside: [(exact[0] + WIDE).max(0.0), (exact[1] - WIDE).min(1.0)],
        }
    }

    /// A column of the open sea: height 0, without noise.
    fn open_sea(&self) -> Settled {
        Settled {
            surface: self.surface_y(0.0),
            exact: true,
            h: Some(0.0),
            sum: None,
        }
    }

    /// The rough shape of a column `g` of the way to the edge of an island of boost
    /// `boost` (`g < 1`).
    #[inline]
    fn rough(&self, g: f64, boost: f64) -> Rough {
        let fall = self.fall_bounds(g).unwrap_or_else(|| {
            let fall = self.falloff(g);
            [fall, fall]
        });
        Rough {
            g,
            lift: boost * (1.0 - g) * (1.0 - g),
            fall,
        }
    }

    /// About the height of a column of shape `rough` before clamping, less
    /// `self.slope` times its octave sum.
    #[inline]
    fn base(rough: &Rough) -> f64 {
        0.5 - rough.fall[0] + rough.lift
    }

    /// What `plan` needs of a column of shape `rough` whose octave sum lies within
    /// `r` of `sum`, if that settles it.
    #[inline]
    fn try_settle(&self, rough: &Rough, sum: f64, r: f64, plan: &Plan) -> Option<Settled> {
        let [h0, h1] = self.heights(rough, [sum - r, sum + r]);
        if h0 == h1 {
            // Clamped: the height is known.
            return Some(Settled {
                surface: self.surface_y(h1),
                exact: true,
                h: Some(h1),
                sum: None,
            });
        }
        let (s0, s1) = (self.surface_y(h0), self.surface_y(h1));
        let (lo, hi) = (s0.min(s1), s0.max(s1));
        (plan.needs.settled(lo, hi) || (lo == hi && self.nature.is_some())).then_some(Settled {
            surface: hi,
            exact: lo == hi,
            h: None,
            sum: None,
        })
    }

    /// A column of shape `rough` and octave sum `sum` (every octave): the height is
    /// known but for the falloff's enclosure, which nearly always decides what
    /// matters; where not, the falloff itself.
    #[inline(always)]
    fn settle_sum(&self, rough: &Rough, sum: f64) -> Settled {
        let [h0, h1] = self.heights(rough, [sum, sum]);
        let (s0, s1) = (self.surface_y(h0), self.surface_y(h1));
        let alike =
            s0 == s1 && (self.nature.is_some() || self.column_at(h0).top == self.column_at(h1).top);
        let (h, surface) = if alike {
            (h0, s0)
        } else {
            let h = self.height_with(sum, self.falloff(rough.g), rough.lift);
            (h, self.surface_y(h))
        };
        Settled {
            surface,
            exact: true,
            h: Some(h),
            sum: Some(sum),
        }
    }

    /// Whether the octaves from `from` on may pin a surface (see
    /// [`IslandGen::pin_from`]) that alone matters (with nature), and the surface
    /// heights the guess `guess` give or take `spread` spans are one.
    #[inline]
    fn pinned(&self, from: usize, guess: f64, spread: f64) -> bool {
        self.nature.is_some()
            && from >= self.pin_from
            && self.surface_y(guess - spread) == self.surface_y(guess + spread)
    }

    /// What `plan` needs of column `(x, z)` given the islands near it: its octaves
    /// summed in order until those left cannot change that (the sum stays within
    /// [`IslandGen::rests`] of the partial sum, and the surface between the heights
    /// at the two ends, the height being monotonic in the sum and the falloff), else
    /// all of them.
    fn settle(&self, islands: &[Near], x: i32, z: i32, plan: &Plan) -> Settled {
        let (fx, fz) = (x as f64, z as f64);
        let (g, boost) = self.g(islands, fx, fz);
        if g >= 1.0 {
            return self.open_sea();
        }
        let rough = self.rough(g, boost);
        let n = self.noise.octaves();
        let mut sum = 0.0;
        for i in 0..n - 1 {
            sum += self.noise.term(i, fx, fz);
            let (r, guess) = (self.rests[i + 1], Self::base(&rough) + self.slope * sum);
            let (settled, _) = plan.looks(guess, self.slope * r);
            if (settled || self.pinned(i + 1, guess, self.slope * r))
                && let Some(settled) = self.try_settle(&rough, sum, r, plan)
            {
                return settled;
            }
        }
        sum += self.noise.term(n - 1, fx, fz);
        self.settle_sum(&rough, sum)
    }

    /// [`IslandGen::settle`] for many columns, their octaves evaluated [`LANES`]
    /// columns at a time.
    fn settle_all(&self, islands: &[Near], columns: &[(i32, i32)], plan: &Plan) -> Vec<Settled> {
        let mut out = vec![self.open_sea(); columns.len()];
        // Every column's shape first: its divisions and roots then overlap.
        let mut shapes = Vec::with_capacity(columns.len());
        for group in columns.chunks(LANES) {
            let at = |l: usize| group[l.min(group.len() - 1)];
            let (g, boost) = self.g_lanes::<LANES>(
                islands,
                std::array::from_fn(|l| at(l).0 as f64),
                std::array::from_fn(|l| at(l).1 as f64),
            );
            for l in 0..group.len() {
                shapes.push((g[l] < 1.0).then(|| self.rough(g[l], boost[l])));
            }
        }
        // The coordinates in memory written well before the noise reads them (read
        // right after being written a few at a time, they would wait for the writes).
        let x: Vec<f64> = columns.iter().map(|c| c.0 as f64).collect();
        let z: Vec<f64> = columns.iter().map(|c| c.1 as f64).collect();
        let far = x.iter().chain(&z).fold(0.0f64, |m, c| m.max(c.abs()));
        let mut pass = Pass {
            plan,
            near: self.noise.near(far),
            cells: vec![Cell::NONE; self.noise.octaves()],
            first: 1,
        };
        let mut groups = x
            .chunks_exact(LANES)
            .zip(z.chunks_exact(LANES))
            .zip(shapes.chunks_exact(LANES));
        let mut settled = out.chunks_exact_mut(LANES);
        for (((x, z), shapes), out) in (&mut groups).zip(&mut settled) {
            let xz = [x, z].map(|v| v.try_into().expect("a group"));
            let shapes: [Option<Rough>; LANES] = std::array::from_fn(|l| shapes[l]);
            let out: &mut [Settled; LANES] = out.try_into().expect("a group");
            self.settle_lanes(&mut pass, xz, shapes, out);
        }
        let rest = columns.len() / LANES * LANES;
        for (&(x, z), out) in columns[rest..].iter().zip(settled.into_remainder()) {
            *out = self.settle(islands, x, z, plan);
        }
        out
    }

    /// [`IslandGen::settle`] for [`LANES`] columns `[x, z]` of shapes `shapes`
    /// (`None`: open sea) into `out`, their octaves evaluated together, tested from
    /// octave `pass.first` on (as soon as any is, where the octaves left may pin a
    /// surface). Neighbouring columns settle alike: the next group is first tested
    /// one octave before this group's columns first settled, and one octave later if
    /// none did (so that in a chunk whose surface blocks need every octave of every
    /// column, columns are soon not tested at all). Once no column is tested, the
    /// octaves left (up to those that may pin a surface) are summed in one go.
    #[inline]
    fn settle_lanes(
        &self,
        pass: &mut Pass<'_>,
        [x, z]: [&[f64; LANES]; 2],
        shapes: [Option<Rough>; LANES],
        out: &mut [Settled; LANES],
    ) {
        *out = [self.open_sea(); LANES];
        // The columns still summed (open sea needs no noise), and those tested.
        let mut active = shapes.map(|s| s.is_some());
        let mut testing = active;
        let rough = shapes.map(|s| {
            s.unwrap_or(Rough {
                g: 1.0,
                lift: 0.0,
                fall: [1.0; 2],
            })
        });
        let base = rough.map(|r| Self::base(&r));
        let first = pass.first;
        let mut settled_at = None;
        let mut sums = [0.0; LANES];
        let n = self.noise.octaves();
        // Octaves that may pin a surface (where only the surface matters) are tested.
        let pin_from = if self.nature.is_some() {
            self.pin_from
        } else {
            n
        };
        let mut i = 0;
        while i < n && any(active) {
            // Without columns to test, the octaves up to those that may pin go at once
            // (and those before the first tested).
            let end = if any(testing) {
                first.max(i + 1).min(n)
            } else {
                pin_from.clamp(i + 1, n)
            };
            self.noise
                .add_terms(i..end, x, z, pass.near, &mut pass.cells, &mut sums);
            i = end;
            let pins = i >= pin_from;
            if i == n || !(pins || any(testing)) {
                continue;
            }
            let (r, spread) = (self.rests[i], self.slope * self.rests[i]);
            for l in 0..LANES {
                if !(testing[l] || pins && active[l]) {
                    continue;
                }
                let guess = base[l] + self.slope * sums[l];
                let (settled, inside) = pass.plan.looks(guess, spread);
                testing[l] &= !inside;
                if !(settled || self.pinned(i, guess, spread)) {
                    continue;
                }
                if let Some(settled) = self.try_settle(&rough[l], sums[l], r, pass.plan) {
                    out[l] = settled;
                    (active[l], testing[l]) = (false, false);
                    settled_at = settled_at.or(Some(i));
                }
            }
        }
        for l in 0..LANES {
            if active[l] {
                out[l] = self.settle_sum(&rough[l], sums[l]);
            }
        }
        pass.first = settled_at.map_or(first + 1, |at| at - 1).max(1);
    }

    /// The biome of a lattice column from its normalised height and climate.
    fn biome(&self, h: f64, f: &Fields) -> Biome {
        let (height, c) = band_fields(&self.cfg.bands, h);
        biome::choose(&Fields { c, e: 0.0, ..*f }, height, 0.0)
    }

    /// Column `(x, z)` given the islands near it (with no biome look yet), evaluated
    /// as the reference chunk does.
    fn column_reference(&self, islands: &[Near], x: i32, z: i32) -> Column {
        self.column_at(self.height01_reference(islands, x as f64, z as f64))
    }

    /// A column of normalised height `h` (with no biome look yet).
    fn column_at(&self, h: f64) -> Column {
        let b = &self.cfg.bands;
        let top = if h < b.deep_water {
            Block::Gravel
        } else if h < b.sand {
            Block::Sand
        } else if h < b.grass {
            Block::Grass
        } else if h < b.forest {
            Block::ForestFloor
        } else if h < b.rock {
            Block::Stone
        } else {
            Block::Snow
        };
        let under = match top {
            Block::Gravel | Block::Sand => Block::Sand,
            Block::Grass | Block::ForestFloor => Block::Dirt,
            _ => Block::Stone,
        };
        Column {
            surface: self.surface_y(h),
            top,
            under,
            kind: None,
        }
    }

    /// About the noise octaves [`IslandGen::column_top`] evaluates (plus finding the
    /// nearby islands).
    pub(crate) fn column_cost(&self) -> usize {
        self.noise.octaves() + 9
    }

    /// The biomes of the `n` by `n` lattice columns every [`biome::STEP`] blocks from
    /// world column `(x0, z0)`, `[k][i]` (with nature), given the normalised heights
    /// of columns from the islands near the lattice.
    fn lattice_biomes(
        &self,
        x0: i32,
        z0: i32,
        n: usize,
        heights: impl FnOnce(&[Near], &[(i32, i32)]) -> Vec<f64>,
    ) -> Option<Vec<Biome>> {
        let (noise, _) = self.nature.as_ref()?;
        let far = (n as i32 - 1) * biome::STEP;
        let coarse = noise.grid(x0, z0, x0 + far, z0 + far);
        let islands = self.near(x0, z0, x0 + far, z0 + far);
        let at: Vec<(i32, i32)> = (0..n * n)
            .map(|p| {
                let x = x0 + (p % n) as i32 * biome::STEP;
                (x, z0 + (p / n) as i32 * biome::STEP)
            })
            .collect();
        let h = heights(&islands, &at);
        Some(
            at.iter()
                .zip(h)
                .map(|(&(x, z), h)| self.biome(h, &coarse.at(x, z)))
                .collect(),
        )
    }

    /// The sums of every octave at columns `at`, [`LANES`] columns at a time.
    fn sums(&self, at: &[(i32, i32)]) -> Vec<f64> {
        let octaves = self.noise.octaves();
        let mut cells = vec![Cell::NONE; octaves];
        let far = at.iter().fold(0.0f64, |m, &(x, z)| {
            m.max((x as f64).abs()).max((z as f64).abs())
        });
        let near = self.noise.near(far);
        let mut out = Vec::with_capacity(at.len());
        for group in at.chunks(LANES) {
            // A short group repeats its last column.
            let pick = |l: usize| group[l.min(group.len() - 1)];
            let mut sums = [0.0; LANES];
            self.noise.add_terms(
                0..octaves,
                &std::array::from_fn(|l| pick(l).0 as f64),
                &std::array::from_fn(|l| pick(l).1 as f64),
                near,
                &mut cells,
                &mut sums,
            );
            out.extend_from_slice(&sums[..group.len()]);
        }
        out
    }

    /// The biome look of block column `(x, z)` (with nature).
    fn kind_at(&self, x: i32, z: i32) -> Option<Kind> {
        let (x0, z0) = (
            x.div_euclid(biome::STEP) * biome::STEP,
            z.div_euclid(biome::STEP) * biome::STEP,
        );
        let b = self.lattice_biomes(x0, z0, 2, |islands, at| {
            at.iter()
                .map(|&(x, z)| self.height01(islands, x as f64, z as f64))
                .collect()
        })?;
        Some(biome::column_kind(
            self.seed,
            x,
            z,
            [b[0], b[1], b[2], b[3]],
        ))
    }

    /// The fields at each of `columns`: the climate, in worlds with nature.
    pub(crate) fn fields_along(&self, columns: &[[i32; 2]]) -> Vec<ColumnFields> {
        columns
            .iter()
            .map(|&[x, z]| {
                let mut out = ColumnFields::default();
                if let Some((noise, _)) = &self.nature {
                    let f = noise.at(x, z);
                    out.set(Field::Temperature, f.t);
                    out.set(Field::Humidity, f.h);
                }
                out
            })
            .collect()
    }

    /// The biome of block column `(x, z)` (with nature).
    pub(crate) fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        self.kind_at(x, z).map(biome::biome_of)
    }

    /// The highest solid block of a column (trees aside) and its block type.
    pub(crate) fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let h = self.height01(&self.near(x, z, x, z), x as f64, z as f64);
        let mut c = self.column_at(h);
        c.kind = self.kind_at(x, z);
        (
            c.surface,
            self.block_in(&c, c.surface),
            c.kind.map(biome::biome_of),
        )
    }

    /// The block at height `y` of a column.
    #[inline]
    fn block_in(&self, c: &Column, y: i32) -> Block {
        let depth = c.surface - y;
        if depth < 0 {
            return self.surface.fluid_block(y);
        }
        match c.kind {
            Some(k) => self.surface.biome_block(y, depth.min(4), k),
            None => match depth {
                0 => c.top,
                1..=3 => c.under,
                _ => Block::Stone,
            },
        }
    }

    /// The columns of the padded chunk with their trees' trunk columns (local
    /// coordinates `lo..=hi` on both axes), and the lattice point the chunk's biome
    /// grid starts from with the number of points along each side.
    fn extent(&self) -> ((i32, i32), i32, usize) {
        let (lo, hi) = if self.trees() {
            (-1 - CROWN, CHUNK + CROWN)
        } else {
            (-1, CHUNK)
        };
        let first = lo.div_euclid(biome::STEP) * biome::STEP;
        let points = (hi - first).div_euclid(biome::STEP) as usize + 2;
        ((lo, hi), first, points)
    }

    /// One chunk, with padding, and the grass tints of its columns (with nature).
    ///
    /// The chunk is water or air where every column of it and of the trunks reaching
    /// into it lies below it by more than the tallest tree, stone where every one
    /// lies 4 blocks or more above it (no tints either way), else its blocks by the
    /// columns' heights and looks, and its trees.
    pub(crate) fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let o = pos.origin();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        let crowns = if self.trees() { TALLEST } else { 0 };
        if o.y - 1 > highest + crowns {
            return (self.surface.fluid_chunk(pos), None);
        }
        if o.y + CHUNK + 4 <= lowest {
            return (Chunk::Uniform(Block::Stone), None);
        }
        let ((lo, hi), first, points) = self.extent();
        let islands = self.near(o.x + lo, o.z + lo, o.x + hi, o.z + hi);
        // Columns below `sunk` leave the chunk to water and air even with a tree on
        // them, columns from `buried` on leave it stone; those between `open` and
        // `buried` are what the chunk's surface blocks come from.
        let (sunk, open, buried) = (o.y - 1 - crowns, o.y - 1, o.y + CHUNK + 4);
        let padded = self.plan(Needs {
            exact: [open, buried],
            cut: i32::MIN,
        });
        let at: Vec<(i32, i32)> = (0..PADDED * PADDED)
            .map(|i| (o.x + (i % PADDED) as i32 - 1, o.z + (i / PADDED) as i32 - 1))
            .collect();
        let columns = self.settle_all(&islands, &at, &padded);
        let column = |lx: i32, lz: i32| &columns[(lz + 1) as usize * PADDED + (lx + 1) as usize];
        let padding = |l: i32| (-1..=CHUNK).contains(&l);
        // The columns of the padded chunk and of the trunks reaching into it.
        let area = || (lo..=hi).flat_map(|lz| (lo..=hi).map(move |lx| (lx, lz)));
        let only = |cut: i32| {
            self.plan(Needs {
                exact: [i32::MIN; 2],
                cut,
            })
        };
        if columns.iter().all(|c| c.surface < open) {
            // Water and air unless a tree may reach in: settle columns for `sunk`
            // where not known, the highest first (usually one shows at once that
            // trees may reach in).
            let plan = only(sunk);
            let below = |(lx, lz): (i32, i32)| {
                let known = (padding(lx) && padding(lz))
                    .then(|| column(lx, lz))
                    .filter(|c| c.exact || c.surface < sunk);
                let s = known.map_or_else(
                    || self.settle(&islands, o.x + lx, o.z + lz, &plan).surface,
                    |c| c.surface,
                );
                s + crowns < o.y - 1
            };
            let highest = (0..PADDED * PADDED)
                .max_by_key(|&i| columns[i].surface)
                .map(|i| ((i % PADDED) as i32 - 1, (i / PADDED) as i32 - 1));
            if highest.is_none_or(below) && area().all(below) {
                return (self.surface.fluid_chunk(pos), None);
            }
        }
        if columns.iter().all(|c| c.surface >= buried) {
            let plan = only(buried);
            let stone = area().all(|(lx, lz)| {
                padding(lx) && padding(lz)
                    || self.settle(&islands, o.x + lx, o.z + lz, &plan).surface >= o.y + CHUNK + 4
            });
            if stone {
                return (Chunk::Uniform(Block::Stone), None);
            }
        }
        let lattice = self.lattice_biomes(o.x + first, o.z + first, points, |near, at| {
            // Exact heights (the biome table takes them as they are): from the sums of
            // the block columns where computed, else summed here.
            let shapes: Vec<Option<Shape>> = at
                .iter()
                .map(|&(x, z)| self.shape(near, x as f64, z as f64))
                .collect();
            let known = |(x, z): (i32, i32)| {
                let (lx, lz) = (x - o.x, z - o.z);
                (padding(lx) && padding(lz))
                    .then(|| column(lx, lz).sum)
                    .flatten()
            };
            let missing: Vec<(i32, i32)> = at
                .iter()
                .zip(&shapes)
                .filter(|&(&c, shape)| shape.is_some() && known(c).is_none())
                .map(|(&c, _)| c)
                .collect();
            let mut summed = self.sums(&missing).into_iter();
            at.iter()
                .zip(shapes)
                .map(|(&c, shape)| {
                    shape.map_or(0.0, |shape| {
                        let sum = known(c).or_else(|| summed.next());
                        self.height_of(shape, sum.expect("a sum for every missing column"))
                    })
                })
                .collect()
        });
        let mut kinds = vec![0; PADDED * PADDED];
        let tints = lattice.as_ref().map(|biomes| {
            biome::columns(
                self.seed,
                [o.x, o.z],
                (-1, CHUNK),
                first,
                biomes,
                &mut kinds,
            )
        });
        let blocks = self.fill(o.y, &columns, lattice.is_some().then_some(&kinds[..]));
        let mut chunk = Chunk::Dense(blocks);
        if let (Some(grid), Some(biomes)) = (self.tree_grid(), &lattice) {
            let area = [o.x + lo, o.z + lo, o.x + hi, o.z + hi];
            let trees = grid.trees(area, |t| {
                let (lx, lz) = (t.x - o.x, t.z - o.z);
                Some(if padding(lx) && padding(lz) {
                    kinds[(lz + 1) as usize * PADDED + (lx + 1) as usize]
                } else {
                    biome::lattice_kind(self.seed, [o.x, o.z], first, biomes, lx, lz)
                })
            });
            // A trunk column's one soil block is its surface; it matters from `sunk`
            // up to the top of the chunk.
            let trunk = self.plan(Needs {
                exact: [sunk, buried],
                cut: i32::MIN,
            });
            planting::plant(&mut chunk, o, self.surface, &trees, |t| {
                let (lx, lz) = (t.trunk.x - o.x, t.trunk.z - o.z);
                let known = (padding(lx) && padding(lz))
                    .then(|| column(lx, lz))
                    .filter(|c| c.exact || trunk.needs.settled(c.surface, c.surface));
                [known.map_or_else(
                    || self.settle(&islands, t.trunk.x, t.trunk.z, &trunk).surface,
                    |c| c.surface,
                )]
            });
        }
        (chunk, tints)
    }

    /// The padded blocks of the chunk whose lowest block is at `y0` from its
    /// settled columns (`[z][x]`) and, with nature, their looks.
    fn fill(
        &self,
        y0: i32,
        columns: &[Settled],
        kinds: Option<&[Kind]>,
    ) -> Box<[Block; terravox_voxel::PADDED_VOLUME]> {
        let mut blocks = dense_array(Block::Air);
        // Stone at and below each column's surface and the fluid above it, a row at a
        // time (where the row is not all one, by selects the compiler does several
        // at once)...
        for (lz, row) in (-1..=CHUNK).zip(columns.chunks_exact(PADDED)) {
            let surface: [i32; PADDED] = std::array::from_fn(|x| row[x].surface);
            let (low, high) = surface
                .iter()
                .fold((i32::MAX, i32::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
            for ly in -1..=CHUNK {
                let y = y0 + ly;
                let fluid = self.surface.fluid_block(y);
                let start = padded_index(-1, ly, lz);
                let out: &mut [Block; PADDED] = (&mut blocks[start..start + PADDED])
                    .try_into()
                    .expect("a row of blocks");
                // Whole rows by assignment of fixed size (stores, not `memset` calls).
                if high < y {
                    *out = [fluid; PADDED];
                } else if low >= y {
                    *out = [Block::Stone; PADDED];
                } else {
                    for (b, &s) in out.iter_mut().zip(&surface) {
                        *b = if s >= y { Block::Stone } else { fluid };
                    }
                }
            }
        }
        // ...then the four blocks from each surface down, where in the chunk.
        let layer = PADDED * PADDED;
        for (i, c) in columns.iter().enumerate() {
            let top = c.surface - y0;
            if !(-1..=CHUNK + 3).contains(&top) {
                continue;
            }
            let tops: [Block; 4] = match kinds {
                Some(kinds) => std::array::from_fn(|d| {
                    let d = d as i32;
                    self.surface.biome_block(c.surface - d, d, kinds[i])
                }),
                None => {
                    // The bands' look: every column in the chunk has its height.
                    let look = self.column_at(c.h.expect("a column in the chunk is computed"));
                    [look.top, look.under, look.under, look.under]
                }
            };
            for (ly, b) in (top - 3..=top).rev().zip(tops) {
                if (-1..=CHUNK).contains(&ly) {
                    blocks[(ly + 1) as usize * layer + i] = b;
                }
            }
        }
        blocks
    }

    /// The chunk computed naively: every column on its own (looking up its islands
    /// again, its fBm through the `noise` crate, every octave). Equals
    /// [`IslandGen::generate`].
    pub(crate) fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        let o = pos.origin();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        let crowns = if self.trees() { TALLEST } else { 0 };
        if o.y - 1 > highest + crowns {
            return self.surface.fluid_chunk(pos);
        }
        if o.y + CHUNK + 4 <= lowest {
            return Chunk::Uniform(Block::Stone);
        }
        let ((lo, hi), first, points) = self.extent();
        let width = (hi - lo + 1) as usize;
        let mut columns = Vec::with_capacity(width * width);
        for lz in lo..=hi {
            for lx in lo..=hi {
                let (x, z) = (o.x + lx, o.z + lz);
                columns.push(self.column_reference(&self.near(x, z, x, z), x, z));
            }
        }
        if columns.iter().all(|c| c.surface + crowns < o.y - 1) {
            return self.surface.fluid_chunk(pos);
        }
        if columns.iter().all(|c| c.surface >= o.y + CHUNK + 4) {
            return Chunk::Uniform(Block::Stone);
        }
        let lattice = self.lattice_biomes(o.x + first, o.z + first, points, |islands, at| {
            at.iter()
                .map(|&(x, z)| self.height01_reference(islands, x as f64, z as f64))
                .collect()
        });
        if let Some(biomes) = lattice {
            let mut kinds = vec![0; width * width];
            biome::columns(self.seed, [o.x, o.z], (lo, hi), first, &biomes, &mut kinds);
            for (c, k) in columns.iter_mut().zip(kinds) {
                c.kind = Some(k);
            }
        }
        let column = |lx: i32, lz: i32| &columns[(lz - lo) as usize * width + (lx - lo) as usize];
        let mut blocks = dense_array(Block::Air);
        for lz in -1..=CHUNK {
            for lx in -1..=CHUNK {
                let c = column(lx, lz);
                for ly in -1..=CHUNK {
                    blocks[padded_index(lx, ly, lz)] = self.block_in(c, o.y + ly);
                }
            }
        }
        let mut chunk = Chunk::Dense(blocks);
        if let Some(grid) = self.tree_grid() {
            // A trunk column's one soil block is its surface.
            let area = [o.x + lo, o.z + lo, o.x + hi, o.z + hi];
            let trees = grid.trees(area, |t| column(t.x - o.x, t.z - o.z).kind);
            planting::plant(&mut chunk, o, self.surface, &trees, |t| {
                [column(t.trunk.x - o.x, t.trunk.z - o.z).surface]
            });
        }
        chunk
    }
}
