//! Water figures of a square of a world (generator version 5), for `terravox map
//! --stats`: the measuring stick for water that runs downhill.
//!
//! The network's figures count the river steps (node to node, 32 blocks apart) whose
//! upper node lies in the square, each once, and the springs, lakes and mouths in it.
//! The surface's figures sample columns every `step` blocks as the relief's do.
//!
//! ```text
//! springs        nodes where a river rises; dropped: spring nodes of the regions
//!                touching the square whose water would wander too far or end in a
//!                basin too large to fill (they give no river: every spring kept
//!                reaches the sea, through any lakes it fills)
//! river length   steps with water above the sea, in km
//! mouths         steps that reach the sea's level from above it
//! lakes          basins deep enough for a lake, their level above the sea; and
//!                those 16 or more above it; and those no river step leaves (its
//!                outlet: none must be without)
//! waterfalls     steps whose level drops 5 or more blocks
//! uphill         steps whose level rises downstream, and junctions where a river
//!                leaves a node higher than one that enters it arrives (must be 0)
//! wet land       land samples (top at or above the sea) under a river or lake
//! mountain near  samples 64 or more above the sea within 1 km (a chamfer distance
//!   water        over the nodes: 1 along, 1.5 across) of a river step above the sea
//! ```
//!
//! The network as hydrologists measure it ([`super::network`]): the streams of each
//! Strahler order whose lowest node lies in the square, the bifurcation ratio,
//! Hack's exponent over the network's nodes in the square outside lakes (the area
//! draining through a node counted within 2 km of the square), the median sinuosity
//! of creeks' and of rivers' (steps wide enough to wind) 256-block stretches above
//! the sea, the longest run of a course along one grid direction, and the block
//! columns along the courses above the sea (their steps' centre lines, block by
//! block) and those with no water (no river or lake over them, their ground out of
//! the sea): water that goes nowhere a player can see.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use crate::generator::Generator;
use crate::hydrology::land::NODE;
use crate::hydrology::network::Hydrology;
use crate::hydrology::network::{Edge, regions};
use crate::query::network::{
    bifurcation, bifurcation_fit, courses, hack, longest_straight, median, sinuosity, strahler,
    streams, way_down,
};
use crate::query::stats::met;
use crate::query::{ForEach, collect};

/// Blocks above the sea from which a sample is mountain.
const MOUNTAIN: i32 = 64;
/// How near flowing water a mountain sample counts as watered, in blocks.
const WATERED: f64 = 1000.0;
/// A waterfall's least drop, in blocks.
const FALL: i32 = 5;
/// A high lake's least level above the sea, in blocks.
const HIGH_LAKE: i32 = 16;

/// The water figures of a square (definitions in the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct WaterStats {
    /// The square's side, in blocks.
    pub side: u64,
    /// Nodes in the square where a river rises.
    pub springs: usize,
    /// Spring nodes of the regions touching the square whose water would not reach
    /// the sea (they give no river).
    pub dropped: usize,
    /// Length of the river steps above the sea, in km.
    pub river_km: f64,
    /// River steps that reach the sea's level from above it.
    pub mouths: usize,
    /// Lakes whose level lies above the sea.
    pub lakes: usize,
    /// Lakes 16 or more blocks above the sea.
    pub high_lakes: usize,
    /// Lakes above the sea with no river step leaving them (must be 0: every lake's
    /// water leaves it at its outlet).
    pub lakes_without_outlet: usize,
    /// River steps whose level drops 5 or more blocks.
    pub waterfalls: usize,
    /// Steps and junctions where the water rises downstream (0 by construction).
    pub uphill: usize,
    /// Share of the land samples under a river or lake above the sea.
    pub wet_land_fraction: f64,
    /// Share of the mountain samples within 1 km of flowing water (1 without any).
    pub watered_mountain_fraction: f64,
    /// Streams of each Strahler order (order 1 first) ending in the square.
    pub streams: Vec<usize>,
    /// The bifurcation ratio, Strahler's weighted mean; `None` with fewer than two
    /// orders.
    pub bifurcation: Option<f64>,
    /// Horton's bifurcation ratio, fitted over the orders; `None` with fewer than
    /// two.
    pub bifurcation_fit: Option<f64>,
    /// Hack's exponent; `None` without two areas to fit.
    pub hack: Option<f64>,
    /// The median sinuosity of creeks' 256-block stretches; `None` without one.
    pub creek_sinuosity: Option<f64>,
    /// The median sinuosity of rivers' 256-block stretches; `None` without one.
    pub river_sinuosity: Option<f64>,
    /// The longest run of a course along one grid direction, in blocks.
    pub longest_straight: f64,
    /// Block columns along the courses above the sea.
    pub course_columns: usize,
    /// Of them, those with no water.
    pub dry_columns: usize,
    /// The first of them (by z, then x), `[x, z]`; `None` without one.
    pub first_dry: Option<[i32; 2]>,
}

/// The targets of the "water that runs downhill" issue, over 8 km of `continents`.
mod target {
    pub(super) const WET_LAND: f64 = 0.02;
    pub(super) const HIGH_LAKES: usize = 15;
    pub(super) const WATERFALLS: usize = 30;
    pub(super) const WATERED: f64 = 0.6;
    /// Of the streams that run (generator version 8), over 8 km.
    pub(super) const BIFURCATION: std::ops::RangeInclusive<f64> = 3.0..=5.0;
    pub(super) const HACK: std::ops::RangeInclusive<f64> = 0.5..=0.65;
    pub(super) const CREEK_SINUOSITY: f64 = 1.1;
    pub(super) const STRAIGHT: f64 = 128.0;
}

/// A figure to three places, or "none".
fn figure(v: Option<f64>) -> String {
    v.map_or("none".into(), |v| format!("{v:.3}"))
}

impl fmt::Display for WaterStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "water of {0} x {0} blocks:", self.side)?;
        writeln!(
            f,
            "  springs {} (spring nodes dropped: {}; every spring kept reaches the sea)",
            self.springs, self.dropped
        )?;
        writeln!(
            f,
            "  river length above the sea {:.1} km, mouths {}",
            self.river_km, self.mouths
        )?;
        writeln!(
            f,
            "  lakes above the sea {}, of them {} or more above it: {} (target >= {}: {})",
            self.lakes,
            HIGH_LAKE,
            self.high_lakes,
            target::HIGH_LAKES,
            met(self.high_lakes >= target::HIGH_LAKES)
        )?;
        writeln!(
            f,
            "  lakes with no water leaving them {} (must be 0: {})",
            self.lakes_without_outlet,
            met(self.lakes_without_outlet == 0)
        )?;
        writeln!(
            f,
            "  waterfalls of {FALL} or more blocks {} (target >= {}: {})",
            self.waterfalls,
            target::WATERFALLS,
            met(self.waterfalls >= target::WATERFALLS)
        )?;
        writeln!(
            f,
            "  uphill steps {} (must be 0: {})",
            self.uphill,
            met(self.uphill == 0)
        )?;
        writeln!(
            f,
            "  land under water above the sea {:.1}% (target >= {:.0}%: {})",
            self.wet_land_fraction * 100.0,
            target::WET_LAND * 100.0,
            met(self.wet_land_fraction >= target::WET_LAND)
        )?;
        writeln!(
            f,
            "  mountain land within 1 km of flowing water {:.1}% (target >= {:.0}%: {})",
            self.watered_mountain_fraction * 100.0,
            target::WATERED * 100.0,
            met(self.watered_mountain_fraction >= target::WATERED)
        )?;
        writeln!(
            f,
            "  streams by Strahler order {:?}, bifurcation ratio {} (weighted by the \
             streams; Horton's fit over the orders {}) (target {}-{}: {})",
            self.streams,
            figure(self.bifurcation),
            figure(self.bifurcation_fit),
            target::BIFURCATION.start(),
            target::BIFURCATION.end(),
            met(self
                .bifurcation
                .is_some_and(|b| target::BIFURCATION.contains(&b)))
        )?;
        writeln!(
            f,
            "  Hack's exponent {} (target {}-{}: {})",
            figure(self.hack),
            target::HACK.start(),
            target::HACK.end(),
            met(self.hack.is_some_and(|h| target::HACK.contains(&h)))
        )?;
        writeln!(
            f,
            "  sinuosity over 256 blocks, median: creeks {} (target >= {}: {}), rivers {}",
            figure(self.creek_sinuosity),
            target::CREEK_SINUOSITY,
            met(self
                .creek_sinuosity
                .is_some_and(|s| s >= target::CREEK_SINUOSITY)),
            figure(self.river_sinuosity)
        )?;
        writeln!(
            f,
            "  longest run of a course along one grid direction {:.0} blocks (target <= {}: {})",
            self.longest_straight,
            target::STRAIGHT,
            met(self.longest_straight <= target::STRAIGHT)
        )?;
        write!(
            f,
            "  columns along the courses above the sea without water {} of {} (must be 0: {})",
            self.dry_columns,
            self.course_columns,
            met(self.dry_columns == 0)
        )?;
        match self.first_dry {
            Some([x, z]) => write!(f, ", the first at ({x}, {z})"),
            None => Ok(()),
        }
    }
}

/// The water figures of the square of `samples * step` blocks a side centred on
/// `center`, its sample rows run by `rows`; `None` for a world without water that runs
/// downhill.
pub fn water_stats(
    generator: &Generator,
    center: [i32; 2],
    samples: u32,
    step: u32,
    rows: ForEach<'_>,
) -> Option<WaterStats> {
    let hydrology = generator.terrain.hydrology()?;
    let side = samples.max(1) as i64 * step as i64;
    let x0 = center[0] as i64 - side / 2;
    let z0 = center[1] as i64 - side / 2;
    let (bx0, bz0, bx1, bz1) = (
        clamp(x0),
        clamp(z0),
        clamp(x0 + side - 1),
        clamp(z0 + side - 1),
    );
    let node_in = |n: [i32; 2]| {
        let (x, z) = (n[0] as i64 * NODE as i64, n[1] as i64 * NODE as i64);
        (x0..x0 + side).contains(&x) && (z0..z0 + side).contains(&z)
    };
    let net = Gathered::over(hydrology, [bx0, bz0, bx1, bz1], &node_in);
    let mut s = WaterStats {
        side: side as u64,
        springs: net.springs.len(),
        dropped: net.dropped,
        river_km: 0.0,
        mouths: 0,
        lakes: net.lakes.len(),
        high_lakes: net.lakes.values().filter(|&&l| l >= HIGH_LAKE).count(),
        lakes_without_outlet: net.lakes_without_outlet(),
        waterfalls: 0,
        uphill: 0,
        wet_land_fraction: 0.0,
        watered_mountain_fraction: 1.0,
        streams: Vec::new(),
        bifurcation: None,
        bifurcation_fit: None,
        hack: None,
        creek_sinuosity: None,
        river_sinuosity: None,
        longest_straight: 0.0,
        course_columns: 0,
        dry_columns: 0,
        first_dry: None,
    };
    count_steps(&net.edges, &node_in, &mut s);
    let near = near_flowing_water(&net.edges);
    let n = samples.max(1) as usize;
    let counts = collect(rows, n, |row| {
        let z = clamp(z0 + row as i64 * step as i64 + step as i64 / 2);
        let xs = (0..n).map(|col| clamp(x0 + col as i64 * step as i64 + step as i64 / 2));
        count_samples(generator, xs, z, &near)
    });
    let square = Square {
        node_in: &node_in,
        nodes: [x0, z0, x0 + side].map(|v| v.div_euclid(NODE as i64) as i32),
        lakes: &net.lake_nodes,
    };
    measure_network(generator, hydrology, &net.edges, &square, rows, &mut s);
    let sum = |k: usize| counts.iter().map(|c| c[k]).sum::<u64>();
    let (land, wet, high, watered) = (sum(0), sum(1), sum(2), sum(3));
    if land > 0 {
        s.wet_land_fraction = wet as f64 / land as f64;
    }
    if high > 0 {
        s.watered_mountain_fraction = watered as f64 / high as f64;
    }
    Some(s)
}

/// A coordinate inside the world (beyond it, the nearest column's).
fn clamp(v: i64) -> i32 {
    crate::generator::inside(v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

/// The network over a square of blocks and 1 km around it (for the mountains'
/// distances), gathered from the regions that reach it.
struct Gathered {
    /// Every step, once.
    edges: HashMap<([i32; 2], [i32; 2]), Edge>,
    /// The spring nodes in the square.
    springs: HashSet<[i32; 2]>,
    /// The level of each lake above the sea in the square, by its pit.
    lakes: HashMap<[i32; 2], i32>,
    /// The nodes of every lake gathered.
    lake_nodes: HashSet<[i32; 2]>,
    /// The nodes of each lake in the square, by its pit.
    lake_sets: HashMap<[i32; 2], HashSet<[i32; 2]>>,
    /// The springs dropped in the regions inside the square.
    dropped: usize,
}

impl Gathered {
    /// The network of the square of blocks `[x0, z0, x1, z1]` (inclusive), whose nodes
    /// `node_in` tells.
    fn over(hydrology: &Hydrology, bounds: [i32; 4], node_in: &dyn Fn([i32; 2]) -> bool) -> Self {
        let [bx0, bz0, bx1, bz1] = bounds;
        let margin = WATERED as i32 + NODE;
        let mut net = Gathered {
            edges: HashMap::new(),
            springs: HashSet::new(),
            lakes: HashMap::new(),
            lake_nodes: HashSet::new(),
            lake_sets: HashMap::new(),
            dropped: 0,
        };
        for r in regions(
            bx0.saturating_sub(margin),
            bz0.saturating_sub(margin),
            bx1.saturating_add(margin),
            bz1.saturating_add(margin),
        ) {
            let reach = hydrology.reach(r);
            for e in &reach.edges {
                net.edges.entry((e.from, e.to)).or_insert(*e);
            }
            let springs = reach.springs.iter().copied().filter(|&n| node_in(n));
            net.springs.extend(springs);
            for l in reach.lakes.iter().filter(|l| node_in(l.pit) && l.level > 0) {
                net.lakes.insert(l.pit, l.level);
                let set = net.lake_sets.entry(l.pit).or_default();
                set.extend(l.nodes.iter().copied());
            }
            let nodes = reach.lakes.iter().flat_map(|l| l.nodes.iter().copied());
            net.lake_nodes.extend(nodes);
            if regions(bx0, bz0, bx1, bz1).any(|q| q == r) {
                net.dropped += reach.dropped;
            }
        }
        net
    }

    /// The lakes in the square that no step leaves.
    fn lakes_without_outlet(&self) -> usize {
        let leaves = |nodes: &HashSet<[i32; 2]>| {
            (self.edges.values()).any(|e| nodes.contains(&e.from) && !nodes.contains(&e.to))
        };
        self.lake_sets
            .values()
            .filter(|nodes| !leaves(nodes))
            .count()
    }
}

/// The river length, mouths, waterfalls, and uphill steps and junctions, of the steps
/// whose upper node lies in the square (`node_in`).
fn count_steps(
    edges: &HashMap<([i32; 2], [i32; 2]), Edge>,
    node_in: &dyn Fn([i32; 2]) -> bool,
    s: &mut WaterStats,
) {
    // The highest level leaving each node. The steps in a fixed order: the length's
    // sum does not depend on the map's.
    let mut leaving: HashMap<[i32; 2], i32> = HashMap::new();
    let mut sorted: Vec<&Edge> = edges.values().collect();
    sorted.sort_by_key(|e| (e.from[1], e.from[0], e.to[1], e.to[0]));
    for e in sorted {
        let [a, b] = e.levels;
        let l_from = leaving.entry(e.from).or_insert(i32::MIN);
        *l_from = (*l_from).max(a);
        if !node_in(e.from) {
            continue;
        }
        if a > 0 {
            let (dx, dz) = ((e.to[0] - e.from[0]) as f64, (e.to[1] - e.from[1]) as f64);
            s.river_km += (dx * dx + dz * dz).sqrt() * NODE as f64 / 1000.0;
        }
        s.mouths += usize::from(a > 0 && b == 0);
        s.waterfalls += usize::from(a - b >= FALL);
        s.uphill += usize::from(b > a);
    }
    // A junction rises where a node's lowest arriving level is below what leaves it.
    let mut lowest_arriving: HashMap<[i32; 2], i32> = HashMap::new();
    for e in edges.values() {
        let l = lowest_arriving.entry(e.to).or_insert(i32::MAX);
        *l = (*l).min(e.levels[1]);
    }
    s.uphill += leaving
        .iter()
        .filter(|(n, out)| node_in(**n) && lowest_arriving.get(*n).is_some_and(|a| **out > *a))
        .count();
}

/// Flowing water's nodes, and each node's distance to the nearest (in nodes, by a
/// breadth-first chamfer: 1 along, 1.5 across; within [`WATERED`] only).
fn near_flowing_water(edges: &HashMap<([i32; 2], [i32; 2]), Edge>) -> HashMap<[i32; 2], f64> {
    let wet = (edges.values())
        .filter(|e| e.levels[0] > 0)
        .flat_map(|e| [e.from, e.to]);
    let reach = (WATERED / NODE as f64).ceil() as i32;
    let mut near: HashMap<[i32; 2], f64> = HashMap::new();
    let mut queue: VecDeque<[i32; 2]> = VecDeque::new();
    for n in wet {
        if near.insert(n, 0.0).is_none() {
            queue.push_back(n);
        }
    }
    while let Some(n) = queue.pop_front() {
        let d = near[&n];
        for (dx, dz, cost) in [
            (1, 0, 1.0),
            (-1, 0, 1.0),
            (0, 1, 1.0),
            (0, -1, 1.0),
            (1, 1, 1.5),
            (1, -1, 1.5),
            (-1, 1, 1.5),
            (-1, -1, 1.5),
        ] {
            let m = [n[0] + dx, n[1] + dz];
            let dm = d + cost;
            if dm <= reach as f64 && near.get(&m).is_none_or(|&old| dm < old) {
                near.insert(m, dm);
                queue.push_back(m);
            }
        }
    }
    near
}

/// The samples of one row at `z` (its columns `xs`): `[land, wet land, mountain,
/// mountain near flowing water]`, `near` the nodes within reach of flowing water.
fn count_samples(
    generator: &Generator,
    xs: impl Iterator<Item = i32>,
    z: i32,
    near: &HashMap<[i32; 2], f64>,
) -> [u64; 4] {
    let (mut land, mut wet, mut high, mut watered) = (0u64, 0u64, 0u64, 0u64);
    for x in xs {
        let top = generator.column_top(x, z);
        let h = top.y - generator.sea_level();
        if h < 0 {
            continue;
        }
        land += 1;
        wet += u64::from(top.water.is_some());
        if h >= MOUNTAIN {
            high += 1;
            let node = [
                (x as f64 / NODE as f64).round() as i32,
                (z as f64 / NODE as f64).round() as i32,
            ];
            watered += u64::from(near.contains_key(&node));
        }
    }
    [land, wet, high, watered]
}

/// The square [`measure_network`] measures.
struct Square<'a> {
    /// Whether a node lies in it.
    node_in: &'a dyn Fn([i32; 2]) -> bool,
    /// Its first node's `i` and `j`, and one past its last node each way.
    nodes: [i32; 3],
    /// The lakes' nodes around it.
    lakes: &'a HashSet<[i32; 2]>,
}

/// Nodes beyond the square whose land [`measure_network`] counts as draining
/// through its nodes (2 km).
const DRAINED_MARGIN: i32 = 2048 / NODE;

/// Adds the network's figures of `square` to `s` (definitions in the module doc),
/// the steps around it being `edges`, its columns looked at in jobs run by `rows`.
fn measure_network(
    generator: &Generator,
    hydrology: &Hydrology,
    edges: &HashMap<([i32; 2], [i32; 2]), Edge>,
    square: &Square<'_>,
    rows: ForEach<'_>,
    s: &mut WaterStats,
) {
    let mut all: Vec<Edge> = edges.values().copied().collect();
    all.sort_by_key(|e| (e.from[1], e.from[0], e.to[1], e.to[0]));
    let down = way_down(&all);
    let mut order = strahler(&down);
    order.retain(|n, _| (square.node_in)(*n));
    s.streams = streams(&down, &order);
    s.bifurcation = bifurcation(&s.streams);
    s.bifurcation_fit = bifurcation_fit(&s.streams);
    let [i0, j0, end] = square.nodes;
    let m = DRAINED_MARGIN;
    let drainage = hydrology.drained([i0 - m, j0 - m], [end + m, j0 + (end - i0) + m]);
    let points: Vec<(f64, f64)> = order
        .keys()
        .filter(|n| !square.lakes.contains(*n))
        .filter_map(|n| Some((*drainage.area.get(n)? as f64, *drainage.length.get(n)?)))
        .collect();
    s.hack = hack(&points);
    // The courses above the sea in the square, cut where they leave it, each cut in
    // runs of creek and of river.
    let above = |e: &Edge| (square.node_in)(e.from) && e.levels[0] > 0;
    let mut runs: Vec<(bool, Vec<Edge>)> = Vec::new();
    for course in courses(&down) {
        let mut run: Option<(bool, Vec<Edge>)> = None;
        for e in course {
            let kind = hydrology.winds(e.flow);
            match &mut run {
                Some((k, steps)) if above(&e) && *k == kind => steps.push(e),
                _ => {
                    runs.extend(run.take());
                    run = above(&e).then(|| (kind, vec![e]));
                }
            }
        }
        runs.extend(run);
    }
    let mut bends: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut columns: HashSet<[i32; 2]> = HashSet::new();
    for (river, steps) in &runs {
        let mut line: Vec<[f64; 2]> = Vec::new();
        for e in steps {
            let course = hydrology.course(e);
            columns.extend(along(&course));
            let joined = line.last().is_some() as usize;
            line.extend(course.into_iter().skip(joined));
        }
        s.longest_straight = s.longest_straight.max(longest_straight(&line));
        bends[usize::from(*river)].extend(sinuosity(&line));
    }
    let [creeks, rivers] = bends;
    s.creek_sinuosity = median(creeks);
    s.river_sinuosity = median(rivers);
    let mut columns: Vec<[i32; 2]> = columns.into_iter().collect();
    columns.sort_by_key(|c| (c[1], c[0]));
    let chunk = columns.len().div_ceil(64).max(1);
    let sea = generator.sea_level();
    let dry = collect(rows, columns.len().div_ceil(chunk), |k| {
        columns[k * chunk..((k + 1) * chunk).min(columns.len())]
            .iter()
            .filter(|[x, z]| {
                // Dry: no river or lake over it, and its ground out of the sea.
                let top = generator.column_top(*x, *z);
                top.water.is_none() && top.y >= sea
            })
            .copied()
            .collect::<Vec<_>>()
    });
    s.course_columns = columns.len();
    s.dry_columns = dry.iter().map(Vec::len).sum();
    s.first_dry = dry.iter().flatten().next().copied();
}

/// The block columns a line through `points` (blocks) passes over, a block apart.
fn along(points: &[[f64; 2]]) -> Vec<[i32; 2]> {
    let mut out = Vec::new();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let n = (b[0] - a[0]).hypot(b[1] - a[1]).ceil().max(1.0) as usize;
        out.extend((0..=n).map(|k| {
            let t = k as f64 / n as f64;
            [
                (a[0] + (b[0] - a[0]) * t).round() as i32,
                (a[1] + (b[1] - a[1]) * t).round() as i32,
            ]
        }));
    }
    out
}
