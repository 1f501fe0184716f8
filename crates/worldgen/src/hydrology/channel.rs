//! The ground shaped to the water, column by column: a river's channel below its
//! level (a lake keeps its hollow's own ground), banks that rise above it, valley
//! walls that let a river through the land, and the water that fills what lies below
//! its level.
//!
//! ```text
//!   d_out: blocks beyond the water's edge (negative inside)
//!
//!          wall: at most level + 2 + WALL * (d_out - BANK), rising to nothing at INFLUENCE
//!          (rivers; a lake only keeps its shore, LAKE_INFLUENCE out)
//!   ___                                                   ___
//!      \___          embankment: at least level + 2       /
//!          \__ ____ (to FLAT, then falling away)  ____ __/
//!             \~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~/      level
//!              \____________ bed ______________/
//!   |<-INFLUENCE->|<-BANK->|<---- channel (2w) ---->|
//! ```
//!
//! Each column takes the lowest wall and the highest embankment of the water around
//! it (an embankment wins: the water must stay in). Inside water it takes the bed of
//! the highest water it lies in, then the nearest, and no embankment (at a bend or a
//! junction the next piece's bank would fill the channel) but those of higher water
//! right beside it. Within [`CALM`] blocks of the water the terrain noise is calmed,
//! so the banks hold their height block by block. Water fills the air at or below the
//! level of the highest water a column lies in, or else of the nearest within [`WET`]
//! blocks beyond its edge: further out every column's ground stands above that
//! level.

use terravox_voxel::Flow;

use crate::shape::climate::{ColumnShape, smoothstep};

/// Blocks beyond a river's edge that it shapes (walls and embankments end here).
pub(crate) const INFLUENCE: f64 = 64.0;

/// Blocks beyond a lake's edge that it shapes: its shore, no valley walls (a lake
/// fills a hollow the land already has).
const LAKE_INFLUENCE: f64 = 32.0;

/// Blocks beyond the water's edge where air below its level is filled with water: the
/// lattice interpolates the ground across 4 blocks (6 on a diagonal), and past that
/// every column stands on banks at least a block above the level.
pub(crate) const WET: f64 = 6.0;

/// Blocks beyond a water's edge within which its banks stand even in the bed of
/// lower water: every lattice corner of a block column right beside its wet
/// columns (the wet band, a block, and a lattice cell's diagonal).
const CLOSE: f64 = WET + 1.0 + 6.0;

/// Blocks over which a bank rises from the water's edge to its top, 2 above the level.
const BANK: f64 = 3.0;

/// Blocks beyond the edge the embankment stays at its top before falling away at one
/// block a block.
const FLAT: f64 = 24.0;

/// Blocks beyond the edge where the terrain noise is calmed to a block.
const CALM: f64 = 8.0;

/// The steepest a valley wall stands, blocks up a block out.
pub(crate) const WALL: f64 = 2.0;

/// Half-width from which a river running level winds (blocks): a meander.
const MEANDER_HALF: f64 = 4.0;

/// Pieces a meandering step is laid in.
const MEANDER_PIECES: usize = 4;

/// The most a meander's bend bulges off the step's line, in blocks.
const MEANDER_BULGE: f64 = 14.0;

/// Radius of a lake's disc around each of its nodes (nodes are 32 apart: discs
/// of 24 overlap, even across a cell's diagonal).
const LAKE_RADIUS: f64 = 24.0;

/// A river step, laid out in blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    a: [f64; 2],
    b: [f64; 2],
    /// Levels, blocks above sea level: the upper one over the first half, the lower
    /// one over the second (a waterfall where they differ by a few blocks).
    levels: [f64; 2],
    /// Half-width of the channel.
    half: f64,
    /// Blocks of flat floodplain beyond its banks before a valley wall rises: big
    /// rivers wind over them, creeks run in gorges.
    plain: f64,
    /// Depth of the channel's middle below the level.
    depth: f64,
    /// `[x0, z0, x1, z1]`: every column it shapes.
    bounds: [f64; 4],
    /// The way its water flows: a unit vector from `a` to `b`.
    dir: [f64; 2],
}

impl Segment {
    /// The half-width of a river fed by `flow` springs, `width` the world's
    /// setting: wider with more of them.
    fn half_width(flow: u32, width: f64) -> f64 {
        (width * (2.0 + 1.2 * (flow as f64).sqrt())).clamp(1.5, 28.0)
    }

    /// The course of the river step from `a` to `b` with water `levels` (blocks
    /// above sea level) fed by `flow` springs: one straight segment, or where a
    /// river [`MEANDER_HALF`] wide or more runs level, a bend bulging to `side`
    /// (+1 to the left of its flow, -1 to the right) by up to one and a half of its
    /// widths, laid in [`MEANDER_PIECES`] segments along half a sine. Steps whose
    /// first nodes alternate (the network passes a node's parity) bulge to opposite
    /// sides, so a big river winds.
    pub(crate) fn course(
        a: [f64; 2],
        b: [f64; 2],
        levels: [i32; 2],
        flow: u32,
        width: f64,
        side: f64,
    ) -> Vec<Self> {
        let half = Self::half_width(flow, width);
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let plain = ((half - 3.0) * 2.0).clamp(0.0, 32.0);
        if levels[0] != levels[1] || half < MEANDER_HALF || dx == 0.0 && dz == 0.0 {
            return vec![Self::new(a, b, levels, half, plain)];
        }
        let bulge = side * (1.5 * half).min(MEANDER_BULGE) / dx.hypot(dz);
        let at = |i: usize| match i {
            0 => a,
            MEANDER_PIECES => b,
            _ => {
                let t = i as f64 / MEANDER_PIECES as f64;
                let off = bulge * (std::f64::consts::PI * t).sin();
                [a[0] + dx * t - dz * off, a[1] + dz * t + dx * off]
            }
        };
        (0..MEANDER_PIECES)
            .map(|i| Self::new(at(i), at(i + 1), levels, half, plain))
            .collect()
    }

    /// The river step from `a` to `b` with water `levels` (blocks above sea level)
    /// fed by `flow` springs, straight, in a valley with no floodplain (version 5).
    pub(crate) fn straight(
        a: [f64; 2],
        b: [f64; 2],
        levels: [i32; 2],
        flow: u32,
        width: f64,
    ) -> Self {
        Self::new(a, b, levels, Self::half_width(flow, width), 0.0)
    }

    /// A segment from `a` to `b` with water `levels`, `half` wide each way, `plain`
    /// blocks of floodplain beyond its banks.
    fn new(a: [f64; 2], b: [f64; 2], levels: [i32; 2], half: f64, plain: f64) -> Self {
        let depth = (1.0 + 0.3 * half).min(6.0);
        let r = half + INFLUENCE;
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        Self {
            dir: if len > 0.0 {
                [(b[0] - a[0]) / len, (b[1] - a[1]) / len]
            } else {
                [0.0; 2]
            },
            a,
            b,
            levels: levels.map(f64::from),
            half,
            plain,
            depth,
            bounds: [
                a[0].min(b[0]) - r,
                a[1].min(b[1]) - r,
                a[0].max(b[0]) + r,
                a[1].max(b[1]) + r,
            ],
        }
    }

    /// The level, distance beyond the edge and bed depth at column `p`.
    fn at(&self, p: [f64; 2]) -> Water {
        let (dx, dz) = (self.b[0] - self.a[0], self.b[1] - self.a[1]);
        let len2 = dx * dx + dz * dz;
        let t = if len2 > 0.0 {
            (((p[0] - self.a[0]) * dx + (p[1] - self.a[1]) * dz) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (ex, ez) = (self.a[0] + dx * t - p[0], self.a[1] + dz * t - p[1]);
        let d = (ex * ex + ez * ez).sqrt();
        let away = if d > 0.0 {
            [-ex / d, -ez / d]
        } else {
            [0.0; 2]
        };
        let u = (d / self.half).min(1.0);
        // Past the waterfall, the banks keep the upper level for CLOSE blocks: they
        // hold in the pool above it, whose water fills the band beside its edge.
        let past = (t - 0.5) * len2.sqrt();
        Water {
            flow: self.dir,
            away,
            level: if t < 0.5 {
                self.levels[0]
            } else {
                self.levels[1]
            },
            bank: if past < CLOSE {
                self.levels[0]
            } else {
                self.levels[1]
            },
            reach: INFLUENCE,
            walls: true,
            plain: self.plain,
            out: d - self.half,
            bed: self.depth * (1.0 - u * u),
        }
    }
}

/// A node of a lake, in blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Disc {
    pub at: [f64; 2],
    /// The lake's level, blocks above sea level.
    pub level: i32,
}

impl Disc {
    fn at(&self, p: [f64; 2]) -> Water {
        let (dx, dz) = (p[0] - self.at[0], p[1] - self.at[1]);
        let d = (dx * dx + dz * dz).sqrt();
        let out = d - LAKE_RADIUS;
        Water {
            // A lake is still.
            flow: [0.0; 2],
            away: if d > 0.0 { [dx / d, dz / d] } else { [0.0; 2] },
            level: self.level as f64,
            bank: self.level as f64,
            reach: LAKE_INFLUENCE,
            walls: false,
            plain: 0.0,
            out,
            // A lake keeps its hollow's own ground: its shores follow the land.
            bed: f64::NEG_INFINITY,
        }
    }

    fn bounds(&self) -> [f64; 4] {
        let r = LAKE_RADIUS + LAKE_INFLUENCE;
        [
            self.at[0] - r,
            self.at[1] - r,
            self.at[0] + r,
            self.at[1] + r,
        ]
    }
}

/// What a piece of water says of a column.
#[derive(Clone, Copy, Debug)]
struct Water {
    /// Its level, blocks above sea level.
    level: f64,
    /// The way it flows, a unit vector (zero for still water).
    flow: [f64; 2],
    /// The way from it to the column, a unit vector (zero on its middle line).
    away: [f64; 2],
    /// The level its banks hold in here (the upper one just past a waterfall).
    bank: f64,
    /// Blocks beyond its edge that it shapes.
    reach: f64,
    /// Whether it cuts valley walls (rivers do, lakes do not).
    walls: bool,
    /// Blocks of floodplain beyond its banks before its valley walls rise.
    plain: f64,
    /// Blocks beyond its edge (negative inside).
    out: f64,
    /// How far below its level, less a block, its bed lies here (inside); a lake's
    /// is minus infinity: it keeps the ground of its hollow.
    bed: f64,
}

impl Water {
    /// Which of several pieces speaks for a column, the least first: the highest
    /// water it lies in, then the nearest (a lake over the start of its outflow's
    /// fall wins over the fall's foot).
    fn precedence(&self) -> f64 {
        if self.out < 0.0 {
            -1e9 - self.level * 1e3 + self.out
        } else {
            self.out
        }
    }
}

/// A river's valley wall that cut a column down (see [`LocalWater::shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Wall {
    /// The way the wall rises: a unit vector away from its river.
    pub rises: [f64; 2],
    /// Blocks from where the wall starts rising (past the bank and the floodplain).
    pub up: f64,
    /// The lowest the column may be cut to: its bank's top, or an embankment's.
    pub floor: f64,
}

/// Blocks a side of the cells [`LocalWater`] files its pieces of water by.
const CELL: i32 = 64;

/// The water that shapes an area, filed by cells of [`CELL`] blocks.
#[derive(Clone, Debug, Default)]
pub(crate) struct LocalWater {
    segments: Vec<Segment>,
    discs: Vec<Disc>,
    /// The area's first cell, `[x, z]`, and cells a side.
    origin: [i32; 2],
    size: [usize; 2],
    /// For each cell, `[z][x]`, the pieces that shape a column in it: segments by
    /// index, discs by `segments.len()` plus theirs.
    cells: Vec<Vec<u32>>,
}

/// Whether `b` (`[x0, z0, x1, z1]`) overlaps columns `area`.
fn overlaps(b: [f64; 4], area: [i32; 4]) -> bool {
    b[0] <= area[2] as f64
        && b[2] >= area[0] as f64
        && b[1] <= area[3] as f64
        && b[3] >= area[1] as f64
}

impl LocalWater {
    /// Adds the pieces of water among `segments` and `discs` that shape columns
    /// `area` (`[x0, z0, x1, z1]`).
    pub(crate) fn gather(&mut self, segments: &[Segment], discs: &[Disc], area: [i32; 4]) {
        self.segments
            .extend(segments.iter().filter(|s| overlaps(s.bounds, area)));
        self.discs
            .extend(discs.iter().filter(|d| overlaps(d.bounds(), area)));
    }

    /// Files the pieces gathered for `area` by cell, for [`LocalWater::around`].
    pub(crate) fn index(&mut self, area: [i32; 4]) {
        // A piece near two regions came from both: once each, in a fixed order.
        let bits = |p: [f64; 2]| p.map(f64::to_bits);
        self.segments.sort_by_key(|s| (bits(s.a), bits(s.b)));
        self.segments.dedup_by_key(|s| (bits(s.a), bits(s.b)));
        self.discs.sort_by_key(|d| (bits(d.at), d.level));
        self.discs.dedup_by_key(|d| (bits(d.at), d.level));
        let cell = |v: i32| v.div_euclid(CELL);
        self.origin = [cell(area[0]), cell(area[1])];
        self.size = [
            (cell(area[2]) - self.origin[0] + 1) as usize,
            (cell(area[3]) - self.origin[1] + 1) as usize,
        ];
        self.cells = vec![Vec::new(); self.size[0] * self.size[1]];
        let bounds = self
            .segments
            .iter()
            .map(|s| s.bounds)
            .chain(self.discs.iter().map(Disc::bounds));
        for (i, b) in bounds.enumerate() {
            // The cells `b` overlaps along one axis, clipped to the area's.
            let span = |lo: f64, hi: f64, axis: usize| {
                let at = |v: f64| (v as i64).div_euclid(CELL as i64) - self.origin[axis] as i64;
                at(lo.floor()).max(0)..=at(hi.ceil()).min(self.size[axis] as i64 - 1)
            };
            let (xs, zs) = (span(b[0], b[2], 0), span(b[1], b[3], 1));
            for z in zs {
                for x in xs.clone() {
                    self.cells[z as usize * self.size[0] + x as usize].push(i as u32);
                }
            }
        }
    }

    /// Whether no water comes near.
    pub(crate) fn is_empty(&self) -> bool {
        self.segments.is_empty() && self.discs.is_empty()
    }

    /// The highest water level of the area, blocks above sea level.
    pub(crate) fn top(&self) -> Option<i32> {
        let rivers = self.segments.iter().map(|s| s.levels[0].max(s.levels[1]));
        let lakes = self.discs.iter().map(|d| d.level as f64);
        rivers.chain(lakes).reduce(f64::max).map(|l| l as i32)
    }

    /// Every piece of water that shapes column `(x, z)`, which lies in the area
    /// [`LocalWater::index`] filed them for; with `within`, only those whose edge is
    /// less than that far (their water may fill it within [`WET`]).
    fn around(&self, x: i32, z: i32, within: Option<f64>) -> impl Iterator<Item = Water> + '_ {
        let p = [x as f64, z as f64];
        let cell = |v: i32, axis: usize| {
            usize::try_from(v.div_euclid(CELL) as i64 - self.origin[axis] as i64)
                .ok()
                .filter(|&c| c < self.size[axis])
        };
        let list: &[u32] = match (cell(x, 0), cell(z, 1)) {
            (Some(cx), Some(cz)) => &self.cells[cz * self.size[0] + cx],
            _ => &[],
        };
        let n = self.segments.len();
        let inside =
            move |b: [f64; 4]| p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];
        // A piece's box, `[x0, z0, x1, z1]`, shrunk to `within` beyond its edge.
        let shrunk = move |b: [f64; 4], reach: f64| {
            let d = within.map_or(0.0, |w| (reach - w).max(0.0));
            [b[0] + d, b[1] + d, b[2] - d, b[3] - d]
        };
        list.iter()
            .filter_map(move |&i| match self.segments.get(i as usize) {
                Some(s) => inside(shrunk(s.bounds, INFLUENCE)).then(|| s.at(p)),
                None => {
                    let d = &self.discs[i as usize - n];
                    inside(shrunk(d.bounds(), LAKE_INFLUENCE)).then(|| d.at(p))
                }
            })
            .filter(move |w| w.out < within.unwrap_or(w.reach))
    }

    /// Shapes column `(x, z)`'s formula parameters `s` to the water around it;
    /// returns the valley wall that cut the column down, if one did (outside any
    /// water's bed).
    pub(crate) fn shape(&self, s: &mut ColumnShape, x: i32, z: i32) -> Option<Wall> {
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        // The wall that stands lowest here, and how it rises.
        let mut wall: Option<Wall> = None;
        // The water the column lies in that speaks for it (`Water::precedence`).
        let mut bed: Option<Water> = None;
        let mut nearest = f64::INFINITY;
        // Banks kept even in another water's bed: (level, bank top), right by a
        // water whose surface fills the air within WET of its edge.
        let mut close: Vec<(f64, f64)> = Vec::new();
        for w in self.around(x, z, None) {
            if w.out < 0.0 {
                if bed.is_none_or(|b: Water| w.precedence() < b.precedence()) {
                    bed = Some(w);
                }
            } else {
                // Rises to nothing at its reach, so shaping ends without a seam.
                let fade = 1.0 / (1.0 - (w.out / w.reach).powi(2));
                let top = w.bank - 1.0 + 3.0 * smoothstep(w.out / BANK);
                if w.walls {
                    let up = w.out - BANK - w.plain;
                    let cap = top + WALL * up.max(0.0) * fade;
                    if cap < hi {
                        hi = cap;
                        wall = Some(Wall {
                            rises: w.away,
                            up,
                            floor: top,
                        });
                    }
                }
                if w.bank > 0.0 {
                    lo = lo.max(top - (w.out - FLAT).max(0.0) * fade);
                    if w.out < CLOSE {
                        close.push((w.bank, top));
                    }
                }
            }
            nearest = nearest.min(w.out);
        }
        if nearest == f64::INFINITY {
            return None;
        }
        let in_bed = bed.is_some();
        if let Some(Water { level, bed, .. }) = bed {
            let b = level - 1.0 - bed;
            // In the water: its bed, and no bank of the water next to it (at a bend
            // or a junction the next piece's bank would fill the channel), but for
            // the banks of higher water right beside it: they keep that water in,
            // where the lattice would otherwise slope from one bed to the other.
            hi = hi.min(b);
            lo = close
                .iter()
                .filter(|&&(l, _)| l > level)
                .map(|&(_, top)| top)
                .fold(f64::NEG_INFINITY, f64::max);
        }
        let cut = s.height > hi && hi >= lo && !in_bed;
        let height = s.height.min(hi).max(lo);
        s.offset += height - s.height;
        s.height = height;
        // The river biome (version 2's rule) in and right by the water.
        let river = if nearest < 0.0 {
            1.0
        } else {
            1.0 - smoothstep(nearest / 4.0)
        };
        s.river = s.river.max(river);
        let calm = smoothstep((nearest - CALM) / (2.0 * CALM));
        s.scale += (s.scale.min(1.0) - s.scale) * (1.0 - calm);
        s.wet = nearest;
        wall.filter(|_| cut).map(|w| Wall {
            floor: w.floor.max(lo),
            ..w
        })
    }

    /// The height of the water over column `(x, z)` in a world whose sea stands at
    /// `sea`, where a river or lake above the sea fills the air below it.
    pub(crate) fn surface(&self, x: i32, z: i32, sea: i32) -> Option<i32> {
        self.filling(x, z).map(|w| sea + w.level as i32)
    }

    /// The water above the sea that fills the air of column `(x, z)`, if any.
    fn filling(&self, x: i32, z: i32) -> Option<Water> {
        self.around(x, z, Some(WET))
            .min_by(|a, b| a.precedence().total_cmp(&b.precedence()))
            .filter(|w| w.level > 0.0)
    }

    /// Whether water above the sea may fill a column beside `(x, z)` (a cheap test
    /// before asking [`LocalWater::surface`] of its four neighbours).
    pub(crate) fn wets_beside(&self, x: i32, z: i32) -> bool {
        self.around(x, z, Some(WET + 1.0)).any(|w| w.level > 0.0)
    }

    /// [`LocalWater::surface`] and the way that water flows (still for a lake; still
    /// where there is none).
    pub(crate) fn column(&self, x: i32, z: i32, sea: i32) -> (Option<i32>, Flow) {
        self.filling(x, z).map_or((None, Flow::STILL), |w| {
            (
                Some(sea + w.level as i32),
                Flow::toward(w.flow[0], w.flow[1]),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::config::world::GeneratorConfig;

    #[test]
    fn a_big_river_running_level_winds_and_a_creek_or_a_fall_runs_straight() {
        let (a, b) = ([0.0, 0.0], [32.0, 0.0]);
        // 30 springs: a half-width of about 8.6 blocks.
        let left = Segment::course(a, b, [10, 10], 30, 1.0, 1.0);
        let right = Segment::course(a, b, [10, 10], 30, 1.0, -1.0);
        assert_eq!(left.len(), MEANDER_PIECES);
        assert_eq!((left[0].a, left[MEANDER_PIECES - 1].b), (a, b));
        for pair in left.windows(2) {
            assert_eq!(pair[0].b, pair[1].a, "the pieces join");
        }
        // The middle bulges one and a half widths off the line, to either side.
        let mid = MEANDER_PIECES / 2;
        let bulge = (1.5 * left[mid].half).min(MEANDER_BULGE);
        assert!((left[mid].a[1] - bulge).abs() < 1e-9, "{:?}", left[mid].a);
        assert!((right[mid].a[1] + bulge).abs() < 1e-9, "{:?}", right[mid].a);
        assert!(left[mid].plain > 0.0);
        // A creek, and a step over a fall, run straight; so does version 5's river.
        assert_eq!(Segment::course(a, b, [10, 10], 1, 1.0, 1.0).len(), 1);
        assert_eq!(Segment::course(a, b, [12, 10], 30, 1.0, 1.0).len(), 1);
        assert_eq!(Segment::straight(a, b, [10, 10], 30, 1.0).plain, 0.0);
    }

    /// The ground `out` blocks beyond a river's edge, on land 100 blocks up.
    fn ground_beside(segment: Segment, out: f64) -> f64 {
        let GeneratorConfig::Density(d) = presets::builtin("continents").unwrap().generator else {
            panic!("continents is a density world")
        };
        let mut s = ColumnShape::flat(&d, 0);
        (s.offset, s.height) = (100.0, 100.0);
        let mut water = LocalWater::default();
        let area = [-200, -200, 200, 200];
        water.gather(&[segment], &[], area);
        water.index(area);
        let z = (segment.half + out).round() as i32;
        water.shape(&mut s, 16, z);
        s.height
    }

    #[test]
    fn a_big_river_lies_in_a_floodplain_and_a_creek_in_a_gorge() {
        let (a, b) = ([-64.0, 0.0], [64.0, 0.0]);
        let big = Segment::course(a, b, [10, 10], 30, 1.0, 1.0)[0];
        let big = Segment::new(a, b, [10, 10], big.half, big.plain);
        let creek = Segment::straight(a, b, [10, 10], 1, 1.0);
        // The floodplain stands at the banks' top, two blocks above the water, out
        // to its edge.
        let out = (BANK + big.plain).floor() - 1.0;
        assert!(out > 8.0, "a floodplain {} wide", big.plain);
        let plain = ground_beside(big, out);
        assert!((plain - 12.0).abs() < 1.0, "{plain}");
        // A creek's valley wall rises two blocks a block from its bank.
        let gorge = ground_beside(creek, out);
        assert!(gorge > 12.0 + out, "{gorge}");
    }
}
