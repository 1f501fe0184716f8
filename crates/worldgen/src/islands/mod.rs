//! The 2D island generator ("Islands").
//!
//! ```text
//! h01    = (fbm2(x, z) + 1) / 2          normalised by the analytic amplitude sum
//! g      = clamp01(dist((x, z), nearest centre) / (island_size * radius))
//! fall   = g^a / (g^a + (b - b*g)^a)
//! height = clamp01(h01 - fall)
//! ```
//!
//! Everything is in world coordinates, so there is one island (or one per archipelago
//! cell) and the sea beyond it, never one island per chunk. Each column's height is
//! computed once per chunk; columns where `g = 1` are ocean floor without any noise.
//!
//! Chunks are made fast without changing a block (the reference chunk, made the
//! plain way, is the yardstick):
//!
//! - A chunk needs little of most columns: a column wholly below the chunk is water
//!   and air there, one far above it stone, whatever its exact height. So a chunk sums
//!   a column's octaves in order and stops as soon as the octaves left (each adds at
//!   most its amplitude times a proven bound on the noise) cannot change what the
//!   chunk needs of it ([`Needs`](settle::Needs)); columns whose blocks depend on their height get
//!   every octave, and so the same height as always. Neighbouring columns are alike,
//!   so where they needed every octave, the next ones are not tested early.
//! - The noise is evaluated by [`noise`]: the same operations as the `noise` crate's,
//!   four columns at a time, finding the lattice cell they share once.
//! - The falloff's two `powf` are replaced by products enclosing it
//!   ([`IslandGen::fall_bounds`]), which decide the surface but in the rarest cases.
//! - The nearby islands are found once per chunk; the lattice columns of the biome
//!   grid reuse the octave sums of the block columns they stand on; trunk columns
//!   outside the padded chunk are only computed where a tree grows; blocks are
//!   filled a row at a time.
//!
//! Version 2 varies the archipelago: some cells are empty, sizes range from islets to
//! big islands (whose middles rise into mountains: `+ boost * (1 - g)^2`), islands
//! are ellipses at any angle, and biomes come from the height band and the climate.

//!
//! One file a stage: `layout` (where the islands are), `noise` (the heightmap's
//! octaves, OpenSimplex ones through `noise::open_simplex::lanes`), `height` (the falloff and a column's height), `settle` (what
//! a chunk needs of a column, octave by octave), `column` (looks, biomes, one
//! column's top), `chunk` (full-detail chunks) and `coarse` (the horizon's coarse
//! chunks). This file holds the generator and its setup.

mod chunk;
mod coarse;
mod column;
mod height;
pub(crate) mod layout;
mod noise;
mod settle;

use crate::config::versions::{Behaviour, Change};
use crate::config::world::{IslandConfig, NatureConfig};
use crate::islands::noise::HeightNoise;
use crate::nature::planting::TreeGrid;
use crate::noise::fbm::Fbm;
use crate::shape::climate::FieldNoise;
use crate::surface::blocks::Surface;

/// The island generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct IslandGen {
    noise: HeightNoise,
    cfg: IslandConfig,
    seed: u64,
    surface: Surface,
    reach: f64,
    /// Version 2 layout (varied islands).
    varied: bool,
    /// Climate noise and the tree grid (version 2 with nature).
    nature: Option<(FieldNoise, TreeGrid)>,
    /// The most the octaves from each on can add to a column's octave sum (their
    /// amplitudes times [`HeightNoise::bound`]), with room for rounding.
    rests: Vec<f64>,
    /// About how fast the normalised height grows with the octave sum (half the
    /// inverse of the amplitude sum), for guesses.
    slope: f64,
    /// The first octave from which the octaves left move the surface by less than a
    /// block either way (so that it may be known before the last one).
    pin_from: usize,
    /// The steepness, where a whole number (see [`IslandGen::fall_bounds`]).
    whole_steepness: Option<u32>,
}

impl IslandGen {
    /// The generator of an island world with seed `seed`, sea level `sea_level`,
    /// generator version `version` and `nature` (version 2).
    pub(crate) fn new(
        cfg: &IslandConfig,
        seed: u64,
        sea_level: i32,
        version: u32,
        nature: Option<&NatureConfig>,
    ) -> Self {
        let fbm = Fbm::new(
            cfg.kind,
            seed,
            1,
            1.0 / cfg.noise_scale,
            cfg.octaves,
            cfg.persistence,
            cfg.lacunarity,
        );
        let noise = HeightNoise::new(fbm);
        let fbm = noise.fbm();
        // Each octave adds at most its amplitude times the noise's bound; a sum of a
        // few dozen terms at most a few units each is off by far less than the slack.
        let slack = 1e-9 * (1.0 + fbm.rest(0));
        let rests: Vec<f64> = (0..=fbm.octaves())
            .map(|i| noise.bound() * fbm.rest(i) + slack)
            .collect();
        let slope = 0.5 / fbm.rest(0);
        let pin_from = (0..fbm.octaves())
            .find(|&i| slope * rests[i] * cfg.height_scale < 0.5)
            .unwrap_or(fbm.octaves());
        Self {
            noise,
            cfg: cfg.clone(),
            seed,
            surface: Surface {
                sea_level,
                snow_line: i32::MAX,
            },
            reach: cfg.island_size * cfg.radius,
            varied: Behaviour::of(version).has(Change::VariedIslands),
            nature: nature.map(|n| (FieldNoise::new(seed, None, Some(n)), TreeGrid::new(seed, n))),
            rests,
            slope,
            pin_from,
            whole_steepness: (cfg.steepness.fract() == 0.0 && (1.0..=8.0).contains(&cfg.steepness))
                .then_some(cfg.steepness as u32),
        }
    }

    /// Whether chunks grow trees.
    pub(super) fn trees(&self) -> bool {
        self.tree_grid().is_some()
    }

    /// The tree grid, when chunks grow trees.
    pub(super) fn tree_grid(&self) -> Option<TreeGrid> {
        self.nature
            .as_ref()
            .map(|&(_, grid)| grid)
            .filter(TreeGrid::grows)
    }
}
