//! The first-person player: spawning on the surface (or where `--at` says; above the
//! sea, flying, in a world without land) looking along the most open direction (or
//! where `--look` says) — found once per world on a worker —, input (`input`), body
//! physics against the loaded blocks (`body`), the camera at eye height, and
//! respawning after a world switch or a fall below the world.

pub mod body;
mod input;

use std::f32::consts::TAU;

use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_worldgen::{Generator, WORLD_FLOOR};

use crate::config::StartView;
use crate::world::{ActiveWorld, Chunks, StreamCenter, WorldChanged};
use crate::{GameSystems, Mode};
use body::{EYE, MoveInput, step};

pub use body::Player;

/// Longest frame step the physics takes (a stall does not launch the player).
const MAX_STEP: f32 = 0.1;

/// The camera, a child of the player at eye height.
#[derive(Component, Debug)]
pub(crate) struct PlayerCamera;

/// The player plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<MoveInput>()
        .init_resource::<Spawn>()
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
                place_player.run_if(|s: Res<Spawn>| s.finding.is_some()),
                apply_movement,
                aim_camera,
                update_stream_center,
            )
                .chain()
                .in_set(GameSystems::Simulate),
        );
}

/// How high above the sea a player of a world without land appears (flying).
const ABOVE_SEA: f32 = 24.0;
/// How far from the origin the spawn search looks for land.
const SPAWN_RADIUS: i32 = 2048;

/// Where to stand in a world: on land near the origin (searching outwards for
/// islands, bounded), else above the sea at the origin.
pub fn spawn_point(generator: &Generator) -> Vec3 {
    land(generator).unwrap_or_else(|| above_sea(generator))
}

/// The nearest land to stand on, if the bounded search finds some.
fn land(generator: &Generator) -> Option<Vec3> {
    let [x, y, z] = generator.find_land(0, 0, SPAWN_RADIUS)?;
    Some(Vec3::new(x as f32 + 0.5, y as f32, z as f32 + 0.5))
}

/// Over the sea at the origin, for a world without land near it.
fn above_sea(generator: &Generator) -> Vec3 {
    Vec3::new(0.5, generator.sea_level() as f32 + ABOVE_SEA, 0.5)
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
fn find_pose(generator: &Generator, start: StartView) -> Pose {
    let (feet, flying) = match start.at {
        Some(at) => (at, true),
        None => match land(generator) {
            Some(feet) => (feet, false),
            None => (above_sea(generator), true),
        },
    };
    let view = match start.look {
        Some([yaw, pitch]) => [yaw.to_radians(), pitch.to_radians()],
        None => spawn_view(generator, feet),
    };
    Pose { feet, view, flying }
}

/// Where and how a player appears.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pose {
    feet: Vec3,
    /// Yaw and pitch in radians.
    view: [f32; 2],
    /// Placed in the air (by `--at`, or over a world without land).
    flying: bool,
}

/// Where the player appears in the active world: found once per world on a worker
/// (the search can take a moment), then reused when the player falls out of the
/// world. Until it is found the player waits, frozen.
#[derive(Resource, Default)]
pub(crate) struct Spawn {
    finding: Option<Task<Pose>>,
    pose: Option<Pose>,
}

impl Spawn {
    /// Whether the player has been placed in the active world.
    pub(crate) fn placed(&self) -> bool {
        self.finding.is_none() && self.pose.is_some()
    }

    /// Starts looking for the spawn of `world` (forgetting the last one).
    fn find(&mut self, world: &ActiveWorld, start: StartView) {
        let generator = world.generator().clone();
        self.pose = None;
        self.finding =
            Some(AsyncComputeTaskPool::get().spawn(async move { find_pose(&generator, start) }));
    }
}

fn spawn_player(
    mut commands: Commands,
    world: Res<ActiveWorld>,
    start: Res<StartView>,
    mut spawn: ResMut<Spawn>,
) {
    spawn.find(&world, *start);
    // Waits here, frozen, until the spawn is found.
    let waiting = start.at.unwrap_or_else(|| above_sea(world.generator()));
    commands
        .spawn((
            Player {
                flying: true,
                ..default()
            },
            Transform::from_translation(waiting),
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

/// Looks for the new world's spawn (on land, facing its most open direction).
fn respawn_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    mut spawn: ResMut<Spawn>,
) {
    changed.clear();
    spawn.find(&world, StartView::default());
}

/// Puts the player where the spawn search found, once it has.
fn place_player(mut spawn: ResMut<Spawn>, mut player: Query<(&mut Transform, &mut Player)>) {
    let Some(pose) = spawn.finding.as_mut().and_then(check_ready) else {
        return;
    };
    spawn.finding = None;
    spawn.pose = Some(pose);
    for (mut t, mut p) in &mut player {
        t.translation = pose.feet;
        [p.yaw, p.pitch] = pose.view;
        p.flying = pose.flying;
        p.velocity = Vec3::ZERO;
    }
}

fn apply_movement(
    time: Res<Time>,
    input: Res<MoveInput>,
    chunks: Res<Chunks>,
    spawn: Res<Spawn>,
    mut player: Query<(&mut Transform, &mut Player)>,
) {
    let (Ok((mut t, mut p)), Some(pose)) = (player.single_mut(), spawn.pose) else {
        return;
    };
    if !spawn.placed() {
        return;
    }
    let dt = time.delta_secs().min(MAX_STEP);
    t.translation = step(&mut p, t.translation, *input, dt, &|b| {
        chunks.block(b).map(|b| b.is_solid())
    });
    if t.translation.y < WORLD_FLOOR as f32 {
        // Back at the spawn found for this world: no new search.
        t.translation = pose.feet;
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
