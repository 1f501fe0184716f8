//! The frame: every `Update` system of the game is in one of the [`GameSystems`],
//! which run in one declared order (below), on a single-threaded executor.
//!
//! ```text
//! Input ─▶ Simulate ─▶ Edit ─▶ Water ─▶ Persist ─▶ Stream ─▶ Horizon ─▶ Present ─▶ (egui pass)
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
    /// The water's steps: lay a finished step into the world, start the next.
    Water,
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
/// cores), each at the lowest scheduling priority ([`yield_to_frames`]). The
/// game's own systems are tiny and the main thread sleeps between frames, so the
/// workers take what it leaves, and when a frame starts the scheduler hands the core
/// back at once; the compute pool keeps the threads Bevy would give it (the
/// renderer's).
pub(crate) fn task_pools() -> TaskPoolPlugin {
    let cores = bevy::tasks::available_parallelism();
    let quarter = ((cores as f32 * 0.25).round() as usize).clamp(1, 4);
    let mut options = TaskPoolOptions::default();
    let workers = &mut options.async_compute;
    (workers.min_threads, workers.max_threads) = (cores, cores);
    workers.on_thread_spawn = Some(std::sync::Arc::new(yield_to_frames));
    options.compute.min_threads = cores.saturating_sub(2 * quarter).max(1);
    TaskPoolPlugin {
        task_pool_options: options,
    }
}

/// Gives the calling worker thread the lowest scheduling priority (on Linux the
/// highest niceness: the main thread gets about 70 times its share when both want
/// the core). A failure (a system that refuses) leaves it as it was.
fn yield_to_frames() {
    let _ = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min);
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
            GameSystems::Water,
            GameSystems::Persist,
            GameSystems::Stream,
            GameSystems::Horizon,
            GameSystems::Present,
        )
            .chain(),
    );
}
