//! The edits of a world by column, laid over the generator's column tops: the
//! surface and the water a map, a heightmap or the cross-section shows, your builds
//! and the water you set flowing included.

use std::collections::{BTreeMap, HashMap};

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::{ColumnTop, Generator};

use crate::overlay::Edits;

/// The edited blocks of some columns, by column and then height.
#[derive(Clone, Debug, Default)]
pub struct EditedColumns {
    columns: HashMap<[i32; 2], BTreeMap<i32, Block>>,
}

impl EditedColumns {
    /// Every edited column of `edits`.
    pub fn new(edits: &Edits) -> Self {
        Self::of(edits.iter())
    }

    /// The edited columns of `edits` from `lo` to `hi` (`x`, `z`, inclusive).
    pub fn within(edits: &Edits, lo: [i32; 2], hi: [i32; 2]) -> Self {
        let (clo, chi) = (
            BlockPos::new(lo[0], 0, lo[1]).to_chunk().0,
            BlockPos::new(hi[0], 0, hi[1]).to_chunk().0,
        );
        let range = edits.in_range(
            ChunkPos::new(clo.x, i32::MIN, i32::MIN),
            ChunkPos::new(chi.x, i32::MAX, i32::MAX),
        );
        Self::of(
            range.filter(|(p, _)| (lo[0]..=hi[0]).contains(&p.x) && (lo[1]..=hi[1]).contains(&p.z)),
        )
    }

    fn of(edits: impl Iterator<Item = (BlockPos, Block)>) -> Self {
        let mut columns: HashMap<[i32; 2], BTreeMap<i32, Block>> = HashMap::new();
        for (p, b) in edits {
            columns.entry([p.x, p.z]).or_default().insert(p.y, b);
        }
        Self { columns }
    }

    /// The highest edited block of any column, if any.
    pub fn highest(&self) -> Option<i32> {
        self.columns
            .values()
            .filter_map(|c| c.keys().next_back().copied())
            .max()
    }

    /// The height of the highest solid block of column `(x, z)`, trees aside, whose
    /// generated ground is `ground`, with the edits: `ground` where the column was
    /// not edited; else the highest solid block of the edited column (a placed
    /// block counts, a tree's block does not), read from `generator`'s chunks.
    pub fn surface(&self, generator: &Generator, x: i32, z: i32, ground: i32) -> i32 {
        self.surface_block(generator, x, z, ground).0
    }

    /// [`EditedColumns::surface`], and the block there (`None` where the column is
    /// not edited, or the block is generated and not read).
    fn surface_block(
        &self,
        generator: &Generator,
        x: i32,
        z: i32,
        ground: i32,
    ) -> (i32, Option<Block>) {
        let Some(edits) = self.columns.get(&[x, z]) else {
            return (ground, None);
        };
        let top = edits.keys().next_back().map_or(ground, |&y| y.max(ground));
        let mut chunk: Option<(ChunkPos, Chunk)> = None;
        // Down from the highest edit; unedited blocks above the ground are air or a
        // tree's, the ground itself is solid unless edited away.
        for y in (ground.min(top) - 4 * CHUNK..=top).rev() {
            if let Some(&b) = edits.get(&y) {
                if b.is_solid() {
                    return (y, Some(b));
                }
                continue;
            }
            if y > ground {
                continue;
            }
            if y == ground {
                return (y, None);
            }
            // Below an edited-away surface: the generated blocks (caves included).
            let (pos, [lx, ly, lz]) = BlockPos::new(x, y, z).to_chunk();
            if chunk.as_ref().is_none_or(|(p, _)| *p != pos) {
                chunk = Some((pos, generator.generate(pos)));
            }
            let b = chunk
                .as_ref()
                .map_or(Block::Air, |(_, c)| c.get(lx, ly, lz));
            if b.is_solid() && !b.is_tree() {
                return (y, Some(b));
            }
        }
        (ground.min(top) - 4 * CHUNK, None)
    }

    /// `top`, the generator's top of column `(x, z)`, with the edits: the surface
    /// and its block as [`EditedColumns::surface`] finds them, and the water over it
    /// (the generator's river or lake where nothing was built up to it, else the
    /// highest block of water placed or set flowing over the surface).
    pub fn top(&self, generator: &Generator, x: i32, z: i32, top: ColumnTop) -> ColumnTop {
        let Some(edits) = self.columns.get(&[x, z]) else {
            return top;
        };
        let (y, block) = self.surface_block(generator, x, z, top.y);
        let poured = edits
            .range(y + 1..)
            .rev()
            .find(|(_, b)| b.is_water())
            .map(|(&wy, _)| wy);
        ColumnTop {
            y,
            block: block.unwrap_or(top.block),
            water: top.water.filter(|&l| l > y).max(poured),
            ..top
        }
    }
}
