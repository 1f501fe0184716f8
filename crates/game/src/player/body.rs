//! The player's body as the game holds it: the authority's body
//! (`terravox_authority::body`: walking, jumping, gravity, swimming, flying and
//! collision, the rules a server checks its players' moves by) as a component, and
//! what the keys ask of it as a resource.

use bevy::prelude::*;
pub use terravox_authority::body::{Body, EYE, MoveInput, overlaps_solid, step_in_world};

/// The player's body (see the module docs).
#[derive(Component, Debug, Default, Clone, Deref, DerefMut)]
pub struct Player(pub Body);

/// What the player asks to do this frame (read from the keys while playing).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
pub struct Keys(pub MoveInput);
