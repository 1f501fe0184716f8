//! The horizon's systems, in `Horizon`: clear on a world switch, remake on a
//! reshape, the wanted coarse leaves for the player's chunk and the direction of
//! travel, polling and applying coarse tasks, remaking those an edit changed, the
//! walk over the levels and unloading, and starting tasks by urgency; and the body of
//! a coarse task ([`build`]).

use std::time::{Duration, Instant};

use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::tasks::AsyncComputeTaskPool;
use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, LodPos};

use super::memory::{self, Levels};
use super::rings::{Detail, Rings};
use super::schedule::{Depth, Urgency};
use super::state::{CoarseChunk, CoarseResult, Horizon, HorizonWorld};
use crate::config::{HorizonDistance, HorizonMemory, StreamBudget, ViewDistance};
use crate::schedule::GameSystems;
use crate::streaming::pipeline::Drained;
use crate::streaming::worker::mesh;
use crate::streaming::{ChunkMeshed, ChunkUnloaded, Chunks};
use crate::world::{ActiveWorld, StreamCenter, WorldAuthority, WorldChanged, WorldReshaped};

/// Frames between walks over the tree while chunks only load.
const RESOLVE_EVERY: u32 = 4;
/// A step of the stream centre longer than this in one frame (blocks) is a jump,
/// not travel (a spawn, `--at`).
const JUMP: f64 = 64.0;
/// The weight of the last frame's step in the direction of travel.
const TRAVEL_WEIGHT: f64 = 0.1;
/// The mean task time assumed before any coarse chunk finished, and the weight of
/// each finished one in the running mean.
const FIRST_TASK_TIME: Duration = Duration::from_millis(1);
const TASK_TIME_WEIGHT: f64 = 0.05;

/// The horizon plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Horizon>().add_systems(
        Update,
        (
            clear_on_world_change.run_if(on_message::<WorldChanged>),
            remake_on_reshape.run_if(on_message::<WorldReshaped>),
            update_wanted,
            poll_tasks.run_if(|h: Res<Horizon>| h.world.pipeline.in_flight() > 0),
            apply_ready.run_if(|h: Res<Horizon>| h.world.pipeline.has_ready()),
            rebuild_edited.run_if(|e: Res<WorldAuthority>| e.has_changed()),
            resolve_and_unload,
            spawn_tasks,
        )
            .chain()
            .in_set(GameSystems::Horizon),
    );
}

/// Generates and meshes one coarse chunk with the player's edits in it: the body of
/// a worker task.
fn build(
    generator: &Generator,
    edits: &terravox_edits::Edits,
    lod: LodPos,
    urgency: Urgency,
) -> CoarseResult {
    let t0 = Instant::now();
    let (mut blocks, tints) = generator.generate_coarse(lod);
    edits.apply_coarse(lod, &mut blocks);
    let (opaque, water, _) = mesh(&blocks, tints.as_deref());
    CoarseResult {
        urgency,
        opaque,
        water,
        time: t0.elapsed(),
    }
}

fn clear_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    mut horizon: ResMut<Horizon>,
    mut chunks: ResMut<Chunks>,
) {
    // The render plugin removes every mesh on the same message; dropping a task
    // cancels it.
    changed.clear();
    horizon.world = HorizonWorld {
        epoch: world.epoch(),
        ..default()
    };
    chunks.set_kept([]);
}

/// The world was regenerated in place: every loaded coarse chunk is made again, most
/// urgent first, and stays drawn until its new version replaces it.
fn remake_on_reshape(
    mut reshaped: MessageReader<WorldReshaped>,
    world: Res<ActiveWorld>,
    mut horizon: ResMut<Horizon>,
) {
    reshaped.clear();
    let w = &mut horizon.world;
    w.epoch = world.epoch();
    w.queue_stale = true;
    w.pipeline.rewind();
}

fn update_wanted(
    center: Res<StreamCenter>,
    (view, distance, memory): (Res<ViewDistance>, Res<HorizonDistance>, Res<HorizonMemory>),
    mut horizon: ResMut<Horizon>,
) {
    let h = horizon.bypass_change_detection();
    h.travel = travel(h.travel, h.last_centre, center.0);
    h.last_centre = Some(center.0);
    let c = ChunkPos::containing_f64(center.0.to_array());
    let w = &mut h.world;
    let config = (view.0, distance.0, memory.0);
    if w.detail_for != Some(config) {
        w.detail = Detail::FULL;
        w.detail_for = Some(config);
    }
    let rings = Rings {
        view: view.0,
        horizon: distance.0,
        detail: w.detail,
    };
    if w.wanted_for == Some((c, rings)) {
        return;
    }
    let leaves = rings.leaves(c);
    w.wanted_levels = Default::default();
    for n in &leaves {
        w.wanted_levels[n.level as usize - 1] += 1;
    }
    // Tasks for chunks no longer wanted are cancelled.
    w.pipeline.set_wanted(leaves);
    w.wanted_for = Some((c, rings));
    w.queue_stale = true;
    w.dirty = true;
    w.moved = true;
    horizon.set_changed();
}

/// The direction of travel after the stream centre stepped from `last` to `now`:
/// a running mean of the steps, reset by a jump.
fn travel(mean: DVec3, last: Option<DVec3>, now: DVec3) -> DVec3 {
    let step = last.map_or(DVec3::ZERO, |l| now - l);
    if step.length() > JUMP {
        return DVec3::ZERO;
    }
    mean * (1.0 - TRAVEL_WEIGHT) + step * TRAVEL_WEIGHT
}

/// Starts coarse tasks, most urgent first, until [`Depth::tasks`] are in flight.
fn spawn_tasks(
    world: Res<ActiveWorld>,
    edits: Res<WorldAuthority>,
    chunks: Res<Chunks>,
    center: Res<StreamCenter>,
    budget: Res<StreamBudget>,
    time: Res<Time<Real>>,
    mut horizon: ResMut<Horizon>,
) {
    let pool = AsyncComputeTaskPool::get();
    let h = horizon.bypass_change_detection();
    let most = Depth {
        workers: pool.thread_num(),
        frame: time.delta(),
        task: h.task_time.unwrap_or(FIRST_TASK_TIME),
        frames: budget.coarse_frames,
        most_per_worker: budget.coarse_per_worker,
        streaming: !chunks.all_started(),
    }
    .tasks();
    let w = &mut h.world;
    // Results waiting for an upload slot count: work started and not applied.
    if w.pipeline.pending() >= most {
        return;
    }
    if w.queue_stale {
        w.make_queue(center.0, h.travel);
    }
    let (loaded, urgencies, epoch) = (&w.loaded, &w.urgency, w.epoch);
    w.pipeline.start(
        most,
        epoch,
        |n| loaded.get(&n).is_some_and(|c| c.current(epoch)),
        |_| false,
        |n| {
            let (generator, edits) = (world.generator().clone(), edits.edits().clone());
            let urgent = urgencies[&n];
            async move { build(&generator, &edits, n, urgent) }
        },
    );
}

fn poll_tasks(mut horizon: ResMut<Horizon>) {
    // What is drawn changes only in the walk, which says so.
    horizon.bypass_change_detection().world.pipeline.poll();
}

fn apply_ready(
    world: Res<ActiveWorld>,
    mut horizon: ResMut<Horizon>,
    mut meshed: MessageWriter<ChunkMeshed>,
    budget: Res<StreamBudget>,
) {
    let h = horizon.bypass_change_detection();
    let w = &mut h.world;
    let (loaded, epoch) = (&mut w.loaded, w.epoch);
    let mut applied = false;
    let (work, finished, task_time) = (&mut h.work, &mut h.finished, &mut h.task_time);
    w.pipeline.drain(
        budget.uploads,
        world.epoch(),
        |_, r| r.urgency,
        |lod, r, wanted| {
            *work += r.time;
            *finished += 1;
            *task_time = Some(task_time.map_or(r.time, |mean| {
                mean.mul_f64(1.0 - TASK_TIME_WEIGHT) + r.time.mul_f64(TASK_TIME_WEIGHT)
            }));
            if !wanted {
                return Drained::Dropped;
            }
            let quads = r.opaque.quads.len() + r.water.quads.len();
            let meshes = [&r.opaque, &r.water]
                .iter()
                .filter(|m| !m.quads.is_empty())
                .count();
            let bytes = r.opaque.gpu_bytes() + r.water.gpu_bytes();
            // A chunk made again (a reshape) replaces the old meshes, even with none.
            let replaces = loaded.get(&lod).is_some_and(|c| c.quads > 0);
            loaded.insert(
                lod,
                CoarseChunk {
                    quads,
                    bytes,
                    meshes,
                    epoch,
                    edited: false,
                },
            );
            applied = true;
            if quads == 0 && !replaces {
                return Drained::Applied;
            }
            meshed.write(ChunkMeshed {
                lod,
                opaque: r.opaque,
                water: r.water,
            });
            Drained::Counted
        },
    );
    w.dirty |= applied;
}

/// The player's edits changed: the coarse chunks holding the changes are made again
/// (an edit shows on the horizon, not only in the full-detail chunks).
fn rebuild_edited(mut edits: ResMut<WorldAuthority>, mut horizon: ResMut<Horizon>) {
    // Neither is a change anyone else watches for: the edits are the same, and what is
    // drawn changes only when the new versions arrive.
    let changed = edits.bypass_change_detection().take_changed();
    horizon.bypass_change_detection().world.edited(&changed);
}

/// Walks the tree when something changed (at once when chunks unloaded or the wanted
/// set moved, else every few frames), unloads coarse chunks that neither are wanted
/// nor cover a place, and narrows the rings when the meshes are expected to outgrow
/// the memory budget (the next frame's wanted set follows).
fn resolve_and_unload(
    mut horizon: ResMut<Horizon>,
    mut chunks: ResMut<Chunks>,
    mut unloaded: MessageWriter<ChunkUnloaded>,
    memory: Res<HorizonMemory>,
) {
    let h = horizon.bypass_change_detection();
    let w = &mut h.world;
    w.frames += 1;
    let l0_changed = chunks.changes() != w.chunk_changes;
    if !(w.dirty || l0_changed) || (w.frames < RESOLVE_EVERY && !w.moved) {
        return;
    }
    let moved = std::mem::take(&mut w.moved);
    w.frames = 0;
    w.dirty = false;
    w.chunk_changes = chunks.changes();
    let start = Instant::now();
    let changed = w.resolve(&mut chunks, moved);
    let (drawn, pipeline) = (&w.drawn, &w.pipeline);
    let mut levels = Levels::default();
    for (l, &wanted) in levels.iter_mut().zip(&w.wanted_levels) {
        l.wanted = wanted;
    }
    w.loaded.retain(|n, c| {
        let wanted = pipeline.is_wanted(*n);
        if wanted {
            let l = &mut levels[n.level as usize - 1];
            l.loaded += 1;
            l.bytes += c.bytes;
        }
        let keep = wanted || drawn.contains(n);
        if !keep {
            unloaded.write(ChunkUnloaded(*n));
        }
        keep
    });
    let view_bytes = chunks.mesh_bytes();
    let expected = memory::expected_bytes(view_bytes, &levels);
    if let Some(d) = memory::narrowed(w.detail, view_bytes, expected, memory.bytes()) {
        w.detail = d;
    }
    h.resolve_time = start.elapsed();
    if changed {
        horizon.set_changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direction of travel follows the steps and forgets a jump.
    #[test]
    fn travel_is_a_running_mean_of_steps_reset_by_a_jump() {
        let mut mean = DVec3::ZERO;
        let mut last = None;
        for i in 0..50 {
            let now = DVec3::new(i as f64 * 0.7, 60.0, 3.0);
            mean = travel(mean, last, now);
            last = Some(now);
        }
        assert!(mean.x > 0.6 && mean.x < 0.7 && mean.z == 0.0, "{mean}");
        let jumped = DVec3::new(5000.0, 60.0, 3.0);
        assert_eq!(travel(mean, last, jumped), DVec3::ZERO);
    }
}
