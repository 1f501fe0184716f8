//! The worldgen integration tests, one binary (a binary a file linked and ran each
//! alone; together they share the cores): a module a concern.

mod common;

mod bounds;
mod caves;
mod determinism;
mod lod;
mod nature;
mod relief;
mod section;
mod spawn;
mod validation;
mod water;
mod work_bounds;
mod worlds;
