//! What the culling tests share (the mesher's, its benchmark's and the game's, by
//! path): the face graphs of a box of generated chunks, and rays from an eye in every
//! direction, each chunk a ray enters checked against what culling lets through.
#![allow(dead_code)]

use terravox_mesher::visibility::FaceGraph;
use terravox_mesher::{MeshBuffers, face_graph};
use terravox_voxel::raycast::{Probe, raycast};
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};
use terravox_worldgen::Generator;

/// The chunks of `g` within `r` chunks of `camera` horizontally and `v` vertically
/// (layer by layer up, row by row), each with its face graph.
pub(crate) fn graphs_around(
    g: &Generator,
    camera: ChunkPos,
    r: i32,
    v: i32,
) -> Vec<(ChunkPos, Chunk, FaceGraph)> {
    let mut buffers = MeshBuffers::default();
    let mut out = Vec::new();
    for dy in -v..=v {
        for dz in -r..=r {
            for dx in -r..=r {
                let p = ChunkPos::new(camera.x + dx, camera.y + dy, camera.z + dz);
                let chunk = g.generate(p);
                let graph = face_graph(&chunk, &mut buffers);
                out.push((p, chunk, graph));
            }
        }
    }
    out
}

/// `n` directions spread evenly over the sphere (a Fibonacci sphere).
pub(crate) fn fan(n: usize) -> impl Iterator<Item = [f32; 3]> {
    (0..n).map(move |i| {
        let t = (i as f32 + 0.5) / n as f32;
        let (y, r) = (1.0 - 2.0 * t, (1.0 - (1.0 - 2.0 * t).powi(2)).sqrt());
        let a = i as f32 * std::f32::consts::PI * (3.0 - 5f32.sqrt());
        [r * a.cos(), y, r * a.sin()]
    })
}

/// Casts `rays` rays of `reach` blocks from `eye` through the blocks `block` gives
/// (`None`: not loaded, where a ray ends) and checks that every block a ray enters,
/// up to and including the first opaque one, lies in a chunk `shown` lets through.
/// Returns how many chunks the rays entered.
pub(crate) fn assert_rays_see_only_shown(
    eye: [f64; 3],
    rays: usize,
    reach: f32,
    block: impl Fn(BlockPos) -> Option<Block>,
    shown: impl Fn(ChunkPos) -> bool,
    what: &str,
) -> usize {
    // Cast near the origin (f32 loses blocks far out), from the eye's block.
    let anchor = BlockPos::containing_f64(eye);
    let local = [
        (eye[0] - anchor.x as f64) as f32,
        (eye[1] - anchor.y as f64) as f32,
        (eye[2] - anchor.z as f64) as f32,
    ];
    let mut entered = std::collections::HashSet::new();
    for dir in fan(rays) {
        raycast(local, dir, reach, |p| {
            let p = BlockPos::new(p.x + anchor.x, p.y + anchor.y, p.z + anchor.z);
            let Some(b) = block(p) else {
                return Probe::Unknown;
            };
            let c = p.to_chunk().0;
            assert!(
                shown(c),
                "{what}: a ray from {eye:?} along {dir:?} sees {p:?} in {c:?}, which culling hides"
            );
            entered.insert(c);
            if b.is_opaque() {
                Probe::Hit
            } else {
                Probe::Pass
            }
        });
    }
    entered.len()
}
