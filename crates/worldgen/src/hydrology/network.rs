//! The drainage network of a world: the rivers of every spring, gathered region by
//! region. A region is [`REGION`] x [`REGION`] nodes (2 km a side); its springs'
//! rivers are traced once and kept. What a place sees ([`Hydrology::reach`]) is every
//! river step within a region and a margin, from the springs of every region within
//! [`REACH`] nodes: a river never runs further than that from
//! its spring, so the network around a place is the same whichever chunk, thread or
//! order asks first.

use std::sync::Arc;

use foldhash::HashMap;

use super::basin::{Basin, flood};
use super::channel::{Disc, FiledWater, LAKE_RADIUS, LocalWater, Run, Segment};
use super::course;
use super::land::{Ground, Heights, Land, NODE, Node, node_hash, node_roll};
use super::trace::{REACH, Step, Trace, is_spring, trace};
use crate::config::world::{DensityConfig, ShapeConfig, WaterConfig};
use crate::store::Store;

/// Nodes a side of a region.
pub(crate) const REGION: i32 = 64;

/// Regions each way whose springs a region's rivers may come from: every spring
/// within [`REACH`] nodes of the region's margin.
const SOURCES: i32 = (REACH + MARGIN + REGION - 1) / REGION;

/// Nodes beyond a region's side whose river steps it keeps: what shapes columns
/// inside it ([`super::channel::INFLUENCE`] blocks) and three nodes more (a
/// channel's half-width, and a bend's jitter or version 8's warp and bow).
const MARGIN: i32 = super::channel::INFLUENCE as i32 / NODE + 3;
const _: () = assert!(
    ((MARGIN - super::channel::INFLUENCE as i32 / NODE) * NODE) as f64
        > super::channel::WIDEST + course::WARP * std::f64::consts::SQRT_2 + course::BOW,
    "a step beyond the margin shapes nothing in the region, its half-width, warp and bow \
     counted"
);

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
    /// Its rivers' and lakes' pieces of water in blocks.
    water: FiledWater,
}

/// How a version lays its rivers in blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Laying {
    /// Straight steps between bends jittered off their nodes (version 5).
    Straight,
    /// Big rivers winding in bends over floodplains where they run level (versions 6
    /// and 7; [`Segment::course`]).
    Winding,
    /// Courses laid under the node grid, their water running down them in every
    /// column ([`course`]; version 8). `nearest`: each run of a course (a step's
    /// pieces on one side of its fall) speaks for a column by its piece nearest the
    /// column (version 9), where in version 8 every piece does.
    Running { nearest: bool },
}

/// The water of a density world with `shape.water`, over the land `G` (a world's
/// [`Land`]; tests make land by hand).
pub(crate) struct Hydrology<G: Ground = Land> {
    cfg: WaterConfig,
    seed: u64,
    laying: Laying,
    ground: G,
    basins: Store<Node, Option<Arc<Basin>>>,
    traces: Store<[i32; 2], (Vec<Trace>, usize)>,
    reaches: Store<[i32; 2], Reach>,
}

impl<G: Ground> std::fmt::Debug for Hydrology<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hydrology")
            .field("cfg", &self.cfg)
            .finish_non_exhaustive()
    }
}

impl Hydrology {
    /// The water of density config `d` with shape `s` for world seed `seed`, its
    /// rivers laid as `laying` says; `None` without `s.water`.
    pub(crate) fn new(
        d: &DensityConfig,
        s: &ShapeConfig,
        seed: u64,
        sea: i32,
        laying: Laying,
    ) -> Option<Self> {
        let cfg = s.water.as_deref()?.clone();
        Some(Self::on(Land::new(d, s, seed, sea), cfg, seed, laying))
    }
}

/// The nodes a region keeps river steps and lakes of: its own, and [`MARGIN`] more
/// each side.
#[derive(Clone, Copy, Debug)]
struct Window {
    lo: Node,
    hi: Node,
}

impl Window {
    /// Region `r`'s window.
    fn of(r: [i32; 2]) -> Self {
        Self {
            lo: [r[0] * REGION - MARGIN, r[1] * REGION - MARGIN],
            hi: [(r[0] + 1) * REGION + MARGIN, (r[1] + 1) * REGION + MARGIN],
        }
    }

    /// Whether node `n` lies in it.
    fn holds(&self, n: Node) -> bool {
        (self.lo[0]..self.hi[0]).contains(&n[0]) && (self.lo[1]..self.hi[1]).contains(&n[1])
    }

    /// Whether a step from `a` to `b` passes through it.
    fn crossed_by(&self, a: Node, b: Node) -> bool {
        a[0].min(b[0]) < self.hi[0]
            && a[0].max(b[0]) >= self.lo[0]
            && a[1].min(b[1]) < self.hi[1]
            && a[1].max(b[1]) >= self.lo[1]
    }
}

/// What the rivers of the springs around a region leave in it, river by river.
#[derive(Default)]
struct Gathered {
    edges: HashMap<(Node, Node), Edge>,
    /// Each node's level, the same from every river through it ([`merge_level`]).
    levels: HashMap<Node, i32>,
    lakes: HashMap<Node, Lake>,
    springs: Vec<Node>,
}

/// Adds a river's level at a node to `levels`. Every river through a node agrees on
/// its level: a level is the highest raw level from the node down, and the way down
/// from a node is the node's own (a river crossing a basin joins it below its level,
/// where the node's own way leads to the same pit). Debug builds and the tests check
/// it; other builds keep the highest, as every version has.
fn merge_level(levels: &mut HashMap<Node, i32>, step: &Step) {
    let level = levels.entry(step.node).or_insert(step.level);
    if cfg!(any(debug_assertions, test, feature = "test-support")) {
        assert_eq!(
            *level, step.level,
            "rivers disagree on the water level at node {:?}",
            step.node
        );
    }
    *level = (*level).max(step.level);
}

impl<G: Ground> Hydrology<G> {
    /// The water of water config `cfg` over `ground` for world seed `seed` (see
    /// [`Hydrology::new`]).
    pub(crate) fn on(ground: G, cfg: WaterConfig, seed: u64, laying: Laying) -> Self {
        Self {
            cfg,
            seed,
            laying,
            ground,
            basins: Store::new(KEPT_BASINS),
            traces: Store::new(KEPT_REGIONS),
            reaches: Store::new(KEPT_REGIONS),
        }
    }

    /// The basin of pit `pit`.
    fn basin<'a>(&'a self, land: &mut G::Look<'a>, pit: Node) -> Option<Arc<Basin>> {
        let basin_of = |l: &mut G::Look<'a>, p: Node| self.basin(l, p);
        (*self
            .basins
            .get(pit, || flood(land, pit, &basin_of).map(Arc::new)))
        .clone()
    }

    /// The rivers of region `r`'s springs, and how many spring nodes were dropped.
    fn traces(&self, r: [i32; 2]) -> Arc<(Vec<Trace>, usize)> {
        self.traces.get(r, || {
            let mut land = self.ground.look();
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

    /// The rivers and lakes around region `r`, made: the rivers of every spring that
    /// can reach it gathered, their levels settled, the tarns added, and the pieces
    /// of water laid out in blocks.
    fn make_reach(&self, r: [i32; 2]) -> Reach {
        let window = Window::of(r);
        let mut gathered = Gathered::default();
        let mut dropped = 0;
        let mut land = self.ground.look();
        for sj in r[1] - SOURCES..=r[1] + SOURCES {
            for si in r[0] - SOURCES..=r[0] + SOURCES {
                let t = self.traces([si, sj]);
                if [si, sj] == r {
                    dropped = t.1;
                }
                for river in &t.0 {
                    self.gather(&mut gathered, river, r, window, &mut land);
                }
            }
        }
        let (edges, lakes, springs) = self.settle(gathered, window);
        Reach {
            water: FiledWater::new(self.segments(&edges, &lakes), self.discs(&lakes)),
            edges,
            lakes,
            springs,
            dropped,
        }
    }

    /// Adds `river` to what region `r` (its `window`) gathers: its spring if the
    /// region's own, its levels, the lakes it crosses, and its steps through the
    /// window (each counting the river in its flow).
    fn gather<'a>(
        &'a self,
        g: &mut Gathered,
        river: &Trace,
        r: [i32; 2],
        window: Window,
        land: &mut G::Look<'a>,
    ) {
        let spring = river.steps[0].node;
        if spring[0].div_euclid(REGION) == r[0] && spring[1].div_euclid(REGION) == r[1] {
            g.springs.push(spring);
        }
        for step in &river.steps {
            merge_level(&mut g.levels, step);
        }
        for w in river.steps.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.lake
                && let Some(basin) = self.basin(land, a.node)
            {
                g.lakes.entry(a.node).or_insert_with(|| Lake {
                    pit: a.node,
                    level: a.level,
                    nodes: basin
                        .nodes
                        .iter()
                        .copied()
                        .filter(|&n| window.holds(n))
                        .collect(),
                });
            }
            if !window.crossed_by(a.node, b.node) {
                continue;
            }
            let e = g.edges.entry((a.node, b.node)).or_insert(Edge {
                from: a.node,
                to: b.node,
                levels: [a.level, b.level],
                flow: 0,
            });
            e.flow += 1;
        }
    }

    /// The steps, lakes and springs of what a region gathered, in a fixed order: each
    /// at its node's settled level, and with the tarns on the lips of its falls.
    fn settle(&self, g: Gathered, window: Window) -> (Vec<Edge>, Vec<Lake>, Vec<Node>) {
        let Gathered {
            edges,
            levels,
            mut lakes,
            mut springs,
        } = g;
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
        self.add_tarns(&edges, &mut lakes, window);
        edges.sort_by_key(|e| (e.from[1], e.from[0], e.to[1], e.to[0]));
        let mut lakes: Vec<Lake> = lakes
            .into_values()
            .filter(|l| !l.nodes.is_empty())
            .collect();
        lakes.sort_by_key(|l| (l.pit[1], l.pit[0]));
        springs.sort_by_key(|n| (n[1], n[0]));
        (edges, lakes, springs)
    }

    /// Adds tarns to `lakes`: small lakes on the lips of waterfalls high up, in the
    /// window.
    fn add_tarns(&self, edges: &[Edge], lakes: &mut HashMap<Node, Lake>, window: Window) {
        for e in edges {
            let [a, b] = e.levels;
            if a >= TARN_HEIGHT && a - b >= TARN_FALL && self.tarn(e.from) && window.holds(e.from) {
                lakes.entry(e.from).or_insert_with(|| Lake {
                    pit: e.from,
                    level: a,
                    nodes: vec![e.from],
                });
            }
        }
    }

    /// The river steps `edges` laid out in blocks: through the bends at their nodes,
    /// straight (version 5), winding (versions 6 and 7) or running (version 8).
    fn segments(&self, edges: &[Edge], lakes: &[Lake]) -> Vec<Segment> {
        let mut land = self.ground.look();
        let outlets: HashMap<Node, i32> = lakes
            .iter()
            .flat_map(|l| l.nodes.iter().map(|&n| (n, l.level)))
            .collect();
        edges
            .iter()
            .flat_map(|e| {
                let (a, b) = (self.bend(e.from), self.bend(e.to));
                let width = self.cfg.width;
                match self.laying {
                    Laying::Straight => vec![Segment::straight(a, b, e.levels, e.flow, width)],
                    Laying::Winding => Segment::course(a, b, e.levels, e.flow, width, side(e.from)),
                    Laying::Running { .. } => {
                        let from_lake = outlets.get(&e.from) == Some(&e.levels[0]);
                        self.running(&mut land, [a, b], e, from_lake)
                    }
                }
            })
            .collect()
    }

    /// River step `e` laid as a running course ([`course`]; version 8) from `a` to
    /// `b` (its nodes' bends): swinging to alternate sides and leaning toward the
    /// lower land beside it (a big river running level by its meander), its water
    /// running down the pieces; `from_lake`: it leaves a lake, whose level it holds
    /// out of the lake's disc (its outlet).
    fn running<'a>(
        &'a self,
        land: &mut G::Look<'a>,
        [a, b]: [[f64; 2]; 2],
        e: &Edge,
        from_lake: bool,
    ) -> Vec<Segment> {
        let width = self.cfg.width;
        let bulge = match Segment::meander(e.flow, width) {
            Some(m) if e.levels[0] == e.levels[1] => course::bow(self.seed, e.from, e.to, 0.0, m),
            _ => {
                let d = [e.to[0] - e.from[0], e.to[1] - e.from[1]];
                let left = [-d[1], d[0]];
                let beside = |l: &mut G::Look<'a>, k: i32| {
                    let at = |n: Node| [n[0] + k * left[0], n[1] + k * left[1]];
                    (l.h(at(e.from)) + l.h(at(e.to))) as f64
                };
                let lean = course::lean(beside(land, 1), beside(land, -1));
                course::bow(self.seed, e.from, e.to, lean, 0.0)
            }
        };
        let size = Segment::size(e.flow, width);
        let hold = if from_lake {
            self.lake_radius() + 2.0
        } else {
            0.0
        };
        let nearest = matches!(self.laying, Laying::Running { nearest: true });
        let mut below = false;
        course::legs(&course::bowed(a, b, bulge), e.levels, hold)
            .into_iter()
            .map(|p| {
                below |= p.foot.is_some();
                let run = nearest.then_some(Run {
                    step: [e.from, e.to],
                    below,
                });
                Segment::running(p.ends, p.levels, size, p.foot, p.lip, run)
            })
            .collect()
    }

    /// The drainage of the window `lo..hi` (each way): the nodes of the window whose
    /// water runs through each, and the longest way to each from the divide
    /// ([`super::drainage`]).
    pub(crate) fn drained(&self, lo: Node, hi: Node) -> super::drainage::Drainage {
        let mut land = self.ground.look();
        super::drainage::drained(&mut land, lo, hi, |l, p| self.basin(l, p))
    }

    /// The way river step `e` runs in blocks: the ends and bends of its pieces, from
    /// its upper node's bend to its lower one's.
    pub(crate) fn course(&self, e: &Edge) -> Vec<[f64; 2]> {
        let r = [e.from[0].div_euclid(REGION), e.from[1].div_euclid(REGION)];
        let pieces = self.segments(std::slice::from_ref(e), &self.reach(r).lakes);
        let first = pieces.first().map(|s| s.ends()[0]);
        first
            .into_iter()
            .chain(pieces.iter().map(|s| s.ends()[1]))
            .collect()
    }

    /// Whether a river step fed by `flow` springs winds in bends where it runs level
    /// (version 6 on: a river, not a creek).
    pub(crate) fn winds(&self, flow: u32) -> bool {
        self.laying != Laying::Straight && Segment::winds(flow, self.cfg.width)
    }

    /// Whether a waterfall from node `n` has a tarn on its lip (`tarns` of them).
    fn tarn(&self, n: Node) -> bool {
        node_roll(self.seed, TARN_SALT, n) < self.cfg.tarns
    }

    /// Where a river bends at node `n`, in blocks: jittered off the node, or
    /// (version 8) where the land's warp moves it ([`course::place`]).
    fn bend(&self, n: Node) -> [f64; 2] {
        if matches!(self.laying, Laying::Running { .. }) {
            return course::place(self.seed, n);
        }
        let h = node_hash(self.seed, JITTER_SALT, n);
        let unit = |bits: u64| (bits & 0xffff) as f64 / 65535.0 * 2.0 - 1.0;
        [
            (n[0] * NODE) as f64 + JITTER * unit(h),
            (n[1] * NODE) as f64 + JITTER * unit(h >> 16),
        ]
    }

    /// The lakes' discs: one around each of their nodes, in blocks (version 8: where
    /// the warp moves the node, as its rivers' bends, each wider by as much as the
    /// warp may stretch the land, so they still overlap).
    fn discs(&self, lakes: &[Lake]) -> Vec<Disc> {
        let at = |n: Node| match self.laying {
            Laying::Running { .. } => course::place(self.seed, n),
            _ => [(n[0] * NODE) as f64, (n[1] * NODE) as f64],
        };
        let radius = self.lake_radius();
        lakes
            .iter()
            .flat_map(|l| {
                l.nodes.iter().map(move |&n| Disc {
                    at: at(n),
                    level: l.level,
                    radius,
                })
            })
            .collect()
    }

    /// The radius of a lake's disc around each of its nodes (see [`Hydrology::discs`]).
    fn lake_radius(&self) -> f64 {
        match self.laying {
            Laying::Running { .. } => LAKE_RADIUS * (1.0 + course::WARP_SLOPE),
            _ => LAKE_RADIUS,
        }
    }

    /// The water that shapes columns `x0..=x1` by `z0..=z1`.
    pub(crate) fn near(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> LocalWater {
        let mut local = LocalWater::default();
        for r in regions(x0, z0, x1, z1) {
            let reach = self.reach(r);
            local.gather(&reach.water, [x0, z0, x1, z1]);
        }
        local.index([x0, z0, x1, z1]);
        local
    }
}

/// The side a step from node `from` bends to where a big river winds: steps from
/// nodes of alternate parity bend to alternate sides (+1 its left, -1 its right).
fn side(from: Node) -> f64 {
    if (from[0] + from[1]).rem_euclid(2) == 0 {
        1.0
    } else {
        -1.0
    }
}

/// The regions holding columns `x0..=x1` by `z0..=z1`.
pub(crate) fn regions(x0: i32, z0: i32, x1: i32, z1: i32) -> impl Iterator<Item = [i32; 2]> {
    let r = |v: i32| v.div_euclid(NODE).div_euclid(REGION);
    let (rx0, rx1, rz0, rz1) = (r(x0), r(x1), r(z0), r(z1));
    (rz0..=rz1).flat_map(move |j| (rx0..=rx1).map(move |i| [i, j]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use foldhash::HashMapExt;

    fn step(node: Node, level: i32) -> Step {
        Step {
            node,
            level,
            lake: false,
        }
    }

    #[test]
    fn rivers_agreeing_at_a_node_merge_to_its_level() {
        let mut levels = HashMap::new();
        merge_level(&mut levels, &step([3, 4], 12));
        merge_level(&mut levels, &step([3, 4], 12));
        merge_level(&mut levels, &step([3, 5], 9));
        assert_eq!((levels[&[3, 4]], levels[&[3, 5]]), (12, 9));
    }

    #[test]
    #[should_panic(expected = "rivers disagree on the water level at node [3, 4]")]
    fn rivers_disagreeing_at_a_node_are_caught() {
        let mut levels = HashMap::new();
        merge_level(&mut levels, &step([3, 4], 12));
        merge_level(&mut levels, &step([3, 4], 13));
    }
}
