//! The water's steps run over time, as the game and the server both run them: one
//! state machine. Once a step is due ([`Authority::water_due`]), the step that
//! finished on its worker is laid into the world, at most `most` of its writes a
//! turn (a flood's step over several turns, so no frame or tick lays a whole flood),
//! and settled once laid whole; then the next step is taken and handed to a worker.
//! The world changes only when a step is due, so the same edits in the same steps
//! give the same water at any frame or tick rate, on any thread. Whoever drives it
//! owns the workers ([`Worker`]: a task, a channel) and wakes the water waiting for
//! chunks ([`Authority::resume_water`]) as its chunks arrive.

use std::time::{Duration, Instant};

use terravox_edits::fluid::Step;
use terravox_voxel::{Block, BlockPos};

use crate::authority::Authority;
use crate::blocks::Blocks;
use crate::flow_steps::StepJob;

/// A step finished on its worker.
#[derive(Clone, Debug)]
pub struct Stepped {
    /// What it wrote.
    pub step: Step,
    /// The edits it was stepped from ([`Authority::lineage`]).
    pub lineage: u64,
    /// The worker's time.
    pub cost: Duration,
}

impl Stepped {
    /// Runs `job` here (a worker calls this), timed.
    pub fn run(job: &StepJob) -> Self {
        let started = Instant::now();
        let step = job.run();
        Self {
            step,
            lineage: job.lineage,
            cost: started.elapsed(),
        }
    }
}

/// A step under way on a thread its driver chose.
pub trait Worker {
    /// The finished step, once it is (taken once).
    fn finished(&mut self) -> Option<Stepped>;
}

/// What one turn did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// The blocks laid this turn changed, each with what it holds now.
    pub changes: Vec<(BlockPos, Block)>,
    /// The step laid whole and settled this turn, if one was.
    pub settled: Option<Settled>,
}

/// A step laid into the world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// Blocks that ticked.
    pub ticked: usize,
    /// Blocks it changed.
    pub changed: usize,
    /// Its worker's time.
    pub cost: Duration,
}

/// A finished step being laid: its writes up to `laid` are in, `changed` of them
/// changed a block.
struct Laying {
    stepped: Stepped,
    laid: usize,
    changed: usize,
}

/// The step under way: on its worker, or being laid (see the module docs).
pub struct Stepper<W> {
    running: Option<W>,
    laying: Option<Laying>,
}

impl<W> Default for Stepper<W> {
    fn default() -> Self {
        Self {
            running: None,
            laying: None,
        }
    }
}

impl<W: Worker> Stepper<W> {
    /// Whether a step is under way (on its worker, or being laid).
    pub fn stepping(&self) -> bool {
        self.running.is_some() || self.laying.is_some()
    }

    /// One turn over the loaded world `blocks`, once a step is due: the finished
    /// step laid (`most` writes at most), then, once it is settled, the next step
    /// taken and given to a worker made by `start`.
    pub fn turn(
        &mut self,
        authority: &mut Authority,
        blocks: &mut (impl Blocks + ?Sized),
        most: usize,
        start: impl FnOnce(StepJob) -> W,
    ) -> Turn {
        let mut turn = Turn::default();
        if !authority.water_due() || !self.lay(authority, blocks, most, &mut turn) {
            return turn;
        }
        if let Some(job) = authority.take_step(&*blocks) {
            self.running = Some(start(job));
        }
        turn
    }

    /// Lays the next part of the finished step into `turn`: whether the next step
    /// may start (none was under way, or it is laid whole now).
    fn lay(
        &mut self,
        authority: &mut Authority,
        blocks: &mut (impl Blocks + ?Sized),
        most: usize,
        turn: &mut Turn,
    ) -> bool {
        if self.laying.is_none() {
            let Some(worker) = self.running.as_mut() else {
                return true;
            };
            let Some(stepped) = worker.finished() else {
                return false;
            };
            self.running = None;
            self.laying = Some(Laying {
                stepped,
                laid: 0,
                changed: 0,
            });
        }
        let Some(laying) = self.laying.as_mut() else {
            return true;
        };
        let (lineage, writes) = (laying.stepped.lineage, &laying.stepped.step.writes);
        let part = &writes[laying.laid..writes.len().min(laying.laid + most.max(1))];
        // `None`: the edits were replaced or discarded meanwhile: not this world's water.
        let Some(changes) = authority.lay_writes(lineage, part, blocks) else {
            self.laying = None;
            return true;
        };
        laying.laid += part.len();
        laying.changed += changes.len();
        turn.changes = changes;
        if laying.laid < writes.len() {
            return false;
        }
        let Some(Laying {
            stepped, changed, ..
        }) = self.laying.take()
        else {
            return true;
        };
        authority.settle_step(lineage, &stepped.step, blocks);
        turn.settled = Some(Settled {
            ticked: stepped.step.ticked,
            changed,
            cost: stepped.cost,
        });
        true
    }
}
