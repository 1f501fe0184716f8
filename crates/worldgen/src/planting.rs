//! Planting trees, in one place for every generator: which cells of the tree grid
//! hold a tree, of which species ([`TreeGrid::trees`]: by the biome of the trunk's
//! column, whatever the generator), and planting those trees into a full-detail
//! chunk on the soil blocks a generator finds in their trunk columns ([`plant`]).
//! The density and island generators do both; coarse chunks (`lod`) take the same
//! trees as crowns of their columns.
//!
//! Apart from [`crate::trees`] (below `biome`) because deciding needs the biomes, and
//! the biome table (`biome`) names the species and draws from the trunks defined
//! there: `trees` < `biome` < `surface` < `planting`.

use terravox_voxel::{BlockPos, CHUNK, Chunk};

use crate::biome::{self, Kind};
use crate::config::NatureConfig;
use crate::surface::Surface;
use crate::trees::{Planted, Species, TALLEST, Trunk, stamp, trunks};

/// A world's tree grid: the seed its cells are hashed with (the world's), their size
/// and the factor on every biome's chance of a tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeGrid {
    /// The world seed.
    pub seed: u64,
    /// Cell size in blocks (`nature.tree_spacing`).
    pub spacing: i32,
    /// Factor on every biome's chance of a tree (`nature.tree_density`).
    pub density: f64,
}

/// A tree the grid grows: its trunk column (position and random bits, which choose
/// its shape and so its height), its species and the biome look of its column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tree {
    /// The trunk column and its random bits.
    pub trunk: Trunk,
    /// The species its biome drew.
    pub species: Species,
    /// The look of the trunk's column, which says its soil block.
    pub kind: Kind,
}

impl TreeGrid {
    /// The tree grid of a world with seed `seed` and nature `n`.
    pub(crate) fn new(seed: u64, n: &NatureConfig) -> Self {
        Self {
            seed,
            spacing: n.tree_spacing,
            density: n.tree_density,
        }
    }

    /// Whether the world grows trees at all.
    pub(crate) fn grows(&self) -> bool {
        self.density > 0.0
    }

    /// The trees of the cells whose trunk column lies in `x0..=x1` by `z0..=z1`, in
    /// world order (see [`trunks`]): a cell holds one where `look` gives its trunk
    /// column a biome look (`None`: no tree there) whose biome draws a tree from the
    /// trunk's bits, of the species it draws.
    pub(crate) fn trees(
        &self,
        [x0, z0, x1, z1]: [i32; 4],
        mut look: impl FnMut(&Trunk) -> Option<Kind>,
    ) -> Vec<Tree> {
        trunks(self.seed, self.spacing, x0, z0, x1, z1)
            .into_iter()
            .filter_map(|trunk| {
                let kind = look(&trunk)?;
                let species = biome::biome_of(kind).tree(&trunk, self.density)?;
                Some(Tree {
                    trunk,
                    species,
                    kind,
                })
            })
            .collect()
    }
}

/// Plants `trees` into the full-detail chunk at `origin` and stamps them
/// ([`stamp`]: trunks before leaves, in this order). A tree stands on every soil
/// block that `soils` finds in its trunk column (world heights, ascending, each with
/// air right above it) from which it reaches into the padded chunk with its trunk
/// starting inside it, at or above sea level, where the soil block of the column's
/// look is one its species grows on.
pub(crate) fn plant<S: IntoIterator<Item = i32>>(
    chunk: &mut Chunk,
    origin: BlockPos,
    surface: Surface,
    trees: &[Tree],
    mut soils: impl FnMut(&Tree) -> S,
) {
    // Soil at most at local 31 (the trunk starts inside the padding), at least
    // TALLEST blocks below the padding.
    let reach = origin.y - 1 - TALLEST..origin.y + CHUNK;
    let mut planted = Vec::new();
    for t in trees {
        for y in soils(t) {
            if reach.contains(&y)
                && y >= surface.sea_level
                && t.species.grows_on(surface.biome_block(y, 0, t.kind))
            {
                planted.push(Planted {
                    soil: [t.trunk.x, y, t.trunk.z],
                    species: t.species,
                    variant: t.trunk.variant(),
                });
            }
        }
    }
    stamp(chunk, origin, &planted);
}
