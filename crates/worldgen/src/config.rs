//! World configuration: the seed, the generator and every parameter, as one serde
//! value that round-trips through RON. Parsing and validation (which names the field,
//! the bad value and what is allowed) are in `validate`.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::seed::Seed;

/// The version of the generators' output. A world code carries it; a config with
/// another version is refused rather than silently giving a different world.
pub const GENERATOR_VERSION: u32 = 1;

/// Everything that decides a world: same config, same blocks, bit for bit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldConfig {
    /// Must equal [`GENERATOR_VERSION`].
    pub version: u32,
    /// The seed, as text.
    pub seed: Seed,
    /// Air at or below this height is water.
    pub sea_level: i32,
    /// The generator and its parameters.
    pub generator: GeneratorConfig,
}

/// Which generator makes the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GeneratorConfig {
    /// The 3D density field ("Cliffs").
    Density(DensityConfig),
    /// The 2D heightmap with an island falloff ("Islands").
    Islands(IslandConfig),
}

/// The base noise an fBm sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoiseKind {
    /// Classic gradient noise.
    Perlin,
    /// OpenSimplex: fewer directional artefacts than Perlin.
    OpenSimplex,
    /// SuperSimplex: smooth OpenSimplex variant.
    SuperSimplex,
}

impl NoiseKind {
    /// Every noise kind.
    pub const ALL: [NoiseKind; 3] = [
        NoiseKind::Perlin,
        NoiseKind::OpenSimplex,
        NoiseKind::SuperSimplex,
    ];
}

/// Fractal Brownian motion settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseConfig {
    /// Base noise.
    pub kind: NoiseKind,
    /// Frequency of the first octave, in cycles per block (`0 < f <= 1`).
    pub frequency: f64,
    /// Number of octaves, `1..=16`.
    pub octaves: u32,
    /// Amplitude factor per octave, `0 < p <= 1`.
    pub persistence: f64,
    /// Frequency factor per octave, `1 <= l <= 8`.
    pub lacunarity: f64,
}

/// Parameters of the 3D density generator:
/// `density = (n + cliff) * scale + offset - y`, `cliff = (n * 0.5 + 0.5) * cliff_scale`,
/// solid where `density > threshold`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DensityConfig {
    /// The fBm `n`.
    pub noise: NoiseConfig,
    /// Vertical stretch in blocks (`0 < scale <= 1024`).
    pub scale: f64,
    /// Base terrain height in blocks (`|offset| <= 4096`).
    pub offset: f64,
    /// Extra relief on high noise (`0 <= cliff_scale <= 16`).
    pub cliff_scale: f64,
    /// Solid where the density exceeds this (`|threshold| <= 1024`).
    pub threshold: f64,
    /// Surface blocks at or above this height are snow.
    pub snow_line: i32,
}

/// Where the islands are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum IslandLayout {
    /// One island around the origin plus `centre_offset`; ocean forever beyond it.
    Single,
    /// One island per cell of a square grid (a cell centred on `centre_offset`), each
    /// island jittered inside its cell and varied in size.
    Archipelago {
        /// Cell side in blocks; must be at least twice the island radius so islands
        /// stay separate.
        cell_size: f64,
        /// How far a centre may move from its cell's middle, as a fraction `0..=1`
        /// of the room the island leaves in the cell.
        jitter: f64,
    },
}

/// Height bands of the island generator: the upper bound of each band on the
/// normalised height `0..1`, ascending. Above `rock` is snow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bands {
    /// Top of deep water.
    pub deep_water: f64,
    /// Top of shallow water: this band's top is sea level.
    pub shallow_water: f64,
    /// Top of beaches.
    pub sand: f64,
    /// Top of grassland.
    pub grass: f64,
    /// Top of forest.
    pub forest: f64,
    /// Top of bare rock; snow above.
    pub rock: f64,
}

/// Parameters of the 2D island generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IslandConfig {
    /// Base noise.
    pub kind: NoiseKind,
    /// Blocks per noise unit of the first octave (`>= 1`).
    pub noise_scale: f64,
    /// Number of octaves, `1..=16`.
    pub octaves: u32,
    /// Amplitude factor per octave, `0 < p <= 1`.
    pub persistence: f64,
    /// Frequency factor per octave, `1 <= l <= 8`.
    pub lacunarity: f64,
    /// Island size in blocks (`> 0`): with `radius` it sets where the falloff reaches 1.
    pub island_size: f64,
    /// Fraction of `island_size` at which the sea is reached (`0 < radius <= 4`).
    pub radius: f64,
    /// Falloff steepness `a`, `1..=5`.
    pub steepness: f64,
    /// Falloff attenuation `b`, `(0, 1]`.
    pub attenuation: f64,
    /// Shift of the island centre (or the archipelago grid) in blocks, `[x, z]`.
    pub centre_offset: [f64; 2],
    /// Blocks of height between normalised height 0 and 1 (`1..=512`).
    pub height_scale: f64,
    /// Height bands.
    pub bands: Bands,
    /// One island or many.
    pub layout: IslandLayout,
}

/// Why a config is not usable.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ConfigError {
    /// A field holds a value outside its allowed range.
    #[error("`{field}` = {value} is invalid: expected {expected}")]
    Invalid {
        /// Dotted path of the field, e.g. `generator.noise.octaves`.
        field: String,
        /// The value found.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// The text is not valid RON for a world config.
    #[error("line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
}

impl ConfigError {
    /// The dotted field path for an invalid value, if that is the error.
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::Invalid { field, .. } => Some(field),
            ConfigError::Parse { .. } => None,
        }
    }
}

impl WorldConfig {
    /// The config as pretty, multi-line RON (for files).
    pub fn to_ron_pretty(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("a world config always serialises")
    }

    /// The config as one line of RON: the world code a user shares.
    pub fn to_world_code(&self) -> String {
        ron::to_string(self).expect("a world config always serialises")
    }

    /// The same config with another seed.
    pub fn with_seed(mut self, seed: Seed) -> Self {
        self.seed = seed;
        self
    }

    /// A short name of the generator: "Cliffs" or "Islands".
    pub fn generator_name(&self) -> &'static str {
        match self.generator {
            GeneratorConfig::Density(_) => "Cliffs",
            GeneratorConfig::Islands(_) => "Islands",
        }
    }
}
