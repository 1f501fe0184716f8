//! Noise, the bottom of the pipeline: seeded fractal noise ([`fbm`], with the count of
//! octaves evaluated that tests measure work by) over base noises, of which the two
//! the terrain spends most on ([`perlin`] in 3D, [`open_simplex`] in 2D) are computed
//! here from the `noise` crate's tables ([`table`]) bit for bit as it does, faster;
//! and the erosion filter ([`erosion`], a port of MPL-2.0 code kept whole in its own
//! file with its licence). All are pure functions of a seed, their parameters and a
//! point.

pub mod erosion;
pub(crate) mod fbm;
pub(crate) mod open_simplex;
pub(crate) mod perlin;
pub(crate) mod table;
