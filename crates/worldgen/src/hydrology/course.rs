//! Where a river step runs (version 8): its course, bowed off the line between its
//! nodes and cut into legs, and the water's level along it. `channel::segment` makes
//! each leg a running piece of water.
//!
//! ```text
//!   where     the nodes' places moved by a smooth warp of the land (a lattice of
//!             random offsets every WARP_SPACING blocks, eased between): a line of
//!             nodes becomes a course that bends over hundreds of blocks, and the
//!             warp moves no node past another, so courses never cross
//!   bulge     each step bows off the line between its ends along half a sine, to
//!             alternate sides step after step (a stream swings from bank to bank),
//!             by a width of its own (a hash of the step), leaning toward the lower
//!             land beside it (the nodes to either side); a big river running
//!             level swings at least its meander's width, leaning on nothing. The side is the parity of the node
//!             coordinate the step advances, so neighbouring parallel courses swing
//!             together and never meet
//!   legs      the bowed step cut into legs of at most LEG blocks
//!   level     falls evenly along the course from the upper node's level to the
//!             lower's, at most STEEPEST a block; a drop steeper than that keeps
//!             that slope and falls the rest at the course's middle (a waterfall).
//!             A course leaving a lake holds the lake's level until it is out of
//!             the lake (its outlet), and runs down (or falls) over the rest
//! ```
//!
//! Downhill by construction: the level at a point of a course is a function of the
//! distance along it between the two nodes' levels, which never rise downstream
//! (`super::trace`), so it never rises either; and a course is a function of its two
//! nodes and the seed alone, the same whichever chunk asks.

use super::land::{NODE, Node, node_hash};

/// The steepest the water runs down a course, blocks of level a block of course: a
/// cascade of one-block steps, none higher.
pub(crate) const STEEPEST: f64 = 0.5;

/// The longest leg a course is laid in, in blocks.
const LEG: f64 = 16.0;

/// The most a step's bow leans toward the lower land beside it, in blocks.
const LEAN: f64 = 4.0;

/// The least and the most a step swings to its side, in blocks.
const SWING: [f64; 2] = [12.0, 18.0];

/// The most a step bows, swing and lean together, in blocks.
pub(crate) const BOW: f64 = SWING[1] + LEAN;

/// Separates the steps' swings from the world's other hashes.
const SWING_SALT: u64 = 0x0000_7377_696e_6738; // "swing8"

/// The difference of height between the two sides of a step (the sum over its two
/// nodes' neighbours, in blocks) that bows it the most.
const LEAN_RISE: f64 = 24.0;

/// Blocks between the warp's lattice points.
const WARP_SPACING: f64 = 160.0;

/// The most the warp moves a place each way, in blocks: small enough against
/// [`WARP_SPACING`] that it moves no place past another ([`WARP_SLOPE`], under a
/// half).
pub(crate) const WARP: f64 = 20.0;

/// The most the warp stretches the land each way: its steepest slope.
pub(crate) const WARP_SLOPE: f64 = 2.0 * 1.875 * WARP / WARP_SPACING;
const _: () = assert!(WARP_SLOPE < 0.5, "the warp folds nothing");

/// Separates the warp's two directions from the world's other hashes.
const WARP_SALT: [u64; 2] = [0x0000_7761_7270_7838, 0x0000_7761_7270_7a38]; // "warpx8", "warpz8"

/// One leg of a course: its ends, the water's level at each (blocks above the
/// sea), and whether a waterfall drops at its end (`lip`) or it starts at a fall's
/// foot (`foot`: the level above the fall).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Leg {
    pub(crate) ends: [[f64; 2]; 2],
    pub(crate) levels: [f64; 2],
    pub(crate) lip: bool,
    pub(crate) foot: Option<f64>,
}

/// Where node `n` lies in blocks, moved by the warp of world seed `seed`.
pub(crate) fn place(seed: u64, n: Node) -> [f64; 2] {
    let p = [(n[0] * NODE) as f64, (n[1] * NODE) as f64];
    let [dx, dz] = WARP_SALT.map(|salt| WARP * eased(seed, salt, p));
    [p[0] + dx, p[1] + dz]
}

/// A smooth random field in `-1..=1`: lattice values every [`WARP_SPACING`] blocks,
/// eased between (quintic, so its slope is continuous).
fn eased(seed: u64, salt: u64, p: [f64; 2]) -> f64 {
    let (x, z) = (p[0] / WARP_SPACING, p[1] / WARP_SPACING);
    let (i, j) = (x.floor(), z.floor());
    let ease = |t: f64| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let (u, v) = (ease(x - i), ease(z - j));
    let at = |di: i32, dj: i32| {
        let h = node_hash(seed, salt, [i as i32 + di, j as i32 + dj]);
        (h >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    };
    let top = at(0, 0) + (at(1, 0) - at(0, 0)) * u;
    let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * u;
    top + (bottom - top) * v
}

/// How far a step bows toward its left (negative: its right), from the heights of
/// the land beside it: `left` and `right`, each the sum over the step's two nodes of
/// the neighbour on that side.
pub(crate) fn lean(left: f64, right: f64) -> f64 {
    ((right - left) / LEAN_RISE).clamp(-1.0, 1.0) * LEAN
}

/// The side the step from node `from` to `to` swings to: +1 its left, -1 its
/// right, by the parity of the coordinate it advances (`i`, or `j` where `i` stays),
/// so steps along a course alternate and parallel courses swing alike.
pub(crate) fn side(from: Node, to: Node) -> f64 {
    let k = if to[0] != from[0] { from[0] } else { from[1] };
    if k.rem_euclid(2) == 0 { 1.0 } else { -1.0 }
}

/// How far the step from node `from` to `to` of world seed `seed` bows: to its
/// [`side`] by a swing of its own within [`SWING`] (at least `least`: a big
/// river's meander), and its `lean`.
pub(crate) fn bow(seed: u64, from: Node, to: Node, lean: f64, least: f64) -> f64 {
    let h = node_hash(seed ^ node_hash(seed, SWING_SALT, to), SWING_SALT, from);
    let u = (h >> 11) as f64 / (1u64 << 53) as f64;
    let swing = (SWING[0] + (SWING[1] - SWING[0]) * u).max(least);
    side(from, to) * swing + lean
}

/// The points of a step from `a` to `b` bowed `bulge` blocks to its left (negative:
/// right) along half a sine, a leg at most [`LEG`] blocks apart; `a` and `b`
/// themselves at either end.
pub(crate) fn bowed(a: [f64; 2], b: [f64; 2], bulge: f64) -> Vec<[f64; 2]> {
    let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
    let len = dx.hypot(dz);
    let n = ((len + 2.0 * bulge.abs()) / LEG).ceil().max(1.0) as usize;
    let (lx, lz) = if len > 0.0 {
        (-dz / len, dx / len)
    } else {
        (0.0, 0.0)
    };
    (0..=n)
        .map(|k| match k {
            0 => a,
            k if k == n => b,
            _ => {
                let t = k as f64 / n as f64;
                let off = bulge * (std::f64::consts::PI * t).sin();
                [a[0] + dx * t + lx * off, a[1] + dz * t + lz * off]
            }
        })
        .collect()
}

/// The legs of a course through `points` whose water holds level `levels[0]` for
/// its first `hold` blocks (a lake's outlet) and then runs down to `levels[1]` (see
/// the module's text): evenly, at most [`STEEPEST`] a block, the rest of a steeper
/// drop in one fall at the middle of what is left.
pub(crate) fn legs(points: &[[f64; 2]], levels: [i32; 2], hold: f64) -> Vec<Leg> {
    let [up, down] = levels.map(f64::from);
    let mut along = vec![0.0];
    for w in points.windows(2) {
        let last = along[along.len() - 1];
        along.push(last + (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]));
    }
    let total = along[along.len() - 1];
    let hold = hold.clamp(0.0, total);
    let running = total - hold;
    let drop = (up - down).max(0.0);
    let fall = (drop - STEEPEST * running).max(0.0);
    let slope = if running > 0.0 {
        (drop - fall) / running
    } else {
        0.0
    };
    let middle = hold + running / 2.0;
    // The level at `s` blocks along: above the fall, and below it (where it is).
    let above = |s: f64| up - slope * (s - hold).max(0.0);
    let below = |s: f64| above(s) - fall;
    // Where the level's run changes: the end of the hold and the fall.
    let cuts: Vec<f64> = [hold, middle]
        .into_iter()
        .filter(|&c| c > 0.0 && c < total)
        .collect();
    let at = |s: f64, lower: bool| if lower { below(s) } else { above(s) };
    let mut out = Vec::with_capacity(points.len() + cuts.len());
    for (k, w) in points.windows(2).enumerate() {
        let (s0, s1) = (along[k], along[k + 1]);
        let point = |s: f64| {
            if s == s0 {
                return w[0];
            }
            if s == s1 {
                return w[1];
            }
            let t = (s - s0) / (s1 - s0);
            [
                w[0][0] + (w[1][0] - w[0][0]) * t,
                w[0][1] + (w[1][1] - w[0][1]) * t,
            ]
        };
        // The leg cut where a change lies inside it.
        let mut marks: Vec<f64> = vec![s0];
        marks.extend(cuts.iter().copied().filter(|&c| s0 < c && c < s1));
        marks.push(s1);
        for m in marks.windows(2) {
            let (a, b) = (m[0], m[1]);
            let lower = fall > 0.0 && a >= middle;
            let lip = fall > 0.0 && b == middle;
            let foot = (fall > 0.0 && a == middle).then(|| above(middle));
            out.push(Leg {
                ends: [point(a), point(b)],
                levels: [at(a, lower), at(b, lower)],
                lip,
                foot,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gentle_step_runs_evenly_from_level_to_level() {
        let points = bowed([0.0, 0.0], [32.0, 0.0], 0.0);
        let p = legs(&points, [20, 14], 0.0);
        assert_eq!(p.first().unwrap().levels[0], 20.0);
        assert_eq!(p.last().unwrap().levels[1], 14.0);
        for w in p.windows(2) {
            assert_eq!(w[0].ends[1], w[1].ends[0], "legs join");
            assert_eq!(w[0].levels[1], w[1].levels[0], "levels join");
        }
        for q in &p {
            let len = (q.ends[1][0] - q.ends[0][0]).hypot(q.ends[1][1] - q.ends[0][1]);
            assert!(len <= LEG + 1e-9);
            let drop = q.levels[0] - q.levels[1];
            assert!(drop >= 0.0 && drop <= STEEPEST * len + 1e-9, "{q:?}");
            assert!(!q.lip && q.foot.is_none());
        }
    }

    #[test]
    fn a_steep_step_keeps_the_steepest_slope_and_falls_the_rest_at_its_middle() {
        let points = bowed([0.0, 0.0], [40.0, 0.0], 0.0);
        let p = legs(&points, [60, 30], 0.0);
        // 40 blocks at 0.5 a block: 20 blocks of running water, a fall of 10.
        let lips: Vec<_> = p.iter().filter(|q| q.lip).collect();
        let feet: Vec<_> = p.iter().filter(|q| q.foot.is_some()).collect();
        assert_eq!((lips.len(), feet.len()), (1, 1));
        assert_eq!(lips[0].ends[1], [20.0, 0.0], "the fall at the middle");
        assert_eq!(lips[0].levels[1] - feet[0].levels[0], 10.0);
        assert_eq!(feet[0].foot, Some(lips[0].levels[1]));
        assert_eq!((p[0].levels[0], p[p.len() - 1].levels[1]), (60.0, 30.0));
        for q in &p {
            assert!(q.levels[0] >= q.levels[1], "never uphill: {q:?}");
        }
    }

    #[test]
    fn a_lake_s_outlet_holds_its_level_then_runs_down() {
        let points = bowed([0.0, 0.0], [48.0, 0.0], 0.0);
        let p = legs(&points, [30, 24], 20.0);
        let level_at = |x: f64| {
            let q = p
                .iter()
                .find(|q| q.ends[0][0] <= x && x <= q.ends[1][0])
                .unwrap();
            let t = (x - q.ends[0][0]) / (q.ends[1][0] - q.ends[0][0]);
            q.levels[0] + (q.levels[1] - q.levels[0]) * t
        };
        assert_eq!(level_at(10.0), 30.0);
        assert_eq!(level_at(20.0), 30.0);
        // 6 blocks over the 28 left: no fall, evenly.
        assert!((level_at(34.0) - 27.0).abs() < 1e-9, "{}", level_at(34.0));
        assert_eq!(level_at(48.0), 24.0);
        assert!(p.iter().all(|q| !q.lip && q.foot.is_none()));
        // A steep outlet falls at the middle of what is left: 20 + 28 / 2.
        let p = legs(&points, [60, 24], 20.0);
        let lip = p.iter().find(|q| q.lip).unwrap();
        assert_eq!(lip.ends[1], [34.0, 0.0]);
        assert_eq!(p[0].levels, [60.0, 60.0]);
    }

    #[test]
    fn a_bowed_step_bends_toward_the_lower_side_and_keeps_its_ends() {
        // The land to the step's left (toward +z of a step along +x) lies lower.
        let bulge = lean(10.0, 40.0);
        assert_eq!(bulge, LEAN);
        assert_eq!(lean(40.0, 10.0), -LEAN);
        assert_eq!(lean(20.0, 20.0), 0.0);
        // Steps along a course swing to alternate sides, by SWING, leaning.
        let bows: Vec<f64> = (0..200)
            .map(|i| bow(7, [i, 0], [i + 1, 0], LEAN, 0.0))
            .collect();
        for (i, b) in bows.iter().enumerate() {
            let swing = (b - LEAN).abs();
            assert!((SWING[0]..=SWING[1]).contains(&swing), "{b}");
            assert!(b.abs() <= BOW);
            assert_eq!((b - LEAN).signum(), if i % 2 == 0 { 1.0 } else { -1.0 });
        }
        // Along a diagonal too, and down a column of nodes; parallel courses alike.
        assert_ne!(side([0, 0], [1, 1]), side([1, 1], [2, 2]));
        assert_ne!(side([0, 0], [0, 1]), side([0, 1], [0, 2]));
        assert_eq!(side([4, 0], [5, 0]), side([4, 1], [5, 1]));
        assert_eq!(
            bow(7, [3, 0], [4, 0], 0.0, 0.0),
            bow(7, [3, 0], [4, 0], 0.0, 0.0)
        );
        // A big river's meander swings at least its own width.
        assert!(bow(7, [3, 0], [4, 0], 0.0, 17.9).abs() >= 17.9);
        let points = bowed([0.0, 0.0], [32.0, 0.0], bulge);
        assert_eq!(
            (points[0], points[points.len() - 1]),
            ([0.0, 0.0], [32.0, 0.0])
        );
        // Toward its left (+z of a step along +x), by the bulge along half a sine.
        let most = points.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        assert!(most > 0.8 * LEAN && most <= LEAN, "{points:?}");
        assert!(points.iter().all(|p| p[1] >= 0.0), "{points:?}");
    }

    #[test]
    fn the_warp_moves_places_smoothly_and_never_past_each_other() {
        let seed = 42;
        let mut moved = 0.0f64;
        for i in -40..40 {
            for j in [-3, 0, 5] {
                let (p, q) = (place(seed, [i, j]), place(seed, [i + 1, j]));
                let shift = (p[0] - (i * NODE) as f64).hypot(p[1] - (j * NODE) as f64);
                assert!(shift <= WARP * 2f64.sqrt() + 1e-9);
                moved = moved.max(shift);
                // Neighbours stay in order and apart: no course crosses another.
                assert!(q[0] - p[0] > 0.25 * NODE as f64, "{p:?} {q:?}");
            }
        }
        assert!(moved > WARP / 2.0, "the warp moves places: {moved}");
        assert_eq!(place(seed, [3, 4]), place(seed, [3, 4]));
        assert_ne!(place(seed, [3, 4]), place(seed + 1, [3, 4]));
    }
}
