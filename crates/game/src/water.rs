//! Water after an edit, stepped: every [`STEP_SECONDS`] of game time the water an
//! edit woke ticks by Minecraft's rules ([`terravox_edits::fluid`]) on a worker, over
//! a picture of the loaded chunks around it, and what the step wrote is laid into
//! the world when the next step is due (through [`WorldBlocks`]: the chunks, their
//! remeshing, at most once a chunk a step, and the overlay, so flowing water is
//! saved). The world seen between two steps changes only at a step, so the same
//! edits in the same steps give the same water at any frame rate or thread count. A
//! world nobody edited does no fluid work at all. A world's water starts stepping
//! once the world is settled after its edits were read (the save holds the water
//! that was flowing, and the step that was under way), so a flow resumes exactly
//! where it was.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_edits::fluid::{self, Cells, MAX_TICKS, STEP_SECONDS, Step};
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};

use crate::persistence::Saves;
use crate::player::Spawn;
use crate::readiness::settled_with;
use crate::schedule::GameSystems;
use crate::streaming::{Chunks, WorldBlocks};

/// Steps whose figures are kept at most (the latest).
const HISTORY: usize = 100_000;

/// The chunks a step's ticks may read, shared with its worker: those loaded around
/// the blocks due (a tick reads up to 6 blocks sideways, 2 down and 1 up).
struct Picture(HashMap<ChunkPos, Arc<Chunk>>);

impl Picture {
    /// The loaded chunks around `due`.
    fn around(chunks: &Chunks, due: &[BlockPos]) -> Self {
        let mut map = HashMap::default();
        for p in due {
            let lo = p.offset([-6, -2, -6]).to_chunk().0;
            let hi = p.offset([6, 1, 6]).to_chunk().0;
            for y in lo.y..=hi.y {
                for z in lo.z..=hi.z {
                    for x in lo.x..=hi.x {
                        let c = ChunkPos::new(x, y, z);
                        if let Some(blocks) = chunks.blocks(c) {
                            map.entry(c).or_insert_with(|| blocks.clone());
                        }
                    }
                }
            }
        }
        Self(map)
    }
}

impl Cells for Picture {
    fn block(&self, p: BlockPos) -> Option<Block> {
        let (c, l) = p.to_chunk();
        self.0.get(&c).map(|chunk| chunk.get(l[0], l[1], l[2]))
    }
}

/// What a step's worker returns.
struct Stepped {
    step: Step,
    /// The worker's time.
    cost: Duration,
    /// The edits it was stepped from ([`WorldBlocks::lineage`]).
    lineage: u64,
}

/// The figures of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepFigures {
    /// Blocks that ticked.
    pub ticked: usize,
    /// Blocks it changed.
    pub changed: usize,
    /// Blocks still due after it (carried over or woken by it).
    pub due_after: usize,
    /// Its worker's time.
    pub cost: Duration,
}

/// The water's steps: the clock, the step under way and what the steps did.
#[derive(Resource, Default)]
pub struct Water {
    /// Game time since the last step was due.
    clock: f32,
    /// The step under way.
    running: Option<Task<Stepped>>,
    /// [`Chunks::changes`] when the waiting water last looked for its chunks.
    chunks_seen: u64,
    /// Steps laid into the world.
    steps: usize,
    /// The figures of the latest [`HISTORY`] of them.
    history: VecDeque<StepFigures>,
    /// Blocks ticked in all.
    ticked: u64,
    /// The main thread's own time of the last frame's water work.
    frame_cost: Duration,
    /// The edits ([`WorldBlocks::lineage`]) whose world was settled once: their
    /// water steps.
    ready: Option<u64>,
}

impl Water {
    /// Blocks ticked since the game started: 0 in a world nobody edited.
    pub fn ticked(&self) -> u64 {
        self.ticked
    }

    /// Steps laid into the world since the game started.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The figures of the steps laid into the world since step `start` (the
    /// latest 100,000 of them at most), oldest first.
    pub fn figures_since(&self, start: usize) -> Vec<StepFigures> {
        let kept = self.history.len().min(self.steps - start.min(self.steps));
        self.history
            .range(self.history.len() - kept..)
            .copied()
            .collect()
    }

    /// Whether a step is under way.
    pub fn stepping(&self) -> bool {
        self.running.is_some()
    }

    /// The main thread's time on the water in the last frame.
    pub fn frame_cost(&self) -> Duration {
        self.frame_cost
    }
}

/// The water plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Water>()
        .add_systems(Update, step_water.in_set(GameSystems::Water));
}

/// Lays the finished step into the world and starts the next, once a step is due.
fn step_water(
    time: Res<Time>,
    saves: Res<Saves>,
    spawn: Res<Spawn>,
    mut water: ResMut<Water>,
    mut blocks: WorldBlocks,
) {
    let started = Instant::now();
    let lineage = blocks.lineage();
    if water.ready != Some(lineage) {
        if !settled_with(&spawn, blocks.chunks(), &saves) {
            water.clock = 0.0;
            water.frame_cost = started.elapsed();
            return;
        }
        water.ready = Some(lineage);
    }
    water.clock += time.delta_secs();
    if water.clock >= STEP_SECONDS && lay_step(&mut water, &mut blocks) {
        // At most one step behind: a long frame does not make the water race.
        water.clock = (water.clock - STEP_SECONDS).min(STEP_SECONDS);
        start_step(&mut water, &mut blocks);
    }
    water.frame_cost = started.elapsed();
}

/// Lays the step under way into the world, if it is done; whether the next step
/// may start (none was under way, or it is laid).
fn lay_step(water: &mut Water, blocks: &mut WorldBlocks) -> bool {
    let Some(task) = water.running.as_mut() else {
        return true;
    };
    let Some(stepped) = check_ready(task) else {
        return false;
    };
    water.running = None;
    if stepped.lineage != blocks.lineage() {
        // The edits were replaced or discarded meanwhile: not this world's water.
        return true;
    }
    let changed = fluid::apply(&stepped.step, blocks);
    water.ticked += stepped.step.ticked as u64;
    water.steps += 1;
    if water.history.len() == HISTORY {
        water.history.pop_front();
    }
    let due_after = blocks.water_due();
    water.history.push_back(StepFigures {
        ticked: stepped.step.ticked,
        changed,
        due_after,
        cost: stepped.cost,
    });
    true
}

/// Starts the next step on a worker, if any water is due.
fn start_step(water: &mut Water, blocks: &mut WorldBlocks) {
    let changes = blocks.chunks().changes();
    if changes != water.chunks_seen {
        water.chunks_seen = changes;
        blocks.resume_water();
    }
    let lineage = blocks.lineage();
    let due = blocks.take_water(MAX_TICKS);
    if due.is_empty() {
        return;
    }
    let picture = Picture::around(blocks.chunks(), &due);
    water.running = Some(AsyncComputeTaskPool::get().spawn(async move {
        let started = Instant::now();
        let step = fluid::step(&picture, &due);
        Stepped {
            step,
            cost: started.elapsed(),
            lineage,
        }
    }));
}
