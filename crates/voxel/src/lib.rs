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
//! each block face shows, and the generator of the textures), [`water_states`] (sources,
//! flowing and falling water: their levels, the heights their surface is drawn at
//! and the way they run) and the fixed [`Fnv64`] hash.
//! The architecture of the whole project is in `docs/design.md`.

pub mod block;
pub mod chunk;
pub mod coords;
mod hash;
pub mod raycast;
pub mod textures;
mod tints;
pub mod water_states;

pub use block::Block;
pub use chunk::{Chunk, PADDED, PADDED_VOLUME, dense_array, padded_index};
pub use coords::{BlockPos, CHUNK, ChunkPos};
pub use hash::Fnv64;
pub use tints::{ColumnTints, Flow};
pub use water_states::Fluid;
