//! Every valid config's maps and horizon stay within ten times the work of the
//! default world's: configs whose relief would make the world crawl are refused
//! (`params::MAX_RELIEF_WORK`), and the rest is bounded by construction.
//!
//! Work is counted, never timed (performance is measured in benchmarks): the noise
//! octaves evaluated ([`noise_work`]) for a small map and for the coarse chunks
//! of levels 3 to 5 around the surface. Those are summed over the levels: the
//! horizon's rings hold about as many chunks of each level, so the sum is the work of
//! the horizon per place. (One level alone can cost more: a level-3 chunk of the
//! `amplified` preset, whose world must stay as it is, costs 28 times the default
//! world's, all of its nodes lying in its relief; its level 5 costs less.)

use crate::common;

use std::sync::LazyLock;

use common::roughest::{MAX_SCALE, amplified_max};
use common::{PICKS, any_preset, extreme_config, pick};
use proptest::prelude::*;
use terravox_voxel::ChunkPos;
use terravox_worldgen::map::{self, MapView};
use terravox_worldgen::params;
use terravox_worldgen::{
    Generator, GeneratorConfig, LodPos, WorldConfig, forget_recent_columns, noise_work, presets,
    sequential,
};

/// How much more work than the default world's any valid world may take.
const FACTOR: u64 = 10;

/// The work of a 32 x 32 pixel map at 2 blocks a pixel around the origin, every row on
/// this thread's count (run one after another), from nothing this thread remembers.
fn map_work(g: &Generator) -> u64 {
    forget_recent_columns();
    let view = MapView {
        center: [0, 0],
        size: [32, 32],
        blocks_per_pixel: 2,
    };
    noise_work(|| map::render(g, &view, &sequential)).1
}

/// The coarse chunks of levels 3 to 5 around the surface at the origin: at each level
/// the chunk holding it, the one above and the one below.
fn horizon_chunks(g: &Generator) -> Vec<LodPos> {
    let top = g.surface_height(0, 0);
    (3..=5u8)
        .flat_map(|level| {
            let y = top.div_euclid(32 << level);
            (-1..=1).map(move |dy| LodPos::new(level, ChunkPos::new(0, y + dy, 0)))
        })
        .collect()
}

/// The work of generating [`horizon_chunks`], each from nothing (none takes what
/// another chunk of its column kept, nor the fields' points this thread remembers:
/// the most a chunk can cost).
fn horizon_work(g: &Generator) -> u64 {
    horizon_chunks(g)
        .into_iter()
        .map(|lod| {
            g.forget_kept_coarse();
            forget_recent_columns();
            noise_work(|| g.generate_coarse(lod)).1
        })
        .sum()
}

/// The default world's map and horizon work.
static DEFAULT: LazyLock<(u64, u64)> = LazyLock::new(|| {
    let g = Generator::new(&WorldConfig::default()).expect("the default world is valid");
    (map_work(&g), horizon_work(&g))
});

/// `Err` naming the config and the figure when its map or horizon takes more than
/// [`FACTOR`] times the default world's work.
fn within_bounds(cfg: &WorldConfig) -> Result<(), String> {
    let g = Generator::new(cfg).map_err(|e| e.to_string())?;
    let (map, horizon) = (map_work(&g), horizon_work(&g));
    let (map0, horizon0) = *DEFAULT;
    if map > FACTOR * map0 || horizon > FACTOR * horizon0 {
        return Err(format!(
            "map {map} octaves (default {map0}), horizon {horizon} (default {horizon0}): {}",
            cfg.to_world_code()
        ));
    }
    Ok(())
}

#[test]
fn the_world_that_crawled_is_refused_naming_its_scale() {
    let e = amplified_max(1024.0)
        .validate()
        .expect_err("too much relief");
    assert_eq!(e.field(), Some("generator.scale"), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("cliff_scale") && msg.contains("2560"), "{msg}");
    // The same noise with a relief at the limit is valid.
    let scale = MAX_SCALE;
    assert_eq!(amplified_max(scale).validate(), Ok(()));
    assert!(amplified_max(scale * 1.01).validate().is_err());
}

#[test]
fn presets_and_old_worlds_stay_valid_and_within_bounds() {
    let old = common::shipped::SHIPPED.iter().flat_map(|v| v.frozen);
    let old = old.map(|(name, text)| (*name, WorldConfig::from_ron(text).expect("stays valid")));
    let built = presets::names().map(|n| (n, presets::builtin(n).expect("preset")));
    for (name, cfg) in old.chain(built) {
        if let GeneratorConfig::Density(d) = &cfg.generator {
            assert!(params::relief_work(d) <= params::MAX_RELIEF_WORK, "{name}");
        }
        within_bounds(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn the_worst_relief_allowed_is_within_bounds() {
    for octaves in [1, 2, 4, 8, 16] {
        for cliff in [0.0, 16.0] {
            let mut cfg = amplified_max(1.0);
            let GeneratorConfig::Density(d) = &mut cfg.generator else {
                unreachable!()
            };
            d.noise.octaves = octaves;
            d.cliff_scale = cliff;
            d.scale = (params::MAX_RELIEF_WORK / octaves as f64 / (2.0 + cliff)).min(1024.0);
            d.offset = d.scale + 100.0;
            within_bounds(&cfg).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        max_global_rejects: 4096,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_valid_config_maps_and_fills_the_horizon_within_ten_times_the_default(
        preset in any_preset(),
        seed in any::<u64>(),
        picks in prop::collection::vec(pick(), PICKS),
        fewer_octaves in any::<bool>(),
    ) {
        let cfg = extreme_config(preset, seed, &picks, fewer_octaves);
        prop_assume!(cfg.validate().is_ok());
        if let Err(e) = within_bounds(&cfg) {
            return Err(TestCaseError::fail(e));
        }
    }
}
