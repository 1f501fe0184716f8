//! Chunk generation speed: the lattice generator against a naive per-block evaluation
//! of the same formula, on surface chunks (chunks that hold both solid and non-solid
//! blocks) of every preset.

#![allow(missing_docs)] // criterion_group! and criterion_main! generate undocumented items.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, presets};

/// Up to `n` surface chunks around the origin.
fn surface_chunks(g: &Generator, n: usize) -> Vec<ChunkPos> {
    let mut v = Vec::new();
    for cz in -3..3 {
        for cx in -3..3 {
            for cy in -4..8 {
                let p = ChunkPos::new(cx, cy, cz);
                if !g.generate(p).is_uniform() {
                    v.push(p);
                }
            }
        }
    }
    v.truncate(n);
    v
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_surface_chunk");
    group.sample_size(20);
    for name in presets::names() {
        let g = Generator::new(&presets::builtin(name).expect("preset")).expect("valid");
        let chunks = surface_chunks(&g, 8);
        assert!(
            !chunks.is_empty(),
            "{name} has no surface chunk near the origin"
        );
        group.throughput(Throughput::Elements(chunks.len() as u64));
        group.bench_with_input(BenchmarkId::new("lattice", name), &chunks, |b, chunks| {
            b.iter(|| {
                chunks
                    .iter()
                    .map(|&p| std::hint::black_box(g.generate(p)).is_uniform() as usize)
                    .sum::<usize>()
            })
        });
        group.bench_with_input(BenchmarkId::new("naive", name), &chunks, |b, chunks| {
            b.iter(|| {
                chunks
                    .iter()
                    .map(|&p| std::hint::black_box(g.generate_reference(p)).is_uniform() as usize)
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
