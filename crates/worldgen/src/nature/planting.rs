//! Planting trees, in one place for every generator: which species each biome grows,
//! which cells of the tree grid hold a tree, of which species ([`TreeGrid::trees`]: by
//! the biome of the trunk's column, whatever the generator), where the relief lets
//! one stand (version 4: [`Relief::keeps_tree`]), and planting those trees into a
//! full-detail chunk on the soil blocks a generator finds in their trunk columns
//! ([`plant`]). The density and island generators do both; coarse chunks (`lod`)
//! take the same trees as crowns of their columns ([`Biome::canopy`] further out).
//!
//! Above [`trees`](crate::nature::trees) (species and shapes) and the surface stage
//! (`biome`, the block rules, the faces): deciding needs the biomes, and the soil
//! block is the surface rules'.

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk};

use crate::config::world::NatureConfig;
use crate::mix::mix64;
use crate::nature::trees::{Planted, Species, TALLEST, Trunk, stamp, trunks};
use crate::shape::climate::smoothstep;
use crate::shape::relief::{Ground, Relief};
use crate::surface::biome::{self, Biome, Kind, column_hash};
use crate::surface::blocks::Surface;
use crate::surface::face::{FACE_SALT, Face, UNIT};

use Species::{Acacia, Birch, Cactus, Oak, Spruce};

/// The species each biome grows, by weight, in [`Biome::ALL`] order (how likely a
/// tree cell holds a tree is the biome's own chance).
#[rustfmt::skip]
const SPECIES: [&[(Species, u8)]; 13] = [
    &[],                         // ocean
    &[],                         // beach
    &[],                         // river
    &[(Oak, 3), (Birch, 1)],     // plains
    &[(Oak, 3), (Birch, 1)],     // forest
    &[(Birch, 1)],               // birch forest
    &[(Spruce, 1)],              // taiga
    &[(Cactus, 1)],              // desert
    &[(Acacia, 4), (Oak, 1)],    // savanna
    &[(Oak, 1)],                 // swamp
    &[(Spruce, 1)],              // snowy plains
    &[],                         // stony peaks
    &[],                         // snowy peaks
];

/// Blocks under the snow line over which trees thin out to none.
const TREE_LINE: f64 = 70.0;

impl Biome {
    /// The species this biome grows, by weight.
    fn species(self) -> &'static [(Species, u8)] {
        SPECIES[self as usize]
    }

    /// The species of the tree a trunk grows in this biome, if one grows there at
    /// the world's tree density.
    pub(crate) fn tree(self, trunk: &Trunk, density: f64) -> Option<Species> {
        trunk
            .species(self.species())
            .filter(|_| trunk.present(self.looks().trees, density))
    }

    /// The crown block of the woods covering a far column `(x, z)` of this biome
    /// (for coarse chunks, whose cells are wider than a tree): `None` outside woods.
    pub(crate) fn canopy(self, seed: u64, x: i32, z: i32) -> Option<Block> {
        let t = Trunk {
            x,
            z,
            hash: column_hash(seed, x, z),
        };
        t.species(self.species())
            .filter(|_| self.is_wooded())
            .map(|s| s.crown())
    }
}

impl Relief {
    /// Whether a tree whose trunk has random bits `hash` may stand on `ground` with
    /// face `face` under a snow line at `snow_above_sea` blocks above the sea: never
    /// on rock or scree, always below the tree line ([`TREE_LINE`] blocks under the
    /// snow line), never above the snow line, thinning out in between.
    pub(crate) fn keeps_tree(
        &self,
        ground: &Ground,
        face: Face,
        hash: u64,
        snow_above_sea: f64,
    ) -> bool {
        let share = smoothstep((snow_above_sea - ground.height) / TREE_LINE);
        face == Face::Soil && ((mix64(hash ^ FACE_SALT) >> 11) as f64 * UNIT) < share
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::world::GeneratorConfig;

    #[test]
    fn every_biome_has_its_species() {
        assert_eq!(SPECIES.len(), Biome::ALL.len());
        for b in Biome::ALL {
            // Only biomes with a chance of a tree grow any.
            assert_eq!(b.species().is_empty(), b.looks().trees == 0, "{}", b.name());
        }
    }

    #[test]
    fn trees_thin_out_over_the_tree_line_and_shun_rock_and_scree() {
        let shape = match crate::config::presets::builtin("continents")
            .unwrap()
            .generator
        {
            GeneratorConfig::Density(d) => d.shape.unwrap(),
            GeneratorConfig::Islands(_) => unreachable!("continents is a density world"),
        };
        let relief = Relief::new(&shape, 7).expect("continents has relief");
        let snow = 170.0;
        // The share of 4000 trunks kept on gentle soil at a height above the sea.
        let kept = |height: f64, face: Face| {
            let ground = Ground {
                height,
                slope: 0.2,
                gully: 0.0,
            };
            (0..4000u64)
                .filter(|&h| relief.keeps_tree(&ground, face, mix64(h), snow))
                .count() as f64
                / 4000.0
        };
        assert_eq!(kept(40.0, Face::Soil), 1.0);
        let (low, mid, high) = (
            kept(snow - 60.0, Face::Soil),
            kept(snow - 35.0, Face::Soil),
            kept(snow - 10.0, Face::Soil),
        );
        assert!(
            low > 0.9 && (0.4..0.6).contains(&mid) && high < 0.1,
            "{low} {mid} {high}"
        );
        assert_eq!(kept(snow + 5.0, Face::Soil), 0.0);
        assert_eq!(kept(40.0, Face::Rock), 0.0);
        assert_eq!(kept(40.0, Face::Scree), 0.0);
    }
}
