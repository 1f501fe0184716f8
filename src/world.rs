//! Which world a command is about (`--seed`, `--preset`, `--config`), and how a
//! command runs its generator's jobs (on rayon's threads).

use std::path::PathBuf;

use clap::Args;
use terravox_worldgen::{Seed, WorldConfig, presets};

/// Which world: a preset or a config file, and an optional seed.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct WorldArgs {
    /// World seed: an integer (negative ones too, as Minecraft shares them: `--seed -7`),
    /// or any text (hashed).
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<String>,
    /// A built-in preset: continents (the default), cliffs, amplified, islands, archipelago.
    #[arg(long, conflicts_with = "config")]
    preset: Option<String>,
    /// A world config RON file (as saved from the game or printed by `config`).
    #[arg(long)]
    config: Option<PathBuf>,
}

impl WorldArgs {
    /// The world config these arguments name.
    pub(crate) fn resolve(&self) -> Result<WorldConfig, String> {
        let cfg = match (&self.config, &self.preset) {
            (Some(path), _) => presets::load_file(path).map_err(|e| e.to_string())?,
            (None, Some(name)) => presets::builtin(name).map_err(|e| e.to_string())?,
            (None, None) => WorldConfig::default(),
        };
        Ok(match &self.seed {
            Some(s) => cfg.with_seed(Seed::new(s.clone())),
            None => cfg,
        })
    }
}

/// Runs a map's or a statistic's rows on rayon's threads (worldgen owns no threads:
/// it hands them to the caller, as a [`terravox_worldgen::ForEach`]).
pub(crate) fn rayon_rows(n: usize, job: &(dyn Fn(usize) + Sync)) {
    use rayon::prelude::*;
    (0..n).into_par_iter().for_each(job);
}
