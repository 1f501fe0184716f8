//! World configuration: the seed, the generator and every parameter, as one serde
//! value that round-trips through RON. Validation names the field, the bad value and
//! what is allowed.

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

/// Collects range checks with field paths.
struct Check {
    errors: Vec<ConfigError>,
}

impl Check {
    fn fail(&mut self, field: &str, value: impl std::fmt::Display, expected: &str) {
        self.errors.push(ConfigError::Invalid {
            field: field.to_owned(),
            value: value.to_string(),
            expected: expected.to_owned(),
        });
    }

    /// `lo (<|<=) v (<|<=) hi`, and finite.
    fn range(&mut self, field: &str, v: f64, lo: f64, lo_open: bool, hi: f64, hi_open: bool) {
        let ok = v.is_finite()
            && (if lo_open { v > lo } else { v >= lo })
            && (if hi_open { v < hi } else { v <= hi });
        if !ok {
            let expected = format!(
                "a finite number in {}{lo}, {hi}{}",
                if lo_open { "(" } else { "[" },
                if hi_open { ")" } else { "]" }
            );
            self.fail(field, v, &expected);
        }
    }

    fn int_range(&mut self, field: &str, v: i64, lo: i64, hi: i64) {
        if !(lo..=hi).contains(&v) {
            self.fail(field, v, &format!("an integer in {lo}..={hi}"));
        }
    }

    fn octaves(&mut self, field: &str, v: u32) {
        self.int_range(field, v as i64, 1, 16);
    }
    fn persistence(&mut self, field: &str, v: f64) {
        self.range(field, v, 0.0, true, 1.0, false);
    }
    fn lacunarity(&mut self, field: &str, v: f64) {
        self.range(field, v, 1.0, false, 8.0, false);
    }
}

/// Heights that stay far from `i32` overflow in any arithmetic the generators do.
const HEIGHT_LIMIT: i64 = 1 << 20;

impl WorldConfig {
    /// Every problem with this config, each naming its field. Empty when valid.
    pub fn problems(&self) -> Vec<ConfigError> {
        let mut c = Check { errors: Vec::new() };
        if self.version != GENERATOR_VERSION {
            c.fail(
                "version",
                self.version,
                &format!("{GENERATOR_VERSION} (this build's generator version)"),
            );
        }
        c.int_range(
            "sea_level",
            self.sea_level as i64,
            -HEIGHT_LIMIT,
            HEIGHT_LIMIT,
        );
        match &self.generator {
            GeneratorConfig::Density(d) => {
                let n = &d.noise;
                c.range(
                    "generator.noise.frequency",
                    n.frequency,
                    0.0,
                    true,
                    1.0,
                    false,
                );
                c.octaves("generator.noise.octaves", n.octaves);
                c.persistence("generator.noise.persistence", n.persistence);
                c.lacunarity("generator.noise.lacunarity", n.lacunarity);
                c.range("generator.scale", d.scale, 0.0, true, 1024.0, false);
                c.range("generator.offset", d.offset, -4096.0, false, 4096.0, false);
                c.range(
                    "generator.cliff_scale",
                    d.cliff_scale,
                    0.0,
                    false,
                    16.0,
                    false,
                );
                c.range(
                    "generator.threshold",
                    d.threshold,
                    -1024.0,
                    false,
                    1024.0,
                    false,
                );
                c.int_range(
                    "generator.snow_line",
                    d.snow_line as i64,
                    -HEIGHT_LIMIT,
                    HEIGHT_LIMIT,
                );
            }
            GeneratorConfig::Islands(i) => {
                c.range(
                    "generator.noise_scale",
                    i.noise_scale,
                    1.0,
                    false,
                    1e6,
                    false,
                );
                c.octaves("generator.octaves", i.octaves);
                c.persistence("generator.persistence", i.persistence);
                c.lacunarity("generator.lacunarity", i.lacunarity);
                c.range(
                    "generator.island_size",
                    i.island_size,
                    0.0,
                    true,
                    1e6,
                    false,
                );
                c.range("generator.radius", i.radius, 0.0, true, 4.0, false);
                c.range("generator.steepness", i.steepness, 1.0, false, 5.0, false);
                c.range(
                    "generator.attenuation",
                    i.attenuation,
                    0.0,
                    true,
                    1.0,
                    false,
                );
                c.range(
                    "generator.centre_offset[0]",
                    i.centre_offset[0],
                    -1e6,
                    false,
                    1e6,
                    false,
                );
                c.range(
                    "generator.centre_offset[1]",
                    i.centre_offset[1],
                    -1e6,
                    false,
                    1e6,
                    false,
                );
                c.range(
                    "generator.height_scale",
                    i.height_scale,
                    1.0,
                    false,
                    512.0,
                    false,
                );
                let b = &i.bands;
                let bands = [
                    ("generator.bands.deep_water", b.deep_water),
                    ("generator.bands.shallow_water", b.shallow_water),
                    ("generator.bands.sand", b.sand),
                    ("generator.bands.grass", b.grass),
                    ("generator.bands.forest", b.forest),
                    ("generator.bands.rock", b.rock),
                ];
                let mut below = 0.0;
                for (field, v) in bands {
                    if !(v.is_finite() && v > below && v < 1.0) {
                        c.fail(
                            field,
                            v,
                            &format!("a number in ({below}, 1), above the band below it"),
                        );
                    } else {
                        below = v;
                    }
                }
                if let IslandLayout::Archipelago { cell_size, jitter } = i.layout {
                    let reach = i.island_size * i.radius;
                    c.range("generator.layout.jitter", jitter, 0.0, false, 1.0, false);
                    if !(cell_size.is_finite() && cell_size >= 2.0 * reach && cell_size <= 1e6) {
                        c.fail(
                            "generator.layout.cell_size",
                            cell_size,
                            &format!(
                                "a finite number in [{}, 1000000] (twice island_size * radius)",
                                2.0 * reach
                            ),
                        );
                    }
                }
            }
        }
        c.errors
    }

    /// `Ok` when valid, else the first problem.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Parses a config from RON text (a file or a world code) and validates it.
    pub fn from_ron(text: &str) -> Result<Self, ConfigError> {
        let cfg: WorldConfig = ron::from_str(text).map_err(|e| ConfigError::Parse {
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        cfg.validate()?;
        Ok(cfg)
    }

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

impl Default for WorldConfig {
    /// The default world: the `cliffs` preset.
    fn default() -> Self {
        crate::presets::builtin("cliffs").expect("the cliffs preset is built in and valid")
    }
}
