//! The generators are total and their work is bounded: every `ChunkPos` and column
//! gives a defined result (no panic, no wrapped coordinates: `.ci/run` also runs this
//! file with overflow checks on), and every valid config, extreme values included,
//! generates chunks and finds a spawn (how fast is measured by the benchmarks).
//! Validation only accepts worlds whose surface a player can stand on.

use crate::common;

use common::{Pick, apply, pick};
use proptest::prelude::*;
use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::params;
use terravox_worldgen::{
    Generator, GeneratorConfig, HEIGHT_LIMIT, IslandLayout, PLAYABLE_MARGIN, Seed, WORLD_FLOOR,
    WORLD_LIMIT, WorldConfig, chunk_in_world, presets,
};

/// Chunk coordinates at and around every edge of the world and of `i32`.
fn extremes() -> Vec<i32> {
    let h = WORLD_LIMIT / CHUNK;
    vec![i32::MIN, -h - 1, -h, 0, h - 1, h, 1 << 26, i32::MAX]
}

#[test]
fn every_chunk_position_and_column_gives_a_defined_result() {
    for name in presets::names() {
        let g = Generator::new(&presets::builtin(name).unwrap()).unwrap();
        for &x in &extremes() {
            for &y in &extremes() {
                for &z in &extremes() {
                    let pos = ChunkPos::new(x, y, z);
                    let chunk = g.generate(pos);
                    if !chunk_in_world(pos) {
                        assert_eq!(chunk, Chunk::Uniform(Block::Air), "{name} {pos:?}");
                    }
                }
            }
            for &z in &extremes() {
                let top = g.column_top(x.saturating_mul(CHUNK), z.saturating_mul(CHUNK));
                assert!(top.y.abs() < HEIGHT_LIMIT, "{name} {x} {z}: {top:?}");
            }
        }
        // The top chunk of the world is air, not water wrapped from below.
        assert_eq!(
            g.generate(ChunkPos::new(0, i32::MAX, 0)),
            Chunk::Uniform(Block::Air)
        );
        // The last chunk inside the world is generated like any other (the island
        // generator used to panic at 2^26): it meets its inner neighbour seamlessly.
        let edge = ChunkPos::new(WORLD_LIMIT / CHUNK - 1, 0, -(WORLD_LIMIT / CHUNK));
        let inner = ChunkPos::new(edge.x - 1, edge.y, edge.z);
        assert!(chunk_in_world(edge) && chunk_in_world(inner));
        let (e, i) = (g.generate(edge), g.generate(inner));
        for y in 0..CHUNK {
            for z in 0..CHUNK {
                assert!(
                    e.get(-1, y, z) == i.get(CHUNK - 1, y, z),
                    "{name}: seam at y {y} z {z}"
                );
            }
        }
        assert!(
            g.find_land(i32::MAX, i32::MIN, 64)
                .is_none_or(|[x, _, z]| { x < WORLD_LIMIT && z >= -WORLD_LIMIT })
        );
    }
}

#[test]
fn worlds_whose_surface_sinks_below_the_floor_are_refused() {
    let mut deep = presets::builtin("cliffs").unwrap();
    let GeneratorConfig::Density(d) = &mut deep.generator else {
        panic!("cliffs is a density world");
    };
    d.offset = -4096.0;
    let e = deep.validate().unwrap_err();
    assert_eq!(e.field(), Some("generator.offset"), "{e}");
    assert!(e.to_string().contains(&WORLD_FLOOR.to_string()), "{e}");
    let mut sunk = presets::builtin("islands").unwrap();
    sunk.sea_level = -1_048_576;
    assert_eq!(sunk.validate().unwrap_err().field(), Some("sea_level"));
    let mut tiny = presets::builtin("archipelago").unwrap();
    let GeneratorConfig::Islands(i) = &mut tiny.generator else {
        panic!("archipelago is an island world");
    };
    i.island_size = 1e-300;
    i.layout = IslandLayout::Archipelago {
        cell_size: 0.001,
        jitter: 0.5,
    };
    assert_eq!(
        tiny.validate().unwrap_err().field(),
        Some("generator.layout.cell_size")
    );
}

/// A config of `preset` with random, often extreme, parameters.
fn random_config(preset: &str, seed: u64, picks: &[Pick]) -> WorldConfig {
    let mut cfg = presets::builtin(preset)
        .unwrap()
        .with_seed(Seed::new(seed.to_string()));
    match &mut cfg.generator {
        GeneratorConfig::Density(d) => apply(&params::DENSITY, d, picks),
        GeneratorConfig::Islands(i) => {
            apply(&params::ISLANDS, i, picks);
            if let IslandLayout::Archipelago { cell_size, jitter } = &mut i.layout {
                let mut cells = (*cell_size, *jitter);
                apply(&params::ARCHIPELAGO, &mut cells, &picks[3..]);
                // Cells must hold their islands: the lowest cell size that does.
                cells.0 = cells.0.max(2.0 * i.island_size * i.radius);
                (*cell_size, *jitter) = cells;
            }
        }
    }
    cfg.sea_level = match picks[0] {
        Pick::Low => -(WORLD_FLOOR.abs() - PLAYABLE_MARGIN - 600),
        Pick::High => 500,
        Pick::Between(t) => (t * 200.0) as i32 - 100,
    };
    cfg
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, max_global_rejects: 4096, ..ProptestConfig::default() })]

    /// Any valid config generates and finds a place to stand (its speed is measured
    /// by the `spawn_search` and `generate_*` benchmarks, never timed here): the
    /// place is on its column's top, with solid ground (or a cave's mouth) under the
    /// feet and room for a body above; chunks near it and far away carry in their
    /// padding exactly their neighbours' blocks; work per chunk stays bounded (a chunk
    /// meets few island cells).
    #[test]
    fn every_valid_config_generates_and_spawns(
        preset in prop::sample::select(vec!["cliffs", "amplified", "islands", "archipelago"]),
        seed in any::<u64>(),
        picks in prop::collection::vec(pick(), 12),
    ) {
        let cfg = random_config(preset, seed, &picks);
        prop_assume!(cfg.validate().is_ok());
        let g = Generator::new(&cfg).unwrap();
        let spawn = g.land_near_origin();
        let near = g.islands_near(-1.0, -1.0, CHUNK as f64, CHUNK as f64);
        prop_assert!(near.len() <= 16, "{} islands near one chunk", near.len());
        let block = |x: i32, y: i32, z: i32| {
            let (c, l) = BlockPos::new(x, y, z).to_chunk();
            g.generate(c).get(l[0], l[1], l[2])
        };
        if let Some([x, y, z]) = spawn {
            prop_assert!(y > WORLD_FLOOR + PLAYABLE_MARGIN, "spawn at {y}");
            prop_assert_eq!(g.column_top(x, z).y + 1, y, "not on its column's top");
            // The ground, unless a cave opens right there: the search reads column
            // tops, which leave caves out (a flat world with surface openings can put
            // the spawn over a cave mouth).
            let ground = block(x, y - 1, z);
            prop_assert!(
                ground.is_solid() || ground == Block::CaveAir,
                "{:?} under the spawn", ground
            );
            prop_assert!(
                !block(x, y, z).is_solid() && !block(x, y + 1, z).is_solid(),
                "no room at the spawn"
            );
        }
        let [sx, sy, sz] = spawn.unwrap_or([0, cfg.sea_level + 1, 0]);
        let around = BlockPos::new(sx, sy, sz).to_chunk().0;
        let far = 1 << 24;
        for c in [
            around,
            ChunkPos::new(around.x + 1, around.y - 1, around.z),
            ChunkPos::new(far, 0, -far),
            ChunkPos::new(-far, around.y, far),
        ] {
            let (chunk, east) = (g.generate(c), g.generate(ChunkPos::new(c.x + 1, c.y, c.z)));
            for y in 0..CHUNK {
                for z in 0..CHUNK {
                    prop_assert_eq!(chunk.get(CHUNK, y, z), east.get(0, y, z), "{:?} {} {}", c, y, z);
                    prop_assert_eq!(chunk.get(CHUNK - 1, y, z), east.get(-1, y, z), "{:?} {} {}", c, y, z);
                }
            }
        }
    }
}
