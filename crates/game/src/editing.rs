//! Breaking and placing blocks, and the bucket: the hotbar (keys 1-9, 0 and -, mouse
//! wheel), the click read in `Input`, the edit made in `Edit` through [`WorldBlocks`]
//! against the block that was outlined on screen, and then the new target (an exact
//! voxel ray from the eye, up to [`REACH`] blocks; with the empty bucket it stops at a
//! source of water too). A block broken beside or under water fills with the water at
//! once (`terravox_edits::fluid::fill`); every edit wakes the water around it.

use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_voxel::raycast::{Probe, RayHit, raycast};
use terravox_voxel::{Block, BlockPos};

use terravox_edits::fluid::emptied;

use crate::mode::Mode;
use crate::player::Player;
use crate::player::body::overlaps_solid;
use crate::player::eye::eye_ray;
use crate::schedule::GameSystems;
use crate::streaming::{Chunks, EditRefused, WorldBlocks};

/// How far the player reaches, in blocks.
pub(crate) const REACH: f32 = 8.0;

/// What a hotbar slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A block to place.
    Block(Block),
    /// The bucket: takes a source of water, and places it again.
    Bucket,
}

/// The hotbar's slots, keys 1 to 9, 0 and -.
pub const HOTBAR: [Slot; 11] = [
    Slot::Block(Block::Grass),
    Slot::Block(Block::Dirt),
    Slot::Block(Block::Stone),
    Slot::Block(Block::Cobblestone),
    Slot::Block(Block::Planks),
    Slot::Block(Block::Wood),
    Slot::Block(Block::Brick),
    Slot::Block(Block::Sand),
    Slot::Block(Block::Snow),
    Slot::Block(Block::Slate),
    Slot::Bucket,
];

/// The keys selecting the hotbar's slots.
const DIGITS: [KeyCode; 11] = [
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
    KeyCode::Minus,
];

/// The selected hotbar slot, and whether the bucket holds water.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hotbar {
    /// Index into [`HOTBAR`].
    pub selected: usize,
    /// The bucket holds a source of water.
    pub bucket_full: bool,
}

impl Hotbar {
    /// The selected slot.
    pub fn slot(&self) -> Slot {
        HOTBAR[self.selected]
    }

    /// What the selected slot is called: its block, or the bucket, full or empty.
    pub fn name(&self) -> &'static str {
        match self.slot() {
            Slot::Block(b) => b.name(),
            Slot::Bucket if self.bucket_full => "water bucket",
            Slot::Bucket => "bucket",
        }
    }

    /// Whether the empty bucket is in hand (then the target is a source of water too).
    fn empty_bucket(&self) -> bool {
        self.slot() == Slot::Bucket && !self.bucket_full
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
/// [`REACH`], through air and water (or, with `sources`, the first source of water
/// if it comes first); the ray stops at unloaded chunks. Traced from the block
/// holding the origin, so it is exact anywhere in the world.
pub fn find_target(chunks: &Chunks, origin: DVec3, dir: Vec3, sources: bool) -> Option<RayHit> {
    let anchor = BlockPos::containing_f64(origin.to_array());
    let shift = [anchor.x, anchor.y, anchor.z];
    let local = (origin - block_corner(anchor)).as_vec3();
    let hit = raycast(local.to_array(), dir.to_array(), REACH, |p| {
        match chunks.block(p.offset(shift)) {
            None => Probe::Unknown,
            Some(b) if b.is_solid() || sources && b == Block::Water => Probe::Hit,
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

/// Breaks the targeted block: at once the water that runs into it from beside or
/// above fills it, else it becomes air, or cave air inside a cave
/// (`terravox_edits::fluid::broken`). Water is not broken.
pub fn break_block(blocks: &mut WorldBlocks, target: &RayHit) -> Result<BlockPos, EditRefused> {
    let p = target.pos;
    if blocks.block(p).is_some_and(Block::is_water) {
        return Err(EditRefused::Water);
    }
    let broken = blocks.broken(p);
    blocks.set(p, broken).map(|()| p)
}

/// Takes the targeted source of water into the bucket: it leaves air (or cave air
/// inside a cave, [`emptied`]) and what it fed recedes (in a lake, the sources
/// around fill it again at the next step, as in Minecraft).
pub fn take_water(blocks: &mut WorldBlocks, target: &RayHit) -> Result<BlockPos, EditRefused> {
    let p = target.pos;
    if blocks.block(p) != Some(Block::Water) {
        return Err(EditRefused::NoSource);
    }
    let around = p
        .neighbours()
        .map(|q| blocks.block(q).unwrap_or(Block::Stone));
    blocks.set(p, emptied(around)).map(|()| p)
}

/// Places `block` against the targeted face, unless the space holds something solid
/// or overlaps the body of a player standing at `feet` (world coordinates). Water is
/// replaced (a block set in flowing water stops it; water placed from the bucket is
/// a source).
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
    mut hotbar: ResMut<Hotbar>,
    player: Query<&Player>,
    mut blocks: WorldBlocks,
) {
    let (Some(hit), Ok(feet)) = (target.0, player.single().map(|p| p.position)) else {
        return;
    };
    let result = match (*intent, hotbar.slot()) {
        (EditIntent::None, _) => return,
        (EditIntent::Break, _) => break_block(&mut blocks, &hit),
        (EditIntent::Place, Slot::Block(b)) => place_block(&mut blocks, feet, &hit, b),
        (EditIntent::Place, Slot::Bucket) => {
            let done = if hotbar.bucket_full {
                place_block(&mut blocks, feet, &hit, Block::Water)
            } else {
                take_water(&mut blocks, &hit)
            };
            if done.is_ok() {
                hotbar.bucket_full = !hotbar.bucket_full;
            }
            done
        }
    };
    if let Err(e) = result {
        debug!("edit refused: {e}");
    }
}

/// Aims the ray from the player's eye and stores what it hits.
fn update_target(
    chunks: Res<Chunks>,
    hotbar: Res<Hotbar>,
    player: Query<&Player>,
    mut target: ResMut<Target>,
) {
    let hit = player.single().ok().and_then(|p| {
        let (origin, dir) = eye_ray(p);
        find_target(&chunks, origin, dir, hotbar.empty_bucket())
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
        assert_eq!(emptied([Stone, Stone, CaveAir]), CaveAir);
        assert_eq!(emptied([Stone, CaveAir, Air]), Air);
        assert_eq!(emptied([Stone, Stone]), Air);
        assert_eq!(emptied([]), Air);
    }

    #[test]
    fn the_bucket_is_the_last_slot_and_says_whether_it_is_full() {
        let mut h = Hotbar {
            selected: HOTBAR.len() - 1,
            bucket_full: false,
        };
        assert_eq!(h.slot(), Slot::Bucket);
        assert!(h.empty_bucket());
        assert_eq!(h.name(), "bucket");
        h.bucket_full = true;
        assert!(!h.empty_bucket());
        assert_eq!(h.name(), "water bucket");
        h.selected = 0;
        assert_eq!(h.name(), "grass");
    }
}
