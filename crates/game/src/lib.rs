//! The terravox game: Bevy plugins that stream generated chunks around a first-person
//! player, draw them, let the player break and place blocks, and retune the generator
//! live in an egui panel. The architecture is described in `docs/design.md`; the
//! frame order is declared once, in `schedule`.
//!
//! # Modules, lowest layer first
//!
//! A module uses only modules above it in this list (arrows point one way; a test in
//! the root package fails on any cycle between files):
//!
//! - `schedule`: [`GameSystems`], the frame order, the executor;
//! - `mode`: the [`Mode`] state: Tab, Esc and the grabbing click (`Input`);
//! - `config`: start-up options and settings (no systems);
//! - `world`: the active world, the edit overlay, the stream centre and render
//!   origin, notices; applies world switch requests (`Input`);
//! - `streaming`: the pipeline every level of detail runs on, the full-detail chunk
//!   store and its systems, the view's geometry, cave culling, [`WorldBlocks`] (the
//!   one way to change a block) (`Stream`);
//! - `horizon`: the rings of coarse chunks out to the horizon on the same pipeline
//!   (`Horizon`);
//! - `player`: spawn, input, body physics, eye, camera (`Input`, `Simulate`);
//! - `editing`: hotbar, target, breaking and placing (`Input`, `Edit`);
//! - `persistence`: save files of the edit overlay, I/O only (`Persist`, `Last`);
//! - `signals`: SIGTERM/SIGINT end the game like closing the window (`Input`);
//! - `sky`: clock, light model, which sky, fog, sun, underwater, dome, clouds;
//! - `render`: the chunk material, the meshes of every level, outline, lantern,
//!   screenshot (`Present`);
//! - `ui`: the egui panel, stats, HUD (`Present` and egui's pass);
//! - `bench`: measurements for `terravox bench`; `launch`: the window.
//!
//! Headless games (tests, `terravox bench`) drop `render`, the drawn `sky`, `ui` and
//! `signals`: they carry no render data.

// What only the tests use is reachable only with `test-support`: dead code is found
// in that build (the one `clippy --all-targets` and the tests make).
#![cfg_attr(
    not(feature = "test-support"),
    allow(dead_code, unused_imports, unreachable_pub)
)]

pub mod bench;
mod config;
mod editing;
mod horizon;
mod launch;
mod mode;
mod persistence;
mod player;
mod render;
mod schedule;
mod signals;
mod sky;
mod streaming;
mod ui;
mod world;

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

pub use config::{DEFAULT_HORIZON, DEFAULT_VIEW_DISTANCE, PanelView, PlayOptions, ScreenshotPlan};
pub use launch::run;
pub use sky::SkyChoice;

/// What the tests reach into: the game's state, messages and pure functions
/// (feature `test-support`, which the crate's own and the root package's tests turn
/// on; the game and the CLI do not need it).
#[cfg(feature = "test-support")]
pub use {
    config::{HorizonDistance, ViewDistance},
    editing::{HOTBAR, Hotbar, Target, break_block, find_target, place_block},
    horizon::{Horizon, RingFigures, Rings},
    mode::Mode,
    persistence::Saves,
    player::body::{self, EYE, MoveInput},
    player::eye::eye_ray,
    player::{Player, spawn_pose, spawn_view, yaw_towards},
    schedule::GameSystems,
    signals::ExitOnSignal,
    sky::{DAY_SECONDS, DEFAULT_HOUR, SkyLight, TimeOfDay, sky_at},
    streaming::{
        ChunkMeshed, ChunkUnloaded, Chunks, Culling, CullingCounts, EditRefused, StreamStats,
        WorldBlocks, in_view, should_unload, wanted_chunks,
    },
    world::{
        ActiveWorld, DEBOUNCE, DiscardEdits, Draft, Notices, ReshapeWorld, SwitchWorld,
        WorldChanged, WorldEdits, WorldReshaped,
    },
};

/// All game plugins on top of Bevy's (and egui's, unless headless).
pub struct GamePlugin {
    /// The start-up options.
    pub options: PlayOptions,
    /// No window, no rendering, no UI: for tests and `terravox bench`. Input
    /// resources are created empty so tests can press keys.
    pub headless: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(schedule::plugin);
        if self.headless {
            if !app.is_plugin_added::<StatesPlugin>() {
                app.add_plugins(StatesPlugin);
            }
            app.init_resource::<ButtonInput<KeyCode>>()
                .init_resource::<ButtonInput<MouseButton>>()
                .init_resource::<AccumulatedMouseMotion>()
                .init_resource::<AccumulatedMouseScroll>();
        }
        let start = if self.options.panel_open {
            mode::Mode::Panel
        } else {
            mode::Mode::Released
        };
        app.insert_state(start)
            .edit_schedule(StateTransition, |s| {
                s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
            })
            .add_plugins((
                config::plugin(self.options.clone()),
                world::plugin(self.options.world.clone()),
                mode::plugin,
                player::plugin,
                editing::plugin,
                persistence::plugin(self.options.save_dir.clone()),
                streaming::plugin(self.options.culling),
                horizon::plugin,
                sky::clock_plugin(self.options.time),
            ));
        if !self.headless {
            app.add_plugins((
                render::material::plugin,
                sky::plugin(self.options.sky),
                render::plugin,
                ui::plugin,
                signals::ExitOnSignal,
            ));
        }
    }
}

/// Whether the world around the player is complete: the player placed at the spawn,
/// every wanted chunk loaded and meshed, and the world's saved edits read and laid
/// over it.
pub fn settled(world: &World) -> bool {
    world.resource::<player::Spawn>().placed()
        && world.resource::<streaming::Chunks>().fully_loaded()
        && !world.resource::<persistence::Saves>().loading()
}

/// A windowless game on `MinimalPlugins`: for tests and `terravox bench`.
pub fn headless_app(options: PlayOptions) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(GamePlugin {
        options,
        headless: true,
    });
    app
}
