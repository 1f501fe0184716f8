//! Basins: where water running down reaches a node with no lower neighbour (a pit),
//! it fills the pit to its lowest rim and spills over it. A priority flood from the
//! pit visits nodes lowest first; the level rises with each node higher than all
//! before it, and the first node lower than the level from which water runs on (down,
//! and through the basins it fills) below the pit lies beyond the rim: the exit. (A
//! node lower than the level whose water comes back to the pit belongs to the same
//! basin: the flood goes on through it.) Everything is a function of the pit alone,
//! and each basin's water ends lower than its pit, so no river comes back to a basin
//! it left, and every node the flood crosses drains into the basin it crosses.
//!
//! ```text
//!   level ─ ─ ─ ─ ─ ─ ─ rim ─ ─          nodes below the level, joined to the pit:
//!         ╲~~~~~~~~~~~~╱   ╲               the basin (a lake when deep enough)
//!          ╲~~~~pit~~~╱     exit ─> runs on down, never back into the basin
//! ```
//!
//! Why the water never comes back: the flood visits nodes in key order, so when the
//! exit is taken every node next to the basin waits in the queue with a key at least
//! the exit's; running down from the exit only ever meets lower keys.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use foldhash::{HashMap, HashMapExt};

use super::land::{AROUND, Heights, Key, Node};

/// The most nodes a flood visits: a basin larger than about 20 km² gives no river
/// (its springs are dropped, so every river that exists reaches the sea).
const MOST_NODES: usize = 20000;

/// The farthest (in nodes, each way) a basin's nodes lie from its pit.
const BASIN_REACH: i32 = 100;

/// A basin filled to its rim.
#[derive(Clone, Debug)]
pub(crate) struct Basin {
    /// The level the water stands at: the rim's height, above sea level.
    pub level: f32,
    /// The first node beyond the rim, lower than it.
    pub exit: Node,
    /// The nodes under the level (the pit's among them).
    pub nodes: Vec<Node>,
    /// The farthest its nodes lie from the pit, in nodes each way.
    pub extent: i32,
    /// The way across it, node to neighbouring node, from the pit over the rim to
    /// the exit (the way the flood reached the exit).
    pub path: Vec<Node>,
}

/// Where a pit's basin spills: the caller's store of [`flood`]s.
pub(crate) type BasinOf<'b, H> = &'b dyn Fn(&mut H, Node) -> Option<Arc<Basin>>;

/// Whether the water running on from `n` (down, and through every basin it fills)
/// reaches ground lower than `floor`, the key of the pit being flooded: then it has
/// left that pit's basin for good. Where it comes back to the pit instead, the node
/// belongs to the same basin and the flood goes on through it. Each basin this
/// follows has a higher floor than `floor`, so the following ends.
fn drains_below<H: Heights>(
    land: &mut H,
    mut n: Node,
    floor: Key,
    basin_of: BasinOf<'_, H>,
) -> bool {
    for _ in 0..8 * BASIN_REACH {
        let k = land.key(n);
        if k < floor {
            return true;
        }
        match land.lowest_neighbour(n) {
            Some(next) => n = next,
            // Back at the pit being flooded.
            None if k == floor => return false,
            None => match basin_of(land, n) {
                Some(b) => n = b.exit,
                None => return false,
            },
        }
    }
    false
}

/// The basin of pit `pit`; `None` when it is larger than the flood may go.
pub(crate) fn flood<H: Heights>(
    land: &mut H,
    pit: Node,
    basin_of: BasinOf<'_, H>,
) -> Option<Basin> {
    let mut queue = BinaryHeap::new();
    // Each node queued, and the node whose neighbour it is.
    let mut seen: HashMap<Node, Node> = HashMap::new();
    let mut visited: Vec<Key> = Vec::new();
    let mut rim = land.key(pit);
    queue.push(Reverse(rim));
    seen.insert(pit, pit);
    let floor = rim;
    let mut extent = 0;
    while let Some(Reverse(k)) = queue.pop() {
        if k < rim && drains_below(land, k.node, floor, basin_of) {
            let mut path = vec![k.node];
            while let Some(&from) = seen.get(path.last().expect("never empty"))
                && from != *path.last().expect("never empty")
            {
                path.push(from);
            }
            path.reverse();
            return Some(Basin {
                level: rim.h,
                exit: k.node,
                nodes: visited
                    .iter()
                    .filter(|v| **v < rim)
                    .map(|v| v.node)
                    .collect(),
                extent,
                path,
            });
        }
        rim = rim.max(k);
        visited.push(k);
        let far = (k.node[0] - pit[0]).abs().max((k.node[1] - pit[1]).abs());
        extent = extent.max(far);
        if visited.len() > MOST_NODES || far > BASIN_REACH {
            return None;
        }
        for d in AROUND {
            let n = [k.node[0] + d[0], k.node[1] + d[1]];
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n) {
                e.insert(k.node);
                queue.push(Reverse(land.key(n)));
            }
        }
    }
    None
}
