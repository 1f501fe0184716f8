//! Measurements of a headless game for `terravox bench`: streaming the view distance
//! around the spawn, and remeshing after block edits.

use std::time::{Duration, Instant};

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use terravox_voxel::{Block, BlockPos};

use crate::PlayOptions;
use crate::persistence::Saves;
use crate::player::Player;
use crate::streaming::{Culling, CullingCounts};
use crate::world::{Chunks, WorldBlocks};

/// Updates `app` until `done` says so, a millisecond apart (leaving the workers the
/// cores, as a frame at 60 FPS would). Returns the time taken and each frame's
/// main-thread time, or the timeout if it passed first.
fn run_frames(
    app: &mut App,
    timeout: Duration,
    done: impl Fn(&World) -> bool,
) -> Result<(Duration, Vec<Duration>), Duration> {
    let start = Instant::now();
    let mut frames = Vec::new();
    loop {
        let t = Instant::now();
        app.update();
        frames.push(t.elapsed());
        if done(app.world()) {
            return Ok((start.elapsed(), frames));
        }
        if start.elapsed() > timeout {
            return Err(timeout);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The `q`-quantile (0 to 1, nearest rank, rounded) of `samples`, after sorting them.
pub fn quantiles(mut samples: Vec<Duration>) -> impl Fn(f64) -> Duration {
    samples.sort();
    move |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize]
}

/// Figures of a headless streaming run.
#[derive(Clone, Copy, Debug)]
pub struct StreamingFigures {
    /// From the first frame until the whole view distance was loaded.
    pub time_to_load: Duration,
    /// Frames run meanwhile.
    pub frames: u32,
    /// Median and 90th percentile main-thread time of one frame (all game systems).
    pub frame_median: Duration,
    /// 90th percentile of the same.
    pub frame_p90: Duration,
    /// What cave culling does once loaded.
    pub culling: CullingCounts,
    /// Main-thread time of the culling walk once loaded.
    pub walk: Duration,
}

/// Streams `options.view_distance` around the spawn in a headless app and measures it;
/// returns the figures and the loaded app.
pub fn measure_streaming(
    options: PlayOptions,
    timeout: Duration,
) -> Result<(StreamingFigures, App), String> {
    let mut app = crate::headless_app(options);
    let (time_to_load, frames) = run_frames(&mut app, timeout, crate::settled)
        .map_err(|t| format!("the view distance did not load within {t:?}"))?;
    let n = frames.len() as u32;
    let q = quantiles(frames);
    let culling = app.world().resource::<Culling>();
    let figures = StreamingFigures {
        time_to_load,
        frames: n,
        frame_median: q(0.5),
        frame_p90: q(0.9),
        culling: culling.counts(app.world().resource::<Chunks>()),
        walk: culling.walk_time,
    };
    Ok((figures, app))
}

/// Figures of block edits in a headless game.
#[derive(Clone, Copy, Debug)]
pub struct EditFigures {
    /// Edits made.
    pub edits: usize,
    /// Median time from an edit until every chunk holding the block has its new mesh.
    pub median: Duration,
    /// 90th percentile of the same.
    pub p90: Duration,
    /// The slowest edit.
    pub max: Duration,
}

/// Breaks `edits` surface blocks around the player of a loaded headless app, one at a
/// time, and measures how long until their chunks (and border neighbours) are remeshed.
pub fn measure_editing(app: &mut App, edits: usize) -> Result<EditFigures, String> {
    let feet = {
        let mut q = app.world_mut().query::<&Player>();
        q.single(app.world()).map_err(|e| e.to_string())?.position
    };
    let mut times = Vec::new();
    for i in 0..edits as i32 {
        // A spiral-ish walk over the columns around the player, crossing chunk borders.
        let (x, z) = (
            feet.x as i32 + i % 23 - 11,
            feet.z as i32 + (i / 23) % 23 - 11,
        );
        let chunks = app.world().resource::<Chunks>();
        let top = (feet.y as i32 - 24..feet.y as i32 + 24)
            .rev()
            .map(|y| BlockPos::new(x, y, z))
            .find(|&p| chunks.block(p).is_some_and(|b| b.is_solid()))
            .ok_or("no ground near the player")?;
        let start = Instant::now();
        let mut blocks = SystemState::<WorldBlocks>::new(app.world_mut());
        blocks
            .get_mut(app.world_mut())
            .map_err(|e| e.to_string())?
            .set(top, Block::Air)
            .map_err(|e| e.to_string())?;
        let mut frames = 0;
        loop {
            app.update();
            frames += 1;
            if app.world().resource::<Chunks>().remeshed() {
                break;
            }
            if frames > 10_000 {
                return Err("an edit was never remeshed".into());
            }
        }
        times.push(start.elapsed());
    }
    let q = quantiles(times);
    Ok(EditFigures {
        edits,
        median: q(0.5),
        p90: q(0.9),
        max: q(1.0),
    })
}

/// Figures of a game starting on a world with a big save.
#[derive(Clone, Copy, Debug)]
pub struct LoadFigures {
    /// From the first frame until the edits were read (and taken in).
    pub loaded_after: Duration,
    /// Frames meanwhile.
    pub frames: u32,
    /// Median main-thread time of those frames.
    pub frame_median: Duration,
    /// 99th percentile of the same.
    pub frame_p99: Duration,
    /// The longest of those frames.
    pub frame_max: Duration,
}

/// Starts a headless game whose `options.save_dir` holds a save for its world, and
/// measures the frames while the save is read (they must not stall).
pub fn measure_save_loading(
    options: PlayOptions,
    timeout: Duration,
) -> Result<LoadFigures, String> {
    let mut app = crate::headless_app(options);
    let (loaded_after, frames) =
        run_frames(&mut app, timeout, |w| !w.resource::<Saves>().loading())
            .map_err(|t| format!("the save did not load within {t:?}"))?;
    let n = frames.len() as u32;
    let q = quantiles(frames);
    Ok(LoadFigures {
        loaded_after,
        frames: n,
        frame_median: q(0.5),
        frame_p99: q(0.99),
        frame_max: q(1.0),
    })
}

/// Figures of loading the horizon in a headless game.
#[derive(Clone, Debug)]
pub struct HorizonFigures {
    /// From the first frame until the view and every ring out to the horizon were
    /// loaded.
    pub time_to_load: Duration,
    /// Frames run meanwhile.
    pub frames: u32,
    /// Median and 99th percentile main-thread time of one frame.
    pub frame_median: Duration,
    /// 99th percentile of the same.
    pub frame_p99: Duration,
    /// The slowest frame.
    pub frame_max: Duration,
    /// Per level 1 and up: chunks, drawn ones, quads, mesh bytes.
    pub rings: Vec<crate::RingFigures>,
    /// Mesh bytes of the full-detail chunks.
    pub view_bytes: usize,
    /// Generate + mesh time per coarse chunk, mean.
    pub per_chunk: Duration,
    /// Main-thread time of the last walk over the levels.
    pub resolve: Duration,
}

/// Whether the view and the horizon are loaded.
fn horizon_settled(world: &World) -> bool {
    crate::settled(world) && world.resource::<crate::Horizon>().complete()
}

/// Loads the view and the horizon of `options` around the spawn in a headless app;
/// returns the figures and the loaded app.
pub fn measure_horizon(
    options: PlayOptions,
    timeout: Duration,
) -> Result<(HorizonFigures, App), String> {
    let mut app = crate::headless_app(options);
    let (time_to_load, frames) = run_frames(&mut app, timeout, horizon_settled)
        .map_err(|t| format!("the horizon did not load within {t:?}"))?;
    let n = frames.len() as u32;
    let q = quantiles(frames);
    let h = app.world().resource::<crate::Horizon>();
    let figures = HorizonFigures {
        time_to_load,
        frames: n,
        frame_median: q(0.5),
        frame_p99: q(0.99),
        frame_max: q(1.0),
        rings: h.rings(),
        view_bytes: app.world().resource::<Chunks>().mesh_bytes(),
        per_chunk: h.work / h.finished.max(1) as u32,
        resolve: h.resolve_time,
    };
    Ok((figures, app))
}

/// Spots every 256 blocks (world-aligned) inside the horizon around `feet`, and how
/// many of them have no chunk drawn at any level at their surface (no loaded
/// full-detail chunk, no drawn coarse one). `heights` caches the surface heights.
pub fn holes_in_horizon(
    world: &World,
    feet: bevy::math::DVec3,
    generator: &terravox_worldgen::Generator,
    heights: &mut std::collections::HashMap<(i32, i32), i32>,
) -> (usize, usize) {
    let horizon = world.resource::<crate::HorizonDistance>().0 as f64;
    let (chunks, h) = (
        world.resource::<Chunks>(),
        world.resource::<crate::Horizon>(),
    );
    let r = (horizon / 256.0) as i32;
    let (cx, cz) = (
        (feet.x / 256.0).round() as i32,
        (feet.z / 256.0).round() as i32,
    );
    let (mut spots, mut missing) = (0, 0);
    for dz in -r..=r {
        for dx in -r..=r {
            let (x, z) = ((cx + dx) * 256, (cz + dz) * 256);
            let (ex, ez) = (x as f64 - feet.x, z as f64 - feet.z);
            if (ex * ex + ez * ez).sqrt() >= horizon - 64.0 {
                continue;
            }
            spots += 1;
            let y = *heights
                .entry((x, z))
                .or_insert_with(|| generator.surface_height(x, z));
            let (c, _) = BlockPos::new(x, y, z).to_chunk();
            if !(chunks.loaded.contains_key(&c) || h.covers(c)) {
                missing += 1;
            }
        }
    }
    (spots, missing)
}

/// Figures of a flight over the horizon.
#[derive(Clone, Copy, Debug)]
pub struct FlightFigures {
    /// Blocks flown.
    pub distance: f64,
    /// Frames run.
    pub frames: u32,
    /// Frames where some spot inside the horizon had no chunk drawn at any level.
    pub hole_frames: u32,
    /// Spots checked each frame.
    pub spots: usize,
    /// Median and 99th percentile main-thread time of one frame.
    pub frame_median: Duration,
    /// 99th percentile of the same.
    pub frame_p99: Duration,
}

/// Flies a loaded headless app (see [`measure_horizon`]) `distance` blocks east at
/// `speed` blocks a second of real time, and checks every frame that the surface at
/// spots every 256 blocks inside the horizon is covered by a drawn chunk of some
/// level (a loaded full-detail chunk, or a drawn coarse one).
pub fn measure_flight(app: &mut App, distance: f64, speed: f64) -> Result<FlightFigures, String> {
    let generator = app
        .world()
        .resource::<crate::ActiveWorld>()
        .generator()
        .clone();
    let mut heights = std::collections::HashMap::new();
    let start = {
        let mut q = app.world_mut().query::<&mut Player>();
        let mut p = q.single_mut(app.world_mut()).map_err(|e| e.to_string())?;
        p.flying = true;
        p.noclip = true;
        p.position
    };
    let (mut frames, mut holes, mut times) = (0, 0, Vec::new());
    let mut spots;
    let t0 = Instant::now();
    loop {
        let flown = (t0.elapsed().as_secs_f64() * speed).min(distance);
        let feet = {
            let mut q = app.world_mut().query::<&mut Player>();
            let mut p = q.single_mut(app.world_mut()).map_err(|e| e.to_string())?;
            p.position = start + bevy::math::DVec3::X * flown;
            p.position
        };
        let t = Instant::now();
        app.update();
        times.push(t.elapsed());
        frames += 1;
        let missing;
        (spots, missing) = holes_in_horizon(app.world(), feet, &generator, &mut heights);
        holes += u32::from(missing > 0);
        if flown >= distance {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let q = quantiles(times);
    Ok(FlightFigures {
        distance,
        frames,
        hole_frames: holes,
        spots,
        frame_median: q(0.5),
        frame_p99: q(0.99),
    })
}
