//! Version 2's world: continents and oceans, biomes, rivers and trees, and the
//! archipelago's varied islands.

use crate::common;

use std::collections::HashMap;

use common::{assert_seamless, generator};
use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::{Biome, Generator};

const SEEDS: [&str; 3] = ["terravox", "42", "-7 islands and cliffs"];

/// Biome counts over a square of `half` blocks around the origin, every `step` blocks.
fn biome_counts(g: &Generator, half: i32, step: i32) -> HashMap<Biome, usize> {
    let mut counts = HashMap::new();
    for z in (-half..half).step_by(step as usize) {
        for x in (-half..half).step_by(step as usize) {
            let b = g.biome_at(x, z).expect("continents has biomes");
            *counts.entry(b).or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn every_biome_appears_in_16_km_and_none_but_one_dominates() {
    for seed in SEEDS {
        let g = generator("continents", seed);
        let counts = biome_counts(&g, 8_000, 64);
        let total: usize = counts.values().sum();
        let share = |b: Biome| *counts.get(&b).unwrap_or(&0) as f64 / total as f64;
        let report: Vec<String> = Biome::ALL
            .iter()
            .map(|&b| format!("{} {:.1}%", b.name(), share(b) * 100.0))
            .collect();
        for b in Biome::ALL {
            assert!(
                share(b) >= 0.005,
                "seed {seed}: {} covers {:.2}%: {report:?}",
                b.name(),
                share(b) * 100.0
            );
        }
        let big = Biome::ALL.iter().filter(|&&b| share(b) > 0.4).count();
        assert!(big <= 1, "seed {seed}: {big} biomes over 40%: {report:?}");
        let ocean = share(Biome::Ocean);
        assert!(
            (0.2..=0.7).contains(&ocean),
            "seed {seed}: ocean covers {:.1}%",
            ocean * 100.0
        );
    }
}

/// 8-connected components of the cells for which `keep` holds, on an `n` by `n` grid.
fn components(n: usize, keep: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n * n];
    let mut out = Vec::new();
    for start in 0..n * n {
        if !keep[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let mut cells = Vec::new();
        while let Some(i) = stack.pop() {
            cells.push(i);
            let (x, z) = ((i % n) as i64, (i / n) as i64);
            for dz in -1..=1 {
                for dx in -1..=1 {
                    let (nx, nz) = (x + dx, z + dz);
                    if (0..n as i64).contains(&nx) && (0..n as i64).contains(&nz) {
                        let j = nz as usize * n + nx as usize;
                        if keep[j] && !seen[j] {
                            seen[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
        }
        out.push(cells);
    }
    out
}

#[test]
fn rivers_wind_inland_for_hundreds_of_blocks_and_reach_the_sea() {
    // Version 2's rivers along the weirdness noise (version 5 traces its own).
    let g = common::shipped::shipped(4).generator("continents", "terravox");
    let (half, step) = (3_000, 8);
    let n = (2 * half / step) as usize;
    let at = |i: usize| ((i % n) as i32 * step - half, (i / n) as i32 * step - half);
    let biomes: Vec<Biome> = (0..n * n)
        .map(|i| {
            let (x, z) = at(i);
            g.biome_at(x, z).expect("biomes")
        })
        .collect();
    let near_sea = |i: usize| {
        // Within 64 blocks of ocean or beach.
        let (x, z) = ((i % n) as i64, (i / n) as i64);
        let r = 64 / step as i64;
        (-r..=r).any(|dz| {
            (-r..=r).any(|dx| {
                let (nx, nz) = (x + dx, z + dz);
                (0..n as i64).contains(&nx)
                    && (0..n as i64).contains(&nz)
                    && matches!(
                        biomes[nz as usize * n + nx as usize],
                        Biome::Ocean | Biome::Beach
                    )
            })
        })
    };
    let river: Vec<bool> = biomes.iter().map(|&b| b == Biome::River).collect();
    let inland: Vec<bool> = (0..n * n).map(|i| river[i] && !near_sea(i)).collect();
    // The longest inland stretch of connected river channel.
    let extent = |cells: &[usize]| {
        let xs = cells.iter().map(|&i| at(i).0);
        let zs = cells.iter().map(|&i| at(i).1);
        let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
        let (z0, z1) = (zs.clone().min().unwrap(), zs.max().unwrap());
        (((x1 - x0).pow(2) + (z1 - z0).pow(2)) as f64).sqrt()
    };
    let longest = components(n, &inland)
        .into_iter()
        .max_by(|a, b| extent(a).total_cmp(&extent(b)))
        .expect("an inland river");
    assert!(
        extent(&longest) >= 500.0,
        "the longest inland river spans only {:.0} blocks",
        extent(&longest)
    );
    // It is a channel of water: the terrain lies below sea level along it.
    let wet = longest
        .iter()
        .filter(|&&i| {
            let (x, z) = at(i);
            g.column_top(x, z).y < g.sea_level()
        })
        .count();
    assert!(
        wet as f64 >= 0.95 * longest.len() as f64,
        "only {wet} of {} river columns are under water",
        longest.len()
    );
    // Rivers reach the sea: some river cell lies next to the ocean or its beach.
    let mouths = (0..n * n)
        .filter(|&i| river[i])
        .filter(|&i| {
            let (x, z) = (i % n, i / n);
            [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|&(dx, dz)| {
                    let (nx, nz) = (x as i64 + dx, z as i64 + dz);
                    (0..n as i64).contains(&nx)
                        && (0..n as i64).contains(&nz)
                        && matches!(
                            biomes[nz as usize * n + nx as usize],
                            Biome::Ocean | Biome::Beach
                        )
                })
        })
        .count();
    assert!(mouths > 0, "no river reaches the ocean");
}

/// The chunks around a column in one of the given biomes, found near the origin.
fn area_in(g: &Generator, want: &[Biome]) -> (Vec<ChunkPos>, [i32; 2]) {
    let fits = |x: i32, z: i32| g.biome_at(x, z).is_some_and(|b| want.contains(&b));
    let (x, z) = (0..4000)
        .map(|i| ((i % 63) * 97 - 3000, (i / 63) * 97 - 3000))
        .find(|&(x, z)| (-5..=5).all(|d| fits(x + d * 4, z + d * 4)))
        .unwrap_or_else(|| panic!("no {want:?} near the origin"));
    let top = g.surface_height(x, z);
    let c = BlockPos::new(x, top, z).to_chunk().0;
    let mut v = Vec::new();
    for dy in -1..=1 {
        for dz in -1..=1 {
            for dx in -1..=1 {
                v.push(ChunkPos::new(c.x + dx, c.y + dy, c.z + dz));
            }
        }
    }
    (v, [x, z])
}

/// Every block of `area`'s chunks (their own blocks, no padding) by world position.
fn blocks(g: &Generator, area: &[ChunkPos]) -> HashMap<[i32; 3], Block> {
    let mut m = HashMap::new();
    for &p in area {
        let chunk: Chunk = g.generate(p);
        let o = p.origin();
        for y in 0..CHUNK {
            for z in 0..CHUNK {
                for x in 0..CHUNK {
                    m.insert([o.x + x, o.y + y, o.z + z], chunk.get(x, y, z));
                }
            }
        }
    }
    m
}

fn is_log(b: Block) -> bool {
    b.is_tree() && !b.is_leaves() && b != Block::Cactus
}

#[test]
fn trees_stand_on_soil_whole_and_dry_across_chunk_borders() {
    let woods = [Biome::Forest, Biome::BirchForest, Biome::Taiga];
    for (preset, biome) in [
        ("continents", &[Biome::Forest][..]),
        ("continents", &[Biome::Taiga]),
        ("islands", &woods),
    ] {
        let g = generator(preset, "trees");
        let (area, _) = area_in(&g, biome);
        assert_seamless(&g, &area);
        let world = blocks(&g, &area);
        let get = |p: [i32; 3]| world.get(&p).copied();
        let sea = g.sea_level();
        // Trunks: a column of logs whose lowest log stands on soil.
        let mut trunks = Vec::new();
        for (&[x, y, z], &b) in &world {
            if is_log(b) && get([x, y - 1, z]).is_some_and(|below| !is_log(below)) {
                let soil = get([x, y - 1, z]).expect("checked");
                assert!(
                    matches!(
                        soil,
                        Block::Grass | Block::Podzol | Block::Dirt | Block::Snow
                    ),
                    "{preset}: a trunk at ({x}, {y}, {z}) stands on {soil:?}"
                );
                trunks.push([x, y, z]);
            }
        }
        assert!(
            trunks.len() >= 5,
            "{preset} {biome:?}: only {} trees",
            trunks.len()
        );
        // The area's inner part: leaves there have their trunk inside the area.
        let (lo, hi) = (
            area.iter().fold([i32::MAX; 3], |m, p| {
                let o = p.origin();
                [m[0].min(o.x), m[1].min(o.y), m[2].min(o.z)]
            }),
            area.iter().fold([i32::MIN; 3], |m, p| {
                let o = p.origin();
                [
                    m[0].max(o.x + CHUNK),
                    m[1].max(o.y + CHUNK),
                    m[2].max(o.z + CHUNK),
                ]
            }),
        );
        let inner = |[x, y, z]: [i32; 3]| {
            x >= lo[0] + 2 && x < hi[0] - 2 && z >= lo[2] + 2 && z < hi[2] - 2 && y >= lo[1] + 12
        };
        let mut leaves = 0;
        let mut across = 0;
        for (&[x, y, z], &b) in &world {
            if !b.is_tree() {
                continue;
            }
            assert!(
                y > sea,
                "{preset}: {b:?} at ({x}, {y}, {z}) at or below sea level"
            );
            for [dx, dz] in [[1, 0], [-1, 0], [0, 1], [0, -1]] {
                assert_ne!(
                    get([x + dx, y, z + dz]),
                    Some(Block::Water),
                    "{preset}: tree by water"
                );
            }
            if b.is_leaves() && inner([x, y, z]) {
                leaves += 1;
                // Within the crown of a trunk: at most 2 across and 11 above its soil.
                let owner = trunks.iter().find(|&&[tx, ty, tz]| {
                    (tx - x).abs() <= 2 && (tz - z).abs() <= 2 && y >= ty && y <= ty - 1 + 11
                });
                assert!(
                    owner.is_some(),
                    "{preset}: leaves at ({x}, {y}, {z}) with no trunk"
                );
                let [tx, _, tz] = *owner.expect("checked");
                if tx.div_euclid(CHUNK) != x.div_euclid(CHUNK)
                    || tz.div_euclid(CHUNK) != z.div_euclid(CHUNK)
                {
                    across += 1;
                }
            }
        }
        assert!(leaves > 50, "{preset}: {leaves} leaves");
        assert!(
            across > 0,
            "{preset}: no tree reaches across a chunk border here"
        );
    }
}

#[test]
fn neighbouring_chunks_agree_on_a_tree_whichever_is_generated_first() {
    let g = generator("continents", "trees");
    let (area, _) = area_in(&g, &[Biome::Forest]);
    // Pairs of neighbours across x: generate A then B, and B then A (a fresh
    // generator each time), and compare the tree blocks of each in both orders.
    for pair in area.windows(2).filter(|w| w[1].x == w[0].x + 1) {
        let first = |order: [ChunkPos; 2]| {
            let g = Generator::new(g.config()).expect("valid");
            let mut got: Vec<(ChunkPos, Chunk)> =
                order.iter().map(|&p| (p, g.generate(p))).collect();
            got.sort_by_key(|(p, _)| *p);
            got
        };
        let ab = first([pair[0], pair[1]]);
        let ba = first([pair[1], pair[0]]);
        assert_eq!(ab, ba);
        // And the seam between them holds the same tree blocks from both sides.
        let (a, b) = (&ab[0].1, &ab[1].1);
        for y in -1..=CHUNK {
            for z in -1..=CHUNK {
                assert_eq!(a.get(CHUNK, y, z), b.get(0, y, z));
                assert_eq!(a.get(CHUNK - 1, y, z), b.get(-1, y, z));
            }
        }
    }
}

#[test]
fn archipelago_islands_vary_and_some_cells_are_empty() {
    let g = generator("archipelago", "variety");
    let islands = g.islands_near(-6000.0, -6000.0, 6000.0, 6000.0);
    let cells = (12_000.0f64 / 520.0).powi(2);
    assert!(
        (islands.len() as f64) < 0.9 * cells,
        "{} islands in about {cells:.0} cells",
        islands.len()
    );
    let (small, big) = islands.iter().fold((f64::MAX, 0.0f64), |(s, b), i| {
        (s.min(i.reach), b.max(i.reach))
    });
    assert!(big > 2.5 * small, "island reaches {small:.0}..{big:.0}");
    assert!(
        islands.iter().any(|i| i.aspect < 0.7),
        "no elongated island"
    );
    // Big islands have mountains: some land reaches the rock band.
    let high = islands
        .iter()
        .filter(|i| i.boost > 0.1)
        .any(|i| g.column_top(i.centre[0] as i32, i.centre[1] as i32).y > 40);
    assert!(high, "no big island rises into mountains");
}
