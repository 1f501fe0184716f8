//! Chunk streaming: which chunks should exist around the player, worker tasks that
//! generate and mesh them off the main thread, and applying their results.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_mesher::{MeshBuffers, Surface, mesh_chunk};
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};
use terravox_worldgen::Generator;

use crate::config::{ActiveWorld, ViewDistance, WorldChanged};

/// Chunks above and below the player's chunk that are kept loaded.
pub const VERTICAL_RADIUS: i32 = 3;
/// Chunks further than the view distance plus this unload (hysteresis).
pub const UNLOAD_MARGIN: u32 = 2;
/// Worker tasks in flight at most.
pub const MAX_IN_FLIGHT: usize = 32;
/// Chunk meshes uploaded per frame at most.
pub const UPLOADS_PER_FRAME: usize = 12;

/// The point chunks stream around (the player's position).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct StreamCenter(pub Vec3);

/// A loaded chunk: its blocks (for collision and editing) and its mesh entities.
pub struct LoadedChunk {
    /// The blocks, padding included.
    pub blocks: Arc<Chunk>,
    /// Entities drawing it (opaque and water), if it has faces.
    pub entities: Vec<Entity>,
}

/// What a worker returns.
pub struct ChunkResult {
    /// Which chunk.
    pub pos: ChunkPos,
    /// For which world.
    pub epoch: u64,
    /// Its blocks.
    pub blocks: Arc<Chunk>,
    /// Opaque surface.
    pub opaque: Surface,
    /// Water surface.
    pub water: Surface,
    /// Time spent generating.
    pub generate: Duration,
    /// Time spent meshing.
    pub mesh: Duration,
}

/// The streaming state.
#[derive(Resource, Default)]
pub struct Chunks {
    /// Loaded chunks.
    pub loaded: HashMap<ChunkPos, LoadedChunk>,
    /// Tasks in flight and the epoch they were started for.
    pub in_flight: HashMap<ChunkPos, (u64, Task<ChunkResult>)>,
    /// Finished results waiting for an upload slot.
    pub ready: Vec<ChunkResult>,
    /// Wanted chunks, nearest first.
    pub wanted: Vec<ChunkPos>,
    /// The same, as a set.
    pub wanted_set: HashSet<ChunkPos>,
    /// Chunk the wanted set was computed around, and the view distance then.
    wanted_for: Option<(ChunkPos, u32)>,
}

impl Chunks {
    /// The block at a world position, if its chunk is loaded.
    pub fn block(&self, p: BlockPos) -> Option<Block> {
        let (c, l) = p.to_chunk();
        self.loaded
            .get(&c)
            .map(|lc| lc.blocks.get(l[0], l[1], l[2]))
    }

    /// Chunks wanted but not yet loaded.
    pub fn missing(&self) -> usize {
        self.wanted
            .iter()
            .filter(|p| !self.loaded.contains_key(p))
            .count()
    }

    /// Whether every wanted chunk is loaded and nothing is pending.
    pub fn fully_loaded(&self) -> bool {
        !self.wanted.is_empty()
            && self.missing() == 0
            && self.in_flight.is_empty()
            && self.ready.is_empty()
    }
}

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
    /// Main-thread time of the last frame spent applying finished chunks.
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

/// Streaming systems, in order.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum StreamingSystems {
    /// Wanted set, unloading, task spawning.
    Plan,
    /// Polling and applying results.
    Apply,
}

/// The streaming plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Chunks>()
        .init_resource::<StreamStats>()
        .init_resource::<StreamCenter>()
        .add_message::<ChunkMeshed>()
        .configure_sets(
            Update,
            (StreamingSystems::Plan, StreamingSystems::Apply).chain(),
        )
        .add_systems(
            Update,
            (
                (
                    clear_on_world_change,
                    update_wanted,
                    unload_far_chunks,
                    spawn_chunk_tasks,
                )
                    .chain()
                    .in_set(StreamingSystems::Plan),
                (poll_chunk_tasks, apply_ready_chunks)
                    .chain()
                    .in_set(StreamingSystems::Apply),
            ),
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

/// Generates and meshes one chunk: the body of a worker task.
pub fn build_chunk(generator: &Generator, pos: ChunkPos, epoch: u64) -> ChunkResult {
    let t0 = Instant::now();
    let blocks = Arc::new(generator.generate(pos));
    let t1 = Instant::now();
    let (opaque, water) = BUFFERS.with_borrow_mut(|b| {
        mesh_chunk(&blocks, b);
        (b.opaque.clone(), b.water.clone())
    });
    ChunkResult {
        pos,
        epoch,
        blocks,
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
    if changed.read().count() == 0 {
        return;
    }
    for (_, lc) in chunks.loaded.drain() {
        for e in lc.entities {
            commands.entity(e).despawn();
        }
    }
    // Dropping a task cancels it; results already finished are dropped with it.
    stats.dropped += (chunks.in_flight.len() + chunks.ready.len()) as u64;
    chunks.in_flight.clear();
    chunks.ready.clear();
    chunks.wanted_for = None;
}

fn update_wanted(center: Res<StreamCenter>, view: Res<ViewDistance>, mut chunks: ResMut<Chunks>) {
    let c = ChunkPos::containing(center.0.to_array());
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
    let c = ChunkPos::containing(center.0.to_array());
    let far: Vec<ChunkPos> = chunks
        .loaded
        .keys()
        .copied()
        .filter(|&p| should_unload(c, p, view.0))
        .collect();
    for p in far {
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

fn spawn_chunk_tasks(world: Res<ActiveWorld>, mut chunks: ResMut<Chunks>) {
    let pool = AsyncComputeTaskPool::get();
    let chunks = &mut *chunks;
    for &pos in &chunks.wanted {
        if chunks.in_flight.len() >= MAX_IN_FLIGHT {
            break;
        }
        if chunks.loaded.contains_key(&pos)
            || chunks.in_flight.contains_key(&pos)
            || chunks.ready.iter().any(|r| r.pos == pos)
        {
            continue;
        }
        let generator = world.generator.clone();
        let epoch = world.epoch;
        let task = pool.spawn(async move { build_chunk(&generator, pos, epoch) });
        chunks.in_flight.insert(pos, (epoch, task));
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
    let c = ChunkPos::containing(center.0.to_array());
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
        if r.epoch != world.epoch || !chunks.wanted_set.contains(&r.pos) {
            stats.dropped += 1;
            continue;
        }
        let has_faces = !r.opaque.is_empty() || !r.water.is_empty();
        chunks.loaded.insert(
            r.pos,
            LoadedChunk {
                blocks: r.blocks,
                entities: Vec::new(),
            },
        );
        if has_faces {
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
