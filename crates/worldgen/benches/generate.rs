//! Chunk generation speed: the lattice generator against a naive per-block evaluation
//! of the same formula, on surface chunks (chunks that hold both solid blocks and open
//! air or water) of every preset, plus `continents` without trees (what trees cost),
//! the version-2 `continents` (what caves cost) and the version-1 `cliffs` (what
//! biomes cost the old world's speed: nothing); and underground chunks with caves.

#![allow(missing_docs)] // criterion_group! and criterion_main! generate undocumented items.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use terravox_voxel::{Block, ChunkPos};
use terravox_worldgen::{Generator, WorldConfig, presets};

/// Up to `n` surface chunks around the origin, or around the spawn where the origin
/// is under the sea (the land is what a player walks on).
fn surface_chunks(g: &Generator, n: usize) -> Vec<ChunkPos> {
    let [x, z] = if g.surface_height(0, 0) < g.sea_level() {
        let [x, _, z] = g.find_land(0, 0, 4096).expect("land near the origin");
        [x, z]
    } else {
        [0, 0]
    };
    let centre = terravox_voxel::BlockPos::new(x, 0, z).to_chunk().0;
    let mut v = Vec::new();
    for cz in -3..3 {
        for cx in -3..3 {
            for cy in -4..8 {
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
        let [x, y, z] = g.find_land(0, 0, 4096).expect("land");
        let top = terravox_voxel::BlockPos::new(x, y, z).to_chunk().0;
        let chunks: Vec<ChunkPos> = (2..6)
            .flat_map(|dy| (0..2).map(move |dx| ChunkPos::new(top.x + dx, top.y - dy, top.z)))
            .collect();
        time_chunks(&mut group, "lattice", name, &chunks, |p| g.generate(p));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
