//! The terravox game: Bevy plugins that stream generated chunks around a first-person
//! player, draw them, and let the user retune the generator live in an egui panel.
//!
//! One plugin per concern, as in `shared/DESIGN.md`: [`config`] (the active world,
//! start-up options, notices), [`streaming`] (which chunks exist, worker tasks,
//! applying results and edits), [`player`] (input, movement, collision, camera),
//! [`editing`] (the targeted block, breaking, placing, the hotbar), [`persistence`]
//! (each world's edits and their save file), [`render`] (meshes, materials, light, fog,
//! the target outline, screenshots) and [`ui`] (the panel, stats, hotbar, notices).
//! [`GamePlugin`] adds them all; [`run`] opens the window.

pub mod config;
pub mod editing;
pub mod persistence;
pub mod player;
pub mod render;
pub mod streaming;
pub mod ui;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy::winit::WinitSettings;
use terravox_worldgen::WorldConfig;

/// Default view distance in chunks.
pub const DEFAULT_VIEW_DISTANCE: u32 = 12;

/// An automated screenshot: taken once the view distance is loaded and at least
/// `frames` frames and `seconds` seconds have passed after that; then the app exits.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotPlan {
    /// Where to write the PNG.
    pub path: PathBuf,
    /// Frames to wait after loading.
    pub frames: u32,
    /// Seconds to wait after loading.
    pub seconds: f32,
}

/// Everything the command line decides about a game session.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The world to start in.
    pub world: WorldConfig,
    /// View distance in chunks (4..=32).
    pub view_distance: u32,
    /// Take a screenshot and exit.
    pub screenshot: Option<ScreenshotPlan>,
    /// Start with the panel open.
    pub panel_open: bool,
    /// Folder for each world's saved edits; `None` keeps edits in memory only.
    pub save_dir: Option<PathBuf>,
}

/// All game plugins (everything but Bevy's own and egui).
pub struct GamePlugin {
    /// The start-up options.
    pub options: PlayOptions,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            config::plugin(self.options.clone()),
            persistence::plugin(self.options.save_dir.clone()),
            streaming::plugin,
            player::plugin,
            editing::plugin,
            render::plugin,
            ui::plugin,
        ));
    }
}

/// A windowless app with the game's world, saves, streaming, player and editing
/// plugins on `MinimalPlugins`: for tests and `terravox bench`.
pub fn headless_app(options: PlayOptions) -> App {
    let mut app = App::new();
    let saves = options.save_dir.clone();
    app.add_plugins(MinimalPlugins)
        .insert_resource(ui::PanelOpen(false))
        .add_plugins((
            config::plugin(options),
            persistence::plugin(saves),
            streaming::plugin,
            player::plugin,
            editing::plugin,
        ));
    app
}

/// Figures of a headless streaming run.
#[derive(Clone, Copy, Debug)]
pub struct StreamingFigures {
    /// From the first frame until the whole view distance was loaded.
    pub time_to_load: std::time::Duration,
    /// Frames run meanwhile.
    pub frames: u32,
    /// Median and 90th percentile main-thread time of one frame (all game systems).
    pub frame_median: std::time::Duration,
    /// 90th percentile of the same.
    pub frame_p90: std::time::Duration,
}

/// Streams `options.view_distance` around the spawn in a headless app and measures it;
/// returns the figures and the loaded app.
pub fn measure_streaming(
    options: PlayOptions,
    timeout: std::time::Duration,
) -> Result<(StreamingFigures, App), String> {
    use std::time::Instant;
    let mut app = headless_app(options);
    let start = Instant::now();
    let mut frames = Vec::new();
    loop {
        let t = Instant::now();
        app.update();
        frames.push(t.elapsed());
        if app.world().resource::<streaming::Chunks>().fully_loaded() {
            break;
        }
        if start.elapsed() > timeout {
            return Err(format!("the view distance did not load within {timeout:?}"));
        }
        // Leave the workers the cores, as a frame at 60 FPS would.
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let time_to_load = start.elapsed();
    let n = frames.len() as u32;
    frames.sort();
    let q = |f: f64| frames[((frames.len() - 1) as f64 * f) as usize];
    let figures = StreamingFigures {
        time_to_load,
        frames: n,
        frame_median: q(0.5),
        frame_p90: q(0.9),
    };
    Ok((figures, app))
}

/// Figures of block edits in a headless game.
#[derive(Clone, Copy, Debug)]
pub struct EditFigures {
    /// Edits made.
    pub edits: usize,
    /// Median time from an edit until every chunk holding the block has its new mesh.
    pub median: std::time::Duration,
    /// 90th percentile of the same.
    pub p90: std::time::Duration,
    /// The slowest edit.
    pub max: std::time::Duration,
}

/// Breaks `edits` surface blocks around the player of a loaded headless app, one at a
/// time, and measures how long until their chunks (and border neighbours) are remeshed.
pub fn measure_editing(app: &mut App, edits: usize) -> Result<EditFigures, String> {
    use std::time::Instant;
    use terravox_voxel::{Block, BlockPos};
    let feet = {
        let mut q = app
            .world_mut()
            .query_filtered::<&Transform, With<player::Player>>();
        q.single(app.world())
            .map_err(|e| e.to_string())?
            .translation
    };
    let mut times = Vec::new();
    for i in 0..edits as i32 {
        // A spiral-ish walk over the columns around the player, crossing chunk borders.
        let (x, z) = (
            feet.x as i32 + i % 23 - 11,
            feet.z as i32 + (i / 23) % 23 - 11,
        );
        let chunks = app.world().resource::<streaming::Chunks>();
        let top = (feet.y as i32 - 24..feet.y as i32 + 24)
            .rev()
            .map(|y| BlockPos::new(x, y, z))
            .find(|&p| chunks.block(p).is_some_and(|b| b.is_solid()))
            .ok_or("no ground near the player")?;
        let start = Instant::now();
        app.world_mut()
            .resource_scope(|world, mut edits: Mut<persistence::WorldEdits>| {
                let mut chunks = world.resource_mut::<streaming::Chunks>();
                if chunks.set_block(top, Block::Air) {
                    edits.record(top, Block::Air);
                }
            });
        let mut frames = 0;
        loop {
            app.update();
            frames += 1;
            let c = app.world().resource::<streaming::Chunks>();
            if c.remesh.is_empty() && c.remesh_wanted.is_empty() {
                break;
            }
            if frames > 10_000 {
                return Err("an edit was never remeshed".into());
            }
        }
        times.push(start.elapsed());
    }
    times.sort();
    let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize];
    Ok(EditFigures {
        edits,
        median: q(0.5),
        p90: q(0.9),
        max: q(1.0),
    })
}

/// Opens the game window and runs until it is closed (or the screenshot is taken).
pub fn run(options: PlayOptions) -> Result<(), String> {
    terravox_worldgen::Generator::new(&options.world).map_err(|e| e.to_string())?;
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
    .add_plugins(GamePlugin { options });
    if automated {
        // The Xvfb window never has focus; keep updating regardless.
        app.insert_resource(WinitSettings::continuous());
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game exited with code {code}")),
    }
}
