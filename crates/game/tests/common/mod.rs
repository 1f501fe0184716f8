//! Helpers shared by the headless-app test files.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use bevy::ecs::system::SystemState;
use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_game::{ActiveWorld, PlayOptions, Player, WorldBlocks};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, Seed, WorldConfig, presets};

/// A built-in preset with a seed.
pub(crate) fn world(preset: &str, seed: &str) -> WorldConfig {
    presets::builtin(preset)
        .expect("a built-in preset")
        .with_seed(Seed::new(seed))
}

/// A headless game of `world` with view distance 4, no horizon and edits kept in
/// memory.
pub(crate) fn app(world: WorldConfig) -> App {
    terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        horizon: 0,
        ..PlayOptions::new(world)
    })
}

/// Feet on the top of the origin's column of `world`: where a test that edits fixed
/// columns near the origin starts (`PlayOptions::at`), wherever the spawn is.
pub(crate) fn by_origin(world: &WorldConfig) -> [f64; 3] {
    let top = Generator::new(world)
        .expect("a valid world")
        .surface_height(0, 0);
    [0.5, top as f64 + 1.0, 0.5]
}

/// Puts the player, flying, on the top of the origin's column and waits until the view
/// around it is loaded: after a world switch has put them at the new world's spawn.
pub(crate) fn back_to_origin(app: &mut App) {
    let top = app
        .world()
        .resource::<ActiveWorld>()
        .generator()
        .surface_height(0, 0);
    with_player(app, |p| {
        p.position = DVec3::new(0.5, top as f64 + 1.0, 0.5);
        p.velocity = Vec3::ZERO;
        p.flying = true;
    });
    load(app);
}

/// Updates `app` until `done` says so, or panics after `secs` seconds.
pub(crate) fn run_until(app: &mut App, secs: u64, mut done: impl FnMut(&mut App) -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("timed out");
}

/// Updates until the whole view distance is loaded with its edits and nothing is
/// pending.
pub(crate) fn load(app: &mut App) {
    run_until(app, 120, |a| terravox_game::settled(a.world()));
}

/// The player's feet, in world coordinates.
pub(crate) fn feet(app: &mut App) -> DVec3 {
    let mut q = app.world_mut().query::<&Player>();
    q.single(app.world()).expect("one player").position
}

/// The player's body, to change it.
pub(crate) fn with_player<T>(app: &mut App, f: impl FnOnce(&mut Player) -> T) -> T {
    let mut q = app.world_mut().query::<&mut Player>();
    let mut p = q.single_mut(app.world_mut()).expect("one player");
    f(&mut p)
}

/// Runs `f` on the game's [`WorldBlocks`], as a system would.
pub(crate) fn edit<T>(app: &mut App, f: impl FnOnce(&mut WorldBlocks) -> T) -> T {
    let mut state = SystemState::<WorldBlocks>::new(app.world_mut());
    let mut blocks = state.get_mut(app.world_mut()).expect("world blocks");
    let out = f(&mut blocks);
    state.apply(app.world_mut());
    out
}

/// Breaks the generated surface block of column `(x, z)`; returns where it was.
pub(crate) fn dig(app: &mut App, x: i32, z: i32) -> BlockPos {
    let y = app
        .world()
        .resource::<ActiveWorld>()
        .generator()
        .surface_height(x, z);
    let p = BlockPos::new(x, y, z);
    edit(app, |b| b.set(p, Block::Air)).expect("a loaded block");
    p
}

/// Every notice the game showed.
pub(crate) fn notices(app: &App) -> Vec<String> {
    app.world()
        .resource::<terravox_game::Notices>()
        .all()
        .map(str::to_owned)
        .collect()
}
