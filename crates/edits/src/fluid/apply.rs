//! Laying a step into the world: its writes, and the water they wake.

use terravox_voxel::{Block, BlockPos};

use super::pending::Pending;
use super::step::{Cells, Step};

/// A world water can change: its blocks, and the water pending in it.
pub trait Waters: Cells {
    /// Sets the block at `p` (in a loaded chunk): the water changed it.
    fn flow(&mut self, p: BlockPos, b: Block);
    /// The water pending in this world.
    fn pending(&mut self) -> &mut Pending;
}

/// Lays `step` (the step under way) into `world`: every write whose block is still
/// what the step read (an edit made since wins, and a chunk unloaded since takes
/// nothing), the blocks that need an unloaded chunk put aside, and then the water
/// around every block the step changed (or meant to) woken for the next step.
/// Returns how many blocks changed.
pub fn apply(step: &Step, world: &mut (impl Waters + ?Sized)) -> usize {
    let mut changed = 0;
    for w in &step.writes {
        if world.block(w.pos) == Some(w.was) {
            world.flow(w.pos, w.block);
            changed += 1;
        }
    }
    for &(p, c) in &step.waiting {
        world.pending().wait(p, c);
    }
    let mut wake = Vec::new();
    for w in &step.writes {
        wake.extend(Pending::woken_by(w.pos, &*world));
    }
    let pending = world.pending();
    pending.finish();
    for p in wake {
        pending.wake(p);
    }
    changed
}
