//! Springs and the way their water runs: a spring is a node of high ground picked by
//! a hash of the seed and the node; its water runs to the lowest neighbour, node
//! after node, filling each basin it meets ([`super::basin`]) and leaving over its
//! rim, until the sea. Each step carries a water level: the ground's expected height
//! less [`SINK`], or a basin's level, and then the highest level of any step after it,
//! so that levels never rise downstream by construction. A spring whose water would
//! wander further than [`REACH`] nodes, or end in a basin too large to fill, is no
//! spring: every river that exists reaches the sea.

use super::basin::Basin;
use super::land::{Heights, NODE, Node, node_roll};
use crate::config::world::WaterConfig;

/// How far (in nodes, each way) a river may run from its spring: every node of a
/// river lies within this of its spring, which bounds the springs a place can see.
pub(crate) const REACH: i32 = 176;

/// Blocks a river's surface lies below the ground's expected height.
const SINK: f32 = 2.0;

/// Where the water has reached the sea: nodes this far below sea level.
pub(super) const MOUTH: f32 = -4.0;

/// Separates springs from the world's other hashes.
const SPRING_SALT: u64 = 0x0073_7072_696e_6735; // "spring5"

/// One node of a river.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Step {
    pub node: Node,
    /// The water level, whole blocks above sea level (0 at the sea).
    pub level: i32,
    /// Whether it is the floor of a basin deep enough for a lake (a shallower one is
    /// crossed at its level between embankments).
    pub lake: bool,
}

/// A river from its spring to the sea.
#[derive(Clone, Debug)]
pub(crate) struct Trace {
    pub steps: Vec<Step>,
}

/// Whether node `n` is a spring: picked by a hash of the seed and the node (`springs`
/// per km²), on ground at least `spring_height` above the sea. The hash comes first,
/// so the ground is looked at only where a spring may be.
pub(crate) fn is_spring(cfg: &WaterConfig, seed: u64, n: Node, land: &mut impl Heights) -> bool {
    if cfg.springs <= 0.0 {
        return false;
    }
    let area = (NODE as f64 * NODE as f64) / 1e6;
    node_roll(seed, SPRING_SALT, n) < cfg.springs * area && land.h(n) as f64 >= cfg.spring_height
}

/// The river of the spring at `spring`, or `None` when it is no spring (see the
/// module's text). `basin` gives the basin of a pit (kept by the caller).
pub(crate) fn trace<H: Heights>(
    land: &mut H,
    cfg: &WaterConfig,
    spring: Node,
    mut basin: impl FnMut(&mut H, Node) -> Option<std::sync::Arc<Basin>>,
) -> Option<Trace> {
    let far = |n: Node| (n[0] - spring[0]).abs().max((n[1] - spring[1]).abs());
    // (node, raw level, a lake's floor)
    let mut raw: Vec<(Node, f32, bool)> = Vec::new();
    let mut at = spring;
    loop {
        if far(at) > REACH || raw.len() > 8 * REACH as usize {
            return None;
        }
        let h = land.h(at);
        if h < MOUTH {
            raw.push((at, h - SINK, false));
            break;
        }
        match land.lowest_neighbour(at) {
            Some(next) => {
                raw.push((at, h - SINK, false));
                at = next;
            }
            None => {
                let b = basin(land, at)?;
                if far(at) + b.extent > REACH {
                    return None;
                }
                let lake = (b.level - h) as f64 >= cfg.lake_depth;
                raw.push((at, b.level - SINK, lake));
                let across = &b.path[1..b.path.len() - 1];
                for &n in across {
                    raw.push((n, b.level - SINK, false));
                }
                at = b.exit;
            }
        }
    }
    // Each step's level: the highest raw level from it down to the sea, in whole
    // blocks, never below the sea.
    let mut steps = vec![
        Step {
            node: spring,
            level: 0,
            lake: false
        };
        raw.len()
    ];
    let mut highest = 0.0f32;
    for (i, &(node, level, lake)) in raw.iter().enumerate().rev() {
        highest = highest.max(level);
        steps[i] = Step {
            node,
            level: highest.floor() as i32,
            lake,
        };
    }
    Some(Trace { steps })
}
