//! Caves (version 3): how much rock they hollow out, that they open to the surface
//! now and then, never leave water hanging over a dry hole, stop above their floor,
//! and are off in older worlds.

use crate::common;

use common::generator;
use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::{Generator, GeneratorConfig, presets};

/// A square of `n` x `n` chunk columns from `(cx, cz)`, from chunk layer `lo` to `hi`.
fn region(g: &Generator, cx: i32, cz: i32, n: i32, lo: i32, hi: i32) -> Vec<(ChunkPos, Chunk)> {
    let mut out = Vec::new();
    for z in cz..cz + n {
        for x in cx..cx + n {
            for y in lo..=hi {
                let p = ChunkPos::new(x, y, z);
                out.push((p, g.generate(p)));
            }
        }
    }
    out
}

/// The block at a world position, from the generated chunks of `region`.
fn block_at(chunks: &[(ChunkPos, Chunk)], x: i32, y: i32, z: i32) -> Option<Block> {
    let p = ChunkPos::new(
        x.div_euclid(CHUNK),
        y.div_euclid(CHUNK),
        z.div_euclid(CHUNK),
    );
    chunks.iter().find(|(q, _)| *q == p).map(|(_, c)| {
        c.get(
            x.rem_euclid(CHUNK),
            y.rem_euclid(CHUNK),
            z.rem_euclid(CHUNK),
        )
    })
}

#[test]
fn caves_hollow_out_a_few_percent_of_the_rock_below_the_surface() {
    let g = generator("continents", "caves");
    let [sx, _, sz] = g.land_near_origin().expect("land");
    let (cx, cz) = (sx.div_euclid(CHUNK) - 3, sz.div_euclid(CHUNK) - 3);
    let chunks = region(&g, cx, cz, 6, -4, 3);
    let (mut cave, mut rock) = (0usize, 0usize);
    for z in cz * CHUNK..(cz + 6) * CHUNK {
        for x in cx * CHUNK..(cx + 6) * CHUNK {
            let top = g.surface_height(x, z);
            for y in top - 60..=top - 10 {
                match block_at(&chunks, x, y, z) {
                    Some(Block::CaveAir) => cave += 1,
                    Some(b) if b.is_solid() => rock += 1,
                    _ => {}
                }
            }
        }
    }
    let share = cave as f64 / (cave + rock) as f64;
    println!("cave air: {:.2}% of {} blocks", share * 100.0, cave + rock);
    assert!(
        (0.02..=0.15).contains(&share),
        "caves are {:.2}% of the rock",
        share * 100.0
    );
}

#[test]
fn some_caves_open_to_the_surface() {
    let g = generator("continents", "caves");
    let [sx, _, sz] = g.land_near_origin().expect("land");
    let (cx, cz) = (sx.div_euclid(CHUNK) - 5, sz.div_euclid(CHUNK) - 5);
    let chunks = region(&g, cx, cz, 10, -1, 2);
    // Cave air next to open air (not water): a mouth a walker can find.
    let mut mouths = 0;
    for (p, c) in &chunks {
        for y in 0..CHUNK {
            for z in 0..CHUNK {
                for x in 0..CHUNK {
                    if c.get(x, y, z) != Block::CaveAir {
                        continue;
                    }
                    let o = p.origin();
                    let near = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, -1)];
                    let open = near.iter().any(|&(dx, dy, dz)| {
                        block_at(&chunks, o.x + x + dx, o.y + y + dy, o.z + z + dz)
                            == Some(Block::Air)
                    });
                    if open && mouths % 200 == 0 {
                        println!("a cave mouth at {} {} {}", o.x + x, o.y + y, o.z + z);
                    }
                    mouths += open as usize;
                }
            }
        }
    }
    println!("{mouths} cave air blocks open to the sky");
    assert!(
        mouths > 0,
        "no cave opens to the surface in 320 x 320 blocks"
    );
}

#[test]
fn no_water_hangs_over_a_cave_and_no_cave_reaches_the_floor() {
    for preset in ["continents", "cliffs", "amplified"] {
        let g = generator(preset, "seal");
        let GeneratorConfig::Density(d) = &g.config().generator else {
            panic!("{preset} is a density world")
        };
        let floor = g.config().sea_level - d.caves.as_ref().expect("caves").depth as i32;
        // Over the sea and the coast at the origin, and down to the caves' floor.
        let lowest = floor.div_euclid(CHUNK) - 1;
        let mut caves = 0;
        for (p, c) in region(&g, -3, -3, 6, lowest, 1) {
            for y in -1..CHUNK {
                for z in 0..CHUNK {
                    for x in 0..CHUNK {
                        if c.get(x, y, z) != Block::CaveAir {
                            continue;
                        }
                        caves += 1;
                        assert_ne!(
                            c.get(x, y + 1, z),
                            Block::Water,
                            "{preset}: water over a cave at {p:?} {x} {y} {z}"
                        );
                        assert!(
                            p.origin().y + y > floor,
                            "{preset}: a cave below the floor at {p:?}"
                        );
                    }
                }
            }
        }
        assert!(caves > 0, "{preset}: no caves");
    }
}

#[test]
fn older_worlds_and_caves_none_have_no_caves() {
    // Version 2 presets as they shipped, and the default world with caves turned off.
    let mut off = presets::builtin("continents").expect("built in");
    if let GeneratorConfig::Density(d) = &mut off.generator {
        d.caves = None;
    }
    let v2 =
        terravox_worldgen::WorldConfig::from_ron(include_str!("v2/continents.ron")).expect("v2");
    for cfg in [off, v2] {
        let g = Generator::new(&cfg).expect("valid");
        for (_, c) in region(&g, -2, -2, 4, -3, 1) {
            assert!(c.dense().is_none_or(|b| !b.contains(&Block::CaveAir)));
        }
    }
    // Caves are refused before version 3.
    let mut early = presets::builtin("continents").expect("built in");
    early.version = 2;
    let problems = early.problems();
    assert!(
        problems
            .iter()
            .any(|e| e.field() == Some("generator.caves")),
        "caves need version 3: {problems:?}"
    );
}

/// Trees standing on a soil block with a cave right under it, among the chunks of
/// `region`: the soil left floating over a cave's mouth.
fn floating_trees(chunks: &[(ChunkPos, Chunk)]) -> usize {
    let log = |b: Block| {
        matches!(
            b,
            Block::OakLog | Block::BirchLog | Block::SpruceLog | Block::AcaciaLog
        )
    };
    let mut floating = 0;
    for (p, c) in chunks {
        let o = p.origin();
        for z in 0..CHUNK {
            for x in 0..CHUNK {
                for y in 0..CHUNK {
                    let (wx, wy, wz) = (o.x + x, o.y + y, o.z + z);
                    if !log(c.get(x, y, z)) {
                        continue;
                    }
                    let soil = block_at(chunks, wx, wy - 1, wz);
                    let under = block_at(chunks, wx, wy - 2, wz);
                    if soil.is_some_and(|b| !log(b) && b.is_solid())
                        && under == Some(Block::CaveAir)
                    {
                        floating += 1;
                    }
                }
            }
        }
    }
    floating
}

#[test]
fn version_4_trees_never_stand_on_soil_floating_over_a_cave_mouth() {
    // The same cliffs (version 4 changes nothing else there) and the default world,
    // each as version 3 shipped it and as version 4 makes it.
    for (preset, v3) in [
        ("cliffs", include_str!("v3/cliffs.ron")),
        ("continents", include_str!("v3/continents.ron")),
    ] {
        let v3 = terravox_worldgen::WorldConfig::from_ron(v3)
            .expect("v3")
            .with_seed(terravox_worldgen::Seed::new("caves"));
        let v3 = Generator::new(&v3).expect("valid");
        let v4 = generator(preset, "caves");
        for (version, g, want_some) in [(3, &v3, true), (4, &v4, false)] {
            let [sx, _, sz] = g.land_near_origin().expect("land");
            let (cx, cz) = (sx.div_euclid(CHUNK) - 10, sz.div_euclid(CHUNK) - 10);
            let floating = floating_trees(&region(g, cx, cz, 20, -1, 3));
            eprintln!("{preset} version {version}: {floating} floating trees");
            assert_eq!(
                floating > 0,
                want_some,
                "{preset} version {version}: {floating}"
            );
        }
    }
}
