//! terravox worlds for other programs: a [`minecraft`] Java Edition world folder, a
//! [`gltf`] binary of the meshes the game draws, and a 16-bit [`heightmap`].
//!
//! Every export reads the same [`Source`] the game does (the generator plus the
//! player's saved edits), so the exported world is the world walked. The work runs
//! on all cores (rayon), goes area by area so memory stays bounded, reports to a
//! [`Progress`], and is written beside its target and renamed into place only when
//! complete ([`target`]): an interrupted export never leaves something that looks
//! finished.
//!
//! This crate never depends on Bevy. The project's architecture is in `docs/design.md`.

mod area;
mod error;
pub mod gltf;
pub mod heightmap;
pub mod minecraft;
mod progress;
mod source;
pub mod target;

pub use area::{Area, Volume};
pub use error::ExportError;
pub use progress::Progress;
pub use source::{Source, Surface};
