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
//! - `latest`: latest-wins background jobs (the spawn search, the panel's maps);
//!   `frame_times`: the figures of a run of frames;
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
//! - `editing`: hotbar, target, breaking and placing, the bucket (`Input`, `Edit`);
//! - `persistence`: save files of the edit overlay, I/O only (`Persist`, `Last`);
//! - `water_flow`: the water's steps after an edit, on a worker (`Water`);
//! - `net`: playing on a server: the session, the server's edits laid in, this
//!   player's edits and moves sent, the others and the chat (`Input`, `Simulate`,
//!   `Edit`);
//! - `readiness`: whether the world around the player (and the horizon) is
//!   complete: [`settled`];
//! - `signals`: SIGTERM/SIGINT end the game like closing the window (`Input`);
//! - `sky`: clock, light model, which sky, fog, sun, underwater, dome, clouds;
//! - `render`: the chunk material, the meshes of every level, outline, lantern,
//!   screenshot (`Present`);
//! - `ui`: the egui panel, stats, HUD (`Present` and egui's pass);
//! - `app`: [`GamePlugin`], every plugin above (headless or not), and
//!   [`headless_app`];
//! - `bench`: measurements for `terravox bench`; `launch`: the window;
//! - `oracles` (`test-support` only): what the tests check the game against.
//!
//! Headless games (tests, `terravox bench`) drop `render`, the drawn `sky`, `ui` and
//! `signals`: they carry no render data.

// What only the tests use is reachable only with `test-support`: dead code is found
// in that build (the one `clippy --all-targets` and the tests make).
#![cfg_attr(
    not(feature = "test-support"),
    allow(dead_code, unused_imports, unreachable_pub)
)]

mod app;
pub mod bench;
mod config;
mod editing;
mod frame_times;
mod horizon;
mod latest;
mod launch;
mod mode;
mod net;
#[cfg(feature = "test-support")]
mod oracles;
mod persistence;
mod player;
mod readiness;
mod render;
mod schedule;
mod signals;
mod sky;
mod streaming;
mod ui;
mod water_flow;
mod world;

pub use app::{GamePlugin, headless_app};
pub use config::{
    DEFAULT_HORIZON, DEFAULT_HORIZON_MEMORY, DEFAULT_VIEW_DISTANCE, HorizonDistance, HorizonMemory,
    PanelView, PlayOptions, Remote, ScreenshotPlan, SkyChoice, ViewDistance,
};
pub use launch::run;
pub use readiness::settled;

/// What the tests reach into: the game's state, messages and pure functions
/// (feature `test-support`, which the crate's own and the root package's tests turn
/// on; the game and the CLI do not need it).
#[cfg(feature = "test-support")]
pub use {
    editing::{HOTBAR, Hotbar, Slot, Target, break_block, find_target, place_block, take_water},
    horizon::{Detail, Horizon, RingFigures, Rings},
    mode::Mode,
    net::{Chat, Hosting, OpenToOthers, Others, Say, Session},
    oracles::holes_in_horizon,
    persistence::Saves,
    player::body::{self, EYE, Keys, MoveInput},
    player::eye::eye_ray,
    player::{Player, spawn_pose, spawn_view},
    readiness::horizon_settled,
    schedule::GameSystems,
    signals::ExitOnSignal,
    sky::{DAY_SECONDS, DEFAULT_HOUR, SkyLight, TimeOfDay, sky_at},
    streaming::{
        ChunkMeshed, ChunkUnloaded, Chunks, Culling, CullingCounts, StreamStats, WorldBlocks,
        in_view, should_unload, wanted_chunks,
    },
    water_flow::{StepFigures, Water},
    world::{
        ActiveWorld, DEBOUNCE, DiscardEdits, Draft, LOCAL_PLAYER, Notices, ReshapeWorld,
        SwitchWorld, WorldAuthority, WorldChanged, WorldReshaped,
    },
};
