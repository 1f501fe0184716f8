//! What the worlds look like: seamless chunks, islands where they should be, and the
//! lattice close to the exact formula.

use crate::common;

use common::{assert_seamless, generator};
use terravox_voxel::{Block, ChunkPos};
use terravox_worldgen::{Generator, presets};

/// A 3x3 block of chunk columns around the surface at the origin, plus a few at
/// negative coordinates.
fn area(g: &Generator) -> Vec<ChunkPos> {
    let cy = g.surface_height(0, 0).div_euclid(32);
    let mut v = Vec::new();
    for z in -1..=1 {
        for x in -1..=1 {
            v.push(ChunkPos::new(x, cy, z));
        }
    }
    v.push(ChunkPos::new(-1, cy + 1, 0));
    v.push(ChunkPos::new(0, cy - 1, -1));
    v
}

#[test]
fn padding_matches_the_neighbours_for_every_preset() {
    for preset in presets::names() {
        let g = generator(preset, "seams");
        let area = area(&g);
        assert!(
            area.iter().any(|&p| !g.generate(p).is_uniform()),
            "{preset}: no surface in the area"
        );
        assert_seamless(&g, &area);
    }
}

#[test]
fn islands_have_land_near_the_centre_and_only_sea_beyond() {
    for seed in ["1", "2", "3", "island"] {
        let g = generator("islands", seed);
        let sea = g.sea_level();
        let near = (-60..=60)
            .step_by(12)
            .flat_map(|x| (-60..=60).step_by(12).map(move |z| (x, z)))
            .filter(|&(x, z)| g.column_top(x, z).y >= sea)
            .count();
        assert!(
            near >= 60,
            "seed {seed}: only {near} of 121 columns near the centre are land"
        );
        let reach = 600.0; // island_size * radius of the preset
        for i in 0..360 {
            let a = (i as f64).to_radians();
            for r in [reach * 1.01, reach * 3.0, 100_000.0] {
                let (x, z) = ((a.cos() * r) as i32, (a.sin() * r) as i32);
                let top = g.column_top(x, z);
                assert!(
                    top.y < sea,
                    "seed {seed}: land at ({x}, {z}) beyond the island"
                );
            }
        }
        // The ocean beyond is real chunks of water over sea floor, not air.
        let far = g.generate(ChunkPos::new(200, 0, 200));
        assert_eq!(far.get(5, sea.rem_euclid(32), 5), Block::Water);
        assert!(
            g.find_land(0, 0, 256).is_some(),
            "seed {seed}: no land to spawn on"
        );
    }
}

/// Connected land regions on a coarse grid (4-neighbour flood fill).
fn land_regions(g: &Generator, half: i32, step: i32) -> usize {
    let n = (2 * half / step + 1) as usize;
    let land: Vec<bool> = (0..n * n)
        .map(|i| {
            let (x, z) = ((i % n) as i32 * step - half, (i / n) as i32 * step - half);
            g.column_top(x, z).y >= g.sea_level()
        })
        .collect();
    let mut seen = vec![false; n * n];
    let mut regions = 0;
    for start in 0..n * n {
        if !land[start] || seen[start] {
            continue;
        }
        regions += 1;
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(i) = stack.pop() {
            let (x, z) = (i % n, i / n);
            let mut push = |j: usize| {
                if land[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                push(i - 1);
            }
            if x + 1 < n {
                push(i + 1);
            }
            if z > 0 {
                push(i - n);
            }
            if z + 1 < n {
                push(i + n);
            }
        }
    }
    regions
}

#[test]
fn archipelago_has_several_separate_islands() {
    let g = generator("archipelago", "archipelago");
    let islands = g.islands_near(-1500.0, -1500.0, 1500.0, 1500.0);
    assert!(islands.len() >= 9, "{} island centres", islands.len());
    let regions = land_regions(&g, 1500, 12);
    assert!(regions >= 5, "only {regions} separate land regions");
    // A single island world has one main landmass in the same area.
    let single = land_regions(&generator("islands", "archipelago"), 1500, 12);
    assert!(single < regions, "single {single} vs archipelago {regions}");
}

/// The lattice's interpolation agrees with the exact formula near the surface, where
/// they can differ (deep rock and open sky agree anyway, and would hide a wrong
/// surface): blocks within 6 above or below the exact surface of each column, and the
/// surface heights themselves.
#[test]
fn lattice_interpolation_stays_close_to_the_exact_formula() {
    const NEAR: i32 = 6;
    for preset in ["cliffs", "amplified"] {
        let g = generator(preset, "lattice");
        let cy = g.surface_height(0, 0).div_euclid(32);
        let (mut same, mut total) = (0usize, 0usize);
        // Columns whose surface both find in the chunk, and how far apart they put it.
        let (mut columns, mut apart) = (0usize, 0i32);
        for p in [ChunkPos::new(0, cy, 0), ChunkPos::new(1, cy, -1)] {
            let (fast, exact) = (g.generate(p), g.generate_reference(p));
            // The surface of column (x, z): the highest solid block under a block that
            // is not (the padding above the chunk included); `None` where it lies
            // outside the chunk.
            let surface = |c: &terravox_voxel::Chunk, x: i32, z: i32| {
                (0..32)
                    .rev()
                    .find(|&y| c.get(x, y, z).is_solid() && !c.get(x, y + 1, z).is_solid())
            };
            for z in 0..32 {
                for x in 0..32 {
                    // Columns whose exact surface lies outside the chunk tell nothing.
                    let Some(top) = surface(&exact, x, z) else {
                        continue;
                    };
                    if let Some(t) = surface(&fast, x, z) {
                        columns += 1;
                        apart += (t - top).abs();
                    }
                    for y in (top - NEAR).max(0)..=(top + NEAR).min(31) {
                        total += 1;
                        same += (fast.get(x, y, z).is_solid() == exact.get(x, y, z).is_solid())
                            as usize;
                    }
                }
            }
        }
        assert!(
            total > 2000,
            "{preset}: only {total} blocks near the surface"
        );
        let ratio = same as f64 / total as f64;
        let mean = apart as f64 / columns as f64;
        println!(
            "{preset}: {same} of {total} blocks near the surface agree ({ratio:.3}); \
             the surfaces of {columns} columns differ by {mean:.2} blocks on average"
        );
        // The lattice is 8 blocks tall: steep and overhanging ground (amplified) puts
        // its surface a block or so from the formula's, never a whole layer.
        assert!(
            mean < 2.0,
            "{preset}: the lattice's surface is {mean:.2} blocks from the formula's on average"
        );
        assert!(
            ratio > 0.8,
            "{preset}: lattice agrees with the formula on {ratio:.3} of the blocks near the surface"
        );
    }
}

#[test]
fn island_reference_equals_the_fast_path() {
    let g = generator("islands", "ref");
    let cy = g.surface_height(0, 0).div_euclid(32);
    for p in [
        ChunkPos::new(0, cy, 0),
        ChunkPos::new(-1, cy, 0),
        ChunkPos::new(30, 0, 0),
    ] {
        assert_eq!(g.generate(p), g.generate_reference(p), "{p:?}");
    }
}

#[test]
fn density_surface_has_grass_dirt_and_stone_layers() {
    let g = generator("cliffs", "layers");
    let (x, z) = (0..200)
        .map(|i| (i * 7, i * 3))
        .find(|&(x, z)| g.column_top(x, z).block == Block::Grass)
        .expect("a grassy column");
    let top = g.surface_height(x, z);
    let (pos, l) = terravox_voxel::BlockPos::new(x, top, z).to_chunk();
    let chunk = g.generate(pos);
    assert_eq!(chunk.get(l[0], l[1], l[2]), Block::Grass);
    assert_eq!(chunk.get(l[0], l[1] + 1, l[2]), Block::Air);
    let below = |d: i32| {
        let (p, l) = terravox_voxel::BlockPos::new(x, top - d, z).to_chunk();
        g.generate(p).get(l[0], l[1], l[2])
    };
    // Three blocks of dirt under the grass, then stone at the first solid block below.
    for d in 1..=3 {
        assert_eq!(below(d), Block::Dirt, "{d} below the grass");
    }
    let deeper = (4..64)
        .map(below)
        .find(|b| b.is_solid())
        .expect("solid ground below the dirt");
    assert_eq!(deeper, Block::Stone);
}

#[test]
fn column_tops_of_an_area_are_each_columns_top() {
    use terravox_worldgen::WORLD_LIMIT;
    for name in ["continents", "islands", "archipelago"] {
        let g = Generator::new(&presets::builtin(name).unwrap()).unwrap();
        // Unaligned, both signs, and one reaching past the world's edge (clamped).
        for (x0, z0, w, h) in [
            (-37, 22, 23, 9),
            (4093, -8, 5, 6),
            (WORLD_LIMIT - 3, 0, 6, 2),
        ] {
            let tops = g.column_tops(x0, z0, w, h);
            assert_eq!(tops.len(), (w * h) as usize);
            for (i, top) in tops.iter().enumerate() {
                let (x, z) = (
                    x0.saturating_add((i as u32 % w) as i32),
                    z0 + (i as u32 / w) as i32,
                );
                assert_eq!(*top, g.column_top(x, z), "{name} column {x},{z}");
            }
        }
    }
}
