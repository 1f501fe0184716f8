//! The surface, on top of the land's shape: the biome of every column ([`biome`]),
//! the face a slope gives the ground ([`face`], version 4), the blocks a solid or a
//! fluid is at a height by those ([`blocks`]), and the caves carved under it
//! ([`caves`], version 3).

pub(crate) mod biome;
pub(crate) mod blocks;
pub(crate) mod caves;
pub(crate) mod face;
