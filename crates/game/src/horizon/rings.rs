//! The rings of detail around the player: which chunk of which level covers each part
//! of the world out to the horizon. Pure functions of the player's chunk, the view
//! distance and the horizon.
//!
//! The levels form a tree (each coarse chunk holds eight of the next finer level). A
//! chunk of level 1 is **split** (its eight full-detail chunks are drawn instead)
//! when all of them are in the view ([`crate::streaming::wanted_chunks`]); a chunk of
//! level `L >= 2` is split when it lies within `view * 32 * 2^(L-1)` blocks of the
//! player horizontally and `64 * 2^(L-1)` vertically. Each rule holds for the
//! parent whenever it holds for a child, so the leaves (chunks not split whose parent
//! is) tile the world without gaps or overlaps: full detail in the view, then rings
//! of levels 1, 2, ... each about twice as wide as the one inside it, and the top
//! level out to the horizon. A [`Detail`] below full scales every split distance of
//! levels 2 and up: the rings narrow, each level nearer the player.
//!
//! ```text
//!   ┌───────────────┬───────────────┐
//!   │               │       │       │   top level out to the horizon
//!   │               ├───┬───┼───────┤
//!   │               │   │┼┼┼│       │   level 1 around the view,
//!   ├───────┬───────┼───┼───┼───────┤   full detail inside it
//! ```

use terravox_voxel::{CHUNK, ChunkPos};
use terravox_worldgen::{LodPos, MAX_LEVEL};

use crate::streaming::in_view;

/// The vertical reach of level 2's split rule, in blocks (doubling with each level).
const VERTICAL: i64 = 128;

/// How wide the rings of levels 2 and up are drawn, in thousandths of their full
/// width: the horizon narrows them (finer levels nearer the player, each level's
/// chunks fewer) to keep its meshes within the memory budget
/// ([`crate::config::HorizonMemory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Detail(u16);

impl Detail {
    /// The rings at their full width.
    pub const FULL: Self = Self(1000);
    /// The narrowest: level 2's split distance stays above the view's radius (a
    /// half of its full width), so a level-2 chunk splits wherever one of its level-1
    /// chunks does and the leaves still tile the world.
    pub const MIN: Self = Self(600);

    /// `thousandths` of the full width, within [`Detail::MIN`]`..=`[`Detail::FULL`].
    pub fn new(thousandths: u16) -> Self {
        Self(thousandths.clamp(Self::MIN.0, Self::FULL.0))
    }

    /// The share of the full width, `0.6..=1`.
    pub fn fraction(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// Thousandths of the full width.
    pub(super) fn thousandths(self) -> u16 {
        self.0
    }
}

impl Default for Detail {
    fn default() -> Self {
        Self::FULL
    }
}

/// The geometry of the rings: the view distance (chunks), the horizon (blocks) and
/// how wide the rings are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rings {
    /// Full-detail chunks around the player, a disc of this radius.
    pub view: u32,
    /// Blocks to the edge of the coarsest ring; none at all at or below the view.
    pub horizon: u32,
    /// The width of the rings of levels 2 and up.
    pub detail: Detail,
}

impl Rings {
    /// Rings of `view` chunks and a `horizon` of blocks at their full width.
    pub const fn new(view: u32, horizon: u32) -> Self {
        Self {
            view,
            horizon,
            detail: Detail::FULL,
        }
    }

    /// The coarsest level drawn: the first whose chunks reach the horizon when they
    /// split at the next level's distance; 0 when the horizon lies within the view.
    pub fn top(self) -> u8 {
        let view = self.view as i64 * CHUNK as i64;
        if self.horizon as i64 <= view {
            return 0;
        }
        (1..MAX_LEVEL)
            .find(|&l| self.radius(l + 1) >= self.horizon as i64)
            .unwrap_or(MAX_LEVEL)
    }

    /// Horizontal split distance of level `level` (at least 2), in blocks.
    fn radius(self, level: u8) -> i64 {
        ((self.view as i64 * CHUNK as i64) << (level - 1)) * self.detail.0 as i64 / 1000
    }

    /// Whether chunk `n` (level at least 1) is split into finer ones around the
    /// player's chunk `centre`.
    pub fn split(self, centre: ChunkPos, n: LodPos) -> bool {
        if n.level == 0 || n.level > self.top() {
            return false;
        }
        if n.level == 1 {
            return n
                .children()
                .iter()
                .all(|c| in_view(centre, c.pos, self.view));
        }
        let (h, v) = distance(centre, n);
        h < self.radius(n.level) as f64 && v < (VERTICAL << (n.level - 2)) as f64
    }

    /// The chunks of the top level within the horizon plus one chunk of that level
    /// (horizontally; so that chunks are loaded before a moving player brings them
    /// within the horizon) and its vertical reach.
    fn roots(self, centre: ChunkPos) -> Vec<LodPos> {
        let top = self.top();
        let e = (CHUNK as i64) << top;
        let reach = (self.horizon as i64 + e) as f64;
        let at = |v: i32| ((v as i64 * CHUNK as i64).div_euclid(e)) as i32;
        let r = (reach as i64 / e + 1) as i32;
        let up = ((VERTICAL << (top - 1)) / e + 1) as i32;
        let (cx, cy, cz) = (at(centre.x), at(centre.y), at(centre.z));
        let mut v = Vec::new();
        for dz in -r..=r {
            for dx in -r..=r {
                for dy in -up..=up {
                    let n = LodPos::new(top, ChunkPos::new(cx + dx, cy + dy, cz + dz));
                    let (h, vd) = distance(centre, n);
                    if h < reach && vd < (VERTICAL << (top - 1)) as f64 {
                        v.push(n);
                    }
                }
            }
        }
        v
    }

    /// The coarse chunks to draw around `centre`: the leaves of levels 1 and up,
    /// finer levels first, nearest first within a level. Empty without a horizon.
    pub fn leaves(self, centre: ChunkPos) -> Vec<LodPos> {
        if self.top() == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut stack = self.roots(centre);
        while let Some(n) = stack.pop() {
            if self.split(centre, n) {
                if n.level > 1 {
                    stack.extend(n.children());
                }
            } else {
                out.push(n);
            }
        }
        out.sort_by_key(|n| (n.level, distance_key(centre, *n), *n));
        out
    }

    /// The chunks of the tree's first level, `top`, within reach: where a walk over
    /// the tree starts.
    pub(crate) fn tree_roots(self, centre: ChunkPos) -> Vec<LodPos> {
        if self.top() == 0 {
            Vec::new()
        } else {
            self.roots(centre)
        }
    }
}

/// Horizontal and vertical distance (blocks) from the centre of chunk `centre` to
/// the box of `n`, zero inside it.
fn distance(centre: ChunkPos, n: LodPos) -> (f64, f64) {
    let half = CHUNK as f64 / 2.0;
    let p = [centre.x, centre.y, centre.z].map(|v| v as f64 * CHUNK as f64 + half);
    let o = n.origin();
    let e = n.edge() as f64;
    let d = |i: usize| (o[i] as f64 - p[i]).max(p[i] - (o[i] as f64 + e)).max(0.0);
    let (dx, dy, dz) = (d(0), d(1), d(2));
    ((dx * dx + dz * dz).sqrt(), dy)
}

/// A sort key: distance from the player to the chunk's box, in whole blocks.
fn distance_key(centre: ChunkPos, n: LodPos) -> i64 {
    let (h, v) = distance(centre, n);
    (h * h + v * v).sqrt() as i64
}
