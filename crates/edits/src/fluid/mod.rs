//! Water after an edit: Minecraft's rules for water, stepped on demand.
//!
//! Generated water (the sea, rivers, lakes, falls) is made of sources and stays still:
//! a world does no fluid work until something changes beside its water. An edit
//! **wakes** the block it changed and its six neighbours ([`Pending::wake`]); every
//! [`STEP_SECONDS`] of game time the woken water blocks **tick** ([`step`]), each by
//! Minecraft's `FlowingFluid` rules ([`rules`]):
//!
//! ```text
//! flowing water  takes the level its neighbours give it: one more than the lowest
//!                level beside it (a source counts as 0); water above makes it
//!                falling water; two sources beside it, over solid ground or a
//!                source, make it a source; nothing beside it: it dries up
//! then it spreads  down first, into an open block (falling water); else sideways,
//!                one level further (falling water lands as level 1), only towards
//!                the nearest drop within 4 blocks (every way on flat ground), never
//!                beyond level 7 (7 blocks on flat ground)
//! ```
//!
//! Every block a tick changes wakes its neighbours for the next step, so a flow
//! spreads a block a step and recedes the same way when its source is taken away. A
//! step ticks at most [`MAX_TICKS`] blocks in the order they were woken and carries
//! the rest over; a block whose tick would read a chunk that is not loaded waits
//! ([`Pending`]) and ticks once that chunk is loaded, so water never runs into an
//! unloaded chunk. A step reads a fixed picture of the world and returns what it
//! writes ([`Step`]), so it can run on any thread: the same edits in the same steps
//! give the same water, whatever the frame rate or thread count.
//!
//! The blocks are [`terravox_voxel::water_states`]'s: sources, flowing water with its level,
//! falling water. The pending blocks are part of a world's [`crate::Edits`] and its
//! save, so a flow resumes where it was.

mod apply;
mod pending;
mod rules;
mod step;

pub use apply::{Waters, apply, lay, settle};
pub use pending::{MAX_PENDING, MAX_WAITING, Pending};
pub use rules::{READ_REACH, Reach, emptied};
#[cfg(feature = "test-support")]
pub use step::fed;
pub use step::{Cells, Step, Write, broken, fill, step};

#[cfg(test)]
mod tests;

/// Game time between two steps, in seconds (Minecraft's 5 ticks).
pub const STEP_SECONDS: f32 = 0.25;

/// The most blocks one step ticks; the rest wait for the next step.
pub const MAX_TICKS: usize = 1024;
