//! Headless app tests: streaming, world switches, spawning and framing, in a Bevy
//! `App` with `MinimalPlugins` (no window, no GPU).

use crate::common;

use bevy::math::DVec3;
use bevy::prelude::*;
use common::{app, feet, load, run_until, with_player, world};
use terravox_game::body::{Body, overlaps_solid};
use terravox_game::{
    ActiveWorld, Chunks, EYE, PlayOptions, Player, StreamStats, SwitchWorld, ViewDistance, eye_ray,
    should_unload, spawn_pose, wanted_chunks,
};
use terravox_voxel::raycast::{Probe, raycast};
use terravox_voxel::{BlockPos, ChunkPos};
use terravox_worldgen::{Generator, yaw_towards};

#[test]
fn wanted_chunks_are_nearest_first_and_tasks_start_that_way() {
    let c = ChunkPos::new(3, 1, -2);
    let w = wanted_chunks(c, 6);
    assert_eq!(w[0], c);
    assert!(
        w.windows(2)
            .all(|p| p[0].distance_squared(c) <= p[1].distance_squared(c))
    );

    let mut app = app(world("cliffs", "app-test"));
    app.update();
    app.update();
    let centre = ChunkPos::containing_f64(feet(&mut app).to_array());
    let chunks = app.world().resource::<Chunks>();
    let started: Vec<_> = chunks.started().collect();
    assert!(!started.is_empty(), "no task started");
    let wanted = wanted_chunks(centre, 4);
    let nearest = &wanted[..started.len()];
    for p in &started {
        assert!(nearest.contains(p), "{p:?} started before nearer chunks");
    }
}

#[test]
fn the_full_view_set_loads_with_the_generators_blocks() {
    let mut app = app(world("cliffs", "app-test"));
    load(&mut app);
    let centre = ChunkPos::containing_f64(feet(&mut app).to_array());
    let chunks = app.world().resource::<Chunks>();
    // Every wanted chunk; besides them only chunks loaded around where the player
    // waited for the spawn (as many as the workers made meanwhile), all within
    // the unloading margin.
    let wanted: std::collections::HashSet<ChunkPos> = chunks.wanted().collect();
    assert!(wanted.iter().all(|&p| chunks.is_loaded(p)));
    for p in chunks.loaded().filter(|p| !wanted.contains(p)) {
        assert!(
            !should_unload(centre, p, 4),
            "{p:?} loaded, far from {centre:?}"
        );
    }
    let generator = app.world().resource::<ActiveWorld>().generator();
    for p in chunks.wanted().take(20) {
        assert_eq!(**chunks.blocks(p).unwrap(), generator.generate(p));
    }
    assert_eq!(app.world().resource::<ViewDistance>().0, 4);
}

#[test]
fn moving_loads_ahead_and_unloads_behind_with_hysteresis() {
    let mut app = app(world("cliffs", "app-test"));
    load(&mut app);
    let start = ChunkPos::containing_f64(feet(&mut app).to_array());
    // Fly five chunks east (no gravity while flying, no collision with noclip).
    with_player(&mut app, |p| {
        p.flying = true;
        p.noclip = true;
        p.position.x += 5.0 * 32.0;
    });
    load(&mut app);
    let now = ChunkPos::containing_f64(feet(&mut app).to_array());
    assert_eq!(now.x, start.x + 5);
    let chunks = app.world().resource::<Chunks>();
    for p in wanted_chunks(now, 4) {
        assert!(chunks.blocks(p).is_some(), "{p:?} ahead not loaded");
    }
    for p in chunks.loaded() {
        assert!(!should_unload(now, p, 4), "{p:?} should have unloaded");
    }
    // Five chunks behind is within view + margin (4 + 2): it stays.
    let behind_kept = ChunkPos::new(now.x - 5, now.y, now.z);
    assert!(
        chunks.blocks(behind_kept).is_some(),
        "hysteresis: {behind_kept:?} must stay"
    );
    let far_behind = ChunkPos::new(start.x - 4, now.y, now.z);
    assert!(
        chunks.blocks(far_behind).is_none(),
        "{far_behind:?} must unload"
    );
    // Stepping back and forth across a chunk border does not churn.
    assert!(!should_unload(
        now,
        ChunkPos::new(now.x - 6, now.y, now.z),
        4
    ));
    assert!(should_unload(
        now,
        ChunkPos::new(now.x - 7, now.y, now.z),
        4
    ));
}

#[test]
fn a_world_switch_drops_every_old_world_result_and_respawns_on_land() {
    let mut app = app(world("cliffs", "app-test"));
    app.update();
    app.update();
    assert!(
        app.world().resource::<Chunks>().in_flight() > 0,
        "tasks in flight"
    );
    let new = world("islands", "other");
    app.world_mut().write_message(SwitchWorld(new.clone()));
    load(&mut app);
    let active = app.world().resource::<ActiveWorld>();
    assert_eq!(active.config(), &new);
    assert_eq!(active.epoch(), 1);
    let chunks = app.world().resource::<Chunks>();
    for p in chunks.loaded() {
        assert_eq!(
            **chunks.blocks(p).unwrap(),
            active.generator().generate(p),
            "{p:?} is from the old world"
        );
    }
    assert!(app.world().resource::<StreamStats>().dropped > 0);
    // The player was put on the new world's land, facing the way its spawn search
    // rated best (the one rule, `Generator::view_from`, for any place).
    let feet = feet(&mut app);
    let yaw = with_player(&mut app, |p| p.yaw);
    let generator = app.world().resource::<ActiveWorld>().generator();
    let top = generator.column_top(feet.x.floor() as i32, feet.z.floor() as i32);
    assert!(top.y >= generator.sea_level());
    let spawn = generator
        .spawn(&terravox_worldgen::sequential)
        .expect("land");
    let [x, y, z] = spawn.at;
    let at = DVec3::new(x as f64 + 0.5, y as f64, z as f64 + 0.5);
    assert!((feet - at).length() < 0.01, "{feet} vs {at}");
    assert_eq!(yaw, yaw_towards(spawn.facing));
    assert_eq!(yaw, spawn_pose(generator).1[0]);
}

#[test]
fn a_new_player_stands_at_the_spawn_facing_its_relief() {
    let mut app = app(world("continents", "terravox"));
    load(&mut app);
    let p = with_player(&mut app, |p| p.clone());
    let generator = app.world().resource::<ActiveWorld>().generator();
    let spawn = generator
        .spawn(&terravox_worldgen::sequential)
        .expect("land");
    let [x, y, z] = spawn.at;
    let at = DVec3::new(x as f64 + 0.5, y as f64, z as f64 + 0.5);
    assert!((p.position - at).length() < 0.01, "{} vs {at}", p.position);
    assert!(!p.flying);
    assert!(spawn.frame.meets_goals(), "{spawn:?}");
    assert_eq!(p.yaw, yaw_towards(spawn.facing));
    assert_eq!(p.pitch, spawn.pitch);
    // The yaw looks along the facing.
    let (_, dir) = eye_ray(&p);
    let flat = dir.xz().normalize();
    let [fx, fz] = spawn.facing;
    assert!(
        (flat.x - fx).abs() < 1e-4 && (flat.y - fz).abs() < 1e-4,
        "{flat} vs {:?}",
        spawn.facing
    );
}

#[test]
fn an_invalid_switch_is_refused_with_a_notice_and_changes_nothing() {
    let mut app = app(world("cliffs", "app-test"));
    app.update();
    let mut bad = world("cliffs", "app-test");
    bad.sea_level = i32::MAX;
    app.world_mut().write_message(SwitchWorld(bad));
    app.update();
    let active = app.world().resource::<ActiveWorld>();
    assert_eq!(active.epoch(), 0);
    assert_eq!(active.config(), &world("cliffs", "app-test"));
    let notices: Vec<_> = app
        .world()
        .resource::<terravox_game::Notices>()
        .all()
        .map(str::to_owned)
        .collect();
    assert_eq!(notices.len(), 1);
    assert!(notices[0].contains("sea_level"), "{notices:?}");
}

#[test]
fn the_player_lands_on_the_ground() {
    let mut app = app(world("cliffs", "app-test"));
    load(&mut app);
    with_player(&mut app, |p| p.position.y += 4.0);
    run_until(&mut app, 60, |a| {
        let mut q = a.world_mut().query::<&Player>();
        q.single(a.world()).unwrap().on_ground
    });
    // Near the origin f32 is exact enough to check the body directly.
    let feet = feet(&mut app).as_vec3();
    let chunks = app.world().resource::<Chunks>();
    assert!(!overlaps_solid(feet, &|b| chunks
        .block(b)
        .is_none_or(|b| b.is_solid())));
    let below = chunks
        .block(BlockPos::containing((feet - Vec3::Y * 0.1).to_array()))
        .unwrap();
    assert!(below.is_solid(), "standing on {below:?}");
}

/// How far the eye of a player at `feet` with `[yaw, pitch]` sees before terrain.
fn clear_sight(generator: &Generator, feet: DVec3, [yaw, pitch]: [f32; 2]) -> f32 {
    let player = Player(Body {
        position: feet,
        yaw,
        pitch,
        ..default()
    });
    let (eye, dir) = eye_ray(&player);
    let eye = eye.as_vec3();
    let mut cache = std::collections::HashMap::new();
    let hit = raycast(eye.to_array(), dir.to_array(), 64.0, |b| {
        let (c, l) = b.to_chunk();
        let chunk = cache.entry(c).or_insert_with(|| generator.generate(c));
        if chunk.get(l[0], l[1], l[2]).is_solid() {
            Probe::Hit
        } else {
            Probe::Pass
        }
    });
    hit.map_or(64.0, |h| h.distance)
}

#[test]
fn the_default_view_looks_over_open_land_not_into_a_wall() {
    for preset in ["cliffs", "amplified", "islands", "archipelago"] {
        for seed in ["vista-1", "vista-2", "42"] {
            let generator = Generator::new(&world(preset, seed)).unwrap();
            let (feet, [yaw, pitch]) = spawn_pose(&generator);
            assert!(pitch.abs() <= 0.25, "{preset} {seed}: pitch {pitch}");
            // At eye level, nothing blocks the view for a long way; in a world whose
            // land near the spawn is all woods, trunks are near, but not in the face.
            let sight = clear_sight(&generator, feet, [yaw, 0.0]);
            let wooded = generator
                .biome_at(feet.x.floor() as i32, feet.z.floor() as i32)
                .is_some_and(|b| b.is_wooded());
            let needed = if wooded { 2.0 } else { 32.0 };
            assert!(
                sight >= needed,
                "{preset} {seed}: the first view hits terrain {sight} blocks away"
            );
            // The first frame from there, cast through the land, is not a wall.
            let spawn = generator
                .spawn(&terravox_worldgen::sequential)
                .expect("land");
            assert_eq!(yaw, yaw_towards(spawn.facing), "{preset} {seed}");
            let f = spawn.frame;
            assert!(f.sky >= 0.1 && f.near <= 0.5, "{preset} {seed}: {f:?}");
        }
    }
}

#[test]
fn at_and_look_frame_the_view_exactly() {
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        at: Some([100.5, 90.0, -40.25]),
        look: Some([90.0, -30.0]),
        ..PlayOptions::new(world("cliffs", "frame"))
    });
    run_until(&mut app, 60, |a| terravox_game::settled(a.world()));
    let p = with_player(&mut app, |p| p.clone());
    assert_eq!(p.position, DVec3::new(100.5, 90.0, -40.25));
    assert!(p.flying, "placed players fly, so the view stays put");
    assert!((p.yaw - 90f32.to_radians()).abs() < 1e-6);
    assert!((p.pitch + 30f32.to_radians()).abs() < 1e-6);
    // Yaw 90 looks towards -x, pitched down.
    let (eye, dir) = eye_ray(&p);
    assert_eq!(eye.y, 90.0 + EYE as f64);
    assert!(dir.x < -0.8 && dir.y < -0.45 && dir.z.abs() < 1e-5, "{dir}");
}

#[test]
fn a_world_without_land_spawns_the_player_flying_above_the_sea_once() {
    let mut cfg = world("islands", "no-land");
    let terravox_worldgen::GeneratorConfig::Islands(i) = &mut cfg.generator else {
        panic!("islands is an island world");
    };
    // The one island is a million blocks away.
    i.centre_offset = [1e6, 1e6];
    let mut app = app(cfg.clone());
    load(&mut app);
    let sea = cfg.sea_level;
    let (feet, flying) = with_player(&mut app, |p| (p.position, p.flying));
    assert!(flying, "flying over the sea");
    assert!(feet.y > sea as f64 + 10.0, "{feet}");
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(common::feet(&mut app), feet, "stays put: no respawn loop");
}

#[test]
fn falling_out_of_the_world_puts_the_player_back_at_the_spawn() {
    let mut app = app(world("cliffs", "app-test"));
    load(&mut app);
    let spawn = feet(&mut app);
    with_player(&mut app, |p| {
        p.position = DVec3::new(500.0, -5000.0, 500.0);
        p.flying = false;
    });
    app.update();
    let back = feet(&mut app);
    assert!((back - spawn).length() < 0.01, "{back} vs {spawn}");
}

#[test]
fn the_clock_starts_at_the_hour_asked_runs_and_pauses() {
    use bevy::time::TimeUpdateStrategy;
    use terravox_game::TimeOfDay;
    let mut options = PlayOptions::new(world("cliffs", "clock"));
    options.time = Some(21.5);
    let mut app = terravox_game::headless_app(options);
    assert_eq!(app.world().resource::<TimeOfDay>().hours, 21.5);
    // Frames of 0.2 s (Bevy caps a frame's time at 0.25 s).
    app.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(200),
    ));
    app.update();
    let before = app.world().resource::<TimeOfDay>().hours;
    app.update();
    let after = app.world().resource::<TimeOfDay>().hours;
    // A frame of 0.2 s is 0.2 s of a 1200 s day.
    let step = 0.2 * 24.0 / terravox_game::DAY_SECONDS;
    assert!((after - before - step).abs() < 1e-5, "{before} -> {after}");
    // The clock is the world authority's: paused there, the sky's time stands still.
    let mut authority = app
        .world_mut()
        .resource_mut::<terravox_game::WorldAuthority>();
    let clock = authority.clock();
    authority.set_clock(terravox_authority::Clock::at(clock.hours, true));
    app.update();
    assert_eq!(app.world().resource::<TimeOfDay>().hours, after);
    assert!(app.world().resource::<TimeOfDay>().paused);
    // Without an hour the game starts in the morning.
    let app = terravox_game::headless_app(PlayOptions::new(world("cliffs", "clock")));
    assert_eq!(
        app.world().resource::<TimeOfDay>().hours,
        terravox_game::DEFAULT_HOUR
    );
}
