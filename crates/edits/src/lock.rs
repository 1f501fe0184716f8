//! One game at a time per world save: an advisory lock on `world-<key>.lock`.
//!
//! Two games writing the same save would each write their whole overlay and undo the
//! other's edits, and a discard in one would delete what the other saved. So the game
//! that opens a world first holds an operating-system advisory lock on a small file
//! beside the save (`flock` on Unix, `LockFileEx` on Windows, through
//! [`File::try_lock`]) for as long as the world is open; a second game finds it held,
//! names the holder written in the file, and opens the world read-only.
//!
//! The operating system drops the lock when its holder exits or is killed, so a stale
//! lock never blocks: a killed game leaves the file behind, and the next game takes
//! its lock at once. The file is never deleted (deleting a lock file while another
//! process is about to lock it would let two processes hold "the" lock).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use thiserror::Error;

/// Why a world's lock was not taken.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another process holds it.
    #[error("{} is held by {holder}", path.display())]
    Held {
        /// The lock file.
        path: PathBuf,
        /// Who holds it, as the holder wrote it (`process 1234 (terravox), since ...`).
        holder: String,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock {}: {source}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

/// A held world lock; dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct WorldLock {
    /// The open, locked file: closing it releases the lock.
    _file: File,
    path: PathBuf,
}

impl WorldLock {
    /// Takes the lock at `path` without waiting, creating the file (and its folder)
    /// if needed, and writes this process's description into it for others to read.
    pub fn acquire(path: &Path) -> Result<WorldLock, LockError> {
        let io = |source| LockError::Io {
            path: path.to_owned(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    path: path.to_owned(),
                    holder: read_holder(&mut file),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        // Only the description; the lock itself is the kernel's. A failure here leaves
        // the lock held and the description empty ("an unnamed process").
        let _ = file
            .set_len(0)
            .and_then(|()| file.write_all(describe_this_process().as_bytes()))
            .and_then(|()| file.sync_data());
        Ok(WorldLock {
            _file: file,
            path: path.to_owned(),
        })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// `process <pid> (<program>), since <unix seconds>`: what a second game shows.
fn describe_this_process() -> String {
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "terravox".to_owned());
    let since = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!(
        "process {} ({program}), since unix time {since}",
        std::process::id()
    )
}

/// The holder's description from the lock file (at most a line of it).
fn read_holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.take(256).read_to_string(&mut text));
    match text.lines().next().map(str::trim) {
        Some(line) if !line.is_empty() => line.to_owned(),
        _ => "an unnamed process".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder_named_and_free_once_dropped() {
        let dir = std::env::temp_dir().join(format!("terravox-lock-{}", std::process::id()));
        let path = dir.join("sub").join("world-1.lock");
        let first = WorldLock::acquire(&path).unwrap();
        assert_eq!(first.path(), path);
        // Another open file description in this process conflicts like another process.
        match WorldLock::acquire(&path) {
            Err(LockError::Held { holder, .. }) => {
                assert!(
                    holder.contains(&format!("process {}", std::process::id())),
                    "{holder}"
                );
            }
            other => panic!("expected Held, got {other:?}"),
        }
        drop(first);
        let again = WorldLock::acquire(&path);
        assert!(again.is_ok(), "{again:?}");
        drop(again);
        let _ = std::fs::remove_dir_all(dir);
    }
}
