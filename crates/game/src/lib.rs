//! The terravox game: Bevy plugins that stream generated chunks around a first-person
//! player, draw them, let the player break and place blocks, and retune the generator
//! live in an egui panel. The architecture is described in `docs/design.md`.
//!
//! # Frame order
//!
//! Every `Update` system sits in one of the [`GameSystems`], which run in this order
//! (declared once, below):
//!
//! ```text
//! Input ─▶ Simulate ─▶ Edit ─▶ Persist ─▶ Stream ─▶ Horizon ─▶ Present ─▶ (egui pass)
//! ```
//!
//! # Modules, lowest layer first
//!
//! A module uses only modules in a lower layer or earlier in the frame:
//!
//! - `config`: start-up options and settings (no systems);
//! - `world`: the world's state: the active world, loaded chunks, the edit overlay,
//!   [`WorldBlocks`], notices; applies world switch requests (`Input`);
//! - `mode`: the [`Mode`] state: Tab, Esc and the grabbing click (`Input`);
//! - `player`: input, body physics, camera, spawning (`Input`, `Simulate`);
//! - `editing`: hotbar, target, breaking and placing (`Input`, `Edit`);
//! - `persistence`: save files of the edit overlay, I/O only (`Persist`, `Last`);
//! - `signals`: SIGTERM/SIGINT end the game like closing the window (`Input`);
//! - `streaming`: which chunks exist, worker tasks, applying results (`Stream`);
//! - `horizon`: the rings of coarse chunks out to the horizon, their tasks and what
//!   is drawn (`Horizon`);
//! - `chunk_material`: the textured chunk material (packed vertices, texture array,
//!   water) and its shaders under `src/shaders/`;
//! - `physical_sky`: Bevy's atmosphere where the GPU supports it, else the gradient
//!   dome (`Startup`, `Present`);
//! - `render`: chunk and coarse meshes, light, fog, outline, screenshots (`Present`);
//! - `ui`: the egui panel, stats, HUD (`Present` and egui's pass);
//! - `bench`: measurements for `terravox bench`.

mod bench;
mod chunk_material;
mod clouds;
mod config;
mod editing;
mod horizon;
mod mode;
mod persistence;
mod physical_sky;
mod player;
mod render;
mod signals;
mod sky;
mod sky_dome;
mod streaming;
mod ui;
mod world;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::{PresentMode, WindowResolution};
use bevy::winit::WinitSettings;

pub use bench::{
    EditFigures, FlightFigures, HorizonFigures, LoadFigures, StreamingFigures, holes_in_horizon,
    measure_editing, measure_flight, measure_horizon, measure_save_loading, measure_streaming,
    quantiles,
};
pub use config::{
    DEFAULT_HORIZON, DEFAULT_VIEW_DISTANCE, HorizonDistance, PlayOptions, ScreenshotPlan,
    ViewDistance,
};
pub use editing::{HOTBAR, Hotbar, Target, break_block, eye_ray, find_target, place_block};
pub use horizon::{CoarseMeshed, Horizon, RingFigures, Rings};
pub use persistence::Saves;
pub use physical_sky::SkyChoice;
pub use player::body::{self, EYE, MoveInput};
pub use player::{Player, SPAWN_RADIUS, spawn_point, spawn_pose, spawn_view, yaw_towards};
pub use signals::ExitOnSignal;
pub use sky::{DAY_SECONDS, DEFAULT_HOUR, SkyLight, TimeOfDay, sky_at};
pub use streaming::{
    ChunkMeshed, Culling, CullingCounts, StreamStats, in_view, should_unload, wanted_chunks,
};
pub use world::{
    ActiveWorld, Chunks, DiscardEdits, EditRefused, Notices, SwitchWorld, WorldBlocks,
    WorldChanged, WorldEdits,
};

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

/// What the player's input goes to.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The cursor is free and the world is idle; a click in the world starts playing.
    #[default]
    Released,
    /// The cursor is grabbed: mouse look, movement, breaking and placing.
    Playing,
    /// The generator panel has focus (Tab); gameplay keys are off.
    Panel,
}

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
        // The game's systems are tiny (the heavy work runs on task pools): on a few cores
        // the multi-threaded executor's thread handoffs cost more than the systems.
        app.edit_schedule(Update, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
        app.configure_sets(
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
            Mode::Panel
        } else {
            Mode::Released
        };
        app.insert_state(start)
            .edit_schedule(StateTransition, |s| {
                s.set_executor(SingleThreadedExecutor::new());
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
                sky::plugin(self.options.time),
            ));
        if !self.headless {
            app.add_plugins((
                chunk_material::plugin,
                physical_sky::plugin(self.options.sky),
                render::plugin,
                sky_dome::plugin,
                clouds::plugin,
                ui::plugin,
                ExitOnSignal,
            ));
        }
    }
}

/// Whether the world around the player is complete: the player placed at the spawn,
/// every wanted chunk loaded and meshed, and the world's saved edits read and laid
/// over it.
pub fn settled(world: &World) -> bool {
    world.resource::<player::Spawn>().placed()
        && world.resource::<Chunks>().fully_loaded()
        && !world.resource::<Saves>().loading()
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

/// On Linux and the BSDs, a window needs an X11 or Wayland display: say so rather
/// than panic in the windowing library.
fn find_display() -> Result<(), String> {
    let unix_desktop = cfg!(all(unix, not(target_os = "macos")));
    let display = ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if unix_desktop && !display {
        return Err(
            "no display to open the game window on (DISPLAY and WAYLAND_DISPLAY are \
                    unset). Run it in a desktop session, or under `xvfb-run` for a virtual \
                    one. `terravox map`, `terravox config` and `terravox bench` need no window."
                .into(),
        );
    }
    Ok(())
}

/// Looks for a GPU (or a software renderer) the way the renderer will, so a machine
/// without one gets a clear message instead of a panic.
fn find_gpu() -> Result<(), String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        bevy::tasks::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()));
    adapter.map(|_| ()).map_err(|e| {
        format!(
            "no GPU or graphics driver was found ({e}). terravox draws with Vulkan, Metal, \
             DirectX 12 or OpenGL. On Linux without a GPU, install Mesa's software Vulkan \
             (`apt-get install mesa-vulkan-drivers libvulkan1`) and run with \
             WGPU_BACKEND=vulkan. `terravox map`, `terravox config` and `terravox bench` \
             work without a GPU."
        )
    })
}

/// Opens the game window and runs until it is closed (or the screenshot is taken).
pub fn run(options: PlayOptions) -> Result<(), String> {
    terravox_worldgen::Generator::new(&options.world).map_err(|e| e.to_string())?;
    find_display()?;
    find_gpu()?;
    let automated = options.screenshot.is_some();
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: format!("terravox — {}", options.world.seed.text()),
            resolution: WindowResolution::new(1280, 720),
            present_mode: PresentMode::AutoVsync,
            ..default()
        }),
        ..default()
    }))
    .add_plugins(bevy_egui::EguiPlugin::default())
    .add_plugins(GamePlugin {
        options,
        headless: false,
    });
    if automated {
        // The Xvfb window never has focus; keep updating regardless.
        app.insert_resource(WinitSettings::continuous());
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game exited with code {code}")),
    }
}
