//! Save files: one per world, written atomically, read defensively.
//!
//! # Format (version 1)
//!
//! A RON file named `world-<key>.ron`, where `<key>` is the 64-bit FNV-1a hash of
//! the world's full config written as pretty RON, in 16 hex digits:
//!
//! ```ron
//! (
//!     version: 1,
//!     world: ( /* the full WorldConfig, as `terravox config` prints it */ ),
//!     edits: [
//!         (12, 70, -3, Brick),   // x, y, z, block
//!         (12, 69, -3, Air),     // a broken block
//!     ],
//! )
//! ```
//!
//! `version` is checked first: a file of another version is not read. The `world`
//! must equal the world being played (a guard against a renamed file).
//!
//! # Crash safety
//!
//! [`SaveDir::save`] writes `world-<key>.ron.tmp`, syncs it to disk, renames it over
//! `world-<key>.ron` and syncs the folder. A rename within a folder is atomic, so a
//! crash or kill at any moment leaves either the old save or the new one.
//!
//! # Unreadable saves
//!
//! [`SaveDir::open`] never overwrites a file it could not read: a truncated, garbled
//! or wrong-version save is renamed to `world-<key>.ron.unreadable-<unix time>` and
//! the world starts from its generated state, with a message saying so.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use terravox_voxel::{Block, BlockPos, Fnv64};
use terravox_worldgen::WorldConfig;
use thiserror::Error;

use crate::Edits;

/// The save format version this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

/// A save file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// Format version ([`SAVE_VERSION`]).
    pub version: u32,
    /// The world the edits belong to.
    pub world: WorldConfig,
    /// `(x, y, z, block)` for every edited block.
    pub edits: Vec<(i32, i32, i32, Block)>,
}

/// Only the version, read before the rest so another version is recognised even if
/// its shape changed.
#[derive(Deserialize)]
struct Header {
    version: u32,
}

/// Why a save could not be read.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file exists but could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The file is not valid save RON (truncated, garbage, missing fields).
    #[error("{} is damaged (line {line}, column {column}: {message})", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The file is of a save format this build does not read.
    #[error("{} is save format version {found}; this terravox reads version {expected}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The file holds another world's edits.
    #[error("{} holds the edits of a different world", path.display())]
    OtherWorld {
        /// The file.
        path: PathBuf,
    },
}

/// Why a save could not be written.
#[derive(Debug, Error)]
#[error("cannot save {}: {source}", path.display())]
pub struct SaveError {
    /// The file.
    pub path: PathBuf,
    /// The I/O error.
    pub source: io::Error,
}

/// A world's edits as loaded by [`SaveDir::open`], and what went wrong, if anything.
#[derive(Debug, Default)]
pub struct Opened {
    /// The edits (empty for a new world or an unreadable save).
    pub edits: Edits,
    /// A message for the player when the save could not be read.
    pub problem: Option<String>,
    /// Where an unreadable save was moved.
    pub moved_to: Option<PathBuf>,
}

/// The platform's data folder for terravox (`$XDG_DATA_HOME/terravox` or
/// `~/.local/share/terravox` on Linux, `~/Library/Application Support/terravox` on
/// macOS, `%APPDATA%\terravox` on Windows), if the platform has one.
pub fn default_save_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("terravox"))
}

/// A folder holding one save file per world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveDir {
    dir: PathBuf,
}

impl SaveDir {
    /// Saves under `dir` (created on the first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The save file of `world`.
    pub fn path_for(&self, world: &WorldConfig) -> PathBuf {
        let mut h = Fnv64::new();
        h.write(world.to_ron_pretty().as_bytes());
        self.dir.join(format!("world-{:016x}.ron", h.finish()))
    }

    /// Reads `world`'s edits: empty when there is no save yet.
    pub fn load(&self, world: &WorldConfig) -> Result<Edits, LoadError> {
        let path = self.path_for(world);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Edits::new()),
            Err(source) => return Err(LoadError::Io { path, source }),
        };
        parse(&path, &text, world)
    }

    /// Writes `world`'s edits atomically (see the module docs).
    pub fn save(&self, world: &WorldConfig, edits: &Edits) -> Result<(), SaveError> {
        let path = self.path_for(world);
        let file = SaveFile {
            version: SAVE_VERSION,
            world: world.clone(),
            edits: edits.iter().map(|(p, b)| (p.x, p.y, p.z, b)).collect(),
        };
        write_atomic(&path, to_ron(&file).as_bytes()).map_err(|source| SaveError { path, source })
    }

    /// Deletes `world`'s save, if any.
    pub fn delete(&self, world: &WorldConfig) -> Result<(), SaveError> {
        let path = self.path_for(world);
        match fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(SaveError { path, source: e }),
            _ => Ok(()),
        }
    }

    /// Loads `world`'s edits; a save that cannot be read is moved aside (never
    /// overwritten) and the world starts with no edits and a message saying why.
    pub fn open(&self, world: &WorldConfig) -> Opened {
        let error = match self.load(world) {
            Ok(edits) => {
                return Opened {
                    edits,
                    ..Opened::default()
                };
            }
            Err(e) => e,
        };
        let path = self.path_for(world);
        match move_aside(&path) {
            Ok(to) => Opened {
                edits: Edits::new(),
                problem: Some(format!(
                    "Your edits could not be loaded: {error}. The file was moved to {} and the \
                     world starts as generated.",
                    to.display()
                )),
                moved_to: Some(to),
            },
            Err(e) => Opened {
                edits: Edits::new(),
                problem: Some(format!(
                    "Your edits could not be loaded: {error}. It could not be moved aside \
                     either ({e}); it will not be overwritten."
                )),
                moved_to: None,
            },
        }
    }
}

/// The save text of `file`: pretty RON with one edit per line.
fn to_ron(file: &SaveFile) -> String {
    let pretty = ron::ser::PrettyConfig::new().compact_arrays(false);
    let mut text = String::from("// terravox world edits; format: see the terravox-edits docs\n");
    // Serialising plain data into a String cannot fail.
    text.push_str(&ron::ser::to_string_pretty(file, pretty).expect("a save serialises"));
    text.push('\n');
    text
}

/// Parses save text for `world`.
pub fn parse(path: &Path, text: &str, world: &WorldConfig) -> Result<Edits, LoadError> {
    let damaged = |e: ron::error::SpannedError| LoadError::Damaged {
        path: path.to_owned(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    };
    let header: Header = ron::from_str(text).map_err(damaged)?;
    if header.version != SAVE_VERSION {
        return Err(LoadError::Version {
            path: path.to_owned(),
            found: header.version,
            expected: SAVE_VERSION,
        });
    }
    let file: SaveFile = ron::from_str(text).map_err(damaged)?;
    if file.world != *world {
        return Err(LoadError::OtherWorld {
            path: path.to_owned(),
        });
    }
    let mut edits = Edits::new();
    for (x, y, z, b) in file.edits {
        edits.set(BlockPos::new(x, y, z), b);
    }
    Ok(edits)
}

/// Writes `bytes` to `path` so that a crash leaves either the old or the new file:
/// temporary file, `fsync`, rename, `fsync` of the folder.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    // Make the rename itself durable (not supported on every platform).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Renames an unreadable file to `<name>.unreadable-<unix seconds>[-n]`, never
/// replacing an existing file. Returns the new path.
pub fn move_aside(path: &Path) -> io::Result<PathBuf> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    for n in 0..1000 {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".unreadable-{secs}"));
        if n > 0 {
            name.push(format!("-{n}"));
        }
        let to = PathBuf::from(name);
        if !to.exists() {
            fs::rename(path, &to)?;
            return Ok(to);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many unreadable saves already moved aside",
    ))
}
