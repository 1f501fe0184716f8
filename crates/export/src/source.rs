//! The world an export reads: the generator and the player's edits laid over it,
//! exactly as the game shows them.

use std::collections::{BTreeMap, HashMap};

use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos, ColumnTints};
use terravox_worldgen::{Biome, Generator};

/// A generated world with the player's edits: what every export reads.
#[derive(Clone, Debug)]
pub struct Source {
    generator: Generator,
    edits: Edits,
    /// The edits of each edited column, by height (for surface heights).
    columns: HashMap<[i32; 2], BTreeMap<i32, Block>>,
}

/// What a heightmap needs of a column ([`Source::surfaces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// The highest solid block, the player's edits included.
    pub y: i32,
    /// The column's biome, in worlds with biomes.
    pub biome: Option<Biome>,
    /// The surface of the river or lake above the sea over it (version 5).
    pub water: Option<i32>,
}

impl Source {
    /// The world `generator` makes, with `edits` (the world's saved edits, or none)
    /// laid over it.
    pub fn new(generator: Generator, edits: Edits) -> Self {
        let mut columns: HashMap<[i32; 2], BTreeMap<i32, Block>> = HashMap::new();
        for (p, b) in edits.iter() {
            columns.entry([p.x, p.z]).or_default().insert(p.y, b);
        }
        Self {
            generator,
            edits,
            columns,
        }
    }

    /// A height no block of this world rises above, trees aside: the generator's
    /// bound ([`Generator::highest_possible`]) or the highest edit.
    pub fn highest_possible(&self) -> i32 {
        let edits = self.columns.values().filter_map(|c| c.keys().next_back());
        edits.fold(self.generator.highest_possible(), |h, &y| h.max(y))
    }

    /// The generator.
    pub fn generator(&self) -> &Generator {
        &self.generator
    }

    /// The chunk at `pos` as the game shows it (padding included), with the grass
    /// tints of its columns in worlds with biomes.
    pub fn chunk_tinted(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let (mut chunk, tints) = self.generator.generate_tinted(pos);
        self.edits.apply(pos, &mut chunk);
        (chunk, tints)
    }

    /// The chunk at `pos` as the game shows it (padding included).
    pub fn chunk(&self, pos: ChunkPos) -> Chunk {
        self.chunk_tinted(pos).0
    }

    /// The biome of column `(x, z)`, in worlds with biomes.
    pub fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        self.generator.biome_at(x, z)
    }

    /// The height of the highest solid block of column `(x, z)`, trees aside, with
    /// the player's edits: [`Generator::surface_height`] where the column was not
    /// edited; else the highest solid block of the edited column (a placed block
    /// counts, a tree's block does not), read from the generated chunks.
    pub fn surface_height(&self, x: i32, z: i32) -> i32 {
        self.edited_height(x, z, self.generator.surface_height(x, z))
    }

    /// [`Source::surface_height`], the biome and the surface of the river or lake
    /// above the sea over it (version 5; none where the player built up to or above
    /// it) of the `w` x `h` columns from `(x0, z0)`, row by row (neighbouring columns
    /// share the generator's work: [`Generator::column_tops`]).
    pub fn surfaces(&self, x0: i32, z0: i32, w: u32, h: u32) -> Vec<Surface> {
        let tops = self.generator.column_tops(x0, z0, w, h);
        tops.iter()
            .enumerate()
            .map(|(i, top)| {
                let (x, z) = (x0 + (i as u32 % w) as i32, z0 + (i as u32 / w) as i32);
                let y = self.edited_height(x, z, top.y);
                Surface {
                    y,
                    biome: top.biome,
                    water: top.water.filter(|&l| l > y),
                }
            })
            .collect()
    }

    /// The surface height of column `(x, z)` whose generated ground is `ground`,
    /// with the player's edits.
    fn edited_height(&self, x: i32, z: i32, ground: i32) -> i32 {
        let Some(edits) = self.columns.get(&[x, z]) else {
            return ground;
        };
        let top = edits.keys().next_back().map_or(ground, |&y| y.max(ground));
        let mut chunk: Option<(ChunkPos, Chunk)> = None;
        // Down from the highest edit; unedited blocks above the ground are air or a
        // tree's, the ground itself is solid unless edited away.
        for y in (ground.min(top) - 4 * CHUNK..=top).rev() {
            if let Some(b) = edits.get(&y) {
                if b.is_solid() {
                    return y;
                }
                continue;
            }
            if y > ground {
                continue;
            }
            if y == ground {
                return y;
            }
            // Below an edited-away surface: the generated blocks (caves included).
            let (pos, [lx, ly, lz]) = BlockPos::new(x, y, z).to_chunk();
            if chunk.as_ref().is_none_or(|(p, _)| *p != pos) {
                chunk = Some((pos, self.generator.generate(pos)));
            }
            let b = chunk
                .as_ref()
                .map_or(Block::Air, |(_, c)| c.get(lx, ly, lz));
            if b.is_solid() && !b.is_tree() {
                return y;
            }
        }
        ground.min(top) - 4 * CHUNK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_worldgen::WorldConfig;

    #[test]
    fn edits_raise_and_lower_the_surface() {
        let g = Generator::new(&WorldConfig::default()).unwrap();
        let (x, z) = (37, -90);
        let ground = g.surface_height(x, z);
        let mut edits = Edits::new();
        edits.set(BlockPos::new(x, ground + 10, z), Block::Brick);
        edits.set(BlockPos::new(x + 1, ground, z), Block::Air);
        let s = Source::new(g.clone(), edits);
        assert_eq!(s.surface_height(x, z), ground + 10, "a placed block on top");
        assert_eq!(s.surface_height(x, z + 1), g.surface_height(x, z + 1));
        let dug = s.surface_height(x + 1, z);
        let below = g.surface_height(x + 1, z);
        assert!(dug < below, "digging lowers the column: {dug} < {below}");
        let (pos, l) = BlockPos::new(x + 1, dug, z).to_chunk();
        assert!(s.chunk(pos).get(l[0], l[1], l[2]).is_solid());
    }
}
