//! The chunk store: the loaded chunks (blocks for collision and editing, the entities
//! drawing them) and the work pending on them, which the streaming plugin drives.

use bevy::platform::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::tasks::Task;
use terravox_mesher::Surface;
use terravox_mesher::visibility::FaceGraph;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos, ColumnTints};

/// Full-detail chunks kept for cover at most, per wanted chunk (see
/// [`Chunks::max_kept`]).
const KEPT_PER_WANTED: usize = 1;

/// The point chunks stream around (the player's feet, world coordinates), set each
/// frame in `Simulate`.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct StreamCenter(pub DVec3);

/// The world block at the render frame's zero: everything drawn is placed relative to
/// it (a floating origin), so `f32` transforms stay small and exact anywhere in the
/// world. It follows the player in whole chunks.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RenderOrigin(pub BlockPos);

impl RenderOrigin {
    /// `p` (world coordinates) in the render frame.
    pub(crate) fn local(&self, p: DVec3) -> Vec3 {
        (p - DVec3::new(self.0.x as f64, self.0.y as f64, self.0.z as f64)).as_vec3()
    }

    /// The corner of block `b` in the render frame.
    pub(crate) fn block(&self, b: BlockPos) -> Vec3 {
        self.local(DVec3::new(b.x as f64, b.y as f64, b.z as f64))
    }
}

/// A loaded chunk: its blocks and its mesh entities.
pub(crate) struct LoadedChunk {
    /// The blocks, padding included.
    pub blocks: Arc<Chunk>,
    /// The biome tints of its columns, as generated (for remeshing).
    pub tints: Option<Arc<ColumnTints>>,
    /// Entities drawing it (opaque and water), if it has faces.
    pub entities: Vec<Entity>,
    /// Bumped by every edit of its blocks; a remesh result for an older revision is
    /// dropped.
    pub revision: u64,
    /// Which of its faces connect through open blocks, as of its current mesh.
    pub graph: FaceGraph,
    /// Whether it was meshed (or its mesh is queued): chunks culling hides when they
    /// load are only generated, and meshed once the culling walk reaches them.
    pub meshed: bool,
    /// Whether its mesh has faces (whether anything draws it).
    pub has_faces: bool,
    /// Its mesh's bytes on the GPU (vertices and indices).
    pub bytes: usize,
}

/// What a remesh task returns.
pub(crate) struct Remeshed {
    /// The revision of the blocks it meshed.
    pub revision: u64,
    /// Opaque surface.
    pub opaque: Surface,
    /// Water surface.
    pub water: Surface,
    /// Its face graph.
    pub graph: FaceGraph,
}

/// What a generate-and-mesh worker returns.
pub(crate) struct ChunkResult {
    /// Which chunk.
    pub pos: ChunkPos,
    /// For which world.
    pub epoch: u64,
    /// Its blocks.
    pub blocks: Arc<Chunk>,
    /// The biome tints of its columns.
    pub tints: Option<Arc<ColumnTints>>,
    /// Opaque surface.
    pub opaque: Surface,
    /// Water surface.
    pub water: Surface,
    /// Its face graph.
    pub graph: FaceGraph,
    /// Whether it was meshed (`false`: generated only, the surfaces are empty).
    pub meshed: bool,
    /// Time spent generating.
    pub generate: Duration,
    /// Time spent meshing.
    pub mesh: Duration,
}

/// The loaded chunks and the work pending on them.
#[derive(Resource, Default)]
pub struct Chunks {
    /// Loaded chunks.
    pub(crate) loaded: HashMap<ChunkPos, LoadedChunk>,
    /// Generate tasks in flight and the epoch they were started for.
    pub(crate) in_flight: HashMap<ChunkPos, (u64, Task<ChunkResult>)>,
    /// Finished results waiting for an upload slot.
    pub(crate) ready: Vec<ChunkResult>,
    /// Wanted chunks, nearest first.
    pub(crate) wanted: Vec<ChunkPos>,
    /// The same, as a set.
    pub(crate) wanted_set: HashSet<ChunkPos>,
    /// Remesh tasks of edited chunks, newest revision only.
    pub(crate) remesh: HashMap<ChunkPos, Task<Remeshed>>,
    /// Edited loaded chunks waiting for a remesh task.
    pub(crate) remesh_wanted: HashSet<ChunkPos>,
    /// Loaded chunks to generate again (their edits were discarded, or an edit came
    /// while they were being generated); the old mesh stays until the new one arrives.
    pub(crate) reload: HashSet<ChunkPos>,
    /// Chunk the wanted set was computed around, and the view distance then.
    pub(crate) wanted_for: Option<(ChunkPos, u32)>,
    /// Every wanted chunk before this index was started (is loaded, in flight or
    /// ready): task spawning goes on from here. Reset whenever work is dropped.
    pub(crate) started_up_to: usize,
    /// Chunks no longer wanted that still cover their place on screen because the
    /// coarse chunk replacing them is not loaded yet (set by the horizon, at most
    /// [`Chunks::max_kept`], the nearest): not unloaded.
    pub(crate) kept: HashSet<ChunkPos>,
    /// Bumped whenever chunks load or unload.
    pub(crate) changes: u64,
}

impl Chunks {
    /// Mesh bytes of the loaded chunks on the GPU.
    pub fn mesh_bytes(&self) -> usize {
        self.loaded.values().map(|c| c.bytes).sum()
    }

    /// Whether every wanted chunk has started (is loaded, in flight or ready).
    pub(crate) fn all_started(&self) -> bool {
        self.started_up_to >= self.wanted.len() && self.reload.is_empty()
    }

    /// The block at a world position, if its chunk is loaded.
    pub fn block(&self, p: BlockPos) -> Option<Block> {
        let (c, l) = p.to_chunk();
        self.loaded
            .get(&c)
            .map(|lc| lc.blocks.get(l[0], l[1], l[2]))
    }

    /// The blocks of a loaded chunk, padding included.
    pub fn blocks(&self, c: ChunkPos) -> Option<&Arc<Chunk>> {
        self.loaded.get(&c).map(|lc| &lc.blocks)
    }

    /// The biome tints of a loaded chunk, if it has any.
    pub fn tints(&self, c: ChunkPos) -> Option<&ColumnTints> {
        self.loaded.get(&c).and_then(|lc| lc.tints.as_deref())
    }

    /// The loaded chunks' positions.
    pub fn loaded(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        self.loaded.keys().copied()
    }

    /// How many chunks are loaded.
    pub fn loaded_count(&self) -> usize {
        self.loaded.len()
    }

    /// Chunks wanted around the stream centre, nearest first.
    pub fn wanted(&self) -> &[ChunkPos] {
        &self.wanted
    }

    /// Chunks whose generation started (in flight, finished or loaded).
    pub fn started(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        self.in_flight
            .keys()
            .chain(self.loaded.keys())
            .copied()
            .chain(self.ready.iter().map(|r| r.pos))
    }

    /// Generate tasks in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Generate and remesh tasks started whose work has not finished yet.
    pub fn tasks_running(&self) -> usize {
        let generating = self.in_flight.values().filter(|(_, t)| !t.is_finished());
        let remeshing = self.remesh.values().filter(|t| !t.is_finished());
        generating.count() + remeshing.count()
    }

    /// Loaded chunks no longer wanted that are kept while they cover a place whose
    /// coarse chunk is not loaded yet.
    pub fn kept_count(&self) -> usize {
        self.kept.len()
    }

    /// The most chunks kept for cover: as many as are wanted, so that however far
    /// the coarse work falls behind, at most about twice the view stays loaded. The
    /// nearest are kept; where the farther ones unload, nothing is drawn (the sky
    /// shows through, behind the player) until their coarse chunk loads, which is
    /// then among the first to start (a hole, see `horizon::schedule`).
    pub fn max_kept(&self) -> usize {
        KEPT_PER_WANTED * self.wanted.len()
    }

    /// Chunks wanted but not yet loaded.
    pub fn missing(&self) -> usize {
        self.wanted
            .iter()
            .filter(|&p| !self.loaded.contains_key(p))
            .count()
    }

    /// Whether loaded chunk `c` was meshed (or its mesh is queued); `false` for a
    /// chunk generated while culling hid it, or one not loaded.
    pub fn is_meshed(&self, c: ChunkPos) -> bool {
        self.loaded.get(&c).is_some_and(|lc| lc.meshed)
    }

    /// Whether `c` waits for a remesh after an edit.
    pub fn remesh_queued(&self, c: ChunkPos) -> bool {
        self.remesh_wanted.contains(&c) || self.remesh.contains_key(&c)
    }

    /// Whether every edited chunk has its new mesh.
    pub fn remeshed(&self) -> bool {
        self.remesh.is_empty() && self.remesh_wanted.is_empty()
    }

    /// Whether every wanted chunk is loaded and nothing is pending.
    pub fn fully_loaded(&self) -> bool {
        !self.wanted.is_empty()
            && self.missing() == 0
            && self.in_flight.is_empty()
            && self.ready.is_empty()
            && self.remeshed()
            && self.reload.is_empty()
    }

    /// Sets the block at `p` in every loaded chunk that holds it (its own chunk and
    /// the neighbours whose padding it is) and queues their remesh; tasks and results
    /// for holders not yet loaded are cancelled, so they are generated again with the
    /// edit. Returns `false` (and changes nothing) if `p`'s own chunk is not loaded.
    pub(crate) fn set_block(&mut self, p: BlockPos, block: Block) -> bool {
        if !self.loaded.contains_key(&p.to_chunk().0) {
            return false;
        }
        for (c, [x, y, z]) in p.holders() {
            if let Some(lc) = self.loaded.get_mut(&c) {
                // A reload in progress was generated without this edit: start it again.
                let pending =
                    self.in_flight.remove(&c).is_some() | self.ready.iter().any(|r| r.pos == c);
                if pending {
                    self.ready.retain(|r| r.pos != c);
                    self.reload.insert(c);
                }
                if lc.blocks.get(x, y, z) != block {
                    Arc::make_mut(&mut lc.blocks).set(x, y, z, block);
                    lc.revision += 1;
                    self.remesh_wanted.insert(c);
                }
            } else {
                self.in_flight.remove(&c);
                self.ready.retain(|r| r.pos != c);
                self.started_up_to = 0;
            }
        }
        true
    }

    /// Generates `chunks` again where they are loaded (after their edits were
    /// discarded), and drops pending work for them.
    pub(crate) fn reload(&mut self, chunks: impl IntoIterator<Item = ChunkPos>) {
        self.started_up_to = 0;
        for c in chunks {
            self.in_flight.remove(&c);
            self.ready.retain(|r| r.pos != c);
            self.remesh.remove(&c);
            self.remesh_wanted.remove(&c);
            if self.loaded.contains_key(&c) {
                self.reload.insert(c);
            }
        }
    }
}
