//! The player's changes to a world: a sparse [`Edits`] overlay on the generated
//! blocks, the water those changes set flowing ([`fluid`]: Minecraft's rules,
//! stepped), and the crash-safe [`save`] files that keep both between sessions.
//!
//! Edits belong to one world, identified by its full [`WorldConfig`]
//! (seed, generator and every parameter): the same config always finds the same
//! edits, another config has its own. A generated chunk plus [`Edits::apply`] is the
//! chunk the player sees; since generation is deterministic, that is all a save needs.
//!
//! This crate never depends on Bevy. The project's architecture is in `docs/design.md`.
//! The feature `test-support` adds what only tests read: a save's version-1 text
//! (`save::to_ron`) and whether water is fed (`fluid::fed`).
//!
//! [`WorldConfig`]: terravox_worldgen::WorldConfig

mod coarse;
mod columns;
pub mod file;
pub mod fluid;
pub mod journal;
pub mod lock;
pub mod overlay;
pub mod save;

pub use columns::EditedColumns;
pub use journal::{Journal, Replay};
pub use lock::{LockError, WorldLock};
pub use overlay::{Edits, LocalEdit, apply_local};
pub use save::{
    BINARY_V2, LEGACY_VERSION, LoadError, MAX_SAVE_BYTES, Opened, SAVE_VERSION, SaveDir, SaveError,
    SaveFile, default_save_dir, world_key,
};
