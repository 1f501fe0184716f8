//! A river's steps laid out in blocks: straight, or where a big river runs level, a
//! bend (a meander) bulging to alternate sides.

use super::piece::{CLOSE, INFLUENCE, Water};

/// Half-width from which a river running level winds (blocks): a meander.
const MEANDER_HALF: f64 = 4.0;

/// Pieces a meandering step is laid in.
const MEANDER_PIECES: usize = 4;

/// The most a meander's bend bulges off the step's line, in blocks.
const MEANDER_BULGE: f64 = 14.0;

/// A river step, laid out in blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    pub(super) a: [f64; 2],
    pub(super) b: [f64; 2],
    /// Levels, blocks above sea level: the upper one over the first half, the lower
    /// one over the second (a waterfall where they differ by a few blocks).
    pub(super) levels: [f64; 2],
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
}

impl Segment {
    /// The half-width of a river fed by `flow` springs, `width` the world's
    /// setting: wider with more of them.
    fn half_width(flow: u32, width: f64) -> f64 {
        (width * (2.0 + 1.2 * (flow as f64).sqrt())).clamp(1.5, 28.0)
    }

    /// Whether a river fed by `flow` springs, `width` the world's setting, is wide
    /// enough to wind where it runs level ([`MEANDER_HALF`]).
    pub(crate) fn winds(flow: u32, width: f64) -> bool {
        Self::half_width(flow, width) >= MEANDER_HALF
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
        let half = Self::half_width(flow, width);
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let plain = ((half - 3.0) * 2.0).clamp(0.0, 32.0);
        if levels[0] != levels[1] || !Self::winds(flow, width) || dx == 0.0 && dz == 0.0 {
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
    pub(super) fn at(&self, p: [f64; 2]) -> Water {
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
