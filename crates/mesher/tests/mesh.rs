//! Mesher correctness: single blocks, full chunks, watertightness against a
//! brute-force reference, seams and occlusion.

use std::collections::HashMap;

use proptest::prelude::*;
use terravox_mesher::vertex::Vertex;
use terravox_mesher::{Face, MeshBuffers, Quad, Surface, mesh_chunk};
use terravox_voxel::textures::Side;
use terravox_voxel::water_states::DROP_UNITS;
use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::{Generator, presets};

fn mesh(chunk: &Chunk) -> MeshBuffers {
    let mut b = MeshBuffers::default();
    mesh_chunk(chunk, &mut b);
    b
}

/// Every unit face a quad covers: (block position, face) -> block.
fn rasterize(quads: &[Quad]) -> HashMap<([i32; 3], Face), Block> {
    let mut faces = HashMap::new();
    for q in quads {
        for x in q.min[0]..=q.max[0] {
            for y in q.min[1]..=q.max[1] {
                for z in q.min[2]..=q.max[2] {
                    let key = ([x as i32, y as i32, z as i32], q.face);
                    assert!(
                        faces.insert(key, q.block).is_none(),
                        "overlapping quads at {key:?}"
                    );
                }
            }
        }
    }
    faces
}

/// The brute-force reference: every exposed face, block by block.
fn reference(chunk: &Chunk, water: bool) -> HashMap<([i32; 3], Face), Block> {
    let mut faces = HashMap::new();
    for y in 0..CHUNK {
        for z in 0..CHUNK {
            for x in 0..CHUNK {
                let b = chunk.get(x, y, z);
                for face in Face::ALL {
                    let n = face.normal();
                    let o = chunk.get(x + n[0], y + n[1], z + n[2]);
                    let visible = if water {
                        b.is_water() && o.is_air()
                    } else {
                        b.is_opaque() && !o.is_opaque()
                    };
                    if visible {
                        faces.insert(([x, y, z], face), b);
                    }
                }
            }
        }
    }
    faces
}

fn assert_watertight(chunk: &Chunk) {
    let m = mesh(chunk);
    assert_eq!(
        rasterize(&m.opaque.quads),
        reference(chunk, false),
        "opaque faces differ"
    );
    assert_eq!(
        rasterize(&m.water.quads),
        reference(chunk, true),
        "water faces differ"
    );
    for s in [&m.opaque, &m.water] {
        assert_eq!(s.vertices.len(), s.quads.len() * 4);
        assert_eq!(s.indices.len(), s.quads.len() * 6);
        assert_ccw(s);
        assert_textured(s);
    }
}

/// The unpacked vertices of a surface.
fn unpacked(s: &Surface) -> Vec<Vertex> {
    s.vertices
        .iter()
        .map(|&p| Vertex::unpack(p).expect("a valid face"))
        .collect()
}

/// A vertex's position and its face's normal, as floats.
fn position_normal(v: &Vertex) -> ([f32; 3], [f32; 3]) {
    (v.pos.map(f32::from), v.face.normal().map(|n| n as f32))
}

/// Every quad's four vertices belong to its face and show its block's texture on
/// that side; water surfaces are tinted with water's colour.
fn assert_textured(s: &Surface) {
    let v = unpacked(s);
    for (q, corners) in s.quads.iter().zip(v.chunks(4)) {
        let side = match q.face {
            Face::PosY => Side::Top,
            Face::NegY => Side::Bottom,
            _ => Side::Side,
        };
        for c in corners {
            assert_eq!(c.face, q.face);
            if q.block.is_water() {
                // Water draws one texture; its vertices carry the surface's drop.
                assert!(q.drop.contains(&c.layer), "{q:?}: {c:?}");
                assert!(c.layer as u32 <= DROP_UNITS);
                if q.face == Face::PosY && q.area() > 1 {
                    assert_eq!(c.layer as u32, DROP_UNITS / 9, "a lake's top");
                }
                assert_eq!(c.tint, Block::Water.color());
            } else {
                assert_eq!(c.layer, q.block.texture(side).layer());
            }
            if !q.block.is_tinted() && !q.block.is_water() {
                assert_eq!(c.tint, [255; 3]);
            }
        }
    }
}

/// Every triangle is counter-clockwise seen from outside: its geometric normal
/// points along the vertex normal.
fn assert_ccw(s: &Surface) {
    let verts = unpacked(s);
    for t in s.indices.chunks(3) {
        let [a, b, c] = [0, 1, 2].map(|i| position_normal(&verts[t[i] as usize]).0);
        let (u, v) = (
            [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
            [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        );
        let cross = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        let n = position_normal(&verts[t[0] as usize]).1;
        let dot = cross[0] * n[0] + cross[1] * n[1] + cross[2] * n[2];
        assert!(
            dot > 0.0,
            "clockwise or degenerate triangle {a:?} {b:?} {c:?} normal {n:?}"
        );
    }
}

fn single_block() -> Chunk {
    let mut c = Chunk::Uniform(Block::Air);
    c.set(5, 6, 7, Block::Stone);
    c
}

#[test]
fn one_block_is_six_quads() {
    let m = mesh(&single_block());
    assert_eq!(m.opaque.quads.len(), 6);
    assert_eq!(m.opaque.vertices.len(), 24);
    assert_eq!(m.opaque.indices.len(), 36);
    assert!(m.water.is_empty());
    assert!(m.opaque.fits_u16());
    assert_eq!(m.opaque.gpu_bytes(), 24 * 8 + 36 * 2);
    let centre = [5.5, 6.5, 7.5];
    for (p, n) in unpacked(&m.opaque).iter().map(position_normal) {
        // Outward: the vertex lies on the side of the centre the normal points to.
        let d: f32 = (0..3).map(|i| (p[i] - centre[i]) * n[i]).sum();
        assert!((d - 0.5).abs() < 1e-6, "{p:?} {n:?}");
    }
    assert_ccw(&m.opaque);
    assert_watertight(&single_block());
}

#[test]
fn full_chunks() {
    assert!(mesh(&Chunk::Uniform(Block::Stone)).is_empty());
    assert!(mesh(&Chunk::dense_filled(Block::Stone)).is_empty());
    let walled = Chunk::from_fn(|x, y, z| {
        let inside = [x, y, z].iter().all(|v| (0..CHUNK).contains(v));
        if inside { Block::Stone } else { Block::Air }
    });
    let m = mesh(&walled);
    assert_eq!(
        m.opaque.quads.len(),
        6,
        "each outer wall is one merged quad"
    );
    for q in &m.opaque.quads {
        assert_eq!(q.area(), 32 * 32);
        assert_eq!(q.ao, [3; 4]);
    }
    assert_watertight(&walled);
}

#[test]
fn water_meets_air_only() {
    // A lake: stone below y = 10, water up to 14, air above; a stone pillar in it.
    let lake = Chunk::from_fn(|x, y, z| {
        if y < 10 || (x == 16 && z == 16 && y < 20) {
            Block::Stone
        } else if y <= 14 {
            Block::Water
        } else {
            Block::Air
        }
    });
    let m = mesh(&lake);
    assert!(
        m.water
            .quads
            .iter()
            .all(|q| q.face == Face::PosY && q.block == Block::Water)
    );
    let area: u32 = m.water.quads.iter().map(Quad::area).sum();
    assert_eq!(area, 32 * 32 - 1, "the water surface, minus the pillar");
    assert_watertight(&lake);
}

#[test]
fn corner_occlusion() {
    // A floor at y = 0 with walls along x = 3 and z = 3 above it: the floor block at
    // (4, 0, 4) sits in the inside corner of the walls.
    let chunk = Chunk::from_fn(|x, y, z| {
        if y <= 0 || (y == 1 && (x == 3 || z == 3)) {
            Block::Stone
        } else {
            Block::Air
        }
    });
    let m = mesh(&chunk);
    let q = m
        .opaque
        .quads
        .iter()
        .find(|q| q.face == Face::PosY && q.min == [4, 0, 4])
        .expect("a floor quad starting at the corner");
    // +y planes: rows run along z, columns along x; A = (z-, x-) is the corner vertex
    // (4, 1, 4): both sides are walls. B = (z-, x+) at (5, 1, 4) has the z wall as a
    // side and as its corner; D likewise with the x wall; C touches nothing.
    assert_eq!(
        q.area(),
        1,
        "occlusion differs from every neighbour, so no merge"
    );
    assert_eq!(q.ao, [0, 1, 3, 1], "the inside corner is darkest");
    // One step further from the walls is lit.
    let open = m
        .opaque
        .quads
        .iter()
        .find(|q| q.face == Face::PosY && q.min[0] >= 5 && q.min[2] >= 5)
        .unwrap();
    assert_eq!(open.ao, [3; 4]);
    assert_watertight(&chunk);
}

#[test]
fn generated_chunks_are_watertight_and_seamless() {
    for preset in presets::names() {
        let g = Generator::new(&presets::builtin(preset).unwrap()).unwrap();
        let cy = g.surface_height(0, 0).div_euclid(32);
        for pos in [
            ChunkPos::new(0, cy, 0),
            ChunkPos::new(-1, cy, 0),
            ChunkPos::new(0, cy - 1, 0),
            ChunkPos::new(0, 0, -1),
        ] {
            let chunk = g.generate(pos);
            assert_watertight(&chunk);
        }
        // Seam: the plane between (0, cy, 0) and (-1, cy, 0) has no faces where both
        // sides are solid, and the faces that exist there belong to exactly one chunk.
        let (a, b) = (
            g.generate(ChunkPos::new(0, cy, 0)),
            g.generate(ChunkPos::new(-1, cy, 0)),
        );
        let (ma, mb) = (mesh(&a), mesh(&b));
        let fa = rasterize(&ma.opaque.quads);
        let fb = rasterize(&mb.opaque.quads);
        for y in 0..32 {
            for z in 0..32 {
                let (left, right) = (b.get(31, y, z), a.get(0, y, z));
                let a_face = fa.contains_key(&([0, y, z], Face::NegX));
                let b_face = fb.contains_key(&([31, y, z], Face::PosX));
                assert_eq!(
                    a_face,
                    right.is_opaque() && !left.is_opaque(),
                    "{preset} y{y} z{z}"
                );
                assert_eq!(
                    b_face,
                    left.is_opaque() && !right.is_opaque(),
                    "{preset} y{y} z{z}"
                );
            }
        }
    }
}

fn random_block() -> impl Strategy<Value = Block> {
    prop_oneof![4 => Just(Block::Air), 1 => Just(Block::Water), 1 => Just(Block::FlowingWater3), 1 => Just(Block::FallingWater), 2 => Just(Block::Stone), 1 => Just(Block::Dirt), 1 => Just(Block::Grass)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_chunks_are_watertight(blocks in proptest::collection::vec(random_block(), 64), seed in any::<u64>()) {
        // Random blocks in an 8-block cube region plus random padding, tiled by a seed.
        let chunk = Chunk::from_fn(|x, y, z| {
            let h = (x as u64).wrapping_mul(73_856_093) ^ (y as u64).wrapping_mul(19_349_663) ^ (z as u64).wrapping_mul(83_492_791) ^ seed;
            blocks[(h % 64) as usize]
        });
        assert_watertight(&chunk);
    }
}

/// Water top faces carry depth levels: deep in the middle of a pool, shallow on a
/// one-block shelf and at the shore.
#[test]
fn water_surfaces_know_their_depth() {
    let mut c = Chunk::Uniform(Block::Air);
    for y in 0..=20 {
        for z in 0..CHUNK {
            for x in 0..CHUNK {
                let pool = (2..30).contains(&x) && (2..30).contains(&z);
                let shelf = x < 8 && y < 20;
                let floor = y < 10;
                let b = if !pool || floor || shelf {
                    Block::Stone
                } else {
                    Block::Water
                };
                c.set(x, y, z, b);
            }
        }
    }
    let m = mesh(&c);
    // The depth levels of the top face covering water block (x, 20, z).
    let levels_at = |x: u8, z: u8| {
        let q = m
            .water
            .quads
            .iter()
            .find(|q| {
                q.face == Face::PosY
                    && q.min[1] == 20
                    && (q.min[0]..=q.max[0]).contains(&x)
                    && (q.min[2]..=q.max[2]).contains(&z)
            })
            .unwrap_or_else(|| panic!("no water surface over {x}, {z}"));
        q.ao
    };
    assert_eq!(levels_at(20, 16), [3; 4], "deep middle");
    assert_eq!(levels_at(4, 16), [0; 4], "shallow shelf");
    let shore = levels_at(29, 16);
    assert!(shore.contains(&0) && shore.contains(&3), "shore {shore:?}");
}

/// With a chunk's tints, grass and water take their column's colours and other
/// blocks stay white.
#[test]
fn tints_follow_the_columns() {
    use terravox_voxel::ColumnTints;
    let mut c = Chunk::Uniform(Block::Air);
    for z in 0..CHUNK {
        for x in 0..CHUNK {
            c.set(x, 0, z, Block::Stone);
            c.set(x, 1, z, if x < 16 { Block::Grass } else { Block::Water });
        }
    }
    let mut tints = ColumnTints::boxed();
    tints.grass.fill([10, 200, 30]);
    tints.water.fill([70, 60, 50]);
    let mut b = MeshBuffers::default();
    terravox_mesher::mesh_chunk_tinted(&c, Some(&tints), &mut b);
    let (opaque, water) = (unpacked(&b.opaque), unpacked(&b.water));
    assert!(!water.is_empty());
    assert!(water.iter().all(|v| v.tint == [70, 60, 50]));
    for (q, corners) in b.opaque.quads.iter().zip(opaque.chunks(4)) {
        let want = if q.block == Block::Grass {
            [10, 200, 30]
        } else {
            [255; 3]
        };
        assert!(corners.iter().all(|v| v.tint == want), "{q:?}");
    }
}

/// Sky light fades into a cave from its mouth, one level a block, and everything
/// outside caves is under the open sky.
#[test]
fn sky_light_fades_into_caves() {
    // Stone with a tunnel of cave air along x at y = 10, z = 10, open to an air shaft
    // at x = 0 that rises to the top of the chunk.
    let mut c = Chunk::Uniform(Block::Stone);
    for x in 1..CHUNK {
        c.set(x, 10, 10, Block::CaveAir);
    }
    for y in 10..=CHUNK {
        c.set(0, y, 10, Block::Air);
    }
    let m = mesh(&c);
    let floor: Vec<&Quad> = m
        .opaque
        .quads
        .iter()
        .filter(|q| q.face == Face::PosY && q.min[1] == 9 && q.min[2] == 10)
        .collect();
    for x in 0..CHUNK as u8 {
        let q = floor
            .iter()
            .find(|q| (q.min[0]..=q.max[0]).contains(&x))
            .expect("a floor face under every block of the tunnel");
        assert_eq!(q.sky, 15u8.saturating_sub(x), "floor at x = {x}");
    }
    // Under an open shaft of cave air the sky's light reaches the bottom in full.
    let mut shaft = Chunk::Uniform(Block::Stone);
    for y in 5..CHUNK {
        shaft.set(7, y, 7, Block::CaveAir);
    }
    shaft.set(7, CHUNK, 7, Block::Air); // the padding above
    let bottom = mesh(&shaft)
        .opaque
        .quads
        .into_iter()
        .find(|q| q.face == Face::PosY && q.min == [7, 4, 7])
        .expect("the shaft's floor");
    assert_eq!(bottom.sky, 15);
    // Without cave air, every face is under the open sky.
    let mut open = Chunk::Uniform(Block::Stone);
    for x in 0..CHUNK {
        open.set(x, 10, 10, Block::Air);
    }
    assert!(mesh(&open).opaque.quads.iter().all(|q| q.sky == 15));
    // The packed vertices carry it.
    let deepest = m
        .opaque
        .vertices
        .iter()
        .filter_map(|&v| Vertex::unpack(v))
        .map(|v| v.sky)
        .min();
    assert_eq!(deepest, Some(0));
}

/// Sky light by plain relaxation over the padded chunk: air and water 15; cave air the
/// best of 15 under a level-15 block above and one less than any open neighbour.
fn reference_sky(c: &Chunk) -> HashMap<[i32; 3], u8> {
    let mut level = HashMap::new();
    let range = -1..=CHUNK;
    for y in range.clone() {
        for z in range.clone() {
            for x in range.clone() {
                let b = c.get(x, y, z);
                if matches!(b, Block::Air | Block::Water) {
                    level.insert([x, y, z], 15u8);
                } else if b == Block::CaveAir || b.is_water() {
                    level.insert([x, y, z], 0);
                }
            }
        }
    }
    loop {
        let mut changed = false;
        let caves: Vec<[i32; 3]> = level
            .iter()
            .filter(|(p, _)| {
                let b = c.get(p[0], p[1], p[2]);
                b == Block::CaveAir || b.is_water() && b != Block::Water
            })
            .map(|(p, _)| *p)
            .collect();
        for p in caves {
            let mut best = level[&p];
            for d in Face::ALL.map(Face::normal) {
                let q = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
                if let Some(&l) = level.get(&q) {
                    let from_above = d == [0, 1, 0] && l == 15;
                    best = best.max(if from_above { 15 } else { l.saturating_sub(1) });
                }
            }
            if best != level[&p] {
                level.insert(p, best);
                changed = true;
            }
        }
        if !changed {
            return level;
        }
    }
}

fn cave_block() -> impl Strategy<Value = Block> {
    prop_oneof![1 => Just(Block::Air), 1 => Just(Block::Water), 1 => Just(Block::FlowingWater5), 3 => Just(Block::Stone), 4 => Just(Block::CaveAir)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn every_face_has_the_sky_light_of_the_block_in_front(blocks in proptest::collection::vec(cave_block(), 64), seed in any::<u64>()) {
        // Mostly cave air and stone with a little air and water, in random patches.
        let chunk = Chunk::from_fn(|x, y, z| {
            let h = ((x / 3) as u64).wrapping_mul(73_856_093) ^ ((y / 2) as u64).wrapping_mul(19_349_663) ^ ((z / 3) as u64).wrapping_mul(83_492_791) ^ seed;
            let b = blocks[(h % 64) as usize];
            if matches!(b, Block::Air | Block::Water) && !h.is_multiple_of(7) { Block::CaveAir } else { b }
        });
        let reference = reference_sky(&chunk);
        let m = mesh(&chunk);
        for q in m.opaque.quads.iter().chain(&m.water.quads) {
            let n = q.face.normal();
            for x in q.min[0]..=q.max[0] {
                for y in q.min[1]..=q.max[1] {
                    for z in q.min[2]..=q.max[2] {
                        let front = [x as i32 + n[0], y as i32 + n[1], z as i32 + n[2]];
                        prop_assert_eq!(q.sky, reference[&front], "face {:?} of {:?}", q.face, [x, y, z]);
                    }
                }
            }
        }
    }
}

/// A channel out of a lake: flowing water of levels 1 to 7 (x 8..=14, z 16, y 10)
/// between stone walls, the lake's sources at x < 8.
fn channel() -> Chunk {
    Chunk::from_fn(|x, y, z| match (x, y, z) {
        (_, ..10, _) => Block::Stone,
        (..8, 10, _) => Block::Water,
        (8..=14, 10, 16) => Block::ALL[Block::FlowingWater1 as usize + x as usize - 8],
        (_, 10, _) => Block::Stone,
        _ => Block::Air,
    })
}

#[test]
fn flowing_water_is_drawn_lower_the_further_it_runs_and_drifts_downstream() {
    let c = channel();
    let m = mesh(&c);
    let verts = unpacked(&m.water);
    // The top corners of the channel, by x (z = 16 and 17 agree), from the quads.
    let mut drop_at: HashMap<[u8; 2], u8> = HashMap::new();
    let mut flows = Vec::new();
    for (q, v) in m.water.quads.iter().zip(verts.chunks(4)) {
        if q.face != Face::PosY || q.min[2] != 16 || q.min[0] < 8 {
            continue;
        }
        assert_eq!(q.area(), 1, "flowing water is drawn block by block");
        for c in v {
            if let Some(old) = drop_at.insert([c.pos[0], c.pos[2]], c.layer) {
                assert_eq!(old, c.layer, "two blocks disagree at a corner");
            }
            flows.push(c.flow);
        }
    }
    let ninth = (DROP_UNITS / 9) as u8;
    for x in 8u8..=15 {
        assert_eq!(drop_at[&[x, 16]], drop_at[&[x, 17]], "x {x}");
    }
    // Lower and lower downstream: level 7's far edge is 8 ninths down (a film).
    for x in 8u8..15 {
        assert!(drop_at[&[x + 1, 16]] > drop_at[&[x, 16]], "x {x}");
    }
    assert_eq!(drop_at[&[15, 16]], 8 * ninth);
    assert!(drop_at[&[8, 16]] < 2 * ninth && drop_at[&[8, 16]] > ninth);
    // The surface drifts along +x.
    let east = terravox_voxel::Flow::toward(1.0, 0.0).0;
    assert!(flows.iter().all(|&f| f == east), "{flows:?}");
    // The lake's top stays flat a ninth down, merged, away from the channel.
    assert!(
        m.water
            .quads
            .iter()
            .any(|q| q.face == Face::PosY && q.area() > 100 && q.drop == [ninth; 4])
    );
    assert_watertight(&c);
}
