//! The player's input: movement keys into [`MoveInput`], mouse look, and the F (fly)
//! and N (noclip) toggles. Devices are read here and nowhere else in the player.

use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;

use super::body::{Keys, MoveInput, Player};
use crate::mode::Mode;

/// Radians of turn per pixel of mouse motion.
const MOUSE_SENSITIVITY: f32 = 0.0025;
/// Pitch stays within this many radians of level.
const MAX_PITCH: f32 = 1.55;

/// The movement asked for by the keys held (W A S D, Space, Ctrl, Shift).
pub(crate) fn read_keys(keys: &ButtonInput<KeyCode>) -> MoveInput {
    let axis = |pos: KeyCode, neg: KeyCode| {
        keys.pressed(pos) as i32 as f32 - keys.pressed(neg) as i32 as f32
    };
    MoveInput {
        forward: axis(KeyCode::KeyW, KeyCode::KeyS),
        right: axis(KeyCode::KeyD, KeyCode::KeyA),
        up: keys.pressed(KeyCode::Space),
        down: keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]),
        sprint: keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]),
    }
}

/// Movement keys count only while playing (the cursor grabbed).
pub(super) fn read_movement(
    mode: Res<State<Mode>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut input: ResMut<Keys>,
) {
    **input = match mode.get() {
        Mode::Playing => read_keys(&keys),
        _ => MoveInput::default(),
    };
}

/// Mouse motion turns the player (run while playing).
pub(super) fn look_around(motion: Res<AccumulatedMouseMotion>, mut player: Query<&mut Player>) {
    if motion.delta == Vec2::ZERO {
        return;
    }
    for mut p in &mut player {
        p.yaw -= motion.delta.x * MOUSE_SENSITIVITY;
        p.pitch = (p.pitch - motion.delta.y * MOUSE_SENSITIVITY).clamp(-MAX_PITCH, MAX_PITCH);
    }
}

/// F toggles flying, N noclip (run unless the panel has focus).
pub(super) fn toggle_flight(keys: Res<ButtonInput<KeyCode>>, mut player: Query<&mut Player>) {
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
