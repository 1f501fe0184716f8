//! Golden hashes and determinism: the same seed and settings give bit-identical
//! chunks on every run, with one thread or many, in any order; and the same maps and
//! statistics whichever threads run their rows.

use crate::common;

use common::shipped::{SEEDS, SHIPPED, Shipped, WATER_SPOTS, WaterSpot, generator_of, shipped};
use common::{fixed_chunks, generator, golden_chunks, hash_chunks, world_hash};
use rayon::prelude::*;
use terravox_voxel::ChunkPos;
use terravox_worldgen::fields::Field;
use terravox_worldgen::map::{self, Layer, MapView};
use terravox_worldgen::{
    ForEach, GENERATOR_VERSION, Generator, GeneratorConfig, Seed, WorldConfig, presets, sequential,
    stats,
};

/// One version's golden hashes checked: `Err` with the version's whole new list when
/// any hash differs.
fn check_golden(v: &Shipped) -> Result<(), String> {
    let rows: Vec<(u64, u64)> = v
        .golden
        .par_iter()
        .map(|&(preset, seed, want)| {
            let g = v.generator(preset, seed);
            (world_hash(&g, &v.chunks(&g)), want)
        })
        .collect();
    if rows.iter().all(|(got, want)| got == want) {
        return Ok(());
    }
    let list: String = v
        .golden
        .iter()
        .zip(&rows)
        .map(|((preset, seed, _), (got, _))| {
            format!("    (\"{preset}\", \"{seed}\", {got:#018x}),\n")
        })
        .collect();
    Err(format!(
        "version {}'s golden hashes changed; if on purpose, its new list is:\n{list}",
        v.version
    ))
}

/// The hash of the chunks at each of [`WATER_SPOTS`] in the `continents` world of
/// `ron` with the spot's seed.
fn water_hashes(ron: &str) -> Vec<u64> {
    WATER_SPOTS
        .par_iter()
        .map(|spot| world_hash(&generator_of(ron, spot.seed), &spot.chunks()))
        .collect()
}

/// One version's water goldens checked: `Err` with its whole new list when any hash
/// differs.
fn check_water(v: &Shipped) -> Result<(), String> {
    if v.water.is_empty() {
        return Ok(());
    }
    let got = water_hashes(v.ron("continents"));
    if got == v.water {
        return Ok(());
    }
    let list: Vec<String> = got.iter().map(|h| format!("{h:#018x}")).collect();
    Err(format!(
        "version {}'s water goldens changed; if on purpose, its new list is:\n    water: &[{}],",
        v.version,
        list.join(", ")
    ))
}

/// Every world of every version keeps its blocks, bit for bit: a world code shared in
/// any version is the same world forever. A change that alters the current version's
/// worlds must freeze them (a new row of `SHIPPED`) and bump `GENERATOR_VERSION`.
#[test]
fn every_version_keeps_its_worlds() {
    let changed: Vec<String> = SHIPPED
        .iter()
        .flat_map(|v| [check_golden(v).err(), check_water(v).err()])
        .flatten()
        .collect();
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// Each water version lays its own water at every water spot: a change that made one
/// version's water another's (or left a spot dry in every version alike) fails a
/// golden.
#[test]
fn each_water_version_lays_its_own_water_at_every_spot() {
    let with_water: Vec<&Shipped> = SHIPPED.iter().filter(|v| !v.water.is_empty()).collect();
    assert_eq!(with_water.first().map(|v| v.version), Some(5));
    for (i, spot) in WATER_SPOTS.iter().enumerate() {
        let mut hashes: Vec<u64> = with_water.iter().map(|v| v.water[i]).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), with_water.len(), "{spot:?}: versions alike");
    }
}

/// The water goldens catch a change to any version's water: a copy of each version's
/// `continents` whose rivers grow a quarter wider fails them at every spot.
#[test]
fn a_changed_copy_of_each_water_version_fails_its_water_goldens() {
    for v in SHIPPED.iter().filter(|v| !v.water.is_empty()) {
        let ron = v.ron("continents");
        let changed = ron.replace("width: 1.0,", "width: 1.25,");
        assert_ne!(changed, ron, "version {}: the rivers' width", v.version);
        let got = water_hashes(&changed);
        let unseen: Vec<&WaterSpot> = WATER_SPOTS
            .iter()
            .zip(got.iter().zip(v.water))
            .filter(|(_, (got, want))| got == want)
            .map(|(spot, _)| spot)
            .collect();
        assert!(
            unseen.is_empty(),
            "version {}: unseen at {unseen:?}",
            v.version
        );
    }
}

/// The table of shipped versions is whole: one row per version, each golden list
/// hashing every seed of its frozen presets (the current version's: of every built-in
/// preset, as it is built in), frozen configs of their version with none of the
/// fields later versions added.
#[test]
fn every_version_is_shipped_and_hashed() {
    let versions: Vec<u32> = SHIPPED.iter().map(|v| v.version).collect();
    assert_eq!(versions, (1..=GENERATOR_VERSION).collect::<Vec<_>>());
    for v in SHIPPED {
        let spots = if v.version >= 5 { WATER_SPOTS.len() } else { 0 };
        assert_eq!(v.water.len(), spots, "version {}: water goldens", v.version);
        let named: Vec<&str> = if v.version == GENERATOR_VERSION {
            assert!(
                v.frozen.is_empty(),
                "the current version's presets are built in"
            );
            presets::names().collect()
        } else {
            v.frozen.iter().map(|(name, _)| *name).collect()
        };
        let expected: Vec<(&str, &str)> = named
            .iter()
            .flat_map(|&p| SEEDS.iter().map(move |&s| (p, s)))
            .collect();
        let rows: Vec<(&str, &str)> = v.golden.iter().map(|&(p, s, _)| (p, s)).collect();
        assert_eq!(
            rows, expected,
            "version {}: every seed of each preset it hashes",
            v.version
        );
        for (name, text) in v.frozen {
            let cfg = WorldConfig::from_ron(text).expect("shipped configs stay valid");
            assert_eq!(cfg.version, v.version, "{name}");
            for field in v.absent {
                assert!(!cfg.to_world_code().contains(field), "{name}: {field}");
            }
        }
    }
    for name in presets::names() {
        assert_eq!(
            presets::builtin(name).unwrap().version,
            GENERATOR_VERSION,
            "{name}"
        );
    }
}

#[test]
fn version_1_determinism_holds_too() {
    let v1 = shipped(1);
    for (preset, _) in v1.frozen {
        let g = v1.generator(preset, "determinism");
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
