//! Coarse chunks (levels of detail): every cell equals the generator's verdict at the
//! cell's sample point, in every preset and at every level.

use std::collections::HashMap;

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::{Generator, LodPos, MAX_LEVEL, presets};

/// What a block is to the coarse levels: solid (caves count as solid: far chunks
/// fill them), water, or open (air, and trees, which far chunks draw as crowns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Solid,
    Water,
    Open,
}

fn class(b: Block) -> Class {
    match b {
        Block::Water => Class::Water,
        _ if b.is_tree() || !b.is_solid() && b != Block::CaveAir => Class::Open,
        _ => Class::Solid,
    }
}

/// Full-detail chunks, generated once.
struct Blocks<'a> {
    g: &'a Generator,
    cache: HashMap<ChunkPos, Chunk>,
}

impl Blocks<'_> {
    fn at(&mut self, [x, y, z]: [i64; 3]) -> Block {
        let (c, l) = BlockPos::new(x as i32, y as i32, z as i32).to_chunk();
        let g = self.g;
        self.cache
            .entry(c)
            .or_insert_with(|| g.generate(c))
            .get(l[0], l[1], l[2])
    }
}

/// Compares every cell of `lod` but its skirts with the full-detail block at its
/// sample point; returns the number of solid cells compared.
fn check(g: &Generator, blocks: &mut Blocks, lod: LodPos) -> usize {
    let (chunk, _) = g.generate_coarse(lod);
    let mut solid = 0;
    for lz in 0..CHUNK {
        for lx in 0..CHUNK {
            for ly in -1..=CHUNK {
                let coarse = chunk.get(lx, ly, lz);
                let full = blocks.at(lod.sample(lx, ly, lz));
                let ok = match class(coarse) {
                    // A crown stands for a tree on the ground or in a cell above it.
                    _ if coarse.is_solid() && class(coarse) == Class::Open => {
                        class(full) != Class::Water
                    }
                    c => c == class(full),
                };
                assert!(
                    ok,
                    "{lod:?} cell ({lx}, {ly}, {lz}) at {:?}: coarse {coarse:?}, full {full:?}",
                    lod.sample(lx, ly, lz)
                );
                solid += usize::from(class(full) == Class::Solid);
            }
        }
    }
    solid
}

/// Each preset's surface around its spawn, at every level: the coarse chunk holding
/// the spawn's surface, and the one beside it, at every level.
#[test]
fn coarse_cells_equal_the_generators_verdict() {
    for name in presets::names() {
        let g = Generator::new(&presets::builtin(name).unwrap()).unwrap();
        let [x, y, z] = g.land_near_origin().expect("land");
        let mut blocks = Blocks {
            g: &g,
            cache: HashMap::new(),
        };
        let mut solid = 0;
        for level in 1..=MAX_LEVEL {
            let e = (CHUNK << level) as i64;
            let at = |v: i32| (v as i64).div_euclid(e) as i32;
            for (dx, dy) in [(0, 0), (1, 0), (0, -1)] {
                let lod = LodPos::new(level, ChunkPos::new(at(x) + dx, at(y) + dy, at(z)));
                // The biggest levels sample sparsely: the comparison stays cheap.
                solid += check(&g, &mut blocks, lod);
            }
        }
        assert!(solid > 1000, "{name}: only {solid} solid cells compared");
    }
}

/// Coarse trees follow the full-detail rules, the tree line included: near levels
/// draw a tree's crown only over a column where a full-detail tree stands (but for
/// biome borders, below). Checked
/// on the level-1 chunks around the highest peak of 4 km of `continents` (gentle
/// soil above the tree line, where a coarse chunk that ignored the line would plant
/// trees), each crown against the full-detail blocks of its footprint.
#[test]
fn coarse_trees_stand_only_where_full_detail_trees_do() {
    use terravox_worldgen::Seed;
    let cfg = presets::builtin("continents")
        .unwrap()
        .with_seed(Seed::new("terravox"));
    let g = Generator::new(&cfg).unwrap();
    let (_, px, pz) = (-2048..2048)
        .step_by(64)
        .flat_map(|z| (-2048..2048).step_by(64).map(move |x| (x, z)))
        .map(|(x, z)| (g.surface_height(x, z), x, z))
        .max()
        .unwrap();
    let mut blocks = Blocks {
        g: &g,
        cache: HashMap::new(),
    };
    let (mut crowns, mut unbacked) = (0, Vec::new());
    let edge = CHUNK * 2;
    for dz in -2..=2 {
        for dx in -2..=2 {
            let (cx, cz) = (px.div_euclid(edge) + dx, pz.div_euclid(edge) + dz);
            let (x0, z0) = (cx * edge, cz * edge);
            let heights: Vec<i32> = [
                (0, 0),
                (edge - 1, 0),
                (0, edge - 1),
                (edge - 1, edge - 1),
                (32, 32),
            ]
            .iter()
            .map(|&(x, z)| g.surface_height(x0 + x, z0 + z))
            .collect();
            let (lo, hi) = (
                *heights.iter().min().unwrap() - 8,
                *heights.iter().max().unwrap() + 40,
            );
            for cy in lo.div_euclid(edge)..=hi.div_euclid(edge) {
                let lod = LodPos::new(1, ChunkPos::new(cx, cy, cz));
                let (chunk, _) = g.generate_coarse(lod);
                let o = lod.origin();
                for lz in 0..CHUNK {
                    for lx in 0..CHUNK {
                        let Some(ly) = (0..CHUNK).find(|&ly| chunk.get(lx, ly, lz).is_tree())
                        else {
                            continue;
                        };
                        crowns += 1;
                        let y = o[1] + 2 * ly as i64;
                        let backed = (0..2).any(|i| {
                            (0..2).any(|k| {
                                let (x, z) = (o[0] + 2 * lx as i64 + i, o[2] + 2 * lz as i64 + k);
                                (y - 24..=y + 8).any(|y| blocks.at([x, y, z]).is_tree())
                            })
                        });
                        if !backed {
                            unbacked.push([o[0] + 2 * lx as i64, y, o[2] + 2 * lz as i64]);
                        }
                    }
                }
            }
        }
    }
    assert!(
        crowns > 20,
        "only {crowns} coarse crowns around the peak at {px},{pz}"
    );
    // Not quite none: a coarse column grows the trunks in its footprint by its own
    // biome look, a full-detail chunk by each trunk column's, and across a biome
    // border the two can differ (2 of 147 crowns here; 32 of 180 when coarse chunks
    // ignored the tree line).
    assert!(
        unbacked.len() * 25 <= crowns,
        "{} of {crowns} coarse crowns over no full-detail tree, e.g. {:?}",
        unbacked.len(),
        &unbacked[..unbacked.len().min(5)]
    );
}

/// Along rivers and lakes, where version 6 banks dry columns and opens buried beds
/// beside higher water, the coarse cells at levels 1 and 2 (where a river is wider
/// than a cell) still equal the full-detail blocks at their sample points.
#[test]
fn coarse_cells_equal_the_verdict_along_rivers() {
    let cfg = presets::builtin("continents")
        .unwrap()
        .with_seed(terravox_worldgen::Seed::new("-7"));
    let g = Generator::new(&cfg).unwrap();
    let wet: Vec<(i32, i32, i32)> = (-2048..2048)
        .step_by(128)
        .flat_map(|z| (-2048..2048).step_by(128).map(move |x| (x, z)))
        .filter_map(|(x, z)| g.column_top(x, z).water.map(|l| (x, l, z)))
        .collect();
    assert!(wet.len() >= 8, "only {} wet samples", wet.len());
    let mut blocks = Blocks {
        g: &g,
        cache: HashMap::new(),
    };
    let mut solid = 0;
    for &(x, y, z) in wet.iter().step_by(wet.len() / 8) {
        for level in 1..=2 {
            let e = (CHUNK << level) as i64;
            let at = |v: i32| (v as i64).div_euclid(e) as i32;
            let lod = LodPos::new(level, ChunkPos::new(at(x), at(y), at(z)));
            solid += check(&g, &mut blocks, lod);
        }
        blocks.cache.clear();
    }
    assert!(solid > 1000, "only {solid} solid cells compared");
}
