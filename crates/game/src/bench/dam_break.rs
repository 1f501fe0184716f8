//! A dam break, measured: a lake held by a wall high above the land near the
//! player, a 5 x 5 hole broken out of its wall, and the water pouring out and down
//! the land until it settles. What a step does (blocks ticked and changed, the
//! worker's time), how many steps until nothing is due, and what the frames cost the
//! main thread while it flows at 60 FPS.

use std::time::{Duration, Instant};

use crate::world::LOCAL_PLAYER;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use terravox_edits::fluid::STEP_SECONDS;
use terravox_voxel::raycast::RayHit;
use terravox_voxel::{Block, BlockPos};

use super::{FrameTimes, feet, quantiles};
use crate::editing::break_block;
use crate::streaming::{Chunks, WorldBlocks};
use crate::water_flow::Water;
use crate::world::WorldAuthority;

/// The lake's inside: blocks along x, along z, and deep.
const LAKE: [i32; 3] = [16, 16, 6];
/// How far the lake's floor stands above the highest ground under it and beside
/// its broken wall.
const ABOVE: i32 = 22;
/// The side of the hole broken out of the wall.
const HOLE: i32 = 5;

/// Figures of a dam break.
#[derive(Clone, Debug)]
pub struct DamBreakFigures {
    /// Where the lake's floor is, and how far above the land beside it.
    pub floor: BlockPos,
    /// Its height above the highest ground under the lake and its apron.
    pub above: i32,
    /// Steps until nothing was due (`None`: still flowing at the limit).
    pub settled_after: Option<usize>,
    /// Steps run.
    pub steps: usize,
    /// Blocks ticked a step: median, 99th percentile, most.
    pub ticked: [usize; 3],
    /// Blocks changed a step: median, 99th percentile, most.
    pub changed: [usize; 3],
    /// A step's worker time: median, 99th percentile, longest.
    pub step_cost: [Duration; 3],
    /// Blocks of water the flow made (flowing, falling and new sources).
    pub water: usize,
    /// The frames at 60 FPS while it flowed: all of the main thread's work.
    pub frames: FrameTimes,
    /// The water's own main-thread time in those frames.
    pub water_frames: FrameTimes,
}

/// Builds the lake near the player of a loaded headless app, breaks its wall, and
/// measures the flow: `paced` seconds at 60 FPS (game and wall time a sixtieth of
/// a second a frame), then a step a frame until nothing is due (at most `limit`
/// steps in all).
pub fn measure_dam_break(
    app: &mut App,
    paced: f64,
    limit: usize,
) -> Result<DamBreakFigures, String> {
    let at = feet(app)?;
    let (x0, z0) = (at.x as i32 + 6, at.z as i32 - LAKE[2] - LAKE[1] / 2);
    // The lake spans x0..x0 + 18 (walls included) and z0..z0 + 18; its wall at
    // x0 + 17 breaks, over an apron of 40 blocks beyond.
    let [lx, lz, depth] = LAKE;
    let ground = highest_ground(app, [x0, z0], [x0 + lx + 2 + 40, z0 + lz + 2])?;
    let floor = BlockPos::new(x0, ground + ABOVE, z0);
    edit(app, |blocks| {
        for dx in 0..lx + 2 {
            for dz in 0..lz + 2 {
                for dy in 0..=depth {
                    let inside = dy > 0 && (1..=lx).contains(&dx) && (1..=lz).contains(&dz);
                    let b = if inside { Block::Water } else { Block::Stone };
                    blocks.lay(floor.offset([dx, dy, dz]), b);
                }
            }
        }
        Ok(())
    })?;
    // Built as still water, as a generator would lay it: nothing flows yet.
    let start = app.world().resource::<Water>().steps();
    edit(app, |blocks| {
        let wall = lx + 1;
        // The player breaks the wall standing in the air beside it (within reach).
        let beside = floor.offset([wall + 2, 1, lz / 2]);
        let feet = [
            beside.x as f64 + 0.5,
            beside.y as f64,
            beside.z as f64 + 0.5,
        ];
        blocks
            .authority_mut()
            .players_mut()
            .place(LOCAL_PLAYER, feet);
        for dy in 1..=HOLE {
            for dz in 0..HOLE {
                let p = floor.offset([wall, dy, lz / 2 - HOLE / 2 + dz + 1]);
                let hit = RayHit {
                    pos: p,
                    normal: [1, 0, 0],
                    distance: 1.0,
                };
                break_block(blocks, &hit)?;
            }
        }
        Ok(())
    })?;
    let (frames, water_frames) = paced_frames(app, paced);
    let settled_after = settle(app, start, limit);
    let history = app.world().resource::<Water>().figures_since(start);
    let spread = |v: Vec<usize>| {
        let mut v = v;
        v.sort_unstable();
        let at = |q: f64| {
            v.get(((v.len().max(1) - 1) as f64 * q).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        [at(0.5), at(0.99), at(1.0)]
    };
    let cost = quantiles(history.iter().map(|s| s.cost).collect());
    let water = app
        .world()
        .resource::<WorldAuthority>()
        .edits()
        .iter()
        .filter(|&(p, b)| {
            b.is_water() && !(p.y > floor.y && p.y <= floor.y + depth && p.x < floor.x + lx + 1)
        })
        .count();
    Ok(DamBreakFigures {
        floor,
        above: ABOVE,
        settled_after,
        steps: history.len(),
        ticked: spread(history.iter().map(|s| s.ticked).collect()),
        changed: spread(history.iter().map(|s| s.changed).collect()),
        step_cost: if history.is_empty() {
            [Duration::ZERO; 3]
        } else {
            [cost(0.5), cost(0.99), cost(1.0)]
        },
        water,
        frames,
        water_frames,
    })
}

/// Runs `f` on the game's [`WorldBlocks`], as a system would.
fn edit(
    app: &mut App,
    f: impl FnOnce(&mut WorldBlocks) -> Result<(), terravox_authority::Refusal>,
) -> Result<(), String> {
    let mut state = SystemState::<WorldBlocks>::new(app.world_mut());
    let mut blocks = state.get_mut(app.world_mut()).map_err(|e| e.to_string())?;
    let result = f(&mut blocks).map_err(|e| e.to_string());
    state.apply(app.world_mut());
    result
}

/// The highest loaded solid block over the columns from `lo` to `hi` (x, z).
fn highest_ground(app: &App, lo: [i32; 2], hi: [i32; 2]) -> Result<i32, String> {
    let chunks = app.world().resource::<Chunks>();
    let mut top = None;
    for z in lo[1]..=hi[1] {
        for x in lo[0]..=hi[0] {
            let column = (-96..160)
                .rev()
                .map(|y| BlockPos::new(x, y, z))
                .find(|&p| chunks.block(p).is_some_and(Block::is_solid));
            top = top.max(column.map(|p| p.y));
        }
    }
    top.ok_or_else(|| "no loaded ground near the player".to_owned())
}

/// Frames for `seconds` at 60 FPS (game and wall time alike): the main thread's
/// time each frame, and the water's share of it.
fn paced_frames(app: &mut App, seconds: f64) -> (FrameTimes, FrameTimes) {
    let dt = Duration::from_secs_f64(1.0 / 60.0);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    let (mut all, mut water) = (Vec::new(), Vec::new());
    let t0 = Instant::now();
    for frame in 0..(seconds * 60.0).round() as u32 {
        let t = Instant::now();
        app.update();
        all.push(t.elapsed());
        water.push(app.world().resource::<Water>().frame_cost());
        if let Some(wait) = (t0 + dt * (frame + 1)).checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    (FrameTimes::of(all), FrameTimes::of(water))
}

/// A step a frame until nothing is due and no step is under way; the steps since
/// `start` when it settled, or `None` at `limit` of them.
fn settle(app: &mut App, start: usize, limit: usize) -> Option<usize> {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        STEP_SECONDS,
    )));
    let result = loop {
        let steps = app.world().resource::<Water>().steps() - start;
        let idle = !app.world().resource::<Water>().stepping()
            && app
                .world()
                .resource::<WorldAuthority>()
                .pending()
                .due_count()
                == 0;
        if idle {
            break Some(steps);
        }
        if steps >= limit {
            break None;
        }
        app.update();
    };
    app.insert_resource(TimeUpdateStrategy::Automatic);
    result
}
