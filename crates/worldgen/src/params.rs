//! Every numeric world parameter, defined once: its field path, allowed range,
//! label and tooltip. The same tables drive validation ([`crate::WorldConfig::problems`]),
//! the game panel's sliders and the parameter reference in `docs/parameters.md`
//! ([`crate::reference::markdown_table`]), so the three can never disagree.
//!
//! Rules between fields (height bands ascending, archipelago cells wide enough for
//! their islands) are checked in `config.rs` on top of these ranges.

use crate::config::{
    CaveConfig, DensityConfig, IslandConfig, NatureConfig, ShapeConfig, WorldConfig,
};

/// How a parameter's value is entered and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A number on a linear slider.
    Linear,
    /// A number spanning orders of magnitude: a logarithmic slider.
    Log,
    /// A whole number.
    Integer,
}

/// What one parameter is and which values it allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Short label for sliders.
    pub label: &'static str,
    /// Lowest value.
    pub min: f64,
    /// Whether `min` itself is excluded.
    pub min_open: bool,
    /// Highest value.
    pub max: f64,
    /// Whether `max` itself is excluded.
    pub max_open: bool,
    /// How it is entered.
    pub scale: Scale,
    /// What it does, for tooltips and the docs.
    pub tooltip: &'static str,
}

impl Spec {
    /// Whether `v` is allowed (finite and in range; whole for integers).
    pub fn allows(&self, v: f64) -> bool {
        v.is_finite()
            && (if self.min_open {
                v > self.min
            } else {
                v >= self.min
            })
            && (if self.max_open {
                v < self.max
            } else {
                v <= self.max
            })
            && (self.scale != Scale::Integer || v.fract() == 0.0)
    }

    /// The allowed values in words, for error messages and the docs.
    pub fn expected(&self) -> String {
        match self.scale {
            Scale::Integer => format!("an integer in {}..={}", self.min, self.max),
            _ => format!(
                "a finite number in {}{}, {}{}",
                if self.min_open { "(" } else { "[" },
                self.min,
                self.max,
                if self.max_open { ")" } else { "]" }
            ),
        }
    }
}

/// One parameter of a config type `C`: where it lives and how to read and write it.
pub struct Param<C> {
    /// Field path below `generator` (or the world, for `sea_level`), as in errors.
    pub field: &'static str,
    /// Range, label and tooltip.
    pub spec: &'static Spec,
    /// Reads the value as `f64`.
    pub get: fn(&C) -> f64,
    /// Writes a value (integers are rounded towards zero).
    pub set: fn(&mut C, f64),
}

/// A [`Param`] from a spec, a field path and a place expression on `c`.
macro_rules! param {
    ($spec:expr, $field:literal, |$c:ident| $place:expr) => {
        Param {
            field: $field,
            spec: &$spec,
            get: |$c| $place as f64,
            set: |$c, v| $place = v as _,
        }
    };
}

/// Heights that stay far from `i32` overflow in any arithmetic the generators do.
const HEIGHT_LIMIT: f64 = (1 << 20) as f64;

/// fBm octaves, shared by both generators.
const OCTAVES: Spec = Spec {
    label: "octaves",
    min: 1.0,
    min_open: false,
    max: 16.0,
    max_open: false,
    scale: Scale::Integer,
    tooltip: "Noise layers, each finer than the last.",
};
/// fBm persistence, shared by both generators.
const PERSISTENCE: Spec = Spec {
    label: "persistence",
    min: 0.0,
    min_open: true,
    max: 1.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Amplitude kept per octave: higher is rougher.",
};
/// fBm lacunarity, shared by both generators.
const LACUNARITY: Spec = Spec {
    label: "lacunarity",
    min: 1.0,
    min_open: false,
    max: 8.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Frequency gained per octave.",
};

const SEA_LEVEL: Spec = Spec {
    label: "sea level",
    min: *crate::SURFACE_HEIGHTS.start() as f64,
    min_open: false,
    max: *crate::SURFACE_HEIGHTS.end() as f64,
    max_open: false,
    scale: Scale::Integer,
    tooltip: "Air at or below this height is water.",
};

/// The world-level parameters, for every generator.
pub const WORLD: [Param<WorldConfig>; 1] = [param!(SEA_LEVEL, "sea_level", |c| c.sea_level)];

const FREQUENCY: Spec = Spec {
    label: "frequency",
    min: 0.0,
    min_open: true,
    max: 1.0,
    max_open: false,
    scale: Scale::Log,
    tooltip: "Cycles per block of the first octave: smaller is broader terrain.",
};
const SCALE: Spec = Spec {
    label: "scale",
    min: 0.0,
    min_open: true,
    max: 1024.0,
    max_open: false,
    scale: Scale::Log,
    tooltip: "Vertical stretch of the density in blocks; octaves × scale × (2 + cliff scale) may be at most 2560.",
};
const OFFSET: Spec = Spec {
    label: "offset",
    min: -4096.0,
    min_open: false,
    max: 4096.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Base terrain height in blocks.",
};
const CLIFF_SCALE: Spec = Spec {
    label: "cliff scale",
    min: 0.0,
    min_open: false,
    max: 16.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Extra relief where the noise is high: cliffs and spires.",
};
const THRESHOLD: Spec = Spec {
    label: "threshold",
    min: -1024.0,
    min_open: false,
    max: 1024.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Solid where the density exceeds this.",
};
const SNOW_LINE: Spec = Spec {
    label: "snow line",
    min: -HEIGHT_LIMIT,
    min_open: false,
    max: HEIGHT_LIMIT,
    max_open: false,
    scale: Scale::Integer,
    tooltip: "Surface blocks at or above this height are snow.",
};

/// The 3D density generator's parameters (the noise kind is chosen from a list).
pub const DENSITY: [Param<DensityConfig>; 9] = [
    param!(FREQUENCY, "noise.frequency", |c| c.noise.frequency),
    param!(OCTAVES, "noise.octaves", |c| c.noise.octaves),
    param!(PERSISTENCE, "noise.persistence", |c| c.noise.persistence),
    param!(LACUNARITY, "noise.lacunarity", |c| c.noise.lacunarity),
    param!(SCALE, "scale", |c| c.scale),
    param!(OFFSET, "offset", |c| c.offset),
    param!(CLIFF_SCALE, "cliff_scale", |c| c.cliff_scale),
    param!(THRESHOLD, "threshold", |c| c.threshold),
    param!(SNOW_LINE, "snow_line", |c| c.snow_line),
];

/// The most [`relief_work`] a density world may have: the `amplified` preset's is
/// 2475, the default world's 324. Validation refuses more, naming `generator.scale`.
pub const MAX_RELIEF_WORK: f64 = 2560.0;

/// The relief work of a density world: `noise.octaves` times the height in blocks over
/// which one column's surface can lie, `scale * (2 + cliff_scale)` (with a shape, at
/// its largest `roughness` and `crags`).
///
/// A map finds a column's surface by walking down the lattice levels (8 blocks apart)
/// of the lattice columns around it from the highest possible surface, and a coarse
/// chunk decides every lattice node in that height: each node takes at most
/// `noise.octaves` noise octaves. So the work of a map's column and of a coarse
/// chunk's column is at most proportional to this figure (nothing else of the formula
/// counts), and [`MAX_RELIEF_WORK`] keeps every world's maps and horizon within ten
/// times the work of the default world's (`tests/work_bounds.rs` checks it). A rule
/// between fields, on top of the ranges.
pub fn relief_work(d: &DensityConfig) -> f64 {
    let (roughness, crags) = d
        .shape
        .as_ref()
        .map_or((1.0, 1.0), |s| (s.roughness.range().1, s.crags.range().1));
    d.noise.octaves as f64 * d.scale * roughness * (2.0 + d.cliff_scale * crags)
}

const NOISE_SCALE: Spec = Spec {
    label: "noise scale",
    min: 1.0,
    min_open: false,
    max: 1e6,
    max_open: false,
    scale: Scale::Log,
    tooltip: "Blocks per noise unit of the first octave: larger is broader hills.",
};
const ISLAND_SIZE: Spec = Spec {
    label: "island size",
    min: 0.0,
    min_open: true,
    max: 1e6,
    max_open: false,
    scale: Scale::Log,
    tooltip: "Island size in blocks; with the radius it sets where the sea is reached.",
};
const RADIUS: Spec = Spec {
    label: "radius",
    min: 0.0,
    min_open: true,
    max: 4.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Fraction of the island size at which the sea is reached.",
};
const STEEPNESS: Spec = Spec {
    label: "steepness a",
    min: 1.0,
    min_open: false,
    max: 5.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Falloff steepness: higher is a sharper coast.",
};
const ATTENUATION: Spec = Spec {
    label: "attenuation b",
    min: 0.0,
    min_open: true,
    max: 1.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Falloff attenuation: lower shrinks the island.",
};
const CENTRE_X: Spec = Spec {
    label: "centre x",
    min: -1e6,
    min_open: false,
    max: 1e6,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Shift of the island centre (or the archipelago grid) in blocks, x.",
};
const CENTRE_Z: Spec = Spec {
    label: "centre z",
    tooltip: "Shift of the island centre (or the archipelago grid) in blocks, z.",
    ..CENTRE_X
};
const HEIGHT_SCALE: Spec = Spec {
    label: "height scale",
    min: 1.0,
    min_open: false,
    max: 512.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "Blocks of height between normalised height 0 and 1.",
};

/// The island generator's parameters (noise kind and layout are chosen from lists).
pub const ISLANDS: [Param<IslandConfig>; 11] = [
    param!(NOISE_SCALE, "noise_scale", |c| c.noise_scale),
    param!(OCTAVES, "octaves", |c| c.octaves),
    param!(PERSISTENCE, "persistence", |c| c.persistence),
    param!(LACUNARITY, "lacunarity", |c| c.lacunarity),
    param!(ISLAND_SIZE, "island_size", |c| c.island_size),
    param!(RADIUS, "radius", |c| c.radius),
    param!(STEEPNESS, "steepness", |c| c.steepness),
    param!(ATTENUATION, "attenuation", |c| c.attenuation),
    param!(CENTRE_X, "centre_offset[0]", |c| c.centre_offset[0]),
    param!(CENTRE_Z, "centre_offset[1]", |c| c.centre_offset[1]),
    param!(HEIGHT_SCALE, "height_scale", |c| c.height_scale),
];

const BAND: Spec = Spec {
    label: "",
    min: 0.0,
    min_open: true,
    max: 1.0,
    max_open: true,
    scale: Scale::Linear,
    tooltip: "",
};

/// The island generator's height bands: the top of each band on the normalised
/// height, ascending (a band must lie above the one below it; above `rock` is snow).
pub const BANDS: [Param<IslandConfig>; 6] = [
    param!(
        Spec {
            label: "deep water",
            tooltip: "Top of deep water.",
            ..BAND
        },
        "bands.deep_water",
        |c| c.bands.deep_water
    ),
    param!(
        Spec {
            label: "shallow water",
            tooltip: "Top of shallow water: this band's top is sea level.",
            ..BAND
        },
        "bands.shallow_water",
        |c| c.bands.shallow_water
    ),
    param!(
        Spec {
            label: "sand",
            tooltip: "Top of beaches.",
            ..BAND
        },
        "bands.sand",
        |c| c.bands.sand
    ),
    param!(
        Spec {
            label: "grass",
            tooltip: "Top of grassland.",
            ..BAND
        },
        "bands.grass",
        |c| c.bands.grass
    ),
    param!(
        Spec {
            label: "forest",
            tooltip: "Top of forest.",
            ..BAND
        },
        "bands.forest",
        |c| c.bands.forest
    ),
    param!(
        Spec {
            label: "rock",
            tooltip: "Top of bare rock; snow above.",
            ..BAND
        },
        "bands.rock",
        |c| c.bands.rock
    ),
];

/// The archipelago layout's `(cell_size, jitter)`.
pub type Cells = (f64, f64);

const CELL_SIZE: Spec = Spec {
    label: "cell size",
    // At least 16: a chunk then meets a bounded number of island cells.
    min: 16.0,
    min_open: false,
    max: 1e6,
    max_open: false,
    scale: Scale::Log,
    tooltip: "Grid cell per island in blocks; at least twice island size × radius.",
};
const JITTER: Spec = Spec {
    label: "jitter",
    min: 0.0,
    min_open: false,
    max: 1.0,
    max_open: false,
    scale: Scale::Linear,
    tooltip: "How far islands move inside their cells.",
};

/// The archipelago layout's parameters.
pub const ARCHIPELAGO: [Param<Cells>; 2] = [
    param!(CELL_SIZE, "layout.cell_size", |c| c.0),
    param!(JITTER, "layout.jitter", |c| c.1),
];

const NOISE_CYCLE: Spec = Spec {
    label: "",
    min: 256.0,
    min_open: false,
    max: 65536.0,
    max_open: false,
    scale: Scale::Log,
    tooltip: "",
};

/// The shape's noise scales (version 2, density worlds): panel group "Shape".
pub const SHAPE: [Param<ShapeConfig>; 3] = [
    param!(
        Spec {
            label: "continent scale",
            tooltip: "Blocks per cycle of continentalness: the size of oceans and continents.",
            ..NOISE_CYCLE
        },
        "shape.continent_scale",
        |c| c.continent_scale
    ),
    param!(
        Spec {
            label: "erosion scale",
            tooltip: "Blocks per cycle of erosion: how far mountain ranges and plains extend.",
            ..NOISE_CYCLE
        },
        "shape.erosion_scale",
        |c| c.erosion_scale
    ),
    param!(
        Spec {
            label: "ridge scale",
            tooltip: "Blocks per cycle of weirdness: the spacing of peaks, valleys and rivers.",
            ..NOISE_CYCLE
        },
        "shape.ridge_scale",
        |c| c.ridge_scale
    ),
];

/// The rivers (version 2, density worlds): panel group "Rivers".
pub const RIVERS: [Param<ShapeConfig>; 2] = [
    param!(
        Spec {
            label: "river width",
            min: 0.0,
            min_open: false,
            max: 0.2,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "Half-width of a river on the weirdness noise; 0 turns rivers off.",
        },
        "shape.rivers.width",
        |c| c.rivers.width
    ),
    param!(
        Spec {
            label: "river depth",
            min: 1.0,
            min_open: false,
            max: 32.0,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "Blocks below sea level of a river's middle.",
        },
        "shape.rivers.depth",
        |c| c.rivers.depth
    ),
];

/// The climate (version 2): panel group "Climate".
pub const CLIMATE: [Param<NatureConfig>; 2] = [
    param!(
        Spec {
            label: "temperature scale",
            tooltip: "Blocks per cycle of temperature: the size of hot and cold regions.",
            ..NOISE_CYCLE
        },
        "temperature_scale",
        |c| c.temperature_scale
    ),
    param!(
        Spec {
            label: "humidity scale",
            tooltip: "Blocks per cycle of humidity: the size of dry and wet regions.",
            ..NOISE_CYCLE
        },
        "humidity_scale",
        |c| c.humidity_scale
    ),
];

/// The trees (version 2): panel group "Trees".
pub const TREES: [Param<NatureConfig>; 2] = [
    param!(
        Spec {
            label: "tree density",
            min: 0.0,
            min_open: false,
            max: 4.0,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "Trees relative to each biome's own density: 0 none, 1 as the biome says.",
        },
        "tree_density",
        |c| c.tree_density
    ),
    param!(
        Spec {
            label: "tree spacing",
            min: 4.0,
            min_open: false,
            max: 32.0,
            max_open: false,
            scale: Scale::Integer,
            tooltip: "Side of the tree grid's cells in blocks: at most one tree a cell.",
        },
        "tree_spacing",
        |c| c.tree_spacing
    ),
];

const CAVE_CYCLE: Spec = Spec {
    label: "",
    min: 32.0,
    min_open: false,
    max: 1024.0,
    max_open: false,
    scale: Scale::Log,
    tooltip: "",
};

/// The caves (version 3, density worlds): panel group "Caves".
pub const CAVES: [Param<CaveConfig>; 9] = [
    param!(
        Spec {
            label: "cavern scale",
            tooltip: "Blocks per cycle of the cavern noise: larger is wider chambers further apart.",
            ..CAVE_CYCLE
        },
        "caves.cavern_scale",
        |c| c.cavern_scale
    ),
    param!(
        Spec {
            label: "cavern size",
            min: 0.0,
            min_open: false,
            max: 1.0,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "How much of the rock caverns hollow out; 0 turns them off.",
        },
        "caves.cavern_size",
        |c| c.cavern_size
    ),
    param!(
        Spec {
            label: "tunnel scale",
            tooltip: "Blocks per cycle of the tunnel noises: larger is longer, straighter tunnels.",
            ..CAVE_CYCLE
        },
        "caves.tunnel_scale",
        |c| c.tunnel_scale
    ),
    param!(
        Spec {
            label: "tunnel width",
            min: 0.0,
            min_open: false,
            max: 0.3,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "How thick tunnels are (on their noises); 0 turns them off.",
        },
        "caves.tunnel_width",
        |c| c.tunnel_width
    ),
    param!(
        Spec {
            label: "passage scale",
            min: 16.0,
            max: 512.0,
            tooltip: "Blocks per cycle of the thin passages' noises.",
            ..CAVE_CYCLE
        },
        "caves.passage_scale",
        |c| c.passage_scale
    ),
    param!(
        Spec {
            label: "passage width",
            min: 0.0,
            min_open: false,
            max: 0.2,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "How thick the thin passages are (on their noises); 0 turns them off.",
        },
        "caves.passage_width",
        |c| c.passage_width
    ),
    param!(
        Spec {
            label: "cave depth",
            min: 16.0,
            min_open: false,
            max: 512.0,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "How far below sea level caves reach, in blocks.",
        },
        "caves.depth",
        |c| c.depth
    ),
    param!(
        Spec {
            label: "surface fade",
            min: 4.0,
            min_open: false,
            max: 64.0,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "Blocks below the surface over which caves fade in: larger keeps them deeper.",
        },
        "caves.surface_fade",
        |c| c.surface_fade
    ),
    param!(
        Spec {
            label: "openings",
            min: 0.0,
            min_open: false,
            max: 1.0,
            max_open: false,
            scale: Scale::Linear,
            tooltip: "How often caves open to the surface; 0 never.",
        },
        "caves.openings",
        |c| c.openings
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_accept_their_ends_and_refuse_beyond() {
        assert!(OCTAVES.allows(1.0) && OCTAVES.allows(16.0));
        assert!(!OCTAVES.allows(0.0) && !OCTAVES.allows(17.0) && !OCTAVES.allows(2.5));
        assert!(!FREQUENCY.allows(0.0) && FREQUENCY.allows(1.0) && !FREQUENCY.allows(1.01));
        assert!(!PERSISTENCE.allows(f64::NAN) && !LACUNARITY.allows(f64::INFINITY));
        assert_eq!(OCTAVES.expected(), "an integer in 1..=16");
        assert_eq!(FREQUENCY.expected(), "a finite number in (0, 1]");
    }

    #[test]
    fn the_scale_tooltip_states_the_relief_limit() {
        assert!(
            SCALE
                .tooltip
                .contains(&format!("at most {MAX_RELIEF_WORK}"))
        );
    }
}
