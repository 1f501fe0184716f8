//! Clouds: a layer of flat blocky clouds above the world's peaks ([`cloud_height`]:
//! at [`CLOUD_HEIGHT`] over the sea, higher where the land can rise higher), drifting
//! east, their pattern seeded by the world. A square of cells around the player
//! ([`span`]: [`SPAN`] at the lowest layer, wider for a higher one, so it reaches as
//! far down the sky) is one mesh, rebuilt when the player (or the drift) has moved
//! [`RECENTRE`] cells; it is drawn relative to the render origin like the chunks,
//! unlit and unfogged (the layer is far above the fog's reach), in the colour of the
//! hour.

use bevy::asset::RenderAssetUsages;
use bevy::math::DVec3;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use terravox_worldgen::mix::mix64;

use super::clock::TimeOfDay;
use super::light::sky_at;
use crate::player::Player;
use crate::schedule::GameSystems;
use crate::world::{ActiveWorld, RenderOrigin};

/// Height of the lowest cloud layer's underside above the sea, in blocks.
pub(crate) const CLOUD_HEIGHT: f64 = 190.0;
/// Blocks between the highest the land can rise and the cloud layer's underside.
const ABOVE_PEAKS: f64 = 16.0;
/// Side of a cloud cell in blocks.
const CELL: f64 = 12.0;
/// Thickness of the layer in blocks.
const THICKNESS: f32 = 4.0;
/// Cells across the square drawn around the player, at the lowest layer.
const SPAN: i64 = 64;
/// Cells the player may move from the square's centre before it is rebuilt.
const RECENTRE: i64 = 8;
/// Drift east, blocks per real second.
const DRIFT: f64 = 1.5;

/// The height of the cloud layer's underside in a world whose sea stands at `sea` and
/// whose land rises to `highest` at most (`Generator::highest_possible`): never
/// through the peaks.
pub(crate) fn cloud_height(sea: i32, highest: i32) -> f64 {
    sea as f64 + CLOUD_HEIGHT.max((highest - sea) as f64 + ABOVE_PEAKS)
}

/// Cells across the square drawn under a layer at `height` above the sea: as wide
/// a part of the sky as [`SPAN`] cells at [`CLOUD_HEIGHT`].
fn span(height: f64) -> i64 {
    (SPAN as f64 * height / CLOUD_HEIGHT).ceil() as i64
}

/// Whether cloud cell `(i, j)` of a world with `seed` holds cloud: a seeded value
/// noise of cells 4 wide, thresholded, so clouds come in clumps of a few cells.
pub(crate) fn cloud_at(seed: u64, i: i64, j: i64) -> bool {
    let lattice = |a: i64, b: i64| {
        let h = mix64(seed ^ 0xc10d_c10d ^ mix64((a as u64) << 32 ^ b as u64));
        (h >> 11) as f64 / (1u64 << 53) as f64
    };
    let (a, b) = (i.div_euclid(4), j.div_euclid(4));
    let (tx, tz) = (i.rem_euclid(4) as f64 / 4.0, j.rem_euclid(4) as f64 / 4.0);
    let lerp = |x: f64, y: f64, t: f64| x + (y - x) * t;
    let v = lerp(
        lerp(lattice(a, b), lattice(a + 1, b), tx),
        lerp(lattice(a, b + 1), lattice(a + 1, b + 1), tx),
        tz,
    );
    // Fine detail so edges are ragged.
    v + 0.25 * lattice(i, j) > 0.78
}

/// The cloud boxes of the `span`-square of cells from cell `(i0, j0)`, as triangles
/// in the square's own frame (cell `(i0, j0)` at the origin): tops, bottoms, and the
/// sides that face no other cloud cell.
pub(crate) fn cloud_mesh(
    seed: u64,
    i0: i64,
    j0: i64,
    span: i64,
) -> (Vec<[f32; 3]>, Vec<[f32; 3]>, Vec<u32>) {
    let (mut positions, mut normals, mut indices) = (Vec::new(), Vec::new(), Vec::new());
    let at = |i: i64, j: i64| cloud_at(seed, i0 + i, j0 + j);
    let c = CELL as f32;
    let mut quad = |corners: [[f32; 3]; 4], normal: [f32; 3]| {
        let start = positions.len() as u32;
        positions.extend(corners);
        normals.extend([normal; 4]);
        indices.extend([0, 1, 2, 0, 2, 3].map(|k| start + k));
    };
    for j in 0..span {
        for i in 0..span {
            if !at(i, j) {
                continue;
            }
            let (x0, z0) = (i as f32 * c, j as f32 * c);
            let (x1, z1, y1) = (x0 + c, z0 + c, THICKNESS);
            quad(
                [[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]],
                [0.0, 1.0, 0.0],
            );
            quad(
                [[x0, 0.0, z0], [x1, 0.0, z0], [x1, 0.0, z1], [x0, 0.0, z1]],
                [0.0, -1.0, 0.0],
            );
            if !at(i + 1, j) {
                quad(
                    [[x1, 0.0, z0], [x1, y1, z0], [x1, y1, z1], [x1, 0.0, z1]],
                    [1.0, 0.0, 0.0],
                );
            }
            if !at(i - 1, j) {
                quad(
                    [[x0, 0.0, z0], [x0, 0.0, z1], [x0, y1, z1], [x0, y1, z0]],
                    [-1.0, 0.0, 0.0],
                );
            }
            if !at(i, j + 1) {
                quad(
                    [[x0, 0.0, z1], [x1, 0.0, z1], [x1, y1, z1], [x0, y1, z1]],
                    [0.0, 0.0, 1.0],
                );
            }
            if !at(i, j - 1) {
                quad(
                    [[x0, 0.0, z0], [x0, y1, z0], [x1, y1, z0], [x1, 0.0, z0]],
                    [0.0, 0.0, -1.0],
                );
            }
        }
    }
    (positions, normals, indices)
}

/// The cloud layer's entity and what its mesh covers.
#[derive(Resource, Default)]
struct Clouds {
    /// The world seed, first cell `(i0, j0)` of the mesh, its cells across and its
    /// height.
    built: Option<(u64, i64, i64, i64, f64)>,
    entity: Option<Entity>,
    material: Option<Handle<StandardMaterial>>,
}

/// Blocks the clouds have drifted east since the game started.
#[derive(Resource, Default)]
struct Drift(f64);

/// The clouds plugin (drawn only, so not in headless games).
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Clouds>()
        .init_resource::<Drift>()
        .add_systems(
            Update,
            (drift_clouds, place_clouds, colour_clouds)
                .chain()
                .in_set(GameSystems::Present),
        );
}

fn drift_clouds(time: Res<Time>, clock: Res<TimeOfDay>, mut drift: ResMut<Drift>) {
    if !clock.paused {
        drift.0 += time.delta_secs_f64() * DRIFT;
    }
}

/// Rebuilds the mesh around the player when needed and keeps it in place relative to
/// the render origin and the drift.
#[allow(clippy::too_many_arguments)]
fn place_clouds(
    mut commands: Commands,
    (mut tracked, drift): (ResMut<Clouds>, Res<Drift>),
    world: Res<ActiveWorld>,
    origin: Res<RenderOrigin>,
    player: Query<&Player>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut transforms: Query<&mut Transform>,
) {
    let Ok(player) = player.single() else {
        return;
    };
    // Changed (for `colour_clouds`) only when rebuilt, not every frame.
    let clouds = tracked.bypass_change_detection();
    let drift = drift.0;
    let seed = world.config().seed.value();
    let sea = world.config().sea_level;
    let height = cloud_height(sea, world.generator().highest_possible());
    let span = span(height - sea as f64);
    // The cell under the player in the drifted pattern.
    let cell = |v: f64| (v / CELL).floor() as i64;
    let (pi, pj) = (cell(player.position.x - drift), cell(player.position.z));
    let rebuild = match clouds.built {
        Some((s, i0, j0, n, h)) => {
            s != seed
                || h != height
                || (pi - (i0 + n / 2)).abs() > RECENTRE
                || (pj - (j0 + n / 2)).abs() > RECENTRE
        }
        None => true,
    };
    if rebuild {
        let (i0, j0) = (pi - span / 2, pj - span / 2);
        let (positions, normals, indices) = cloud_mesh(seed, i0, j0, span);
        let mesh = Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::RENDER_WORLD,
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_indices(Indices::U32(indices));
        let material = clouds
            .material
            .get_or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: Color::srgba(1.0, 1.0, 1.0, 0.85),
                    alpha_mode: AlphaMode::Blend,
                    unlit: true,
                    fog_enabled: false,
                    ..default()
                })
            })
            .clone();
        if let Some(old) = clouds.entity.take() {
            commands.entity(old).despawn();
        }
        clouds.entity = Some(
            commands
                .spawn((
                    Mesh3d(meshes.add(mesh)),
                    MeshMaterial3d(material),
                    Transform::default(),
                    // Blocky cloud shadows from a low-resolution cascade read as
                    // dark stains on the ground and water.
                    bevy::light::NotShadowCaster,
                    super::underwater::HiddenUnderwater,
                ))
                .id(),
        );
        clouds.built = Some((seed, i0, j0, span, height));
        tracked.set_changed();
        return;
    }
    let (Some((_, i0, j0, _, height)), Some(entity)) = (clouds.built, clouds.entity) else {
        return;
    };
    if let Ok(mut t) = transforms.get_mut(entity) {
        let corner = DVec3::new(i0 as f64 * CELL + drift, height, j0 as f64 * CELL);
        t.translation = origin.local(corner);
    }
}

/// White by day, grey-blue at night, warm at dusk: the sky's light on the clouds.
fn colour_clouds(
    clock: Res<TimeOfDay>,
    clouds: Res<Clouds>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if !clock.is_changed() && !clouds.is_changed() {
        return;
    }
    let Some(handle) = &clouds.material else {
        return;
    };
    if let Some(mut m) = materials.get_mut(handle) {
        // Unlit colours pass through tonemapping, which dims white: a little over 1
        // keeps daytime clouds white. Night and dusk tint them with the sky.
        let sky = sky_at(clock.hours);
        let s = sky.sky.to_linear();
        let lit = (sky.ambient / 400.0).clamp(0.0, 1.0).powi(2);
        let c = |sky: f32| 1.4 * lit * 0.85 + 0.3 * sky;
        m.base_color = Color::linear_rgba(c(s.red), c(s.green), c(s.blue), 0.85);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cloud_layer_stands_above_the_highest_land() {
        // Low worlds keep the layer at its height over the sea; a world whose land
        // can rise to 529 (the default world's bound) gets it above that.
        assert_eq!(cloud_height(0, 77), CLOUD_HEIGHT);
        assert_eq!(cloud_height(10, 77), 10.0 + CLOUD_HEIGHT);
        assert_eq!(cloud_height(0, 529), 529.0 + ABOVE_PEAKS);
        // A higher layer is drawn wider, to reach as far down the sky.
        assert_eq!(span(CLOUD_HEIGHT), SPAN);
        assert!(span(545.0) as f64 >= SPAN as f64 * 545.0 / CLOUD_HEIGHT);
    }

    #[test]
    fn clouds_are_seeded_clumped_and_partial() {
        let count = |seed| {
            (0..64)
                .flat_map(|j| (0..64).map(move |i| (i, j)))
                .filter(|&(i, j)| cloud_at(seed, i, j))
                .count()
        };
        let (a, b) = (count(1), count(2));
        // Some sky is cloudy, most is clear.
        assert!((200..2500).contains(&a), "{a}");
        assert_ne!(
            (0..64).map(|i| cloud_at(1, i, 7)).collect::<Vec<_>>(),
            (0..64).map(|i| cloud_at(2, i, 7)).collect::<Vec<_>>()
        );
        assert!(b > 0);
        // Clumped: the cell east of a cloudy one is cloudy far more often than a
        // cell is at all (scattered cells would make both the same).
        let cloudy = |i, j| cloud_at(1, i, j);
        let pairs = (0..64)
            .flat_map(|j| (0..63).map(move |i| (i, j)))
            .filter(|&(i, j)| cloudy(i, j));
        let (n, both) = pairs.fold((0, 0), |(n, both), (i, j)| {
            (n + 1, both + usize::from(cloudy(i + 1, j)))
        });
        let (share, next) = (a as f64 / 4096.0, both as f64 / n as f64);
        assert!(
            next > share + 0.25,
            "neighbours {next:.2} vs overall {share:.2}"
        );
    }

    #[test]
    fn the_mesh_has_tops_bottoms_and_only_outer_sides() {
        let (positions, normals, indices) = cloud_mesh(5, -10, 3, SPAN);
        assert_eq!(positions.len(), normals.len());
        assert_eq!(indices.len() / 6, positions.len() / 4);
        let cells = (0..SPAN)
            .flat_map(|j| (0..SPAN).map(move |i| (i, j)))
            .filter(|&(i, j)| cloud_at(5, -10 + i, 3 + j))
            .count();
        let ups = normals.iter().filter(|n| n[1] > 0.5).count() / 4;
        assert_eq!(ups, cells);
        // Fewer sides than four per cell: neighbours hide theirs.
        let sides = normals.iter().filter(|n| n[1] == 0.0).count() / 4;
        assert!(sides < 4 * cells, "{sides} sides for {cells} cells");
    }
}
