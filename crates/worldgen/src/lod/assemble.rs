//! A coarse chunk from its padded columns ([`assemble`]): what a generator says of
//! each column ([`CoarseColumn`]: solid cells, look, crown) turned into blocks by
//! look, sample height and depth, water at or below sea level, trees as leaves and
//! skirts on the sides; and the columns' tints ([`tints`]).

use terravox_voxel::{Block, CHUNK, Chunk, ColumnTints, PADDED, padded_index};

use crate::lod::pos::LodPos;
use crate::surface::biome::{self, Kind};
use crate::surface::blocks::Surface;
use crate::surface::face::Face;

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
    /// The level of a river or lake above the sea over the column (version 5).
    pub water: Option<i32>,
}

impl CoarseColumn {
    /// A column with no solid cell.
    pub(crate) const OPEN: Self = Self {
        solid: 0,
        look: Look::Plain,
        tree: None,
        water: None,
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
/// depth, water below sea level and below a river's or lake's level, trees, skirts. Uniform chunks come back uniform.
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
    if all == ALL {
        return (Chunk::Uniform(Block::Stone), None);
    }
    // No solid cell: no crown either (a tree's leaves stand on its column's top).
    if any == 0 {
        let (bottom, top) = (sample_y(-1), sample_y(CHUNK));
        if top <= surface.sea_level {
            return (Chunk::Uniform(Block::Water), None);
        }
        let wet = columns.iter().any(|c| c.water.is_some_and(|w| w >= bottom));
        if bottom > surface.sea_level && !wet {
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
                        // A skirt holds the water as the sea's do: no face between
                        // two chunks' water.
                        _ if c.water.is_some_and(|w| y <= w) => Block::Water,
                        _ => surface.fluid_block(y),
                    };
                    continue;
                }
                // Solid cells directly above, in blocks (up to 4: the rules look no
                // further).
                let above = (!(c.solid >> (ly + 2))).trailing_zeros() as i32;
                let depth = (above * cell).min(4);
                // A top cell stands for a surface anywhere in its height: its rules
                // are taken halfway up it (a beach at the sea's height stays sand
                // where its sample lies on the sea floor's side of the shore line).
                let y = if depth == 0 { y + (cell - 1) / 2 } else { y };
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
