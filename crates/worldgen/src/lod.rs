//! Level of detail: coarse chunks for the far horizon.
//!
//! A chunk of level `L` ([`LodPos`]) has the same 32 x 32 x 32 cells (and a one-cell
//! padding) as a full-detail chunk, but each cell stands for `2^L` blocks a side, so
//! the chunk covers `32 * 2^L` blocks a side. Level 0 is the full-detail chunk.
//!
//! A coarse chunk is generated directly at its resolution: each cell takes the
//! generator's verdict (solid, water or air) at one **sample point**, the cell's
//! lowest corner `origin + local * 2^L`, so a far chunk costs about what a near one
//! does. For the density field at levels 3 and up every sample point is a node of the
//! 4 x 8 x 4 lattice the field is evaluated on, so its sign is found octave by octave
//! with the same bounds as full-detail chunks; at levels 1 and 2 the sample's value
//! is interpolated from fully evaluated lattice nodes exactly as a full-detail chunk
//! interpolates it. Islands take the column's height.
//!
//! What a coarse chunk leaves out: caves (filled: out of sight from afar) and edits.
//! Trees become leaves: at levels 1 and 2 a blob of leaf cells over every column
//! where a tree stands, further out the top cell of wooded columns. Its solid cells
//! take the block rules of their sample height and depth (in blocks), its columns
//! the look and tints of the biome at their sample column.
//!
//! ```text
//!   level 0:  32 blocks   ┌┬┬┬┐ level 1: 64 blocks     level 2: 128 blocks
//!   (1-block cells)       ├┼┼┼┤ (2-block cells)        (4-block cells)
//!                         └┴┴┴┘
//! ```
//!
//! Seams: the cells of a coarse chunk's side padding are fluid (**skirts**), so the
//! mesher closes every coarse chunk with walls down its sides; a ray that passes a
//! finer neighbour's edge meets a wall instead of the sky. The game draws a coarse
//! chunk's cells shifted down by `2^L - 1` blocks, so a cell's top is its sample's
//! top: sea level lies at the same height at every level.

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints, PADDED, padded_index};

use crate::biome::{self, Kind};
use crate::planting::TreeGrid;
use crate::surface::{Face, Surface};

/// The coarsest level: 64-block cells in 2048-block chunks (the 16,384-block
/// horizon's outer ring).
pub const MAX_LEVEL: u8 = 6;

/// A chunk of some level of detail: `pos` counts chunks of that level, each
/// `32 * 2^level` blocks a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LodPos {
    /// 0 is full detail; each level doubles the cell size.
    pub level: u8,
    /// The chunk, in chunks of its level.
    pub pos: ChunkPos,
}

impl LodPos {
    /// Chunk `pos` of `level`.
    pub const fn new(level: u8, pos: ChunkPos) -> Self {
        Self { level, pos }
    }

    /// Blocks a cell stands for, a side.
    pub const fn cell(self) -> i32 {
        1 << self.level
    }

    /// Blocks the chunk covers, a side.
    pub const fn edge(self) -> i64 {
        (CHUNK as i64) << self.level
    }

    /// The world block of its lowest corner.
    pub const fn origin(self) -> [i64; 3] {
        let e = self.edge();
        [
            self.pos.x as i64 * e,
            self.pos.y as i64 * e,
            self.pos.z as i64 * e,
        ]
    }

    /// The chunk of the next coarser level holding this one.
    pub const fn parent(self) -> Self {
        Self::new(
            self.level + 1,
            ChunkPos::new(
                self.pos.x.div_euclid(2),
                self.pos.y.div_euclid(2),
                self.pos.z.div_euclid(2),
            ),
        )
    }

    /// The eight chunks of the next finer level it holds (level must be at least 1).
    pub fn children(self) -> [Self; 8] {
        let p = self.pos;
        std::array::from_fn(|i| {
            let (dx, dy, dz) = ((i & 1) as i32, (i >> 1 & 1) as i32, (i >> 2) as i32);
            Self::new(
                self.level - 1,
                ChunkPos::new(2 * p.x + dx, 2 * p.y + dy, 2 * p.z + dz),
            )
        })
    }

    /// The chunk of `level` (at least this one's) holding this one.
    pub fn ancestor(self, level: u8) -> Self {
        let s = (level - self.level) as u32;
        let up = |v: i32| v >> s;
        Self::new(
            level,
            ChunkPos::new(up(self.pos.x), up(self.pos.y), up(self.pos.z)),
        )
    }

    /// The sample coordinates of the padded cells (`-1..=CHUNK`) along x, y and z,
    /// saturated into `i32`.
    pub(crate) fn samples(self) -> [[i32; PADDED]; 3] {
        let (origin, cell) = (self.origin(), self.cell() as i64);
        origin.map(|o| {
            std::array::from_fn(|i| {
                (o + (i as i64 - 1) * cell).clamp(i32::MIN as i64, i32::MAX as i64) as i32
            })
        })
    }

    /// The world position (block units) of the sample point of padded cell
    /// `(lx, ly, lz)` (each `-1..=32`).
    pub fn sample(self, lx: i32, ly: i32, lz: i32) -> [i64; 3] {
        let [x, y, z] = self.origin();
        let s = self.cell() as i64;
        [x + lx as i64 * s, y + ly as i64 * s, z + lz as i64 * s]
    }
}

/// Runs `f` and returns its result with the noise octaves it evaluated on this thread
/// (of every field, 2D or 3D): the measure of work that tests hold coarse chunks and
/// maps to, since performance is measured in benchmarks, never timed in tests. Work
/// that `f` hands to other threads (a map's rows on rayon's pool) is counted there:
/// run it on a one-thread pool to count it all.
#[cfg(feature = "test-support")]
pub fn noise_work<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = crate::fbm::octaves_evaluated();
    let r = f();
    (r, crate::fbm::octaves_evaluated().wrapping_sub(before))
}

/// How a coarse column's solid cells get their blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Look {
    /// Version 1 rules by height and depth ([`Surface::solid_block`]).
    Plain,
    /// The island bands of version 1: top and under blocks, stone below.
    Bands { top: Block, under: Block },
    /// A biome look ([`Surface::biome_block`]).
    Biome(Kind),
    /// A biome look under a face other than soil (version 4, with relief): the face's
    /// rules first ([`Surface::face_block`]); no tree grows there.
    Face(Kind, Face),
}

/// What a generator says about one padded coarse column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoarseColumn {
    /// Solid cells: bit `ly + 1` for padded cells `ly` in `-1..=CHUNK`.
    pub solid: u64,
    pub look: Look,
    /// The crown block of a tree standing here (at levels 1 and 2: a tree's trunk
    /// is in the column's footprint; further out: the column lies in woods).
    pub tree: Option<Block>,
}

impl CoarseColumn {
    /// A column with no solid cell.
    pub(crate) const OPEN: Self = Self {
        solid: 0,
        look: Look::Plain,
        tree: None,
    };
}

/// All `PADDED` cell bits.
const ALL: u64 = (1 << PADDED) - 1;

/// Leaf cells stacked over a tree's column at each level (0: the top cell turns to
/// leaves instead).
fn blob_cells(level: u8) -> i32 {
    match level {
        1 => 3,
        2 => 2,
        _ => 0,
    }
}

/// The padded index of a coarse column `(lx, lz)` (each `-1..=CHUNK`).
#[inline]
pub(crate) const fn column(lx: i32, lz: i32) -> usize {
    (lz + 1) as usize * PADDED + (lx + 1) as usize
}

/// Builds the coarse chunk `lod` from its padded columns: blocks by look, height and
/// depth, water below sea level, trees, skirts. Uniform chunks come back uniform.
pub(crate) fn assemble(
    lod: LodPos,
    surface: Surface,
    columns: &[CoarseColumn],
    tints: Option<Box<ColumnTints>>,
) -> (Chunk, Option<Box<ColumnTints>>) {
    let ys = lod.samples()[1];
    let sample_y = |ly: i32| ys[(ly + 1) as usize];
    let (all, any) = columns
        .iter()
        .fold((ALL, 0), |(a, o), c| (a & c.solid, o | c.solid));
    let trees = columns.iter().any(|c| c.tree.is_some());
    if all == ALL {
        return (Chunk::Uniform(Block::Stone), None);
    }
    if any == 0 && !trees {
        let (bottom, top) = (sample_y(-1), sample_y(CHUNK));
        if top <= surface.sea_level {
            return (Chunk::Uniform(Block::Water), None);
        }
        if bottom > surface.sea_level {
            return (Chunk::Uniform(Block::Air), None);
        }
    }
    let cell = lod.cell();
    let mut blocks = terravox_voxel::dense_array(Block::Air);
    for lz in -1..=CHUNK {
        for lx in -1..=CHUNK {
            let c = &columns[column(lx, lz)];
            let side = lx == -1 || lz == -1 || lx == CHUNK || lz == CHUNK;
            // The highest solid cell with an open one above it, inside the chunk.
            let top = (-1..CHUNK)
                .rev()
                .find(|&ly| c.solid >> (ly + 1) & 1 == 1 && c.solid >> (ly + 2) & 1 == 0);
            let crown = c
                .tree
                .filter(|_| top.is_some_and(|t| sample_y(t) >= surface.sea_level));
            for ly in -1..=CHUNK {
                let y = sample_y(ly);
                let i = padded_index(lx, ly, lz);
                if c.solid >> (ly + 1) & 1 == 0 || side {
                    // Open, or a skirt: the sides are never solid.
                    let blob = top.is_some_and(|t| ly > t && ly <= t + blob_cells(lod.level));
                    blocks[i] = match crown {
                        Some(b) if blob && !side => b,
                        _ => surface.fluid_block(y),
                    };
                    continue;
                }
                // Solid cells directly above, in blocks (up to 4: the rules look no
                // further).
                let above = (!(c.solid >> (ly + 2))).trailing_zeros() as i32;
                let depth = (above * cell).min(4);
                blocks[i] = if let Some(b) =
                    crown.filter(|_| Some(ly) == top && blob_cells(lod.level) == 0)
                {
                    b
                } else {
                    match c.look {
                        Look::Plain => surface.solid_block(y, depth),
                        Look::Bands { top, under } => match depth {
                            0 => top,
                            1..=3 => under,
                            _ => Block::Stone,
                        },
                        Look::Biome(k) => surface.biome_block(y, depth, k),
                        Look::Face(k, f) => surface
                            .face_block(y, depth, f)
                            .unwrap_or_else(|| surface.biome_block(y, depth, k)),
                    }
                };
            }
        }
    }
    (Chunk::Dense(blocks), tints)
}

/// Marks the padded coarse columns of `lod` where trees stand with the crown block of
/// their species. At levels 1 and 2 a column takes the first tree of the grid
/// ([`TreeGrid::trees`], as full-detail chunks decide them) whose trunk stands in
/// its footprint, drawn by the column's own look; further out, where a cell is wider
/// than a tree, every wooded column takes its biome's canopy. `xs` and `zs` are the
/// sample columns of the padded cells.
///
/// Full-detail chunks also plant the grid's trees, but on the soil blocks of their
/// trunk columns and block by block; a coarse column has neither, only a look and a
/// top cell, which `assemble` turns into leaves.
pub(crate) fn plant(
    columns: &mut [CoarseColumn],
    grid: TreeGrid,
    lod: LodPos,
    xs: &[i32; PADDED],
    zs: &[i32; PADDED],
) {
    if lod.level >= 3 {
        for (i, c) in columns.iter_mut().enumerate() {
            if let Look::Biome(k) = c.look {
                c.tree = biome::biome_of(k).canopy(grid.seed, xs[i % PADDED], zs[i / PADDED]);
            }
        }
        return;
    }
    let cell = lod.cell();
    let last = |s: &[i32; PADDED]| s[PADDED - 1].saturating_add(cell - 1);
    // The padded column whose footprint holds world column `(x, z)`.
    let at = |x: i32, z: i32| column((x - xs[0]) / cell - 1, (z - zs[0]) / cell - 1);
    let area = [xs[0], zs[0], last(xs), last(zs)];
    let trees = grid.trees(area, |t| match columns[at(t.x, t.z)].look {
        Look::Biome(kind) => Some(kind),
        _ => None,
    });
    for t in trees {
        let c = &mut columns[at(t.trunk.x, t.trunk.z)];
        c.tree = c.tree.or(Some(t.species.crown()));
    }
}

/// The tints of coarse columns from their biome looks (none for version 1).
pub(crate) fn tints(columns: &[CoarseColumn]) -> Option<Box<ColumnTints>> {
    let mut t = ColumnTints::boxed();
    for (i, c) in columns.iter().enumerate() {
        let (Look::Biome(k) | Look::Face(k, _)) = c.look else {
            return None;
        };
        let b = biome::biome_of(k);
        (t.grass[i], t.water[i]) = (b.grass(), b.water());
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_children_and_ancestors_agree() {
        let p = LodPos::new(0, ChunkPos::new(-3, 5, 7));
        assert_eq!(p.parent(), LodPos::new(1, ChunkPos::new(-2, 2, 3)));
        assert!(p.parent().children().contains(&p));
        assert_eq!(p.ancestor(3), p.parent().parent().parent());
        let q = LodPos::new(2, ChunkPos::new(1, -1, 0));
        assert_eq!(q.origin(), [128, -128, 0]);
        assert_eq!(q.sample(-1, 32, 1), [124, 0, 4]);
        for c in q.children() {
            assert_eq!(c.parent(), q);
        }
    }
}
