//! Writing an export so that only a complete one ever carries the target's name.
//!
//! The export is written into a temporary file or folder beside the target
//! (`.NAME.partial-PID`, hidden, in the same folder so the rename never copies) and
//! renamed to the target once everything is written and flushed. An export that
//! fails removes its temporary; one that is killed leaves a `.partial` that nothing
//! mistakes for a finished export (a resumable folder, [`Target::resumable`], keeps
//! its work in `.NAME.partial` for the next run). An existing target is refused
//! unless `force`,
//! and even then only replaced when it is what an export writes (a file, or a
//! folder that is empty or holds a Minecraft world).

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::ExportError;

/// A file or folder being written.
#[derive(Debug)]
pub struct Target {
    /// Where it goes when complete.
    path: PathBuf,
    /// Where it is written meanwhile.
    partial: PathBuf,
    /// A folder (else a file).
    folder: bool,
    /// Whether its work is kept across runs ([`Target::resumable`]).
    resumable: bool,
    /// Whether it was finished (else, unless resumable, it is removed when dropped).
    done: bool,
}

impl Target {
    /// Starts a file at `path`: checks the target and creates nothing yet (write to
    /// [`Target::partial`]).
    pub fn file(path: &Path, force: bool) -> Result<Target, ExportError> {
        Self::start(path, force, false, false)
    }

    /// Starts a folder at `path`, creating the temporary folder.
    pub fn folder(path: &Path, force: bool) -> Result<Target, ExportError> {
        let t = Self::start(path, force, true, false)?;
        fs::create_dir(&t.partial).map_err(ExportError::io(&t.partial))?;
        Ok(t)
    }

    /// Starts a folder at `path` whose work is kept across runs: written in
    /// `.NAME.partial` (no process id, so a later run, or another process sharing
    /// the work, finds it), created unless there, and left in place when the export
    /// stops before [`Target::finish`]. What is in it is the caller's to check.
    pub fn resumable(path: &Path, force: bool) -> Result<Target, ExportError> {
        let t = Self::start(path, force, true, true)?;
        fs::create_dir_all(&t.partial).map_err(ExportError::io(&t.partial))?;
        Ok(t)
    }

    fn start(
        path: &Path,
        force: bool,
        folder: bool,
        resumable: bool,
    ) -> Result<Target, ExportError> {
        let name = path
            .file_name()
            .ok_or_else(|| ExportError::Area(format!("--out {} names no file", path.display())))?;
        if let Ok(meta) = fs::symlink_metadata(path) {
            let empty = if meta.is_dir() {
                fs::read_dir(path)
                    .map_err(ExportError::io(path))?
                    .next()
                    .is_none()
            } else {
                meta.len() == 0
            };
            if !empty && !force {
                return Err(ExportError::Exists(path.to_path_buf()));
            }
            let ours = match (folder, meta.is_dir()) {
                (true, true) => empty || path.join("level.dat").is_file(),
                (false, false) => meta.is_file(),
                _ => false,
            };
            if !ours {
                let what = if folder {
                    "Minecraft world folder"
                } else {
                    "file"
                };
                return Err(ExportError::NotOurs {
                    path: path.to_path_buf(),
                    what,
                });
            }
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !parent.is_dir() {
            return Err(ExportError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("its folder {} does not exist", parent.display()),
                ),
            });
        }
        let name = name.to_string_lossy();
        let partial = parent.join(match resumable {
            true => format!(".{name}.partial"),
            false => format!(".{name}.partial-{}", std::process::id()),
        });
        Ok(Target {
            path: path.to_path_buf(),
            partial,
            folder,
            resumable,
            done: false,
        })
    }

    /// Where to write now: the temporary file or folder.
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// Where the export goes when complete.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the complete export to the target, replacing what was there (checked
    /// when it started).
    pub fn finish(mut self) -> Result<PathBuf, ExportError> {
        if self.folder {
            if self.path.is_dir() {
                fs::remove_dir_all(&self.path).map_err(ExportError::io(&self.path))?;
            }
        } else {
            // A file is written whole before this, so a rename replaces it in one step.
            fs::File::open(&self.partial)
                .and_then(|f| f.sync_all())
                .map_err(ExportError::io(&self.partial))?;
        }
        fs::rename(&self.partial, &self.path).map_err(ExportError::io(&self.path))?;
        self.done = true;
        Ok(self.path.clone())
    }
}

impl Drop for Target {
    /// A failed export takes its temporary with it (a resumable one keeps it).
    fn drop(&mut self) {
        if !self.done && !self.resumable {
            let _ = if self.folder {
                fs::remove_dir_all(&self.partial)
            } else {
                fs::remove_file(&self.partial)
            };
        }
    }
}

/// Writes `bytes` to `path` (inside a target's temporary), mapping errors.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    fs::write(path, bytes).map_err(ExportError::io(path))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An empty folder for the unit test `name`, under the system's temporary folder.
    pub(crate) fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("terravox-export-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn only_a_finished_export_has_the_name() {
        let d = scratch("target-finish");
        let out = d.join("world");
        let t = Target::folder(&out, false).unwrap();
        write(&t.partial().join("level.dat"), b"x").unwrap();
        assert!(!out.exists(), "nothing has the name before finish");
        t.finish().unwrap();
        assert!(out.join("level.dat").is_file());
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["world"], "no temporary left");
    }

    #[test]
    fn a_failed_export_leaves_nothing() {
        let d = scratch("target-fail");
        let out = d.join("map.png");
        {
            let t = Target::file(&out, false).unwrap();
            write(t.partial(), b"half").unwrap();
        }
        assert_eq!(fs::read_dir(&d).unwrap().count(), 0);
    }

    #[test]
    fn existing_targets_need_force_and_must_be_ours() {
        let d = scratch("target-exists");
        let file = d.join("map.png");
        fs::write(&file, b"old").unwrap();
        assert!(matches!(
            Target::file(&file, false),
            Err(ExportError::Exists(_))
        ));
        let t = Target::file(&file, true).unwrap();
        write(t.partial(), b"new").unwrap();
        t.finish().unwrap();
        assert_eq!(fs::read(&file).unwrap(), b"new");

        let notes = d.join("notes");
        fs::create_dir(&notes).unwrap();
        fs::write(notes.join("todo.txt"), b"keep me").unwrap();
        assert!(matches!(
            Target::folder(&notes, false),
            Err(ExportError::Exists(_))
        ));
        assert!(matches!(
            Target::folder(&notes, true),
            Err(ExportError::NotOurs { .. })
        ));
        assert_eq!(fs::read(notes.join("todo.txt")).unwrap(), b"keep me");
        assert!(Target::file(&d.join("no/such/dir.png"), false).is_err());
    }
}
