//! World generation for terravox: a [`WorldConfig`] (seed, generator, parameters) turns
//! into chunks, column heights and top-down maps.
//!
//! Two generators (see `docs/design.md`): a 3D density field ("Cliffs") and a 2D
//! heightmap with an island falloff ("Islands"). A [`Generator`] is `Send + Sync`,
//! holds no global state, and [`Generator::generate`] is a pure function of the config
//! and the chunk position: the same seed and settings give bit-identical chunks on any
//! thread, in any order. Pure Rust, no Bevy.
//!
//! Modules, lowest first: `seed` (seeds and fixed mixing), `config` (the serde world
//! config), [`params`] (every numeric parameter's range and tooltip, once),
//! `validate` (parsing and validation), `presets` (built-in worlds, config files),
//! [`reference`] (the generated parameter docs), `fbm` (seeded fractal noise),
//! `surface` (block rules both generators share), `density` and `islands` (the two
//! generators), [`map`] (top-down images), [`lod`] (coarse chunks for the horizon),
//! `search` (the spawn: [`Generator::find_land`], [`Generator::spawn`]).

mod biome;
mod caves;
mod climate;
pub mod config;
mod density;
pub mod erosion;
mod fbm;
mod islands;
pub mod lod;
pub mod map;
pub mod params;
pub mod presets;
pub mod reference;
mod relief;
mod search;
pub mod seed;
pub mod stats;
mod surface;
mod trees;
mod validate;

pub use biome::Biome;
pub use config::{
    Bands, CaveConfig, ConfigError, DensityConfig, ErosionConfig, GENERATOR_VERSION,
    GeneratorConfig, IslandConfig, IslandLayout, NatureConfig, NoiseConfig, NoiseKind,
    ReliefConfig, RiverConfig, SUPPORTED_VERSIONS, ShapeConfig, Spline, WorldConfig,
};
#[doc(hidden)]
pub use density::forget_recent_columns;
pub use islands::Island;
pub use lod::{LodPos, MAX_LEVEL};
pub use presets::LoadError;
pub use search::Spawn;
pub use seed::Seed;
pub use stats::{ReliefStats, relief_stats};
pub use trees::Species;

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints};

use density::DensityGen;
use islands::IslandGen;

/// The world's horizontal bounds: block columns `x` and `z` lie in
/// `-WORLD_LIMIT..WORLD_LIMIT` (about a billion blocks each way). Maps and the
/// command line refuse positions beyond them; chunks beyond them are empty.
pub const WORLD_LIMIT: i32 = 1 << 30;
/// The world's vertical bounds: heights lie in `-HEIGHT_LIMIT..HEIGHT_LIMIT`; chunks
/// beyond them are empty.
pub const HEIGHT_LIMIT: i32 = 1 << 20;
/// Below this height a player is put back at the spawn; validation keeps every
/// surface at least [`PLAYABLE_MARGIN`] blocks above it, so every world can be played.
pub const WORLD_FLOOR: i32 = -1024;
/// How far inside [`PLAYABLE_HEIGHTS`] every surface and sea level must stay: above
/// [`WORLD_FLOOR`], and below [`HEIGHT_LIMIT`] with room for a spawn over the sea.
pub const PLAYABLE_MARGIN: i32 = 64;
/// The heights a player can be at: from [`WORLD_FLOOR`] (below it a player is put back
/// at the spawn) to below [`HEIGHT_LIMIT`] (above it there are no chunks). A start
/// position (`--at`) must be one of them.
pub const PLAYABLE_HEIGHTS: std::ops::Range<i32> = WORLD_FLOOR..HEIGHT_LIMIT;
/// The heights a world's surface and sea level may take: [`PLAYABLE_HEIGHTS`] less
/// [`PLAYABLE_MARGIN`] at each end, so the spawn (on the land, or flying a little above
/// the sea) is always a playable height. Validation refuses worlds that leave it.
pub const SURFACE_HEIGHTS: std::ops::RangeInclusive<i32> =
    PLAYABLE_HEIGHTS.start + PLAYABLE_MARGIN..=PLAYABLE_HEIGHTS.end - PLAYABLE_MARGIN;

/// Whether every block of the chunk at `pos` lies inside the world's bounds (chunks
/// outside are empty air).
pub fn chunk_in_world(pos: ChunkPos) -> bool {
    let (h, v) = (
        (WORLD_LIMIT / terravox_voxel::CHUNK) as i64,
        (HEIGHT_LIMIT / terravox_voxel::CHUNK) as i64,
    );
    let inside = |c: i32, limit: i64| (-limit..limit).contains(&(c as i64));
    inside(pos.x, h) && inside(pos.z, h) && inside(pos.y, v)
}

/// A validated, ready-to-use world generator.
#[derive(Clone, Debug)]
pub struct Generator {
    config: WorldConfig,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    Density(Box<DensityGen>),
    Islands(Box<IslandGen>),
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
}

impl Generator {
    /// Validates `config` and prepares its noise.
    pub fn new(config: &WorldConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let seed = config.seed.value();
        let kind = match &config.generator {
            GeneratorConfig::Density(d) => Kind::Density(Box::new(DensityGen::new(
                d,
                seed,
                config.sea_level,
                config.version,
                config.nature.as_ref(),
            ))),
            GeneratorConfig::Islands(i) => Kind::Islands(Box::new(IslandGen::new(
                i,
                seed,
                config.sea_level,
                config.version,
                config.nature.as_ref(),
            ))),
        };
        Ok(Self {
            config: config.clone(),
            kind,
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
        match &self.kind {
            Kind::Density(g) => g.generate(pos),
            Kind::Islands(g) => g.generate(pos),
        }
    }

    /// The chunk `lod` of any level of detail ([`lod`]): [`Generator::generate_tinted`]
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
        match &self.kind {
            Kind::Density(g) => g.generate_coarse(lod),
            Kind::Islands(g) => g.generate_coarse(lod),
        }
    }

    /// The biome of column `(x, z)`, in worlds with biomes (version 2 with `nature`);
    /// outside the world, the nearest column's inside it.
    pub fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        let (x, z) = (inside(x), inside(z));
        match &self.kind {
            Kind::Density(g) => g.biome_at(x, z),
            Kind::Islands(g) => g.biome_at(x, z),
        }
    }

    /// The chunk at `pos` evaluated naively, block by block, with no lattice, no
    /// early-outs and no column reuse: the yardstick for benchmarks. For islands this
    /// equals [`Generator::generate`]; for the density field it is the exact formula the
    /// lattice interpolates (biomes and trees as in `generate`).
    pub fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        if !chunk_in_world(pos) {
            return Chunk::Uniform(Block::Air);
        }
        match &self.kind {
            Kind::Density(g) => g.generate_reference(pos),
            Kind::Islands(g) => g.generate_reference(pos),
        }
    }

    /// The highest solid block of the terrain in column `(x, z)` (trees aside): stand
    /// on `y + 1` to be on the ground. Columns outside the world give the nearest
    /// column inside it.
    pub fn column_top(&self, x: i32, z: i32) -> ColumnTop {
        let (x, z) = (inside(x), inside(z));
        let (y, block, biome) = match &self.kind {
            Kind::Density(g) => g.column_top(x, z),
            Kind::Islands(g) => g.column_top(x, z),
        };
        ColumnTop { y, block, biome }
    }

    /// Height of the highest solid block of column `(x, z)`.
    pub fn surface_height(&self, x: i32, z: i32) -> i32 {
        self.column_top(x, z).y
    }

    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]`, for the
    /// island generator; empty for the density generator.
    pub fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        match &self.kind {
            Kind::Density(_) => Vec::new(),
            Kind::Islands(g) => g.islands_near(x0, z0, x1, z1),
        }
    }

    /// A place to stand in a cave near column `(x, z)`, at least `min_depth` blocks
    /// under the surface: the feet on cave air with cave air for the eye above and a
    /// solid floor below. Searches the five chunk layers under the surface chunk of
    /// `(x, z)`'s chunk column and its four neighbours, top down; `None` if they hold
    /// no such cave (or the world has none). Generates up to 25 chunks.
    pub fn find_cave(&self, x: i32, z: i32, min_depth: i32) -> Option<[i32; 3]> {
        let limit = WORLD_LIMIT - 1;
        let (x, z) = (x.clamp(-limit, limit), z.clamp(-limit, limit));
        let top = ChunkPos::new(
            x.div_euclid(CHUNK),
            self.surface_height(x, z).div_euclid(CHUNK),
            z.div_euclid(CHUNK),
        );
        for y in (top.y - 5..top.y).rev() {
            for (dx, dz) in [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)] {
                let p = ChunkPos::new(top.x + dx, y, top.z + dz);
                let chunk = self.generate(p);
                if chunk.is_uniform() {
                    continue;
                }
                let o = p.origin();
                for i in 0..CHUNK * CHUNK * (CHUNK - 2) {
                    let (lx, ly, lz) = (i % CHUNK, i / (CHUNK * CHUNK), i / CHUNK % CHUNK);
                    let room = (0..3).all(|k| chunk.get(lx, ly + k, lz) == Block::CaveAir);
                    if room
                        && chunk.get(lx, ly - 1, lz).is_solid()
                        && o.y + ly + min_depth <= self.surface_height(o.x + lx, o.z + lz)
                    {
                        return Some([o.x + lx, o.y + ly, o.z + lz]);
                    }
                }
            }
        }
        None
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
        match &self.kind {
            Kind::Density(g) => g.column_cost(),
            Kind::Islands(g) => g.column_cost(),
        }
    }
}

/// The nearest column coordinate inside the world.
fn inside(v: i32) -> i32 {
    v.clamp(-WORLD_LIMIT, WORLD_LIMIT - 1)
}
