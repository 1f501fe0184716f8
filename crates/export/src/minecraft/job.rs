//! An export's work, kept across runs: a killed export resumes where it stopped, and
//! shards run apart (`--shard K/N`, on one machine or many sharing the folder) fill
//! one world. The world is written in its target's work folder
//! ([`crate::target::Target::resumable`]), which holds [`JOB_DIR`] until the world is
//! finished: `job` (what the export is: the world code, the edits, the area, the
//! sea's height and the shard count; a run of another export is refused there) and a
//! mark per region file written (`r.X.Z`: its figures), made after the region file
//! is complete and renamed into place. A region counts as done when its mark is
//! there and its file is whole (its length the mark's, every chunk readable).

use std::fs;
use std::path::{Path, PathBuf};

use fastanvil::Region;
use terravox_edits::file;

use crate::error::ExportError;

/// The folder of an export's work inside the world being written.
pub const JOB_DIR: &str = "terravox-job";

/// The file in [`JOB_DIR`] whose making claims the finishing of the world.
pub const CLAIM: &str = "finishing";

/// What one region file took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Written {
    pub(crate) chunks: u64,
    /// One above its highest block.
    pub(crate) top: i32,
    pub(crate) cut_columns: u64,
    pub(crate) bytes: u64,
    /// Columns whose land was brought down from above a fold.
    pub(crate) folded_columns: u64,
    /// The highest Minecraft height of its land before any fold.
    pub(crate) land_top: i32,
}

impl Written {
    fn to_text(self) -> String {
        format!(
            "{} {} {} {} {} {}\n",
            self.chunks, self.top, self.cut_columns, self.bytes, self.folded_columns, self.land_top
        )
    }

    fn from_text(text: &str) -> Option<Self> {
        let mut v = text.split_whitespace();
        let w = Written {
            chunks: v.next()?.parse().ok()?,
            top: v.next()?.parse().ok()?,
            cut_columns: v.next()?.parse().ok()?,
            bytes: v.next()?.parse().ok()?,
            folded_columns: v.next()?.parse().ok()?,
            land_top: v.next()?.parse().ok()?,
        };
        v.next().is_none().then_some(w)
    }
}

/// An export's work in the folder `world` (the target's work folder).
#[derive(Debug)]
pub(crate) struct Job {
    /// The region files' folder.
    regions: PathBuf,
    /// [`JOB_DIR`] in it.
    dir: PathBuf,
}

impl Job {
    /// The work of the export `what` in `world`: begun, or found begun by the same
    /// export (a resumed run, another shard); one begun by another export is refused,
    /// and nothing of it is touched.
    pub(crate) fn open(world: &Path, what: &str) -> Result<Job, ExportError> {
        let dir = world.join(JOB_DIR);
        let regions = world.join("region");
        let file = dir.join("job");
        match fs::read_to_string(&file) {
            Ok(found) if found == what => {}
            Ok(found) => {
                return Err(ExportError::Area(format!(
                    "{} holds the work of another export; run that one again to finish it \
                     (or remove the folder to start this one):\n  there: {}\n  here:  {}",
                    world.display(),
                    found.trim(),
                    what.trim()
                )));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                fs::create_dir_all(&dir).map_err(ExportError::io(&dir))?;
                write_atomic(&file, what.as_bytes())?;
            }
            Err(e) => return Err(ExportError::io(&file)(e)),
        }
        fs::create_dir_all(&regions).map_err(ExportError::io(&regions))?;
        Ok(Job { regions, dir })
    }

    /// Region `r`'s file.
    pub(crate) fn region_file(&self, [rx, rz]: [i32; 2]) -> PathBuf {
        self.regions.join(format!("r.{rx}.{rz}.mca"))
    }

    /// What region `r` took, if it is done: marked, its file of the marked length
    /// and, where `read` asks, every chunk of it readable.
    pub(crate) fn done(&self, r: [i32; 2], read: bool) -> Option<Written> {
        let mark = fs::read_to_string(self.mark(r)).ok()?;
        let w = Written::from_text(&mark)?;
        let file = self.region_file(r);
        if fs::metadata(&file).ok()?.len() != w.bytes {
            return None;
        }
        (!read || whole(&file, w.chunks)).then_some(w)
    }

    /// Marks region `r` done, having taken `w` (its file complete and in place).
    pub(crate) fn mark_done(&self, r: [i32; 2], w: Written) -> Result<(), ExportError> {
        write_atomic(&self.mark(r), w.to_text().as_bytes())
    }

    /// Whether this run is the one to finish the world (the first to ask, when every
    /// region is done; another shard may ask at the same time).
    pub(crate) fn claim_finish(&self) -> Result<bool, ExportError> {
        let path = self.dir.join(CLAIM);
        match fs::File::options().write(true).create_new(true).open(&path) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(ExportError::io(&path)(e)),
        }
    }

    fn mark(&self, [rx, rz]: [i32; 2]) -> PathBuf {
        self.dir.join(format!("r.{rx}.{rz}"))
    }
}

/// Removes the work's records from the finished world `world`.
pub(crate) fn forget(world: &Path) -> Result<(), ExportError> {
    let dir = world.join(JOB_DIR);
    fs::remove_dir_all(&dir).map_err(ExportError::io(&dir))
}

/// Whether the region file at `path` holds `chunks` chunks, each readable.
fn whole(path: &Path, chunks: u64) -> bool {
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    let Ok(mut region) = Region::from_stream(file) else {
        return false;
    };
    let mut found = 0;
    for z in 0..32 {
        for x in 0..32 {
            match region.read_chunk(x, z) {
                Ok(Some(_)) => found += 1,
                Ok(None) => {}
                Err(_) => return false,
            }
        }
    }
    found == chunks
}

/// Writes `bytes` to `path` whole or not at all ([`file::write_atomic`]: a temporary
/// of this process's own beside it, so shards writing at once never share one).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    file::write_atomic(path, bytes).map_err(ExportError::io(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::tests::scratch;

    #[test]
    fn a_region_is_done_only_when_marked_and_whole() {
        let world = scratch("job-done");
        let job = Job::open(&world, "export A\n").unwrap();
        let r = [1, -2];
        assert_eq!(job.done(r, true), None);
        // An empty region file: no chunks, 0 bytes.
        fs::write(job.region_file(r), b"").unwrap();
        let w = Written {
            chunks: 0,
            top: 320,
            cut_columns: 0,
            bytes: 0,
            folded_columns: 0,
            land_top: 70,
        };
        assert_eq!(job.done(r, false), None, "not marked yet");
        job.mark_done(r, w).unwrap();
        assert_eq!(job.done(r, false), Some(w));
        // A file cut short or grown is not done.
        fs::write(job.region_file(r), b"x").unwrap();
        assert_eq!(job.done(r, false), None);
        // A mark that is not one is not done either.
        fs::write(job.mark(r), b"3 4").unwrap();
        fs::write(job.region_file(r), b"").unwrap();
        assert_eq!(job.done(r, false), None);
    }

    #[test]
    fn another_export_s_work_is_refused_and_kept() {
        let world = scratch("job-other");
        let job = Job::open(&world, "export A\n").unwrap();
        job.mark_done(
            [0, 0],
            Written {
                chunks: 1,
                top: 320,
                cut_columns: 0,
                bytes: 9,
                folded_columns: 0,
                land_top: 70,
            },
        )
        .unwrap();
        let e = Job::open(&world, "export B\n").unwrap_err().to_string();
        assert!(
            e.contains("another export") && e.contains("export A"),
            "{e}"
        );
        assert!(
            world.join(JOB_DIR).join("r.0.0").is_file(),
            "nothing touched"
        );
        // The same export finds its work; one run claims the finish.
        let again = Job::open(&world, "export A\n").unwrap();
        assert!(again.claim_finish().unwrap());
        assert!(!job.claim_finish().unwrap());
        forget(&world).unwrap();
        assert!(!world.join(JOB_DIR).exists());
    }
}
