//! The sun (or moon) and the light of the hour: its direction, brightness and colour,
//! the ambient light and the clear colour (the sky's, or the water's fog under
//! water).

use bevy::light::{CascadeShadowConfigBuilder, GlobalAmbientLight};
use bevy::prelude::*;

use super::clock::TimeOfDay;
use super::fog::fog_colour;
use super::kind::SkyKind;
use super::light::{SUN_LUX, sky_at};
use super::underwater::Underwater;

/// The sun by day, the moon by night: one light, spawned and turned here; under the
/// physical sky the atmosphere gives it its disk.
#[derive(Component)]
pub(crate) struct Sun;

pub(super) fn spawn_sun(mut commands: Commands) {
    commands.spawn((
        Sun,
        DirectionalLight {
            illuminance: SUN_LUX,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 0.0).looking_to(Vec3::new(-0.45, -1.0, -0.3), Vec3::Y),
        CascadeShadowConfigBuilder {
            num_cascades: 2,
            maximum_distance: 160.0,
            ..default()
        }
        .build(),
    ));
}

/// Lights and colours the world for the time of day: the sun or moon's direction,
/// brightness and colour, the ambient light and the clear colour (the sky's, or
/// the water's fog under water).
pub(super) fn apply_sky(
    time: Res<TimeOfDay>,
    (underwater, kind): (Res<Underwater>, Option<Res<SkyKind>>),
    mut sun: Query<(&mut DirectionalLight, &mut Transform), With<Sun>>,
    mut ambient: ResMut<GlobalAmbientLight>,
    mut clear: ResMut<ClearColor>,
) {
    let kind_changed = kind.as_ref().is_some_and(|k| k.is_changed());
    if !time.is_changed() && !underwater.is_changed() && !kind_changed {
        return;
    }
    let sky = sky_at(time.hours);
    let scale = SkyKind::light_scale(kind.as_deref());
    let (direction, illuminance, color) = SkyKind::direct_light(kind.as_deref(), &sky);
    for (mut light, mut transform) in &mut sun {
        light.illuminance = illuminance * scale;
        light.color = color;
        *transform = Transform::default().looking_to(direction, Vec3::Y);
    }
    ambient.brightness = sky.ambient * scale;
    ambient.color = sky.ambient_color;
    // The atmosphere adds its light to the clear colour: there it must be black.
    clear.0 = match kind.as_deref() {
        Some(SkyKind::Physical) if !underwater.0 => Color::BLACK,
        _ => fog_colour(time.hours, kind.as_deref()),
    };
}
