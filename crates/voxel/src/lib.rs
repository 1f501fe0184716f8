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
//!
//! Modules: [`block`] (block kinds), [`coords`] (block and chunk positions), [`chunk`]
//! (chunk storage), [`raycast`] (exact voxel traversal), [`textures`] (which texture
//! each block face shows, and the generator of the textures) and the fixed [`Fnv64`]
//! hash.
//! The architecture of the whole project is in `docs/design.md`.

pub mod block;
pub mod chunk;
pub mod coords;
mod hash;
pub mod raycast;
pub mod textures;

pub use block::Block;
pub use chunk::{Chunk, dense_array, padded_index};
pub use coords::{BlockPos, ChunkPos};
pub use hash::Fnv64;

/// Blocks along one side of a chunk.
pub const CHUNK: i32 = 32;
/// Blocks along one side of a padded chunk (the chunk plus a one-block border).
pub const PADDED: usize = CHUNK as usize + 2;
/// Blocks in a padded chunk.
pub const PADDED_VOLUME: usize = PADDED * PADDED * PADDED;

/// The biome tints of each padded column of a chunk, sRGB bytes, indexed by
/// `(z + 1) * PADDED + (x + 1)` for local `x, z` in `-1..=32`. They blend smoothly
/// across biome borders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnTints {
    /// The colour grass has there: tinted blocks ([`Block::is_tinted`]) are drawn in
    /// it.
    pub grass: [[u8; 3]; PADDED * PADDED],
    /// The colour of water there.
    pub water: [[u8; 3]; PADDED * PADDED],
}

impl ColumnTints {
    /// All black, on the heap (the arrays are 7 KB).
    pub fn boxed() -> Box<Self> {
        Box::new(Self {
            grass: [[0; 3]; PADDED * PADDED],
            water: [[0; 3]; PADDED * PADDED],
        })
    }
}
