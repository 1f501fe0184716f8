//! Helpers shared by the worldgen integration tests.
#![allow(dead_code, missing_docs)]

use std::collections::HashMap;

use proptest::prelude::*;
use terravox_worldgen::params::{Param, Scale};

use terravox_voxel::{Chunk, ChunkPos, Fnv64};
use terravox_worldgen::{Generator, Seed, WorldConfig, presets};

/// Every preset as it shipped in version 4 (before water that runs downhill): their
/// world codes must keep their worlds.
pub(crate) const V4_PRESETS: [(&str, &str); 5] = [
    ("continents", include_str!("../v4/continents.ron")),
    ("cliffs", include_str!("../v4/cliffs.ron")),
    ("amplified", include_str!("../v4/amplified.ron")),
    ("islands", include_str!("../v4/islands.ron")),
    ("archipelago", include_str!("../v4/archipelago.ron")),
];

/// The presets as they shipped in version 5 where version 6 changed them (only
/// `continents` has water): their world codes must keep their worlds.
pub(crate) const V5_PRESETS: [(&str, &str); 1] =
    [("continents", include_str!("../v5/continents.ron"))];

/// The presets as they shipped in version 6 where version 7 changed them (only
/// `continents` has rivers through ranges): their world codes must keep their
/// worlds.
pub(crate) const V6_PRESETS: [(&str, &str); 1] =
    [("continents", include_str!("../v6/continents.ron"))];

/// A preset with a seed, validated into a generator.
pub(crate) fn generator(preset: &str, seed: &str) -> Generator {
    let cfg = presets::builtin(preset)
        .expect("preset")
        .with_seed(Seed::new(seed));
    Generator::new(&cfg).expect("valid preset")
}

/// The version-1 presets as they shipped: world codes shared before version 2 must
/// keep their worlds.
pub(crate) const V1_PRESETS: [(&str, &str); 4] = [
    ("cliffs", include_str!("../v1/cliffs.ron")),
    ("amplified", include_str!("../v1/amplified.ron")),
    ("islands", include_str!("../v1/islands.ron")),
    ("archipelago", include_str!("../v1/archipelago.ron")),
];

/// The density presets as they shipped in version 2 (before caves): their world codes
/// must keep their worlds. The island presets are unchanged in version 3.
pub(crate) const V2_PRESETS: [(&str, &str); 3] = [
    ("continents", include_str!("../v2/continents.ron")),
    ("cliffs", include_str!("../v2/cliffs.ron")),
    ("amplified", include_str!("../v2/amplified.ron")),
];

/// The density presets as they shipped in version 3 (before relief): their world codes
/// must keep their worlds.
pub(crate) const V3_PRESETS: [(&str, &str); 3] = [
    ("continents", include_str!("../v3/continents.ron")),
    ("cliffs", include_str!("../v3/cliffs.ron")),
    ("amplified", include_str!("../v3/amplified.ron")),
];

/// A preset of `table` (presets as they shipped) with a seed, validated into a
/// generator; `None` if the table does not hold it.
fn shipped(table: &[(&str, &str)], preset: &str, seed: &str) -> Option<Generator> {
    let (_, text) = table.iter().find(|(n, _)| *n == preset)?;
    let cfg = WorldConfig::from_ron(text)
        .expect("shipped configs stay valid")
        .with_seed(Seed::new(seed));
    Some(Generator::new(&cfg).expect("valid"))
}

/// A version-3 density preset with a seed, as it shipped.
pub(crate) fn generator_v3(preset: &str, seed: &str) -> Generator {
    shipped(&V3_PRESETS, preset, seed).expect("a version-3 density preset")
}

/// A version-4 preset with a seed, as it shipped.
pub(crate) fn generator_v4(preset: &str, seed: &str) -> Generator {
    shipped(&V4_PRESETS, preset, seed).expect("a version-4 preset")
}

/// A version-5 preset with a seed: as it shipped, or the built-in one where only its
/// version number has changed since.
pub(crate) fn generator_v5(preset: &str, seed: &str) -> Generator {
    shipped(&V5_PRESETS, preset, seed).unwrap_or_else(|| generator(preset, seed))
}

/// A version-6 preset with a seed: as it shipped, or the built-in one where only its
/// version number has changed since.
pub(crate) fn generator_v6(preset: &str, seed: &str) -> Generator {
    shipped(&V6_PRESETS, preset, seed).unwrap_or_else(|| generator(preset, seed))
}

/// A version-2 preset with a seed: as it shipped, or the built-in one where it has not
/// changed since.
pub(crate) fn generator_v2(preset: &str, seed: &str) -> Generator {
    shipped(&V2_PRESETS, preset, seed).unwrap_or_else(|| generator(preset, seed))
}

/// A version-1 preset with a seed, validated into a generator.
pub(crate) fn generator_v1(preset: &str, seed: &str) -> Generator {
    shipped(&V1_PRESETS, preset, seed).expect("a version-1 preset")
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
