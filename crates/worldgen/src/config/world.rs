//! World configuration: the seed, the generator and every parameter, as one serde
//! value that round-trips through RON. Parsing and validation (which names the field,
//! the bad value and what is allowed) are in `validate`. Every section refuses fields
//! it does not have: a misspelt optional section (`natur:`) would otherwise be dropped
//! silently, giving a different world.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::config::seed::Seed;
use crate::noise::erosion::ErosionParams;
use crate::noise::fbm::NoiseKind;

/// The version of the generators' output that new worlds get. A world code carries
/// its version; every older version is still generated exactly as it was (see
/// [`SUPPORTED_VERSIONS`]), and a config with an unknown version is refused rather than
/// silently giving a different world.
///
/// - **1**: the density field with one `offset`/`scale`/`cliff_scale` everywhere, and
///   the island falloff on a grid of similar islands; block rules by height only.
/// - **2**: `nature` (climate, biomes, trees) for both generators, `shape` (terrain
///   parameters that vary over the land, rivers) for the density field, and islands of
///   varied size and shape with empty cells.
/// - **3**: `caves` for the density field (caverns, tunnels and thin passages carved
///   from the rock, ores and gravel around them). Without `caves` a version-3 world
///   is its version-2 world.
/// - **4**: `shape.relief` for the density field: mountain ranges along ridge lines,
///   jagged peaks and the erosion filter's gullies, and surface blocks by slope
///   (bare rock and slate on steep faces, scree in gullies), trees thinning with
///   altitude and never on cliffs or over a cave's mouth. Without `relief` a version-4
///   world is its version-3 world, except for those tree and surface rules.
/// - **5**: `shape.water`: springs, rivers that always run downhill to the sea, lakes
///   above sea level and waterfalls, the ground shaped to them. Without `water` a
///   version-5 world is its version-4 world.
/// - **6**: water never stands beside open air with no water below it (a dry column
///   beside higher water is raised to its level with a bank of rock, a buried bed
///   beside it dug out down to its water), and big rivers wind in bends over
///   floodplains while creeks keep their gorges. Without `water` a version-6 world
///   is its version-5 world.
/// - **7**: the valley walls rivers cut through the ranges carry the erosion
///   filter's gullies down to the river (in version 6 a wall was a bare slope and
///   the gullies above it ended at its top). Without `water` or `relief` a
///   version-7 world is its version-6 world.
/// - **8**: streams that run: a river's course is laid under the 32-block node grid
///   (the nodes' places moved by a smooth warp of the land, each step bowed toward
///   the lower land beside it), and its water runs down it in every column, a
///   cascade of one-block steps at most half a block a block, a waterfall at the
///   step's middle where the land drops more; lakes follow their nodes' places.
///   Without `water` a version-8 world is its version-7 world.
/// - **9**: the same courses, each run of one (a step's pieces on one side of its
///   waterfall) shaping the ground and the water of a column by its piece nearest
///   the column alone, where in version 8 every piece within reach did (a bank or
///   valley wall follows the water's level beside it, not the lowest or highest
///   level along the step). Without `water` a version-9 world is its version-8
///   world.
pub const GENERATOR_VERSION: u32 = 9;

/// Every generator version this build generates.
pub const SUPPORTED_VERSIONS: std::ops::RangeInclusive<u32> = 1..=GENERATOR_VERSION;

/// Everything that decides a world: same config, same blocks, bit for bit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldConfig {
    /// One of [`SUPPORTED_VERSIONS`].
    pub version: u32,
    /// The seed, as text.
    pub seed: Seed,
    /// Air at or below this height is water.
    pub sea_level: i32,
    /// The generator and its parameters.
    pub generator: GeneratorConfig,
    /// Climate, biomes and trees (version 2). Absent: bare terrain with block rules
    /// by height, as in version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nature: Option<NatureConfig>,
}

/// Climate, biomes and trees (version 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NatureConfig {
    /// Blocks per cycle of the temperature noise (`256..=65536`).
    pub temperature_scale: f64,
    /// Blocks per cycle of the humidity noise (`256..=65536`).
    pub humidity_scale: f64,
    /// Trees relative to each biome's own density: 0 none, 1 as the biome says
    /// (`0..=4`).
    pub tree_density: f64,
    /// Side of the tree grid's cells in blocks: at most one tree a cell (`4..=32`).
    pub tree_spacing: i32,
}

/// A piecewise-linear curve through `[x, y]` points with ascending `x`; flat beyond
/// its first and last point. Written in RON as a list: `[(-1.0, -40.0), (1.0, 30.0)]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Spline(pub Vec<[f64; 2]>);

impl Spline {
    /// The curve's value at `x`.
    #[inline]
    pub fn at(&self, x: f64) -> f64 {
        let p = &self.0;
        let Some(first) = p.first() else { return 0.0 };
        if x <= first[0] {
            return first[1];
        }
        for w in p.windows(2) {
            let ([x0, y0], [x1, y1]) = (w[0], w[1]);
            if x <= x1 {
                return y0 + (y1 - y0) * ((x - x0) / (x1 - x0));
            }
        }
        p[p.len() - 1][1]
    }

    /// The lowest and highest value the curve takes.
    pub fn range(&self) -> (f64, f64) {
        self.0
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p[1]), hi.max(p[1]))
            })
    }
}

/// Terrain that varies over the land (version 2), as Minecraft 1.18's noise router:
/// three low-frequency noises in world coordinates (continentalness, erosion, and
/// "weirdness", folded into peaks-and-valleys) pass through splines into the density
/// formula's `offset`, `scale` and `cliff_scale` for each column:
///
/// ```text
/// pv          = 1 - |3|w| - 2|                      -1 valleys .. 1 peaks
/// base        = height(c)                           blocks above `offset`
/// land        = smoothstep(0, 12, base)             0 at the coast, 1 inland
/// offset'     = offset + base + land * mountains(e) * peaks(pv)
/// scale'      = scale * roughness(e) * (0.3 + 0.7 * land)
/// cliff'      = cliff_scale * crags(e)
/// river       = smoothstep(2 - 2|w| / rivers.width) 1 in the channel's middle half
/// river'      = river * smoothstep((base + 8) / 8)   rivers fade out below sea level
/// offset''    = min(offset', lerp(offset', sea_level - rivers.depth, river'))
/// scale''     = lerp(scale', min(scale', 2), river')
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapeConfig {
    /// Blocks per cycle of the continentalness noise (`256..=65536`).
    pub continent_scale: f64,
    /// Blocks per cycle of the erosion noise (`256..=65536`).
    pub erosion_scale: f64,
    /// Blocks per cycle of the weirdness noise behind peaks, valleys and rivers
    /// (`256..=65536`).
    pub ridge_scale: f64,
    /// Continentalness (-1..1) to base height in blocks above `offset`: deep ocean,
    /// coast, inland.
    pub height: Spline,
    /// Erosion (-1..1) to mountain height in blocks: low erosion is mountains.
    pub mountains: Spline,
    /// Peaks-and-valleys (-1..1) to the share of the mountain height.
    pub peaks: Spline,
    /// Erosion (-1..1) to a factor of `scale`: rough hills or flat plains.
    pub roughness: Spline,
    /// Erosion (-1..1) to a factor of `cliff_scale`: crags.
    pub crags: Spline,
    /// Rivers along the weirdness noise's zero line.
    pub rivers: RiverConfig,
    /// Mountain ranges, jagged peaks and erosion (version 4). Absent: the version-3
    /// shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relief: Option<Box<ReliefConfig>>,
    /// Water that runs downhill: springs, rivers, lakes and waterfalls (version 5).
    /// Absent: the version-4 world's water, all at sea level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub water: Option<Box<WaterConfig>>,
}

/// Water that runs downhill (version 5): a drainage network that is a property of the
/// world. On a grid of nodes every 32 blocks, each node's expected ground (the shape
/// and the ranges, without gullies) sends water to its lowest neighbour; a node with
/// none is a basin's floor, which fills to its lowest rim and spills over it. Springs
/// are drawn on high ground and traced down to the sea; each node carries a water
/// level that never rises downstream (see `docs/design.md`). Rivers widen with the
/// springs that feed them; the ground is shaped to the water, not the other way round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaterConfig {
    /// Springs per square kilometre of ground at least `spring_height` above the sea
    /// (`0..=64`).
    pub springs: f64,
    /// The lowest a spring rises, in blocks above the sea (`8..=512`).
    pub spring_height: f64,
    /// How wide a river grows with the springs that feed it (`0.25..=4`).
    pub width: f64,
    /// The least depth of a basin, in blocks, that holds a lake; a shallower basin is
    /// crossed by its river at its level, between embankments (`0..=64`).
    pub lake_depth: f64,
    /// Share of the waterfalls 16 or more blocks above the sea with a small lake (a
    /// tarn) on their lip (`0..=1`).
    pub tarns: f64,
}

/// Mountain ranges (version 4), lifted on top of the shape's `offset` before rivers
/// cut it. At each lattice column, with `n` a 3-octave ridge noise and `j` a 3-octave
/// jag noise in world coordinates:
///
/// ```text
/// mask   = ranges(e) * smoothstep((height(c) - 2) / 8)    mountain land, not coasts
///          * smoothstep((|w| - rivers.width) / valley_width)  valleys fall to rivers
/// n      = ridge noise at (along / elongation, across)  the seed's trend: along
/// crest  = max(0, 1 - |n|' / 0.12) ^ sharpness        1 on a ridge line, 0 between
///          (|n|' = sqrt(n² + 0.018²) - 0.018, a rounded |n|)
/// lift   = mask * range_height * crest
/// lift  += mask * erosion(x, z, gradient of lift)     gullies, ridges, V-valleys
/// lift  += jaggedness * smoothstep(lift / range_height * 2 - 0.6)
///          * (j if j > 0 else j / 2)                  jagged peaks on the highest ground
/// ```
///
/// The ridge noise's zero lines are long, winding and branching, stretched along the
/// seed's trend, so the ranges are too; the valleys between them, and the valleys
/// rivers run in, stay low.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReliefConfig {
    /// Blocks per cycle of the ridge noise: the spacing of the ranges (`256..=65536`).
    pub range_scale: f64,
    /// Height of a range's crest above the land around it, in blocks (`0..=400`).
    pub range_height: f64,
    /// How pointed the ranges are: the exponent of the ridge profile (`1..=4`).
    pub sharpness: f64,
    /// How much longer than wide the ranges run along their trend, a direction drawn
    /// from the seed (`1..=4`; 1 winds every way).
    pub elongation: f64,
    /// Erosion (-1..1) to how much of `range_height` stands there (`0..=1`): ranges
    /// rise where erosion is low.
    pub ranges: Spline,
    /// How far beyond a river's channel, on the weirdness noise, the ranges reach
    /// full height (`0.01..=1`): the width of the valleys rivers run in.
    pub valley_width: f64,
    /// Height of the jagged spikes on the highest ground, in blocks (`0..=64`).
    pub jaggedness: f64,
    /// Blocks per cycle of the jag noise (`16..=512`).
    pub jag_scale: f64,
    /// The erosion filter (gullies, sharp ridges, V-shaped valleys). Absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erosion: Option<ErosionConfig>,
}

impl ReliefConfig {
    /// The most these ranges can lift a column, in blocks (validation bounds the
    /// surface with it).
    pub(crate) fn highest_lift(&self) -> f64 {
        let erosion = self
            .erosion
            .as_ref()
            .map_or(0.0, |e| 2.0 * e.params().magnitude());
        self.range_height * self.ranges.range().1.max(0.0) + erosion + self.jaggedness
    }
}

/// The erosion filter's main settings (version 4; see `terravox_worldgen::erosion`,
/// whose other settings keep their defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErosionConfig {
    /// Blocks between the largest gullies; depths scale with it (`16..=512`).
    pub scale: f64,
    /// Depth of the gullies as a share of `scale` (`0..=0.5`).
    pub strength: f64,
    /// How much of the depth is gullies rather than sharpened peaks (`0..=1`).
    pub gully_weight: f64,
    /// Lower keeps fine gullies to the steepest slopes (`0.1..=4`).
    pub detail: f64,
    /// Octaves, each twice as fine (`1..=6`); the smallest gullies must stay at least
    /// 8 blocks apart (`scale / 2^(octaves - 1) >= 8`).
    pub octaves: u32,
}

impl ErosionConfig {
    /// The filter parameters of these settings: its fields, the rest upstream's
    /// defaults.
    pub(crate) fn params(&self) -> ErosionParams {
        ErosionParams {
            scale: self.scale,
            strength: self.strength,
            gully_weight: self.gully_weight,
            detail: self.detail,
            octaves: self.octaves,
            ..ErosionParams::default()
        }
    }
}

/// Rivers (version 2): channels cut down below sea level where the weirdness noise is
/// near zero, so they wind for kilometres and are filled by the sea's water.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiverConfig {
    /// Half-width of a channel on the weirdness noise (`0..=0.2`; 0 turns rivers off).
    pub width: f64,
    /// Depth of a channel's middle below sea level, in blocks (`1..=32`).
    pub depth: f64,
}

/// Which generator makes the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GeneratorConfig {
    /// The 3D density field ("Cliffs").
    Density(DensityConfig),
    /// The 2D heightmap with an island falloff ("Islands").
    Islands(IslandConfig),
}

/// Fractal Brownian motion settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
    /// Terrain that varies over the land, rivers (version 2). Absent: the same
    /// `offset`, `scale` and `cliff_scale` everywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ShapeConfig>,
    /// Caves (version 3). Absent: solid rock under the surface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caves: Option<CaveConfig>,
}

/// Caves (version 3), carved from the rock in the density domain as in Minecraft
/// 1.18, on the same lattice as the terrain. At each lattice point, in noise units:
///
/// ```text
/// cavern  = c - (0.6 - 0.6 * cavern_size)            c: 2-octave fBm, cavern_scale
/// tunnel  = (tunnel_width² - a² - b²) / tunnel_width  a, b: noises, tunnel_scale
/// passage = (passage_width² - e² - f²) / passage_width e, f: noises, passage_scale
/// fade    = S * max(
///             clamp01((surface_fade - d) / surface_fade) * (1 - open(x, z)),
///             clamp01((surface_fade + 8 - d) / (surface_fade + 8)) under water,
///             clamp01((sea_level - depth + 16 - y) / 16))
/// carve   = max(max(cavern, tunnel, passage) - fade, -0.05)
/// ```
///
/// `d` is the lowest terrain density the point's first noise octave allows (at most
/// its depth below the surface in blocks: the fades are conservative), `S` the strongest any cave can be plus 0.05, so caves fade out towards
/// the surface (except where the 2D `open` noise makes an entrance), stay 8 blocks
/// further below a sea or river bed, and stop above `sea_level - depth`. The carve
/// value is interpolated like the density; a block is cave air where it is solid and
/// the carve value is positive, unless water lies right above it (a seal).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaveConfig {
    /// Blocks per cycle of the cavern noise (`32..=1024`).
    pub cavern_scale: f64,
    /// How much of the rock caverns hollow out (`0..=1`; 0 none).
    pub cavern_size: f64,
    /// Blocks per cycle of the tunnel noises (`32..=1024`).
    pub tunnel_scale: f64,
    /// Tunnel thickness on their noises (`0..=0.3`; 0 none).
    pub tunnel_width: f64,
    /// Blocks per cycle of the thin passages' noises (`16..=512`).
    pub passage_scale: f64,
    /// Passage thickness on their noises (`0..=0.2`; 0 none).
    pub passage_width: f64,
    /// How far below sea level caves reach, in blocks (`16..=512`).
    pub depth: f64,
    /// Blocks below the surface over which caves fade in (`4..=64`).
    pub surface_fade: f64,
    /// How often caves open to the surface (`0..=1`; 0 never).
    pub openings: f64,
}

/// Where the islands are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
    /// The text has a field its section does not have (often a misspelling).
    #[error(
        "line {line}, column {column}: unknown field `{field}` in the world config; {}",
        known_fields(suggestion.as_deref(), expected)
    )]
    UnknownField {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// Dotted path of the unknown field, e.g. `generator.noise.octavs`.
        field: String,
        /// Dotted path of the section's field nearest in spelling, if one is close.
        suggestion: Option<String>,
        /// Every field the section has.
        expected: &'static [&'static str],
    },
}

/// The end of an unknown field's message: the suggestion, else every known field.
fn known_fields(suggestion: Option<&str>, expected: &[&str]) -> String {
    match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None if expected.is_empty() => "this section has no fields".to_owned(),
        None => format!("the fields here are `{}`", expected.join("`, `")),
    }
}

impl ConfigError {
    /// The dotted field path of an invalid value or an unknown field, if that is the
    /// error.
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::Invalid { field, .. } | ConfigError::UnknownField { field, .. } => {
                Some(field)
            }
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

    /// A short name of the generator: "Continents" (density with a shape), "Cliffs"
    /// or "Islands".
    pub fn generator_name(&self) -> &'static str {
        match &self.generator {
            GeneratorConfig::Density(d) if d.shape.is_some() => "Continents",
            GeneratorConfig::Density(_) => "Cliffs",
            GeneratorConfig::Islands(_) => "Islands",
        }
    }
}
