//! The generator: a validated [`WorldConfig`] made ready ([`Generator::new`]), and what
//! every stage comes together for: chunks at every level of detail, column tops and
//! biomes, each a call to the world's [`Terrain`] (the density field or the islands).
//! What is asked of a generator on top of these (searches, maps, statistics,
//! cross-sections, the fields) is `query`'s, above it.

use std::sync::Arc;

use terravox_voxel::{Block, Chunk, ChunkPos, ColumnTints};

use crate::bounds::{HEIGHT_LIMIT, WORLD_LIMIT, chunk_in_world};
use crate::config::world::{ConfigError, GeneratorConfig, WorldConfig};
use crate::density::DensityGen;
use crate::hydrology::shore::ColumnWater;
use crate::islands::IslandGen;
use crate::islands::layout::Island;
use crate::lod::pos::LodPos;
use crate::nature::trees;
use crate::surface::biome::Biome;
use crate::terrain::Terrain;

/// A validated, ready-to-use world generator.
#[derive(Clone, Debug)]
pub struct Generator {
    /// The config it was made from.
    pub(crate) config: WorldConfig,
    /// The density field or the islands (clones share it: it never changes).
    pub(crate) terrain: Arc<dyn Terrain>,
}

/// The top of one column: its highest solid block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnTop {
    /// Height of the highest solid block.
    pub y: i32,
    /// That block.
    pub block: Block,
    /// The column's biome, in worlds with biomes.
    pub biome: Option<Biome>,
    /// The surface of the river or lake above the sea that covers the column
    /// (version 5): water fills the air from `y + 1` up to it.
    pub water: Option<i32>,
}

impl ColumnTop {
    /// The top `y` with `block` and `biome` in a world whose sea stands at `sea`, with
    /// `water`'s surface where it stands above it, and its shore laid
    /// ([`ColumnWater::top`]).
    fn new(y: i32, block: Block, biome: Option<Biome>, water: ColumnWater, sea: i32) -> Self {
        let (y, block) = water.top(y, block, sea);
        Self {
            y,
            block,
            biome,
            water: water.surface.filter(|&l| l > y),
        }
    }
}

impl Generator {
    /// Validates `config` and prepares its noise.
    pub fn new(config: &WorldConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let seed = config.seed.value();
        let (sea, version, nature) = (config.sea_level, config.version, config.nature.as_ref());
        let terrain: Arc<dyn Terrain> = match &config.generator {
            GeneratorConfig::Density(d) => Arc::new(DensityGen::new(d, seed, sea, version, nature)),
            GeneratorConfig::Islands(i) => Arc::new(IslandGen::new(i, seed, sea, version, nature)),
        };
        Ok(Self {
            config: config.clone(),
            terrain,
        })
    }

    /// The config this generator was made from.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Air at or below this height is water.
    pub fn sea_level(&self) -> i32 {
        self.config.sea_level
    }

    /// The chunk at `pos`, padding included; empty air outside the world's bounds.
    pub fn generate(&self, pos: ChunkPos) -> Chunk {
        self.generate_tinted(pos).0
    }

    /// The chunk at `pos` and, in worlds with biomes, the grass tint of each of its
    /// padded columns (`None` for chunks with nothing to tint: uniform ones).
    pub fn generate_tinted(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        if !chunk_in_world(pos) {
            return (Chunk::Uniform(Block::Air), None);
        }
        self.terrain.generate(pos)
    }

    /// The chunk `lod` of any level of detail ([`LodPos`]): [`Generator::generate_tinted`]
    /// at level 0; further out each cell is the generator's verdict at its sample
    /// point, without caves or edits, trees as leaves, with skirts on its sides.
    /// Empty air outside the world's bounds.
    pub fn generate_coarse(&self, lod: LodPos) -> (Chunk, Option<Box<ColumnTints>>) {
        if lod.level == 0 {
            return self.generate_tinted(lod.pos);
        }
        let [x, y, z] = lod.origin();
        let e = lod.edge();
        let inside = |v: i64, limit: i32| v + e > -(limit as i64) && v < limit as i64;
        if !(inside(x, WORLD_LIMIT) && inside(z, WORLD_LIMIT) && inside(y, HEIGHT_LIMIT)) {
            return (Chunk::Uniform(Block::Air), None);
        }
        self.terrain.generate_coarse(lod)
    }

    /// Forgets what coarse chunks keep for the other chunks of their column (the
    /// density field's stacks and columns), so that the next coarse chunk of every
    /// column starts from nothing: for tests and benchmarks, which generate the same
    /// chunks again where a game makes each once.
    #[cfg(feature = "test-support")]
    pub fn forget_kept_coarse(&self) {
        self.terrain.forget_kept_coarse();
    }

    /// The biome of column `(x, z)`, in worlds with biomes (version 2 with `nature`);
    /// outside the world, the nearest column's inside it.
    pub fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        let (x, z) = (inside(x), inside(z));
        self.terrain.biome_at(x, z)
    }

    /// The chunk at `pos` evaluated naively, block by block, with no lattice, no
    /// early-outs and no column reuse: the yardstick for benchmarks. For islands this
    /// equals [`Generator::generate`]; for the density field it is the exact formula the
    /// lattice interpolates (biomes and trees as in `generate`).
    pub fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        if !chunk_in_world(pos) {
            return Chunk::Uniform(Block::Air);
        }
        self.terrain.generate_reference(pos)
    }

    /// The highest solid block of the terrain in column `(x, z)` (trees aside): stand
    /// on `y + 1` to be on the ground. Columns outside the world give the nearest
    /// column inside it.
    pub fn column_top(&self, x: i32, z: i32) -> ColumnTop {
        let (x, z) = (inside(x), inside(z));
        let (y, block, biome) = self.terrain.column_top(x, z);
        let water = self.terrain.water_tops(x, z, 1, 1).map(|w| w[0]);
        ColumnTop::new(y, block, biome, water.unwrap_or_default(), self.sea_level())
    }

    /// [`Generator::column_top`] of the `w` x `h` columns from `(x0, z0)`, row by row
    /// (`z`, then `x`): the same tops, sharing the work of neighbouring columns (the
    /// density field walks each 4 x 4 cell of its lattice once).
    pub fn column_tops(&self, x0: i32, z0: i32, w: u32, h: u32) -> Vec<ColumnTop> {
        let within =
            |v: i32, n: u32| v >= -WORLD_LIMIT && v as i64 + n as i64 <= WORLD_LIMIT as i64;
        if !(within(x0, w) && within(z0, h)) {
            return (0..h as i64)
                .flat_map(|dz| (0..w as i64).map(move |dx| (dx, dz)))
                .map(|(dx, dz)| {
                    let c = |v: i32, d: i64| {
                        (v as i64 + d).clamp(i32::MIN as i64, i32::MAX as i64) as i32
                    };
                    self.column_top(c(x0, dx), c(z0, dz))
                })
                .collect();
        }
        let tops = self.terrain.column_tops(x0, z0, w as usize, h as usize);
        let water = self.terrain.water_tops(x0, z0, w as usize, h as usize);
        let sea = self.sea_level();
        tops.into_iter()
            .enumerate()
            .map(|(i, (y, block, biome))| {
                let w = water.as_ref().map(|w| w[i]).unwrap_or_default();
                ColumnTop::new(y, block, biome, w, sea)
            })
            .collect()
    }

    /// A height no column's terrain rises above (trees aside), from the config: what
    /// an export sizes its world by before it looks at the columns.
    pub fn highest_possible(&self) -> i32 {
        self.terrain.highest_possible()
    }

    /// Height of the highest solid block of column `(x, z)`.
    pub fn surface_height(&self, x: i32, z: i32) -> i32 {
        self.column_top(x, z).y
    }

    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]`, for the
    /// island generator; empty for the density generator.
    pub fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        self.terrain.islands_near(x0, z0, x1, z1)
    }

    /// Whether a tree may stand within reach of column `(x, z)` (its trunk within
    /// two blocks, in a biome that grows trees there).
    pub fn tree_near(&self, x: i32, z: i32) -> bool {
        let Some(n) = self.config.nature.as_ref().filter(|n| n.tree_density > 0.0) else {
            return false;
        };
        let c = trees::CROWN;
        trees::trunks(
            self.config.seed.value(),
            n.tree_spacing,
            x - c,
            z - c,
            x + c,
            z + c,
        )
        .iter()
        .any(|t| {
            self.biome_at(t.x, t.z)
                .is_some_and(|b| b.tree(t, n.tree_density).is_some())
        })
    }

    /// About how many noise octaves [`Generator::column_top`] evaluates at most.
    pub fn column_cost(&self) -> usize {
        self.terrain.column_cost()
    }
}

/// The nearest column coordinate inside the world.
pub(crate) fn inside(v: i32) -> i32 {
    v.clamp(-WORLD_LIMIT, WORLD_LIMIT - 1)
}
