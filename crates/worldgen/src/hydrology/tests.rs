//! The hydrology on land made by hand: basins, rivers and the network over heights a
//! test writes node by node. Every land drains along a valley (`j = 0`) falling 2
//! blocks a node toward the sea (below [`MOUTH`] past node 22); its springs are
//! single nodes raised to [`SPRING`]. Each case checks what it is about, and that
//! levels never rise downstream and every spring reaches the sea.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::basin::{Basin, flood};
use super::drainage::drained;
use super::land::{Ground, Heights, NODE, Node};
use super::network::{Hydrology, Laying, Reach};
use super::trace::{MOUTH, Trace, trace};
use crate::config::world::WaterConfig;

/// The height of a spring, blocks above the sea (the only nodes that high).
const SPRING: f32 = 100.0;

/// Land made by hand: heights (blocks above the sea) from a function of the node.
#[derive(Clone)]
struct Made(Arc<dyn Fn(Node) -> f32 + Send + Sync>);

impl Heights for &Made {
    fn h(&mut self, n: Node) -> f32 {
        (self.0)(n)
    }
}

impl Ground for Made {
    type Look<'a> = &'a Made;

    fn look(&self) -> &Made {
        self
    }
}

/// The valley every land starts from: falling 2 blocks a node along `i` to the sea
/// (flat at 45 far up it, 20 below the sea far down it), rising half a block a node
/// each side of `j = 0` (10 at most).
fn valley([i, j]: Node) -> f32 {
    (40.0 - 2.0 * i as f32).clamp(-20.0, 45.0) + 0.5 * j.abs().min(20) as f32
}

/// `valley` with `springs` raised to [`SPRING`] and the nodes of `changed` set.
fn land(springs: &[Node], changed: &[(Node, f32)]) -> Made {
    let springs = springs.to_vec();
    let changed: HashMap<Node, f32> = changed.iter().copied().collect();
    Made(Arc::new(move |n| {
        if springs.contains(&n) {
            SPRING
        } else {
            changed.get(&n).copied().unwrap_or_else(|| valley(n))
        }
    }))
}

/// The water of every test: springs on every node at least [`SPRING`] high, lakes 3
/// blocks deep or more, no tarns.
fn water() -> WaterConfig {
    WaterConfig {
        springs: 1e4,
        spring_height: SPRING as f64,
        width: 1.0,
        lake_depth: 3.0,
        tarns: 0.0,
    }
}

/// The basin of a pit of `land`, each basin it spills into made again (no store).
fn basin_of(land: &mut &Made, pit: Node) -> Option<Arc<Basin>> {
    flood(land, pit, &basin_of).map(Arc::new)
}

/// The river of the spring at `spring` over `land`.
fn river(land: &Made, spring: Node) -> Option<Trace> {
    trace(&mut &*land, &water(), spring, basin_of)
}

/// The rivers and lakes of `land` around the region at the origin.
fn network(land: Made) -> Arc<Reach> {
    Hydrology::on(land, water(), 1, Laying::Winding).reach([0, 0])
}

/// A river's levels never rise downstream, and it ends in the sea.
fn assert_runs_down(land: &Made, t: &Trace) {
    for w in t.steps.windows(2) {
        assert!(w[0].level >= w[1].level, "rises: {:?} -> {:?}", w[0], w[1]);
    }
    let mouth = t.steps.last().expect("a river has steps").node;
    assert!((&*land).h(mouth) < MOUTH, "ends at {mouth:?}, not the sea");
}

/// Every step of the network around the origin (the regions either side of it each
/// way, whose windows together hold every river of these lands) keeps or lowers its
/// level, and from every spring and every step the steps lead on to the sea. (A river
/// may cross a node twice: into a lower pit over a rim its basin shares with a
/// higher one, and out over it again.)
fn assert_network_runs_down(land: &Made) {
    let water = Hydrology::on(land.clone(), water(), 1, Laying::Winding);
    let reaches: Vec<_> = (-1..=1)
        .flat_map(|j| (-1..=1).map(move |i| [i, j]))
        .map(|r| water.reach(r))
        .collect();
    let edges: Vec<_> = reaches.iter().flat_map(|r| r.edges.iter()).collect();
    let springs: Vec<_> = reaches.iter().flat_map(|r| r.springs.iter()).collect();
    for e in &edges {
        assert!(e.levels[0] >= e.levels[1], "rises: {e:?}");
    }
    // The nodes whose water reaches the sea along the steps: the sea's, and every
    // node with a step to one of them.
    let mut drains: HashSet<Node> = edges
        .iter()
        .map(|e| e.to)
        .filter(|&n| (&*land).h(n) < MOUTH)
        .collect();
    loop {
        let before = drains.len();
        for e in &edges {
            if drains.contains(&e.to) {
                drains.insert(e.from);
            }
        }
        if drains.len() == before {
            break;
        }
    }
    assert!(!springs.is_empty(), "the land has springs");
    for n in springs.into_iter().chain(edges.iter().map(|e| &e.from)) {
        assert!(
            drains.contains(n),
            "the water from {n:?} never reaches the sea"
        );
    }
}

/// Pit at node (5, 0), 24 high, in a valley falling through 28 beside it.
fn one_pit() -> Vec<(Node, f32)> {
    vec![([5, 0], 24.0)]
}

#[test]
fn a_single_pit_fills_to_its_rim_and_spills_on() {
    let land = land(&[[0, 0]], &one_pit());
    let b = basin_of(&mut &land, [5, 0]).expect("a small basin");
    // The rim is the lowest node around it, (6, 0) at 28; the water leaves beyond it.
    assert_eq!(
        (b.level, b.exit, b.nodes.clone()),
        (28.0, [7, 0], vec![[5, 0]])
    );
    let t = river(&land, [0, 0]).expect("it reaches the sea");
    assert_runs_down(&land, &t);
    let pit = t
        .steps
        .iter()
        .find(|s| s.node == [5, 0])
        .expect("crosses the pit");
    // 4 blocks deep: a lake, its surface 2 below the rim.
    assert_eq!((pit.level, pit.lake), (26, true));
    let reach = network(land.clone());
    assert_network_runs_down(&land);
    assert_eq!(reach.lakes.len(), 1);
    assert_eq!(reach.lakes[0].level, 26);
}

/// Two pits, (5, -1) at 20 and (5, 1) at 22, either side of (5, 0): the lower one's
/// basin takes the higher one in, one lake.
fn two_pits() -> Vec<(Node, f32)> {
    vec![([5, -1], 20.0), ([5, 1], 22.0)]
}

#[test]
fn two_pits_sharing_a_rim_are_one_lake() {
    let land = land(&[[3, 3]], &two_pits());
    let low = basin_of(&mut &land, [5, -1]).expect("a small basin");
    assert!(low.nodes.contains(&[5, 1]), "{:?}", low.nodes);
    let high = basin_of(&mut &land, [5, 1]).expect("a small basin");
    // The higher pit spills into the lower one, over the same rim.
    assert_eq!((high.exit, high.level), ([5, -1], low.level));
    // The spring's water runs into the higher pit, then on through the lower one.
    let t = river(&land, [3, 3]).expect("it reaches the sea");
    assert_runs_down(&land, &t);
    let at = |n: Node| t.steps.iter().find(|s| s.node == n).expect("crossed").level;
    assert_eq!(at([5, 1]), at([5, -1]));
    let reach = network(land.clone());
    assert_network_runs_down(&land);
    let levels: Vec<i32> = reach.lakes.iter().map(|l| l.level).collect();
    assert!(
        !levels.is_empty() && levels.iter().all(|&l| l == levels[0]),
        "{levels:?}"
    );
}

/// A plateau: nodes 3 to 8 along the valley, 3 each side, all at 30.
fn plateau() -> Vec<(Node, f32)> {
    (3..=8)
        .flat_map(|i| (-3..=3).map(move |j| ([i, j], 30.0)))
        .collect()
}

#[test]
fn water_crosses_a_plateau_at_its_height() {
    let land = land(&[[0, 0]], &plateau());
    let t = river(&land, [0, 0]).expect("it reaches the sea");
    assert_runs_down(&land, &t);
    // Flat ground is a basin with no depth: crossed at its level, 2 below the
    // ground, never a lake.
    let on: Vec<_> = t
        .steps
        .iter()
        .filter(|s| (&land).h(s.node) == 30.0)
        .collect();
    assert!(on.len() >= 2, "{:?}", t.steps);
    assert!(on.iter().all(|s| s.level == 28 && !s.lake), "{on:?}");
    let reach = network(land.clone());
    assert_network_runs_down(&land);
    assert!(reach.lakes.is_empty());
}

/// A cone around the origin: every node drains to it, and it never spills.
fn cone() -> Made {
    Made(Arc::new(|[i, j]| {
        if [i, j] == [30, 0] {
            SPRING
        } else {
            ((i * i + j * j) as f32).sqrt() * 0.5
        }
    }))
}

#[test]
fn a_basin_too_large_to_fill_drops_its_springs() {
    let land = cone();
    assert!(basin_of(&mut &land, [0, 0]).is_none());
    assert!(river(&land, [30, 0]).is_none());
    let reach = network(cone());
    // The one spring is dropped: no river that would not reach the sea.
    assert_eq!((reach.dropped, reach.springs.len()), (1, 0));
    assert!(reach.edges.is_empty() && reach.lakes.is_empty());
}

/// A lake three nodes long and three wide, nodes 5 to 7 along the valley, 12 deep
/// below its rim.
fn lake() -> Vec<(Node, f32)> {
    (5..=7)
        .flat_map(|i| (-1..=1).map(move |j| ([i, j], 16.0)))
        .collect()
}

#[test]
fn a_river_crosses_a_lake_at_its_level() {
    let land = land(&[[0, 0]], &lake());
    let t = river(&land, [0, 0]).expect("it reaches the sea");
    assert_runs_down(&land, &t);
    let reach = network(land.clone());
    assert_network_runs_down(&land);
    assert_eq!(reach.lakes.len(), 1);
    let lake = &reach.lakes[0];
    assert_eq!(lake.nodes.len(), 9, "{:?}", lake.nodes);
    // Its rim is the valley's floor past it, (8, 0) at 24: the water stands 2 below.
    assert_eq!(lake.level, 22);
    // Into it from above the lake's level, out of it at or below.
    let inside = |n: Node| lake.nodes.contains(&n);
    let into: Vec<_> = reach
        .edges
        .iter()
        .filter(|e| !inside(e.from) && inside(e.to))
        .collect();
    let out: Vec<_> = reach
        .edges
        .iter()
        .filter(|e| inside(e.from) && !inside(e.to))
        .collect();
    assert!(!into.is_empty() && !out.is_empty());
    assert!(into.iter().all(|e| e.levels[0] >= lake.level), "{into:?}");
    assert!(out.iter().all(|e| e.levels[1] <= lake.level), "{out:?}");
}

#[test]
fn two_rivers_meet_and_flow_on_as_one() {
    let springs = [[0, 4], [0, 12]];
    let land = land(&springs, &[]);
    for s in springs {
        assert_runs_down(&land, &river(&land, s).expect("it reaches the sea"));
    }
    let reach = network(land.clone());
    assert_eq!(
        (reach.springs.clone(), reach.dropped),
        (springs.to_vec(), 0)
    );
    assert_network_runs_down(&land);
    // Below where they meet one river carries both springs' water to the sea.
    let joined = reach.edges.iter().filter(|e| e.flow == 2).count();
    assert!(joined >= 10, "{:?}", reach.edges);
    assert!(reach.edges.iter().all(|e| (1..=2).contains(&e.flow)));
}

/// A reservoir: a flat floor at 20, nodes 6 to 8 along the valley and 5 each side,
/// behind a dam 35 high across the valley at node 9.
fn reservoir() -> Vec<(Node, f32)> {
    let floor = (6..=8).flat_map(|i| (-5..=5).map(move |j| ([i, j], 20.0)));
    floor.chain((-5..=5).map(|j| ([9, j], 35.0))).collect()
}

#[test]
fn a_river_across_a_reservoir_stands_at_the_lake_s_level() {
    let land = land(&[[0, 0]], &reservoir());
    let t = river(&land, [0, 0]).expect("it reaches the sea");
    assert_runs_down(&land, &t);
    // The water rises until it finds a way round the dam's end, (9, ±6) at 25.
    let pit = t.steps.iter().find(|s| s.lake).expect("a lake");
    assert_eq!(pit.level, 23);
    // On its way to the pit the river crosses the floor, 3 below the lake's level
    // (its own level would be 18): it stands at the lake's level there.
    let on_floor: Vec<_> = t
        .steps
        .iter()
        .filter(|s| (6..=8).contains(&s.node[0]) && s.node[1].abs() <= 5)
        .collect();
    assert!(on_floor.len() >= 2, "{:?}", t.steps);
    assert!(on_floor.iter().all(|s| s.level == 23), "{on_floor:?}");
    let reach = network(land.clone());
    assert_network_runs_down(&land);
    assert_eq!(reach.lakes.len(), 1);
    // Its nodes are the floor's, those in the region's window (which ends 5 nodes
    // beyond the region's side, at -5: here the whole floor).
    let nodes = &reach.lakes[0].nodes;
    assert_eq!(nodes.len(), 3 * 11, "{nodes:?}");
    assert!(
        nodes
            .iter()
            .all(|&[i, j]| (6..=8).contains(&i) && (-5..=5).contains(&j))
    );
}

#[test]
fn the_land_draining_through_a_node_is_counted_through_pits_too() {
    let (lo, hi) = ([0, -10], [30, 11]);
    let valley = land(&[], &[]);
    let d = drained(&mut &valley, lo, hi, basin_of);
    let area = &d.area;
    // Water runs diagonally down the valley's sides to its floor, then along it: the
    // floor at node i drains the nodes (i', j) with i' + |j| <= i, 11 x 11 at i = 10.
    assert_eq!((area[&[10, 0]], area[&[7, 0]]), (121, 64));
    // A side's node drains those diagonally up from it: (7 - k, 3 + k), k <= 7.
    assert_eq!(area[&[10, 3]], 8);
    // The sea's nodes count for none.
    assert_eq!(area[&[25, 0]], 0);
    // The longest way to the floor at i = 10 comes down a side from the window's
    // edge (j = -10 or 10) diagonally to i = 10 - 10... then along the floor: ten
    // diagonal steps from (0, 10) to (10, 0).
    let n = NODE as f64;
    assert!(
        (d.length[&[10, 0]] - 10.0 * 2f64.sqrt() * n).abs() < 1e-9,
        "{}",
        d.length[&[10, 0]]
    );
    assert_eq!(
        d.length.get(&[0, 10]).copied().unwrap_or(0.0),
        0.0,
        "a divide"
    );
    // A pit passes what drains into it on to its basin's exit.
    let pit = land(&[], &one_pit());
    let area = drained(&mut &pit, lo, hi, basin_of).area;
    assert_eq!((area[&[7, 0]], area[&[10, 0]]), (64, 121));
    assert!(area[&[5, 0]] > area[&[6, 0]]);
}
