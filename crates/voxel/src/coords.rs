//! Coordinates: world block positions and chunk positions, and the conversions
//! between them (flooring, so negative coordinates map to the right chunk).

use serde::{Deserialize, Serialize};

/// Blocks along one side of a chunk.
pub const CHUNK: i32 = 32;

/// A block position in world coordinates.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct BlockPos {
    /// East-west.
    pub x: i32,
    /// Up-down.
    pub y: i32,
    /// North-south.
    pub z: i32,
}

impl BlockPos {
    /// A block position from its coordinates.
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Self { x, y, z }
    }

    /// The block containing the world-space point `p` (floors, right for negatives).
    pub fn containing(p: [f32; 3]) -> Self {
        Self::new(
            p[0].floor() as i32,
            p[1].floor() as i32,
            p[2].floor() as i32,
        )
    }

    /// The block containing the world-space point `p` given in `f64` (precise anywhere
    /// in the world; saturating at the `i32` range).
    pub fn containing_f64(p: [f64; 3]) -> Self {
        Self::new(
            p[0].floor() as i32,
            p[1].floor() as i32,
            p[2].floor() as i32,
        )
    }

    /// The chunk holding this block and the block's local coordinates (`0..32`) in it.
    pub fn to_chunk(self) -> (ChunkPos, [i32; 3]) {
        (
            ChunkPos::new(
                self.x.div_euclid(CHUNK),
                self.y.div_euclid(CHUNK),
                self.z.div_euclid(CHUNK),
            ),
            [
                self.x.rem_euclid(CHUNK),
                self.y.rem_euclid(CHUNK),
                self.z.rem_euclid(CHUNK),
            ],
        )
    }
}

impl BlockPos {
    /// Every chunk whose padded `34^3` region holds this block, with the block's padded
    /// local coordinates (`-1..=32`) there: its own chunk first, then the neighbours
    /// whose padding it is (one to seven of them, on a face, edge or corner).
    pub fn holders(self) -> impl Iterator<Item = (ChunkPos, [i32; 3])> {
        let (own, local) = self.to_chunk();
        // Per axis: the chunk offsets whose padded range holds the local coordinate.
        let options = |l: i32| -> &'static [i32] {
            match l {
                0 => &[0, -1],
                31 => &[0, 1],
                _ => &[0],
            }
        };
        let (ox, oy, oz) = (options(local[0]), options(local[1]), options(local[2]));
        oy.iter().flat_map(move |&dy| {
            oz.iter().flat_map(move |&dz| {
                ox.iter().map(move |&dx| {
                    let c = ChunkPos::new(own.x + dx, own.y + dy, own.z + dz);
                    let l = [
                        local[0] - dx * CHUNK,
                        local[1] - dy * CHUNK,
                        local[2] - dz * CHUNK,
                    ];
                    (c, l)
                })
            })
        })
    }

    /// The six blocks that share a face with this one: +x, -x, +y, -y, +z, -z.
    pub const fn neighbours(self) -> [BlockPos; 6] {
        [
            self.offset([1, 0, 0]),
            self.offset([-1, 0, 0]),
            self.offset([0, 1, 0]),
            self.offset([0, -1, 0]),
            self.offset([0, 0, 1]),
            self.offset([0, 0, -1]),
        ]
    }

    /// This position moved by `d` (saturating at the `i32` range, far outside the
    /// world: never wrapping to its other side).
    pub const fn offset(self, d: [i32; 3]) -> Self {
        Self::new(
            self.x.saturating_add(d[0]),
            self.y.saturating_add(d[1]),
            self.z.saturating_add(d[2]),
        )
    }
}

/// A chunk position: chunk `(x, y, z)` covers blocks `x*32 .. x*32+32` on each axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChunkPos {
    /// East-west, in chunks.
    pub x: i32,
    /// Up-down, in chunks.
    pub y: i32,
    /// North-south, in chunks.
    pub z: i32,
}

impl ChunkPos {
    /// A chunk position from its coordinates.
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Self { x, y, z }
    }

    /// The world position of the chunk's minimum corner block (local `0, 0, 0`);
    /// saturating at the `i32` range for chunks beyond it (never wrapping).
    pub const fn origin(self) -> BlockPos {
        BlockPos::new(
            self.x.saturating_mul(CHUNK),
            self.y.saturating_mul(CHUNK),
            self.z.saturating_mul(CHUNK),
        )
    }

    /// The world position of a local (possibly padding) coordinate; saturating like
    /// [`ChunkPos::origin`].
    pub const fn local_to_world(self, local: [i32; 3]) -> BlockPos {
        self.origin().offset(local)
    }

    /// The chunk containing the world-space point `p`.
    pub fn containing(p: [f32; 3]) -> Self {
        BlockPos::containing(p).to_chunk().0
    }

    /// The chunk containing the world-space point `p` given in `f64`.
    pub fn containing_f64(p: [f64; 3]) -> Self {
        BlockPos::containing_f64(p).to_chunk().0
    }

    /// Squared distance between two chunk positions, in chunks.
    pub fn distance_squared(self, other: ChunkPos) -> i64 {
        let d = |a: i32, b: i32| (a as i64 - b as i64).pow(2);
        d(self.x, other.x) + d(self.y, other.y) + d(self.z, other.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_coordinates_map_to_the_right_chunk() {
        let (c, l) = BlockPos::new(-1, -32, -33).to_chunk();
        assert_eq!(c, ChunkPos::new(-1, -1, -2));
        assert_eq!(l, [31, 0, 31]);
        assert_eq!(c.local_to_world(l), BlockPos::new(-1, -32, -33));
        let (c, l) = BlockPos::new(0, 31, 32).to_chunk();
        assert_eq!(c, ChunkPos::new(0, 0, 1));
        assert_eq!(l, [0, 31, 0]);
    }

    #[test]
    fn holders_cover_own_chunk_and_padding_neighbours() {
        let inner: Vec<_> = BlockPos::new(5, 6, 7).holders().collect();
        assert_eq!(inner, vec![(ChunkPos::new(0, 0, 0), [5, 6, 7])]);
        let corner: Vec<_> = BlockPos::new(-1, 0, 31).holders().collect();
        assert_eq!(corner.len(), 8);
        assert_eq!(corner[0], (ChunkPos::new(-1, 0, 0), [31, 0, 31]));
        for (c, l) in &corner {
            // Within the padded chunk: -1..=32 on every axis.
            assert!(l.iter().all(|&v| (-1..=CHUNK).contains(&v)), "{l:?}");
            assert_eq!(c.local_to_world(*l), BlockPos::new(-1, 0, 31));
        }
        let face: Vec<_> = BlockPos::new(32, 10, 10).holders().collect();
        assert_eq!(
            face,
            vec![
                (ChunkPos::new(1, 0, 0), [0, 10, 10]),
                (ChunkPos::new(0, 0, 0), [32, 10, 10])
            ]
        );
    }

    #[test]
    fn point_conversion_floors() {
        assert_eq!(
            BlockPos::containing([-0.5, 0.5, -1.0]),
            BlockPos::new(-1, 0, -1)
        );
        assert_eq!(
            ChunkPos::containing([-0.1, 33.0, 64.0]),
            ChunkPos::new(-1, 1, 2)
        );
    }

    #[test]
    fn round_trip_over_a_range() {
        for v in -100..100 {
            let p = BlockPos::new(v, -v, v * 3);
            let (c, l) = p.to_chunk();
            assert!(l.iter().all(|&a| (0..CHUNK).contains(&a)));
            assert_eq!(c.local_to_world(l), p);
        }
    }

    #[test]
    fn conversions_are_total_at_the_ends_of_the_range() {
        for c in [i32::MIN, -(1 << 26) - 1, 1 << 26, i32::MAX] {
            let p = ChunkPos::new(c, c, c);
            let o = p.origin();
            assert_eq!(o.x.signum(), c.signum(), "no wrap for {c}");
            let w = p.local_to_world([31, 32, -1]);
            assert_eq!(w.y.signum(), c.signum(), "no wrap for {c}");
        }
        let far = BlockPos::new(i32::MAX, i32::MIN, 0);
        assert_eq!(far.offset([1, -1, 0]), far);
        assert_eq!(far.holders().count(), 8);
        assert_eq!(
            BlockPos::containing([f32::MAX, f32::NAN, -1e30]).x,
            i32::MAX
        );
    }
}
