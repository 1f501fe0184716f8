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
//! generators), [`map`] (top-down images).

pub mod config;
mod density;
mod fbm;
mod islands;
pub mod map;
pub mod params;
pub mod presets;
pub mod reference;
pub mod seed;
mod surface;
mod validate;

pub use config::{
    Bands, ConfigError, DensityConfig, GENERATOR_VERSION, GeneratorConfig, IslandConfig,
    IslandLayout, NoiseConfig, NoiseKind, WorldConfig,
};
pub use islands::Island;
pub use presets::LoadError;
pub use seed::Seed;

use terravox_voxel::{Block, Chunk, ChunkPos};

use density::DensityGen;
use islands::IslandGen;

/// The world's horizontal bounds: block columns `x` and `z` lie in
/// `-WORLD_LIMIT..WORLD_LIMIT` (about a billion blocks each way). Maps and the
/// command line refuse positions beyond them.
pub const WORLD_LIMIT: i32 = 1 << 30;

/// A validated, ready-to-use world generator.
#[derive(Clone, Debug)]
pub struct Generator {
    config: WorldConfig,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    Density(DensityGen),
    Islands(IslandGen),
}

/// The top of one column: its highest solid block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnTop {
    /// Height of the highest solid block.
    pub y: i32,
    /// That block.
    pub block: Block,
}

impl Generator {
    /// Validates `config` and prepares its noise.
    pub fn new(config: &WorldConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let seed = config.seed.value();
        let kind = match &config.generator {
            GeneratorConfig::Density(d) => {
                Kind::Density(DensityGen::new(d, seed, config.sea_level))
            }
            GeneratorConfig::Islands(i) => Kind::Islands(IslandGen::new(i, seed, config.sea_level)),
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

    /// The chunk at `pos`, padding included.
    pub fn generate(&self, pos: ChunkPos) -> Chunk {
        match &self.kind {
            Kind::Density(g) => g.generate(pos),
            Kind::Islands(g) => g.generate(pos),
        }
    }

    /// The chunk at `pos` evaluated naively, block by block, with no lattice, no
    /// early-outs and no column reuse: the yardstick for benchmarks. For islands this
    /// equals [`Generator::generate`]; for the density field it is the exact formula the
    /// lattice interpolates.
    pub fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        match &self.kind {
            Kind::Density(g) => g.generate_reference(pos),
            Kind::Islands(g) => {
                let o = pos.origin();
                Chunk::from_fn(|x, y, z| g.block_at(o.x + x, o.y + y, o.z + z))
            }
        }
    }

    /// The highest solid block of column `(x, z)`: stand on `y + 1` to be on the ground.
    pub fn column_top(&self, x: i32, z: i32) -> ColumnTop {
        let (y, block) = match &self.kind {
            Kind::Density(g) => g.column_top(x, z),
            Kind::Islands(g) => g.column_top(x, z),
        };
        ColumnTop { y, block }
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

    /// A dry place to stand near `(x, z)`: the nearest column (searching outwards in
    /// rings, up to `max_radius` blocks) whose top is above sea level. Returns the
    /// column and the height to stand at, or `None` if all of it is sea.
    pub fn find_land(&self, x: i32, z: i32, max_radius: i32) -> Option<[i32; 3]> {
        let step = 8;
        for r in (0..=max_radius).step_by(step as usize) {
            for (dx, dz) in ring(r) {
                let (cx, cz) = (x + dx, z + dz);
                let top = self.column_top(cx, cz);
                if top.y >= self.sea_level() {
                    return Some([cx, top.y + 1, cz]);
                }
            }
        }
        None
    }
}

/// The points of a square ring of half-size `r` (every 8 blocks along it).
fn ring(r: i32) -> Vec<(i32, i32)> {
    if r == 0 {
        return vec![(0, 0)];
    }
    let mut v = Vec::new();
    let mut t = -r;
    while t <= r {
        v.extend([(t, -r), (t, r), (-r, t), (r, t)]);
        t += 8;
    }
    v
}
