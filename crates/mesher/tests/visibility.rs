//! Cave culling: a chunk's face graph against a brute-force flood fill, and the culling
//! walk against rays cast from the eye through generated worlds with caves.

mod common;

use std::collections::{HashMap, VecDeque};

use common::culling::{assert_rays_see_only_shown, graphs_around};
use proptest::prelude::*;
use terravox_mesher::face_graph;
use terravox_mesher::visibility::{FaceGraph, reachable};
use terravox_mesher::{Face, MeshBuffers, mesh_chunk};
use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::{Generator, Seed, presets};

/// The face graph by a plain breadth-first flood fill over the chunk's open blocks:
/// `[a][b]` = some component touches faces `a` and `b`.
fn brute_force(chunk: &Chunk) -> [[bool; 6]; 6] {
    let n = CHUNK;
    let idx = |x: i32, y: i32, z: i32| ((y * n + z) * n + x) as usize;
    let mut seen = vec![false; (n * n * n) as usize];
    let mut graph = [[false; 6]; 6];
    for start in 0..n * n * n {
        let (x, y, z) = (start % n, start / (n * n), start / n % n);
        if seen[idx(x, y, z)] || chunk.get(x, y, z).is_opaque() {
            continue;
        }
        seen[idx(x, y, z)] = true;
        let mut faces = [false; 6];
        let mut queue = VecDeque::from([[x, y, z]]);
        while let Some(p) = queue.pop_front() {
            for (i, f) in Face::ALL.iter().enumerate() {
                let d = f.normal();
                let q = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
                if q.iter().any(|&c| !(0..n).contains(&c)) {
                    faces[i] = true;
                } else if !seen[idx(q[0], q[1], q[2])] && !chunk.get(q[0], q[1], q[2]).is_opaque() {
                    seen[idx(q[0], q[1], q[2])] = true;
                    queue.push_back(q);
                }
            }
        }
        for a in 0..6 {
            for b in 0..6 {
                graph[a][b] |= faces[a] && faces[b];
            }
        }
    }
    graph
}

fn assert_graph_matches(chunk: &Chunk, what: &str) {
    let mut buffers = MeshBuffers::default();
    let graph = face_graph(chunk, &mut buffers);
    mesh_chunk(chunk, &mut buffers);
    assert_eq!(
        buffers.graph, graph,
        "{what}: meshing computes the same graph"
    );
    let expected = brute_force(chunk);
    for (a, fa) in Face::ALL.iter().enumerate() {
        for (b, fb) in Face::ALL.iter().enumerate() {
            assert_eq!(
                graph.connects(*fa, *fb),
                expected[a][b],
                "{what}: {fa:?} - {fb:?}"
            );
        }
    }
}

/// A chunk of random open and opaque blocks, open with probability `open` (near 3D
/// percolation, 0.31, the components are large and tangled), with some straight
/// tunnels through it, padding included.
fn random_chunk(seed: u64, open: f64, tunnels: usize) -> Chunk {
    let hash = |x: i32, y: i32, z: i32| {
        let mut h = seed ^ (x as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= (y as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        h ^= (z as u64).wrapping_mul(0x1656_67b1_9e37_79f9);
        h ^= h >> 31;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 29)
    };
    let tunnel: Vec<(usize, i32, i32)> = (0..tunnels)
        .map(|t| {
            let h = hash(t as i32, -7, 99);
            (
                (h % 3) as usize,
                (h >> 8) as i32 & 31,
                (h >> 16) as i32 & 31,
            )
        })
        .collect();
    Chunk::from_fn(|x, y, z| {
        let p = [x, y, z];
        let in_tunnel = tunnel.iter().any(|&(axis, a, b)| {
            let (u, v) = (p[(axis + 1) % 3], p[(axis + 2) % 3]);
            u == a && v == b
        });
        let h = hash(x, y, z);
        if in_tunnel || ((h >> 11) as f64 / (1u64 << 53) as f64) < open {
            [Block::Air, Block::Water, Block::CaveAir][(h % 3) as usize]
        } else {
            [Block::Stone, Block::Dirt, Block::OakLeaves][(h % 3) as usize]
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_face_graph_equals_a_brute_force_flood_fill(seed in any::<u64>(), open in 0.0f64..0.9, tunnels in 0usize..4) {
        assert_graph_matches(&random_chunk(seed, open, tunnels), &format!("seed {seed} open {open} tunnels {tunnels}"));
    }
}

#[test]
fn uniform_and_generated_chunks_have_the_right_graphs() {
    assert_graph_matches(&Chunk::Uniform(Block::Stone), "stone");
    assert_graph_matches(&Chunk::Uniform(Block::CaveAir), "cave air");
    let mut stone = Chunk::Uniform(Block::Stone);
    stone.set(0, 5, 5, Block::Air);
    assert_graph_matches(&stone, "one hole on a face");
    let g = world();
    for y in -4..=2 {
        for x in 0..3 {
            let p = ChunkPos::new(x, y, 1);
            assert_graph_matches(&g.generate(p), &format!("{p:?}"));
        }
    }
}

/// The default preset with caves, on the seed whose caves the worldgen tests know.
fn world() -> Generator {
    let cfg = presets::builtin("continents")
        .expect("preset")
        .with_seed(Seed::new("caves"));
    Generator::new(&cfg).expect("valid preset")
}

/// Radius of the walked box around the camera's chunk, in chunks.
const BOX: i32 = 2;

/// Walks from `eye` and checks it against rays; returns (chunks reached, chunks in
/// the box, chunks rays entered).
fn check_spot(g: &Generator, eye: [f32; 3], what: &str) -> (usize, usize, usize) {
    let camera = ChunkPos::containing(eye);
    let chunks: HashMap<ChunkPos, (Chunk, FaceGraph)> = graphs_around(g, camera, BOX, BOX)
        .into_iter()
        .map(|(p, chunk, graph)| (p, (chunk, graph)))
        .collect();
    let graphs = chunks.iter().map(|(p, (_, graph))| (*p, *graph));
    let reach = reachable(camera, BOX as u32, BOX as u32, BOX as u32, graphs);
    let block = |p: BlockPos| {
        let (c, [x, y, z]) = p.to_chunk();
        chunks.get(&c).map(|(chunk, _)| chunk.get(x, y, z))
    };
    let eye = eye.map(f64::from);
    let entered = assert_rays_see_only_shown(eye, 6000, 200.0, block, |c| reach.reached(c), what);
    (reach.count(), chunks.len(), entered)
}

/// Cave air with room for the eye above it, found in the chunks around `near`.
fn cave_spots(g: &Generator, near: ChunkPos, count: usize) -> Vec<[f32; 3]> {
    let mut spots = Vec::new();
    for y in (near.y - 5..near.y).rev() {
        for (dx, dz) in [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1)] {
            let p = ChunkPos::new(near.x + dx, y, near.z + dz);
            let c = g.generate(p);
            // Every 997th cave block with cave air above it, for spread.
            let mut k = 0;
            for i in 0..CHUNK * CHUNK * (CHUNK - 1) {
                let (x, ly, z) = (i % CHUNK, i / (CHUNK * CHUNK), i / CHUNK % CHUNK);
                if c.get(x, ly, z) == Block::CaveAir && c.get(x, ly + 1, z) == Block::CaveAir {
                    k += 1;
                    if k % 997 == 1 {
                        let o = p.origin();
                        spots.push([
                            (o.x + x) as f32 + 0.5,
                            (o.y + ly) as f32 + 1.6,
                            (o.z + z) as f32 + 0.5,
                        ]);
                        if spots.len() == count {
                            return spots;
                        }
                    }
                }
            }
        }
    }
    spots
}

#[test]
fn culling_never_hides_a_chunk_a_ray_from_the_eye_sees() {
    let g = world();
    let [sx, sy, sz] = g.land_near_origin().expect("land");
    let land = ChunkPos::containing([sx as f32, sy as f32, sz as f32]);
    let mut spots: Vec<([f32; 3], String)> = Vec::new();
    // On the surface, spread over a few hundred blocks, and in the air above it.
    for (i, (dx, dz)) in [(0, 0), (150, 40), (-90, 210), (260, -170)]
        .into_iter()
        .enumerate()
    {
        let [x, y, z] = g.find_land(sx + dx, sz + dz, 512).expect("land");
        spots.push((
            [x as f32 + 0.5, y as f32 + 1.6, z as f32 + 0.5],
            format!("surface {i}"),
        ));
        spots.push((
            [x as f32 + 0.3, y as f32 + 40.0, z as f32 + 0.7],
            format!("air {i}"),
        ));
    }
    // Right at chunk borders and corners.
    spots.push((
        [32.0 * land.x as f32, sy as f32 + 2.0, 32.0 * land.z as f32],
        "corner".into(),
    ));
    for (i, eye) in cave_spots(&g, land, 10).into_iter().enumerate() {
        spots.push((eye, format!("cave {i}")));
    }
    let caves = spots.iter().filter(|(_, w)| w.starts_with("cave")).count();
    assert!(caves >= 6, "the seed has caves to stand in ({caves} found)");
    let (mut hidden_in_caves, mut rays_entered) = (0, 0);
    for (eye, what) in &spots {
        let (reached, all, entered) = check_spot(&g, *eye, what);
        rays_entered += entered;
        if what.starts_with("cave") {
            hidden_in_caves += all - reached;
        }
    }
    assert!(
        rays_entered > 2 * spots.len(),
        "the rays went somewhere ({rays_entered} chunks)"
    );
    // Not a walk that reaches everything: underground, most of the box is hidden.
    assert!(
        hidden_in_caves > caves * 125 / 2 / 2,
        "culling hides chunks from caves ({hidden_in_caves} over {caves} spots of 125)"
    );
}
