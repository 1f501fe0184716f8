//! Water after an edit, stepped: every `STEP_SECONDS` of game time (the world's
//! authority keeps that clock and the water due) the water an edit woke ticks by
//! Minecraft's rules (`terravox_edits::fluid`) on a worker, over a picture of the
//! loaded chunks around it, and what the step wrote is laid into the world when the
//! next step is due (by the authority, through [`WorldBlocks`]: the chunks, their
//! remeshing, at most once a chunk a step, and the overlay, so flowing water is
//! saved), [`LAY_PER_FRAME`] writes a frame: a flood's step is laid over a few
//! frames and the next waits for it. That state machine is the authority's
//! [`Stepper`], which the server runs too; this plugin gives it Bevy's workers and
//! keeps the figures. The world seen between two steps changes only at a step, so the same
//! edits in the same steps give the same water at any frame rate or thread count. A
//! world nobody edited does no fluid work at all. A world's water starts stepping
//! once the world is settled after its edits were read (the save holds the water
//! that was flowing, and the step that was under way), so a flow resumes exactly
//! where it was.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_authority::{Stepped, Stepper, Worker};

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

/// A step on one of Bevy's workers.
struct OnTask(Task<Stepped>);

impl Worker for OnTask {
    fn finished(&mut self) -> Option<Stepped> {
        check_ready(&mut self.0)
    }
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
    /// The step under way: on its worker, or being laid.
    stepper: Stepper<OnTask>,
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
        self.stepper.stepping()
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
    if authority.water_due() {
        turn(&mut water, &mut blocks);
    }
    water.frame_cost = started.elapsed();
}

/// One turn of the water's [`Stepper`]: the finished step laid, [`LAY_PER_FRAME`]
/// of its writes a frame, and the next started on a worker once it is laid whole
/// (the water waiting for chunks woken first, if chunks arrived).
fn turn(water: &mut Water, blocks: &mut WorldBlocks) {
    let (authority, chunks) = blocks.split();
    let changes = chunks.changes();
    if changes != water.chunks_seen {
        water.chunks_seen = changes;
        authority.resume_water(|c| chunks.is_loaded(c));
    }
    let Some(done) = water
        .stepper
        .turn(authority, chunks, LAY_PER_FRAME, |job| {
            OnTask(AsyncComputeTaskPool::get().spawn(async move { Stepped::run(&job) }))
        })
        .settled
    else {
        return;
    };
    water.ticked += done.ticked as u64;
    water.steps += 1;
    if water.history.len() == HISTORY {
        water.history.pop_front();
    }
    let due_after = authority.pending().due_count();
    water.history.push_back(StepFigures {
        ticked: done.ticked,
        changed: done.changed,
        due_after,
        cost: done.cost,
    });
}
