//! Chunk streaming: which chunks should exist around the player, worker tasks that
//! generate and mesh them off the main thread, and applying their results to the
//! chunk store. Chunks are generated with the world's edits laid over them; a chunk
//! whose blocks were edited is remeshed on a worker task.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};
use terravox_edits::{LocalEdit, apply_local};
use terravox_mesher::{MeshBuffers, Surface, mesh_chunk_tinted};
use terravox_voxel::{Chunk, ChunkPos, ColumnTints};
use terravox_worldgen::Generator;

use crate::GameSystems;
use crate::config::ViewDistance;
use crate::world::{
    ActiveWorld, ChunkResult, Chunks, LoadedChunk, ReloadChunks, Remeshed, StreamCenter,
    WorldChanged, WorldEdits,
};

/// Chunks above and below the player's chunk that are kept loaded.
const VERTICAL_RADIUS: i32 = 3;
/// Chunks further than the view distance plus this unload (hysteresis).
const UNLOAD_MARGIN: u32 = 2;
/// Worker tasks in flight at most.
const MAX_IN_FLIGHT: usize = 32;
/// Chunk meshes uploaded per frame at most.
const UPLOADS_PER_FRAME: usize = 12;

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

/// Sent when a chunk's result is applied; the render plugin creates its meshes.
#[derive(Message)]
pub struct ChunkMeshed {
    /// Which chunk.
    pub pos: ChunkPos,
    /// Opaque surface.
    pub opaque: Surface,
    /// Water surface.
    pub water: Surface,
}

/// The streaming plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<StreamStats>()
        .add_message::<ChunkMeshed>()
        .add_systems(
            Update,
            (
                clear_on_world_change.run_if(on_message::<WorldChanged>),
                reload_chunks.run_if(on_message::<ReloadChunks>),
                update_wanted,
                unload_far_chunks,
                spawn_chunk_tasks,
                spawn_remesh_tasks.run_if(|c: Res<Chunks>| !c.remesh_wanted.is_empty()),
                poll_remesh_tasks.run_if(|c: Res<Chunks>| !c.remesh.is_empty()),
                poll_chunk_tasks.run_if(|c: Res<Chunks>| !c.in_flight.is_empty()),
                apply_ready_chunks.run_if(|c: Res<Chunks>| !c.ready.is_empty()),
            )
                .chain()
                .in_set(GameSystems::Stream),
        );
}

/// The chunks to load around `center`: within `view` chunks horizontally (a disc)
/// and [`VERTICAL_RADIUS`] vertically, nearest first (ties broken by position, so the
/// order is deterministic).
pub fn wanted_chunks(center: ChunkPos, view: u32) -> Vec<ChunkPos> {
    let r = view as i32;
    let mut v = Vec::new();
    for dz in -r..=r {
        for dx in -r..=r {
            if dx * dx + dz * dz > r * r {
                continue;
            }
            for dy in -VERTICAL_RADIUS..=VERTICAL_RADIUS {
                v.push(ChunkPos::new(center.x + dx, center.y + dy, center.z + dz));
            }
        }
    }
    v.sort_by_key(|p| (p.distance_squared(center), *p));
    v
}

/// Whether a loaded chunk is far enough to unload: beyond view + margin horizontally,
/// or beyond the vertical range + margin.
pub fn should_unload(center: ChunkPos, pos: ChunkPos, view: u32) -> bool {
    let r = (view + UNLOAD_MARGIN) as i64;
    let (dx, dz) = ((pos.x - center.x) as i64, (pos.z - center.z) as i64);
    dx * dx + dz * dz > r * r || (pos.y - center.y).abs() > VERTICAL_RADIUS + UNLOAD_MARGIN as i32
}

thread_local! {
    static BUFFERS: RefCell<MeshBuffers> = RefCell::new(MeshBuffers::default());
}

/// Meshes a chunk with this thread's reusable buffers.
fn mesh(blocks: &Chunk, tints: Option<&ColumnTints>) -> (Surface, Surface) {
    BUFFERS.with_borrow_mut(|b| {
        mesh_chunk_tinted(blocks, tints, b);
        (b.opaque.clone(), b.water.clone())
    })
}

/// Generates one chunk, lays the edits inside its padded region over it, and meshes
/// it: the body of a worker task.
fn build_chunk(
    generator: &Generator,
    pos: ChunkPos,
    epoch: u64,
    edits: &[LocalEdit],
) -> ChunkResult {
    let t0 = Instant::now();
    let (mut blocks, tints) = generator.generate_tinted(pos);
    apply_local(&mut blocks, edits);
    let (blocks, tints) = (Arc::new(blocks), tints.map(Arc::from));
    let t1 = Instant::now();
    let (opaque, water) = mesh(&blocks, tints.as_deref());
    ChunkResult {
        pos,
        epoch,
        blocks,
        tints,
        opaque,
        water,
        generate: t1 - t0,
        mesh: t1.elapsed(),
    }
}

fn clear_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    mut chunks: ResMut<Chunks>,
    mut commands: Commands,
    mut stats: ResMut<StreamStats>,
) {
    // Runs only when a `WorldChanged` came (its run condition).
    changed.clear();
    for (_, lc) in chunks.loaded.drain() {
        for e in lc.entities {
            commands.entity(e).despawn();
        }
    }
    // Dropping a task cancels it; results already finished are dropped with it.
    stats.dropped += (chunks.in_flight.len() + chunks.ready.len()) as u64;
    chunks.in_flight.clear();
    chunks.ready.clear();
    chunks.remesh.clear();
    chunks.remesh_wanted.clear();
    chunks.reload.clear();
    chunks.wanted_for = None;
}

fn update_wanted(center: Res<StreamCenter>, view: Res<ViewDistance>, mut chunks: ResMut<Chunks>) {
    let c = ChunkPos::containing_f64(center.0.to_array());
    if chunks.wanted_for == Some((c, view.0)) {
        return;
    }
    chunks.wanted = wanted_chunks(c, view.0);
    chunks.wanted_set = chunks.wanted.iter().copied().collect();
    chunks.wanted_for = Some((c, view.0));
}

fn unload_far_chunks(
    center: Res<StreamCenter>,
    view: Res<ViewDistance>,
    mut chunks: ResMut<Chunks>,
    mut commands: Commands,
) {
    let c = ChunkPos::containing_f64(center.0.to_array());
    let far: Vec<ChunkPos> = chunks
        .loaded
        .keys()
        .copied()
        .filter(|&p| should_unload(c, p, view.0))
        .collect();
    for p in far {
        chunks.remesh.remove(&p);
        chunks.remesh_wanted.remove(&p);
        chunks.reload.remove(&p);
        if let Some(lc) = chunks.loaded.remove(&p) {
            for e in lc.entities {
                commands.entity(e).despawn();
            }
        }
    }
    // Tasks for chunks no longer wanted are cancelled.
    let wanted = &chunks.wanted_set;
    let stale: Vec<ChunkPos> = chunks
        .in_flight
        .keys()
        .copied()
        .filter(|p| !wanted.contains(p))
        .collect();
    for p in stale {
        chunks.in_flight.remove(&p);
    }
}

fn reload_chunks(mut asked: MessageReader<ReloadChunks>, mut chunks: ResMut<Chunks>) {
    for ReloadChunks(touched) in asked.read() {
        chunks.reload(touched.iter().copied());
    }
}

fn spawn_chunk_tasks(world: Res<ActiveWorld>, edits: Res<WorldEdits>, mut chunks: ResMut<Chunks>) {
    let pool = AsyncComputeTaskPool::get();
    let chunks = &mut *chunks;
    let spawn = |chunks: &mut Chunks, pos: ChunkPos| {
        let generator = world.generator().clone();
        let epoch = world.epoch();
        let local = edits.edits().for_chunk(pos);
        let task = pool.spawn(async move { build_chunk(&generator, pos, epoch, &local) });
        chunks.in_flight.insert(pos, (epoch, task));
    };
    // Reloads first: the player may be looking at them.
    let reloads: Vec<ChunkPos> = chunks.reload.drain().collect();
    for pos in reloads {
        spawn(chunks, pos);
    }
    for i in 0..chunks.wanted.len() {
        if chunks.in_flight.len() >= MAX_IN_FLIGHT {
            break;
        }
        let pos = chunks.wanted[i];
        if chunks.loaded.contains_key(&pos)
            || chunks.in_flight.contains_key(&pos)
            || chunks.ready.iter().any(|r| r.pos == pos)
        {
            continue;
        }
        spawn(chunks, pos);
    }
}

fn spawn_remesh_tasks(mut chunks: ResMut<Chunks>) {
    let pool = AsyncComputeTaskPool::get();
    let chunks = &mut *chunks;
    for pos in chunks.remesh_wanted.drain() {
        let Some(lc) = chunks.loaded.get(&pos) else {
            continue;
        };
        let (blocks, tints, revision) = (lc.blocks.clone(), lc.tints.clone(), lc.revision);
        // Replacing an older remesh task cancels it.
        let task = pool.spawn(async move {
            let (opaque, water) = mesh(&blocks, tints.as_deref());
            Remeshed {
                revision,
                opaque,
                water,
            }
        });
        chunks.remesh.insert(pos, task);
    }
}

fn poll_remesh_tasks(mut chunks: ResMut<Chunks>, mut meshed: MessageWriter<ChunkMeshed>) {
    let chunks = &mut *chunks;
    let mut done = Vec::new();
    for (pos, task) in chunks.remesh.iter_mut() {
        if let Some(r) = check_ready(task) {
            done.push((*pos, r));
        }
    }
    for (pos, r) in done {
        chunks.remesh.remove(&pos);
        if chunks
            .loaded
            .get(&pos)
            .is_some_and(|lc| lc.revision == r.revision)
        {
            // Sent even when empty, so the old mesh is removed.
            meshed.write(ChunkMeshed {
                pos,
                opaque: r.opaque,
                water: r.water,
            });
        }
    }
}

fn poll_chunk_tasks(mut chunks: ResMut<Chunks>) {
    let chunks = &mut *chunks;
    let mut done = Vec::new();
    for (pos, (_, task)) in chunks.in_flight.iter_mut() {
        if let Some(result) = check_ready(task) {
            done.push((*pos, result));
        }
    }
    for (pos, result) in done {
        chunks.in_flight.remove(&pos);
        chunks.ready.push(result);
    }
}

fn apply_ready_chunks(
    world: Res<ActiveWorld>,
    center: Res<StreamCenter>,
    mut chunks: ResMut<Chunks>,
    mut stats: ResMut<StreamStats>,
    mut meshed: MessageWriter<ChunkMeshed>,
) {
    let start = Instant::now();
    let c = ChunkPos::containing_f64(center.0.to_array());
    // Nearest first.
    chunks
        .ready
        .sort_by_key(|r| std::cmp::Reverse(r.pos.distance_squared(c)));
    let mut uploads = 0;
    while uploads < UPLOADS_PER_FRAME {
        let Some(r) = chunks.ready.pop() else { break };
        stats.chunks += 1;
        stats.generate += r.generate;
        stats.mesh += r.mesh;
        // Reloads of loaded chunks are applied even where no longer wanted (within
        // the unload margin), so no stale blocks stay.
        let wanted = chunks.wanted_set.contains(&r.pos) || chunks.loaded.contains_key(&r.pos);
        if r.epoch != world.epoch() || !wanted {
            stats.dropped += 1;
            continue;
        }
        let has_faces = !r.opaque.is_empty() || !r.water.is_empty();
        // A reloaded chunk keeps its entities until the new mesh replaces them.
        let old = chunks.loaded.remove(&r.pos);
        let replaces = old.as_ref().is_some_and(|o| !o.entities.is_empty());
        chunks.loaded.insert(
            r.pos,
            LoadedChunk {
                blocks: r.blocks,
                tints: r.tints,
                entities: old.map(|o| o.entities).unwrap_or_default(),
                revision: 0,
            },
        );
        if has_faces || replaces {
            uploads += 1;
            meshed.write(ChunkMeshed {
                pos: r.pos,
                opaque: r.opaque,
                water: r.water,
            });
        }
    }
    stats.main_thread = start.elapsed();
}
