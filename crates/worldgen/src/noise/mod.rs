//! Noise, the bottom of the pipeline: seeded fractal noise ([`fbm`], with the count of
//! octaves evaluated that tests measure work by) and the erosion filter ([`erosion`],
//! a port of MPL-2.0 code kept whole in its own file with its licence). Both are pure
//! functions of a seed, their parameters and a point.

pub mod erosion;
pub(crate) mod fbm;
