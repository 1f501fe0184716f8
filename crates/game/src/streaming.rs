//! Chunk streaming: which chunks should exist around the player, worker tasks that
//! generate and mesh them off the main thread, and applying their results to the
//! chunk store. Chunks are generated with the world's edits laid over them; a chunk
//! whose blocks were edited is remeshed on a worker task.
//!
//! Cave culling decides what is drawn and meshed: each chunk's face graph comes with
//! its mesh, and [`Culling`] walks them from the camera's chunk whenever the camera
//! enters another chunk or a graph changes ([`terravox_mesher::visibility`]). Chunks
//! the walk cannot reach are hidden; those it could not reach when they were wanted
//! (deep rock around closed caves) are generated without a mesh, after the reachable
//! ones, and meshed once the walk reaches them.

use std::cell::RefCell;
use std::hash::Hash;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_edits::{LocalEdit, apply_local};
use terravox_mesher::visibility::{FaceGraph, Reach, face_graph, reachable};
use terravox_mesher::{MeshBuffers, Surface, mesh_chunk_tinted};
use terravox_voxel::{Chunk, ChunkPos, ColumnTints};
use terravox_worldgen::Generator;

use crate::GameSystems;
use crate::config::{StreamBudget, ViewDistance};
use crate::editing::eye_block;
use crate::player::Player;
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

/// Cave culling: the chunks the last walk from the camera's chunk through the loaded
/// chunks' face graphs could not reach, which are neither drawn nor meshed.
#[derive(Resource, Default)]
pub struct Culling {
    /// The last walk.
    reach: Option<Reach>,
    /// The chunk holding the eye when it was walked.
    camera: Option<ChunkPos>,
    /// Something may have opened since (a graph changed, chunks unloaded): walk now.
    opened: bool,
    /// Chunks loaded since, and frames since the walk. Loading a chunk can only hide
    /// others (it counted as open), so these walks wait for [`WALK_AFTER_LOADS`]
    /// frames.
    loaded: bool,
    frames: u32,
    /// Main-thread time of the last walk.
    pub walk_time: Duration,
    /// Culling is off (`--no-culling`): nothing walks, nothing is hidden.
    off: bool,
}

impl Culling {
    /// Whether culling hides chunk `p`: the walk did not reach it.
    pub fn hides(&self, p: ChunkPos) -> bool {
        self.reach.as_ref().is_some_and(|r| r.hides(p))
    }

    /// What culling does to the loaded chunks now.
    pub fn counts(&self, chunks: &Chunks) -> CullingCounts {
        let mut c = CullingCounts::default();
        for (&p, lc) in &chunks.loaded {
            // A chunk not meshed has faces if it is not all one block (counting those
            // of stone and ore only, which have none unless a neighbour is open).
            let faces = lc.has_faces || (!lc.meshed && !lc.blocks.is_uniform());
            c.with_faces += usize::from(faces);
            c.drawn += usize::from(lc.has_faces && !self.hides(p));
            c.unmeshed += usize::from(!lc.meshed);
        }
        c
    }
}

/// Frames between walks while chunks only load (each walk costs ~0.16 ms at view
/// distance 12).
const WALK_AFTER_LOADS: u32 = 8;

/// Loaded chunks by what culling does to them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CullingCounts {
    /// Chunks whose mesh has faces (or would, for those not meshed): what would be
    /// drawn without culling.
    pub with_faces: usize,
    /// Those of them culling lets through.
    pub drawn: usize,
    /// Chunks generated but not meshed (hidden since they loaded).
    pub unmeshed: usize,
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

/// The streaming plugin; `culling` turns cave culling on.
pub(crate) fn plugin(culling: bool) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.init_resource::<StreamStats>()
            .insert_resource(Culling {
                off: !culling,
                ..default()
            })
            .add_message::<ChunkMeshed>()
            .add_systems(
                Update,
                (
                    clear_on_world_change.run_if(on_message::<WorldChanged>),
                    reload_chunks.run_if(on_message::<ReloadChunks>),
                    update_wanted,
                    unload_far_chunks,
                    walk_culling,
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
}

/// The chunks to load around `center`: within `view` chunks horizontally (a disc)
/// and [`VERTICAL_RADIUS`] vertically, nearest first (ties broken by position, so the
/// order is deterministic).
pub fn wanted_chunks(center: ChunkPos, view: u32) -> Vec<ChunkPos> {
    let r = view as i32;
    let mut v = Vec::new();
    for dz in -r..=r {
        for dx in -r..=r {
            for dy in -VERTICAL_RADIUS..=VERTICAL_RADIUS {
                let p = ChunkPos::new(center.x + dx, center.y + dy, center.z + dz);
                if in_view(center, p, view) {
                    v.push(p);
                }
            }
        }
    }
    v.sort_by_key(|p| (p.distance_squared(center), *p));
    v
}

/// Whether chunk `p` is in the view around `center`: within `view` chunks
/// horizontally (a disc) and [`VERTICAL_RADIUS`] vertically.
pub fn in_view(center: ChunkPos, p: ChunkPos, view: u32) -> bool {
    let (dx, dz) = ((p.x - center.x) as i64, (p.z - center.z) as i64);
    let r = view as i64;
    dx * dx + dz * dz <= r * r && (p.y - center.y).abs() <= VERTICAL_RADIUS
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
fn mesh(blocks: &Chunk, tints: Option<&ColumnTints>) -> (Surface, Surface, FaceGraph) {
    BUFFERS.with_borrow_mut(|b| {
        mesh_chunk_tinted(blocks, tints, b);
        (b.opaque.clone(), b.water.clone(), b.graph)
    })
}

/// Generates one chunk, lays the edits inside its padded region over it, and meshes
/// it (or only finds its face graph, unless `meshed`): the body of a worker task.
fn build_chunk(
    generator: &Generator,
    pos: ChunkPos,
    epoch: u64,
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
        pos,
        epoch,
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

fn clear_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    mut chunks: ResMut<Chunks>,
    mut commands: Commands,
    mut stats: ResMut<StreamStats>,
    mut culling: ResMut<Culling>,
) {
    // Runs only when a `WorldChanged` came (its run condition).
    changed.clear();
    *culling = Culling {
        off: culling.off,
        ..default()
    };
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
    chunks.started_up_to = 0;
    chunks.kept.clear();
    chunks.changes += 1;
}

fn update_wanted(center: Res<StreamCenter>, view: Res<ViewDistance>, mut chunks: ResMut<Chunks>) {
    let c = ChunkPos::containing_f64(center.0.to_array());
    if chunks.wanted_for == Some((c, view.0)) {
        return;
    }
    chunks.wanted = wanted_chunks(c, view.0);
    chunks.wanted_set = chunks.wanted.iter().copied().collect();
    chunks.wanted_for = Some((c, view.0));
    chunks.started_up_to = 0;
}

fn unload_far_chunks(
    center: Res<StreamCenter>,
    view: Res<ViewDistance>,
    mut chunks: ResMut<Chunks>,
    mut culling: ResMut<Culling>,
    mut commands: Commands,
) {
    let c = ChunkPos::containing_f64(center.0.to_array());
    let far: Vec<ChunkPos> = chunks
        .loaded
        .keys()
        .copied()
        .filter(|&p| should_unload(c, p, view.0) && !chunks.kept.contains(&p))
        .collect();
    if !far.is_empty() {
        culling.bypass_change_detection().opened = true;
        chunks.changes += 1;
    }
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
    if !stale.is_empty() {
        chunks.started_up_to = 0;
    }
    for p in stale {
        chunks.in_flight.remove(&p);
    }
}

fn reload_chunks(mut asked: MessageReader<ReloadChunks>, mut chunks: ResMut<Chunks>) {
    for ReloadChunks(touched) in asked.read() {
        chunks.reload(touched.iter().copied());
    }
}

/// Walks the face graphs from the camera's chunk when the camera entered another
/// chunk or a graph changed, and queues meshes for the chunks generated while hidden
/// that it reaches now.
fn walk_culling(
    player: Query<&Player>,
    view: Res<ViewDistance>,
    mut culling: ResMut<Culling>,
    mut chunks: ResMut<Chunks>,
) {
    let Ok(player) = player.single() else { return };
    if culling.off {
        return;
    }
    let camera = eye_block(player).to_chunk().0;
    let c = culling.bypass_change_detection();
    c.frames += 1;
    let loads_due = c.loaded && c.frames >= WALK_AFTER_LOADS;
    if c.camera == Some(camera) && !c.opened && !loads_due {
        return;
    }
    let start = Instant::now();
    let chunks = &mut *chunks;
    // The box holds every chunk that may be loaded (the eye may be a chunk above the
    // feet that loading follows).
    let vertical = (VERTICAL_RADIUS + 1) as u32 + UNLOAD_MARGIN;
    let graphs = chunks.loaded.iter().map(|(&p, lc)| (p, lc.graph));
    let reach = reachable(camera, view.0 + UNLOAD_MARGIN, vertical, vertical, graphs);
    for (&pos, lc) in chunks.loaded.iter_mut() {
        if !lc.meshed && !reach.hides(pos) {
            lc.meshed = true;
            chunks.remesh_wanted.insert(pos);
        }
    }
    *culling = Culling {
        reach: Some(reach),
        camera: Some(camera),
        opened: false,
        loaded: false,
        frames: 0,
        walk_time: start.elapsed(),
        off: false,
    };
}

fn spawn_chunk_tasks(
    world: Res<ActiveWorld>,
    edits: Res<WorldEdits>,
    culling: Res<Culling>,
    mut chunks: ResMut<Chunks>,
) {
    let pool = AsyncComputeTaskPool::get();
    let chunks = &mut *chunks;
    let spawn = |chunks: &mut Chunks, pos: ChunkPos| {
        let generator = world.generator().clone();
        let epoch = world.epoch();
        let local = edits.edits().for_chunk(pos);
        let meshed = !culling.hides(pos);
        let task = pool.spawn(async move { build_chunk(&generator, pos, epoch, &local, meshed) });
        chunks.in_flight.insert(pos, (epoch, task));
    };
    // Reloads first: the player may be looking at them.
    let reloads: Vec<ChunkPos> = chunks.reload.drain().collect();
    for pos in reloads {
        spawn(chunks, pos);
    }
    // Nearest first, and the chunks culling hides only once all others are started.
    let mut hidden = Vec::new();
    let mut i = chunks.started_up_to;
    while i < chunks.wanted.len() && chunks.in_flight.len() < MAX_IN_FLIGHT {
        i += 1;
        let pos = chunks.wanted[i - 1];
        if chunks.loaded.contains_key(&pos)
            || chunks.in_flight.contains_key(&pos)
            || chunks.ready.iter().any(|r| r.pos == pos)
        {
            continue;
        }
        if culling.hides(pos) {
            hidden.push((i - 1, pos));
        } else {
            spawn(chunks, pos);
        }
    }
    // The next frame goes on from the first chunk not started.
    let mut resume = i;
    for (k, pos) in hidden {
        if chunks.in_flight.len() >= MAX_IN_FLIGHT {
            resume = k;
            break;
        }
        spawn(chunks, pos);
    }
    chunks.started_up_to = resume;
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
            let (opaque, water, graph) = mesh(&blocks, tints.as_deref());
            Remeshed {
                revision,
                opaque,
                water,
                graph,
            }
        });
        chunks.remesh.insert(pos, task);
    }
}

fn poll_remesh_tasks(
    mut chunks: ResMut<Chunks>,
    mut culling: ResMut<Culling>,
    mut meshed: MessageWriter<ChunkMeshed>,
) {
    let chunks = &mut *chunks;
    for (pos, r) in take_finished(&mut chunks.remesh, |task| task) {
        let Some(lc) = chunks.loaded.get_mut(&pos) else {
            continue;
        };
        if lc.revision == r.revision {
            if lc.graph != r.graph {
                lc.graph = r.graph;
                culling.bypass_change_detection().opened = true;
            }
            lc.meshed = true;
            lc.has_faces = !r.opaque.is_empty() || !r.water.is_empty();
            lc.bytes = r.opaque.gpu_bytes() + r.water.gpu_bytes();
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
    let done = take_finished(&mut chunks.in_flight, |(_, task)| task);
    chunks.ready.extend(done.into_iter().map(|(_, r)| r));
}

/// Removes the finished tasks from `in_flight` (whose values hold a task that
/// `task` picks out) and returns their keys and results, without waiting on any.
pub(crate) fn take_finished<K: Copy + Eq + Hash, V, R>(
    in_flight: &mut HashMap<K, V>,
    task: impl Fn(&mut V) -> &mut Task<R>,
) -> Vec<(K, R)> {
    let mut done = Vec::new();
    in_flight.retain(|k, v| match check_ready(task(v)) {
        Some(r) => {
            done.push((*k, r));
            false
        }
        None => true,
    });
    done
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
    // Nearest first.
    chunks
        .ready
        .sort_by_key(|r| std::cmp::Reverse(r.pos.distance_squared(c)));
    let mut uploads = 0;
    while uploads < budget.uploads {
        let Some(r) = chunks.ready.pop() else { break };
        stats.chunks += 1;
        stats.generate += r.generate;
        stats.mesh += r.mesh;
        // Reloads of loaded chunks are applied even where no longer wanted (within
        // the unload margin), so no stale blocks stay.
        let wanted = chunks.wanted_set.contains(&r.pos) || chunks.loaded.contains_key(&r.pos);
        if r.epoch != world.epoch() || !wanted {
            stats.dropped += 1;
            chunks.started_up_to = 0;
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
                graph: r.graph,
                meshed: r.meshed,
                has_faces,
                bytes: r.opaque.gpu_bytes() + r.water.gpu_bytes(),
            },
        );
        culling.bypass_change_detection().loaded = true;
        chunks.changes += 1;
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
