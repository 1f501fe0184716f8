//! Measurements of a headless game for `terravox bench`: streaming the view distance
//! around the spawn, remeshing after block edits, and (`dam_break`) a dam break.

mod dam_break;

pub use dam_break::{DamBreakFigures, measure_dam_break};

use std::time::{Duration, Instant};

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use terravox_voxel::{Block, BlockPos};

use crate::app::headless_app;
use crate::config::{HorizonDistance, PlayOptions};
use crate::horizon::{Horizon, RingFigures};
use crate::persistence::Saves;
use crate::player::Player;
use crate::readiness::{horizon_settled, settled};
use crate::streaming::{Chunks, WorldBlocks};
use crate::streaming::{Culling, CullingCounts};
use crate::world::{ActiveWorld, Draft};

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

pub use crate::frame_times::{FrameTimes, quantiles};

/// Figures of a headless streaming run.
#[derive(Clone, Copy, Debug)]
pub struct StreamingFigures {
    /// From the first frame until the whole view distance was loaded.
    pub time_to_load: Duration,
    /// The frames run meanwhile.
    pub frames: FrameTimes,
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
    let mut app = headless_app(options);
    let (time_to_load, frames) = run_frames(&mut app, timeout, settled)
        .map_err(|t| format!("the view distance did not load within {t:?}"))?;
    let culling = app.world().resource::<Culling>();
    let figures = StreamingFigures {
        time_to_load,
        frames: FrameTimes::of(frames),
        culling: culling.counts(app.world().resource::<Chunks>()),
        walk: culling.walk_time,
    };
    Ok((figures, app))
}

/// Figures of a live reshape: the world regenerated in place after a change of the
/// panel's settings with *Live* on.
#[derive(Clone, Copy, Debug)]
pub struct ReshapeFigures {
    /// From the reshape until every loaded chunk (and the horizon) was replaced.
    pub time: Duration,
    /// The frames run meanwhile.
    pub frames: FrameTimes,
}

/// Turns *Live* on in a loaded headless app and changes the seed (every chunk
/// changes: the most a slider move can ask), waits out the debounce, then measures
/// the frames until every loaded chunk and the horizon are the new world's.
pub fn measure_live_reshaping(app: &mut App, timeout: Duration) -> Result<ReshapeFigures, String> {
    let epoch = app.world().resource::<ActiveWorld>().epoch();
    let now = app.world().resource::<Time<Real>>().elapsed();
    {
        let mut draft = app.world_mut().resource_mut::<Draft>();
        let mut config = draft.pending().clone();
        config.seed = terravox_worldgen::Seed::new(format!("{}, reshaped", config.seed.text()));
        draft.set_live(true, now);
        draft.set(config, now);
    }
    let reshaped = |w: &World| w.resource::<ActiveWorld>().epoch() > epoch;
    run_frames(app, timeout, reshaped).map_err(|t| format!("no reshape within {t:?}"))?;
    let (time, frames) = run_frames(app, timeout, horizon_settled)
        .map_err(|t| format!("not regenerated within {t:?}"))?;
    Ok(ReshapeFigures {
        time,
        frames: FrameTimes::of(frames),
    })
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
    let feet = feet(app)?;
    let mut times = Vec::new();
    for i in 0..edits as i32 {
        let top = ground_near(app, feet, i)?;
        let start = Instant::now();
        break_block_at(app, top)?;
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

/// The player's feet.
fn feet(app: &mut App) -> Result<bevy::math::DVec3, String> {
    let mut q = app.world_mut().query::<&Player>();
    Ok(q.single(app.world()).map_err(|e| e.to_string())?.position)
}

/// The highest loaded solid block of the `i`-th column of a spiral-ish walk over the
/// columns around `feet` (crossing chunk borders), within 24 blocks of them.
fn ground_near(app: &App, feet: bevy::math::DVec3, i: i32) -> Result<BlockPos, String> {
    let (x, z) = (
        feet.x as i32 + i % 23 - 11,
        feet.z as i32 + (i / 23) % 23 - 11,
    );
    let chunks = app.world().resource::<Chunks>();
    (feet.y as i32 - 24..feet.y as i32 + 24)
        .rev()
        .map(|y| BlockPos::new(x, y, z))
        .find(|&p| chunks.block(p).is_some_and(|b| b.is_solid()))
        .ok_or_else(|| "no ground near the player".to_owned())
}

/// Breaks the block at `p` through [`WorldBlocks`], as the player's click does.
fn break_block_at(app: &mut App, p: BlockPos) -> Result<(), String> {
    let mut blocks = SystemState::<WorldBlocks>::new(app.world_mut());
    blocks
        .get_mut(app.world_mut())
        .map_err(|e| e.to_string())?
        .set(p, Block::Air)
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Figures of a game starting on a world with a big save.
#[derive(Clone, Copy, Debug)]
pub struct LoadFigures {
    /// From the first frame until the edits were read (and taken in).
    pub loaded_after: Duration,
    /// The frames meanwhile.
    pub frames: FrameTimes,
    /// Once loaded, the frames that started an autosave of every edit (the world's
    /// and one more each time).
    pub autosaves: FrameTimes,
    /// The other frames meanwhile, to compare.
    pub other_frames: FrameTimes,
}

/// Autosaves timed after a save is read.
const AUTOSAVES: usize = 5;

/// Breaks a block near the player `n` times, each time running frames until the
/// autosave starts writing every edit and then until that write landed. Returns the
/// main-thread time of each frame that started a write, and of every other frame.
fn time_autosaves(
    app: &mut App,
    n: usize,
    timeout: Duration,
) -> Result<(Vec<Duration>, Vec<Duration>), String> {
    let start = Instant::now();
    let (mut started, mut others) = (Vec::new(), Vec::new());
    let writing = |app: &App| app.world().resource::<Saves>().writing();
    let feet = feet(app)?;
    for i in 0..n as i32 {
        let p = ground_near(app, feet, i)?;
        break_block_at(app, p)?;
        // Frames until one starts the write, then until it has landed.
        for until_started in [true, false] {
            while writing(app) != until_started {
                if start.elapsed() > timeout {
                    return Err(format!("no autosave within {timeout:?}"));
                }
                let t = Instant::now();
                app.update();
                let frame = t.elapsed();
                if until_started && writing(app) {
                    started.push(frame);
                } else {
                    others.push(frame);
                }
            }
        }
    }
    Ok((started, others))
}

/// Starts a headless game whose `options.save_dir` holds a save for its world, and
/// measures the frames while the save is read (they must not stall).
pub fn measure_save_loading(
    options: PlayOptions,
    timeout: Duration,
) -> Result<LoadFigures, String> {
    let mut app = headless_app(options);
    let (loaded_after, frames) =
        run_frames(&mut app, timeout, |w| !w.resource::<Saves>().loading())
            .map_err(|t| format!("the save did not load within {t:?}"))?;
    run_frames(&mut app, timeout, settled)
        .map_err(|t| format!("the view did not load within {t:?}"))?;
    // A quarter second of game time a frame: an autosave is due every 20 frames.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        Duration::from_millis(250),
    ));
    let (started, others) = time_autosaves(&mut app, AUTOSAVES, timeout)?;
    Ok(LoadFigures {
        loaded_after,
        frames: FrameTimes::of(frames),
        autosaves: FrameTimes::of(started),
        other_frames: FrameTimes::of(others),
    })
}

/// Figures of loading the horizon in a headless game.
#[derive(Clone, Debug)]
pub struct HorizonFigures {
    /// From the first frame until the view and every ring out to the horizon were
    /// loaded.
    pub time_to_load: Duration,
    /// The frames run meanwhile.
    pub frames: FrameTimes,
    /// Per level 1 and up: chunks, drawn ones, quads, mesh bytes.
    pub rings: Vec<RingFigures>,
    /// Mesh bytes of the full-detail chunks.
    pub view_bytes: usize,
    /// Full-detail chunks with faces that cave culling lets through: a draw call
    /// each, two with water.
    pub view_drawn: usize,
    /// Generate + mesh time per coarse chunk, mean.
    pub per_chunk: Duration,
    /// Main-thread time of the last walk over the levels.
    pub resolve: Duration,
    /// How wide the rings of levels 2 and up were drawn, a share of their full
    /// width (narrowed to the memory budget).
    pub detail: f64,
}

/// Loads the view and the horizon of `options` around the spawn in a headless app;
/// returns the figures and the loaded app.
pub fn measure_horizon(
    options: PlayOptions,
    timeout: Duration,
) -> Result<(HorizonFigures, App), String> {
    let mut app = headless_app(options);
    let (time_to_load, frames) = run_frames(&mut app, timeout, horizon_settled)
        .map_err(|t| format!("the horizon did not load within {t:?}"))?;
    let h = app.world().resource::<Horizon>();
    let figures = HorizonFigures {
        time_to_load,
        frames: FrameTimes::of(frames),
        rings: h.rings(),
        view_bytes: app.world().resource::<Chunks>().mesh_bytes(),
        view_drawn: app
            .world()
            .resource::<Culling>()
            .counts(app.world().resource::<Chunks>())
            .drawn,
        per_chunk: h.work / h.finished.max(1) as u32,
        resolve: h.resolve_time,
        detail: h.detail().fraction(),
    };
    Ok((figures, app))
}

/// Calls `each` with every spot every 256 blocks (world-aligned) inside the horizon
/// around `feet` and whether it is covered: whether a chunk is drawn at any level at
/// its surface (a loaded full-detail chunk or a drawn coarse one). `heights` caches
/// the surface heights. The flight checks every frame with it; so do the tests
/// (`holes_in_horizon`, with `test-support`).
pub(crate) fn visit_spots(
    world: &World,
    feet: bevy::math::DVec3,
    generator: &terravox_worldgen::Generator,
    heights: &mut std::collections::HashMap<(i32, i32), i32>,
    mut each: impl FnMut((i32, i32), bool),
) {
    let horizon = world.resource::<HorizonDistance>().0 as f64;
    let (chunks, h) = (world.resource::<Chunks>(), world.resource::<Horizon>());
    let r = (horizon / 256.0) as i32;
    let (cx, cz) = (
        (feet.x / 256.0).round() as i32,
        (feet.z / 256.0).round() as i32,
    );
    for dz in -r..=r {
        for dx in -r..=r {
            let (x, z) = ((cx + dx) * 256, (cz + dz) * 256);
            let (ex, ez) = (x as f64 - feet.x, z as f64 - feet.z);
            if (ex * ex + ez * ez).sqrt() >= horizon - 64.0 {
                continue;
            }
            let y = *heights
                .entry((x, z))
                .or_insert_with(|| generator.surface_height(x, z));
            let (c, _) = BlockPos::new(x, y, z).to_chunk();
            each((x, z), chunks.is_loaded(c) || h.covers(c));
        }
    }
}

/// Figures of a flight over the horizon.
#[derive(Clone, Copy, Debug)]
pub struct FlightFigures {
    /// Blocks flown.
    pub distance: f64,
    /// Frames a second, of game time and of wall time.
    pub fps: f64,
    /// The frames run.
    pub frames: FrameTimes,
    /// Frames that ended after the next one was due (the loop could not keep the
    /// pace).
    pub late_frames: u32,
    /// Frames where some spot inside the horizon had no chunk drawn at any level.
    pub hole_frames: u32,
    /// The longest time (game time) any spot inside the horizon stayed uncovered.
    pub longest_uncovered: Duration,
    /// Spots checked each frame.
    pub spots: usize,
    /// Most full-detail chunks loaded at once, and most of them kept only to cover
    /// a place whose coarse chunk was missing ([`Chunks::kept_count`]).
    pub max_loaded: usize,
    /// See `max_loaded`.
    pub max_kept: usize,
    /// CPU time of the whole process (main thread and workers) over the wall time
    /// of the flight, in cores; `None` where the system does not say.
    pub cpu_cores: Option<f64>,
    /// Worker threads of the pool the chunk tasks run on.
    pub workers: usize,
}

/// CPU time used by this process so far (user and system), on Linux.
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses; utime
    // and stime are the 14th and 15th fields, in clock ticks (100 a second).
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 10))
}

/// How long spots stayed uncovered: the frame each spot uncovered now was first
/// seen uncovered in a row, and the longest such run ended so far, in frames.
#[derive(Default)]
struct UncoveredRuns {
    since: std::collections::HashMap<(i32, i32), u32>,
    longest: u32,
}

impl UncoveredRuns {
    /// Takes in frame `frame`'s uncovered spots; a spot covered again (or no longer
    /// checked) ends its run.
    fn frame(&mut self, frame: u32, uncovered: &[(i32, i32)]) {
        let now: std::collections::HashSet<_> = uncovered.iter().copied().collect();
        let longest = &mut self.longest;
        self.since.retain(|spot, first| {
            let on = now.contains(spot);
            if !on {
                *longest = (*longest).max(frame - *first);
            }
            on
        });
        for &spot in uncovered {
            self.since.entry(spot).or_insert(frame);
        }
    }

    /// The longest run in frames, counting the runs still going after frame `last`.
    fn longest(&self, last: u32) -> u32 {
        let open = self.since.values().map(|first| last + 1 - first);
        open.fold(self.longest, u32::max)
    }
}

/// Flies a loaded headless app (see [`measure_horizon`]) east at `speed` blocks a
/// second for `seconds` seconds, paced at `fps` frames a second: game time advances
/// `1 / fps` a frame and each frame starts `1 / fps` of wall time after the last one
/// (as a game held at that frame rate by its display would). Checks every frame
/// that the surface at spots every 256 blocks inside the horizon is covered by a
/// drawn chunk of some level (a loaded full-detail chunk, or a drawn coarse one).
pub fn measure_flight(
    app: &mut App,
    speed: f64,
    fps: f64,
    seconds: f64,
) -> Result<FlightFigures, String> {
    use bevy::time::TimeUpdateStrategy;
    let generator = app.world().resource::<ActiveWorld>().generator().clone();
    let mut heights = std::collections::HashMap::new();
    let start = {
        let mut q = app.world_mut().query::<&mut Player>();
        let mut p = q.single_mut(app.world_mut()).map_err(|e| e.to_string())?;
        p.flying = true;
        p.noclip = true;
        p.position
    };
    let dt = Duration::from_secs_f64(1.0 / fps);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    let last = (seconds * fps).round() as u32;
    let (mut holes, mut late, mut times) = (0, 0, Vec::new());
    let (mut spots, mut max_loaded, mut max_kept) = (0, 0, 0);
    let mut runs = UncoveredRuns::default();
    let mut uncovered = Vec::new();
    let (t0, cpu0) = (Instant::now(), process_cpu_time());
    for frame in 0..=last {
        let feet = start + bevy::math::DVec3::X * (speed * frame as f64 / fps);
        {
            let mut q = app.world_mut().query::<&mut Player>();
            let mut p = q.single_mut(app.world_mut()).map_err(|e| e.to_string())?;
            p.position = feet;
        }
        let t = Instant::now();
        app.update();
        times.push(t.elapsed());
        uncovered.clear();
        spots = 0;
        visit_spots(
            app.world(),
            feet,
            &generator,
            &mut heights,
            |spot, covered| {
                spots += 1;
                if !covered {
                    uncovered.push(spot);
                }
            },
        );
        holes += u32::from(!uncovered.is_empty());
        runs.frame(frame, &uncovered);
        let chunks = app.world().resource::<Chunks>();
        max_loaded = max_loaded.max(chunks.loaded_count());
        max_kept = max_kept.max(chunks.kept_count());
        match (t0 + dt * (frame + 1)).checked_duration_since(Instant::now()) {
            Some(wait) => std::thread::sleep(wait),
            None => late += 1,
        }
    }
    let wall = t0.elapsed();
    let cpu_cores = process_cpu_time()
        .zip(cpu0)
        .map(|(end, start)| (end - start).as_secs_f64() / wall.as_secs_f64());
    app.insert_resource(TimeUpdateStrategy::Automatic);
    Ok(FlightFigures {
        distance: speed * last as f64 / fps,
        fps,
        frames: FrameTimes::of(times),
        late_frames: late,
        hole_frames: holes,
        longest_uncovered: dt * runs.longest(last),
        spots,
        max_loaded,
        max_kept,
        cpu_cores,
        workers: bevy::tasks::AsyncComputeTaskPool::get().thread_num(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frame figures are nearest-rank quantiles of the frames; none gives zeros.
    #[test]
    fn frame_times_are_quantiles_of_the_frames() {
        let ms = Duration::from_millis;
        let f = FrameTimes::of((1..=100).rev().map(ms).collect());
        assert_eq!(
            f,
            FrameTimes {
                count: 100,
                median: ms(51),
                p90: ms(90),
                p99: ms(99),
                max: ms(100),
            }
        );
        assert_eq!(FrameTimes::of(Vec::new()), FrameTimes::default());
    }

    #[test]
    fn uncovered_runs_are_counted_per_spot_in_frames() {
        let mut runs = UncoveredRuns::default();
        let (a, b) = ((0, 0), (256, 0));
        runs.frame(0, &[a]);
        runs.frame(1, &[a, b]);
        runs.frame(2, &[b]);
        // a was uncovered in frames 0 and 1; b in 1 and 2, and again from 4 on.
        assert_eq!(runs.longest(2), 2);
        runs.frame(3, &[]);
        runs.frame(4, &[b]);
        runs.frame(5, &[b]);
        runs.frame(6, &[b]);
        assert_eq!(runs.longest(6), 3);
    }
}
