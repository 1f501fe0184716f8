//! World presets: the RON files in `assets/presets/`, built into the binary so every
//! command works from any directory, plus loading of user config files.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::config::{ConfigError, WorldConfig};

/// The built-in presets, by name, in display order.
pub const BUILTIN: [(&str, &str); 4] = [
    ("cliffs", include_str!("../../../assets/presets/cliffs.ron")),
    (
        "amplified",
        include_str!("../../../assets/presets/amplified.ron"),
    ),
    (
        "islands",
        include_str!("../../../assets/presets/islands.ron"),
    ),
    (
        "archipelago",
        include_str!("../../../assets/presets/archipelago.ron"),
    ),
];

/// The names of the built-in presets.
pub fn names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// Why a preset or config file could not be loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    /// No preset has that name.
    #[error("unknown preset `{name}`; known presets: {known}")]
    UnknownPreset {
        /// The name asked for.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not a valid world config.
    #[error("{}: {source}", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: ConfigError,
    },
}

/// A built-in preset by name.
pub fn builtin(name: &str) -> Result<WorldConfig, LoadError> {
    let (_, text) =
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| LoadError::UnknownPreset {
                name: name.to_owned(),
                known: names().collect::<Vec<_>>().join(", "),
            })?;
    WorldConfig::from_ron(text).map_err(|source| LoadError::Config {
        path: PathBuf::from(format!("assets/presets/{name}.ron")),
        source,
    })
}

impl Default for WorldConfig {
    /// The default world: the `cliffs` preset.
    fn default() -> Self {
        builtin("cliffs").expect("the cliffs preset is built in and valid")
    }
}

/// Reads and validates a world config from a RON file.
pub fn load_file(path: &Path) -> Result<WorldConfig, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    WorldConfig::from_ron(&text).map_err(|source| LoadError::Config {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_preset_parses_and_validates() {
        for name in names() {
            let cfg = builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(WorldConfig::from_ron(&cfg.to_ron_pretty()).unwrap(), cfg);
            assert_eq!(WorldConfig::from_ron(&cfg.to_world_code()).unwrap(), cfg);
        }
    }

    #[test]
    fn unknown_preset_lists_the_known_ones() {
        let e = builtin("moon").unwrap_err().to_string();
        assert!(
            e.contains("moon") && e.contains("cliffs") && e.contains("archipelago"),
            "{e}"
        );
    }

    #[test]
    fn missing_file_is_a_clear_error() {
        let e = load_file(Path::new("/nonexistent/world.ron"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/world.ron"), "{e}");
    }
}
