//! The land's drainage over a window of nodes: where each node's water goes (its
//! lowest neighbour, or from a pit its basin's exit, as a river's does) and how many
//! nodes of the window drain through each, for the network's figures (Hack's law
//! reads the area draining through a river's node). A river's way down is a node's
//! way down, so every node whose water reaches a river counts at every node of the
//! river below.

use std::collections::HashMap;
use std::sync::Arc;

use super::basin::Basin;
use super::land::{Heights, Node};
use super::trace::MOUTH;

/// For every node of the window `lo..hi` (each way), the nodes of the window whose
/// water runs through it, itself among them (the sea's nodes drain nowhere and count
/// for none). `basin` gives the basin of a pit (kept by the caller); a pit whose
/// basin is too large to fill drains nowhere.
pub(crate) fn drained<H: Heights>(
    land: &mut H,
    lo: Node,
    hi: Node,
    mut basin: impl FnMut(&mut H, Node) -> Option<Arc<Basin>>,
) -> HashMap<Node, u32> {
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
    while let Some(n) = ready.pop() {
        let Some(&to) = down.get(&n) else { continue };
        let here = area[&n];
        if let Some(a) = area.get_mut(&to) {
            *a += here;
        }
        let left = entering.get_mut(&to).expect("counted");
        *left -= 1;
        if *left == 0 {
            ready.push(to);
        }
    }
    area
}
