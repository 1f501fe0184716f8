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
//! level, texture array layer ([`Block::texture`]) and the biome tint. Water top faces
//! carry a depth level (how deep the water below them is, shallowest at the shore) in
//! place of occlusion, which the game's water shader colours by.
//!
//! No Bevy here: the game turns [`Surface`] into a Bevy mesh.
//!
//! Modules: `masks` (bit masks and visible faces per plane), `faces` (occlusion and
//! greedy merging of one face direction), `emit` (packed vertices and triangles),
//! [`vertex`] (the packing), [`light`] (sky light fading into caves), [`visibility`]
//! (the chunk's face graph and the culling walk over chunks). The project's architecture is in `docs/design.md`.

mod emit;
mod faces;
pub mod light;
mod masks;
pub mod vertex;
pub mod visibility;

use terravox_voxel::{Block, Chunk, ColumnTints};

pub use emit::Surface;
use emit::Tints;
use faces::mesh_faces;
use light::SkyLight;
use masks::{INTERIOR, Masks};
use visibility::{FaceGraph, Fill};

/// One of the six face directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Facing +x.
    PosX,
    /// Facing -x.
    NegX,
    /// Facing +y (up).
    PosY,
    /// Facing -y (down).
    NegY,
    /// Facing +z.
    PosZ,
    /// Facing -z.
    NegZ,
}

impl Face {
    /// All six faces.
    pub const ALL: [Face; 6] = [
        Face::PosX,
        Face::NegX,
        Face::PosY,
        Face::NegY,
        Face::PosZ,
        Face::NegZ,
    ];

    /// The outward unit normal.
    pub const fn normal(self) -> [i32; 3] {
        match self {
            Face::PosX => [1, 0, 0],
            Face::NegX => [-1, 0, 0],
            Face::PosY => [0, 1, 0],
            Face::NegY => [0, -1, 0],
            Face::PosZ => [0, 0, 1],
            Face::NegZ => [0, 0, -1],
        }
    }

    /// Axes as indices: (normal axis, row axis, column axis) of this face's planes.
    const fn axes(self) -> (usize, usize, usize) {
        match self {
            Face::PosX | Face::NegX => (0, 1, 2),
            Face::PosY | Face::NegY => (1, 2, 0),
            Face::PosZ | Face::NegZ => (2, 1, 0),
        }
    }

    const fn positive(self) -> bool {
        matches!(self, Face::PosX | Face::PosY | Face::PosZ)
    }

    /// Whether A, B, C, D (B along the column axis from A, D along the row axis) is
    /// clockwise from outside and must be emitted reversed.
    const fn reversed(self) -> bool {
        matches!(self, Face::PosX | Face::PosY | Face::NegZ)
    }
}

/// One merged rectangle, kept for tests and statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quad {
    /// Direction it faces.
    pub face: Face,
    /// The block whose faces it covers.
    pub block: Block,
    /// Chunk-local coordinates of the first covered block.
    pub min: [u8; 3],
    /// Chunk-local coordinates of the last covered block (inclusive); equal to `min`
    /// on the normal axis.
    pub max: [u8; 3],
    /// Occlusion level (0..=3) of the vertices A, B, C, D before any reversal.
    pub ao: [u8; 4],
    /// Sky light (0..=15) of the open block in front of it ([`light`]).
    pub sky: u8,
}

impl Quad {
    /// Number of unit faces covered.
    pub fn area(&self) -> u32 {
        (0..3)
            .map(|i| (self.max[i] - self.min[i]) as u32 + 1)
            .product()
    }
}

/// Reusable output and scratch space for [`mesh_chunk`]. Keep one per worker and pass
/// it again: once warm, meshing allocates nothing.
#[derive(Clone, Debug)]
pub struct MeshBuffers {
    /// Opaque blocks.
    pub opaque: Surface,
    /// Water, for a translucent material.
    pub water: Surface,
    /// Which of the chunk's faces connect through its open blocks (for culling).
    pub graph: FaceGraph,
    masks: Box<Masks>,
    fill: Box<Fill>,
    light: SkyLight,
    tints: Tints,
}

impl Default for MeshBuffers {
    fn default() -> Self {
        Self {
            opaque: Surface::default(),
            water: Surface::default(),
            graph: FaceGraph::NONE,
            masks: Box::new(Masks::default()),
            fill: Box::new(Fill::default()),
            light: SkyLight::default(),
            tints: Tints::default(),
        }
    }
}

impl MeshBuffers {
    /// Whether both surfaces are empty.
    pub fn is_empty(&self) -> bool {
        self.opaque.is_empty() && self.water.is_empty()
    }
}

/// Meshes `chunk` into `buffers` (cleared first), tinted blocks in grass's own colour.
pub fn mesh_chunk(chunk: &Chunk, buffers: &mut MeshBuffers) {
    mesh_chunk_tinted(chunk, None, buffers);
}

/// Meshes `chunk` into `buffers` (cleared first), with tinted blocks (grass, most
/// leaves) and water in the biome tints of their column: each vertex takes the tint
/// of the column at its corner. Without tints, tinted blocks take grass's own colour
/// and water its own. Also computes the chunk's face graph ([`MeshBuffers::graph`]).
pub fn mesh_chunk_tinted(chunk: &Chunk, tints: Option<&ColumnTints>, buffers: &mut MeshBuffers) {
    buffers.opaque.clear();
    buffers.water.clear();
    let blocks = match chunk {
        Chunk::Dense(blocks) => &blocks[..],
        Chunk::Uniform(b) => {
            // Every block equals its neighbours, so no face anywhere.
            buffers.graph = FaceGraph::uniform(*b);
            return;
        }
    };
    buffers.tints.set(tints);
    let masks = &mut *buffers.masks;
    masks.fill(blocks);
    buffers.graph = buffers.fill.graph(masks);
    buffers.light.compute(blocks, masks);
    let has_water = masks.water.iter().any(|&w| w & INTERIOR != 0);
    // One instance per face and pass, so every axis choice is a constant.
    macro_rules! faces {
        ($($f:literal),*) => {$(
            mesh_faces::<$f, false>(blocks, masks, &buffers.light, &buffers.tints, &mut buffers.opaque);
            if has_water {
                mesh_faces::<$f, true>(blocks, masks, &buffers.light, &buffers.tints, &mut buffers.water);
            }
        )*};
    }
    faces!(0, 1, 2, 3, 4, 5);
}
