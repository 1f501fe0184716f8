//! World presets: the RON files in `assets/presets/`, built into the binary so every
//! command works from any directory, plus loading of user config files.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use thiserror::Error;

use crate::config::world::{ConfigError, WorldConfig};

/// The built-in presets, by name, in display order.
pub const BUILTIN: [(&str, &str); 5] = [
    (
        "continents",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/presets/continents.ron"
        )),
    ),
    (
        "cliffs",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/presets/cliffs.ron"
        )),
    ),
    (
        "amplified",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/presets/amplified.ron"
        )),
    ),
    (
        "islands",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/presets/islands.ron"
        )),
    ),
    (
        "archipelago",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/presets/archipelago.ron"
        )),
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
    /// The file is not one to read: not a regular file, too large, not text.
    #[error("cannot read {}: {why}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
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

/// The built-in presets parsed, once (the panel asks [`preset_of`] every frame).
static PARSED: LazyLock<Vec<(&'static str, WorldConfig)>> = LazyLock::new(|| {
    names()
        .filter_map(|name| builtin(name).ok().map(|cfg| (name, cfg)))
        .collect()
});

/// The built-in preset `config` is, whatever its seed and generator version: the one
/// it equals but for those two, or `None` once any value differs (a custom world).
pub fn preset_of(config: &WorldConfig) -> Option<&'static str> {
    // Every field but the two (a field added to the config fails to compile here).
    let WorldConfig {
        version: _,
        seed: _,
        sea_level,
        generator,
        nature,
    } = config;
    PARSED.iter().find_map(|(name, preset)| {
        let same = *sea_level == preset.sea_level
            && *generator == preset.generator
            && *nature == preset.nature;
        same.then_some(*name)
    })
}

impl Default for WorldConfig {
    /// The default world: the `continents` preset.
    fn default() -> Self {
        builtin("continents").expect("the continents preset is built in and valid")
    }
}

/// Config files larger than this are refused (a config is a few KB).
pub const MAX_CONFIG_BYTES: u64 = 4 << 20;

/// Reads and validates a world config from a RON file: only a regular file of at most
/// [`MAX_CONFIG_BYTES`] of UTF-8 text (a leading byte-order mark is fine).
pub fn load_file(path: &Path) -> Result<WorldConfig, LoadError> {
    use std::io::Read;
    let io = |source| LoadError::Io {
        path: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    let refused = |why: String| LoadError::Refused {
        path: path.to_owned(),
        why,
    };
    if !meta.is_file() {
        return Err(refused("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(refused(format!(
            "larger than {MAX_CONFIG_BYTES} bytes; a world config is a few KB"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        refused(format!(
            "not UTF-8 text (byte {} is invalid)",
            e.utf8_error().valid_up_to()
        ))
    })?;
    WorldConfig::from_ron(&text).map_err(|source| LoadError::Config {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::seed::Seed;

    #[test]
    fn every_builtin_preset_parses_and_validates() {
        for name in names() {
            let cfg = builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(WorldConfig::from_ron(&cfg.to_ron_pretty()).unwrap(), cfg);
            assert_eq!(WorldConfig::from_ron(&cfg.to_world_code()).unwrap(), cfg);
        }
    }

    #[test]
    fn a_world_is_its_preset_whatever_its_seed_until_a_value_changes() {
        for name in names() {
            let cfg = builtin(name).unwrap().with_seed(Seed::new("-7"));
            assert_eq!(preset_of(&cfg), Some(name));
            let older = WorldConfig {
                version: 5,
                ..cfg.clone()
            };
            assert_eq!(preset_of(&older), Some(name));
            let mut edited = cfg;
            edited.sea_level += 1;
            assert_eq!(preset_of(&edited), None, "{name} with another sea level");
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
    fn devices_folders_huge_and_binary_files_are_refused_and_a_bom_is_fine() {
        let e = load_file(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let dir = std::env::temp_dir().join(format!("terravox-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = load_file(&dir).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let big = dir.join("big.ron");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_CONFIG_BYTES + 1)
            .unwrap();
        let e = load_file(&big).unwrap_err().to_string();
        assert!(e.contains("larger than"), "{e}");
        let binary = dir.join("binary.ron");
        std::fs::write(&binary, [b'(', 0xff, 0xfe]).unwrap();
        let e = load_file(&binary).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
        let bom = dir.join("bom.ron");
        let cfg = builtin("islands").unwrap();
        std::fs::write(&bom, format!("\u{feff}{}", cfg.to_ron_pretty())).unwrap();
        assert_eq!(load_file(&bom).unwrap(), cfg);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file_is_a_clear_error() {
        let e = load_file(Path::new("/nonexistent/world.ron"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/world.ron"), "{e}");
    }
}
