//! What decides a world, before anything is generated: the seed ([`seed`]), the
//! serde world config ([`world`]), every numeric parameter's range and tooltip, once
//! ([`params`]), parsing and validation ([`validate`], which reads only these and the
//! world's bounds: it stands below every stage), the generator versions, what each
//! allowed and changed, in one table ([`versions`]), the built-in worlds and config
//! files ([`presets`]) and the generated parameter reference
//! ([`reference`](mod@reference)).

pub mod params;
pub mod presets;
pub mod reference;
pub(crate) mod seed;
pub(crate) mod validate;
pub(crate) mod versions;
pub(crate) mod world;
