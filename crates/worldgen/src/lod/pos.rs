//! A chunk of some level of detail ([`LodPos`]): its cells, origin and sample points,
//! and the chunks above and below it.

use terravox_voxel::{CHUNK, ChunkPos, PADDED};

/// The coarsest level: 256-block cells in 8192-block chunks (the 65,536-block
/// horizon's outer ring).
pub const MAX_LEVEL: u8 = 8;

/// A chunk of some level of detail: `pos` counts chunks of that level, each
/// `32 * 2^level` blocks a side: the 32 x 32 x 32 cells (and one-cell padding) of a
/// full-detail chunk, each cell `2^level` blocks a side. Level 0 is full detail.
///
/// A coarse chunk ([`Generator::generate_coarse`](crate::Generator::generate_coarse))
/// takes the generator's verdict at each cell's sample point, its lowest corner
/// ([`LodPos::sample`]), without caves or edits, trees as leaves; its side padding is
/// fluid (skirts), so the mesher closes it with walls down its sides. The game draws
/// its cells `2^level - 1` blocks lower, so that a cell's top is its sample's top and
/// sea level lies at the same height at every level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LodPos {
    /// 0 is full detail; each level doubles the cell size.
    pub level: u8,
    /// The chunk, in chunks of its level.
    pub pos: ChunkPos,
}

impl LodPos {
    /// Chunk `pos` of `level`.
    pub const fn new(level: u8, pos: ChunkPos) -> Self {
        Self { level, pos }
    }

    /// Blocks a cell stands for, a side.
    pub const fn cell(self) -> i32 {
        1 << self.level
    }

    /// Blocks the chunk covers, a side.
    pub const fn edge(self) -> i64 {
        (CHUNK as i64) << self.level
    }

    /// The world block of its lowest corner.
    pub const fn origin(self) -> [i64; 3] {
        let e = self.edge();
        [
            self.pos.x as i64 * e,
            self.pos.y as i64 * e,
            self.pos.z as i64 * e,
        ]
    }

    /// The chunk of the next coarser level holding this one.
    pub const fn parent(self) -> Self {
        Self::new(
            self.level + 1,
            ChunkPos::new(
                self.pos.x.div_euclid(2),
                self.pos.y.div_euclid(2),
                self.pos.z.div_euclid(2),
            ),
        )
    }

    /// The eight chunks of the next finer level it holds (level must be at least 1).
    pub fn children(self) -> [Self; 8] {
        let p = self.pos;
        std::array::from_fn(|i| {
            let (dx, dy, dz) = ((i & 1) as i32, (i >> 1 & 1) as i32, (i >> 2) as i32);
            Self::new(
                self.level - 1,
                ChunkPos::new(2 * p.x + dx, 2 * p.y + dy, 2 * p.z + dz),
            )
        })
    }

    /// The chunk of `level` (at least this one's) holding this one.
    pub fn ancestor(self, level: u8) -> Self {
        let s = (level - self.level) as u32;
        let up = |v: i32| v >> s;
        Self::new(
            level,
            ChunkPos::new(up(self.pos.x), up(self.pos.y), up(self.pos.z)),
        )
    }

    /// The sample coordinates of the padded cells (`-1..=CHUNK`) along x, y and z,
    /// saturated into `i32`.
    pub(crate) fn samples(self) -> [[i32; PADDED]; 3] {
        let (origin, cell) = (self.origin(), self.cell() as i64);
        origin.map(|o| {
            std::array::from_fn(|i| {
                (o + (i as i64 - 1) * cell).clamp(i32::MIN as i64, i32::MAX as i64) as i32
            })
        })
    }

    /// The world position (block units) of the sample point of padded cell
    /// `(lx, ly, lz)` (each `-1..=32`).
    pub fn sample(self, lx: i32, ly: i32, lz: i32) -> [i64; 3] {
        let [x, y, z] = self.origin();
        let s = self.cell() as i64;
        [x + lx as i64 * s, y + ly as i64 * s, z + lz as i64 * s]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_children_and_ancestors_agree() {
        let p = LodPos::new(0, ChunkPos::new(-3, 5, 7));
        assert_eq!(p.parent(), LodPos::new(1, ChunkPos::new(-2, 2, 3)));
        assert!(p.parent().children().contains(&p));
        assert_eq!(p.ancestor(3), p.parent().parent().parent());
        let q = LodPos::new(2, ChunkPos::new(1, -1, 0));
        assert_eq!(q.origin(), [128, -128, 0]);
        assert_eq!(q.sample(-1, 32, 1), [124, 0, 4]);
        for c in q.children() {
            assert_eq!(c.parent(), q);
        }
    }
}
