//! The meshing entry points and the caller-owned buffers they write.

use terravox_voxel::{Chunk, ColumnTints};

use crate::emit::{Surface, Tints};
use crate::faces::mesh_faces;
use crate::light::SkyLight;
use crate::masks::{INTERIOR, Masks};
use crate::visibility::{FaceGraph, Fill};

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

/// The face graph of `chunk` (its own 32³ blocks; the padding is the neighbours'),
/// using `buffers`' scratch space. [`mesh_chunk`] computes it too, into
/// [`MeshBuffers::graph`]; this is for a chunk that is not meshed yet.
pub fn face_graph(chunk: &Chunk, buffers: &mut MeshBuffers) -> FaceGraph {
    match chunk {
        Chunk::Uniform(b) => FaceGraph::uniform(*b),
        Chunk::Dense(blocks) => {
            buffers.masks.fill(&blocks[..]);
            buffers.fill.graph(&buffers.masks)
        }
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
