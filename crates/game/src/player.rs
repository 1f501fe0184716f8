//! The first-person player: input, movement with gravity and block collision, the
//! camera, and spawning on the surface.

use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::{CursorGrabMode, CursorOptions, PrimaryWindow};
use bevy_egui::input::EguiWantsInput;
use terravox_voxel::BlockPos;
use terravox_worldgen::Generator;

use crate::config::{ActiveWorld, ViewDistance, WorldChanged};
use crate::render::fog_for;
use crate::streaming::{Chunks, StreamCenter};
use crate::ui::PanelOpen;

/// Half the body's width (x and z).
pub const HALF_WIDTH: f32 = 0.3;
/// Body height.
pub const HEIGHT: f32 = 1.8;
/// Eye height above the feet.
pub const EYE: f32 = 1.62;
/// Walking speed, blocks per second.
pub const WALK: f32 = 5.0;
/// Sprint factor.
pub const SPRINT: f32 = 1.8;
/// Flying speed, blocks per second.
pub const FLY: f32 = 16.0;
/// Gravity, blocks per second squared.
pub const GRAVITY: f32 = 28.0;
/// Jump take-off speed.
pub const JUMP: f32 = 8.6;
/// The view direction a new player starts with: yaw (radians around +y)...
pub const SPAWN_YAW: f32 = -0.6;
/// ...and pitch (radians, negative looks down).
pub const SPAWN_PITCH: f32 = -0.25;
/// Below this height the player is put back on the surface.
pub const WORLD_FLOOR: f32 = -1024.0;

/// The player's body; the entity's translation is the feet (bottom centre).
#[derive(Component, Debug, Default, Clone)]
pub struct Player {
    /// Velocity, blocks per second.
    pub velocity: Vec3,
    /// Yaw (radians, around +y).
    pub yaw: f32,
    /// Pitch (radians).
    pub pitch: f32,
    /// Standing on something.
    pub on_ground: bool,
    /// F: flying, no gravity.
    pub flying: bool,
    /// N: no collision (only while flying).
    pub noclip: bool,
}

/// The camera, a child of the player at eye height.
#[derive(Component, Debug)]
pub struct PlayerCamera;

/// Player systems.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayerSystems;

/// The player plugin.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_player).add_systems(
        Update,
        (
            respawn_on_world_change,
            grab_cursor,
            look_around,
            toggle_modes,
            apply_movement,
            update_stream_center,
        )
            .chain()
            .in_set(PlayerSystems)
            .before(crate::streaming::StreamingSystems::Plan),
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

fn spawn_player(mut commands: Commands, world: Res<ActiveWorld>, view: Option<Res<ViewDistance>>) {
    let feet = spawn_point(&world.generator);
    let view = view.map_or(crate::DEFAULT_VIEW_DISTANCE, |v| v.0);
    commands
        .spawn((
            Player {
                yaw: SPAWN_YAW,
                pitch: SPAWN_PITCH,
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
                Transform::from_xyz(0.0, EYE, 0.0).with_rotation(Quat::from_euler(
                    EulerRot::YXZ,
                    SPAWN_YAW,
                    SPAWN_PITCH,
                    0.0,
                )),
                fog_for(view),
            ));
        });
}

fn respawn_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    mut player: Query<(&mut Transform, &mut Player)>,
) {
    if changed.read().count() == 0 {
        return;
    }
    for (mut t, mut p) in &mut player {
        t.translation = spawn_point(&world.generator);
        p.velocity = Vec3::ZERO;
    }
}

fn grab_cursor(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    panel: Res<PanelOpen>,
    egui: Option<Res<EguiWantsInput>>,
    mut cursor: Query<&mut CursorOptions, With<PrimaryWindow>>,
) {
    let Ok(mut cursor) = cursor.single_mut() else {
        return;
    };
    let over_ui = egui.is_some_and(|e| e.wants_any_pointer_input());
    let click = mouse.is_some_and(|m| m.just_pressed(MouseButton::Left));
    let esc = keys.is_some_and(|k| k.just_pressed(KeyCode::Escape));
    let grab = if panel.0 || esc {
        false
    } else if click && !over_ui {
        true
    } else {
        return;
    };
    cursor.grab_mode = if grab {
        CursorGrabMode::Locked
    } else {
        CursorGrabMode::None
    };
    cursor.visible = !grab;
}

/// Whether the cursor is grabbed (mouse look, movement keys and editing active).
pub fn grabbed(cursor: &Query<&CursorOptions, With<PrimaryWindow>>) -> bool {
    cursor
        .single()
        .is_ok_and(|c| c.grab_mode != CursorGrabMode::None)
}

fn look_around(
    motion: Option<Res<AccumulatedMouseMotion>>,
    cursor: Query<&CursorOptions, With<PrimaryWindow>>,
    mut player: Query<&mut Player>,
    mut camera: Query<&mut Transform, With<PlayerCamera>>,
) {
    let Ok(mut p) = player.single_mut() else {
        return;
    };
    if let Some(m) = motion
        && grabbed(&cursor)
    {
        p.yaw -= m.delta.x * 0.0025;
        p.pitch = (p.pitch - m.delta.y * 0.0025).clamp(-1.55, 1.55);
    }
    if let Ok(mut cam) = camera.single_mut() {
        cam.rotation = Quat::from_euler(EulerRot::YXZ, p.yaw, p.pitch, 0.0);
    }
}

fn toggle_modes(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    egui: Option<Res<EguiWantsInput>>,
    mut player: Query<&mut Player>,
) {
    let Some(keys) = keys else { return };
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    for mut p in &mut player {
        if keys.just_pressed(KeyCode::KeyF) {
            p.flying = !p.flying;
            p.velocity = Vec3::ZERO;
        }
        if keys.just_pressed(KeyCode::KeyN) {
            p.noclip = !p.noclip;
        }
    }
}

/// The input a frame of movement uses, decoupled from Bevy's input for tests.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInput {
    /// Forward (+) / back (-).
    pub forward: f32,
    /// Right (+) / left (-).
    pub right: f32,
    /// Jump (walking) or up (flying).
    pub up: bool,
    /// Down (flying).
    pub down: bool,
    /// Sprint.
    pub sprint: bool,
}

fn read_input(keys: &ButtonInput<KeyCode>) -> MoveInput {
    let axis = |pos: KeyCode, neg: KeyCode| {
        keys.pressed(pos) as i32 as f32 - keys.pressed(neg) as i32 as f32
    };
    MoveInput {
        forward: axis(KeyCode::KeyW, KeyCode::KeyS),
        right: axis(KeyCode::KeyD, KeyCode::KeyA),
        up: keys.pressed(KeyCode::Space),
        down: keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight),
        sprint: keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight),
    }
}

fn apply_movement(
    time: Res<Time>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    cursor: Query<&CursorOptions, With<PrimaryWindow>>,
    chunks: Res<Chunks>,
    world: Res<ActiveWorld>,
    mut player: Query<(&mut Transform, &mut Player)>,
) {
    let Ok((mut t, mut p)) = player.single_mut() else {
        return;
    };
    let input = match keys {
        Some(k) if grabbed(&cursor) => read_input(&k),
        _ => MoveInput::default(),
    };
    let dt = time.delta_secs().min(0.1);
    t.translation = step(&mut p, t.translation, input, dt, &|b| {
        chunks.block(b).map(|b| b.is_solid())
    });
    if t.translation.y < WORLD_FLOOR {
        t.translation = spawn_point(&world.generator);
        p.velocity = Vec3::ZERO;
    }
}

/// One movement step. `solid` answers whether a block is solid, or `None` if its
/// chunk is not loaded (treated as solid, and the body does not fall into it).
pub fn step(
    p: &mut Player,
    feet: Vec3,
    input: MoveInput,
    dt: f32,
    solid: &dyn Fn(BlockPos) -> Option<bool>,
) -> Vec3 {
    let (sin, cos) = p.yaw.sin_cos();
    let forward = Vec3::new(-sin, 0.0, -cos);
    let right = Vec3::new(cos, 0.0, -sin);
    let wish = (forward * input.forward + right * input.right).normalize_or_zero();
    let below_loaded = solid(BlockPos::containing((feet - Vec3::Y * 0.5).to_array())).is_some();
    if p.flying {
        let speed = FLY * if input.sprint { 2.5 } else { 1.0 };
        let vertical = input.up as i32 as f32 - input.down as i32 as f32;
        p.velocity = (wish + Vec3::Y * vertical) * speed;
    } else {
        let speed = WALK * if input.sprint { SPRINT } else { 1.0 };
        p.velocity.x = wish.x * speed;
        p.velocity.z = wish.z * speed;
        if input.up && p.on_ground {
            p.velocity.y = JUMP;
        }
        if below_loaded {
            p.velocity.y = (p.velocity.y - GRAVITY * dt).max(-60.0);
        } else {
            // Wait for the ground to load rather than fall through it.
            p.velocity.y = p.velocity.y.max(0.0);
        }
    }
    let delta = p.velocity * dt;
    if p.flying && p.noclip {
        p.on_ground = false;
        return feet + delta;
    }
    let (pos, blocked) = move_body(feet, delta, &|b| solid(b).unwrap_or(true));
    if blocked[1] {
        p.on_ground = delta.y < 0.0;
        p.velocity.y = 0.0;
    } else {
        p.on_ground = false;
    }
    pos
}

/// Moves an upright box (feet at `feet`, [`HALF_WIDTH`], [`HEIGHT`]) by `delta`, one
/// axis at a time (y, then x, then z), stopping at solid blocks. Returns the new feet
/// position and which axes were blocked. Large moves are split into sub-steps of at
/// most half a block so nothing is tunnelled through.
pub fn move_body(feet: Vec3, delta: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> (Vec3, [bool; 3]) {
    let steps = (delta.abs().max_element() / 0.45).ceil().max(1.0) as i32;
    let part = delta / steps as f32;
    let mut pos = feet;
    let mut blocked = [false; 3];
    for _ in 0..steps {
        for axis in [1, 0, 2] {
            if blocked[axis] {
                continue;
            }
            let mut next = pos;
            next[axis] += part[axis];
            if part[axis] != 0.0 && overlaps_solid(next, solid) {
                blocked[axis] = true;
                // Snap flush against the block face.
                next[axis] = if part[axis] > 0.0 {
                    let edge = if axis == 1 {
                        next[axis] + HEIGHT
                    } else {
                        next[axis] + HALF_WIDTH
                    };
                    let face = edge.floor();
                    face - if axis == 1 { HEIGHT } else { HALF_WIDTH } - 1e-4
                } else {
                    let edge = if axis == 1 {
                        next[axis]
                    } else {
                        next[axis] - HALF_WIDTH
                    };
                    let face = edge.floor() + 1.0;
                    face + if axis == 1 { 0.0 } else { HALF_WIDTH } + 1e-4
                };
                if overlaps_solid(next, solid) {
                    next[axis] = pos[axis];
                }
            }
            pos = next;
        }
    }
    (pos, blocked)
}

/// Whether the body at `feet` overlaps a solid block.
pub fn overlaps_solid(feet: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> bool {
    let min = feet - Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH);
    let max = feet + Vec3::new(HALF_WIDTH, HEIGHT, HALF_WIDTH);
    let (lo, hi) = (
        min.floor().as_ivec3(),
        (max - Vec3::splat(1e-5)).floor().as_ivec3(),
    );
    for y in lo.y..=hi.y {
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                if solid(BlockPos::new(x, y, z)) {
                    return true;
                }
            }
        }
    }
    false
}

fn update_stream_center(player: Query<&Transform, With<Player>>, mut center: ResMut<StreamCenter>) {
    if let Ok(t) = player.single() {
        center.0 = t.translation;
    }
}
