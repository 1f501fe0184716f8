//! What only the tests check the game against (compiled with `test-support`):
//! independent measures of its state, not used by the game or `terravox bench`.

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_worldgen::Generator;

use crate::bench::visit_spots;

/// Spots every 256 blocks (world-aligned) inside the horizon around `feet`, and how
/// many of them have no chunk drawn at any level at their surface (no loaded
/// full-detail chunk, no drawn coarse one). `heights` caches the surface heights.
pub fn holes_in_horizon(
    world: &World,
    feet: DVec3,
    generator: &Generator,
    heights: &mut std::collections::HashMap<(i32, i32), i32>,
) -> (usize, usize) {
    let (mut spots, mut missing) = (0, 0);
    visit_spots(world, feet, generator, heights, |_, covered| {
        spots += 1;
        missing += usize::from(!covered);
    });
    (spots, missing)
}
