//! Headless app tests: the game's streaming and player plugins in a Bevy `App` with
//! `MinimalPlugins` (no window, no GPU).

mod common;

use std::collections::HashMap;

use bevy::prelude::*;
use common::run_until;
use terravox_game::PlayOptions;
use terravox_game::config::{ActiveWorld, ViewDistance, WorldChanged};
use terravox_game::player::{self, MoveInput, Player};
use terravox_game::streaming::{self, Chunks, StreamStats, wanted_chunks};
use terravox_voxel::{BlockPos, Chunk, ChunkPos};
use terravox_worldgen::{Generator, Seed, presets};

fn app(preset: &str, view: u32) -> App {
    let world = presets::builtin(preset)
        .unwrap()
        .with_seed(Seed::new("app-test"));
    terravox_game::headless_app(PlayOptions {
        world,
        view_distance: view,
        screenshot: None,
        panel_open: false,
        save_dir: None,
    })
}

fn player_feet(app: &mut App) -> Vec3 {
    let mut q = app.world_mut().query_filtered::<&Transform, With<Player>>();
    q.single(app.world()).unwrap().translation
}

#[test]
fn wanted_chunks_are_nearest_first_and_tasks_start_that_way() {
    let c = ChunkPos::new(3, 1, -2);
    let w = wanted_chunks(c, 6);
    assert_eq!(w[0], c);
    assert!(
        w.windows(2)
            .all(|p| p[0].distance_squared(c) <= p[1].distance_squared(c))
    );

    let mut app = app("cliffs", 4);
    app.update();
    app.update();
    let centre = ChunkPos::containing(player_feet(&mut app).to_array());
    let chunks = app.world().resource::<Chunks>();
    let started: Vec<_> = chunks
        .in_flight
        .keys()
        .chain(chunks.loaded.keys())
        .copied()
        .chain(chunks.ready.iter().map(|r| r.pos))
        .collect();
    let wanted = wanted_chunks(centre, 4);
    let nearest = &wanted[..started.len()];
    for p in &started {
        assert!(nearest.contains(p), "{p:?} started before nearer chunks");
    }
}

#[test]
fn the_full_view_set_loads() {
    let mut app = app("cliffs", 4);
    run_until(&mut app, 120, |a| {
        a.world().resource::<Chunks>().fully_loaded()
    });
    let chunks = app.world().resource::<Chunks>();
    assert_eq!(chunks.loaded.len(), chunks.wanted.len());
    // Loaded blocks are the generator's.
    let world = app.world().resource::<ActiveWorld>();
    for (p, lc) in chunks.loaded.iter().take(20) {
        assert_eq!(*lc.blocks, world.generator.generate(*p));
    }
}

#[test]
fn moving_loads_ahead_and_unloads_behind_with_hysteresis() {
    let mut app = app("cliffs", 4);
    run_until(&mut app, 120, |a| {
        a.world().resource::<Chunks>().fully_loaded()
    });
    let start = ChunkPos::containing(player_feet(&mut app).to_array());
    // Fly five chunks east (no gravity while flying, no collision with noclip).
    {
        let mut q = app.world_mut().query::<(&mut Transform, &mut Player)>();
        let (mut t, mut p) = q.single_mut(app.world_mut()).unwrap();
        p.flying = true;
        p.noclip = true;
        t.translation.x += 5.0 * 32.0;
    }
    run_until(&mut app, 120, |a| {
        a.world().resource::<Chunks>().fully_loaded()
    });
    let now = ChunkPos::containing(player_feet(&mut app).to_array());
    assert_eq!(now.x, start.x + 5);
    let chunks = app.world().resource::<Chunks>();
    for p in wanted_chunks(now, 4) {
        assert!(chunks.loaded.contains_key(&p), "{p:?} ahead not loaded");
    }
    for p in chunks.loaded.keys() {
        assert!(
            !streaming::should_unload(now, *p, 4),
            "{p:?} should have unloaded"
        );
    }
    // Behind: 5 chunks away is past 4 + 2? No: within the margin, so it stays.
    let behind_kept = ChunkPos::new(now.x - 5, now.y, now.z);
    assert!(
        chunks.loaded.contains_key(&behind_kept),
        "hysteresis: {behind_kept:?} must stay"
    );
    let far_behind = ChunkPos::new(start.x - 4, now.y, now.z);
    assert!(
        !chunks.loaded.contains_key(&far_behind),
        "{far_behind:?} must unload"
    );
    // Stepping back and forth across a chunk border does not churn.
    assert!(!streaming::should_unload(
        now,
        ChunkPos::new(now.x - 6, now.y, now.z),
        4
    ));
    assert!(streaming::should_unload(
        now,
        ChunkPos::new(now.x - 7, now.y, now.z),
        4
    ));
}

#[test]
fn a_regenerate_drops_every_old_world_result() {
    let mut app = app("cliffs", 4);
    app.update();
    app.update();
    assert!(
        !app.world().resource::<Chunks>().in_flight.is_empty(),
        "tasks in flight"
    );
    let new = presets::builtin("islands")
        .unwrap()
        .with_seed(Seed::new("other"));
    app.world_mut()
        .resource_mut::<ActiveWorld>()
        .replace(new)
        .unwrap();
    app.world_mut().write_message(WorldChanged);
    run_until(&mut app, 120, |a| {
        a.world().resource::<Chunks>().fully_loaded()
    });
    let world = app.world().resource::<ActiveWorld>();
    let chunks = app.world().resource::<Chunks>();
    for (p, lc) in &chunks.loaded {
        assert_eq!(
            *lc.blocks,
            world.generator.generate(*p),
            "{p:?} is from the old world"
        );
    }
    assert!(app.world().resource::<StreamStats>().dropped > 0);
    // The player was put on the new world's land.
    let feet = player_feet(&mut app);
    let world = app.world().resource::<ActiveWorld>();
    let top = world
        .generator
        .column_top(feet.x.floor() as i32, feet.z.floor() as i32);
    assert!(top.y >= world.generator.sea_level());
}

#[test]
fn the_player_lands_on_the_ground_in_the_app() {
    let mut app = app("cliffs", 4);
    run_until(&mut app, 120, |a| {
        a.world().resource::<Chunks>().fully_loaded()
    });
    // Drop the player from a few blocks up.
    {
        let mut q = app
            .world_mut()
            .query_filtered::<&mut Transform, With<Player>>();
        q.single_mut(app.world_mut()).unwrap().translation.y += 4.0;
    }
    run_until(&mut app, 60, |a| {
        let mut q = a.world_mut().query::<&Player>();
        q.single(a.world()).unwrap().on_ground
    });
    let feet = player_feet(&mut app);
    let chunks = app.world().resource::<Chunks>();
    assert!(!player::overlaps_solid(feet, &|b| chunks
        .block(b)
        .is_none_or(|b| b.is_solid())));
    let below = chunks
        .block(BlockPos::containing((feet - Vec3::Y * 0.1).to_array()))
        .unwrap();
    assert!(below.is_solid(), "standing on {below:?}");
    assert_eq!(app.world().resource::<ViewDistance>().0, 4);
}

/// A world of generated chunks for pure movement tests.
struct Terrain {
    generator: Generator,
    cache: std::cell::RefCell<HashMap<ChunkPos, Chunk>>,
}

impl Terrain {
    fn solid(&self, b: BlockPos) -> Option<bool> {
        let (c, l) = b.to_chunk();
        let mut cache = self.cache.borrow_mut();
        let chunk = cache.entry(c).or_insert_with(|| self.generator.generate(c));
        Some(chunk.get(l[0], l[1], l[2]).is_solid())
    }
}

#[test]
fn walking_into_walls_and_across_borders_never_ends_inside_a_block() {
    for preset in ["cliffs", "amplified", "islands"] {
        let generator = Generator::new(
            &presets::builtin(preset)
                .unwrap()
                .with_seed(Seed::new("walk")),
        )
        .unwrap();
        let spawn = player::spawn_point(&generator);
        let terrain = Terrain {
            generator,
            cache: Default::default(),
        };
        let solid = |b| terrain.solid(b);
        for (i, yaw) in [0.0f32, 1.3, 2.6, 3.9, 5.2].into_iter().enumerate() {
            let mut p = Player {
                yaw,
                ..Default::default()
            };
            let mut feet = spawn + Vec3::Y * 3.0;
            let mut landed = false;
            for frame in 0..1200 {
                let input = MoveInput {
                    forward: 1.0,
                    up: frame % 40 == 0,
                    sprint: i % 2 == 0,
                    ..Default::default()
                };
                feet = player::step(&mut p, feet, input, 1.0 / 30.0, &solid);
                landed |= p.on_ground;
                assert!(
                    !player::overlaps_solid(feet, &|b| solid(b).unwrap()),
                    "{preset}: inside a block at {feet} (yaw {yaw}, frame {frame})"
                );
            }
            assert!(landed, "{preset}: never touched the ground");
            assert!(
                (feet - spawn).length() > 10.0 || p.on_ground,
                "{preset}: stuck"
            );
        }
    }
}

#[test]
fn unloaded_ground_holds_the_player() {
    let mut p = Player::default();
    let feet = Vec3::new(0.5, 10.0, 0.5);
    let after = player::step(&mut p, feet, MoveInput::default(), 0.1, &|_| None);
    assert!(after.y >= feet.y, "fell into an unloaded chunk");
}
