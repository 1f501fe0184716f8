//! The water on the server: the chunks made since, loaded, and the water waiting
//! for them taken up; the authority's [`Stepper`] (the game's too) run with its
//! steps on rayon, [`LAY_PER_TICK`] writes laid a tick, what they changed queued for
//! the playing clients.

use std::sync::mpsc::{Receiver, channel};

use terravox_authority::{Stepped, Stepper, Worker};
use terravox_voxel::ChunkPos;

use super::Server;

/// Writes of a step of the water laid in one tick.
const LAY_PER_TICK: usize = 512;

/// A step on rayon's threads.
pub(super) struct OnRayon(Receiver<Stepped>);

impl Worker for OnRayon {
    fn finished(&mut self) -> Option<Stepped> {
        self.0.try_recv().ok()
    }
}

/// The server's stepper.
pub(super) type WaterWork = Stepper<OnRayon>;

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

    /// A turn of the water: a part of the finished step laid and sent, the next
    /// started.
    pub(super) fn step_water(&mut self) {
        let turn = self
            .water
            .turn(&mut self.authority, &mut self.chunks, LAY_PER_TICK, |job| {
                let (tx, rx) = channel();
                rayon::spawn(move || {
                    let _ = tx.send(Stepped::run(&job));
                });
                OnRayon(rx)
            });
        for c in self.clients.values_mut() {
            if c.player.is_some() {
                for &(p, b) in &turn.changes {
                    c.changed(p, b, false);
                }
            }
        }
    }
}
