//! Caves (version 3): the carve field of [`CaveConfig`] at a lattice point, and the
//! blocks placed around caves (ores in the rock next to them, gravel and clay on their
//! floors).
//!
//! The carve value of a point is a pure function of its world position and the
//! terrain's density there, so a chunk and its neighbours agree on every block. It is
//! evaluated lazily: a term is skipped when its bound cannot beat the others (or the
//! fade), and the terrain density is only needed near the surface; most points of
//! deep rock cost one or two noise lookups, and points near the surface outside
//! entrances cost none.

use terravox_voxel::Block;

use crate::config::world::CaveConfig;
use crate::mix::mix64;
use crate::noise::fbm::{Fbm, NoiseKind};

/// The carve field is clamped from below at `-CLAMP`, so far from any cave it is
/// exactly `-CLAMP` and needs no noise.
pub(crate) const CLAMP: f64 = 0.05;
/// Rock whose carve value is above `-SHELL` (and not carved) lies right next to a
/// cave: ores are placed there.
pub(crate) const SHELL: f64 = 0.03;
/// Extra rock kept between a cave and the bed of a sea or river above it, in blocks.
const SEA_SEAL: f64 = 8.0;
/// Blocks over which caves fade out above their lowest height.
const FLOOR_FADE: f64 = 16.0;

/// Caves of one world, ready to carve.
#[derive(Clone, Debug)]
pub(crate) struct Caves {
    seed: u64,
    sea: f64,
    cavern: Fbm,
    cavern_threshold: f64,
    tunnel: [Fbm; 2],
    tunnel_width: f64,
    passage: [Fbm; 2],
    passage_width: f64,
    open: Fbm,
    /// The noise level above which a column opens, if caves open at all.
    open_from: Option<f64>,
    surface_fade: f64,
    /// Caves stop above this height.
    floor: f64,
    /// The strongest any cave term can be.
    strongest: f64,
}

impl Caves {
    pub(crate) fn new(cfg: &CaveConfig, seed: u64, sea_level: i32) -> Self {
        let noise =
            |salt, scale, octaves| Fbm::of_scale(NoiseKind::Perlin, seed, salt, scale, octaves);
        let cavern_threshold = 0.6 - 0.6 * cfg.cavern_size;
        let cavern_max = if cfg.cavern_size > 0.0 {
            1.0 - cavern_threshold
        } else {
            f64::NEG_INFINITY
        };
        Self {
            seed,
            sea: sea_level as f64,
            cavern: noise(0xca5e_0001, cfg.cavern_scale, 2),
            cavern_threshold: if cfg.cavern_size > 0.0 {
                cavern_threshold
            } else {
                f64::INFINITY
            },
            tunnel: [
                noise(0xca5e_0002, cfg.tunnel_scale, 1),
                noise(0xca5e_0003, cfg.tunnel_scale, 1),
            ],
            tunnel_width: cfg.tunnel_width,
            passage: [
                noise(0xca5e_0004, cfg.passage_scale, 1),
                noise(0xca5e_0005, cfg.passage_scale, 1),
            ],
            passage_width: cfg.passage_width,
            open: noise(0xca5e_0006, 160.0, 1),
            open_from: (cfg.openings > 0.0).then_some(0.45 - 0.6 * cfg.openings),
            surface_fade: cfg.surface_fade,
            floor: sea_level as f64 - cfg.depth,
            strongest: cavern_max.max(cfg.tunnel_width).max(cfg.passage_width),
        }
    }

    /// Below this terrain density (about the depth below the surface) a point's
    /// carve value depends on the density; deeper it does not.
    pub(crate) fn deep(&self) -> f64 {
        self.surface_fade + SEA_SEAL
    }

    /// Whether no cave reaches height `y` or below it.
    pub(crate) fn below_floor(&self, y: f64) -> bool {
        y <= self.floor
    }

    /// How open column `(x, z)` is to the surface, `0..=1`: where it is 1 caves reach
    /// up to the surface.
    fn openness(&self, x: f64, z: f64) -> f64 {
        match self.open_from {
            Some(from) => ((self.open.get2(x, z) - from) / 0.1).clamp(0.0, 1.0),
            None => 0.0,
        }
    }

    /// Whether caves may open to the surface at block column `(x, z)`: one of the
    /// four cave lattice columns around it (every `step` blocks, at `first` modulo
    /// `step`) is open at all. Elsewhere the fade keeps the surface closed.
    pub(crate) fn may_open_at(&self, x: i32, z: i32, step: i32, first: i32) -> bool {
        let low = |v: i32| (v - first).div_euclid(step) * step + first;
        let (x0, z0) = (low(x), low(z));
        [
            (x0, z0),
            (x0 + step, z0),
            (x0, z0 + step),
            (x0 + step, z0 + step),
        ]
        .iter()
        .any(|&(cx, cz)| self.openness(cx as f64, cz as f64) > 0.0)
    }

    /// The carve value at a lattice point: positive inside a cave. `depth` is the
    /// terrain's density there, or `None` when it is known to be at least
    /// [`Caves::deep`].
    pub(crate) fn carve(&self, x: f64, y: f64, z: f64, depth: Option<f64>) -> f64 {
        let strength = self.strongest + CLAMP;
        let floor = strength * ((self.floor + FLOOR_FADE - y) / FLOOR_FADE).clamp(0.0, 1.0);
        let surface = match depth {
            None => 0.0,
            Some(d) if y + d < self.sea + 2.0 => {
                // Under a sea or a river: keep a thicker lid, and no entrances.
                let reach = self.surface_fade + SEA_SEAL;
                strength * ((reach - d) / reach).clamp(0.0, 1.0)
            }
            Some(d) => {
                let f = ((self.surface_fade - d) / self.surface_fade).clamp(0.0, 1.0);
                if f > 0.0 {
                    strength * f * (1.0 - self.openness(x, z))
                } else {
                    0.0
                }
            }
        };
        let fade = floor.max(surface);
        // A term only counts if it beats this (else the clamp wins).
        let need = fade - CLAMP;
        if self.strongest <= need {
            return -CLAMP;
        }
        let mut best = f64::NEG_INFINITY;
        if 1.0 - self.cavern_threshold > need {
            best = self.cavern.get3(x, y, z) - self.cavern_threshold;
        }
        for (noises, w) in [
            (&self.tunnel, self.tunnel_width),
            (&self.passage, self.passage_width),
        ] {
            if w <= need.max(best) {
                continue;
            }
            let a = noises[0].get3(x, y, z);
            if (w * w - a * a) / w <= need.max(best) {
                continue;
            }
            let b = noises[1].get3(x, y, z);
            best = best.max((w * w - a * a - b * b) / w);
        }
        (best - fade).max(-CLAMP)
    }

    /// The block a cave turns rock into at `(x, y, z)`: `floor` when cave air lies
    /// right above it, `shell` when it lies next to a cave. Only stone changes.
    pub(crate) fn decorate(
        &self,
        rock: Block,
        [x, y, z]: [i32; 3],
        floor: bool,
        shell: bool,
    ) -> Block {
        if rock != Block::Stone || !(floor || shell) {
            return rock;
        }
        let h = mix64(self.seed ^ 0x0e5e_ca5e ^ mix64(pack(x, y, z)));
        let roll = (h >> 40) as f64 / (1u64 << 24) as f64;
        let below_sea = self.sea - y as f64;
        if floor {
            // Patches of two by two blocks.
            let patch = mix64(self.seed ^ 0x9a5e ^ mix64(pack(x >> 1, y, z >> 1)));
            match patch % 8 {
                0 | 1 => return Block::Gravel,
                2 if below_sea > 0.0 => return Block::Clay,
                _ => {}
            }
        }
        match roll {
            r if r < 0.02 && below_sea > 64.0 => Block::GoldOre,
            r if r < 0.06 && below_sea > 16.0 => Block::IronOre,
            r if r < 0.14 => Block::CoalOre,
            _ => rock,
        }
    }
}

/// A block position as one number for hashing.
fn pack(x: i32, y: i32, z: i32) -> u64 {
    (x as u32 as u64) << 42 ^ (z as u32 as u64) << 21 ^ y as u32 as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caves() -> Caves {
        let cfg = crate::config::presets::builtin("continents")
            .expect("built in")
            .generator;
        let crate::config::world::GeneratorConfig::Density(d) = cfg else {
            panic!("continents is a density world")
        };
        Caves::new(d.caves.as_ref().expect("caves"), 7, 0)
    }

    #[test]
    fn nothing_is_carved_at_the_surface_under_the_sea_or_below_the_floor() {
        let c = caves();
        for i in 0..2000 {
            let (x, z) = (i as f64 * 3.7, i as f64 * -5.3);
            // At the surface of a column that does not open, or right under a sea bed.
            if c.openness(x, z) == 0.0 {
                assert_eq!(c.carve(x, 20.0, z, Some(0.0)), -CLAMP);
            }
            assert_eq!(c.carve(x, -20.0, z, Some(4.0)), -CLAMP);
            assert_eq!(c.carve(x, c.floor, z, None), -CLAMP);
        }
    }

    #[test]
    fn deep_rock_has_caves_and_the_clamp_holds() {
        let c = caves();
        let values: Vec<f64> = (0..4000)
            .map(|i| c.carve(i as f64 * 4.0, -60.0, (i % 17) as f64 * 4.0, None))
            .collect();
        assert!(values.iter().all(|&v| v >= -CLAMP));
        let carved = values.iter().filter(|&&v| v > 0.0).count();
        assert!(
            (40..2000).contains(&carved),
            "{carved} of 4000 points carved"
        );
    }

    #[test]
    fn only_stone_next_to_caves_is_decorated() {
        let c = caves();
        let mut ores = 0;
        for i in 0..4000 {
            let p = [i, -100, i * 3];
            assert_eq!(c.decorate(Block::Dirt, p, true, true), Block::Dirt);
            assert_eq!(c.decorate(Block::Stone, p, false, false), Block::Stone);
            let b = c.decorate(Block::Stone, p, false, true);
            ores += matches!(b, Block::CoalOre | Block::IronOre | Block::GoldOre) as usize;
        }
        assert!(
            (200..1200).contains(&ores),
            "{ores} ores in 4000 shell blocks"
        );
    }
}
