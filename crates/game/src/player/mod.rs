//! The first-person player: where it appears (`spawn`), input (`input`), body physics
//! against the loaded blocks (`body`), the eye (`eye`), the camera at eye height, and
//! respawning after a world switch or a fall below the world.

pub mod body;
pub(crate) mod eye;
mod input;
mod spawn;

use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use terravox_voxel::BlockPos;
use terravox_worldgen::WORLD_FLOOR;

use crate::config::StartView;
use crate::mode::{Mode, keys_to_game};
use crate::schedule::GameSystems;
use crate::streaming::Chunks;
use crate::world::{
    ActiveWorld, Eye, LOCAL_PLAYER, RenderOrigin, StreamCenter, WorldAuthority, WorldChanged,
};
use body::{Body, EYE, Keys, step_in_world};

pub use body::Player;
pub(crate) use spawn::Spawn;
pub use spawn::{spawn_pose, spawn_view};

/// Longest frame step the physics takes (a stall does not launch the player).
const MAX_STEP: f32 = 0.1;
/// The render origin moves (in whole chunks) once the player is this far from it.
const ORIGIN_SLACK: f64 = 512.0;

/// The camera, a child of the player at eye height.
#[derive(Component, Debug)]
pub(crate) struct PlayerCamera;

/// The player plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Keys>()
        .init_resource::<Spawn>()
        .add_systems(Startup, spawn_player)
        .add_systems(
            Update,
            (
                input::read_movement,
                input::look_around.run_if(in_state(Mode::Playing)),
                input::toggle_flight.run_if(keys_to_game.and_then(
                    input_just_pressed(KeyCode::KeyF).or_else(input_just_pressed(KeyCode::KeyN)),
                )),
            )
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            (
                spawn::respawn_on_world_change.run_if(on_message::<WorldChanged>),
                spawn::place_player.run_if(|s: Res<Spawn>| s.finding()),
                apply_movement,
                place_in_world,
                follow_with_render_origin,
                place_in_render_frame,
                aim_camera,
                update_stream_center,
            )
                .chain()
                .in_set(GameSystems::Simulate),
        );
}

fn spawn_player(
    mut commands: Commands,
    world: Res<ActiveWorld>,
    start: Res<StartView>,
    mut spawn: ResMut<Spawn>,
) {
    spawn.find(&world, *start);
    // Waits here, frozen, until the spawn is found.
    let waiting = start
        .at
        .unwrap_or_else(|| spawn::above_sea(world.generator()));
    commands
        .spawn((
            Player(Body {
                position: waiting,
                flying: true,
                ..default()
            }),
            Transform::default(),
            Visibility::default(),
        ))
        .with_children(|p| {
            p.spawn((
                Camera3d::default(),
                PlayerCamera,
                Projection::Perspective(PerspectiveProjection {
                    fov: terravox_worldgen::FIELD_OF_VIEW,
                    far: crate::config::FAR_PLANE,
                    ..default()
                }),
                Transform::from_xyz(0.0, EYE, 0.0),
            ));
        });
}

fn apply_movement(
    time: Res<Time>,
    input: Res<Keys>,
    chunks: Res<Chunks>,
    spawn: Res<Spawn>,
    mut player: Query<&mut Player>,
) {
    let (Ok(mut p), Some(feet)) = (player.single_mut(), spawn.feet()) else {
        return;
    };
    let dt = time.delta_secs().min(MAX_STEP);
    step_in_world(&mut p, **input, dt, &|b| chunks.block(b));
    if p.position.y < WORLD_FLOOR as f64 {
        // Back at the spawn found for this world: no new search.
        p.position = feet;
        p.velocity = Vec3::ZERO;
    }
}

/// Tells the world's authority where the player's body is (its reach and the
/// blocks it stands in are measured from there).
fn place_in_world(player: Query<&Player>, mut world: ResMut<WorldAuthority>) {
    if let Ok(p) = player.single()
        && world.players().feet(LOCAL_PLAYER) != Some(p.position.to_array())
    {
        world
            .players_mut()
            .place(LOCAL_PLAYER, p.position.to_array());
    }
}

fn aim_camera(player: Query<&Player>, mut camera: Query<&mut Transform, With<PlayerCamera>>) {
    if let (Ok(p), Ok(mut cam)) = (player.single(), camera.single_mut()) {
        cam.rotation = Quat::from_euler(EulerRot::YXZ, p.yaw, p.pitch, 0.0);
    }
}

/// Moves the render origin (in whole chunks) when the player gets far from it.
fn follow_with_render_origin(player: Query<&Player>, mut origin: ResMut<RenderOrigin>) {
    let Ok(p) = player.single() else { return };
    if origin.local(p.position).abs().max_element() as f64 > ORIGIN_SLACK {
        let (c, _) = BlockPos::containing_f64(p.position.to_array()).to_chunk();
        origin.0 = c.origin();
    }
}

/// Places the player entity in the render frame.
fn place_in_render_frame(origin: Res<RenderOrigin>, mut player: Query<(&Player, &mut Transform)>) {
    for (p, mut t) in &mut player {
        t.translation = origin.local(p.position);
    }
}

fn update_stream_center(
    player: Query<&Player>,
    mut center: ResMut<StreamCenter>,
    mut eye: ResMut<Eye>,
) {
    if let Ok(p) = player.single() {
        center.0 = p.position;
        eye.set_if_neq(Eye(eye::eye_block(p)));
    }
}
