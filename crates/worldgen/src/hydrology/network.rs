//! The drainage network of a world: the rivers of every spring, gathered region by
//! region. A region is [`REGION`] x [`REGION`] nodes (2 km a side); its springs'
//! rivers are traced once and kept. What a place sees ([`Hydrology::reach`]) is every
//! river step within a region and a margin, from the springs of every region within
//! [`REACH`](super::trace::REACH) nodes: a river never runs further than that from
//! its spring, so the network around a place is the same whichever chunk, thread or
//! order asks first.

use std::collections::HashMap;
use std::sync::Arc;

use super::basin::{Basin, flood};
use super::channel::{Disc, LocalWater, Segment};
use super::land::{Land, NODE, Node, View, node_hash, node_roll};
use super::trace::{REACH, Trace, is_spring, trace};
use crate::config::world::{DensityConfig, ShapeConfig, WaterConfig};
use crate::store::Store;

/// Nodes a side of a region.
pub(crate) const REGION: i32 = 64;

/// Regions each way whose springs a region's rivers may come from: every spring
/// within [`REACH`] nodes of the region's margin.
const SOURCES: i32 = (REACH + MARGIN + REGION - 1) / REGION;

/// Nodes beyond a region's side whose river steps it keeps: what shapes columns
/// inside it ([`super::channel::INFLUENCE`] blocks) and two nodes more (a channel's
/// half-width and a bend's jitter).
const MARGIN: i32 = super::channel::INFLUENCE as i32 / NODE + 2;

/// Regions kept before a store of regions starts again (the 16 km horizon's area and
/// the springs around it, four times over).
const KEPT_REGIONS: usize = 16_384;

/// Basins kept before their store starts again.
const KEPT_BASINS: usize = 1 << 18;

/// Blocks a river's bend may sit off its node, each way: rivers need not follow the
/// grid's lines.
const JITTER: f64 = 9.0;

/// The lowest a tarn lies, blocks above the sea.
const TARN_HEIGHT: i32 = 16;
/// The least drop below a tarn's lip, in blocks.
const TARN_FALL: i32 = 6;
/// Separates the tarns from the world's other hashes.
const TARN_SALT: u64 = 0x0074_6172_6e35; // "tarn5"

/// Separates the bends from the world's other hashes.
const JITTER_SALT: u64 = 0x0062_656e_6435; // "bend5"

/// One river step as a region sees it, with how many springs feed it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub from: Node,
    pub to: Node,
    /// Water levels at either end, whole blocks above sea level.
    pub levels: [i32; 2],
    /// Springs whose water runs along it.
    pub flow: u32,
}

/// A lake of a basin, as a region sees it.
#[derive(Clone, Debug)]
pub(crate) struct Lake {
    /// The basin's floor.
    pub pit: Node,
    /// Its level, whole blocks above sea level.
    pub level: i32,
    /// Its nodes near the region.
    pub nodes: Vec<Node>,
}

/// The rivers and lakes around a region.
#[derive(Debug)]
pub(crate) struct Reach {
    pub edges: Vec<Edge>,
    pub lakes: Vec<Lake>,
    /// The springs inside the region.
    pub springs: Vec<Node>,
    /// Spring nodes inside the region whose water would not reach the sea.
    pub dropped: usize,
    segments: Vec<Segment>,
    discs: Vec<Disc>,
}

/// The water of a density world with `shape.water`.
pub(crate) struct Hydrology {
    cfg: WaterConfig,
    seed: u64,
    /// Whether big rivers wind over floodplains (version 6; [`Segment::course`]).
    winding: bool,
    land: Land,
    basins: Store<Node, Option<Arc<Basin>>>,
    traces: Store<[i32; 2], (Vec<Trace>, usize)>,
    reaches: Store<[i32; 2], Reach>,
}

impl std::fmt::Debug for Hydrology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hydrology")
            .field("cfg", &self.cfg)
            .finish_non_exhaustive()
    }
}

impl Hydrology {
    /// The water of density config `d` with shape `s` for world seed `seed`, big
    /// rivers `winding` over floodplains (version 6) or not; `None` without
    /// `s.water`.
    pub(crate) fn new(
        d: &DensityConfig,
        s: &ShapeConfig,
        seed: u64,
        sea: i32,
        winding: bool,
    ) -> Option<Self> {
        let cfg = s.water.as_deref()?.clone();
        Some(Self {
            cfg,
            seed,
            winding,
            land: Land::new(d, s, seed, sea),
            basins: Store::new(KEPT_BASINS),
            traces: Store::new(KEPT_REGIONS),
            reaches: Store::new(KEPT_REGIONS),
        })
    }

    /// The basin of pit `pit`.
    fn basin(&self, land: &mut View<'_>, pit: Node) -> Option<Arc<Basin>> {
        let basin_of = |l: &mut View<'_>, p: Node| self.basin(l, p);
        (*self
            .basins
            .get(pit, || flood(land, pit, &basin_of).map(Arc::new)))
        .clone()
    }

    /// The rivers of region `r`'s springs, and how many spring nodes were dropped.
    fn traces(&self, r: [i32; 2]) -> Arc<(Vec<Trace>, usize)> {
        self.traces.get(r, || {
            let mut land = View::new(&self.land);
            let (mut rivers, mut dropped) = (Vec::new(), 0);
            for j in 0..REGION {
                for i in 0..REGION {
                    let n = [r[0] * REGION + i, r[1] * REGION + j];
                    if !is_spring(&self.cfg, self.seed, n, &mut land) {
                        continue;
                    }
                    match trace(&mut land, &self.cfg, n, |l, p| self.basin(l, p)) {
                        Some(t) => rivers.push(t),
                        None => dropped += 1,
                    }
                }
            }
            (rivers, dropped)
        })
    }

    /// The rivers and lakes around region `r`.
    pub(crate) fn reach(&self, r: [i32; 2]) -> Arc<Reach> {
        self.reaches.get(r, || self.make_reach(r))
    }

    fn make_reach(&self, r: [i32; 2]) -> Reach {
        let (lo, hi) = (
            [r[0] * REGION - MARGIN, r[1] * REGION - MARGIN],
            [(r[0] + 1) * REGION + MARGIN, (r[1] + 1) * REGION + MARGIN],
        );
        let near = |n: Node| (lo[0]..hi[0]).contains(&n[0]) && (lo[1]..hi[1]).contains(&n[1]);
        // A step from `a` to `b` passes near the region.
        let passes = |a: Node, b: Node| {
            a[0].min(b[0]) < hi[0]
                && a[0].max(b[0]) >= lo[0]
                && a[1].min(b[1]) < hi[1]
                && a[1].max(b[1]) >= lo[1]
        };
        let own = |n: Node| n[0].div_euclid(REGION) == r[0] && n[1].div_euclid(REGION) == r[1];
        let mut edges: HashMap<(Node, Node), Edge> = HashMap::new();
        // Each node's level: the same from every river through it (a level is the
        // highest raw level from the node down, and the way down from a node is the
        // node's own); the highest taken all the same.
        let mut levels: HashMap<Node, i32> = HashMap::new();
        let mut lakes: HashMap<Node, Lake> = HashMap::new();
        let mut springs = Vec::new();
        let mut dropped = 0;
        let mut land = View::new(&self.land);
        for sj in r[1] - SOURCES..=r[1] + SOURCES {
            for si in r[0] - SOURCES..=r[0] + SOURCES {
                let t = self.traces([si, sj]);
                if [si, sj] == r {
                    dropped = t.1;
                }
                for river in &t.0 {
                    if own(river.steps[0].node) {
                        springs.push(river.steps[0].node);
                    }
                    for step in &river.steps {
                        let l = levels.entry(step.node).or_insert(step.level);
                        *l = (*l).max(step.level);
                    }
                    for w in river.steps.windows(2) {
                        let (a, b) = (w[0], w[1]);
                        if a.lake
                            && let Some(basin) = self.basin(&mut land, a.node)
                        {
                            lakes.entry(a.node).or_insert_with(|| Lake {
                                pit: a.node,
                                level: a.level,
                                nodes: basin.nodes.iter().copied().filter(|&n| near(n)).collect(),
                            });
                        }
                        if !passes(a.node, b.node) {
                            continue;
                        }
                        let e = edges.entry((a.node, b.node)).or_insert(Edge {
                            from: a.node,
                            to: b.node,
                            levels: [a.level, b.level],
                            flow: 0,
                        });
                        e.flow += 1;
                    }
                }
            }
        }
        let mut edges: Vec<Edge> = edges
            .into_values()
            .map(|mut e| {
                e.levels = [levels[&e.from], levels[&e.to]];
                e
            })
            .collect();
        for l in lakes.values_mut() {
            l.level = levels[&l.pit];
        }
        // Tarns: small lakes on the lips of waterfalls high up.
        for e in &edges {
            let [a, b] = e.levels;
            if a >= TARN_HEIGHT && a - b >= TARN_FALL && self.tarn(e.from) && near(e.from) {
                lakes.entry(e.from).or_insert_with(|| Lake {
                    pit: e.from,
                    level: a,
                    nodes: vec![e.from],
                });
            }
        }
        edges.sort_by_key(|e| (e.from[1], e.from[0], e.to[1], e.to[0]));
        let mut lakes: Vec<Lake> = lakes
            .into_values()
            .filter(|l| !l.nodes.is_empty())
            .collect();
        lakes.sort_by_key(|l| (l.pit[1], l.pit[0]));
        springs.sort_by_key(|n| (n[1], n[0]));
        let segments = edges
            .iter()
            .flat_map(|e| {
                let (a, b) = (self.bend(e.from), self.bend(e.to));
                // Steps from nodes of alternate parity bend to alternate sides.
                let side = if (e.from[0] + e.from[1]).rem_euclid(2) == 0 {
                    1.0
                } else {
                    -1.0
                };
                let width = self.cfg.width;
                match self.winding {
                    true => Segment::course(a, b, e.levels, e.flow, width, side),
                    false => vec![Segment::straight(a, b, e.levels, e.flow, width)],
                }
            })
            .collect();
        let discs = lakes
            .iter()
            .flat_map(|l| {
                l.nodes.iter().map(|&n| Disc {
                    at: [(n[0] * NODE) as f64, (n[1] * NODE) as f64],
                    level: l.level,
                })
            })
            .collect();
        Reach {
            edges,
            lakes,
            springs,
            dropped,
            segments,
            discs,
        }
    }

    /// Whether a waterfall from node `n` has a tarn on its lip (`tarns` of them).
    fn tarn(&self, n: Node) -> bool {
        node_roll(self.seed, TARN_SALT, n) < self.cfg.tarns
    }

    /// Where a river bends at node `n`, in blocks.
    fn bend(&self, n: Node) -> [f64; 2] {
        let h = node_hash(self.seed, JITTER_SALT, n);
        let unit = |bits: u64| (bits & 0xffff) as f64 / 65535.0 * 2.0 - 1.0;
        [
            (n[0] * NODE) as f64 + JITTER * unit(h),
            (n[1] * NODE) as f64 + JITTER * unit(h >> 16),
        ]
    }

    /// The regions holding columns `x0..=x1` by `z0..=z1`.
    pub(crate) fn regions(x0: i32, z0: i32, x1: i32, z1: i32) -> impl Iterator<Item = [i32; 2]> {
        let r = |v: i32| v.div_euclid(NODE).div_euclid(REGION);
        let (rx0, rx1, rz0, rz1) = (r(x0), r(x1), r(z0), r(z1));
        (rz0..=rz1).flat_map(move |j| (rx0..=rx1).map(move |i| [i, j]))
    }

    /// The water that shapes columns `x0..=x1` by `z0..=z1`.
    pub(crate) fn near(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> LocalWater {
        let mut local = LocalWater::default();
        for r in Self::regions(x0, z0, x1, z1) {
            let reach = self.reach(r);
            local.gather(&reach.segments, &reach.discs, [x0, z0, x1, z1]);
        }
        local.index([x0, z0, x1, z1]);
        local
    }
}
