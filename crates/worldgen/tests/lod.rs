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

/// A preset's surface around its spawn, at every level: the coarse chunk holding the
/// spawn's surface, and the one beside it, at every level.
fn coarse_cells_equal_the_generators_verdict_in(name: &str) {
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

/// The default world's coarse cells (the other presets': a sweep, below).
#[test]
fn coarse_cells_equal_the_generators_verdict() {
    coarse_cells_equal_the_generators_verdict_in("continents");
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

/// The coarse surface is the full one, column by column, at levels 1 to 5 around
/// the spawn of `continents` and along its rivers (seed -7): the highest solid cell
/// stands within a cell of the column's top ([`Generator::column_top`]: the top is at
/// or above the cell's sample and below the next one; from level 3 a wooded column's
/// top cell is its canopy), with the same top block (canopies aside; levels 1 to 3,
/// whose cells are no taller than the shore's band), and
/// water stands over the coarse column where it stands a cell deep or more over the
/// full one, and never where the full column is dry. A few columns may differ: an
/// overhang thinner than a cell, or a block rule that turns at a height inside the
/// cell (a snow line, a beach's top).
#[test]
fn the_coarse_surface_is_the_full_surface() {
    let cfg = presets::builtin("continents")
        .unwrap()
        .with_seed(terravox_worldgen::Seed::new("-7"));
    let g = Generator::new(&cfg).unwrap();
    let sea = g.sea_level();
    let [sx, _, sz] = g.land_near_origin().expect("land");
    let (mut columns, mut high, mut blocks, mut water, mut wet) = (0, vec![], vec![], vec![], 0);
    for level in 1..=5u8 {
        let cell = 1i32 << level;
        let edge = CHUNK << level;
        // The spawn's chunk column and two along the river at (-403, 1976).
        for (x, z) in [(sx, sz), (-403, 1976), (-403 + edge, 1976)] {
            let (cx, cz) = (x.div_euclid(edge), z.div_euclid(edge));
            let mut stack: HashMap<i32, Chunk> = HashMap::new();
            for lz in 0..CHUNK {
                for lx in 0..CHUNK {
                    let (wx, wz) = (cx * edge + lx * cell, cz * edge + lz * cell);
                    let top = g.column_top(wx, wz);
                    // The highest solid cell (leaves aside at levels 1 and 2: crowns
                    // stand above the top) from a cell above the top down.
                    let mut coarse = None;
                    for y in (top.y - 4 * cell..=top.y + 2 * cell).rev() {
                        if y.rem_euclid(cell) != 0 {
                            continue;
                        }
                        let cy = y.div_euclid(edge);
                        let chunk = stack.entry(cy).or_insert_with(|| {
                            g.generate_coarse(LodPos::new(level, ChunkPos::new(cx, cy, cz)))
                                .0
                        });
                        let b = chunk.get(lx, (y - cy * edge) / cell, lz);
                        if b.is_solid() && (!b.is_tree() || level >= 3) {
                            coarse = Some((y, b));
                            break;
                        }
                    }
                    columns += 1;
                    let at = (level, wx, wz);
                    let Some((y, b)) = coarse else {
                        high.push((at, top.y, None));
                        continue;
                    };
                    if !(y <= top.y && top.y < y + cell) {
                        high.push((at, top.y, Some(y)));
                    }
                    // A cell up to the shore's height (8 blocks) resolves the
                    // shore; above that the sand or gravel of a beach turns within
                    // a cell (the rules are taken halfway up it).
                    if b != top.block && !b.is_tree() && cell <= 8 {
                        blocks.push((at, top.block, b));
                    }
                    let above = y + cell;
                    let cy = above.div_euclid(edge);
                    let chunk = stack.entry(cy).or_insert_with(|| {
                        g.generate_coarse(LodPos::new(level, ChunkPos::new(cx, cy, cz)))
                            .0
                    });
                    let coarse_wet = chunk.get(lx, (above - cy * edge) / cell, lz) == Block::Water;
                    let level_over = top.water.unwrap_or(sea).max(sea);
                    let full_deep = level_over >= top.y + cell;
                    let full_dry = top.water.is_none() && top.y >= sea;
                    wet += usize::from(full_deep && top.water.is_some());
                    if (full_deep && !coarse_wet) || (full_dry && coarse_wet) {
                        water.push((at, top.water, coarse_wet));
                    }
                }
            }
        }
    }
    let few = |n: usize| n * 100 <= columns;
    assert!(
        wet > 20,
        "only {wet} columns under rivers or lakes a cell deep"
    );
    assert!(
        few(high.len()),
        "{} of {columns} coarse tops not within a cell of the full one, e.g. {:?}",
        high.len(),
        &high[..high.len().min(5)]
    );
    assert!(
        blocks.len() * 20 <= columns,
        "{} of {columns} top blocks differ, e.g. {:?}",
        blocks.len(),
        &blocks[..blocks.len().min(5)]
    );
    assert!(
        few(water.len()),
        "{} of {columns} columns wet in one and dry in the other, e.g. {:?}",
        water.len(),
        &water[..water.len().min(5)]
    );
}

/// The long sweeps: `cargo test --release --workspace -- --ignored sweep::` (as
/// `.ci/run` does) runs them.
mod sweep {
    use super::*;

    #[test]
    #[ignore = "long sweep: .ci/run runs it"]
    fn coarse_cells_equal_the_generators_verdict_in_every_other_preset() {
        for name in presets::names().filter(|&n| n != "continents") {
            coarse_cells_equal_the_generators_verdict_in(name);
        }
    }
}
