//! The sky: a dome around the camera, coloured per vertex from the fog's colour at
//! the horizon (so distant terrain fades into it) to a deeper colour at the zenith,
//! changing with the hour; in front of it a square sun disk, a blocky moon opposite
//! it, and stars that come out at night. Plain unlit geometry, so it renders wherever
//! the chunks do (software Vulkan included).

use bevy::asset::RenderAssetUsages;
use bevy::light::NotShadowCaster;
use bevy::prelude::*;

use super::clock::TimeOfDay;
use super::kind::SkyKind;
use super::light::sky_at;
use super::underwater::HiddenUnderwater;
use crate::player::PlayerCamera;
use crate::schedule::GameSystems;

/// The dome's radius: inside the camera's far plane, beyond any chunk drawn (the
/// horizon reaches 65,536 blocks, its chunks' corners 8192 blocks further and
/// diagonally about 104,000).
const RADIUS: f32 = 105_000.0;

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
        (
            follow_camera,
            colour_dome,
            place_bodies,
            yield_to_physical_sky,
        )
            .in_set(GameSystems::Present),
    );
}

/// The sky colour at elevation `e` (-1 nadir .. 1 zenith) for the hour: the horizon
/// colour up to the horizon (the fog's, for the sky `kind`), deepening towards the
/// zenith.
pub(crate) fn dome_color(hours: f32, e: f32, kind: Option<&SkyKind>) -> [f32; 4] {
    let sky = sky_at(hours);
    let horizon = super::fog::fog_colour(hours, kind).to_linear();
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
    recolour(&mut mesh, super::clock::DEFAULT_HOUR, None);
    mesh.asset_usage = RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD;
    let handle = meshes.add(mesh);
    // The dome's and the bodies' material. Opaque, so clouds (translucent, drawn
    // after) pass in front of the bodies.
    let unlit = StandardMaterial {
        base_color: Color::WHITE,
        unlit: true,
        fog_enabled: false,
        cull_mode: None,
        ..default()
    };
    let bodies = [
        (Body::Sun, Rectangle::new(SUN, SUN).mesh().build()),
        (Body::Moon, moon_mesh()),
        (Body::Stars, star_mesh()),
    ];
    commands
        .spawn((
            DomeMarker,
            Mesh3d(handle.clone()),
            MeshMaterial3d(materials.add(unlit.clone())),
            Transform::default(),
            NotShadowCaster,
            HiddenUnderwater,
        ))
        .with_children(|dome| {
            for (body, mesh) in bodies {
                dome.spawn((
                    body,
                    Mesh3d(meshes.add(mesh)),
                    MeshMaterial3d(materials.add(unlit.clone())),
                    Transform::default(),
                    Visibility::Hidden,
                    NotShadowCaster,
                ));
            }
        });
    commands.insert_resource(Dome(handle));
}

/// The sun, the moon and the stars, drawn in front of the dome.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
enum Body {
    Sun,
    Moon,
    Stars,
}

/// Distance of the sun and moon from the camera (the stars are a little further).
const BODIES: f32 = 1800.0;
/// The sun disk's side: about 3.5 degrees across.
const SUN: f32 = 110.0;
/// The moon's side.
const MOON: f32 = 80.0;
/// Stars in the sky.
const STARS: u32 = 700;

/// A fixed hash of `i` and a salt to `0.0..1.0`.
fn unit_hash(i: u32, salt: u32) -> f32 {
    let mut h = i.wrapping_mul(0x9e37_79b9) ^ salt.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    (h >> 8) as f32 / (1u32 << 24) as f32
}

/// A square facing the origin from `centre`, of half-side `r`, as four corners.
fn facing_square(centre: Vec3, r: f32) -> [Vec3; 4] {
    let n = centre.normalize();
    let side = n
        .cross(if n.y.abs() > 0.99 { Vec3::X } else { Vec3::Y })
        .normalize();
    let up = side.cross(n);
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(a, b)| centre + (side * a + up * b) * r)
}

/// Squares of the given centres, half-sizes and colours as one unlit mesh.
fn squares(items: impl Iterator<Item = (Vec3, f32, [f32; 4])>) -> Mesh {
    let (mut positions, mut colors, mut indices) = (Vec::new(), Vec::new(), Vec::new());
    for (centre, r, color) in items {
        let start = positions.len() as u32;
        positions.extend(facing_square(centre, r).map(|v| v.to_array()));
        colors.extend([color; 4]);
        indices.extend([0, 1, 2, 0, 2, 3].map(|k| start + k));
    }
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
    .with_inserted_indices(bevy::mesh::Indices::U32(indices))
}

/// The stars: small squares over the upper sky at fixed, hashed places, a little
/// bluish or yellowish, some brighter.
fn star_mesh() -> Mesh {
    squares((0..STARS).map(|i| {
        let y = 0.06 + 0.94 * unit_hash(i, 1);
        let a = unit_hash(i, 2) * std::f32::consts::TAU;
        let r = (1.0 - y * y).sqrt();
        let dir = Vec3::new(r * a.cos(), y, r * a.sin());
        let bright = 0.75 + 0.25 * unit_hash(i, 3);
        let hue = unit_hash(i, 4) - 0.5;
        let color = [
            bright * (1.0 + hue * 0.2),
            bright,
            bright * (1.0 - hue * 0.2),
            1.0,
        ];
        (
            dir * (BODIES + 50.0),
            1.6 + 2.2 * unit_hash(i, 5).powi(3),
            color,
        )
    }))
}

/// The moon: a 4x4 grid of grey squares of hashed shades (blocky maria), centred on
/// the origin facing -z; `place_bodies` turns it towards the camera.
fn moon_mesh() -> Mesh {
    let cell = MOON / 4.0;
    squares((0..16).map(|i| {
        let (x, y) = ((i % 4) as f32 - 1.5, (i / 4) as f32 - 1.5);
        let shade = 0.72 + 0.22 * unit_hash(i, 9);
        let centre = Vec3::new(x * cell, y * cell, -BODIES);
        (centre, cell / 2.0, [shade * 0.95, shade * 0.97, shade, 1.0])
    }))
}

/// Turns the sun and moon to their places for the hour and fades the stars in at
/// night (from the sky's colour to their own).
fn place_bodies(
    time: Res<TimeOfDay>,
    kind: Option<Res<SkyKind>>,
    mut bodies: Query<(
        &Body,
        &mut Transform,
        &mut Visibility,
        &MeshMaterial3d<StandardMaterial>,
    )>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    added: Query<(), Added<Body>>,
) {
    let kind_changed = kind.as_ref().is_some_and(|k| k.is_changed());
    if !time.is_changed() && added.is_empty() && !kind_changed {
        return;
    }
    // The physical sky draws its own sun disk.
    let physical = kind.as_deref() == Some(&SkyKind::Physical);
    let sky = sky_at(time.hours);
    for (body, mut transform, mut visibility, material) in &mut bodies {
        let (shown, color) = match body {
            Body::Sun => {
                // Yellow-white, reddening with the light near the horizon.
                let light = sky.light.to_linear();
                *transform =
                    Transform::from_translation(sky.sun * BODIES).looking_at(Vec3::ZERO, Vec3::Y);
                let c = Color::linear_rgb(light.red * 1.4, light.green * 1.3, light.blue * 1.1);
                (sky.sun_height > -0.08 && !physical, c)
            }
            Body::Moon => {
                *transform = Transform::default().looking_to(-sky.sun, Vec3::Y);
                (sky.sun_height < 0.08, Color::WHITE)
            }
            Body::Stars => {
                // Opaque stars fade in from the colour of the sky overhead.
                let [r, g, b, _] = dome_color(time.hours, 1.0, kind.as_deref());
                let c = Color::linear_rgb(r, g, b).mix(&Color::WHITE, sky.night);
                (sky.night > 0.05, c)
            }
        };
        *visibility = if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.base_color = color;
        }
    }
}

/// Under the physical sky the atmosphere draws the sky and the sun: the dome shrinks
/// to a skirt below the horizon, in the fog's colour, so the world's edge fades into
/// the sky rather than into the atmosphere's ground (it keeps the moon and stars, its
/// children).
fn yield_to_physical_sky(
    kind: Option<Res<SkyKind>>,
    time: Res<TimeOfDay>,
    dome: Option<Res<Dome>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let (Some(kind), Some(dome)) = (kind, dome) else {
        return;
    };
    if kind.is_added() && *kind == SkyKind::Physical {
        let mut mesh = skirt_mesh();
        recolour(&mut mesh, time.hours, Some(&kind));
        mesh.asset_usage = RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD;
        // The dome's handle stays: recolouring goes on as before.
        let _ = meshes.insert(&dome.0, mesh);
    }
}

/// A fan from a ring at the horizon (a twentieth of a degree down) to the nadir.
fn skirt_mesh() -> Mesh {
    const SEGMENTS: u32 = 48;
    let dip = 0.001f32;
    let (ring, depth) = (RADIUS * dip.cos(), -RADIUS * dip.sin());
    let mut positions = vec![[0.0, -RADIUS, 0.0]];
    positions.extend((0..SEGMENTS).map(|i| {
        let a = i as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
        [ring * a.cos(), depth, ring * a.sin()]
    }));
    let indices = (0..SEGMENTS)
        .flat_map(|i| [0, 1 + i, 1 + (i + 1) % SEGMENTS])
        .collect();
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_indices(bevy::mesh::Indices::U32(indices))
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
fn colour_dome(
    time: Res<TimeOfDay>,
    dome: Option<Res<Dome>>,
    kind: Option<Res<SkyKind>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let Some(dome) = dome else { return };
    if !time.is_changed() && !dome.is_added() {
        return;
    }
    if let Some(mut mesh) = meshes.get_mut(&dome.0) {
        recolour(&mut mesh, time.hours, kind.as_deref());
    }
}

/// Gives every vertex of the dome its colour for the hour, by its elevation.
fn recolour(mesh: &mut Mesh, hours: f32, kind: Option<&SkyKind>) {
    if let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) =
        mesh.attribute(Mesh::ATTRIBUTE_POSITION)
    {
        let colors: Vec<[f32; 4]> = p
            .iter()
            .map(|v| dome_color(hours, v[1] / RADIUS, kind))
            .collect();
        mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zenith_is_deeper_than_the_horizon_which_matches_the_fog() {
        for hours in [9.0, 12.0, 18.2, 23.0] {
            let horizon = dome_color(hours, 0.0, None);
            let zenith = dome_color(hours, 1.0, None);
            let fog = sky_at(hours).sky.to_linear();
            assert_eq!(horizon[..3], [fog.red, fog.green, fog.blue], "{hours}");
            let lum = |c: [f32; 4]| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
            assert!(
                lum(zenith) < lum(horizon),
                "{hours}: {zenith:?} vs {horizon:?}"
            );
            // Below the horizon it stays the horizon's colour.
            assert_eq!(dome_color(hours, -0.5, None), horizon);
        }
    }

    #[test]
    fn sky_bodies_face_the_camera_inside_the_dome() {
        for centre in [Vec3::new(0.0, BODIES, 0.0), Vec3::new(BODIES, 10.0, -3.0)] {
            let corners = facing_square(centre, 5.0);
            for c in corners {
                // Every corner is as far from the centre line as the others and lies
                // in the plane facing the origin.
                assert!(((c - centre).dot(centre.normalize())).abs() < 1e-3);
                assert!(((c - centre).length() - 5.0 * 2f32.sqrt()).abs() < 1e-3);
                assert!(c.length() < RADIUS);
            }
        }
        let stars = star_mesh();
        assert_eq!(stars.count_vertices(), STARS as usize * 4);
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) =
            stars.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("star positions")
        };
        assert!(
            p.iter()
                .all(|v| v[1] > 0.0 && Vec3::from(*v).length() < RADIUS)
        );
    }
}
