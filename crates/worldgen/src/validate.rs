//! Parsing, validating and canonicalising world configs: the ranges of
//! [`crate::params`] plus the rules between fields; every problem names its field, the
//! value and what is allowed.

use crate::config::{ConfigError, GENERATOR_VERSION, GeneratorConfig, IslandLayout, WorldConfig};
use crate::params::{self, Param};
use crate::seed::Seed;
use crate::{HEIGHT_LIMIT, PLAYABLE_MARGIN, WORLD_FLOOR};

/// Collects problems with their field paths.
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

    /// The surface of a world lies between `lowest` and `highest`: it must stay
    /// [`PLAYABLE_MARGIN`] above [`WORLD_FLOOR`] (where a player is put back) and
    /// inside [`HEIGHT_LIMIT`], or the world cannot be played.
    fn playable(&mut self, field: &str, value: impl std::fmt::Display, lowest: f64, highest: f64) {
        let floor = (WORLD_FLOOR + PLAYABLE_MARGIN) as f64;
        if lowest < floor {
            self.fail(
                field,
                value,
                &format!(
                    "a world whose surface stays at or above {floor} (here it can sink to \
                     {lowest:.0}; below {WORLD_FLOOR} a player is put back at the spawn)"
                ),
            );
        } else if highest >= HEIGHT_LIMIT as f64 {
            self.fail(
                field,
                value,
                &format!(
                    "a world whose surface stays below {HEIGHT_LIMIT} (here it can reach {highest:.0})"
                ),
            );
        }
    }

    /// Checks every parameter of a table on `config`, naming fields `{prefix}{field}`.
    fn params<C>(&mut self, prefix: &str, table: &[Param<C>], config: &C) {
        for p in table {
            let v = (p.get)(config);
            if !p.spec.allows(v) {
                self.fail(&format!("{prefix}{}", p.field), v, &p.spec.expected());
            }
        }
    }
}

impl WorldConfig {
    /// Every problem with this config, each naming its field. Empty when valid. The
    /// ranges come from [`crate::params`]; rules between fields are checked here.
    pub fn problems(&self) -> Vec<ConfigError> {
        let mut c = Check { errors: Vec::new() };
        if self.version != GENERATOR_VERSION {
            c.fail(
                "version",
                self.version,
                &format!("{GENERATOR_VERSION} (this build's generator version)"),
            );
        }
        c.params("", &params::WORLD, self);
        let ranges_ok = c.errors.is_empty();
        match &self.generator {
            GeneratorConfig::Density(d) => {
                c.params("generator.", &params::DENSITY, d);
                if ranges_ok && c.errors.is_empty() {
                    // (n + cliff) spans [-1, 1 + cliff_scale]: the surface lies between.
                    let base = d.offset - d.threshold;
                    let lowest = base - d.scale - 1.0;
                    let highest = base + d.scale * (1.0 + d.cliff_scale);
                    c.playable("generator.offset", d.offset, lowest, highest);
                }
            }
            GeneratorConfig::Islands(i) => {
                c.params("generator.", &params::ISLANDS, i);
                if ranges_ok && c.errors.is_empty() {
                    let sea = self.sea_level as f64;
                    let lowest = sea - i.bands.shallow_water.clamp(0.0, 1.0) * i.height_scale - 1.0;
                    let highest = sea + i.height_scale;
                    c.playable("sea_level", self.sea_level, lowest, highest);
                }
                let mut below = 0.0;
                for band in &params::BANDS {
                    let v = (band.get)(i);
                    if !(band.spec.allows(v) && v > below) {
                        c.fail(
                            &format!("generator.{}", band.field),
                            v,
                            &format!("a number in ({below}, 1), above the band below it"),
                        );
                    } else {
                        below = v;
                    }
                }
                if let IslandLayout::Archipelago { cell_size, jitter } = i.layout {
                    let [cells, jitters] = &params::ARCHIPELAGO;
                    c.params(
                        "generator.",
                        std::slice::from_ref(jitters),
                        &(cell_size, jitter),
                    );
                    let reach = i.island_size * i.radius;
                    if !(cells.spec.allows(cell_size) && cell_size >= 2.0 * reach) {
                        c.fail(
                            "generator.layout.cell_size",
                            cell_size,
                            &format!(
                                "a finite number in [{}, {}] (at least twice island_size * radius)",
                                (2.0 * reach).max(cells.spec.min),
                                cells.spec.max
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
        // Editors on Windows start files with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let cfg: WorldConfig = ron::from_str(text).map_err(|e| ConfigError::Parse {
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// The same world with one spelling: the seed as its number (` 42` and `42`, or a
    /// text and its hash, are one world) and every `-0.0` as `0.0`. Two configs that
    /// generate the same world bit for bit have equal canonical forms; saves are keyed
    /// by it.
    pub fn canonical(&self) -> WorldConfig {
        fn zeros<C>(table: &[Param<C>], c: &mut C) {
            for p in table {
                // -0.0 + 0.0 == 0.0; every other value is unchanged.
                (p.set)(c, (p.get)(c) + 0.0);
            }
        }
        let mut c = self.clone();
        c.seed = Seed::new(self.seed.value().to_string());
        zeros(&params::WORLD, &mut c);
        match &mut c.generator {
            GeneratorConfig::Density(d) => zeros(&params::DENSITY, d),
            GeneratorConfig::Islands(i) => {
                zeros(&params::ISLANDS, i);
                zeros(&params::BANDS, i);
                if let IslandLayout::Archipelago { cell_size, jitter } = &mut i.layout {
                    let mut cells = (*cell_size, *jitter);
                    zeros(&params::ARCHIPELAGO, &mut cells);
                    (*cell_size, *jitter) = cells;
                }
            }
        }
        c
    }
}
