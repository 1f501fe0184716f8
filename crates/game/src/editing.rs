//! Breaking and placing blocks: the hotbar (keys 1-9 and 0, mouse wheel), the click
//! read in `Input`, the edit made in `Edit` through [`WorldBlocks`] against the block
//! that was outlined on screen, and then the new target (an exact voxel ray from the
//! eye, up to [`REACH`] blocks).

use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_voxel::raycast::{Probe, RayHit, raycast};
use terravox_voxel::{Block, BlockPos};

use crate::mode::Mode;
use crate::player::Player;
use crate::player::body::overlaps_solid;
use crate::player::eye::eye_ray;
use crate::schedule::GameSystems;
use crate::streaming::{Chunks, EditRefused, WorldBlocks};

/// How far the player reaches, in blocks.
pub(crate) const REACH: f32 = 8.0;

/// The blocks on the hotbar, keys 1 to 9 and 0.
pub const HOTBAR: [Block; 10] = [
    Block::Grass,
    Block::Dirt,
    Block::Stone,
    Block::Cobblestone,
    Block::Planks,
    Block::Wood,
    Block::Brick,
    Block::Sand,
    Block::Snow,
    Block::Slate,
];

/// The keys selecting hotbar slots 1 to 10.
const DIGITS: [KeyCode; 10] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
    KeyCode::Digit0,
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
    fn scroll(&mut self, steps: i32) {
        let n = HOTBAR.len() as i32;
        self.selected = (self.selected as i32 + steps).rem_euclid(n) as usize;
    }
}

/// The block the player looks at, if one is within reach.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Target(pub Option<RayHit>);

/// The edit a click asked for this frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum EditIntent {
    #[default]
    None,
    Break,
    Place,
}

/// The first solid block along a ray from `origin` (world coordinates) within
/// [`REACH`], through air and water; the ray stops at unloaded chunks. Traced from the
/// block holding the origin, so it is exact anywhere in the world.
pub fn find_target(chunks: &Chunks, origin: DVec3, dir: Vec3) -> Option<RayHit> {
    let anchor = BlockPos::containing_f64(origin.to_array());
    let shift = [anchor.x, anchor.y, anchor.z];
    let local = (origin - block_corner(anchor)).as_vec3();
    let hit = raycast(local.to_array(), dir.to_array(), REACH, |p| {
        match chunks.block(p.offset(shift)) {
            None => Probe::Unknown,
            Some(b) if b.is_solid() => Probe::Hit,
            Some(_) => Probe::Pass,
        }
    })?;
    Some(RayHit {
        pos: hit.pos.offset(shift),
        ..hit
    })
}

/// The corner of a block, in `f64` world coordinates.
fn block_corner(b: BlockPos) -> DVec3 {
    DVec3::new(b.x as f64, b.y as f64, b.z as f64)
}

/// Breaks the targeted block: it becomes air, or cave air inside a cave ([`broken`]).
pub fn break_block(blocks: &mut WorldBlocks, target: &RayHit) -> Result<BlockPos, EditRefused> {
    let p = target.pos;
    let around: Vec<Block> = [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
    ]
    .iter()
    .filter_map(|&d| blocks.block(p.offset(d)))
    .collect();
    blocks.set(p, broken(&around)).map(|()| p)
}

/// What a broken block leaves, given its neighbours: cave air (out of the sky's
/// light) where it opens onto a cave and not onto the open air, so digging in a cave
/// keeps it dark; air elsewhere.
fn broken(neighbours: &[Block]) -> Block {
    if neighbours.contains(&Block::CaveAir) && !neighbours.contains(&Block::Air) {
        Block::CaveAir
    } else {
        Block::Air
    }
}

/// Places `block` against the targeted face, unless the space holds something solid
/// or overlaps the body of a player standing at `feet` (world coordinates). Water is
/// replaced.
pub fn place_block(
    blocks: &mut WorldBlocks,
    feet: DVec3,
    target: &RayHit,
    block: Block,
) -> Result<BlockPos, EditRefused> {
    let pos = target.adjacent().ok_or(EditRefused::NoFace)?;
    match blocks.block(pos) {
        None => return Err(EditRefused::NotLoaded),
        Some(b) if b.is_solid() => return Err(EditRefused::Occupied),
        Some(_) => {}
    }
    // The body against the block, in a frame anchored at the block.
    let local_feet = (feet - block_corner(pos)).as_vec3();
    if block.is_solid() && overlaps_solid(local_feet, &|b| b == BlockPos::default()) {
        return Err(EditRefused::InsidePlayer);
    }
    blocks.set(pos, block).map(|()| pos)
}

/// The editing plugin.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Hotbar>()
        .init_resource::<Target>()
        .init_resource::<EditIntent>()
        .add_systems(
            Update,
            (select_block.run_if(not(in_state(Mode::Panel))), read_click)
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            (
                edit_target.run_if(|intent: Res<EditIntent>| *intent != EditIntent::None),
                update_target,
            )
                .chain()
                .in_set(GameSystems::Edit),
        );
}

fn select_block(
    keys: Res<ButtonInput<KeyCode>>,
    scroll: Res<AccumulatedMouseScroll>,
    mut hotbar: ResMut<Hotbar>,
) {
    if let Some(i) = DIGITS.iter().position(|k| keys.just_pressed(*k)) {
        hotbar.selected = i;
    }
    if scroll.delta.y != 0.0 {
        // Wheel up selects the previous slot, as in most games.
        hotbar.scroll(-scroll.delta.y.signum() as i32);
    }
}

/// Left click breaks, right click places; only while playing.
fn read_click(
    mode: Res<State<Mode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut intent: ResMut<EditIntent>,
) {
    *intent = match mode.get() {
        Mode::Playing if mouse.just_pressed(MouseButton::Left) => EditIntent::Break,
        Mode::Playing if mouse.just_pressed(MouseButton::Right) => EditIntent::Place,
        _ => EditIntent::None,
    };
}

/// Makes the asked edit on the block outlined last frame (what the player clicked at).
fn edit_target(
    intent: Res<EditIntent>,
    target: Res<Target>,
    hotbar: Res<Hotbar>,
    player: Query<&Player>,
    mut blocks: WorldBlocks,
) {
    let (Some(hit), Ok(feet)) = (target.0, player.single().map(|p| p.position)) else {
        return;
    };
    let result = match *intent {
        EditIntent::None => return,
        EditIntent::Break => break_block(&mut blocks, &hit),
        EditIntent::Place => place_block(&mut blocks, feet, &hit, hotbar.block()),
    };
    if let Err(e) = result {
        debug!("edit refused: {e}");
    }
}

/// Aims the ray from the player's eye and stores what it hits.
fn update_target(chunks: Res<Chunks>, player: Query<&Player>, mut target: ResMut<Target>) {
    let hit = player.single().ok().and_then(|p| {
        let (origin, dir) = eye_ray(p);
        find_target(&chunks, origin, dir)
    });
    if target.0 != hit {
        target.0 = hit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digging_in_a_cave_leaves_cave_air_and_opening_it_leaves_air() {
        use Block::{Air, CaveAir, Stone};
        assert_eq!(broken(&[Stone, Stone, CaveAir]), CaveAir);
        assert_eq!(broken(&[Stone, CaveAir, Air]), Air);
        assert_eq!(broken(&[Stone, Stone]), Air);
        assert_eq!(broken(&[]), Air);
    }
}
