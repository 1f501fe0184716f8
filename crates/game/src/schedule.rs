//! The frame: every `Update` system of the game is in one of the [`GameSystems`],
//! which run in one declared order (below), on a single-threaded executor.
//!
//! ```text
//! Input ─▶ Simulate ─▶ Edit ─▶ Persist ─▶ Stream ─▶ Horizon ─▶ Present ─▶ (egui pass)
//! ```

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

/// The parts of a frame, in order. Every `Update` system of the game is in one.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// Read devices and requests: mode changes, mouse look, movement and edit
    /// intents, the hotbar, world switches asked for by last frame's panel.
    Input,
    /// Move the player, respawn after a world switch, follow with the stream centre.
    Simulate,
    /// Apply block edits and discards to the loaded world and the overlay; aim.
    Edit,
    /// Save files: load a switched-to world's edits, autosave, delete discarded saves.
    Persist,
    /// Chunk streaming: wanted set, unloading, worker tasks, applying results.
    Stream,
    /// The coarse rings out to the horizon: wanted set, tasks, what is drawn.
    Horizon,
    /// Everything drawn: meshes, fog, outline, screenshots, UI bookkeeping.
    Present,
}

/// Bevy's task pools, but for the async-compute pool, which generates and meshes
/// every chunk: a thread per core, where Bevy gives it a quarter of them (one on two
/// cores). The game's own systems are tiny and the main thread sleeps between frames,
/// so the workers take what it leaves and the scheduler hands it back when a frame
/// starts; the compute pool keeps the threads Bevy would give it (the renderer's).
pub(crate) fn task_pools() -> TaskPoolPlugin {
    let cores = bevy::tasks::available_parallelism();
    let quarter = ((cores as f32 * 0.25).round() as usize).clamp(1, 4);
    let mut options = TaskPoolOptions::default();
    (
        options.async_compute.min_threads,
        options.async_compute.max_threads,
    ) = (cores, cores);
    options.compute.min_threads = cores.saturating_sub(2 * quarter).max(1);
    TaskPoolPlugin {
        task_pool_options: options,
    }
}

/// Declares the frame order and the executor of `Update`.
pub(crate) fn plugin(app: &mut App) {
    // The game's systems are tiny (the heavy work runs on task pools): on a few cores
    // the multi-threaded executor's thread handoffs cost more than the systems.
    app.edit_schedule(Update, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    })
    .configure_sets(
        Update,
        (
            GameSystems::Input,
            GameSystems::Simulate,
            GameSystems::Edit,
            GameSystems::Persist,
            GameSystems::Stream,
            GameSystems::Horizon,
            GameSystems::Present,
        )
            .chain(),
    );
}
