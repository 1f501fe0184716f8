//! Water after an edit, stepped: every `STEP_SECONDS` of game time (the world's
//! authority keeps that clock and the water due) the water an edit woke ticks by
//! Minecraft's rules (`terravox_edits::fluid`) on a worker, over a picture of the
//! loaded chunks around it, and what the step wrote is laid into the world when the
//! next step is due (by the authority, through [`WorldBlocks`]: the chunks, their
//! remeshing, at most once a chunk a step, and the overlay, so flowing water is
//! saved), [`LAY_PER_FRAME`] writes a frame: a flood's step is laid over a few
//! frames and the next waits for it. The world seen between two steps changes only at a step, so the same
//! edits in the same steps give the same water at any frame rate or thread count. A
//! world nobody edited does no fluid work at all. A world's water starts stepping
//! once the world is settled after its edits were read (the save holds the water
//! that was flowing, and the step that was under way), so a flow resumes exactly
//! where it was.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_edits::fluid::Step;

use crate::persistence::Saves;
use crate::player::Spawn;
use crate::readiness::settled_with;
use crate::schedule::GameSystems;
use crate::streaming::WorldBlocks;

/// Steps whose figures are kept at most (the latest).
const HISTORY: usize = 100_000;

/// The most writes of a step laid in one frame: a flood's step is laid over the
/// frames after it is due (each write a chunk update, an overlay record and its
/// remesh queued), and the next step starts once it is laid, so the water slows
/// rather than a frame stalls.
pub(crate) const LAY_PER_FRAME: usize = 32;

/// A finished step being laid, a part a frame.
struct Laying {
    stepped: Stepped,
    laid: usize,
    changed: usize,
}

/// What a step's worker returns.
struct Stepped {
    step: Step,
    /// The worker's time.
    cost: Duration,
    /// The edits it was stepped from (`Authority::lineage`).
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

/// The water's steps as the game runs them: the step under way on a worker and
/// what the steps did (the clock and the water due are the authority's).
#[derive(Resource, Default)]
pub struct Water {
    /// The step under way.
    running: Option<Task<Stepped>>,
    /// A finished step being laid: its writes up to `laid` are in, `changed` of
    /// them changed a block.
    laying: Option<Laying>,
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
    /// The edits (`Authority::lineage`) whose world was settled once: their water
    /// steps.
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

    /// Whether a step is under way (on its worker, or being laid).
    pub fn stepping(&self) -> bool {
        self.running.is_some() || self.laying.is_some()
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
    saves: Res<Saves>,
    spawn: Res<Spawn>,
    mut water: ResMut<Water>,
    mut blocks: WorldBlocks,
) {
    let started = Instant::now();
    let (authority, chunks) = blocks.split();
    let lineage = authority.lineage();
    if water.ready != Some(lineage) {
        if !settled_with(&spawn, chunks, &saves) {
            authority.hold_water();
            water.frame_cost = started.elapsed();
            return;
        }
        water.ready = Some(lineage);
    }
    if authority.water_due() && lay_step(&mut water, &mut blocks) {
        start_step(&mut water, &mut blocks);
    }
    water.frame_cost = started.elapsed();
}

/// Lays the step under way into the world once it is done, [`LAY_PER_FRAME`] of its
/// writes a frame; whether the next step may start (none was under way, or it is
/// laid in full).
fn lay_step(water: &mut Water, blocks: &mut WorldBlocks) -> bool {
    if water.laying.is_none() {
        let Some(task) = water.running.as_mut() else {
            return true;
        };
        let Some(stepped) = check_ready(task) else {
            return false;
        };
        water.running = None;
        water.laying = Some(Laying {
            stepped,
            laid: 0,
            changed: 0,
        });
    }
    let Some(laying) = water.laying.as_mut() else {
        return true;
    };
    let (authority, chunks) = blocks.split();
    let (lineage, writes) = (laying.stepped.lineage, &laying.stepped.step.writes);
    let part = &writes[laying.laid..writes.len().min(laying.laid + LAY_PER_FRAME)];
    // `None`: the edits were replaced or discarded meanwhile: not this world's water.
    let Some(changes) = authority.lay_writes(lineage, part, chunks) else {
        water.laying = None;
        return true;
    };
    laying.laid += part.len();
    laying.changed += changes.len();
    if laying.laid < writes.len() {
        return false;
    }
    let Some(Laying {
        stepped, changed, ..
    }) = water.laying.take()
    else {
        return true;
    };
    authority.settle_step(lineage, &stepped.step, chunks);
    water.ticked += stepped.step.ticked as u64;
    water.steps += 1;
    if water.history.len() == HISTORY {
        water.history.pop_front();
    }
    let due_after = authority.pending().due_count();
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
    let (authority, chunks) = blocks.split();
    let changes = chunks.changes();
    if changes != water.chunks_seen {
        water.chunks_seen = changes;
        authority.resume_water(|c| chunks.is_loaded(c));
    }
    let Some(job) = authority.take_step(&*chunks) else {
        return;
    };
    water.running = Some(AsyncComputeTaskPool::get().spawn(async move {
        let started = Instant::now();
        let step = job.run();
        Stepped {
            step,
            cost: started.elapsed(),
            lineage: job.lineage,
        }
    }));
}
