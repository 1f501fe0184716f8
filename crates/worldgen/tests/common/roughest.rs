//! The roughest world: the `amplified` preset with the noise that once made the world
//! crawl (16 octaves, lacunarity 8, persistence 1, frequency 1, cliff scale 16), at a
//! `scale` of the caller's; at [`MAX_SCALE`] as rough as a valid world gets. Shared by
//! the tests (`mod common`) and the benchmarks (by path).

use terravox_worldgen::{GeneratorConfig, WorldConfig, params, presets};

/// The most `scale` validation allows with this noise (`params::relief_work`).
pub(crate) const MAX_SCALE: f64 = params::MAX_RELIEF_WORK / 16.0 / (2.0 + 16.0);

/// The amplified preset with the noise that made the world crawl and `scale`.
pub(crate) fn amplified_max(scale: f64) -> WorldConfig {
    let mut cfg = presets::builtin("amplified").expect("preset");
    let GeneratorConfig::Density(d) = &mut cfg.generator else {
        panic!("amplified is a density world")
    };
    d.noise.octaves = 16;
    d.noise.lacunarity = 8.0;
    d.noise.persistence = 1.0;
    d.noise.frequency = 1.0;
    d.cliff_scale = 16.0;
    d.scale = scale;
    d.offset = 100.0;
    cfg
}
