//! The land's shape: the low-frequency fields in world coordinates (continentalness,
//! erosion, weirdness, temperature, humidity) and what they make of each column's
//! density formula ([`climate`]), the version-4 mountain ranges lifted on top
//! ([`relief`]), and the fields one at a time, for maps and overlays ([`fields`]).

pub(crate) mod climate;
pub mod fields;
pub(crate) mod relief;
