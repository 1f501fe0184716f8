//! The world an export reads: the generator and the player's edits laid over it,
//! exactly as the game shows them.

use terravox_edits::{EditedColumns, Edits};
use terravox_voxel::{Chunk, ChunkPos, ColumnTints, Fnv64};
use terravox_worldgen::{Biome, ColumnTop, Generator};

/// A generated world with the player's edits: what every export reads.
#[derive(Clone, Debug)]
pub struct Source {
    generator: Generator,
    edits: Edits,
    /// The edits by column (for surface heights and the water over them).
    columns: EditedColumns,
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
        let columns = EditedColumns::new(&edits);
        Self {
            generator,
            edits,
            columns,
        }
    }

    /// A height no block of this world rises above, trees aside: the generator's
    /// bound ([`Generator::highest_possible`]) or the highest edit.
    pub fn highest_possible(&self) -> i32 {
        let highest = self.generator.highest_possible();
        self.columns.highest().map_or(highest, |y| y.max(highest))
    }

    /// A fingerprint of the edits laid over the world (every edited block, in the
    /// edits' fixed order): two sources of one generator with the same fingerprint
    /// show the same world.
    pub fn edits_fingerprint(&self) -> u64 {
        let mut h = Fnv64::new();
        for (p, b) in self.edits.iter() {
            for v in [p.x, p.y, p.z] {
                h.write(&v.to_le_bytes());
            }
            h.write_u8(b as u8);
        }
        h.finish()
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
    /// the player's edits ([`EditedColumns::surface`]).
    pub fn surface_height(&self, x: i32, z: i32) -> i32 {
        let ground = self.generator.surface_height(x, z);
        self.columns.surface(&self.generator, x, z, ground)
    }

    /// The top of column `(x, z)` as the generator makes it ([`Generator::column_top`])
    /// with the player's edits laid over it: the surface and the water over it
    /// ([`EditedColumns::top`]).
    pub fn column_top(&self, x: i32, z: i32, top: ColumnTop) -> ColumnTop {
        self.columns.top(&self.generator, x, z, top)
    }

    /// [`Source::surface_height`], the biome and the surface of the water over it
    /// (a river or lake above the sea where the player built nothing up to it, or
    /// water the player poured or set flowing) of the `w` x `h` columns from
    /// `(x0, z0)`, row by row (neighbouring columns share the generator's work:
    /// [`Generator::column_tops`]).
    pub fn surfaces(&self, x0: i32, z0: i32, w: u32, h: u32) -> Vec<Surface> {
        let tops = self.generator.column_tops(x0, z0, w, h);
        tops.iter()
            .enumerate()
            .map(|(i, &top)| {
                let (x, z) = (x0 + (i as u32 % w) as i32, z0 + (i as u32 / w) as i32);
                let top = self.column_top(x, z, top);
                Surface {
                    y: top.y,
                    biome: top.biome,
                    water: top.water,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_voxel::{Block, BlockPos};
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

    #[test]
    fn water_set_flowing_covers_its_column() {
        let g = Generator::new(&WorldConfig::default()).unwrap();
        let [x, _, z] = g.land_near_origin().unwrap();
        let ground = g.surface_height(x, z);
        let mut edits = Edits::new();
        // A trench a block deep, water flowing in it; beside it a block of water on
        // the ground, under a plank built over it.
        edits.set(BlockPos::new(x, ground, z), Block::FlowingWater2);
        edits.set(BlockPos::new(x + 1, ground + 1, z), Block::Water);
        edits.set(BlockPos::new(x + 1, ground + 3, z), Block::Planks);
        let s = Source::new(g.clone(), edits);
        let [trench, covered] = [x, x + 1].map(|x| s.column_top(x, z, g.column_top(x, z)));
        assert_eq!((trench.y, trench.water), (ground - 1, Some(ground)));
        assert_eq!(
            (covered.y, covered.block, covered.water),
            (ground + 3, Block::Planks, None)
        );
        let far = g.column_top(x + 9, z);
        assert_eq!(s.column_top(x + 9, z, far), far);
    }
}
