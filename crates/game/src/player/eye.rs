//! Where a player looks from: the eye's position, direction and block.

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_voxel::BlockPos;

use super::body::{EYE, Player};

/// The eye position (world coordinates) and view direction of a player.
pub fn eye_ray(player: &Player) -> (DVec3, Vec3) {
    let rotation = Quat::from_euler(EulerRot::YXZ, player.yaw, player.pitch, 0.0);
    (
        player.position + DVec3::Y * EYE as f64,
        rotation * Vec3::NEG_Z,
    )
}

/// The block holding a player's eye.
pub(crate) fn eye_block(player: &Player) -> BlockPos {
    BlockPos::containing_f64(eye_ray(player).0.to_array())
}
