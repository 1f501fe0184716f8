//! The bodies of the worker tasks every level of detail runs: meshing a chunk with
//! the thread's reusable buffers ([`mesh`], which the horizon's coarse tasks use
//! too), generating a full-detail chunk with its edits and meshing it
//! ([`build_chunk`]), and remeshing an edited one ([`remesh`]). Plain functions of
//! their inputs, run off the main thread.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use terravox_edits::{LocalEdit, apply_local};
use terravox_mesher::visibility::FaceGraph;
use terravox_mesher::{MeshBuffers, Surface, face_graph, mesh_chunk_tinted};
use terravox_voxel::{Chunk, ChunkPos, ColumnTints};
use terravox_worldgen::Generator;

use super::chunks::{ChunkResult, Remeshed};

thread_local! {
    static BUFFERS: RefCell<MeshBuffers> = RefCell::new(MeshBuffers::default());
}

/// Meshes a chunk with this thread's reusable buffers.
pub(crate) fn mesh(blocks: &Chunk, tints: Option<&ColumnTints>) -> (Surface, Surface, FaceGraph) {
    BUFFERS.with_borrow_mut(|b| {
        mesh_chunk_tinted(blocks, tints, b);
        (b.opaque.clone(), b.water.clone(), b.graph)
    })
}

/// Generates one chunk, lays the edits inside its padded region over it, and meshes
/// it (or only finds its face graph, unless `meshed`): the body of a worker task.
pub(super) fn build_chunk(
    generator: &Generator,
    pos: ChunkPos,
    edits: &[LocalEdit],
    meshed: bool,
) -> ChunkResult {
    let t0 = Instant::now();
    let (mut blocks, tints) = generator.generate_tinted(pos);
    apply_local(&mut blocks, edits);
    let (blocks, tints) = (Arc::new(blocks), tints.map(Arc::from));
    let t1 = Instant::now();
    let (opaque, water, graph) = if meshed {
        mesh(&blocks, tints.as_deref())
    } else {
        let graph = BUFFERS.with_borrow_mut(|b| face_graph(&blocks, b));
        (Surface::default(), Surface::default(), graph)
    };
    ChunkResult {
        blocks,
        tints,
        opaque,
        water,
        graph,
        meshed,
        generate: t1 - t0,
        mesh: t1.elapsed(),
    }
}

/// Meshes the edited blocks of a loaded chunk at `revision` again: the body of a
/// remesh task.
pub(super) fn remesh(blocks: &Chunk, tints: Option<&ColumnTints>, revision: u64) -> Remeshed {
    let (opaque, water, graph) = mesh(blocks, tints);
    Remeshed {
        revision,
        opaque,
        water,
        graph,
    }
}
