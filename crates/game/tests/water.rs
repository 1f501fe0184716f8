//! Water in the game: no fluid work without an edit, a flow saved in the middle that
//! goes on after a reload as it would have, a block broken under a river that fills
//! at once, and the bucket. Steps are counted, never timed: each frame is a quarter
//! second of game time, so a step is due every frame.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{edit, load, run_until, with_player, world};
use terravox_game::{
    Chunks, PlayOptions, Water, WorldAuthority, break_block, place_block, take_water,
};
use terravox_voxel::raycast::RayHit;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

/// A loaded game of `world` with its feet at `at`, a step due every frame; saving
/// under `dir` if given.
fn game(world: &WorldConfig, at: [f64; 3], dir: Option<&Path>) -> App {
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 3,
        horizon: 0,
        at: Some(at),
        save_dir: dir.map(Path::to_owned),
        ..PlayOptions::new(world.clone())
    });
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        250,
    )));
    load(&mut app);
    app
}

fn water(app: &App) -> &Water {
    app.world().resource::<Water>()
}

/// Updates until `steps` steps were laid into the world.
fn steps_to(app: &mut App, steps: usize) {
    run_until(app, 120, |a| water(a).steps() >= steps);
    assert_eq!(water(app).steps(), steps);
}

/// The blocks of the box `lo..=hi`.
fn blocks(app: &App, lo: BlockPos, hi: BlockPos) -> HashMap<BlockPos, Option<Block>> {
    let chunks = app.world().resource::<Chunks>();
    let mut out = HashMap::new();
    for y in lo.y..=hi.y {
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                let p = BlockPos::new(x, y, z);
                out.insert(p, chunks.block(p));
            }
        }
    }
    out
}

fn save_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("terravox-water-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_world_walked_for_a_thousand_frames_without_an_edit_does_no_fluid_work() {
    let w = world("continents", "terravox");
    let mut app = game(&w, common::by_origin(&w), None);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 30.0,
    )));
    with_player(&mut app, |p| {
        p.flying = false;
        p.yaw = 0.7;
    });
    let start = common::feet(&mut app);
    // Playing (the grabbing click), walking forward and jumping over whatever is
    // there.
    let mut mouse = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
    mouse.press(MouseButton::Left);
    app.update();
    let mut mouse = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
    mouse.release(MouseButton::Left);
    mouse.clear();
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.press(KeyCode::KeyW);
    keys.press(KeyCode::Space);
    for _ in 0..1000 {
        app.update();
    }
    let walked = (common::feet(&mut app) - start).length();
    assert!(walked > 20.0, "walked only {walked} blocks");
    assert_eq!(water(&app).ticked(), 0);
    assert_eq!(water(&app).steps(), 0);
    assert!(
        app.world()
            .resource::<WorldAuthority>()
            .pending()
            .is_empty()
    );
}

#[test]
fn a_flow_saved_in_the_middle_goes_on_after_a_reload_as_if_never_saved() {
    let w = world("cliffs", "water-reload");
    let top = Generator::new(&w).unwrap().surface_height(3, 0);
    let source = BlockPos::new(3, top + 1, 0);
    let at = common::by_origin(&w);
    let (lo, hi) = (source.offset([-10, -12, -10]), source.offset([10, 2, 10]));
    const STEPS: usize = 14;

    // Without a reload.
    let mut whole = game(&w, at, None);
    edit(&mut whole, |b| b.set(source, Block::Water)).unwrap();
    steps_to(&mut whole, STEPS);
    let expected = blocks(&whole, lo, hi);
    let wet = expected
        .values()
        .filter(|b| b.is_some_and(Block::is_water))
        .count();
    assert!(wet > 10, "the source spread to only {wet} blocks");

    // Saved on exit after a few steps, with a step under way, and opened again.
    let dir = save_dir("reload");
    let mut first = game(&w, at, Some(&dir));
    edit(&mut first, |b| b.set(source, Block::Water)).unwrap();
    steps_to(&mut first, 4);
    first.world_mut().write_message(AppExit::Success);
    first.update();
    let done = water(&first).steps();
    let saved = app_pending(&first);
    assert!(saved.is_running(), "no step under way when saved");
    drop(first);
    let mut second = game(&w, at, Some(&dir));
    assert_eq!(
        &app_pending(&second),
        &saved,
        "the water came back otherwise"
    );
    steps_to(&mut second, STEPS - done);
    assert_eq!(blocks(&second, lo, hi), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

fn app_pending(app: &App) -> terravox_edits::fluid::Pending {
    app.world().resource::<WorldAuthority>().pending().clone()
}

/// A column near the origin of `w` with a river or lake over it, and its water's
/// surface: the first on squares around the origin, every 8 blocks.
fn wet_column(w: &WorldConfig) -> ([i32; 2], i32) {
    let g = Generator::new(w).unwrap();
    for r in (8..2048).step_by(8) {
        for t in (-r..r).step_by(8) {
            for (x, z) in [(t, -r), (r, t), (-t, r), (-r, -t)] {
                if let Some(level) = g.column_top(x, z).water {
                    return ([x, z], level);
                }
            }
        }
    }
    panic!("no fresh water near the origin");
}

/// A hit on block `pos`, its face `face` towards the ray (`normal`).
fn hit(pos: BlockPos, normal: [i32; 3]) -> RayHit {
    RayHit {
        pos,
        normal,
        distance: 1.0,
    }
}

#[test]
fn a_block_broken_under_a_river_fills_at_once_and_the_bucket_moves_a_source() {
    let w = world("continents", "terravox");
    let ([x, z], level) = wet_column(&w);
    let bed = Generator::new(&w).unwrap().column_top(x, z).y;
    let mut app = game(
        &w,
        [x as f64 + 0.5, level as f64 + 3.0, z as f64 + 0.5],
        None,
    );
    with_player(&mut app, |p| p.flying = true);
    let under = BlockPos::new(x, bed, z);
    let dug = edit(&mut app, |b| break_block(b, &hit(under, [0, 1, 0]))).unwrap();
    assert_eq!(dug, under);
    let now = app.world().resource::<Chunks>().block(under);
    assert!(
        now.is_some_and(Block::is_water),
        "the dug bed holds {now:?}"
    );

    // The bucket takes the river's surface source, and places it on dry land above
    // the bank, where it spreads; taken back, what it fed dries up.
    let surface = BlockPos::new(x, level, z);
    assert_eq!(
        app.world().resource::<Chunks>().block(surface),
        Some(Block::Water)
    );
    edit(&mut app, |b| take_water(b, &hit(surface, [0, 1, 0]))).unwrap();
    let high = BlockPos::new(x, level + 12, z);
    let floor = high.offset([0, -1, 0]);
    edit(&mut app, |b| b.set(floor, Block::Stone)).unwrap();
    let feet = bevy::math::DVec3::new(x as f64 + 3.5, level as f64 + 12.0, z as f64 + 0.5);
    let placed = edit(&mut app, |b| {
        place_block(b, feet, &hit(floor, [0, 1, 0]), Block::Water)
    })
    .unwrap();
    assert_eq!(placed, high);
    let start = water(&app).steps();
    steps_to(&mut app, start + 4);
    let chunks = app.world().resource::<Chunks>();
    assert_eq!(chunks.block(high), Some(Block::Water));
    let fell = chunks.block(high.offset([1, 0, 0]));
    assert!(
        fell.is_some_and(Block::is_water),
        "nothing ran off the stone: {fell:?}"
    );
    edit(&mut app, |b| take_water(b, &hit(high, [0, 1, 0]))).unwrap();
    let (lo, top) = (high.offset([-8, -14, -8]), high.offset([8, 0, 8]));
    run_until(&mut app, 120, |a| {
        let chunks = a.world().resource::<Chunks>();
        (lo.y..=top.y).all(|y| {
            (lo.z..=top.z).all(|z| {
                (lo.x..=top.x).all(|x| {
                    let p = BlockPos::new(x, y, z);
                    !chunks
                        .block(p)
                        .is_some_and(|b| b.is_water() && p.y > level + 1)
                })
            })
        })
    });
}
