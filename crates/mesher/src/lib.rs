//! Chunk meshing for terravox: a padded [`Chunk`] becomes the triangles the game draws.
//!
//! [`mesh_chunk`] writes two surfaces into caller-owned, reused [`MeshBuffers`]:
//! - **opaque**: a face wherever an opaque block of the chunk meets a non-opaque block
//!   (the one-block padding decides faces on the chunk's border, so no neighbour is
//!   needed), shaded with per-vertex ambient occlusion;
//! - **water**: a face wherever water meets air, drawn translucent by the game.
//!
//! Coplanar faces with the same block and the same four occlusion values are merged
//! greedily into rectangles. Visibility is computed on bit masks (one `u64` per row of
//! 34 blocks), so a surface chunk meshes in tens of microseconds.
//!
//! # Conventions
//!
//! ```text
//!        +y                 Right-handed axes; chunk-local positions 0..=32.
//!         |                 Block (x, y, z) spans [x, x+1] x [y, y+1] x [z, z+1].
//!         |____ +x          A face of block p with normal n lies on the block's
//!        /                  side facing n.
//!      +z
//!
//!   D ---------- C          Every quad is A, B, C, D counter-clockwise seen from
//!   |            |          outside (from the side the normal points to), so
//!   |            |          back-face culling keeps it. Triangles are A-B-C, A-C-D,
//!   A ---------- B          or B-C-D, B-D-A when the occlusion asks for the flip.
//! ```
//!
//! Ambient occlusion per vertex uses the usual rule on the three blocks in front of
//! the face that touch that vertex: two sides `s1`, `s2` and the corner `c`:
//! `ao = 0 if s1 && s2, else 3 - (s1 + s2 + c)` (0 darkest, 3 unoccluded). A quad is
//! split along the diagonal whose two vertices are brighter in sum, so one dark corner
//! stays in one triangle and the shading does not depend on the quad's orientation.
//!
//! Vertices are packed into 8 bytes ([`vertex`]): chunk-local corner, face, occlusion
//! level, texture array layer ([`terravox_voxel::Block::texture`]) and the biome tint. Water top faces
//! carry a depth level (how deep the water below them is, shallowest at the shore) in
//! place of occlusion, which the game's water shader colours by.
//!
//! No Bevy here: the game turns [`Surface`] into a Bevy mesh.
//!
//! Modules: `face` (the six directions), `mesh` (the entry points and their buffers),
//! `quad` (merged rectangles), `masks` (bit masks and visible faces per plane), `faces`
//! (occlusion and greedy merging of one face direction), `emit` (packed vertices and
//! triangles),
//! [`vertex`] (the packing), [`light`] (sky light fading into caves), [`visibility`]
//! (the chunk's face graph and the culling walk over chunks). The project's architecture is in `docs/design.md`.

mod emit;
mod face;
mod faces;
pub mod light;
mod masks;
mod mesh;
mod quad;
pub mod vertex;
pub mod visibility;

pub use emit::Surface;
pub use face::Face;
pub use mesh::{MeshBuffers, face_graph, mesh_chunk, mesh_chunk_tinted};
pub use quad::Quad;
