//! The game's integration tests, one binary (a binary a file linked Bevy and ran each
//! alone; together they link once and share the cores): a module a concern.

mod common;

mod app;
mod culling;
mod edit;
mod horizon;
mod input;
mod live;
mod saves;
mod shaders;
mod signal;
mod water;
