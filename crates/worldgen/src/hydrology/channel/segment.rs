//! The pieces of water a river's steps are made of ([`Segment`]s): a straight one,
//! or where a big river runs level, a bend (a meander) bulging to alternate sides
//! (versions 5 to 7); or (version 8) a running piece along each leg of the step's
//! course ([`crate::hydrology::course`]), its water running down them: the level
//! falls evenly from piece to piece, at most [`crate::hydrology::course::STEEPEST`] a
//! block, so the water is a cascade of one-block steps in every column, and where
//! the land drops more, one waterfall at the step's middle.

use super::claim::{CLOSE, Claim, INFLUENCE};

/// Half-width from which a river running level winds (blocks): a meander.
const MEANDER_HALF: f64 = 4.0;

/// Pieces a meandering step is laid in.
const MEANDER_PIECES: usize = 4;

/// The widest a river's channel is each way, in blocks.
pub(crate) const WIDEST: f64 = 28.0;

/// The most a meander's bend bulges off the step's line, in blocks.
const MEANDER_BULGE: f64 = 14.0;

/// A river step, laid out in blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    pub(super) a: [f64; 2],
    pub(super) b: [f64; 2],
    /// Levels, blocks above sea level: the upper one over the first half, the lower
    /// one over the second (a waterfall where they differ by a few blocks); or, with
    /// `runs`, at `a` and at `b`, the level falling evenly between.
    pub(super) levels: [f64; 2],
    /// Whether the level runs down the piece from `a` to `b` (version 8).
    pub(super) runs: bool,
    /// A waterfall's upper level, where the piece starts at its foot: the banks hold
    /// it for [`CLOSE`] blocks (version 8).
    pub(super) foot: Option<f64>,
    /// Whether a waterfall drops at its end: past `b` it holds no water (the lower
    /// piece's does), so the fall stands across the course.
    pub(super) lip: bool,
    /// Half-width of the channel.
    pub(super) half: f64,
    /// Blocks of flat floodplain beyond its banks before a valley wall rises: big
    /// rivers wind over them, creeks run in gorges.
    pub(super) plain: f64,
    /// Depth of the channel's middle below the level.
    pub(super) depth: f64,
    /// `[x0, z0, x1, z1]`: every column it shapes.
    pub(super) bounds: [f64; 4],
    /// The way its water flows: a unit vector from `a` to `b`.
    pub(super) dir: [f64; 2],
    /// The run of a running course it is a piece of, where a run speaks for a
    /// column by its piece nearest the column (version 9).
    pub(super) run: Option<Run>,
}

/// A run of a running course (version 9): the pieces of one river step on one side
/// of its waterfall, if it has one. Its level runs on from piece to piece, so of
/// its pieces the one nearest a column speaks for the run there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Run {
    /// The step's upper node and lower node.
    pub(crate) step: [[i32; 2]; 2],
    /// Whether the run lies below the step's waterfall.
    pub(crate) below: bool,
}

impl Segment {
    /// The half-width of a river fed by `flow` springs, `width` the world's
    /// setting: wider with more of them.
    fn half_width(flow: u32, width: f64) -> f64 {
        (width * (2.0 + 1.2 * (flow as f64).sqrt())).clamp(1.5, WIDEST)
    }

    /// Whether a river fed by `flow` springs, `width` the world's setting, is wide
    /// enough to wind where it runs level ([`MEANDER_HALF`]).
    pub(crate) fn winds(flow: u32, width: f64) -> bool {
        Self::half_width(flow, width) >= MEANDER_HALF
    }

    /// How far a big river's bend bulges off its step where it runs level, if it is
    /// wide enough to wind ([`MEANDER_HALF`]).
    pub(crate) fn meander(flow: u32, width: f64) -> Option<f64> {
        let half = Self::half_width(flow, width);
        Self::winds(flow, width).then(|| (1.5 * half).min(MEANDER_BULGE))
    }

    /// Where it starts and ends, in blocks.
    pub(crate) fn ends(&self) -> [[f64; 2]; 2] {
        [self.a, self.b]
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
        let [half, plain] = Self::size(flow, width);
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let bulge = match Self::meander(flow, width) {
            Some(m) if levels[0] == levels[1] && !(dx == 0.0 && dz == 0.0) => {
                side * m / dx.hypot(dz)
            }
            _ => return vec![Self::new(a, b, levels, half, plain)],
        };
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
    pub(super) fn new(a: [f64; 2], b: [f64; 2], levels: [i32; 2], half: f64, plain: f64) -> Self {
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
            runs: false,
            foot: None,
            lip: false,
            half,
            plain,
            depth,
            bounds: [
                a[0].min(b[0]) - r,
                a[1].min(b[1]) - r,
                a[0].max(b[0]) + r,
                a[1].max(b[1]) + r,
            ],
            run: None,
        }
    }

    /// A piece of a running course (version 8) from `a` to `b`, its level running
    /// from `levels[0]` to `levels[1]`, `half` wide each way, `plain` blocks of
    /// floodplain; `foot`: a waterfall's upper level where it starts at its foot;
    /// `lip`: a waterfall drops at its end; `run`: the run it is a piece of, where
    /// a run speaks by its nearest piece (version 9).
    pub(crate) fn running(
        [a, b]: [[f64; 2]; 2],
        levels: [f64; 2],
        [half, plain]: [f64; 2],
        foot: Option<f64>,
        lip: bool,
        run: Option<Run>,
    ) -> Self {
        Self {
            levels,
            runs: true,
            foot,
            lip,
            run,
            ..Self::new(a, b, [0, 0], half, plain)
        }
    }

    /// The half-width and floodplain of a river fed by `flow` springs, `width` the
    /// world's setting (version 6 on).
    pub(crate) fn size(flow: u32, width: f64) -> [f64; 2] {
        let half = Self::half_width(flow, width);
        [half, ((half - 3.0) * 2.0).clamp(0.0, 32.0)]
    }

    /// The level, distance beyond the edge and bed depth at column `p`.
    pub(super) fn at(&self, p: [f64; 2]) -> Claim {
        let (dx, dz) = (self.b[0] - self.a[0], self.b[1] - self.a[1]);
        let len2 = dx * dx + dz * dz;
        let raw = if len2 > 0.0 {
            ((p[0] - self.a[0]) * dx + (p[1] - self.a[1]) * dz) / len2
        } else {
            0.0
        };
        let t = raw.clamp(0.0, 1.0);
        let (ex, ez) = (self.a[0] + dx * t - p[0], self.a[1] + dz * t - p[1]);
        let d = (ex * ex + ez * ez).sqrt();
        let away = if d > 0.0 {
            [-ex / d, -ez / d]
        } else {
            [0.0; 2]
        };
        let u = (d / self.half).min(1.0);
        let len = len2.sqrt();
        let (level, bank) = if self.runs {
            let level = self.levels[0] + (self.levels[1] - self.levels[0]) * t;
            // At a fall's foot the banks keep the upper level for CLOSE blocks.
            let bank = match self.foot {
                Some(up) if t * len < CLOSE => up,
                _ => level,
            };
            (level, bank)
        } else {
            // Past the waterfall, the banks keep the upper level for CLOSE blocks: they
            // hold in the pool above it, whose water fills the band beside its edge.
            let past = (t - 0.5) * len;
            let level = if t < 0.5 {
                self.levels[0]
            } else {
                self.levels[1]
            };
            let bank = if past < CLOSE {
                self.levels[0]
            } else {
                self.levels[1]
            };
            (level, bank)
        };
        // Above a fall, the water ends across the course at the lip.
        let past_lip = if self.lip {
            (raw - 1.0) * len
        } else {
            f64::NEG_INFINITY
        };
        Claim {
            flow: self.dir,
            away,
            level,
            bank,
            reach: INFLUENCE,
            walls: true,
            plain: self.plain,
            out: (d - self.half).max(past_lip),
            bed: self.depth * (1.0 - u * u),
            runs_on: self.runs && !(0.0..=1.0).contains(&raw),
            running: self.runs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // The middle bulges one and a half half-widths off the line (12.9 blocks),
        // to either side.
        let mid = MEANDER_PIECES / 2;
        let bulge = 1.5 * left[mid].half;
        assert!((12.8..12.9).contains(&bulge), "{bulge}");
        assert!((left[mid].a[1] - bulge).abs() < 1e-9, "{:?}", left[mid].a);
        assert!((right[mid].a[1] + bulge).abs() < 1e-9, "{:?}", right[mid].a);
        assert!(left[mid].plain > 0.0);
        // A bigger one (100 springs, 14 each way) bulges 14 blocks at most.
        let big = Segment::course(a, b, [10, 10], 100, 1.0, 1.0);
        assert_eq!((big[mid].half, big[mid].a[1]), (14.0, 14.0));
        // A creek, and a step over a fall, run straight; so does version 5's river.
        assert_eq!(Segment::course(a, b, [10, 10], 1, 1.0, 1.0).len(), 1);
        assert_eq!(Segment::course(a, b, [12, 10], 30, 1.0, 1.0).len(), 1);
        assert_eq!(Segment::straight(a, b, [10, 10], 30, 1.0).plain, 0.0);
    }
}
