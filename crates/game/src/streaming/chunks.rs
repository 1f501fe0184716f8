//! The full-detail chunk store: the loaded chunks (blocks for collision and editing)
//! and the work pending on them, which the streaming systems drive. Everything that
//! belongs to one world is in one private part that a world switch replaces whole
//! ([`Chunks::clear`]), so no field can survive it by mistake. The meshes drawing the
//! chunks belong to the render plugin.

use std::sync::Arc;
use std::time::Duration;

use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::tasks::Task;
use terravox_mesher::Surface;
use terravox_mesher::visibility::FaceGraph;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos, ColumnTints};
use terravox_worldgen::LodPos;

use super::pipeline::Pipeline;

/// Full-detail chunks kept for cover at most, per wanted chunk (see
/// [`Chunks::max_kept`]).
const KEPT_PER_WANTED: usize = 1;

/// A loaded chunk.
pub(super) struct LoadedChunk {
    /// The blocks, padding included.
    pub(super) blocks: Arc<Chunk>,
    /// The biome tints of its columns, as generated (for remeshing).
    pub(super) tints: Option<Arc<ColumnTints>>,
    /// Bumped by every edit of its blocks; a remesh result for an older revision is
    /// dropped.
    pub(super) revision: u64,
    /// Which of its faces connect through open blocks, as of its current mesh.
    pub(super) graph: FaceGraph,
    /// Whether it was meshed (or its mesh is queued): chunks culling hides when they
    /// load are only generated, and meshed once the culling walk reaches them.
    pub(super) meshed: bool,
    /// Whether its mesh has faces (whether anything draws it).
    pub(super) has_faces: bool,
    /// Its mesh's bytes on the GPU (vertices and indices).
    pub(super) bytes: usize,
    /// The world epoch it was generated for: one older than the store's is made
    /// again (a live reshape) and stays until then.
    pub(super) epoch: u64,
}

/// What a remesh task returns.
pub(super) struct Remeshed {
    /// The revision of the blocks it meshed.
    pub(super) revision: u64,
    /// Opaque surface.
    pub(super) opaque: Surface,
    /// Water surface.
    pub(super) water: Surface,
    /// Its face graph.
    pub(super) graph: FaceGraph,
}

/// What a generate-and-mesh worker returns.
pub(super) struct ChunkResult {
    /// Its blocks.
    pub(super) blocks: Arc<Chunk>,
    /// The biome tints of its columns.
    pub(super) tints: Option<Arc<ColumnTints>>,
    /// Opaque surface.
    pub(super) opaque: Surface,
    /// Water surface.
    pub(super) water: Surface,
    /// Its face graph.
    pub(super) graph: FaceGraph,
    /// Whether it was meshed (`false`: generated only, the surfaces are empty).
    pub(super) meshed: bool,
    /// Time spent generating.
    pub(super) generate: Duration,
    /// Time spent meshing.
    pub(super) mesh: Duration,
}

/// Everything the store holds about the current world.
#[derive(Default)]
pub(super) struct WorldChunks {
    /// Loaded chunks.
    pub(super) loaded: HashMap<ChunkPos, LoadedChunk>,
    /// Wanted chunks (nearest first), generate tasks and their results.
    pub(super) pipeline: Pipeline<ChunkResult>,
    /// Remesh tasks of edited chunks, newest revision only.
    pub(super) remesh: HashMap<ChunkPos, Task<Remeshed>>,
    /// Edited loaded chunks waiting for a remesh task.
    pub(super) remesh_wanted: HashSet<ChunkPos>,
    /// Loaded chunks to generate again (their edits were discarded, or an edit came
    /// while they were being generated); the old mesh stays until the new one arrives.
    pub(super) reload: HashSet<ChunkPos>,
    /// Chunk the wanted set was computed around, and the view distance then.
    pub(super) wanted_for: Option<(ChunkPos, u32)>,
    /// Chunks no longer wanted that still cover their place on screen because the
    /// coarse chunk replacing them is not loaded yet (set by the horizon, at most
    /// [`Chunks::max_kept`], the nearest): not unloaded.
    pub(super) kept: HashSet<ChunkPos>,
    /// The world epoch chunks are made for now.
    pub(super) epoch: u64,
}

impl WorldChunks {
    /// Whether loaded chunk `c` is of the current epoch (not waiting to be made
    /// again after a reshape).
    pub(super) fn is_current(&self, c: ChunkPos) -> bool {
        self.loaded.get(&c).is_some_and(|lc| lc.epoch == self.epoch)
    }
}

/// The loaded full-detail chunks and the work pending on them.
#[derive(Resource, Default)]
pub struct Chunks {
    /// The current world's chunks and work.
    pub(super) world: WorldChunks,
    /// Bumped whenever chunks load or unload (across worlds).
    changes: u64,
}

/// Water reads the loaded chunks: a block of a chunk not loaded is unknown to it.
impl terravox_edits::fluid::Cells for Chunks {
    fn block(&self, p: BlockPos) -> Option<Block> {
        Chunks::block(self, p)
    }
}

/// A full-detail chunk's key in the pipeline.
pub(super) fn key(p: ChunkPos) -> LodPos {
    LodPos::new(0, p)
}

impl Chunks {
    /// Forgets everything about the current world: loaded chunks, tasks (dropping a
    /// task cancels it), results, queues; chunks are made for world epoch `epoch`
    /// from now on. Returns how many tasks and results were dropped.
    pub(crate) fn clear(&mut self, epoch: u64) -> usize {
        let dropped = self.world.pipeline.pending();
        self.world = WorldChunks {
            epoch,
            ..WorldChunks::default()
        };
        self.note_change();
        dropped
    }

    /// The world was regenerated in place (epoch `epoch`): every loaded chunk is made
    /// again, nearest first, and stays (blocks and mesh) until its new version
    /// replaces it. Remeshes of the old blocks are dropped.
    pub(crate) fn reshape(&mut self, epoch: u64) {
        let w = &mut self.world;
        w.epoch = epoch;
        w.pipeline.rewind();
        w.remesh.clear();
        w.remesh_wanted.clear();
        w.reload.clear();
        self.note_change();
    }

    /// Notes that chunks loaded or unloaded.
    pub(super) fn note_change(&mut self) {
        self.changes += 1;
    }

    /// A counter bumped whenever chunks load or unload.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// Mesh bytes of the loaded chunks on the GPU.
    pub fn mesh_bytes(&self) -> usize {
        self.world.loaded.values().map(|c| c.bytes).sum()
    }

    /// Whether every wanted chunk has started (is loaded, in flight or ready).
    pub(crate) fn all_started(&self) -> bool {
        self.world.pipeline.all_started() && self.world.reload.is_empty()
    }

    /// The block at a world position, if its chunk is loaded.
    pub fn block(&self, p: BlockPos) -> Option<Block> {
        let (c, l) = p.to_chunk();
        self.world
            .loaded
            .get(&c)
            .map(|lc| lc.blocks.get(l[0], l[1], l[2]))
    }

    /// The blocks of a loaded chunk, padding included.
    pub fn blocks(&self, c: ChunkPos) -> Option<&Arc<Chunk>> {
        self.world.loaded.get(&c).map(|lc| &lc.blocks)
    }

    /// The biome tints of a loaded chunk, if it has any.
    pub fn tints(&self, c: ChunkPos) -> Option<&ColumnTints> {
        self.world.loaded.get(&c).and_then(|lc| lc.tints.as_deref())
    }

    /// Whether chunk `c` is loaded.
    pub fn is_loaded(&self, c: ChunkPos) -> bool {
        self.world.loaded.contains_key(&c)
    }

    /// The loaded chunks' positions.
    pub fn loaded(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        self.world.loaded.keys().copied()
    }

    /// How many chunks are loaded.
    pub fn loaded_count(&self) -> usize {
        self.world.loaded.len()
    }

    /// Chunks wanted around the stream centre, nearest first.
    pub fn wanted(&self) -> impl ExactSizeIterator<Item = ChunkPos> + '_ {
        self.world.pipeline.wanted().iter().map(|k| k.pos)
    }

    /// Chunks whose generation started (in flight, finished or loaded).
    pub fn started(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        let pending = self.world.pipeline.pending_keys().map(|k| k.pos);
        pending.chain(self.world.loaded.keys().copied())
    }

    /// Generate tasks in flight.
    pub fn in_flight(&self) -> usize {
        self.world.pipeline.in_flight()
    }

    /// Generate and remesh tasks started whose work has not finished yet.
    pub fn tasks_running(&self) -> usize {
        let remeshing = self.world.remesh.values().filter(|t| !t.is_finished());
        self.world.pipeline.tasks_running() + remeshing.count()
    }

    /// Loaded chunks no longer wanted that are kept while they cover a place whose
    /// coarse chunk is not loaded yet.
    pub fn kept_count(&self) -> usize {
        self.world.kept.len()
    }

    /// Keeps `kept` (loaded chunks that cover a place nothing else covers yet) from
    /// unloading, instead of those kept so far.
    pub(crate) fn set_kept(&mut self, kept: impl IntoIterator<Item = ChunkPos>) {
        self.world.kept = kept.into_iter().collect();
    }

    /// The most chunks kept for cover: as many as are wanted, so that however far
    /// the coarse work falls behind, at most about twice the view stays loaded. The
    /// nearest are kept; where the farther ones unload, nothing is drawn (the sky
    /// shows through, behind the player) until their coarse chunk loads, which is
    /// then among the first to start (a hole, see `horizon::schedule`).
    pub fn max_kept(&self) -> usize {
        KEPT_PER_WANTED * self.world.pipeline.wanted().len()
    }

    /// Chunks wanted but not yet loaded (or loaded for an older epoch of the world).
    pub fn missing(&self) -> usize {
        self.wanted().filter(|p| !self.world.is_current(*p)).count()
    }

    /// Whether loaded chunk `c` was meshed (or its mesh is queued); `false` for a
    /// chunk generated while culling hid it, or one not loaded.
    pub fn is_meshed(&self, c: ChunkPos) -> bool {
        self.world.loaded.get(&c).is_some_and(|lc| lc.meshed)
    }

    /// Whether `c` waits for a remesh after an edit.
    pub fn remesh_queued(&self, c: ChunkPos) -> bool {
        self.world.remesh_wanted.contains(&c) || self.world.remesh.contains_key(&c)
    }

    /// Whether every edited chunk has its new mesh.
    pub fn remeshed(&self) -> bool {
        self.world.remesh.is_empty() && self.world.remesh_wanted.is_empty()
    }

    /// Whether every wanted chunk is loaded and nothing is pending.
    pub fn fully_loaded(&self) -> bool {
        !self.world.pipeline.wanted().is_empty()
            && self.missing() == 0
            && self.world.pipeline.pending() == 0
            && self.remeshed()
            && self.world.reload.is_empty()
    }

    /// Sets the block at `p` in every loaded chunk that holds it (its own chunk and
    /// the neighbours whose padding it is) and queues their remesh; tasks and results
    /// for holders not yet loaded are cancelled, so they are generated again with the
    /// edit. Returns `false` (and changes nothing) if `p`'s own chunk is not loaded.
    pub(super) fn set_block(&mut self, p: BlockPos, block: Block) -> bool {
        let w = &mut self.world;
        if !w.loaded.contains_key(&p.to_chunk().0) {
            return false;
        }
        for (c, [x, y, z]) in p.holders() {
            // A reload in progress was generated without this edit: start it again.
            let pending = w.pipeline.cancel(key(c));
            if let Some(lc) = w.loaded.get_mut(&c) {
                if pending {
                    w.reload.insert(c);
                }
                if lc.blocks.get(x, y, z) != block {
                    Arc::make_mut(&mut lc.blocks).set(x, y, z, block);
                    lc.revision += 1;
                    w.remesh_wanted.insert(c);
                }
            }
        }
        true
    }

    /// Generates `chunks` again where they are loaded (after their edits were
    /// discarded), and drops pending work for them.
    pub(crate) fn reload(&mut self, chunks: impl IntoIterator<Item = ChunkPos>) {
        let w = &mut self.world;
        for c in chunks {
            w.pipeline.cancel(key(c));
            w.remesh.remove(&c);
            w.remesh_wanted.remove(&c);
            if w.loaded.contains_key(&c) {
                w.reload.insert(c);
            }
        }
    }
}
