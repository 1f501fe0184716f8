//! The drainage network as hydrologists measure it, for [`super::water_figures`]'s figures:
//! plain functions over river steps (node to node), each tested on a network made by
//! hand.
//!
//! ```text
//! way down       each node's step of the most flow (a node a river crosses twice, at
//!                a rim two basins share, keeps the step out over the rim)
//! Strahler order a node no step enters is order 1; where two or more steps of the
//!                highest order entering a node meet, the order rises by one, else
//!                it is that highest order. A stream: the steps of one order, up to
//!                where they meet a higher one
//! bifurcation    streams of order k over streams of order k + 1, each order's ratio
//!   ratio        weighted by the streams it counts (k's and k + 1's): Strahler's
//!                weighted mean, which a square holding many basins needs (its
//!                highest order counts the basins' trunks, not their joins, in a
//!                handful of streams); real networks: 3.5 to 5. Horton's fit (the
//!                antilog of minus the slope of log count against order) is given
//!                beside it
//! Hack's law     mainstream length L (the longest way up the land's drainage from a
//!                node to the divide, in blocks: hydrology's `drainage`) against the
//!                land draining through it A: L ~ A^h, h the least-squares slope of
//!                ln L on ln A; real rivers: about 0.57
//! courses        each source's way down until it joins a stream of more flow:
//!                every step in one course
//! sinuosity      a course's length over the straight distance between its ends,
//!                over stretches of 256 blocks of course; real mountain streams
//!                1.05 and up
//! straight runs  the longest stretch of a course as laid in blocks that stays within
//!                CORRIDOR blocks of the straight line between its ends, that line
//!                within TURN of a grid direction (a side or a diagonal of the node
//!                grid), in blocks of course
//! ```

use std::collections::{HashMap, HashSet};

use crate::hydrology::network::Edge;

/// A node of the network: `[i, j]` in nodes.
type Node = [i32; 2];

/// Blocks of course a sinuosity is taken over.
pub(crate) const STRETCH: f64 = 256.0;

/// Each node's way down: of the steps leaving it, the one of the most flow (then the
/// lowest `to`, by row). A node that steps enter but no way down does (the far side
/// of a lower pit a river stepped into over a shared rim, and stepped out of over it
/// again) has none: no stream rises there.
pub(crate) fn way_down(edges: &[Edge]) -> HashMap<Node, Edge> {
    let mut down: HashMap<Node, Edge> = HashMap::new();
    for e in edges {
        let key = |e: &Edge| (e.flow, [-e.to[1], -e.to[0]]);
        if down.get(&e.from).is_none_or(|o| key(e) > key(o)) {
            down.insert(e.from, *e);
        }
    }
    let entered: HashSet<Node> = edges.iter().map(|e| e.to).collect();
    loop {
        let by_way: HashSet<Node> = down.values().map(|e| e.to).collect();
        let before = down.len();
        down.retain(|n, _| by_way.contains(n) || !entered.contains(n));
        if down.len() == before {
            return down;
        }
    }
}

/// The nodes in an order where every node comes after every node whose way down
/// leads to it (the sources first); nodes on a loop of ways down are left out.
fn upstream_first(down: &HashMap<Node, Edge>) -> Vec<Node> {
    let mut entering: HashMap<Node, usize> = HashMap::new();
    for e in down.values() {
        entering.entry(e.from).or_insert(0);
        *entering.entry(e.to).or_insert(0) += 1;
    }
    let mut ready: Vec<Node> = entering
        .iter()
        .filter(|(_, n)| **n == 0)
        .map(|(&node, _)| node)
        .collect();
    ready.sort_by_key(|n| (n[1], n[0]));
    let mut order = Vec::with_capacity(entering.len());
    while let Some(n) = ready.pop() {
        order.push(n);
        if let Some(e) = down.get(&n) {
            let left = entering.get_mut(&e.to).expect("counted");
            *left -= 1;
            if *left == 0 {
                ready.push(e.to);
            }
        }
    }
    order
}

/// Every node's Strahler order over the ways down `down`.
pub(crate) fn strahler(down: &HashMap<Node, Edge>) -> HashMap<Node, u32> {
    // Per node: the highest order entering it, and how many steps of that order do.
    let mut entering: HashMap<Node, (u32, u32)> = HashMap::new();
    let mut order = HashMap::new();
    for n in upstream_first(down) {
        let o = match entering.get(&n) {
            None => 1,
            Some(&(top, count)) => top + u32::from(count >= 2),
        };
        order.insert(n, o);
        if let Some(e) = down.get(&n) {
            let (top, count) = entering.entry(e.to).or_insert((0, 0));
            if o > *top {
                (*top, *count) = (o, 1);
            } else if o == *top {
                *count += 1;
            }
        }
    }
    order
}

/// Streams of each order (index 0: order 1): a stream ends where its way down meets a
/// node of a higher order, or the network ends.
pub(crate) fn streams(down: &HashMap<Node, Edge>, order: &HashMap<Node, u32>) -> Vec<usize> {
    let mut counts = vec![0; order.values().copied().max().unwrap_or(0) as usize];
    for (n, &o) in order {
        let next = down.get(n).and_then(|e| order.get(&e.to));
        if next != Some(&o) {
            counts[o as usize - 1] += 1;
        }
    }
    counts
}

/// The bifurcation ratio of `counts` (streams of order 1, 2, …), Strahler's weighted
/// mean: the ratio of each order's streams to the next order's, weighted by the
/// streams of the two; `None` without two orders with streams.
pub(crate) fn bifurcation(counts: &[usize]) -> Option<f64> {
    let (sum, weight) = counts
        .windows(2)
        .filter(|p| p[0] > 0 && p[1] > 0)
        .map(|p| (p[0] as f64, p[1] as f64))
        .fold((0.0, 0.0), |(s, w), (a, b)| {
            (s + a / b * (a + b), w + a + b)
        });
    (weight > 0.0).then(|| sum / weight)
}

/// Horton's bifurcation ratio of `counts` (streams of order 1, 2, …): ten to the
/// minus slope of the least-squares line of log₁₀ count against order, over the
/// orders with streams; `None` with fewer than two.
pub(crate) fn bifurcation_fit(counts: &[usize]) -> Option<f64> {
    let points: Vec<(f64, f64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(k, &c)| (k as f64 + 1.0, (c as f64).log10()))
        .collect();
    slope(&points).map(|s| 10f64.powf(-s))
}

/// The least-squares slope of `points` (x, y); `None` with fewer than two distinct x.
pub(crate) fn slope(points: &[(f64, f64)]) -> Option<f64> {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (points.len() >= 2 && sxx > 1e-12).then(|| sxy / sxx)
}

/// Hack's exponent over `points` (drained area, mainstream length), those with a
/// length: the least-squares slope of ln length on ln area.
pub(crate) fn hack(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(a, l)| *a > 0.0 && *l > 0.0)
        .map(|(a, l)| (a.ln(), l.ln()))
        .collect();
    slope(&logs)
}

/// The courses of the network: from each node no step enters, the way down, step by
/// step, until it joins a node whose most-flowing entering way down (then the lowest
/// `from`, by row) is another's. Every way down lies in one course (but for loops).
/// In a fixed order: by their first node, by row.
pub(crate) fn courses(down: &HashMap<Node, Edge>) -> Vec<Vec<Edge>> {
    let mut main: HashMap<Node, Edge> = HashMap::new();
    for e in down.values() {
        let key = |e: &Edge| (e.flow, [-e.from[1], -e.from[0]]);
        if main.get(&e.to).is_none_or(|o| key(e) > key(o)) {
            main.insert(e.to, *e);
        }
    }
    let mut sources: Vec<Node> = down
        .keys()
        .copied()
        .filter(|n| !main.contains_key(n))
        .collect();
    sources.sort_by_key(|n| (n[1], n[0]));
    sources
        .into_iter()
        .map(|s| {
            let mut course = Vec::new();
            let mut at = s;
            while let Some(e) = down.get(&at) {
                course.push(*e);
                at = e.to;
                // Joined as a tributary: the node goes on in its main stem's course.
                if main[&at].from != e.from || course.len() > down.len() {
                    break;
                }
            }
            course
        })
        .collect()
}

/// The sinuosity of each whole [`STRETCH`] of the course through `points` (blocks):
/// the stretch's length over the straight distance between its ends.
pub(crate) fn sinuosity(points: &[[f64; 2]]) -> Vec<f64> {
    let mut out = Vec::new();
    let mut start = match points.first() {
        Some(&p) => p,
        None => return out,
    };
    let mut along = 0.0;
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let mut len = (b[0] - a[0]).hypot(b[1] - a[1]);
        let mut from = a;
        // Cut the piece where stretches end within it.
        while along + len >= STRETCH && len > 0.0 {
            let t = (STRETCH - along) / len;
            let end = [
                from[0] + (b[0] - from[0]) * t,
                from[1] + (b[1] - from[1]) * t,
            ];
            let chord = (end[0] - start[0]).hypot(end[1] - start[1]);
            out.push(if chord > 0.0 {
                STRETCH / chord
            } else {
                f64::INFINITY
            });
            len -= STRETCH - along;
            (start, from, along) = (end, end, 0.0);
        }
        along += len;
    }
    out
}

/// Blocks a straight run may stray from the line between its ends.
const CORRIDOR: f64 = 10.0;

/// How far (degrees) a straight run's line may turn from a grid direction.
const TURN: f64 = 10.0;

/// Blocks between the points a course is looked at in for straight runs.
const SAMPLE: f64 = 8.0;

/// The longest stretch of the course through `points` (blocks) that runs straight
/// along a grid direction, in blocks of course: every point of it within
/// [`CORRIDOR`] of the line between its ends, which lies within [`TURN`] of a side or
/// a diagonal of the grid.
pub(crate) fn longest_straight(points: &[[f64; 2]]) -> f64 {
    let p = resample(points, SAMPLE);
    let along_grid = |a: [f64; 2], b: [f64; 2]| {
        let angle = (b[1] - a[1]).atan2(b[0] - a[0]).to_degrees();
        let off = angle.rem_euclid(45.0);
        off.min(45.0 - off) <= TURN
    };
    let within = |i: usize, j: usize| {
        let (a, b) = (p[i], p[j]);
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let len = dx.hypot(dz);
        len > 0.0
            && along_grid(a, b)
            && p[i + 1..j]
                .iter()
                .all(|q| ((q[0] - a[0]) * dz - (q[1] - a[1]) * dx).abs() / len <= CORRIDOR)
    };
    let mut best = 0usize;
    for i in 0..p.len() {
        let mut j = i + best + 1;
        // Only runs longer than the best so far are looked for.
        while j < p.len() && within(i, j) {
            best = j - i;
            j += 1;
        }
    }
    best as f64 * SAMPLE
}

/// Points along the line through `points` every `step` blocks of it (its first
/// point first; the last whole step's point last).
fn resample(points: &[[f64; 2]], step: f64) -> Vec<[f64; 2]> {
    let mut out: Vec<[f64; 2]> = points.first().copied().into_iter().collect();
    let mut carry = 0.0;
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        let mut at = step - carry;
        while at <= len {
            let t = at / len;
            out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
            at += step;
        }
        carry = len - (at - step);
    }
    out
}

/// The median of `values`; `None` when empty.
pub(crate) fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(from: Node, to: Node, flow: u32) -> Edge {
        Edge {
            from,
            to,
            levels: [0, 0],
            flow,
        }
    }

    /// A network drawn by hand: creeks from (0, -1) and (0, 1) meet at (1, 0) (order
    /// 2) and run on along j = 0, where a creek from (2, 1) joins at (3, 0) (still
    /// order 2); creeks from (0, 3) and (0, 5) meet at (1, 4) and run diagonally to
    /// (4, 1), then to (4, 0): two order-2 streams meet, order 3 on to (6, 0).
    fn network() -> Vec<Edge> {
        vec![
            step([0, -1], [1, 0], 1),
            step([0, 1], [1, 0], 1),
            step([1, 0], [2, 0], 2),
            step([2, 1], [3, 0], 1),
            step([2, 0], [3, 0], 2),
            step([3, 0], [4, 0], 3),
            step([0, 3], [1, 4], 1),
            step([0, 5], [1, 4], 1),
            step([1, 4], [2, 3], 2),
            step([2, 3], [3, 2], 2),
            step([3, 2], [4, 1], 2),
            step([4, 1], [4, 0], 2),
            step([4, 0], [5, 0], 5),
            step([5, 0], [6, 0], 5),
        ]
    }

    #[test]
    fn strahler_orders_and_streams_follow_the_joins() {
        let down = way_down(&network());
        let order = strahler(&down);
        let at = |n: Node| order[&n];
        assert_eq!((at([0, -1]), at([1, 0]), at([2, 0])), (1, 2, 2));
        // A creek joining an order-2 stream leaves it order 2.
        assert_eq!(at([3, 0]), 2);
        assert_eq!((at([2, 3]), at([4, 0]), at([6, 0])), (2, 3, 3));
        // Five creeks, two order-2 streams, one order-3 one.
        assert_eq!(streams(&down, &order), vec![5, 2, 1]);
        // 5 / 2 and 2 / 1, fitted: about 2.24; weighted by 7 and 3 streams: 2.35.
        let rb = bifurcation_fit(&[5, 2, 1]).unwrap();
        assert!((rb - 10f64.powf(0.699 / 2.0)).abs() < 0.01, "{rb}");
        assert_eq!(bifurcation_fit(&[7]), None);
        assert_eq!(
            bifurcation(&[5, 2, 1]),
            Some((2.5 * 7.0 + 2.0 * 3.0) / 10.0)
        );
        assert_eq!(bifurcation(&[7]), None);
    }

    #[test]
    fn the_weighted_ratio_holds_to_the_many_joins_where_a_fit_follows_a_few_trunks() {
        // Seed terravox's 8 km: 145 creeks join in 37 streams, those in 9; and 6
        // trunks of order 4 reach the sea apart. The fit is pulled under 3 by the
        // last 9 / 6; weighted by the streams each ratio counts, 3.8.
        let counts = [145, 37, 9, 6];
        let fit = bifurcation_fit(&counts).unwrap();
        let weighted = bifurcation(&counts).unwrap();
        assert!((2.9..3.0).contains(&fit), "{fit}");
        assert!((3.8..3.82).contains(&weighted), "{weighted}");
        // Orders without streams between count no ratio.
        assert_eq!(bifurcation(&[8, 0, 2]), None);
        assert_eq!(bifurcation(&[8, 2, 0]), Some(4.0));
    }

    #[test]
    fn a_node_crossed_twice_goes_down_its_step_of_most_flow() {
        // Into a lower pit over a shared rim at (1, 0), and out over it again.
        let edges = [
            step([0, 0], [1, 0], 1),
            step([1, 0], [1, 1], 1),
            step([1, 1], [1, 0], 1),
            step([1, 0], [2, 0], 2),
        ];
        let down = way_down(&edges);
        assert_eq!(down[&[1, 0]].to, [2, 0]);
        // The pit's far side is no source.
        assert!(!down.contains_key(&[1, 1]));
        assert_eq!(strahler(&down)[&[2, 0]], 1);
    }

    #[test]
    fn hack_s_exponent_is_the_slope_of_length_on_area() {
        // Lengths growing as the square root of area: exponent 0.5.
        let points: Vec<(f64, f64)> = (1..20)
            .map(|a| (a as f64, 3.0 * (a as f64).sqrt()))
            .collect();
        assert!((hack(&points).unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(hack(&[(1.0, 2.0)]), None);
    }

    #[test]
    fn every_step_lies_in_one_course_and_a_tributary_ends_where_it_joins() {
        let edges = network();
        let down = way_down(&edges);
        let courses = courses(&down);
        let steps: usize = courses.iter().map(Vec::len).sum();
        assert_eq!(steps, edges.len());
        // The main stem: from (0, -1) (the first source, by row) to the sea.
        let main = &courses[0];
        assert_eq!(main.first().unwrap().from, [0, -1]);
        assert_eq!(main.last().unwrap().to, [6, 0]);
        // The creek from (2, 1) is one step, ending at the stem.
        let creek = courses.iter().find(|c| c[0].from == [2, 1]).unwrap();
        assert_eq!(creek.len(), 1);
    }

    #[test]
    fn sinuosity_of_a_straight_line_a_zigzag_and_a_half_circle() {
        let straight = [[0.0, 0.0], [600.0, 0.0]];
        assert_eq!(sinuosity(&straight), vec![1.0, 1.0]);
        // Steps of 45 degrees either way: sqrt 2.
        let zigzag: Vec<[f64; 2]> = (0..=20)
            .map(|i| [i as f64 * 32.0, (i % 2) as f64 * 32.0])
            .collect();
        let s = sinuosity(&zigzag);
        assert!(
            !s.is_empty() && s.iter().all(|v| (v - 2f64.sqrt()).abs() < 0.1),
            "{s:?}"
        );
        // Half a circle a little longer than 256: its ends about a diameter apart.
        let r = STRETCH / std::f64::consts::PI * 1.0001;
        let half: Vec<[f64; 2]> = (0..=1000)
            .map(|i| {
                let a = std::f64::consts::PI * i as f64 / 1000.0;
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        let s = sinuosity(&half);
        assert_eq!(s.len(), 1);
        assert!((s[0] - std::f64::consts::FRAC_PI_2).abs() < 1e-3, "{s:?}");
        assert!(sinuosity(&[[0.0, 0.0], [100.0, 0.0]]).is_empty());
    }

    #[test]
    fn a_straight_run_is_a_stretch_along_a_grid_direction_within_its_corridor() {
        // 300 blocks along +x wobbling 6 blocks each way (within the corridor), then
        // a bend of 30 degrees for 200 blocks.
        let mut line: Vec<[f64; 2]> = (0..=30)
            .map(|i| [i as f64 * 10.0, if i % 2 == 0 { 6.0 } else { -6.0 }])
            .collect();
        let (sin, cos) = 30f64.to_radians().sin_cos();
        line.extend((1..=20).map(|i| [300.0 + i as f64 * 10.0 * cos, 6.0 + i as f64 * 10.0 * sin]));
        let run = longest_straight(&line);
        assert!((290.0..=330.0).contains(&run), "{run}");
        // A diagonal is a grid direction too.
        let diagonal: Vec<[f64; 2]> = (0..=20)
            .map(|i| [i as f64 * 10.0, i as f64 * 10.0])
            .collect();
        let run = longest_straight(&diagonal);
        assert!(run > 270.0, "{run}");
        // A course bending 20 blocks off its line every 100 blocks has no long run.
        let winding: Vec<[f64; 2]> = (0..=60)
            .map(|i| {
                let x = i as f64 * 10.0;
                [x, 20.0 * (x / 100.0 * std::f64::consts::PI).sin()]
            })
            .collect();
        let run = longest_straight(&winding);
        assert!(run <= 128.0, "{run}");
        assert_eq!(longest_straight(&[]), 0.0);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![]), None);
    }
}
