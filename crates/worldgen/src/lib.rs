//! World generation for terravox: a [`WorldConfig`] (seed, generator, parameters) turns
//! into chunks, column heights and top-down maps.
//!
//! Two generators (see `docs/design.md`): a 3D density field ("Cliffs", "Continents")
//! and a 2D heightmap with an island falloff ("Islands"). A [`Generator`] is
//! `Send + Sync` and [`Generator::generate`] is a pure function of the config and the
//! chunk position: the same seed and settings give bit-identical chunks on any thread,
//! in any order. Pure Rust, no Bevy. The crate owns no threads: the work that can run
//! in parallel (a map's rows, a statistic's samples) runs on the caller's threads
//! through a [`ForEach`] (rayon in the command line, one after another inside the
//! game's worker task, or [`sequential`]). Its only state beyond a generator is kept
//! per thread and never changes a result: the columns of the chunks a thread generated
//! last (the density field reuses them for the chunks above and below) and the count
//! of noise octaves evaluated (the measure of work that tests hold maps to).
//!
//! The stages, from the bottom up: each module uses only those listed before it.
//!
//! ```text
//! bounds, mix, store  the world's bounds; fixed mixing of seeds; values made once
//!            per key and shared by threads (bounded)
//! noise      seeded fractal noise (fbm) and the erosion filter (MPL-2.0)
//! config     the world config: the seed, every parameter once (`params`),
//!            validation, presets, the generated parameter reference
//! shape      the land's shape: climate fields -> each column's density formula,
//!            version 4's mountain ranges (relief), the fields one at a time
//! hydrology  the drainage network (version 5 on): springs, rivers downhill, lakes,
//!            and the ground shaped to them
//! surface    biomes, the faces slopes give the ground, block rules, caves
//! nature     trees: species and shapes, planting them by biome
//! lod        coarse chunks for the horizon, which both generators fill
//! density | islands   the two generators
//! terrain    the one trait both implement
//! generator  `Generator`: a world's terrain behind a shared pointer
//! query      what is asked of a generator: places to stand, the spawn and its first
//!            frame, top-down maps (`map`),
//!            relief statistics (`stats`), side views (`section`), the fields
//! ```
//!
//! Every public name is reachable by one path: this root, or one of the namespaces
//! [`erosion`], [`fields`], [`map`], [`params`], [`presets`], [`reference`](mod@reference),
//! [`section`], [`mix`], [`stats`] and [`water_figures`]. The feature `test-support` adds measuring
//! hooks for the crate's own tests and benchmarks (`noise_work`,
//! `forget_recent_columns`).

mod bounds;
mod config;
mod density;
mod generator;
mod hydrology;
mod islands;
mod lod;
pub mod mix;
mod nature;
mod noise;
mod query;
mod shape;
mod store;
mod surface;
mod terrain;

pub use bounds::{
    HEIGHT_LIMIT, PLAYABLE_HEIGHTS, PLAYABLE_MARGIN, SURFACE_HEIGHTS, WORLD_FLOOR, WORLD_LIMIT,
    chunk_in_world,
};
pub use config::seed::Seed;
pub use config::versions::version_brought;
pub use config::world::{
    Bands, CaveConfig, ConfigError, DensityConfig, ErosionConfig, GENERATOR_VERSION,
    GeneratorConfig, IslandConfig, IslandLayout, NatureConfig, NoiseConfig, ReliefConfig,
    RiverConfig, SUPPORTED_VERSIONS, ShapeConfig, Spline, WaterConfig, WorldConfig,
};
pub use config::{params, presets, reference};
#[cfg(feature = "test-support")]
pub use density::column::forget_recent_columns;
pub use generator::{ColumnTop, Generator};
pub use islands::layout::Island;
pub use lod::pos::{LodPos, MAX_LEVEL};
pub use nature::trees::Species;
pub use noise::erosion;
pub use noise::fbm::NoiseKind;
#[cfg(feature = "test-support")]
pub use noise::fbm::noise_work;
pub use query::frame::{
    EYE_HEIGHT, FIELD_OF_VIEW, FRAME_HEIGHT, FRAME_NEAR, FRAME_WIDTH, FrameStats, yaw_towards,
};
pub use query::search::SPAWN_RADIUS;
pub use query::spawn::{SPAWN_NEAR, SPAWN_RELIEF, SPAWN_SKY, Spawn};
pub use query::{ForEach, map, seams, section, sequential, stats, water_figures};
pub use shape::fields;
pub use surface::biome::Biome;
