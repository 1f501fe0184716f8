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
//!                those 16 or more above it
//! waterfalls     steps whose level drops 5 or more blocks
//! uphill         steps whose level rises downstream, and junctions where a river
//!                leaves a node higher than one that enters it arrives (must be 0)
//! wet land       land samples (top at or above the sea) under a river or lake
//! mountain near  samples 64 or more above the sea within 1 km (a chamfer distance
//!   water        over the nodes: 1 along, 1.5 across) of a river step above the sea
//! ```

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use crate::generator::Generator;
use crate::hydrology::land::NODE;
use crate::hydrology::network::{Edge, regions};
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
    /// River steps whose level drops 5 or more blocks.
    pub waterfalls: usize,
    /// Steps and junctions where the water rises downstream (0 by construction).
    pub uphill: usize,
    /// Share of the land samples under a river or lake above the sea.
    pub wet_land_fraction: f64,
    /// Share of the mountain samples within 1 km of flowing water (1 without any).
    pub watered_mountain_fraction: f64,
}

/// The targets of the "water that runs downhill" issue, over 8 km of `continents`.
mod target {
    pub(super) const WET_LAND: f64 = 0.02;
    pub(super) const HIGH_LAKES: usize = 15;
    pub(super) const WATERFALLS: usize = 30;
    pub(super) const WATERED: f64 = 0.6;
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
        write!(
            f,
            "  mountain land within 1 km of flowing water {:.1}% (target >= {:.0}%: {})",
            self.watered_mountain_fraction * 100.0,
            target::WATERED * 100.0,
            met(self.watered_mountain_fraction >= target::WATERED)
        )
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
    // Inside the world (beyond it, the nearest column's).
    let clamp = |v: i64| crate::generator::inside(v.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
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
    // The network over the square and 1 km around it (for the mountains' distances).
    let margin = WATERED as i32 + NODE;
    let mut edges: HashMap<([i32; 2], [i32; 2]), Edge> = HashMap::new();
    let (mut springs, mut lakes, mut dropped) = (HashSet::new(), HashMap::new(), 0);
    for r in regions(
        bx0.saturating_sub(margin),
        bz0.saturating_sub(margin),
        bx1.saturating_add(margin),
        bz1.saturating_add(margin),
    ) {
        let reach = hydrology.reach(r);
        for e in &reach.edges {
            edges.entry((e.from, e.to)).or_insert(*e);
        }
        springs.extend(reach.springs.iter().copied().filter(|&n| node_in(n)));
        for l in reach.lakes.iter().filter(|l| node_in(l.pit) && l.level > 0) {
            lakes.insert(l.pit, l.level);
        }
        let inside = regions(bx0, bz0, bx1, bz1).any(|q| q == r);
        if inside {
            dropped += reach.dropped;
        }
    }
    let mut s = WaterStats {
        side: side as u64,
        springs: springs.len(),
        dropped,
        river_km: 0.0,
        mouths: 0,
        lakes: lakes.len(),
        high_lakes: lakes.values().filter(|&&l| l >= HIGH_LAKE).count(),
        waterfalls: 0,
        uphill: 0,
        wet_land_fraction: 0.0,
        watered_mountain_fraction: 1.0,
    };
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
    // Flowing water's nodes, and each node's distance to the nearest (in nodes, by
    // a breadth-first chamfer: 1 along, 1.5 across; within 1 km only).
    let wet: Vec<[i32; 2]> = edges
        .values()
        .filter(|e| e.levels[0] > 0)
        .flat_map(|e| [e.from, e.to])
        .collect();
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
    let n = samples.max(1) as usize;
    let counts = collect(rows, n, |row| {
        let z = clamp(z0 + row as i64 * step as i64 + step as i64 / 2);
        let (mut land, mut wet, mut high, mut watered) = (0u64, 0u64, 0u64, 0u64);
        for col in 0..n {
            let x = clamp(x0 + col as i64 * step as i64 + step as i64 / 2);
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
    });
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
