//! Meshing speed on surface chunks of the default world, against block-mesh's
//! `greedy_quads` (no ambient occlusion) on the same chunks; prints quad counts. Cave
//! culling: the face graph of a chunk, and the walk over a view distance of chunks.

#![allow(missing_docs)] // criterion_group! and criterion_main! generate undocumented items.

use block_mesh::ndshape::{ConstShape, ConstShape3u32};
use block_mesh::{
    GreedyQuadsBuffer, MergeVoxel, RIGHT_HANDED_Y_UP_CONFIG, Voxel, VoxelVisibility, greedy_quads,
};
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../tests/common/culling.rs"]
mod culling;

use terravox_mesher::face_graph;
use terravox_mesher::visibility::reachable;
use terravox_mesher::{MeshBuffers, mesh_chunk};
use terravox_voxel::{Block, Chunk, ChunkPos};
use terravox_worldgen::{Generator, presets};

type Shape = ConstShape3u32<34, 34, 34>;

#[derive(Clone, Copy, PartialEq, Eq)]
struct V(Block);

impl Voxel for V {
    fn get_visibility(&self) -> VoxelVisibility {
        match self.0 {
            Block::Air => VoxelVisibility::Empty,
            Block::Water => VoxelVisibility::Translucent,
            _ => VoxelVisibility::Opaque,
        }
    }
}

impl MergeVoxel for V {
    type MergeValue = Block;
    fn merge_value(&self) -> Block {
        self.0
    }
}

fn surface_chunks() -> Vec<Chunk> {
    let g = Generator::new(&presets::builtin("cliffs").expect("preset")).expect("valid");
    let mut v = Vec::new();
    for cz in -2..2 {
        for cx in -2..2 {
            for cy in -2..4 {
                let c = g.generate(ChunkPos::new(cx, cy, cz));
                if !c.is_uniform() {
                    v.push(c);
                }
            }
        }
    }
    v.truncate(16);
    v
}

fn to_samples(c: &Chunk) -> Vec<V> {
    (0..Shape::SIZE)
        .map(|i| {
            let [x, y, z] = Shape::delinearize(i);
            V(c.get(x as i32 - 1, y as i32 - 1, z as i32 - 1))
        })
        .collect()
}

/// The yardstick: block-mesh's greedy quads over the whole padded chunk.
fn block_mesh(samples: &[V], buffer: &mut GreedyQuadsBuffer) {
    greedy_quads(
        samples,
        &Shape {},
        [0; 3],
        [33; 3],
        &RIGHT_HANDED_Y_UP_CONFIG.faces,
        buffer,
    );
}

fn bench(c: &mut Criterion) {
    let chunks = surface_chunks();
    let samples: Vec<Vec<V>> = chunks.iter().map(to_samples).collect();
    let mut ours = MeshBuffers::default();
    let mut theirs = GreedyQuadsBuffer::new(Shape::SIZE as usize);
    let (mut q_ours, mut q_theirs) = (0usize, 0usize);
    for (c, s) in chunks.iter().zip(&samples) {
        mesh_chunk(c, &mut ours);
        q_ours += ours.opaque.quads.len() + ours.water.quads.len();
        block_mesh(s, &mut theirs);
        q_theirs += theirs.quads.num_quads();
    }
    println!(
        "{} surface chunks: terravox {} quads ({:.0}/chunk), block-mesh {} quads ({:.0}/chunk)",
        chunks.len(),
        q_ours,
        q_ours as f64 / chunks.len() as f64,
        q_theirs,
        q_theirs as f64 / chunks.len() as f64
    );
    let mut group = c.benchmark_group("mesh_surface_chunk");
    group.sample_size(30);
    group.throughput(criterion::Throughput::Elements(chunks.len() as u64));
    group.bench_function("terravox", |b| {
        b.iter(|| {
            for ch in &chunks {
                mesh_chunk(ch, &mut ours);
            }
        })
    });
    group.bench_function("block_mesh_greedy_quads", |b| {
        b.iter(|| {
            for s in &samples {
                block_mesh(s, &mut theirs);
            }
        })
    });
    group.finish();
}

/// The face graph of surface and cave chunks, and the culling walk the game does at
/// view distance 12 (a box of 29 x 13 x 29 chunks) from the spawn of the default world
/// with caves.
fn culling(c: &mut Criterion) {
    let cfg = presets::builtin("continents").expect("preset");
    let g = Generator::new(&cfg).expect("valid");
    let [x, y, z] = g.land_near_origin().expect("land");
    let camera = ChunkPos::new(x.div_euclid(32), (y + 2).div_euclid(32), z.div_euclid(32));
    let (r, v) = (14, 6);
    let around = culling::graphs_around(&g, camera, r, v);
    let graphs: Vec<_> = around.iter().map(|&(p, _, graph)| (p, graph)).collect();
    let dense: Vec<_> = around
        .iter()
        .filter(|(p, chunk, _)| !chunk.is_uniform() && (p.x - camera.x + p.z - camera.z) % 5 == 0)
        .map(|(_, chunk, _)| chunk.clone())
        .take(64)
        .collect();
    let mut buffers = MeshBuffers::default();
    let reach = reachable(camera, r as u32, v as u32, v as u32, graphs.iter().copied());
    println!(
        "culling walk from the spawn: {} of {} chunks reached",
        reach.count(),
        graphs.len()
    );
    let mut group = c.benchmark_group("culling");
    group.sample_size(30);
    group.bench_function("face_graph_per_chunk", |b| {
        b.iter(|| {
            for ch in &dense {
                face_graph(ch, &mut buffers);
            }
        })
    });
    group.throughput(criterion::Throughput::Elements(1));
    group.bench_function("walk_view_distance_12", |b| {
        b.iter(|| reachable(camera, r as u32, v as u32, v as u32, graphs.iter().copied()))
    });
    group.finish();
}

criterion_group!(benches, bench, culling);
criterion_main!(benches);
