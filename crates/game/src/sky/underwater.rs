//! Whether the eye is under water: then the fog is the water's, and the sky things
//! (dome, sun, moon, stars, clouds) are hidden.

use bevy::prelude::*;
use terravox_voxel::{Block, Fluid};

use crate::streaming::Chunks;
use crate::world::Eye;

/// Whether the camera's eye is in water: then the fog is the water's.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Underwater(pub(crate) bool);

/// Notes whether the player's eye is under water: in a source or falling water, or
/// in flowing water with water above it (a thin flowing film at eye level is not
/// over the eye).
pub(super) fn detect_underwater(
    eye: Res<Eye>,
    chunks: Res<Chunks>,
    mut underwater: ResMut<Underwater>,
) {
    let under = match chunks.block(eye.0).and_then(Block::fluid) {
        Some(Fluid::Source | Fluid::Falling) => true,
        Some(Fluid::Flowing(_)) => chunks
            .block(eye.0.offset([0, 1, 0]))
            .is_some_and(Block::is_water),
        None => false,
    };
    underwater.set_if_neq(Underwater(under));
}

/// Sky things (the dome, sun, moon, stars, clouds) that the water hides when the eye
/// is under it: there the world ends in the water's fog.
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct HiddenUnderwater;

pub(super) fn hide_under_water(
    underwater: Res<Underwater>,
    mut things: Query<(Ref<HiddenUnderwater>, &mut Visibility)>,
) {
    for (marker, mut v) in &mut things {
        if underwater.is_changed() || marker.is_added() {
            *v = if underwater.0 {
                Visibility::Hidden
            } else {
                Visibility::Inherited
            };
        }
    }
}
