//! Writing a file whole or not at all ([`write_atomic`]): what a save, the panel's
//! Save RON and an export's files all need, so a crash never leaves half a file.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a temporary file's name adds to the name of the file it will become
/// (`world.tvx.tmp-<process>-<count>`): a save removes stale ones it finds.
pub(crate) const TEMP_MARK: &str = ".tmp-";

/// Numbers temporary files of one process apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` so that a crash leaves either the old or the new file:
/// a temporary file unique to this process and write, `fsync`, rename, `fsync` of the
/// folder. On failure the temporary file is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_whole(path, bytes, false)
}

/// [`write_atomic`] for a secret (a private key): on Unix the file is readable and
/// writable by its owner alone from the moment it is created.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_whole(path, bytes, true)
}

fn write_whole(path: &Path, bytes: &[u8], private: bool) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(
        "{TEMP_MARK}{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = PathBuf::from(tmp);
    let written = create(&tmp, private).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written.and_then(|()| fs::rename(&tmp, path)) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    // Make the rename itself durable (not supported on every platform).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Creates `path` afresh, for its owner alone if `private` (on Unix).
fn create(path: &Path, private: bool) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    options.open(path)
}
