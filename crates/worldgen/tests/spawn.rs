//! The spawn: a new player stands on dry land with relief in sight, looking at it; the
//! search is a pure function of the config and stays inside the world.

mod common;

use common::generator;
use terravox_worldgen::{Generator, GeneratorConfig, Spawn, WORLD_LIMIT, presets};

/// How far the game's spawn search looks from the origin.
const RADIUS: i32 = 4096;

/// The height range of the surface (water at sea level) seen from `spawn` along its
/// facing within 1 km, sampled every 16 blocks from the spawn's own column on.
fn relief_ahead(g: &Generator, spawn: &Spawn) -> i32 {
    let [x, _, z] = spawn.at;
    let [fx, fz] = spawn.facing;
    let heights: Vec<i32> = (0..=1024)
        .step_by(16)
        .map(|d| {
            let px = (x as f64 + 0.5 + fx as f64 * d as f64).floor() as i32;
            let pz = (z as f64 + 0.5 + fz as f64 * d as f64).floor() as i32;
            g.column_top(px, pz).y.max(g.sea_level())
        })
        .collect();
    heights.iter().max().unwrap() - heights.iter().min().unwrap()
}

/// Checks that `spawn` stands on dry land with no tree, facing a horizontal unit
/// vector.
fn assert_dry(g: &Generator, spawn: &Spawn, name: &str) {
    let [x, y, z] = spawn.at;
    let top = g.column_top(x, z);
    assert_eq!(top.y + 1, y, "{name}: stands on the top of its column");
    assert!(
        top.y >= g.sea_level(),
        "{name}: under the sea at {:?}",
        spawn.at
    );
    assert!(top.block.is_solid(), "{name}: stands on {:?}", top.block);
    assert!(!g.tree_near(x, z), "{name}: a tree at the spawn");
    let [fx, fz] = spawn.facing;
    assert!(
        (fx.hypot(fz) - 1.0).abs() < 1e-5,
        "{name}: facing {:?}",
        spawn.facing
    );
}

#[test]
fn a_new_player_of_continents_faces_mountains_or_a_valley() {
    for seed in ["terravox", "42", "-7 islands and cliffs"] {
        let g = generator("continents", seed);
        // How long the search takes is a figure of the `spawn_search` benchmark.
        let spawn = g.spawn(0, 0, RADIUS).expect("land near the origin");
        assert_dry(&g, &spawn, seed);
        assert!(spawn.clear, "{seed}: the view is hidden: {spawn:?}");
        let seen = relief_ahead(&g, &spawn);
        println!(
            "continents {seed:?}: spawn at {:?} facing {:?}, relief {} (every 16 blocks: \
             {seen})",
            spawn.at, spawn.facing, spawn.relief
        );
        assert!(
            seen >= 100,
            "continents {seed:?}: only {seen} blocks of relief ahead of {spawn:?}"
        );
    }
}

#[test]
fn every_preset_spawns_dry_looking_over_open_ground() {
    for preset in presets::names() {
        let g = generator(preset, "vista");
        // Every built-in world has land within the search's reach.
        let spawn = g
            .spawn(0, 0, RADIUS)
            .unwrap_or_else(|| panic!("{preset}: no spawn within {RADIUS} blocks"));
        assert_dry(&g, &spawn, preset);
        // The relief the search reports is there: sampled independently (every 16
        // blocks along the facing, the search's samples every 128 among them along
        // the axes), the line shows at least half of it.
        let seen = relief_ahead(&g, &spawn);
        assert!(
            seen >= spawn.relief / 2,
            "{preset}: {seen} blocks of relief ahead of {spawn:?}"
        );
        // The view the game gives a player placed there (`view_from`) is the spawn's.
        let view = g.view_from(spawn.at);
        assert_eq!(
            (view.facing, view.relief, view.clear),
            (spawn.facing, spawn.relief, spawn.clear),
            "{preset}"
        );
        // Where the view is clear, the first 32 blocks ahead (sampled every 2) stay
        // below the eye: the view is not into a wall.
        let [x, y, z] = spawn.at;
        let [fx, fz] = spawn.facing;
        let ahead_clear = |fx: f32, fz: f32| {
            (2..=32).step_by(2).all(|d| {
                let px = (x as f64 + 0.5 + fx as f64 * d as f64).floor() as i32;
                let pz = (z as f64 + 0.5 + fz as f64 * d as f64).floor() as i32;
                g.column_top(px, pz).y <= y
            })
        };
        if spawn.clear {
            assert!(ahead_clear(fx, fz), "{preset}: a wall ahead of {spawn:?}");
        }
    }
}

/// `column_top` does not see caves; the spawn does: the ground under a new player's
/// feet, and the ground around it, is not a cave's mouth. Checked on the generated
/// blocks: solid under the feet, and no cave air in the top 4 blocks of the spawn's
/// column and of its neighbours 4 blocks away (caves deeper down are not its mouth).
#[test]
fn a_new_player_never_stands_over_a_cave_mouth() {
    use terravox_voxel::{Block, BlockPos};
    let mut checked = 0;
    let mut cache = std::collections::HashMap::new();
    for (preset, seed) in [
        ("continents", "terravox"),
        ("continents", "42"),
        ("continents", "-7"),
        ("continents", "caves"),
        ("cliffs", "vista"),
        ("amplified", "vista"),
    ] {
        let g = generator(preset, seed);
        let has_caves =
            matches!(&g.config().generator, GeneratorConfig::Density(d) if d.caves.is_some());
        if !has_caves {
            continue;
        }
        let spawn = g.spawn(0, 0, RADIUS).expect("land");
        let [x, y, z] = spawn.at;
        cache.clear();
        let mut block = |p: BlockPos| {
            let (chunk, [lx, ly, lz]) = p.to_chunk();
            cache
                .entry(chunk)
                .or_insert_with(|| g.generate(chunk))
                .get(lx, ly, lz)
        };
        assert!(
            block(BlockPos::new(x, y - 1, z)).is_solid(),
            "{preset} {seed}: nothing under the feet at {spawn:?}"
        );
        for (dx, dz) in [(0, 0), (4, 0), (-4, 0), (0, 4), (0, -4)] {
            let (cx, cz) = (x + dx, z + dz);
            let top = g.column_top(cx, cz).y;
            for cy in top - 3..=top {
                assert_ne!(
                    block(BlockPos::new(cx, cy, cz)),
                    Block::CaveAir,
                    "{preset} {seed}: a cave opens at ({cx}, {cy}, {cz}) by the spawn {spawn:?}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} worlds with caves checked");
}

#[test]
fn the_spawn_search_is_a_pure_function_of_the_config() {
    for (preset, seed) in [
        ("continents", "terravox"),
        ("islands", "42"),
        ("cliffs", "x"),
    ] {
        let g = generator(preset, seed);
        let first = g.spawn(0, 0, RADIUS);
        assert_eq!(first, g.spawn(0, 0, RADIUS), "{preset} {seed}");
        assert_eq!(
            first,
            generator(preset, seed).spawn(0, 0, RADIUS),
            "{preset} {seed}: a fresh generator"
        );
        let clone = g.clone();
        let other = std::thread::spawn(move || clone.spawn(0, 0, RADIUS))
            .join()
            .unwrap();
        assert_eq!(first, other, "{preset} {seed}: on another thread");
    }
}

#[test]
fn the_spawn_stays_inside_the_world_and_find_land_keeps_its_meaning() {
    for preset in ["continents", "islands"] {
        let g = generator(preset, "edge");
        for (x, z) in [(i32::MAX, i32::MIN), (i32::MIN, i32::MAX)] {
            if let Some(s) = g.spawn(x, z, 64) {
                let [sx, _, sz] = s.at;
                assert!((-WORLD_LIMIT..WORLD_LIMIT).contains(&sx), "{preset}: {s:?}");
                assert!((-WORLD_LIMIT..WORLD_LIMIT).contains(&sz), "{preset}: {s:?}");
            }
        }
        // Both find land exactly when there is some.
        let land = g.find_land(0, 0, RADIUS);
        let spawn = g.spawn(0, 0, RADIUS);
        assert_eq!(land.is_some(), spawn.is_some(), "{preset}");
    }
}
