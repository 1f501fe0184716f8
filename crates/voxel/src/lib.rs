//! The voxel vocabulary shared by every terravox crate: block types, chunk and block
//! coordinates, and chunk storage.
//!
//! A world is cut into cubic chunks of [`CHUNK`]` = 32` blocks a side. A [`Chunk`] is
//! either [`Chunk::Uniform`] (one block everywhere, no array) or dense: a padded
//! `34^3` array holding the chunk's own `32^3` blocks plus a one-block border copied
//! from the neighbouring positions. The generator fills the border itself, so a mesher
//! can decide every face of the chunk without looking at a neighbour.
//!
//! Local coordinates run `0..32` inside the chunk; the padding is at `-1` and `32`.
//! This crate never depends on Bevy.

use serde::{Deserialize, Serialize};

pub mod raycast;

/// Blocks along one side of a chunk.
pub const CHUNK: i32 = 32;
/// Blocks along one side of a padded chunk (the chunk plus a one-block border).
pub const PADDED: usize = CHUNK as usize + 2;
/// Blocks in a padded chunk.
pub const PADDED_VOLUME: usize = PADDED * PADDED * PADDED;

/// One kind of block. Stored as one byte.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[repr(u8)]
pub enum Block {
    /// Empty space.
    #[default]
    Air = 0,
    /// Water: not opaque, not solid; drawn translucent.
    Water = 1,
    /// Bare stone, the bulk of the underground and exposed rock.
    Stone = 2,
    /// Dirt under grass.
    Dirt = 3,
    /// Grass on the surface.
    Grass = 4,
    /// Sand on beaches and shallow sea floors.
    Sand = 5,
    /// Snow on high ground.
    Snow = 6,
    /// Gravel on deep sea floors.
    Gravel = 7,
    /// Dark forest floor (islands).
    ForestFloor = 8,
    /// Tree wood, for building.
    Wood = 9,
    /// Wooden planks, for building.
    Planks = 10,
    /// Bricks, for building.
    Brick = 11,
    /// Cobblestone, for building.
    Cobblestone = 12,
}

impl Block {
    /// Every block, in discriminant order.
    pub const ALL: [Block; 13] = [
        Block::Air,
        Block::Water,
        Block::Stone,
        Block::Dirt,
        Block::Grass,
        Block::Sand,
        Block::Snow,
        Block::Gravel,
        Block::ForestFloor,
        Block::Wood,
        Block::Planks,
        Block::Brick,
        Block::Cobblestone,
    ];

    /// Whether light and sight stop at this block: faces are drawn where an opaque
    /// block meets a non-opaque one.
    #[inline]
    pub const fn is_opaque(self) -> bool {
        !matches!(self, Block::Air | Block::Water)
    }

    /// Whether a body collides with this block.
    #[inline]
    pub const fn is_solid(self) -> bool {
        self.is_opaque()
    }

    /// The block's base colour, linear-ish sRGB bytes `[r, g, b]`.
    pub const fn color(self) -> [u8; 3] {
        match self {
            Block::Air => [0, 0, 0],
            Block::Water => [40, 90, 170],
            Block::Stone => [125, 125, 128],
            Block::Dirt => [120, 85, 55],
            Block::Grass => [90, 150, 60],
            Block::Sand => [220, 205, 150],
            Block::Snow => [240, 245, 250],
            Block::Gravel => [140, 130, 120],
            Block::ForestFloor => [50, 105, 45],
            Block::Wood => [105, 75, 45],
            Block::Planks => [180, 140, 90],
            Block::Brick => [160, 70, 60],
            Block::Cobblestone => [100, 100, 100],
        }
    }

    /// A short human name.
    pub const fn name(self) -> &'static str {
        match self {
            Block::Air => "air",
            Block::Water => "water",
            Block::Stone => "stone",
            Block::Dirt => "dirt",
            Block::Grass => "grass",
            Block::Sand => "sand",
            Block::Snow => "snow",
            Block::Gravel => "gravel",
            Block::ForestFloor => "forest floor",
            Block::Wood => "wood",
            Block::Planks => "planks",
            Block::Brick => "brick",
            Block::Cobblestone => "cobblestone",
        }
    }
}

/// A block position in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

    /// This position moved by `d`.
    pub const fn offset(self, d: [i32; 3]) -> Self {
        Self::new(self.x + d[0], self.y + d[1], self.z + d[2])
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

    /// The world position of the chunk's minimum corner block (local `0, 0, 0`).
    pub const fn origin(self) -> BlockPos {
        BlockPos::new(self.x * CHUNK, self.y * CHUNK, self.z * CHUNK)
    }

    /// The world position of a local (possibly padding) coordinate.
    pub const fn local_to_world(self, local: [i32; 3]) -> BlockPos {
        BlockPos::new(
            self.x * CHUNK + local[0],
            self.y * CHUNK + local[1],
            self.z * CHUNK + local[2],
        )
    }

    /// The chunk containing the world-space point `p`.
    pub fn containing(p: [f32; 3]) -> Self {
        BlockPos::containing(p).to_chunk().0
    }

    /// Squared distance between two chunk positions, in chunks.
    pub fn distance_squared(self, other: ChunkPos) -> i64 {
        let d = |a: i32, b: i32| (a as i64 - b as i64).pow(2);
        d(self.x, other.x) + d(self.y, other.y) + d(self.z, other.z)
    }
}

/// The index of a padded local coordinate (each in `-1..=32`) in a dense array.
/// Layout: `x` fastest, then `z`, then `y`.
#[inline]
pub const fn padded_index(x: i32, y: i32, z: i32) -> usize {
    ((y + 1) as usize * PADDED + (z + 1) as usize) * PADDED + (x + 1) as usize
}

/// A chunk's blocks, including the one-block padding border.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// Every block (padding included) is this block.
    Uniform(Block),
    /// A padded `34^3` array, indexed by [`padded_index`].
    Dense(Box<[Block; PADDED_VOLUME]>),
}

impl Chunk {
    /// A dense chunk filled with `block`.
    pub fn dense_filled(block: Block) -> Self {
        Chunk::Dense(dense_array(block))
    }

    /// Builds a chunk from a function of padded local coordinates (`-1..=32`),
    /// collapsing it to [`Chunk::Uniform`] when every block is the same.
    pub fn from_fn(mut f: impl FnMut(i32, i32, i32) -> Block) -> Self {
        let mut blocks = dense_array(Block::Air);
        for y in -1..=CHUNK {
            for z in -1..=CHUNK {
                for x in -1..=CHUNK {
                    blocks[padded_index(x, y, z)] = f(x, y, z);
                }
            }
        }
        Chunk::Dense(blocks).compacted()
    }

    /// The block at a padded local coordinate (each in `-1..=32`).
    ///
    /// # Panics
    /// If a coordinate is outside `-1..=32`.
    #[inline]
    pub fn get(&self, x: i32, y: i32, z: i32) -> Block {
        match self {
            Chunk::Uniform(b) => *b,
            Chunk::Dense(blocks) => {
                assert!(
                    in_padded(x) && in_padded(y) && in_padded(z),
                    "local coordinate out of range"
                );
                blocks[padded_index(x, y, z)]
            }
        }
    }

    /// Sets the block at a padded local coordinate (each in `-1..=32`), turning a
    /// uniform chunk dense when the block differs.
    ///
    /// # Panics
    /// If a coordinate is outside `-1..=32`.
    pub fn set(&mut self, x: i32, y: i32, z: i32, block: Block) {
        assert!(
            in_padded(x) && in_padded(y) && in_padded(z),
            "local coordinate out of range"
        );
        if let Chunk::Uniform(b) = *self {
            if b == block {
                return;
            }
            *self = Chunk::dense_filled(b);
        }
        if let Chunk::Dense(blocks) = self {
            blocks[padded_index(x, y, z)] = block;
        }
    }

    /// The same chunk, collapsed to [`Chunk::Uniform`] if every block is equal.
    pub fn compacted(self) -> Self {
        match self {
            Chunk::Dense(ref blocks) => {
                let first = blocks[0];
                if blocks.iter().all(|&b| b == first) {
                    Chunk::Uniform(first)
                } else {
                    self
                }
            }
            uniform => uniform,
        }
    }

    /// The padded block array, if the chunk is dense.
    pub fn dense(&self) -> Option<&[Block; PADDED_VOLUME]> {
        match self {
            Chunk::Dense(blocks) => Some(blocks),
            Chunk::Uniform(_) => None,
        }
    }

    /// Whether every block is the same.
    pub fn is_uniform(&self) -> bool {
        matches!(self, Chunk::Uniform(_))
    }

    /// Feeds every block (padding included) into a stable 64-bit FNV-1a hash, for
    /// golden tests. A uniform chunk hashes like the dense chunk it stands for.
    pub fn content_hash(&self) -> u64 {
        let mut h = Fnv64::new();
        for y in -1..=CHUNK {
            for z in -1..=CHUNK {
                for x in -1..=CHUNK {
                    h.write_u8(self.get(x, y, z) as u8);
                }
            }
        }
        h.finish()
    }
}

/// A heap array of `PADDED_VOLUME` copies of `block`, allocated in place (no large
/// stack temporary).
pub fn dense_array(block: Block) -> Box<[Block; PADDED_VOLUME]> {
    vec![block; PADDED_VOLUME]
        .into_boxed_slice()
        .try_into()
        .expect("the vector has exactly PADDED_VOLUME blocks")
}

#[inline]
const fn in_padded(v: i32) -> bool {
    v >= -1 && v <= CHUNK
}

/// The 64-bit FNV-1a hash: fixed forever, used for text seeds and golden hashes.
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Fnv64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// A hash in its initial state.
    pub const fn new() -> Self {
        Self(Self::OFFSET)
    }

    /// Mixes one byte in.
    #[inline]
    pub fn write_u8(&mut self, b: u8) {
        self.0 = (self.0 ^ b as u64).wrapping_mul(Self::PRIME);
    }

    /// Mixes bytes in.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u8(b);
        }
    }

    /// The hash value.
    pub const fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv64 {
    fn default() -> Self {
        Self::new()
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
            assert!(l.iter().all(|&v| in_padded(v)), "{l:?}");
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
    fn uniform_chunks_compact_and_expand() {
        let c = Chunk::from_fn(|_, _, _| Block::Stone);
        assert_eq!(c, Chunk::Uniform(Block::Stone));
        let mut c = c;
        c.set(-1, 32, 0, Block::Air);
        assert_eq!(c.get(-1, 32, 0), Block::Air);
        assert_eq!(c.get(0, 0, 0), Block::Stone);
        assert!(!c.is_uniform());
        assert_eq!(
            Chunk::Uniform(Block::Sand).content_hash(),
            Chunk::dense_filled(Block::Sand).content_hash()
        );
    }

    #[test]
    fn opacity_and_solidity() {
        assert!(!Block::Air.is_opaque() && !Block::Water.is_opaque());
        assert!(!Block::Water.is_solid());
        for b in Block::ALL.into_iter().skip(2) {
            assert!(b.is_opaque() && b.is_solid(), "{b:?}");
        }
        for (i, b) in Block::ALL.iter().enumerate() {
            assert_eq!(*b as usize, i);
        }
    }

    #[test]
    fn fnv_is_the_published_function() {
        let mut h = Fnv64::new();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
