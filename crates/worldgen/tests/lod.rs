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
