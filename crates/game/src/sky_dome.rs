//! The sky's gradient: a dome around the camera, coloured per vertex from the fog's
//! colour at the horizon (so distant terrain fades into it) to a deeper colour at the
//! zenith, changing with the hour. Plain geometry, so it renders wherever the chunks
//! do (software Vulkan included).

use bevy::asset::RenderAssetUsages;
use bevy::light::NotShadowCaster;
use bevy::prelude::*;

use crate::GameSystems;
use crate::player::PlayerCamera;
use crate::sky::{TimeOfDay, sky_at};

/// The dome's radius: inside the camera's far plane (2000), beyond any chunk drawn.
const RADIUS: f32 = 1900.0;

/// The dome's mesh.
#[derive(Resource)]
struct Dome(Handle<Mesh>);

/// Marks the dome entity.
#[derive(Component)]
struct DomeMarker;

/// The sky dome plugin (drawn only, so not in headless games).
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_dome).add_systems(
        Update,
        (follow_camera, colour_dome).in_set(GameSystems::Present),
    );
}

/// The sky colour at elevation `e` (-1 nadir .. 1 zenith) for the hour: the horizon
/// colour up to the horizon, deepening towards the zenith.
pub(crate) fn dome_color(hours: f32, e: f32) -> [f32; 4] {
    let sky = sky_at(hours);
    let horizon = sky.sky.to_linear();
    let day = (sky.sun_height + 0.15).clamp(0.0, 0.4) / 0.4;
    let h = [horizon.red, horizon.green, horizon.blue];
    // A deeper blue overhead by day, a darker one by night.
    let deep: [f32; 3] =
        std::array::from_fn(|i| h[i] * 0.45 + ([0.12, 0.28, 0.72][i] - h[i] * 0.45) * day);
    let t = (e / 0.7).clamp(0.0, 1.0).powf(0.8) * 0.75;
    let c: [f32; 3] = std::array::from_fn(|i| h[i] + (deep[i] - h[i]) * t);
    [c[0], c[1], c[2], 1.0]
}

fn spawn_dome(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let mut mesh = Sphere::new(RADIUS).mesh().uv(48, 24);
    recolour(&mut mesh, crate::sky::DEFAULT_HOUR);
    mesh.asset_usage = RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD;
    let handle = meshes.add(mesh);
    let material = materials.add(StandardMaterial {
        base_color: Color::WHITE,
        unlit: true,
        fog_enabled: false,
        cull_mode: None,
        ..default()
    });
    commands.spawn((
        DomeMarker,
        Mesh3d(handle.clone()),
        MeshMaterial3d(material),
        Transform::default(),
        NotShadowCaster,
    ));
    commands.insert_resource(Dome(handle));
}

/// Keeps the dome centred on the camera.
fn follow_camera(
    camera: Query<&GlobalTransform, With<PlayerCamera>>,
    mut dome: Query<&mut Transform, With<DomeMarker>>,
) {
    if let (Ok(camera), Ok(mut dome)) = (camera.single(), dome.single_mut()) {
        dome.translation = camera.translation();
    }
}

/// Recolours the dome when the hour changes.
fn colour_dome(time: Res<TimeOfDay>, dome: Option<Res<Dome>>, mut meshes: ResMut<Assets<Mesh>>) {
    let Some(dome) = dome else { return };
    if !time.is_changed() && !dome.is_added() {
        return;
    }
    if let Some(mut mesh) = meshes.get_mut(&dome.0) {
        recolour(&mut mesh, time.hours);
    }
}

/// Gives every vertex of the dome its colour for the hour, by its elevation.
fn recolour(mesh: &mut Mesh, hours: f32) {
    if let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) =
        mesh.attribute(Mesh::ATTRIBUTE_POSITION)
    {
        let colors: Vec<[f32; 4]> = p.iter().map(|v| dome_color(hours, v[1] / RADIUS)).collect();
        mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zenith_is_deeper_than_the_horizon_which_matches_the_fog() {
        for hours in [9.0, 12.0, 18.2, 23.0] {
            let horizon = dome_color(hours, 0.0);
            let zenith = dome_color(hours, 1.0);
            let fog = sky_at(hours).sky.to_linear();
            assert_eq!(horizon[..3], [fog.red, fog.green, fog.blue], "{hours}");
            let lum = |c: [f32; 4]| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
            assert!(
                lum(zenith) < lum(horizon),
                "{hours}: {zenith:?} vs {horizon:?}"
            );
            // Below the horizon it stays the horizon's colour.
            assert_eq!(dome_color(hours, -0.5), horizon);
        }
    }
}
