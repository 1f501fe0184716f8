//! Nature, on top of the surface: trees and cacti, their species and shapes
//! ([`trees`]), and planting them by biome for every generator ([`planting`]).

pub(crate) mod planting;
pub(crate) mod trees;
