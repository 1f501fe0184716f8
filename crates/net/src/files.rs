//! The plain text files a server and a player keep (the known servers, the roster,
//! the access lists): read whole, a file not there yet read as empty.

use std::io;
use std::path::Path;

/// The text of `path`, or nothing if there is no such file yet.
pub(crate) fn read_or_empty(path: &Path) -> io::Result<String> {
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(String::new()),
        read => read,
    }
}

/// A fresh folder of this process's for a test's files.
#[cfg(test)]
pub(crate) fn scratch(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tvx-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}
