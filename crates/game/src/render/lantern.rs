//! The player's lantern: a warm light at the eye, lit in caves.

use bevy::prelude::*;
use terravox_voxel::Block;

use super::RenderSystems;
use crate::player::PlayerCamera;
use crate::sky::SkyKind;
use crate::streaming::Chunks;
use crate::world::Eye;

/// The lantern: given to a new camera, lit in caves.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (add_lantern, light_lantern)
            .chain()
            .in_set(RenderSystems::Lantern),
    );
}

/// The player's lantern: a warm point light at the eye, lit while the eye is in a
/// cave's air, so caves (out of the sky's light) can be seen.
#[derive(Component)]
struct Lantern;

/// The lantern's brightness in lumens (at the gradient sky's exposure).
const LANTERN: f32 = 250_000.0;

fn add_lantern(cameras: Query<Entity, Added<PlayerCamera>>, mut commands: Commands) {
    for camera in &cameras {
        commands.entity(camera).with_child((
            Lantern,
            PointLight {
                intensity: 0.0,
                range: 28.0,
                color: Color::srgb(1.0, 0.82, 0.6),
                shadow_maps_enabled: false,
                ..default()
            },
            Transform::default(),
        ));
    }
}

/// Lights the lantern while the eye is in a cave's air.
fn light_lantern(
    eye: Res<Eye>,
    chunks: Res<Chunks>,
    kind: Option<Res<SkyKind>>,
    mut lanterns: Query<&mut PointLight, With<Lantern>>,
) {
    let lit = chunks.block(eye.0) == Some(Block::CaveAir);
    let intensity = if lit {
        LANTERN * SkyKind::light_scale(kind.as_deref())
    } else {
        0.0
    };
    for mut light in &mut lanterns {
        if light.intensity != intensity {
            light.intensity = intensity;
        }
    }
}
