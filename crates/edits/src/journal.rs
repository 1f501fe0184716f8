//! A world's journal: the edits made since its save, appended and made durable
//! ([`Journal::append`] returns once they are on disk) before anyone is told they
//! were made. A server acknowledges an edit only then, so every acknowledged edit
//! survives the process killed at any moment: at start the save is read and the
//! journals after it are laid over it ([`Journal::open`]).
//!
//! # Files
//!
//! `world-<key>.journal-<generation>` beside the save (the same key), generations
//! counting up. Appends go to the newest. Before a save's snapshot is taken the
//! journal moves on to a new generation ([`Journal::rotate`]): the snapshot holds
//! everything the older files hold, so once the save is written they are deleted
//! ([`Journal::retire`]). A crash between the two leaves older files beside a newer
//! save: laying them over it again sets the same edits in the same order (the water
//! those blocks held since is woken around them and flows again).
//!
//! ```text
//! header   8 bytes "TVXJRNL1", u64 the world's key
//! records  u32 n (1 to MAX_RECORD), then n times: i32 x, i32 y, i32 z, u8 block;
//!          u64 FNV-1a 64 of the record's bytes before it
//! ```
//!
//! A record cut short or damaged ends the file's reading there: it was never made
//! durable, so never acknowledged (what follows it, if anything, is not read).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use terravox_voxel::{Block, BlockPos, Fnv64};
use terravox_worldgen::WorldConfig;

use crate::save::{SaveDir, world_key};

/// The bytes a journal file starts with.
const MAGIC: &[u8; 8] = b"TVXJRNL1";
/// Bytes of one edit in a record.
const EDIT_BYTES: usize = 13;
/// The most edits one record holds.
pub const MAX_RECORD: usize = 1 << 16;

/// One world's journal, open for appending.
#[derive(Debug)]
pub struct Journal {
    /// The save's path: the journals' names are made from it.
    save: PathBuf,
    key: u64,
    generation: u64,
    file: File,
    /// Bytes in the newest file.
    bytes: u64,
}

/// What the journals of a world held when it was opened.
#[derive(Debug, Default)]
pub struct Replay {
    /// Every edit, in the order made.
    pub edits: Vec<(BlockPos, Block)>,
    /// Files whose end was cut short or damaged (read up to there), for the log.
    pub damaged: Vec<PathBuf>,
}

impl Journal {
    /// Opens `world`'s journal in `dir`: reads what its files hold (in the order
    /// written) and starts a new generation for what comes next. The older files
    /// stay until [`Journal::retire`] (after the save that holds them).
    pub fn open(dir: &SaveDir, world: &WorldConfig) -> io::Result<(Self, Replay)> {
        let save = dir.path_for(world);
        let key = world_key(world);
        let mut replay = Replay::default();
        let files = generations(&save)?;
        for (_, path) in &files {
            if !read_file(path, key, &mut replay.edits)? {
                replay.damaged.push(path.clone());
            }
        }
        let generation = files.last().map_or(0, |(g, _)| g + 1);
        let (file, bytes) = create(&save, key, generation)?;
        Ok((
            Self {
                save,
                key,
                generation,
                file,
                bytes,
            },
            replay,
        ))
    }

    /// Appends `edits` and returns once they are on disk (at most [`MAX_RECORD`] a
    /// record; more are split).
    pub fn append(&mut self, edits: &[(BlockPos, Block)]) -> io::Result<()> {
        if edits.is_empty() {
            return Ok(());
        }
        let mut out = Vec::with_capacity(edits.len() * EDIT_BYTES + 16);
        for part in edits.chunks(MAX_RECORD) {
            let start = out.len();
            out.extend_from_slice(&(part.len() as u32).to_le_bytes());
            for (p, b) in part {
                for v in [p.x, p.y, p.z] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                out.push(*b as u8);
            }
            let mut h = Fnv64::new();
            h.write(&out[start..]);
            out.extend_from_slice(&h.finish().to_le_bytes());
        }
        self.file.write_all(&out)?;
        self.file.sync_data()?;
        self.bytes += out.len() as u64;
        Ok(())
    }

    /// Moves on to a new file, before a save's snapshot is taken; returns its
    /// generation: once that save is written, the files before it may go.
    pub fn rotate(&mut self) -> io::Result<u64> {
        let (file, bytes) = create(&self.save, self.key, self.generation + 1)?;
        self.generation += 1;
        self.file = file;
        self.bytes = bytes;
        Ok(self.generation)
    }

    /// Deletes the files of generations before `generation` (their edits are in a
    /// save written since).
    pub fn retire(&self, generation: u64) -> io::Result<()> {
        for (g, path) in generations(&self.save)? {
            if g < generation {
                fs::remove_file(path)?;
            }
        }
        Ok(())
    }

    /// Bytes in the newest file.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The newest file's generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

/// The journal file of `generation` beside `save`.
fn path_of(save: &Path, generation: u64) -> PathBuf {
    let mut name = save.as_os_str().to_owned();
    name.push(format!(".journal-{generation}"));
    PathBuf::from(name)
}

/// The journal files beside `save`, by generation.
fn generations(save: &Path) -> io::Result<Vec<(u64, PathBuf)>> {
    let dir = save.parent().unwrap_or(Path::new("."));
    let prefix = format!(
        "{}.journal-",
        save.file_name().unwrap_or_default().to_string_lossy()
    );
    let mut out = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e),
    };
    for e in entries {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(g) = name.strip_prefix(&prefix).and_then(|g| g.parse().ok()) {
            out.push((g, e.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// Creates the journal file of `generation`, durable with its header.
fn create(save: &Path, key: u64, generation: u64) -> io::Result<(File, u64)> {
    let dir = save.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(path_of(save, generation))?;
    file.write_all(MAGIC)?;
    file.write_all(&key.to_le_bytes())?;
    file.sync_all()?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok((file, (MAGIC.len() + 8) as u64))
}

/// Reads one journal file's edits into `out`; whether it was whole (a file of
/// another world or an unknown kind counts as damaged, and gives nothing).
fn read_file(path: &Path, key: u64, out: &mut Vec<(BlockPos, Block)>) -> io::Result<bool> {
    let bytes = fs::read(path)?;
    if bytes.len() < 16 || &bytes[..8] != MAGIC || bytes[8..16] != key.to_le_bytes() {
        return Ok(false);
    }
    let mut at = 16;
    while at < bytes.len() {
        let Some(n) = bytes.get(at..at + 4) else {
            return Ok(false);
        };
        let n = u32::from_le_bytes(n.try_into().expect("4 bytes")) as usize;
        let end = at + 4 + n * EDIT_BYTES;
        if n == 0 || n > MAX_RECORD || end + 8 > bytes.len() {
            return Ok(false);
        }
        let mut h = Fnv64::new();
        h.write(&bytes[at..end]);
        if bytes[end..end + 8] != h.finish().to_le_bytes() {
            return Ok(false);
        }
        let mut record = Vec::with_capacity(n);
        for e in bytes[at + 4..end].chunks_exact(EDIT_BYTES) {
            let v = |i: usize| i32::from_le_bytes(e[i..i + 4].try_into().expect("4 bytes"));
            let Some(&b) = Block::ALL.get(e[12] as usize) else {
                return Ok(false);
            };
            record.push((BlockPos::new(v(0), v(4), v(8)), b));
        }
        out.extend(record);
        at = end + 8;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tvx-journal-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn edits_appended_are_read_back_in_order_across_generations_until_retired() {
        let dir = SaveDir::new(temp("order"));
        let world = WorldConfig::default();
        let (mut j, replay) = Journal::open(&dir, &world).unwrap();
        assert!(replay.edits.is_empty());
        let a = [
            (BlockPos::new(1, 2, 3), Block::Brick),
            (BlockPos::new(-4, 5, -6), Block::Air),
        ];
        j.append(&a).unwrap();
        let g = j.rotate().unwrap();
        j.append(&[(BlockPos::new(1, 2, 3), Block::Water)]).unwrap();
        drop(j);
        let (j, replay) = Journal::open(&dir, &world).unwrap();
        assert_eq!(
            replay.edits,
            [a[0], a[1], (BlockPos::new(1, 2, 3), Block::Water)]
        );
        assert!(replay.damaged.is_empty());
        // Retiring the files before the rotation leaves the later one.
        j.retire(g).unwrap();
        let (_, replay) = Journal::open(&dir, &world).unwrap();
        assert_eq!(replay.edits, [(BlockPos::new(1, 2, 3), Block::Water)]);
        let _ = fs::remove_dir_all(dir.dir());
    }

    #[test]
    fn a_record_cut_short_or_damaged_ends_the_reading_of_its_file() {
        let dir = SaveDir::new(temp("cut"));
        let world = WorldConfig::default();
        let (mut j, _) = Journal::open(&dir, &world).unwrap();
        j.append(&[(BlockPos::new(1, 1, 1), Block::Stone)]).unwrap();
        j.append(&[(BlockPos::new(2, 2, 2), Block::Sand)]).unwrap();
        let path = path_of(&dir.path_for(&world), j.generation());
        drop(j);
        let whole = fs::read(&path).unwrap();
        for cut in 16..whole.len() {
            fs::write(&path, &whole[..cut]).unwrap();
            let mut edits = Vec::new();
            let ok = read_file(&path, world_key(&world), &mut edits).unwrap();
            let records = if cut < 16 + 4 + 13 + 8 { 0 } else { 1 };
            assert_eq!(edits.len(), records, "cut at {cut}");
            assert_eq!(ok, cut == 16 || cut == 16 + 25, "cut at {cut}");
        }
        let mut flipped = whole.clone();
        flipped[16 + 25 + 6] ^= 1;
        fs::write(&path, &flipped).unwrap();
        let mut edits = Vec::new();
        assert!(!read_file(&path, world_key(&world), &mut edits).unwrap());
        assert_eq!(edits, [(BlockPos::new(1, 1, 1), Block::Stone)]);
        let _ = fs::remove_dir_all(dir.dir());
    }
}
