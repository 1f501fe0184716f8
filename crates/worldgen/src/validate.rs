//! Parsing, validating and canonicalising world configs: the ranges of
//! [`crate::params`] plus the rules between fields; every problem names its field, the
//! value and what is allowed.

use crate::config::{ConfigError, GENERATOR_VERSION, GeneratorConfig, IslandLayout, WorldConfig};
use crate::params::{self, Param};
use crate::seed::Seed;

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
        match &self.generator {
            GeneratorConfig::Density(d) => c.params("generator.", &params::DENSITY, d),
            GeneratorConfig::Islands(i) => {
                c.params("generator.", &params::ISLANDS, i);
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
