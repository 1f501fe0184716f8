//! Laying a step into the world: its writes, and the water they wake.

use terravox_voxel::{Block, BlockPos};

use super::pending::Pending;
use super::step::{Cells, Step, Write};

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
/// Returns how many blocks changed. The same as [`lay`] of every write, then
/// [`settle`].
pub fn apply(step: &Step, world: &mut (impl Waters + ?Sized)) -> usize {
    let changed = lay(&step.writes, world);
    settle(step, world);
    changed
}

/// Lays some of a step's writes (a part at a time, over several frames): each whose
/// block is still what the step read. Returns how many blocks changed.
pub fn lay(writes: &[Write], world: &mut (impl Waters + ?Sized)) -> usize {
    let mut changed = 0;
    for w in writes {
        if world.block(w.pos) == Some(w.was) {
            world.flow(w.pos, w.block);
            changed += 1;
        }
    }
    changed
}

/// Ends a step whose writes are all laid: the blocks that need an unloaded chunk put
/// aside, and the water around every block it changed (or meant to) woken for the
/// next step, as the world is once every write is in (so a step laid in parts wakes
/// what a step laid at once does).
pub fn settle(step: &Step, world: &mut (impl Waters + ?Sized)) {
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
}
