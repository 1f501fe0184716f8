//! Golden hashes and determinism: the same seed and settings give bit-identical
//! chunks on every run, with one thread or many, in any order; and the same maps and
//! statistics whichever threads run their rows.

mod common;

use common::{
    V1_PRESETS, V2_PRESETS, V3_PRESETS, V4_PRESETS, V5_PRESETS, V6_PRESETS, fixed_chunks,
    generator, generator_v1, generator_v2, generator_v3, generator_v4, generator_v5, generator_v6,
    golden_chunks, hash_chunks, world_hash,
};
use rayon::prelude::*;
use terravox_voxel::ChunkPos;
use terravox_worldgen::fields::Field;
use terravox_worldgen::map::{self, Layer, MapView};
use terravox_worldgen::{ForEach, Generator, GeneratorConfig, Seed, presets, sequential, stats};

const SEEDS: [&str; 3] = ["terravox", "42", "-7 islands and cliffs"];

/// Golden world hashes of the version-1 presets as they shipped: (preset, seed, hash
/// of `fixed_chunks`). These never change: a version-1 world code is the same world
/// forever.
const GOLDEN_V1: [(&str, &str, u64); 12] = [
    ("cliffs", "terravox", 0x7a1249d2dea30f05),
    ("cliffs", "42", 0xd40d115f7994737c),
    ("cliffs", "-7 islands and cliffs", 0xe0d690b300a2ea77),
    ("amplified", "terravox", 0x5f51512cc9c926d3),
    ("amplified", "42", 0x3d1737890f2b7765),
    ("amplified", "-7 islands and cliffs", 0x0262f1fc7c04df5e),
    ("islands", "terravox", 0x92f491d53ee15d69),
    ("islands", "42", 0xac2d837b38fb2df6),
    ("islands", "-7 islands and cliffs", 0x9d19f6140a336d32),
    ("archipelago", "terravox", 0x75db56031185009a),
    ("archipelago", "42", 0x95879a4cb4c31e16),
    ("archipelago", "-7 islands and cliffs", 0x1f836e62c215c8f3),
];

/// Golden world hashes of the version-2 presets as they shipped (the island presets
/// are still built in unchanged), over the fixed chunks and the land around the spawn
/// (`golden_chunks`). These never change.
const GOLDEN_V2: [(&str, &str, u64); 15] = [
    ("continents", "terravox", 0x89406383c6b81de1),
    ("continents", "42", 0x60c2d69ab887de76),
    ("continents", "-7 islands and cliffs", 0x7833c9facf6c23b6),
    ("cliffs", "terravox", 0x8e68144246a63ec2),
    ("cliffs", "42", 0xde11470e766899c1),
    ("cliffs", "-7 islands and cliffs", 0x2f297f884b2c3856),
    ("amplified", "terravox", 0xee3af6d7c62e3032),
    ("amplified", "42", 0x5549dfe4566ae422),
    ("amplified", "-7 islands and cliffs", 0xba9b5ea4f652453d),
    ("islands", "terravox", 0x37f5bbef62e41818),
    ("islands", "42", 0x9e19e367ae03fa82),
    ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
    ("archipelago", "terravox", 0xfe6022c0d788f37f),
    ("archipelago", "42", 0x2995aadc89e77648),
    ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
];

/// Checks a golden table over the chunks `chunks` picks, printing the whole new table
/// when any hash differs.
fn check_golden(
    table: &[(&str, &str, u64)],
    make: fn(&str, &str) -> Generator,
    chunks: fn(&Generator) -> Vec<ChunkPos>,
) {
    let mut report = String::new();
    let mut ok = true;
    for &(preset, seed, want) in table {
        let g = make(preset, seed);
        let got = world_hash(&g, &chunks(&g));
        report += &format!("    (\"{preset}\", \"{seed}\", {got:#018x}),\n");
        ok &= got == want;
    }
    assert!(
        ok,
        "golden hashes changed; if on purpose, the new table is:\n{report}"
    );
}

// Every shipped preset has a golden hash for every seed (the tables' lengths are
// known when compiling; the tables of every preset are checked in their tests).
const _: () = assert!(GOLDEN_V1.len() == V1_PRESETS.len() * SEEDS.len());
const _: () = assert!(GOLDEN_V3.len() == V3_PRESETS.len() * SEEDS.len());
const _: () = assert!(GOLDEN_V4.len() == V4_PRESETS.len() * SEEDS.len());

#[test]
fn version_1_worlds_are_unchanged() {
    check_golden(&GOLDEN_V1, generator_v1, |_| fixed_chunks());
    // Version-1 world codes are written as they always were (no new fields), so their
    // saves keep their names.
    assert_shipped(&V1_PRESETS, 1, &["nature", "shape"]);
}

/// Every config of `table` is of `version`, and its world code carries none of the
/// fields `absent` (those of later versions).
fn assert_shipped(table: &[(&str, &str)], version: u32, absent: &[&str]) {
    for (name, text) in table {
        let cfg = terravox_worldgen::WorldConfig::from_ron(text).unwrap();
        assert_eq!(cfg.version, version, "{name}");
        for field in absent {
            assert!(!cfg.to_world_code().contains(field), "{name}: {field}");
        }
    }
}

/// Golden world hashes of the built-in density presets (version 3: with caves), over
/// the same chunks. A change that alters these worlds must update them on purpose
/// and bump `GENERATOR_VERSION`.
const GOLDEN_V3: [(&str, &str, u64); 9] = [
    ("continents", "terravox", 0x8482a422da5a95f4),
    ("continents", "42", 0x78b282eefda36891),
    ("continents", "-7 islands and cliffs", 0xef365a1a5172f891),
    ("cliffs", "terravox", 0x3fb880ce5adb5863),
    ("cliffs", "42", 0x49a11511d78bec4d),
    ("cliffs", "-7 islands and cliffs", 0xf7f5a21ace1f4e1a),
    ("amplified", "terravox", 0xbc500043880cad81),
    ("amplified", "42", 0xc55fa4af48174f2d),
    ("amplified", "-7 islands and cliffs", 0x9917735c373aab0a),
];

#[test]
fn version_2_worlds_are_unchanged() {
    check_golden(&GOLDEN_V2, generator_v2, golden_chunks);
    assert_eq!(GOLDEN_V2.len(), presets::names().count() * SEEDS.len());
    assert_shipped(&V2_PRESETS, 2, &["caves"]);
}

#[test]
fn version_3_worlds_are_unchanged() {
    check_golden(&GOLDEN_V3, generator_v3, golden_chunks);
    assert_shipped(&V3_PRESETS, 3, &["relief"]);
}

/// Golden world hashes of every preset as it shipped in version 4 (ranges, faces and
/// the tree line in `continents`, trees away from cave mouths in every density
/// world; the island worlds as in version 2), over the same chunks. These never
/// change.
const GOLDEN_V4: [(&str, &str, u64); 15] = [
    ("continents", "terravox", 0xf9ab9f5aae04f7f5),
    ("continents", "42", 0x69b02025edb83de5),
    ("continents", "-7 islands and cliffs", 0xcab965dac08086c7),
    ("cliffs", "terravox", 0xdef2f63cfd81ca5f),
    ("cliffs", "42", 0x49a11511d78bec4d),
    ("cliffs", "-7 islands and cliffs", 0xe2e281afa6d30bd2),
    ("amplified", "terravox", 0xbc500043880cad81),
    ("amplified", "42", 0xc55fa4af48174f2d),
    ("amplified", "-7 islands and cliffs", 0xe99b992c98463e3a),
    ("islands", "terravox", 0x37f5bbef62e41818),
    ("islands", "42", 0x9e19e367ae03fa82),
    ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
    ("archipelago", "terravox", 0xfe6022c0d788f37f),
    ("archipelago", "42", 0x2995aadc89e77648),
    ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
];

#[test]
fn version_4_worlds_are_unchanged() {
    check_golden(&GOLDEN_V4, generator_v4, golden_chunks);
    assert_shipped(&V4_PRESETS, 4, &["springs"]);
}

/// Golden world hashes of every preset as it shipped in version 5 (water that runs
/// downhill in `continents`; the other presets have no `water` and are their
/// version-4 worlds, hash for hash), over the same chunks. These never change.
const GOLDEN_V5: [(&str, &str, u64); 15] = [
    ("continents", "terravox", 0x881e608434b8f029),
    ("continents", "42", 0xdd3b7f994109d8c2),
    ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
    ("cliffs", "terravox", 0xdef2f63cfd81ca5f),
    ("cliffs", "42", 0x49a11511d78bec4d),
    ("cliffs", "-7 islands and cliffs", 0xe2e281afa6d30bd2),
    ("amplified", "terravox", 0xbc500043880cad81),
    ("amplified", "42", 0xc55fa4af48174f2d),
    ("amplified", "-7 islands and cliffs", 0xe99b992c98463e3a),
    ("islands", "terravox", 0x37f5bbef62e41818),
    ("islands", "42", 0x9e19e367ae03fa82),
    ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
    ("archipelago", "terravox", 0xfe6022c0d788f37f),
    ("archipelago", "42", 0x2995aadc89e77648),
    ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
];

#[test]
fn version_5_worlds_are_unchanged() {
    check_golden(&GOLDEN_V5, generator_v5, golden_chunks);
    assert_eq!(GOLDEN_V5.len(), presets::names().count() * SEEDS.len());
    assert_shipped(&V5_PRESETS, 5, &[]);
}

/// Golden world hashes of every preset as it shipped in version 6 (banks keep the
/// water of `continents` in; the other presets are their version-5 worlds, hash for
/// hash), over the same chunks. These never change.
const GOLDEN_V6: [(&str, &str, u64); 15] = [
    ("continents", "terravox", 0x881e608434b8f029),
    ("continents", "42", 0xd000374b7b9f0c28),
    ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
    ("cliffs", "terravox", 0xdef2f63cfd81ca5f),
    ("cliffs", "42", 0x49a11511d78bec4d),
    ("cliffs", "-7 islands and cliffs", 0xe2e281afa6d30bd2),
    ("amplified", "terravox", 0xbc500043880cad81),
    ("amplified", "42", 0xc55fa4af48174f2d),
    ("amplified", "-7 islands and cliffs", 0xe99b992c98463e3a),
    ("islands", "terravox", 0x37f5bbef62e41818),
    ("islands", "42", 0x9e19e367ae03fa82),
    ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
    ("archipelago", "terravox", 0xfe6022c0d788f37f),
    ("archipelago", "42", 0x2995aadc89e77648),
    ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
];

#[test]
fn version_6_worlds_are_unchanged() {
    check_golden(&GOLDEN_V6, generator_v6, golden_chunks);
    assert_eq!(GOLDEN_V6.len(), presets::names().count() * SEEDS.len());
    assert_shipped(&V6_PRESETS, 6, &[]);
}

/// Golden world hashes of every built-in preset (version 7: gullies down the valley
/// walls rivers cut through the ranges of `continents`; the other presets are their
/// version-6 worlds, hash for hash), over the same chunks. A change that alters
/// these worlds must update them on purpose and bump `GENERATOR_VERSION`.
const GOLDEN_V7: [(&str, &str, u64); 15] = [
    ("continents", "terravox", 0x881e608434b8f029),
    ("continents", "42", 0x687241b9341e03e3),
    ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
    ("cliffs", "terravox", 0xdef2f63cfd81ca5f),
    ("cliffs", "42", 0x49a11511d78bec4d),
    ("cliffs", "-7 islands and cliffs", 0xe2e281afa6d30bd2),
    ("amplified", "terravox", 0xbc500043880cad81),
    ("amplified", "42", 0xc55fa4af48174f2d),
    ("amplified", "-7 islands and cliffs", 0xe99b992c98463e3a),
    ("islands", "terravox", 0x37f5bbef62e41818),
    ("islands", "42", 0x9e19e367ae03fa82),
    ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
    ("archipelago", "terravox", 0xfe6022c0d788f37f),
    ("archipelago", "42", 0x2995aadc89e77648),
    ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
];

#[test]
fn version_7_golden_hashes_match() {
    check_golden(&GOLDEN_V7, generator, golden_chunks);
    assert_eq!(GOLDEN_V7.len(), presets::names().count() * SEEDS.len());
    for name in presets::names() {
        assert_eq!(presets::builtin(name).unwrap().version, 7, "{name}");
    }
}

#[test]
fn version_1_determinism_holds_too() {
    for (preset, _) in V1_PRESETS {
        let g = generator_v1(preset, "determinism");
        let base = pooled_hash(&g, 1, false);
        assert_eq!(base, pooled_hash(&g, 4, false), "{preset}: 4 threads");
        assert_eq!(base, pooled_hash(&g, 3, true), "{preset}: shuffled");
    }
}

fn pooled_hash(g: &Generator, threads: usize, shuffle: bool) -> u64 {
    let mut positions = golden_chunks(g);
    if shuffle {
        // A fixed permutation that moves every element.
        positions.reverse();
        positions.rotate_left(5);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let mut chunks: Vec<_> =
        pool.install(|| positions.par_iter().map(|&p| (p, g.generate(p))).collect());
    chunks.sort_by_key(|(p, _)| *p);
    hash_chunks(&chunks)
}

#[test]
fn one_thread_many_threads_and_shuffled_order_agree() {
    for preset in presets::names() {
        let g = generator(preset, "determinism");
        let base = pooled_hash(&g, 1, false);
        assert_eq!(base, pooled_hash(&g, 4, false), "{preset}: 4 threads");
        assert_eq!(base, pooled_hash(&g, 3, true), "{preset}: shuffled");
        // A generator built again from the same config agrees too.
        let again = Generator::new(g.config()).expect("valid");
        assert_eq!(base, pooled_hash(&again, 2, true), "{preset}: rebuilt");
    }
}

#[test]
fn maps_and_statistics_are_the_same_on_any_threads() {
    let view = MapView {
        center: [100, -300],
        size: [24, 20],
        blocks_per_pixel: 16,
    };
    let on_rayon: ForEach<'_> = &|n, job| (0..n).into_par_iter().for_each(job);
    for preset in ["continents", "archipelago"] {
        let g = generator(preset, "determinism");
        for layer in [
            Layer::Terrain,
            Layer::Biomes,
            Layer::Field(Field::Temperature),
        ] {
            assert_eq!(
                map::render_layer(&g, &view, layer, &sequential),
                map::render_layer(&g, &view, layer, on_rayon),
                "{preset}: {}",
                layer.name()
            );
        }
        assert_eq!(
            stats::relief_stats(&g, [0, 0], 1024, stats::STEP, &sequential),
            stats::relief_stats(&g, [0, 0], 1024, stats::STEP, on_rayon),
            "{preset}"
        );
    }
}

#[test]
fn seeds_decide_the_world() {
    for preset in presets::names() {
        // The same chunks for every seed: all their golden sets (each seed's land).
        let chunks: Vec<ChunkPos> = SEEDS
            .iter()
            .flat_map(|s| golden_chunks(&generator(preset, s)))
            .collect();
        let hashes: Vec<u64> = SEEDS
            .iter()
            .map(|s| world_hash(&generator(preset, s), &chunks))
            .collect();
        assert_ne!(hashes[0], hashes[1], "{preset}");
        assert_ne!(hashes[1], hashes[2], "{preset}");
        assert_ne!(hashes[0], hashes[2], "{preset}");
        // A text seed is its FNV-1a hash: the same world as that integer seed, and
        // another world than the integer seeds above.
        let text = world_hash(&generator(preset, "a text seed"), &chunks);
        let value = Seed::new("a text seed").value();
        assert_eq!(
            text,
            world_hash(&generator(preset, &value.to_string()), &chunks),
            "{preset}"
        );
        assert!(!hashes.contains(&text), "{preset}");
    }
    // An integer seed is that integer, so "42" and " 42 " are one world.
    let a = presets::builtin("cliffs")
        .unwrap()
        .with_seed(Seed::new("42"));
    let b = presets::builtin("cliffs")
        .unwrap()
        .with_seed(Seed::new(" 42 "));
    let ga = Generator::new(&a).unwrap();
    let gb = Generator::new(&b).unwrap();
    assert_eq!(
        world_hash(&ga, &fixed_chunks()),
        world_hash(&gb, &fixed_chunks())
    );
}

#[test]
fn configs_round_trip_through_ron() {
    for preset in presets::names() {
        for seed in SEEDS {
            let cfg = presets::builtin(preset).unwrap().with_seed(Seed::new(seed));
            assert!(common::round_trips(&cfg), "{preset} {seed}");
        }
    }
}

#[test]
fn spellings_of_one_world_have_one_canonical_form() {
    let base = presets::builtin("archipelago").unwrap();
    let a = base.clone().with_seed(Seed::new("42"));
    let b = base.clone().with_seed(Seed::new(" 42 "));
    let text = base.clone().with_seed(Seed::new("hello"));
    let number = base
        .clone()
        .with_seed(Seed::new(Seed::new("hello").value().to_string()));
    assert_eq!(a.canonical(), b.canonical());
    assert_eq!(text.canonical(), number.canonical());
    assert_ne!(a.canonical(), text.canonical());
    let mut zero = a.clone();
    let mut negative = a.clone();
    for (cfg, v) in [(&mut zero, 0.0), (&mut negative, -0.0)] {
        let GeneratorConfig::Islands(i) = &mut cfg.generator else {
            panic!("archipelago is an island world");
        };
        i.centre_offset = [v, v];
    }
    assert_ne!(zero.to_world_code(), negative.to_world_code());
    assert_eq!(zero.canonical(), negative.canonical());
    // Equal canonical forms are the same world, bit for bit.
    let hash = |c: &terravox_worldgen::WorldConfig| {
        world_hash(&Generator::new(c).unwrap(), &fixed_chunks())
    };
    assert_eq!(hash(&zero), hash(&negative));
    assert_eq!(hash(&a), hash(&b));
    // Canonicalising twice changes nothing and keeps the config valid.
    assert_eq!(a.canonical().canonical(), a.canonical());
    assert!(a.canonical().validate().is_ok());
}
