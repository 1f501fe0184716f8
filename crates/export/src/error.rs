//! Why an export could not be made.

use std::path::PathBuf;

/// Why an export could not be made. Nothing that looks finished is left behind.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The area or volume asked for is empty, inverted, too large or outside the world.
    #[error("{0}")]
    Area(String),
    /// The target exists and is not empty, and `--force` was not given.
    #[error("{} exists and is not empty; choose another --out or add --force to replace it", .0.display())]
    Exists(PathBuf),
    /// The target exists and is not something an export would have written, so even
    /// `--force` does not delete it.
    #[error("{} is not a {what} an export wrote; refusing to replace it even with --force", .path.display())]
    NotOurs {
        /// The target.
        path: PathBuf,
        /// What the export writes ("Minecraft world folder", "file").
        what: &'static str,
    },
    /// Reading or writing a file failed.
    #[error("cannot write {}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A format library refused the data (a bug, not bad input).
    #[error("cannot encode {what}: {message}")]
    Encode {
        /// What was being encoded.
        what: &'static str,
        /// The library's message.
        message: String,
    },
}

impl ExportError {
    /// An I/O error at `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ExportError {
        let path = path.into();
        move |source| ExportError::Io { path, source }
    }

    /// A format library's error while encoding `what`.
    pub(crate) fn encode(what: &'static str) -> impl FnOnce(String) -> ExportError {
        move |message| ExportError::Encode { what, message }
    }
}
