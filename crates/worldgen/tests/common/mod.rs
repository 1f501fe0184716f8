//! Helpers shared by the worldgen integration tests.
#![allow(dead_code, missing_docs)]

use std::collections::HashMap;

use proptest::prelude::*;
use terravox_worldgen::params::{self, Param, Scale};

use terravox_voxel::{Chunk, ChunkPos, Fnv64};
use terravox_worldgen::{Generator, GeneratorConfig, IslandLayout, Seed, WorldConfig, presets};

pub(crate) mod roughest;
pub(crate) mod shipped;

/// A preset with a seed, validated into a generator.
pub(crate) fn generator(preset: &str, seed: &str) -> Generator {
    let cfg = presets::builtin(preset)
        .expect("preset")
        .with_seed(Seed::new(seed));
    Generator::new(&cfg).expect("valid preset")
}

/// The chunks every golden and determinism test looks at: a column through the
/// surface at the origin, chunks at negative coordinates, and a far one.
pub(crate) fn fixed_chunks() -> Vec<ChunkPos> {
    let mut v = Vec::new();
    for y in -2..4 {
        v.push(ChunkPos::new(0, y, 0));
        v.push(ChunkPos::new(-1, y, -1));
    }
    v.extend([
        ChunkPos::new(3, 0, -2),
        ChunkPos::new(-5, 1, 4),
        ChunkPos::new(40, 0, -37),
        ChunkPos::new(2, -1, 7),
    ]);
    v
}

/// The fixed chunks plus a 3x3x3 block of chunks around the spawn (`find_land`): in
/// worlds whose origin is sea, the land's biomes and trees are hashed too.
pub(crate) fn golden_chunks(g: &Generator) -> Vec<ChunkPos> {
    let mut v = fixed_chunks();
    if let Some([x, y, z]) = g.land_near_origin() {
        let c = terravox_voxel::BlockPos::new(x, y, z).to_chunk().0;
        for dy in -1..=1 {
            for dz in -1..=1 {
                for dx in -1..=1 {
                    v.push(ChunkPos::new(c.x + dx, c.y + dy, c.z + dz));
                }
            }
        }
    }
    v
}

/// One hash over the given chunks' contents, in list order.
pub(crate) fn hash_chunks(chunks: &[(ChunkPos, Chunk)]) -> u64 {
    let mut h = Fnv64::new();
    for (p, c) in chunks {
        for v in [p.x, p.y, p.z] {
            h.write(&v.to_le_bytes());
        }
        h.write(&c.content_hash().to_le_bytes());
    }
    h.finish()
}

/// Generates `positions` in order and hashes the result.
pub(crate) fn world_hash(g: &Generator, positions: &[ChunkPos]) -> u64 {
    let chunks: Vec<_> = positions.iter().map(|&p| (p, g.generate(p))).collect();
    hash_chunks(&chunks)
}

/// Checks that every padding block of every chunk in `area` equals the block its
/// owner chunk generated at that world position.
pub(crate) fn assert_seamless(g: &Generator, area: &[ChunkPos]) {
    let mut cache: HashMap<ChunkPos, Chunk> = HashMap::new();
    let mut get = |p: ChunkPos| cache.entry(p).or_insert_with(|| g.generate(p)).clone();
    for &pos in area {
        let chunk = get(pos);
        for y in -1..=32 {
            for z in -1..=32 {
                for x in -1..=32 {
                    let border = [x, y, z].iter().any(|&v| v == -1 || v == 32);
                    if !border {
                        continue;
                    }
                    let (owner, l) = pos.local_to_world([x, y, z]).to_chunk();
                    let theirs = get(owner).get(l[0], l[1], l[2]);
                    assert_eq!(
                        chunk.get(x, y, z),
                        theirs,
                        "chunk {pos:?} padding ({x},{y},{z}) differs from {owner:?} {l:?}"
                    );
                }
            }
        }
    }
}

/// A config that parsed from RON equals the original (round trip).
pub(crate) fn round_trips(cfg: &WorldConfig) -> bool {
    WorldConfig::from_ron(&cfg.to_ron_pretty()).as_ref() == Ok(cfg)
        && WorldConfig::from_ron(&cfg.to_world_code()).as_ref() == Ok(cfg)
}

/// How a random parameter is picked: its lowest or highest allowed value, or one in
/// between.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pick {
    Low,
    High,
    Between(f64),
}

/// A random [`Pick`]: either end of a range, or a point in between.
pub(crate) fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        Just(Pick::Low),
        Just(Pick::High),
        (0.0..1.0f64).prop_map(Pick::Between)
    ]
}

/// Sets every parameter of `table` on `c` as `picks` say (cycling through them):
/// open ends a millionth of the range inside, log ranges picked geometrically,
/// integers rounded.
pub(crate) fn apply<C>(table: &[Param<C>], c: &mut C, picks: &[Pick]) {
    for (p, &how) in table.iter().zip(picks.iter().cycle()) {
        let s = p.spec;
        let margin = (s.max - s.min) * 1e-6;
        let lo = if s.min_open { s.min + margin } else { s.min };
        let hi = if s.max_open { s.max - margin } else { s.max };
        let v = match how {
            Pick::Low => lo,
            Pick::High => hi,
            Pick::Between(t) if s.scale == Scale::Log && lo > 0.0 => lo * (hi / lo).powf(t),
            Pick::Between(t) => lo + (hi - lo) * t,
        };
        (p.set)(
            c,
            if s.scale == Scale::Integer {
                v.round()
            } else {
                v
            },
        );
    }
}

/// Picks [`extreme_config`] reads.
pub(crate) const PICKS: usize = 48;

/// A built-in preset, `continents` (the one with relief, erosion, water and caves)
/// half the time.
pub(crate) fn any_preset() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("continents"),
        prop::sample::select(presets::names().collect::<Vec<_>>()),
    ]
}

/// `preset` with every numeric parameter of its generator, shape, relief, erosion,
/// water, caves and nature (and the sea level) picked by `picks` ([`PICKS`] of them); a density world with more relief than validation allows
/// is brought to the limit by fewer octaves (`fewer_octaves`, as far as that goes)
/// or a lower scale, so the worst valid worlds are drawn, not refused.
pub(crate) fn extreme_config(
    preset: &str,
    seed: u64,
    picks: &[Pick],
    fewer_octaves: bool,
) -> WorldConfig {
    let mut cfg = presets::builtin(preset)
        .expect("preset")
        .with_seed(Seed::new(seed.to_string()));
    apply(&params::WORLD, &mut cfg, &picks[20..]);
    if let Some(n) = &mut cfg.nature {
        apply(&params::CLIMATE, n, &picks[1..]);
        apply(&params::TREES, n, &picks[3..]);
    }
    match &mut cfg.generator {
        GeneratorConfig::Density(d) => {
            apply(&params::DENSITY, d, &picks[5..]);
            if let Some(s) = &mut d.shape {
                apply(&params::SHAPE, s, &picks[14..]);
                apply(&params::RIVERS, s, &picks[17..]);
                if let Some(r) = &mut s.relief {
                    apply(&params::RELIEF, r, &picks[24..]);
                    if let Some(e) = &mut r.erosion {
                        apply(&params::EROSION, e, &picks[31..]);
                    }
                }
                if let Some(w) = &mut s.water {
                    apply(&params::WATER, w, &picks[36..]);
                }
            }
            if let Some(c) = &mut d.caves {
                apply(&params::CAVES, c, &picks[41..]);
            }
            let work = params::relief_work(d);
            if work > params::MAX_RELIEF_WORK && fewer_octaves {
                let per_octave = work / d.noise.octaves as f64;
                d.noise.octaves = ((params::MAX_RELIEF_WORK / per_octave) as u32).max(1);
            }
            let work = params::relief_work(d);
            if work > params::MAX_RELIEF_WORK {
                d.scale *= params::MAX_RELIEF_WORK / work * (1.0 - 1e-9);
            }
        }
        GeneratorConfig::Islands(i) => {
            apply(&params::ISLANDS, i, &picks[5..]);
            if let IslandLayout::Archipelago { cell_size, jitter } = &mut i.layout {
                let mut cells = (*cell_size, *jitter);
                apply(&params::ARCHIPELAGO, &mut cells, &picks[16..]);
                // Cells must hold their islands: the lowest cell size that does.
                cells.0 = cells.0.max(2.0 * i.island_size * i.radius);
                (*cell_size, *jitter) = cells;
            }
        }
    }
    cfg
}
