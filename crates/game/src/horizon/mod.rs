//! The horizon: coarse chunks (levels of detail, [`terravox_worldgen::lod`]) in rings
//! around the full-detail view, out to the horizon distance ([`HorizonDistance`]).
//!
//! Which chunk of which level covers each place comes from [`rings`]. Coarse chunks
//! are generated and meshed on worker tasks, in the order the player needs them and
//! as many as keep the workers busy ([`schedule`]); full-detail chunks waiting to
//! start keep the workers first. What is drawn is decided by a walk over the tree of
//! levels ([`Horizon::resolve`]): a wanted chunk is drawn once it is loaded; until
//! then whatever covered its place before stays drawn (a coarser chunk, or all of
//! its finer ones), so moving never opens a hole while the workers keep up; a chunk
//! is unloaded only when nothing needs it to cover a place, and full-detail chunks
//! kept for that are bounded ([`Chunks::max_kept`]). Far levels ignore edits.

mod rings;
mod schedule;

use std::time::{Duration, Instant};

use bevy::math::DVec3;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::tasks::AsyncComputeTaskPool;
use terravox_mesher::Surface;
use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, LodPos};

use crate::config::{HorizonDistance, StreamBudget, ViewDistance};
use crate::schedule::GameSystems;
use crate::streaming::pipeline::{Drained, Pipeline};
use crate::streaming::{ChunkMeshed, ChunkUnloaded, Chunks, mesh};
use crate::world::{ActiveWorld, StreamCenter, WorldChanged, WorldEdits, WorldReshaped};
pub use rings::Rings;
use schedule::{Cover, Depth, Urgency, urgency};

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

/// A loaded coarse chunk's mesh figures.
#[derive(Clone, Copy, Debug, Default)]
struct CoarseChunk {
    /// Its quads and mesh bytes (vertices and indices as uploaded).
    quads: usize,
    bytes: usize,
    /// The world epoch it was made for: one older than the horizon's is made again
    /// (a live reshape) and stays drawn until then.
    epoch: u64,
}

/// What a coarse worker task returns.
struct CoarseResult {
    /// How urgent it was when its task started.
    urgency: Urgency,
    opaque: Surface,
    water: Surface,
    time: Duration,
}

/// Everything the horizon holds about the current world.
#[derive(Default)]
struct HorizonWorld {
    /// The player's chunk and the rings the wanted set was made for.
    wanted_for: Option<(ChunkPos, Rings)>,
    /// Wanted coarse chunks (finer levels and nearer ones first), tasks, results.
    pipeline: Pipeline<CoarseResult>,
    /// How the last walk found the place of each wanted chunk not loaded covered.
    cover: HashMap<LodPos, Cover>,
    /// The urgency of each chunk in the pipeline's start order, made again when the
    /// wanted set moved (after the walk that notes `cover`; between moves, the order
    /// of what is left changes little).
    urgency: HashMap<LodPos, Urgency>,
    queue_stale: bool,
    loaded: HashMap<LodPos, CoarseChunk>,
    /// Coarse chunks drawn now.
    drawn: HashSet<LodPos>,
    /// Something loaded or unloaded since the last walk, and frames since.
    dirty: bool,
    frames: u32,
    /// The wanted set moved since the last walk: walk at once.
    moved: bool,
    /// [`Chunks::changes`] at the last walk.
    chunk_changes: u64,
    /// The world epoch coarse chunks are made for now.
    epoch: u64,
}

/// The coarse chunks: wanted, loaded, in flight, drawn.
#[derive(Resource, Default)]
pub struct Horizon {
    /// The current world's coarse chunks and work; replaced whole on a world switch.
    world: HorizonWorld,
    /// The stream centre last frame, and the direction of travel (a running mean
    /// of its steps).
    last_centre: Option<DVec3>,
    travel: DVec3,
    /// Running mean of a coarse task's time (generate + mesh).
    task_time: Option<Duration>,
    /// Generate + mesh time of every coarse chunk so far, and their count.
    pub work: Duration,
    /// Coarse chunks finished.
    pub finished: u64,
    /// Main-thread time of the last walk over the tree.
    pub resolve_time: Duration,
}

/// Figures of one level: loaded chunks, those with faces, quads and mesh bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingFigures {
    /// Loaded chunks of the level.
    pub chunks: usize,
    /// Of those, drawn ones with faces.
    pub drawn: usize,
    /// Quads of the drawn ones.
    pub quads: usize,
    /// Mesh bytes of the loaded ones (on the GPU: vertices and indices).
    pub bytes: usize,
}

impl Horizon {
    /// Whether coarse chunk `lod` is drawn now.
    pub fn draws(&self, lod: LodPos) -> bool {
        self.world.drawn.contains(&lod)
    }

    /// Whether full-detail chunk `p` is covered by a drawn coarse chunk (so its own
    /// mesh is hidden).
    pub fn covers(&self, p: ChunkPos) -> bool {
        let Some((_, rings)) = self.world.wanted_for else {
            return false;
        };
        let mut n = LodPos::new(0, p);
        (1..=rings.top()).any(|_| {
            n = n.parent();
            self.world.drawn.contains(&n)
        })
    }

    /// Whether every wanted coarse chunk is loaded (for the current epoch).
    pub fn complete(&self) -> bool {
        let w = &self.world;
        w.pipeline.wanted().iter().all(|&n| w.is_current(n))
    }

    /// Wanted coarse chunks.
    pub fn wanted(&self) -> &[LodPos] {
        self.world.pipeline.wanted()
    }

    /// Loaded coarse chunks.
    pub fn loaded(&self) -> impl Iterator<Item = LodPos> + '_ {
        self.world.loaded.keys().copied()
    }

    /// Chunks in flight (tasks started, not applied).
    pub fn pending(&self) -> usize {
        self.world.pipeline.pending()
    }

    /// Coarse tasks started whose work has not finished yet.
    pub fn tasks_running(&self) -> usize {
        self.world.pipeline.tasks_running()
    }

    /// For the stats overlay: coarse chunks wanted, loaded (wanted or kept while
    /// they cover a place) and drawn.
    pub(crate) fn counts(&self) -> [usize; 3] {
        let w = &self.world;
        [w.pipeline.wanted().len(), w.loaded.len(), w.drawn.len()]
    }

    /// Per level `1..=MAX_LEVEL` (index 0 is level 1): loaded chunks, drawn ones,
    /// quads and mesh bytes.
    pub fn rings(&self) -> Vec<RingFigures> {
        let mut v = vec![RingFigures::default(); terravox_worldgen::MAX_LEVEL as usize];
        for (lod, c) in &self.world.loaded {
            let r = &mut v[lod.level as usize - 1];
            r.chunks += 1;
            r.bytes += c.bytes;
            if self.world.drawn.contains(lod) && c.quads > 0 {
                r.drawn += 1;
                r.quads += c.quads;
            }
        }
        v
    }

    /// The rings the wanted set was made for, if any.
    pub fn rings_now(&self) -> Option<Rings> {
        self.world.wanted_for.map(|(_, r)| r)
    }
}

impl HorizonWorld {
    /// Whether coarse chunk `n` is loaded for the current epoch.
    fn is_current(&self, n: LodPos) -> bool {
        self.loaded.get(&n).is_some_and(|c| c.epoch == self.epoch)
    }

    /// Walks the tree of levels from the top chunks down and decides what is drawn:
    /// a leaf once loaded; a split chunk's children once all of them cover their
    /// places, else the chunk itself if it is still loaded. A leaf not loaded yet is
    /// covered by its old children where all of them are still loaded. Full-detail
    /// chunks that cover their place while no longer wanted are kept
    /// ([`Chunks::set_kept`]), the nearest [`Chunks::max_kept`] of them. With
    /// `note_cover`, notes how each leaf not loaded is covered. Returns whether
    /// what is drawn changed.
    fn resolve(&mut self, chunks: &mut Chunks, note_cover: bool) -> bool {
        let Some((centre, rings)) = self.wanted_for else {
            return false;
        };
        let mut walk = Walk {
            occupied: self.occupied(chunks, rings.top()),
            drawn: Vec::new(),
            kept: Vec::new(),
            missing: Vec::new(),
        };
        for root in rings.tree_roots(centre) {
            self.visit(root, centre, rings, chunks, &mut walk);
        }
        let Walk {
            drawn,
            mut kept,
            missing,
            ..
        } = walk;
        let drawn: HashSet<LodPos> = drawn.into_iter().collect();
        let changed = drawn != self.drawn;
        self.drawn = drawn;
        if note_cover {
            self.cover = missing.into_iter().collect();
        }
        nearest(&mut kept, centre, chunks.max_kept());
        chunks.set_kept(kept);
        changed
    }

    /// The coarse chunks up to level `top` with a loaded chunk (at any level) under
    /// them: the only places where a fallback can find anything. Each loaded chunk
    /// climbs until it meets an ancestor already marked, so this costs about one
    /// lookup per loaded chunk.
    fn occupied(&self, chunks: &Chunks, top: u8) -> HashSet<LodPos> {
        let mut occupied = HashSet::new();
        let full = chunks.loaded().map(|p| LodPos::new(0, p));
        for mut n in full.chain(self.loaded.keys().copied()) {
            while n.level < top {
                n = n.parent();
                if !occupied.insert(n) {
                    break;
                }
            }
        }
        occupied
    }

    /// Covers the place of `n`; returns whether all of it is covered.
    fn visit(
        &self,
        n: LodPos,
        centre: ChunkPos,
        rings: Rings,
        chunks: &Chunks,
        walk: &mut Walk,
    ) -> bool {
        if n.level == 0 {
            return chunks.is_loaded(n.pos);
        }
        if !rings.split(centre, n) {
            if self.loaded.contains_key(&n) {
                walk.drawn.push(n);
                return true;
            }
            let all = self.fallback(n, chunks, walk);
            walk.missing
                .push((n, if all { Cover::Finer } else { Cover::Hole }));
            return all;
        }
        let marks = (walk.drawn.len(), walk.kept.len(), walk.missing.len());
        let mut all = true;
        for c in n.children() {
            all &= self.visit(c, centre, rings, chunks, walk);
        }
        if all {
            return true;
        }
        if self.loaded.contains_key(&n) {
            walk.drawn.truncate(marks.0);
            walk.kept.truncate(marks.1);
            walk.drawn.push(n);
            for (_, cover) in &mut walk.missing[marks.2..] {
                *cover = Cover::Coarser;
            }
            return true;
        }
        false
    }

    /// Covers the place of `n`, which is not loaded, with what is still loaded of
    /// its finer chunks (all of them, even where they leave gaps: better than
    /// nothing); returns whether they cover all of it. Descends only where
    /// something is loaded: a full descent from an unloaded level-5 chunk would look
    /// up 32,768 full-detail chunks.
    fn fallback(&self, n: LodPos, chunks: &Chunks, walk: &mut Walk) -> bool {
        let mut all = true;
        for c in n.children() {
            all &= if c.level == 0 {
                let here = chunks.is_loaded(c.pos);
                if here {
                    walk.kept.push(c.pos);
                }
                here
            } else if self.loaded.contains_key(&c) {
                walk.drawn.push(c);
                true
            } else {
                walk.occupied.contains(&c) && self.fallback(c, chunks, walk)
            };
        }
        all
    }
}

/// What a walk over the tree of levels gathers.
struct Walk {
    /// See [`HorizonWorld::occupied`].
    occupied: HashSet<LodPos>,
    /// Coarse chunks drawn, and full-detail chunks kept while they cover a place.
    drawn: Vec<LodPos>,
    kept: Vec<ChunkPos>,
    /// Wanted chunks not loaded, and how their places are covered.
    missing: Vec<(LodPos, Cover)>,
}

/// Keeps the `most` chunks of `kept` nearest to `centre` (horizontally, then
/// vertically), in no particular order.
fn nearest(kept: &mut Vec<ChunkPos>, centre: ChunkPos, most: usize) {
    if kept.len() <= most {
        return;
    }
    let key = |p: &ChunkPos| {
        let (dx, dz) = ((p.x - centre.x) as i64, (p.z - centre.z) as i64);
        (dx * dx + dz * dz, (p.y - centre.y).abs())
    };
    if most > 0 {
        kept.select_nth_unstable_by_key(most - 1, key);
    }
    kept.truncate(most);
}

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
    view: Res<ViewDistance>,
    distance: Res<HorizonDistance>,
    mut horizon: ResMut<Horizon>,
) {
    let h = horizon.bypass_change_detection();
    h.travel = travel(h.travel, h.last_centre, center.0);
    h.last_centre = Some(center.0);
    let c = ChunkPos::containing_f64(center.0.to_array());
    let rings = Rings {
        view: view.0,
        horizon: distance.0,
    };
    let w = &mut h.world;
    if w.wanted_for == Some((c, rings)) {
        return;
    }
    // Tasks for chunks no longer wanted are cancelled.
    w.pipeline.set_wanted(rings.leaves(c));
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

impl HorizonWorld {
    /// Orders the wanted chunks not started yet, most urgent first (see
    /// [`urgency`]), for the player's feet at `feet` heading along `travel`.
    fn make_queue(&mut self, feet: DVec3, travel: DVec3) {
        let Some((_, rings)) = self.wanted_for else {
            return;
        };
        let p = &self.pipeline;
        let mut queue: Vec<(Urgency, LodPos)> = p
            .wanted()
            .iter()
            .filter(|&&n| !(self.is_current(n) || p.is_pending(n)))
            .map(|&n| {
                let cover = self.cover.get(&n).copied().unwrap_or(Cover::Hole);
                (urgency(rings, feet, travel, n, cover), n)
            })
            .collect();
        queue.sort_unstable();
        self.urgency = queue.iter().map(|&(u, n)| (n, u)).collect();
        self.pipeline
            .set_order(queue.into_iter().map(|(_, n)| n).collect());
        self.queue_stale = false;
    }
}

/// Starts coarse tasks, most urgent first, until [`Depth::tasks`] are in flight.
fn spawn_tasks(
    world: Res<ActiveWorld>,
    edits: Res<WorldEdits>,
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
        |n| loaded.get(&n).is_some_and(|c| c.epoch == epoch),
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
            let bytes = r.opaque.gpu_bytes() + r.water.gpu_bytes();
            // A chunk made again (a reshape) replaces the old meshes, even with none.
            let replaces = loaded.get(&lod).is_some_and(|c| c.quads > 0);
            loaded.insert(
                lod,
                CoarseChunk {
                    quads,
                    bytes,
                    epoch,
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

/// Walks the tree when something changed (at once when chunks unloaded or the wanted
/// set moved, else every few frames), unloads coarse chunks that neither are wanted
/// nor cover a place.
fn resolve_and_unload(
    mut horizon: ResMut<Horizon>,
    mut chunks: ResMut<Chunks>,
    mut unloaded: MessageWriter<ChunkUnloaded>,
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
    w.loaded.retain(|n, _| {
        let keep = drawn.contains(n) || pipeline.is_wanted(*n);
        if !keep {
            unloaded.write(ChunkUnloaded(*n));
        }
        keep
    });
    h.resolve_time = start.elapsed();
    if changed {
        horizon.set_changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coarse() -> CoarseChunk {
        CoarseChunk::default()
    }

    /// The bound on chunks kept for cover keeps the nearest ones, horizontally
    /// first.
    #[test]
    fn the_nearest_kept_chunks_stay() {
        let centre = ChunkPos::new(10, 2, -4);
        let at = |dx, dy, dz| ChunkPos::new(centre.x + dx, centre.y + dy, centre.z + dz);
        let mut kept = vec![
            at(-20, 0, 0),
            at(5, 3, 0),
            at(0, 0, -9),
            at(5, 0, 0),
            at(0, 1, 30),
        ];
        nearest(&mut kept, centre, 5);
        assert_eq!(kept.len(), 5, "under the bound nothing goes");
        nearest(&mut kept, centre, 3);
        kept.sort();
        let mut expected = vec![at(5, 0, 0), at(5, 3, 0), at(0, 0, -9)];
        expected.sort();
        assert_eq!(kept, expected);
        nearest(&mut kept, centre, 0);
        assert!(kept.is_empty());
    }

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

    /// The occupied set equals a plain climb from every loaded chunk to the top,
    /// although each climb stops at the first ancestor already marked.
    #[test]
    fn occupied_marks_every_ancestor_of_every_loaded_chunk() {
        let top = 5;
        let mut h = HorizonWorld::default();
        let mut loaded = Vec::new();
        // Chunks at every level, some sharing ancestors, some far apart.
        for (i, level) in (1..=4).cycle().take(40).enumerate() {
            let i = i as i32;
            let pos = ChunkPos::new(i * 7 - 130, (i % 5) - 2, 90 - i * 11);
            let lod = LodPos::new(level, pos);
            h.loaded.insert(lod, coarse());
            loaded.push(lod);
        }
        let occupied = h.occupied(&Chunks::default(), top);
        let mut expected = HashSet::new();
        for mut n in loaded.iter().copied() {
            while n.level < top {
                n = n.parent();
                expected.insert(n);
            }
        }
        assert_eq!(occupied, expected);
        // A loaded chunk marks its ancestors, not itself where nothing lies below.
        let lone = LodPos::new(4, ChunkPos::new(4000, 0, 4000));
        h.loaded.insert(lone, coarse());
        let occupied = h.occupied(&Chunks::default(), top);
        assert!(occupied.contains(&lone.parent()));
        assert!(!occupied.contains(&lone));
    }
}
