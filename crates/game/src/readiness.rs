//! Whether the world around the player is complete: what the tests, `terravox bench`
//! and the automated screenshot wait for. Read from the state of the modules that
//! own it: the spawn (`player`), the full-detail chunks (`streaming`), the saved
//! edits (`persistence`) and the coarse chunks (`horizon`).

use bevy::prelude::*;

use crate::horizon::Horizon;
use crate::persistence::Saves;
use crate::player::Spawn;
use crate::streaming::Chunks;

/// Whether the world around the player is complete: the player placed at the spawn,
/// every wanted chunk loaded and meshed, and the world's saved edits read and laid
/// over it.
pub fn settled(world: &World) -> bool {
    settled_with(
        world.resource::<Spawn>(),
        world.resource::<Chunks>(),
        world.resource::<Saves>(),
    )
}

/// [`settled`], from the resources it reads (for a system that holds them).
pub(crate) fn settled_with(spawn: &Spawn, chunks: &Chunks, saves: &Saves) -> bool {
    spawn.placed() && chunks.fully_loaded() && !saves.loading()
}

/// Whether the world is [`settled`] and the horizon complete too: every wanted
/// coarse chunk loaded for the current world. A system can use it as a run
/// condition.
pub fn horizon_settled(world: &World) -> bool {
    settled(world) && world.resource::<Horizon>().complete()
}
