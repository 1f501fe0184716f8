//! Save files: one per world, written atomically, read defensively.
//!
//! # Format (version 3, binary)
//!
//! A file named `world-<key>.tvx`, where `<key>` is the 64-bit FNV-1a hash (16 hex
//! digits) of the world's *canonical* config ([`WorldConfig::canonical`]) as a world
//! code, so spellings of the same world (seed `42` or ` 42`, `-0.0` or `0.0`) share one
//! save. All numbers little-endian:
//!
//! ```text
//! magic    8 bytes   "TVXEDITS"
//! version  u32       3
//! world    u32 n, then n bytes: the canonical world code (RON, UTF-8)
//! chunks   u32 c, then c times, in ascending (x, y, z) order:
//!            i32 x, i32 y, i32 z      the chunk position
//!            u32 k, then k times, ascending by index:
//!              u16 index             x + 32 * (z + 32 * y) inside the chunk
//!              u8  block             the block's number (`Block as u8`)
//! water    u64       the number of the next step (`fluid::Pending`)
//!          u32 d, then d times, in the order they tick:
//!            u64 step, i32 x, i32 y, i32 z      a block due to tick
//!          u32 r, then r times, in order:
//!            i32 x, i32 y, i32 z      a block of the step under way
//!          u32 w, then w times, ascending by position:
//!            i32 x, i32 y, i32 z, i32 cx, i32 cy, i32 cz
//!                                      a block waiting for chunk (cx, cy, cz)
//! checksum u64       FNV-1a 64 of every byte before it
//! ```
//!
//! Three bytes per edited block: a million edits are about 3 MB and load in tens of
//! milliseconds. Flowing water is blocks like any other (its level is in the block's
//! number); the water section keeps the blocks still to tick and those of the step
//! under way (taken again after a reload), so a flow saved in the middle goes on as
//! it would have. The `world` must equal the world being
//! played (a guard against a renamed file); the checksum catches truncation and
//! corruption.
//!
//! # Version 2, read
//!
//! Version 2 is version 3 without the water section (written before water flowed):
//! its edits are read as they are, with no water to tick.
//!
//! # Version 1 (RON), imported
//!
//! Earlier builds wrote `world-<key>.ron`, keyed by the config's pretty RON as typed,
//! holding `(version: 1, world: (...), edits: [(x, y, z, Block), ...])`. When a world
//! has no binary save, its version-1 save is read instead; the next save writes
//! the binary format beside it (the old file is left as it was, and deleted with the edits).
//!
//! # Crash safety
//!
//! [`SaveDir::save`] writes a temporary file unique to the process and the write
//! (`world-<key>.tvx.tmp-<pid>-<n>`), syncs it, renames it over the save and syncs the
//! folder: a rename within a folder is atomic, so a crash or kill at any moment leaves
//! either the old save or the new one. A failed write removes its temporary file;
//! temporary files a killed process left are removed when the world is next opened.
//!
//! # Unreadable saves
//!
//! [`SaveDir::open`] never overwrites a file it could not read. A file whose contents
//! are damaged (truncated, garbage, another format version, another world) is renamed
//! to `<name>.unreadable-<unix time>` and the world starts from its generated state.
//! A file that cannot be *read* (permissions, an I/O error, not a regular file, larger
//! than [`MAX_SAVE_BYTES`]) is left where it is and saving is turned off for that
//! world, with a message saying why.
//!
//! # Two games on one world
//!
//! [`SaveDir::open`] takes the world's lock ([`crate::lock`]) and [`Opened::lock`]
//! holds it; the game keeps it until the world's edits are written after it switches
//! away or quits. A second game that opens the same world in the same folder finds the
//! lock held: it reads the edits but opens the world read-only (`keep_off`, with a
//! notice naming the holder), so it never overwrites the first game's edits nor
//! deletes them on a discard. A killed game's lock is released by the system.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use terravox_voxel::{Block, BlockPos, ChunkPos, Fnv64};
use terravox_worldgen::WorldConfig;
use thiserror::Error;

use crate::file::{TEMP_MARK, write_atomic};
use crate::fluid::Pending;
use crate::lock::{LockError, WorldLock};
use crate::overlay::Edits;

/// The save format version this build writes.
pub const SAVE_VERSION: u32 = 3;
/// The binary format before water flowed (no water section), still read.
pub const BINARY_V2: u32 = 2;
/// The RON format of earlier builds, still read.
pub const LEGACY_VERSION: u32 = 1;
/// Saves larger than this are not read (a sane cap: about 80 million edits).
pub const MAX_SAVE_BYTES: u64 = 256 << 20;
/// Magic bytes at the start of a binary (version 2 or 3) save.
const MAGIC: &[u8; 8] = b"TVXEDITS";
/// Temporary files older than this are leftovers of a killed process.
const STALE_TEMP: Duration = Duration::from_secs(600);

/// A version-1 save file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// Format version ([`LEGACY_VERSION`]).
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
    /// The path is not a regular file (a folder, a device, a pipe).
    #[error("{} is not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than [`MAX_SAVE_BYTES`].
    #[error("{} is {size} bytes, more than the {MAX_SAVE_BYTES} a save may have", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// The file's contents are not a valid save (truncated, garbage, bad checksum).
    #[error("{} is damaged ({detail})", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, with a line and column for RON.
        detail: String,
    },
    /// The file is of a save format this build does not read.
    #[error("{} is save format version {found}; this terravox reads versions {LEGACY_VERSION} to {SAVE_VERSION}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
    },
    /// The file holds another world's edits.
    #[error("{} holds the edits of a different world", path.display())]
    OtherWorld {
        /// The file.
        path: PathBuf,
    },
}

impl LoadError {
    /// Whether the file's contents are bad (so it may be moved aside), rather than the
    /// file being unreadable (so it must stay where it is).
    pub fn is_damaged(&self) -> bool {
        matches!(
            self,
            LoadError::Damaged { .. } | LoadError::Version { .. } | LoadError::OtherWorld { .. }
        )
    }
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
    /// Where a damaged save was moved.
    pub moved_to: Option<PathBuf>,
    /// The save could not be read and is still there, or another game holds the
    /// world: saving must stay off for this world, so it is never overwritten.
    pub keep_off: bool,
    /// The world's lock, held while the world is open (see [`crate::lock`]); `None`
    /// when another game holds it or it could not be taken.
    pub lock: Option<WorldLock>,
    /// Why no lock could be taken, when it was not held by another game (a folder
    /// that cannot be written, a file system without locks): for the log; saving goes
    /// on as without a lock.
    pub lock_warning: Option<String>,
    /// The game holding the world, when another one does.
    pub held_by: Option<String>,
}

/// The platform's data folder for terravox (`$XDG_DATA_HOME/terravox` or
/// `~/.local/share/terravox` on Linux, `~/Library/Application Support/terravox` on
/// macOS, `%APPDATA%\terravox` on Windows), if the platform has one.
pub fn default_save_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("terravox"))
}

/// The save key of a world: the FNV-1a hash of its canonical world code.
pub fn world_key(world: &WorldConfig) -> u64 {
    let mut h = Fnv64::new();
    h.write(world.canonical().to_world_code().as_bytes());
    h.finish()
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
        self.dir
            .join(format!("world-{:016x}.tvx", world_key(world)))
    }

    /// Where a version-1 build saved `world` (keyed by the config as spelled).
    pub fn legacy_path_for(&self, world: &WorldConfig) -> PathBuf {
        let mut h = Fnv64::new();
        h.write(world.to_ron_pretty().as_bytes());
        self.dir.join(format!("world-{:016x}.ron", h.finish()))
    }

    /// Reads `world`'s edits: its save, else its version-1 save, else none.
    pub fn load(&self, world: &WorldConfig) -> Result<Edits, LoadError> {
        let path = self.path_for(world);
        if let Some(bytes) = read_capped(&path)? {
            return decode(&path, &bytes, world);
        }
        let legacy = self.legacy_path_for(world);
        match read_capped(&legacy)? {
            Some(bytes) => parse_ron(&legacy, &String::from_utf8_lossy(&bytes), world),
            None => Ok(Edits::new()),
        }
    }

    /// Writes `world`'s edits atomically (see the module docs).
    pub fn save(&self, world: &WorldConfig, edits: &Edits) -> Result<(), SaveError> {
        let path = self.path_for(world);
        write_atomic(&path, &encode(world, edits)).map_err(|source| SaveError { path, source })
    }

    /// Writes `edits` to a new rescue file beside the save
    /// (`world-<key>.tvx.rescue-<unix time>[-n]`), never replacing a file; for edits
    /// that could not be saved when the game ends. Returns the file written.
    pub fn save_rescue(&self, world: &WorldConfig, edits: &Edits) -> Result<PathBuf, SaveError> {
        let path = free_name(&self.path_for(world), "rescue");
        write_atomic(&path, &encode(world, edits)).map_err(|source| SaveError {
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }

    /// Deletes `world`'s save and its version-1 save, if any.
    pub fn delete(&self, world: &WorldConfig) -> Result<(), SaveError> {
        for path in [self.path_for(world), self.legacy_path_for(world)] {
            match fs::remove_file(&path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(SaveError { path, source: e });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The lock file of `world`'s save (see [`crate::lock`]).
    pub fn lock_path_for(&self, world: &WorldConfig) -> PathBuf {
        self.path_for(world).with_extension("lock")
    }

    /// Opens `world` for this game: takes its lock and loads its edits (see the module
    /// docs on unreadable saves and on two games). Temporary files a killed process
    /// left for this world are removed first. When another game holds the world, its
    /// edits are read but nothing is touched: the world is read-only here
    /// (`keep_off`), and `problem` names the holder.
    pub fn open(&self, world: &WorldConfig) -> Opened {
        match WorldLock::acquire(&self.lock_path_for(world)) {
            Ok(lock) => Opened {
                lock: Some(lock),
                ..self.open_locked(world)
            },
            Err(LockError::Held { holder, .. }) => self.open_read_only(world, &holder),
            Err(e @ LockError::Io { .. }) => Opened {
                lock_warning: Some(format!(
                    "{e}; the world is saved without a lock, so another game must not open it"
                )),
                ..self.open_locked(world)
            },
        }
    }

    /// Reads `world`'s edits while another game holds it: nothing is moved, removed
    /// or ever written.
    fn open_read_only(&self, world: &WorldConfig, holder: &str) -> Opened {
        let notice = format!(
            "This world is open in another terravox ({holder}), so it is read-only here: \
             edits made in this window are not saved to it (a rescue copy is written when \
             you quit), and discarding edits here leaves its save alone."
        );
        let (edits, problem) = match self.load(world) {
            Ok(edits) => (edits, notice),
            Err(e) => (
                Edits::new(),
                format!("{notice} Its edits could not be read: {e}."),
            ),
        };
        Opened {
            edits,
            problem: Some(problem),
            keep_off: true,
            held_by: Some(holder.to_owned()),
            ..Opened::default()
        }
    }

    /// Loads `world`'s edits with its lock held: damaged saves are moved aside.
    fn open_locked(&self, world: &WorldConfig) -> Opened {
        remove_stale_temps(&self.path_for(world));
        let error = match self.load(world) {
            Ok(edits) => {
                return Opened {
                    edits,
                    ..Opened::default()
                };
            }
            Err(e) => e,
        };
        if !error.is_damaged() {
            return Opened {
                problem: Some(format!(
                    "Your edits could not be loaded: {error}. The file is left as it is and \
                     saving is off for this world, so it is never overwritten."
                )),
                keep_off: true,
                ..Opened::default()
            };
        }
        let path = match &error {
            LoadError::Damaged { path, .. }
            | LoadError::Version { path, .. }
            | LoadError::OtherWorld { path } => path.clone(),
            _ => self.path_for(world),
        };
        match move_aside(&path) {
            Ok(to) => Opened {
                problem: Some(format!(
                    "Your edits could not be loaded: {error}. The file was moved to {} and the \
                     world starts as generated.",
                    to.display()
                )),
                moved_to: Some(to),
                ..Opened::default()
            },
            Err(e) => Opened {
                problem: Some(format!(
                    "Your edits could not be loaded: {error}. It could not be moved aside \
                     either ({e}); it will not be overwritten."
                )),
                keep_off: true,
                ..Opened::default()
            },
        }
    }
}

/// Reads a whole file if it exists, refusing anything but a regular file of at most
/// [`MAX_SAVE_BYTES`].
fn read_capped(path: &Path) -> Result<Option<Vec<u8>>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_owned(),
        source,
    };
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    if !meta.is_file() {
        return Err(LoadError::NotAFile {
            path: path.to_owned(),
        });
    }
    if meta.len() > MAX_SAVE_BYTES {
        return Err(LoadError::TooLarge {
            path: path.to_owned(),
            size: meta.len(),
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    File::open(path)
        .and_then(|f| f.take(MAX_SAVE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    Ok(Some(bytes))
}

/// The save bytes (version 3) of `world`'s `edits`.
pub fn encode(world: &WorldConfig, edits: &Edits) -> Vec<u8> {
    let code = world.canonical().to_world_code();
    let mut out = Vec::with_capacity(32 + code.len() + edits.len() * 3 + edits.chunk_count() * 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&SAVE_VERSION.to_le_bytes());
    out.extend_from_slice(&(code.len() as u32).to_le_bytes());
    out.extend_from_slice(code.as_bytes());
    out.extend_from_slice(&(edits.chunk_count() as u32).to_le_bytes());
    for (c, blocks) in edits.chunks() {
        for v in [c.x, c.y, c.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
        for (&i, &b) in blocks {
            out.extend_from_slice(&i.to_le_bytes());
            out.push(b as u8);
        }
    }
    let pending = edits.pending();
    out.extend_from_slice(&pending.next_step().to_le_bytes());
    out.extend_from_slice(&(pending.due().len() as u32).to_le_bytes());
    for (step, p) in pending.due() {
        out.extend_from_slice(&step.to_le_bytes());
        for v in [p.x, p.y, p.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&(pending.running().len() as u32).to_le_bytes());
    for p in pending.running() {
        for v in [p.x, p.y, p.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&(pending.waiting().len() as u32).to_le_bytes());
    for (p, c) in pending.waiting() {
        for v in [p.x, p.y, p.z, c.x, c.y, c.z] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    let mut h = Fnv64::new();
    h.write(&out);
    out.extend_from_slice(&h.finish().to_le_bytes());
    out
}

/// A little-endian reader over save bytes that reports truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().expect("took N bytes"))
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.array().map(u32::from_le_bytes)
    }

    fn i32(&mut self) -> Result<i32, String> {
        self.array().map(i32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.array().map(u64::from_le_bytes)
    }

    fn block_pos(&mut self) -> Result<BlockPos, String> {
        Ok(BlockPos::new(self.i32()?, self.i32()?, self.i32()?))
    }

    /// The water section of a version-3 save.
    fn pending(&mut self) -> Result<Pending, String> {
        let next = self.u64()?;
        let d = self.u32()?;
        let mut due = Vec::new();
        for _ in 0..d {
            let entry = (self.u64()?, self.block_pos()?);
            if due.last().is_some_and(|last| *last >= entry) {
                return Err(format!("water block {:?} out of order", entry.1));
            }
            due.push(entry);
        }
        let r = self.u32()?;
        let running = (0..r)
            .map(|_| self.block_pos())
            .collect::<Result<Vec<_>, _>>()?;
        let w = self.u32()?;
        let mut waiting = Vec::new();
        for _ in 0..w {
            let p = self.block_pos()?;
            let c = self.block_pos()?;
            if waiting.last().is_some_and(|(last, _)| *last >= p) {
                return Err(format!("waiting water block {p:?} out of order"));
            }
            waiting.push((p, ChunkPos::new(c.x, c.y, c.z)));
        }
        Ok(Pending::from_parts(next, due, running, waiting))
    }
}

/// Reads binary (version 2 or 3) save bytes for `world`.
pub fn decode(path: &Path, bytes: &[u8], world: &WorldConfig) -> Result<Edits, LoadError> {
    let damaged = |detail: String| LoadError::Damaged {
        path: path.to_owned(),
        detail,
    };
    if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
        // Not a binary file: perhaps a version-1 save under the new name.
        return match std::str::from_utf8(bytes) {
            Ok(text) if text.trim_start().starts_with(['(', '/']) => parse_ron(path, text, world),
            _ => Err(damaged("not a terravox save".to_owned())),
        };
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = r.u32().map_err(damaged)?;
    if version != SAVE_VERSION && version != BINARY_V2 {
        return Err(LoadError::Version {
            path: path.to_owned(),
            found: version,
        });
    }
    let (body, sum) = bytes.split_at(bytes.len().saturating_sub(8).max(r.at));
    let mut h = Fnv64::new();
    h.write(body);
    if sum.len() != 8 || h.finish().to_le_bytes() != sum {
        return Err(damaged(
            "checksum mismatch: truncated or corrupted".to_owned(),
        ));
    }
    let mut r = Reader {
        bytes: body,
        at: r.at,
    };
    let n = r.u32().map_err(damaged)? as usize;
    let code = r.take(n).map_err(damaged)?;
    let saved = std::str::from_utf8(code)
        .ok()
        .and_then(|c| WorldConfig::from_ron(c).ok());
    if saved.is_none_or(|w| w.canonical() != world.canonical()) {
        return Err(LoadError::OtherWorld {
            path: path.to_owned(),
        });
    }
    let count = r.u32().map_err(damaged)?;
    let mut chunks = Vec::new();
    let mut last: Option<ChunkPos> = None;
    for _ in 0..count {
        let c = ChunkPos::new(
            r.i32().map_err(damaged)?,
            r.i32().map_err(damaged)?,
            r.i32().map_err(damaged)?,
        );
        if last.is_some_and(|l| l >= c) {
            return Err(damaged(format!("chunk {c:?} out of order")));
        }
        last = Some(c);
        let k = r.u32().map_err(damaged)? as usize;
        let raw = r.take(k.saturating_mul(3)).map_err(damaged)?;
        let mut blocks = Vec::with_capacity(k);
        for e in raw.chunks_exact(3) {
            let i = u16::from_le_bytes([e[0], e[1]]);
            let b = Block::ALL
                .get(e[2] as usize)
                .copied()
                .ok_or_else(|| damaged(format!("unknown block number {}", e[2])))?;
            if i >= 32 * 32 * 32 || blocks.last().is_some_and(|&(p, _)| p >= i) {
                return Err(damaged(format!("block index {i} out of order in {c:?}")));
            }
            blocks.push((i, b));
        }
        chunks.push((c, blocks));
    }
    let pending = if version == SAVE_VERSION {
        r.pending().map_err(damaged)?
    } else {
        Pending::default()
    };
    if r.at != body.len() {
        return Err(damaged(format!("{} stray bytes", body.len() - r.at)));
    }
    let mut edits = Edits::from_sorted_chunks(chunks);
    *edits.pending_mut() = pending;
    Ok(edits)
}

/// Parses version-1 save text for `world`.
pub fn parse_ron(path: &Path, text: &str, world: &WorldConfig) -> Result<Edits, LoadError> {
    let damaged = |e: ron::error::SpannedError| LoadError::Damaged {
        path: path.to_owned(),
        detail: format!(
            "line {}, column {}: {}",
            e.span.start.line, e.span.start.col, e.code
        ),
    };
    let header: Header = ron::from_str(text).map_err(damaged)?;
    if header.version != LEGACY_VERSION {
        return Err(LoadError::Version {
            path: path.to_owned(),
            found: header.version,
        });
    }
    let file: SaveFile = ron::from_str(text).map_err(damaged)?;
    if file.world.canonical() != world.canonical() {
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

/// The version-1 text of `file`: pretty RON with one edit per line (for tests of the
/// import).
#[cfg(feature = "test-support")]
pub fn to_ron(file: &SaveFile) -> String {
    let pretty = ron::ser::PrettyConfig::new().compact_arrays(false);
    let mut text = String::from("// terravox world edits; format: see the terravox-edits docs\n");
    // Serialising plain data into a String cannot fail.
    text.push_str(&ron::ser::to_string_pretty(file, pretty).expect("a save serialises"));
    text.push('\n');
    text
}

/// Removes `<path>.tmp-*` files older than [`STALE_TEMP`]: what a killed process
/// left in the middle of a save.
fn remove_stale_temps(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!("{}{TEMP_MARK}", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for e in entries.flatten() {
        let stale = e
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > STALE_TEMP));
        if stale && e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// `<path>.<what>-<unix seconds>[-n]`: a name no file has yet.
fn free_name(path: &Path, what: &str) -> PathBuf {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (0..)
        .map(|n| {
            let mut name = path.as_os_str().to_owned();
            name.push(format!(".{what}-{secs}"));
            if n > 0 {
                name.push(format!("-{n}"));
            }
            PathBuf::from(name)
        })
        .find(|p| !p.exists())
        .expect("some name is free")
}

/// Renames an unreadable file to `<name>.unreadable-<unix seconds>[-n]`, never
/// replacing an existing file. Returns the new path.
pub fn move_aside(path: &Path) -> io::Result<PathBuf> {
    let to = free_name(path, "unreadable");
    fs::rename(path, &to)?;
    Ok(to)
}
