//! The land's drainage over a window of nodes: where each node's water goes (its
//! lowest neighbour, or from a pit its basin's exit, as a river's does), how many
//! nodes of the window drain through each, and the longest way water runs to each
//! from the divide, for the network's figures (Hack's law reads both at a river's
//! nodes). A river's way down is a node's way down, so every node whose water
//! reaches a river counts at every node of the river below.

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use super::basin::Basin;
use super::land::{Heights, NODE, Node};
use super::trace::MOUTH;

/// The drainage of a window of nodes.
#[derive(Debug, Default)]
pub(crate) struct Drainage {
    /// For every node, the nodes of the window whose water runs through it, itself
    /// among them (the sea's nodes drain nowhere and count for none).
    pub(crate) area: HashMap<Node, u32>,
    /// For every node, the longest way water runs to it from a node nothing drains
    /// into (the divide), within the window, in blocks (node to node).
    pub(crate) length: HashMap<Node, f64>,
}

/// The drainage of the window `lo..hi` (each way). `basin` gives the basin of a pit
/// (kept by the caller); a pit whose basin is too large to fill drains nowhere.
pub(crate) fn drained<H: Heights>(
    land: &mut H,
    lo: Node,
    hi: Node,
    mut basin: impl FnMut(&mut H, Node) -> Option<Arc<Basin>>,
) -> Drainage {
    let mut area: HashMap<Node, u32> = HashMap::new();
    let mut next: Vec<(Node, Node)> = Vec::new();
    for j in lo[1]..hi[1] {
        for i in lo[0]..hi[0] {
            let n = [i, j];
            if land.h(n) < MOUTH {
                area.insert(n, 0);
                continue;
            }
            area.insert(n, 1);
            let to = match land.lowest_neighbour(n) {
                Some(m) => Some(m),
                None => basin(land, n).map(|b| b.exit),
            };
            next.extend(to.map(|to| (n, to)));
        }
    }
    // Upstream first: a node's count passes on once every node draining into it has
    // passed its own on. (No water comes back to a node it left: a basin's exit
    // drains below its pit.)
    let down: HashMap<Node, Node> = next.iter().copied().collect();
    let mut entering: HashMap<Node, u32> = HashMap::new();
    for &(_, to) in &next {
        *entering.entry(to).or_insert(0) += 1;
    }
    let mut ready: Vec<Node> = next
        .iter()
        .map(|&(n, _)| n)
        .filter(|n| !entering.contains_key(n))
        .collect();
    let mut length: HashMap<Node, f64> = HashMap::new();
    while let Some(n) = ready.pop() {
        let Some(&to) = down.get(&n) else { continue };
        let here = area[&n];
        if let Some(a) = area.get_mut(&to) {
            *a += here;
        }
        let way = length.get(&n).copied().unwrap_or(0.0) + blocks(n, to);
        let l = length.entry(to).or_insert(0.0);
        *l = l.max(way);
        let left = entering.get_mut(&to).expect("counted");
        *left -= 1;
        if *left == 0 {
            ready.push(to);
        }
    }
    Drainage { area, length }
}

/// Blocks from node `a` to node `b` (a neighbour, or a basin's exit further off).
fn blocks(a: Node, b: Node) -> f64 {
    let (di, dj) = ((b[0] - a[0]) as f64, (b[1] - a[1]) as f64);
    di.hypot(dj) * NODE as f64
}
