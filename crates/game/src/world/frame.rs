//! Where things are: the point chunks stream around, the block holding the player's
//! eye and the floating origin of the render frame, all following the player (set in
//! `Simulate`, read by streaming, culling and drawing, which need no player).

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_voxel::BlockPos;

/// The point chunks stream around (the player's feet, world coordinates), set each
/// frame in `Simulate`.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct StreamCenter(pub(crate) DVec3);

/// The block holding the player's eye, set each frame in `Simulate`: where cave
/// culling walks from, and what decides the water's fog and the lantern.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Eye(pub(crate) BlockPos);

/// The world block at the render frame's zero: everything drawn is placed relative to
/// it (a floating origin), so `f32` transforms stay small and exact anywhere in the
/// world. It follows the player in whole chunks.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RenderOrigin(pub(crate) BlockPos);

impl RenderOrigin {
    /// `p` (world coordinates) in the render frame.
    pub(crate) fn local(&self, p: DVec3) -> Vec3 {
        (p - DVec3::new(self.0.x as f64, self.0.y as f64, self.0.z as f64)).as_vec3()
    }

    /// The corner of block `b` in the render frame.
    pub(crate) fn block(&self, b: BlockPos) -> Vec3 {
        self.local(DVec3::new(b.x as f64, b.y as f64, b.z as f64))
    }
}
