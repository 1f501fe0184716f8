//! Breaking and placing blocks: the targeted block (an exact voxel ray from the eye,
//! up to [`REACH`] blocks), the hotbar (keys 1-9, mouse wheel), and the edits
//! themselves (left click breaks, right click places against the targeted face).

use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;
use bevy::window::{CursorOptions, PrimaryWindow};
use terravox_voxel::raycast::{Probe, RayHit, raycast};
use terravox_voxel::{Block, BlockPos};
use thiserror::Error;

use crate::persistence::{PersistenceSystems, WorldEdits};
use crate::player::{EYE, Player, PlayerSystems, grabbed, overlaps_solid};
use crate::streaming::{Chunks, StreamingSystems};
use crate::ui::PanelOpen;

/// How far the player reaches, in blocks.
pub const REACH: f32 = 8.0;

/// The blocks on the hotbar, keys 1 to 9.
pub const HOTBAR: [Block; 9] = [
    Block::Grass,
    Block::Dirt,
    Block::Stone,
    Block::Cobblestone,
    Block::Planks,
    Block::Wood,
    Block::Brick,
    Block::Sand,
    Block::Snow,
];

/// The selected hotbar slot.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hotbar {
    /// Index into [`HOTBAR`].
    pub selected: usize,
}

impl Hotbar {
    /// The block right click places.
    pub fn block(&self) -> Block {
        HOTBAR[self.selected]
    }

    /// Moves the selection by `steps` slots, wrapping around.
    pub fn scroll(&mut self, steps: i32) {
        let n = HOTBAR.len() as i32;
        self.selected = (self.selected as i32 + steps).rem_euclid(n) as usize;
    }
}

/// The block the player looks at, if one is within reach.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Target(pub Option<RayHit>);

/// Why an edit was not made.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum EditRefused {
    /// The ray started inside a block: there is no face to place against.
    #[error("no face to place against")]
    NoFace,
    /// The block would overlap the player's body.
    #[error("that space is taken by you")]
    InsidePlayer,
    /// Something solid is already there.
    #[error("that space is not empty")]
    Occupied,
    /// The chunk is not loaded.
    #[error("that part of the world is not loaded")]
    NotLoaded,
}

/// The eye position and view direction of a player standing at `feet`.
pub fn eye_ray(feet: Vec3, player: &Player) -> (Vec3, Vec3) {
    let rotation = Quat::from_euler(EulerRot::YXZ, player.yaw, player.pitch, 0.0);
    (feet + Vec3::Y * EYE, rotation * Vec3::NEG_Z)
}

/// The first solid block along a ray within [`REACH`], through air and water; the
/// ray stops at unloaded chunks.
pub fn find_target(chunks: &Chunks, origin: Vec3, dir: Vec3) -> Option<RayHit> {
    raycast(origin.to_array(), dir.to_array(), REACH, |p| {
        match chunks.block(p) {
            None => Probe::Unknown,
            Some(b) if b.is_solid() => Probe::Hit,
            Some(_) => Probe::Pass,
        }
    })
}

/// Sets a block in the loaded world and records it in the edits.
fn set(
    chunks: &mut Chunks,
    edits: &mut WorldEdits,
    pos: BlockPos,
    block: Block,
) -> Result<BlockPos, EditRefused> {
    if !chunks.set_block(pos, block) {
        return Err(EditRefused::NotLoaded);
    }
    edits.record(pos, block);
    Ok(pos)
}

/// Breaks the targeted block (it becomes air).
pub fn break_block(
    chunks: &mut Chunks,
    edits: &mut WorldEdits,
    target: &RayHit,
) -> Result<BlockPos, EditRefused> {
    set(chunks, edits, target.pos, Block::Air)
}

/// Places `block` against the targeted face, unless the space holds something solid
/// or overlaps the body of a player standing at `feet`. Water is replaced.
pub fn place_block(
    chunks: &mut Chunks,
    edits: &mut WorldEdits,
    feet: Vec3,
    target: &RayHit,
    block: Block,
) -> Result<BlockPos, EditRefused> {
    let pos = target.adjacent().ok_or(EditRefused::NoFace)?;
    match chunks.block(pos) {
        None => return Err(EditRefused::NotLoaded),
        Some(b) if b.is_solid() => return Err(EditRefused::Occupied),
        Some(_) => {}
    }
    if block.is_solid() && overlaps_solid(feet, &|b| b == pos) {
        return Err(EditRefused::InsidePlayer);
    }
    set(chunks, edits, pos, block)
}

/// The editing plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Hotbar>()
        .init_resource::<Target>()
        .add_systems(
            Update,
            (
                // Acts on the target shown last frame, before a click can grab the
                // cursor (so the grabbing click does not break a block).
                (select_block, edit_blocks)
                    .chain()
                    .before(PlayerSystems)
                    .before(PersistenceSystems),
                update_target.after(StreamingSystems::Apply),
            ),
        );
}

fn select_block(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    scroll: Option<Res<AccumulatedMouseScroll>>,
    panel: Res<PanelOpen>,
    mut hotbar: ResMut<Hotbar>,
) {
    if panel.0 {
        return;
    }
    if let Some(keys) = keys {
        const DIGITS: [KeyCode; 9] = [
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
            KeyCode::Digit7,
            KeyCode::Digit8,
            KeyCode::Digit9,
        ];
        if let Some(i) = DIGITS.iter().position(|k| keys.just_pressed(*k)) {
            hotbar.selected = i;
        }
    }
    if let Some(s) = scroll
        && s.delta.y != 0.0
    {
        // Wheel up selects the previous slot, as in most games.
        hotbar.scroll(-s.delta.y.signum() as i32);
    }
}

fn edit_blocks(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    cursor: Query<&CursorOptions, With<PrimaryWindow>>,
    target: Res<Target>,
    hotbar: Res<Hotbar>,
    player: Query<&Transform, With<Player>>,
    mut chunks: ResMut<Chunks>,
    mut edits: ResMut<WorldEdits>,
) {
    let (Some(mouse), Some(hit)) = (mouse, target.0) else {
        return;
    };
    if !grabbed(&cursor) {
        return;
    }
    let Ok(feet) = player.single().map(|t| t.translation) else {
        return;
    };
    let result = if mouse.just_pressed(MouseButton::Left) {
        break_block(&mut chunks, &mut edits, &hit)
    } else if mouse.just_pressed(MouseButton::Right) {
        place_block(&mut chunks, &mut edits, feet, &hit, hotbar.block())
    } else {
        return;
    };
    if let Err(e) = result {
        debug!("edit refused: {e}");
    }
}

/// Aims the ray from the player's eye and stores what it hits.
pub fn update_target(
    chunks: Res<Chunks>,
    player: Query<(&Transform, &Player)>,
    mut target: ResMut<Target>,
) {
    let hit = player.single().ok().and_then(|(t, p)| {
        let (origin, dir) = eye_ray(t.translation, p);
        find_target(&chunks, origin, dir)
    });
    if target.0 != hit {
        target.0 = hit;
    }
}
