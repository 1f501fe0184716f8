//! Whether the eye is under water: then the fog is the water's, and the sky things
//! (dome, sun, moon, stars, clouds) are hidden.

use bevy::prelude::*;
use terravox_voxel::Block;

use crate::streaming::Chunks;
use crate::world::Eye;

/// Whether the camera's eye is in water: then the fog is the water's.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Underwater(pub(crate) bool);

/// Notes whether the player's eye is in a water block.
pub(super) fn detect_underwater(
    eye: Res<Eye>,
    chunks: Res<Chunks>,
    mut underwater: ResMut<Underwater>,
) {
    underwater.set_if_neq(Underwater(chunks.block(eye.0) == Some(Block::Water)));
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
