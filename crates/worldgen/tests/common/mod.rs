//! Helpers shared by the worldgen integration tests.
#![allow(dead_code, missing_docs)]

use std::collections::HashMap;

use proptest::prelude::*;
use terravox_worldgen::params::{Param, Scale};

use terravox_voxel::{Chunk, ChunkPos, Fnv64};
use terravox_worldgen::{Generator, Seed, WorldConfig, presets};

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
