//! Chunk generation speed: the lattice generator against a naive per-block evaluation
//! of the same formula, on surface chunks (chunks that hold both solid blocks and open
//! air or water) of every preset, plus `continents` without trees (what trees cost),
//! the version-2 `continents` (what caves cost) and the version-1 `cliffs` (what
//! biomes cost the old world's speed: nothing), and the chunks along rivers in
//! versions 7, 8 and 9; and underground chunks with caves.
//! Then maps and the horizon's coarse chunks of the default world next to the
//! costliest ones validation allows (`params::MAX_RELIEF_WORK`), and the spawn
//! searches (with that costliest world's chunks).

#![allow(missing_docs)] // criterion_group! and criterion_main! generate undocumented items.

#[path = "../tests/common/roughest.rs"]
mod roughest;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use roughest::{MAX_SCALE, amplified_max};
use terravox_voxel::{Block, ChunkPos};
use terravox_worldgen::map::{self, MapView};
use terravox_worldgen::{Generator, LodPos, WorldConfig, presets};

/// Up to `n` surface chunks around the origin, or around the spawn where the origin
/// is under the sea (the land is what a player walks on).
fn surface_chunks(g: &Generator, n: usize) -> Vec<ChunkPos> {
    let [x, z] = if g.surface_height(0, 0) < g.sea_level() {
        let [x, _, z] = g.land_near_origin().expect("land near the origin");
        [x, z]
    } else {
        [0, 0]
    };
    surface_chunks_at(g, [x, z], -4..8, n)
}

/// The highest column on a 64-block grid within 2 km of the origin: a mountain
/// range's crest in version-4 `continents`.
fn highest_column(g: &Generator) -> [i32; 2] {
    let grid = (-32..32).flat_map(|z| (-32..32).map(move |x| [x * 64, z * 64]));
    grid.max_by_key(|&[x, z]| g.surface_height(x, z))
        .expect("a grid")
}

/// Up to `n` surface chunks around column `[x, z]`, in chunk layers `layers`.
fn surface_chunks_at(
    g: &Generator,
    [x, z]: [i32; 2],
    layers: std::ops::Range<i32>,
    n: usize,
) -> Vec<ChunkPos> {
    let centre = terravox_voxel::BlockPos::new(x, 0, z).to_chunk().0;
    let mut v = Vec::new();
    for cz in -3..3 {
        for cx in -3..3 {
            for cy in layers.clone() {
                let p = ChunkPos::new(centre.x + cx, cy, centre.z + cz);
                if let Some(blocks) = g.generate(p).dense()
                    && blocks.iter().any(|b| b.is_solid())
                    && blocks.iter().any(|&b| b == Block::Air || b == Block::Water)
                {
                    v.push(p);
                }
            }
        }
    }
    v.truncate(n);
    v
}

/// Up to `n` chunks holding the water of rivers above the sea in `g`, on a 128-block
/// grid over 4 km.
fn river_chunks(g: &Generator, n: usize) -> Vec<ChunkPos> {
    (-16..16)
        .flat_map(|z| (-16..16).map(move |x| [x * 128, z * 128]))
        .filter_map(|[x, z]| {
            let level = g.column_top(x, z).water?;
            Some(terravox_voxel::BlockPos::new(x, level, z).to_chunk().0)
        })
        .take(n)
        .collect()
}

/// Times generating `chunks` with `generate`, as benchmark `how/name`.
fn time_chunks(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    how: &str,
    name: &str,
    chunks: &[ChunkPos],
    generate: impl Fn(ChunkPos) -> terravox_voxel::Chunk,
) {
    group.throughput(Throughput::Elements(chunks.len() as u64));
    group.bench_with_input(BenchmarkId::new(how, name), chunks, |b, chunks| {
        b.iter(|| {
            // Each chunk as a game meets it: once, after its column's neighbours.
            terravox_worldgen::forget_recent_columns();
            chunks
                .iter()
                .map(|&p| std::hint::black_box(generate(p)).is_uniform() as usize)
                .sum::<usize>()
        })
    });
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_surface_chunk");
    group.sample_size(20);
    let mut worlds: Vec<(String, WorldConfig)> = presets::names()
        .map(|n| (n.to_owned(), presets::builtin(n).expect("preset")))
        .collect();
    let mut bare = presets::builtin("continents").expect("preset");
    if let Some(n) = &mut bare.nature {
        n.tree_density = 0.0;
    }
    worlds.push(("continents-no-trees".into(), bare));
    worlds.push((
        "continents-v2".into(),
        WorldConfig::from_ron(include_str!("../tests/v2/continents.ron")).expect("valid"),
    ));
    worlds.push((
        "continents-v3".into(),
        WorldConfig::from_ron(include_str!("../tests/v3/continents.ron")).expect("valid"),
    ));
    worlds.push((
        "cliffs-v1".into(),
        WorldConfig::from_ron(include_str!("../tests/v1/cliffs.ron")).expect("valid"),
    ));
    for (name, cfg) in &worlds {
        let g = Generator::new(cfg).expect("valid");
        let chunks = surface_chunks(&g, 8);
        assert!(
            !chunks.is_empty(),
            "{name} has no surface chunk near the origin"
        );
        time_chunks(&mut group, "lattice", name, &chunks, |p| g.generate(p));
        time_chunks(&mut group, "naive", name, &chunks, |p| {
            g.generate_reference(p)
        });
    }
    // On a range: the crest nearest the origin's, its flanks eroded, rock and snow.
    let g = Generator::new(&presets::builtin("continents").expect("preset")).expect("valid");
    let peak = highest_column(&g);
    let top = g
        .surface_height(peak[0], peak[1])
        .div_euclid(terravox_voxel::CHUNK);
    let chunks = surface_chunks_at(&g, peak, top - 8..top + 2, 8);
    time_chunks(&mut group, "lattice", "continents-range", &chunks, |p| {
        g.generate(p)
    });
    // Along the rivers of seed -7's ranges, version 7 (pools) against versions 8
    // and 9 (streams that run): the surface chunks holding the water of the same
    // places.
    let cfg = presets::builtin("continents")
        .expect("preset")
        .with_seed(terravox_worldgen::Seed::new("-7"));
    let of = |version| {
        Generator::new(&WorldConfig {
            version,
            ..cfg.clone()
        })
        .expect("valid")
    };
    let (v7, v8, v9) = (of(7), of(8), of(9));
    let chunks = river_chunks(&v7, 24);
    let versions = [
        ("continents-v7-rivers", &v7),
        ("continents-v8-rivers", &v8),
        ("continents-v9-rivers", &v9),
    ];
    for (name, g) in versions {
        time_chunks(&mut group, "lattice", name, &chunks, |p| g.generate(p));
    }
    group.finish();

    // Chunks wholly below the surface: solid rock without caves, a few noise lookups
    // per lattice point with them.
    let mut group = c.benchmark_group("generate_underground_chunk");
    group.sample_size(20);
    for (name, cfg) in worlds
        .iter()
        .filter(|(n, _)| n.starts_with("continents-v") || n == "continents")
    {
        let g = Generator::new(cfg).expect("valid");
        let [x, y, z] = g.land_near_origin().expect("land");
        let top = terravox_voxel::BlockPos::new(x, y, z).to_chunk().0;
        let chunks: Vec<ChunkPos> = (2..6)
            .flat_map(|dy| (0..2).map(move |dx| ChunkPos::new(top.x + dx, top.y - dy, top.z)))
            .collect();
        time_chunks(&mut group, "lattice", name, &chunks, |p| g.generate(p));
    }
    group.finish();
}

/// A 64-pixel map around the origin (2 blocks a pixel, its rows on rayon's threads), and the
/// coarse chunks of levels 3 to 5 around the surface at the origin (at each level
/// the chunk holding it, the one above and the one below): the default world, the
/// `amplified` preset and [`amplified_max`] at [`MAX_SCALE`].
fn maps_and_horizon(c: &mut Criterion) {
    let worlds = [
        ("continents", WorldConfig::default()),
        ("amplified", presets::builtin("amplified").expect("preset")),
        ("amplified-max", amplified_max(MAX_SCALE)),
    ];
    let view = MapView {
        center: [0, 0],
        size: [64, 64],
        blocks_per_pixel: 2,
    };
    let mut group = c.benchmark_group("map_64px");
    group.sample_size(10);
    for (name, cfg) in &worlds {
        let g = Generator::new(cfg).expect("valid");
        group.bench_function(*name, |b| {
            b.iter(|| map::render(&g, &view, &|n, job| (0..n).into_par_iter().for_each(job)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("coarse_chunks_levels_3_to_5");
    group.sample_size(10);
    for (name, cfg) in &worlds {
        let g = Generator::new(cfg).expect("valid");
        let top = g.surface_height(0, 0);
        let chunks: Vec<LodPos> = (3..=5u8)
            .flat_map(|level| {
                let y = top.div_euclid(32 << level);
                (-1..=1).map(move |dy| LodPos::new(level, ChunkPos::new(0, y + dy, 0)))
            })
            .collect();
        group.throughput(Throughput::Elements(chunks.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| {
                // As a game meets them: the first chunk of the column samples it.
                g.forget_kept_coarse();
                chunks
                    .iter()
                    .map(|&lod| {
                        std::hint::black_box(g.generate_coarse(lod)).0.is_uniform() as usize
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

/// The spawn searches a new world and the tests start with, for every preset and for
/// [`amplified_max`] (as rough as a valid world gets, where the search costs most),
/// one job after another (as in the game's worker; `terravox spawn --stats` times it
/// on all cores): bounded in work, so their time is a figure here, not an assert in
/// a test (`tests/bounds.rs` checks random valid configs find a place, untimed). Then the
/// chunks around `amplified_max`'s place: generation at its costliest.
fn spawn_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("spawn_search");
    group.sample_size(10);
    let worlds = presets::names()
        .map(|n| (n.to_owned(), presets::builtin(n).expect("preset")))
        .chain([("amplified-max".to_owned(), amplified_max(MAX_SCALE))]);
    for (name, cfg) in worlds {
        let name = name.as_str();
        let g = Generator::new(&cfg).expect("valid");
        group.bench_function(BenchmarkId::new("spawn", name), |b| {
            b.iter(|| g.spawn(&terravox_worldgen::sequential))
        });
        group.bench_function(BenchmarkId::new("land_near_origin", name), |b| {
            b.iter(|| g.land_near_origin())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("generate_surface_chunk");
    group.sample_size(10);
    let g = Generator::new(&amplified_max(MAX_SCALE)).expect("valid");
    let [x, y, z] = g.land_near_origin().expect("land");
    let top = y.div_euclid(terravox_voxel::CHUNK);
    let chunks = surface_chunks_at(&g, [x, z], top - 4..top + 4, 8);
    assert!(!chunks.is_empty(), "amplified-max has no surface chunk");
    time_chunks(&mut group, "lattice", "amplified-max", &chunks, |p| {
        g.generate(p)
    });
    group.finish();
}

/// The drainage network of `continents` (version 5), built from nothing by a fresh
/// generator: the first region a column asks for (its own springs' rivers and those
/// of the 48 regions around it, the heights they run over), and 4 x 4 regions of
/// 2 km in a row (per region: the amortised cost of building the network as a
/// player or a map moves on).
fn network(c: &mut Criterion) {
    let mut group = c.benchmark_group("drainage_network");
    group.sample_size(10);
    let cfg = presets::builtin("continents").expect("preset");
    group.bench_function("first_region", |b| {
        b.iter(|| Generator::new(&cfg).expect("valid").column_top(0, 0))
    });
    const REGION: i32 = 2048;
    group.throughput(Throughput::Elements(16));
    group.bench_function("regions_4x4", |b| {
        b.iter(|| {
            let g = Generator::new(&cfg).expect("valid");
            for j in 0..4 {
                for i in 0..4 {
                    g.column_top(i * REGION + REGION / 2, j * REGION + REGION / 2);
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench, maps_and_horizon, spawn_search, network);
criterion_main!(benches);
