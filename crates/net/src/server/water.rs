//! The water on the server: the chunks made since, loaded, and the water waiting
//! for them taken up; a step run on rayon and laid a part a tick.

use std::sync::mpsc::{Receiver, Sender, channel};

use terravox_edits::fluid::Step;
use terravox_voxel::ChunkPos;

use super::Server;

/// Writes of a step of the water laid in one tick.
const LAY_PER_TICK: usize = 512;

/// A step of the water on its thread, and one being laid.
pub(super) enum WaterWork {
    Idle,
    Running(u64, Receiver<Step>),
    Laying(u64, Step, usize),
}

impl Server {
    /// The chunks made since the last tick, loaded; the water waiting for them woken.
    pub(super) fn chunks_in(&mut self) {
        if self.chunks.receive(self.authority.edits()) > 0 {
            let chunks = &self.chunks;
            self.authority.resume_water(|c| chunks.is_loaded(c));
        }
        let waiting: Vec<ChunkPos> = self.authority.pending().waiting_chunks().collect();
        self.chunks.want(&waiting);
    }

    /// Lays a finished step of the water (a part a tick) and starts the next.
    pub(super) fn step_water(&mut self) {
        if let WaterWork::Running(lineage, rx) = &self.water
            && let Ok(step) = rx.try_recv()
        {
            self.water = WaterWork::Laying(*lineage, step, 0);
        }
        if let WaterWork::Laying(lineage, step, laid) = &mut self.water {
            let part = &step.writes[*laid..step.writes.len().min(*laid + LAY_PER_TICK)];
            let changes = self
                .authority
                .lay_writes(*lineage, part, &mut self.chunks)
                .unwrap_or_default();
            *laid += part.len();
            for c in self.clients.values_mut() {
                if c.player.is_some() {
                    for &(p, b) in &changes {
                        c.changed(p, b, false);
                    }
                }
            }
            if *laid >= step.writes.len() {
                self.authority.settle_step(*lineage, step, &mut self.chunks);
                self.water = WaterWork::Idle;
            }
        }
        if matches!(self.water, WaterWork::Idle)
            && let Some(job) = self.authority.take_step(&self.chunks)
        {
            let (tx, rx): (Sender<Step>, Receiver<Step>) = channel();
            let lineage = job.lineage;
            rayon::spawn(move || {
                let _ = tx.send(job.run());
            });
            self.water = WaterWork::Running(lineage, rx);
        }
    }
}
