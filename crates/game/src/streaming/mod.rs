//! Chunk streaming: which full-detail chunks should exist around the player
//! ([`view`]), worker tasks that generate and mesh them off the main thread on the
//! [`pipeline`] every level of detail shares, and applying their results to the
//! chunk store ([`Chunks`]). Chunks are generated with the world's edits laid over
//! them; a chunk whose blocks were edited is remeshed on a worker task (the tasks'
//! bodies are in [`worker`]). Cave culling
//! ([`culling`]) decides which are drawn and meshed. The render plugin draws what
//! [`ChunkMeshed`] messages carry and removes what [`ChunkUnloaded`] ones name.

mod blocks;
mod chunks;
mod culling;
pub(crate) mod pipeline;
mod view;
pub(crate) mod worker;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::AsyncComputeTaskPool;
use terravox_mesher::Surface;
use terravox_voxel::ChunkPos;
use terravox_worldgen::LodPos;

use crate::config::{StreamBudget, ViewDistance};
use crate::schedule::GameSystems;
use crate::world::{
    ActiveWorld, ReloadChunks, StreamCenter, WorldAuthority, WorldChanged, WorldReshaped,
};
pub use blocks::WorldBlocks;
pub use chunks::Chunks;
use chunks::{LoadedChunk, key};
pub use culling::{Culling, CullingCounts};
use pipeline::Drained;
pub use view::{in_view, should_unload, wanted_chunks};
use worker::{build_chunk, remesh};

/// Worker tasks in flight at most.
const MAX_IN_FLIGHT: usize = 32;

/// Running averages for the stats overlay.
#[derive(Resource, Default, Debug, Clone)]
pub struct StreamStats {
    /// Chunks finished.
    pub chunks: u64,
    /// Total generation time.
    pub generate: Duration,
    /// Total meshing time.
    pub mesh: Duration,
    /// Results dropped because their world was replaced or they were no longer wanted.
    pub dropped: u64,
    /// Main-thread time spent applying finished chunks, in the last frame that had some.
    pub main_thread: Duration,
}

/// Sent when a chunk of any level was meshed (again); the render plugin replaces
/// its meshes with these (none where both are empty).
#[derive(Message)]
pub struct ChunkMeshed {
    /// Which chunk (level 0: full detail).
    pub lod: LodPos,
    /// Opaque surface.
    pub opaque: Surface,
    /// Water surface.
    pub water: Surface,
}

/// Sent when a chunk of any level unloaded; the render plugin removes its meshes.
#[derive(Message, Clone, Copy, Debug)]
pub struct ChunkUnloaded(pub LodPos);

/// The streaming plugin; `culling` turns cave culling on.
pub(crate) fn plugin(culling: bool) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.init_resource::<StreamStats>()
            .init_resource::<Chunks>()
            .insert_resource(Culling::new(culling))
            .add_message::<ChunkMeshed>()
            .add_message::<ChunkUnloaded>()
            .add_systems(
                Update,
                (
                    clear_on_world_change.run_if(on_message::<WorldChanged>),
                    remake_on_reshape.run_if(on_message::<WorldReshaped>),
                    reload_chunks.run_if(on_message::<ReloadChunks>),
                    update_wanted,
                    unload_far_chunks,
                    culling::walk_culling,
                    spawn_chunk_tasks,
                    spawn_remesh_tasks.run_if(|c: Res<Chunks>| !c.world.remesh_wanted.is_empty()),
                    poll_remesh_tasks.run_if(|c: Res<Chunks>| !c.world.remesh.is_empty()),
                    poll_chunk_tasks.run_if(|c: Res<Chunks>| c.world.pipeline.in_flight() > 0),
                    apply_ready_chunks.run_if(|c: Res<Chunks>| c.world.pipeline.has_ready()),
                )
                    .chain()
                    .in_set(GameSystems::Stream),
            );
    }
}

fn clear_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    mut chunks: ResMut<Chunks>,
    mut stats: ResMut<StreamStats>,
    mut culling: ResMut<Culling>,
) {
    // Runs only when a `WorldChanged` came (its run condition); the render plugin
    // removes every mesh on the same message.
    changed.clear();
    culling.clear();
    stats.dropped += chunks.clear(world.epoch()) as u64;
}

/// The world was regenerated in place: every loaded chunk is made again and replaced
/// when ready (the old one is drawn until then).
fn remake_on_reshape(
    mut reshaped: MessageReader<WorldReshaped>,
    world: Res<ActiveWorld>,
    mut chunks: ResMut<Chunks>,
) {
    reshaped.clear();
    chunks.reshape(world.epoch());
}

fn update_wanted(center: Res<StreamCenter>, view: Res<ViewDistance>, mut chunks: ResMut<Chunks>) {
    let c = ChunkPos::containing_f64(center.0.to_array());
    let w = &mut chunks.world;
    if w.wanted_for == Some((c, view.0)) {
        return;
    }
    w.pipeline
        .set_wanted(wanted_chunks(c, view.0).into_iter().map(key).collect());
    w.wanted_for = Some((c, view.0));
}

fn unload_far_chunks(
    center: Res<StreamCenter>,
    view: Res<ViewDistance>,
    mut chunks: ResMut<Chunks>,
    mut culling: ResMut<Culling>,
    mut unloaded: MessageWriter<ChunkUnloaded>,
) {
    let c = ChunkPos::containing_f64(center.0.to_array());
    let w = &mut chunks.world;
    let far: Vec<ChunkPos> = w
        .loaded
        .keys()
        .copied()
        .filter(|&p| should_unload(c, p, view.0) && !w.kept.contains(&p))
        .collect();
    if far.is_empty() {
        return;
    }
    culling.bypass_change_detection().note_opened();
    for p in far {
        w.remesh.remove(&p);
        w.remesh_wanted.remove(&p);
        w.reload.remove(&p);
        w.loaded.remove(&p);
        unloaded.write(ChunkUnloaded(key(p)));
    }
    chunks.note_change();
}

fn reload_chunks(mut asked: MessageReader<ReloadChunks>, mut chunks: ResMut<Chunks>) {
    for ReloadChunks(touched) in asked.read() {
        chunks.reload(touched.iter().copied());
    }
}

fn spawn_chunk_tasks(
    world: Res<ActiveWorld>,
    edits: Res<WorldAuthority>,
    culling: Res<Culling>,
    mut chunks: ResMut<Chunks>,
) {
    let w = &mut chunks.world;
    let epoch = world.epoch();
    let work = |pos: ChunkPos| {
        let generator = world.generator().clone();
        let local = edits.edits().for_chunk(pos);
        let meshed = !culling.hides(pos);
        async move { build_chunk(&generator, pos, &local, meshed) }
    };
    // Reloads first: the player may be looking at them.
    for pos in w.reload.drain() {
        w.pipeline.restart(key(pos), epoch, work(pos));
    }
    // Nearest first, and the chunks culling hides only once all others are started;
    // chunks of an older epoch (a reshape) are made again.
    let loaded = &w.loaded;
    w.pipeline.start(
        MAX_IN_FLIGHT,
        epoch,
        |k| loaded.get(&k.pos).is_some_and(|lc| lc.epoch == epoch),
        |k| culling.hides(k.pos),
        |k| work(k.pos),
    );
}

fn spawn_remesh_tasks(mut chunks: ResMut<Chunks>) {
    let pool = AsyncComputeTaskPool::get();
    let w = &mut chunks.world;
    for pos in w.remesh_wanted.drain() {
        let Some(lc) = w.loaded.get(&pos) else {
            continue;
        };
        let (blocks, tints, revision) = (lc.blocks.clone(), lc.tints.clone(), lc.revision);
        // Replacing an older remesh task cancels it.
        let task = pool.spawn(async move { remesh(&blocks, tints.as_deref(), revision) });
        w.remesh.insert(pos, task);
    }
}

fn poll_remesh_tasks(
    mut chunks: ResMut<Chunks>,
    mut culling: ResMut<Culling>,
    mut meshed: MessageWriter<ChunkMeshed>,
) {
    let w = &mut chunks.world;
    let mut done = Vec::new();
    w.remesh
        .retain(|&p, task| match bevy::tasks::futures::check_ready(task) {
            Some(r) => {
                done.push((p, r));
                false
            }
            None => true,
        });
    for (pos, r) in done {
        let Some(lc) = w.loaded.get_mut(&pos) else {
            continue;
        };
        if lc.revision == r.revision {
            if lc.graph != r.graph {
                lc.graph = r.graph;
                culling.bypass_change_detection().note_opened();
            }
            lc.meshed = true;
            lc.has_faces = !r.opaque.is_empty() || !r.water.is_empty();
            lc.bytes = r.opaque.gpu_bytes() + r.water.gpu_bytes();
            // Sent even when empty, so the old mesh is removed.
            meshed.write(ChunkMeshed {
                lod: key(pos),
                opaque: r.opaque,
                water: r.water,
            });
        }
    }
}

fn poll_chunk_tasks(mut chunks: ResMut<Chunks>) {
    chunks.world.pipeline.poll();
}

fn apply_ready_chunks(
    world: Res<ActiveWorld>,
    center: Res<StreamCenter>,
    mut chunks: ResMut<Chunks>,
    mut stats: ResMut<StreamStats>,
    mut culling: ResMut<Culling>,
    mut meshed: MessageWriter<ChunkMeshed>,
    budget: Res<StreamBudget>,
) {
    let start = Instant::now();
    let c = ChunkPos::containing_f64(center.0.to_array());
    let chunks = &mut *chunks;
    let w = &mut chunks.world;
    let loaded = &mut w.loaded;
    let epoch = world.epoch();
    let mut applied = 0;
    let stats = &mut *stats;
    let dropped = w.pipeline.drain(
        budget.uploads,
        world.epoch(),
        // Nearest first.
        |k, _| k.pos.distance_squared(c),
        |k, r, wanted| {
            stats.chunks += 1;
            stats.generate += r.generate;
            stats.mesh += r.mesh;
            // Reloads of loaded chunks are applied even where no longer wanted
            // (within the unload margin), so no stale blocks stay.
            let replaces = loaded.get(&k.pos).map(|o| o.has_faces);
            if !wanted && replaces.is_none() {
                return Drained::Dropped;
            }
            applied += 1;
            let has_faces = !r.opaque.is_empty() || !r.water.is_empty();
            loaded.insert(
                k.pos,
                LoadedChunk {
                    blocks: r.blocks,
                    tints: r.tints,
                    revision: 0,
                    graph: r.graph,
                    meshed: r.meshed,
                    has_faces,
                    bytes: r.opaque.gpu_bytes() + r.water.gpu_bytes(),
                    epoch,
                },
            );
            // A reloaded chunk keeps its meshes until the new ones replace them.
            if !has_faces && replaces != Some(true) {
                return Drained::Applied;
            }
            meshed.write(ChunkMeshed {
                lod: k,
                opaque: r.opaque,
                water: r.water,
            });
            Drained::Counted
        },
    );
    stats.dropped += dropped as u64;
    if applied > 0 {
        culling.bypass_change_detection().note_loaded();
        chunks.note_change();
    }
    stats.main_thread = start.elapsed();
}
