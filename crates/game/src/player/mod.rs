//! The first-person player: spawning on the surface (or where `--at` says) looking
//! along the most open direction (or where `--look` says), input (`input`), body
//! physics against the loaded blocks (`body`), the camera at eye height, and respawning
//! after a world switch or a fall below the world.

pub mod body;
mod input;

use std::f32::consts::TAU;

use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use terravox_worldgen::Generator;

use crate::config::StartView;
use crate::world::{ActiveWorld, Chunks, StreamCenter, WorldChanged};
use crate::{GameSystems, Mode};
use body::{EYE, MoveInput, step};

pub use body::Player;

/// Below this height the player is put back on the surface.
const WORLD_FLOOR: f32 = -1024.0;
/// Longest frame step the physics takes (a stall does not launch the player).
const MAX_STEP: f32 = 0.1;

/// The camera, a child of the player at eye height.
#[derive(Component, Debug)]
pub(crate) struct PlayerCamera;

/// The player plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<MoveInput>()
        .add_systems(Startup, spawn_player)
        .add_systems(
            Update,
            (
                input::read_movement,
                input::look_around.run_if(in_state(Mode::Playing)),
                input::toggle_flight.run_if(not(in_state(Mode::Panel)).and_then(
                    input_just_pressed(KeyCode::KeyF).or_else(input_just_pressed(KeyCode::KeyN)),
                )),
            )
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            (
                respawn_on_world_change.run_if(on_message::<WorldChanged>),
                apply_movement,
                aim_camera,
                update_stream_center,
            )
                .chain()
                .in_set(GameSystems::Simulate),
        );
}

/// Where to stand in a world: on land near the origin (searching outwards for
/// islands), else on the surface at the origin.
pub fn spawn_point(generator: &Generator) -> Vec3 {
    let [x, y, z] = generator
        .find_land(0, 0, 2048)
        .unwrap_or_else(|| [0, generator.surface_height(0, 0) + 1, 0]);
    Vec3::new(x as f32 + 0.5, y as f32, z as f32 + 0.5)
}

/// The view a player standing at `feet` starts with, as `[yaw, pitch]` in radians:
/// of 16 compass directions, the one where the terrain stays below the eye for the
/// longest stretch (up to 96 blocks; ties go to the lower land, a view over it),
/// looking a little down onto the land. Water counts as flat.
pub fn spawn_view(generator: &Generator, feet: Vec3) -> [f32; 2] {
    const DIRECTIONS: usize = 16;
    const REACH: u32 = 96;
    let eye = feet.y + EYE;
    let water = generator.sea_level() as f32 + 1.0;
    let mut best = (0.0, 0, f32::INFINITY);
    for i in 0..DIRECTIONS {
        let yaw = i as f32 * TAU / DIRECTIONS as f32;
        let dir = Vec2::new(-yaw.sin(), -yaw.cos());
        let (mut clear, mut sum) = (REACH, 0.0);
        for d in 1..=REACH {
            let p = feet.xz() + dir * d as f32;
            let top = generator.surface_height(p.x.floor() as i32, p.y.floor() as i32);
            let surface = (top as f32 + 1.0).max(water);
            if surface > eye {
                clear = d;
                break;
            }
            sum += surface;
        }
        let mean = sum / clear as f32;
        if clear > best.1 || (clear == best.1 && mean < best.2) {
            best = (yaw, clear, mean);
        }
    }
    [best.0, -0.15]
}

/// Feet position and `[yaw, pitch]` of a new player, and whether it starts flying
/// (when placed by `--at`, so the view stays where it was put).
fn start_pose(generator: &Generator, start: &StartView) -> (Vec3, [f32; 2], bool) {
    let feet = start.at.unwrap_or_else(|| spawn_point(generator));
    let view = match start.look {
        Some([yaw, pitch]) => [yaw.to_radians(), pitch.to_radians()],
        None => spawn_view(generator, feet),
    };
    (feet, view, start.at.is_some())
}

fn spawn_player(mut commands: Commands, world: Res<ActiveWorld>, start: Res<StartView>) {
    let (feet, [yaw, pitch], flying) = start_pose(world.generator(), &start);
    commands
        .spawn((
            Player {
                yaw,
                pitch,
                flying,
                ..default()
            },
            Transform::from_translation(feet),
            Visibility::default(),
        ))
        .with_children(|p| {
            p.spawn((
                Camera3d::default(),
                PlayerCamera,
                Projection::Perspective(PerspectiveProjection {
                    fov: 75f32.to_radians(),
                    far: 2000.0,
                    ..default()
                }),
                Transform::from_xyz(0.0, EYE, 0.0),
            ));
        });
}

/// Puts the player on the new world's land, facing its most open direction.
fn respawn_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    mut player: Query<(&mut Transform, &mut Player)>,
) {
    changed.clear();
    for (mut t, mut p) in &mut player {
        t.translation = spawn_point(world.generator());
        [p.yaw, p.pitch] = spawn_view(world.generator(), t.translation);
        p.velocity = Vec3::ZERO;
    }
}

fn apply_movement(
    time: Res<Time>,
    input: Res<MoveInput>,
    chunks: Res<Chunks>,
    world: Res<ActiveWorld>,
    mut player: Query<(&mut Transform, &mut Player)>,
) {
    let Ok((mut t, mut p)) = player.single_mut() else {
        return;
    };
    let dt = time.delta_secs().min(MAX_STEP);
    t.translation = step(&mut p, t.translation, *input, dt, &|b| {
        chunks.block(b).map(|b| b.is_solid())
    });
    if t.translation.y < WORLD_FLOOR {
        t.translation = spawn_point(world.generator());
        p.velocity = Vec3::ZERO;
    }
}

fn aim_camera(player: Query<&Player>, mut camera: Query<&mut Transform, With<PlayerCamera>>) {
    if let (Ok(p), Ok(mut cam)) = (player.single(), camera.single_mut()) {
        cam.rotation = Quat::from_euler(EulerRot::YXZ, p.yaw, p.pitch, 0.0);
    }
}

fn update_stream_center(player: Query<&Transform, With<Player>>, mut center: ResMut<StreamCenter>) {
    if let Ok(t) = player.single() {
        center.0 = t.translation;
    }
}
