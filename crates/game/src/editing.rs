//! Breaking and placing blocks, and the bucket: the hotbar (keys 1-9, 0 and -, mouse
//! wheel), the click read in `Input`, the edit asked of the world's authority in
//! `Edit` (through [`WorldBlocks`]) against the block that was outlined on screen,
//! and then the new target (an exact voxel ray from the eye, up to [`REACH`] blocks;
//! with the empty bucket it stops at a source of water too). The authority decides
//! (`terravox_authority::rules`): a block broken beside or under water fills with
//! the water at once, every edit wakes the water around it, the bucket is its too.

use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_authority::rules::{PLACEABLE, REACH};
use terravox_authority::{Action, Refusal};
use terravox_voxel::raycast::{Probe, RayHit, raycast};
use terravox_voxel::{Block, BlockPos};

use crate::mode::{Mode, keys_to_game};
use crate::player::Player;
use crate::player::eye::eye_ray;
use crate::schedule::GameSystems;
use crate::streaming::{Chunks, WorldBlocks};
use crate::world::{LOCAL_PLAYER, WorldAuthority};

/// What a hotbar slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A block to place.
    Block(Block),
    /// The bucket: takes a source of water, and places it again.
    Bucket,
}

/// The hotbar's slots, keys 1 to 9, 0 and -: the blocks a player may place, then
/// the bucket.
pub const HOTBAR: [Slot; 11] = {
    let mut slots = [Slot::Bucket; 11];
    let mut i = 0;
    while i < PLACEABLE.len() {
        slots[i] = Slot::Block(PLACEABLE[i]);
        i += 1;
    }
    slots
};

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

/// The selected hotbar slot (whether the bucket holds water is the authority's:
/// `Players::bucket_full`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hotbar {
    /// Index into [`HOTBAR`].
    pub selected: usize,
}

impl Hotbar {
    /// The selected slot.
    pub fn slot(&self) -> Slot {
        HOTBAR[self.selected]
    }

    /// What the selected slot is called: its block, or the bucket, full or empty.
    pub fn name(&self, bucket_full: bool) -> &'static str {
        match self.slot() {
            Slot::Block(b) => b.name(),
            Slot::Bucket if bucket_full => "water bucket",
            Slot::Bucket => "bucket",
        }
    }

    /// Whether the empty bucket is in hand (then the target is a source of water too).
    fn empty_bucket(&self, bucket_full: bool) -> bool {
        self.slot() == Slot::Bucket && !bucket_full
    }

    /// Moves the selection by `steps` slots, wrapping around.
    fn scroll(&mut self, steps: i32) {
        let n = HOTBAR.len() as i32;
        self.selected = (self.selected as i32 + steps).rem_euclid(n) as usize;
    }
}

/// An edit the local player made (decided by the world's authority): a server is
/// told of it (`net`).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Acted {
    /// The edit.
    pub(crate) action: Action,
    /// What its block held before (put back if the server refuses it).
    pub(crate) before: Block,
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

/// Breaks the targeted block for the local player: at once the water that runs
/// into it from beside or above fills it, else it becomes air, or cave air inside a
/// cave. Water is not broken.
pub fn break_block(blocks: &mut WorldBlocks, target: &RayHit) -> Result<BlockPos, Refusal> {
    blocks
        .act(LOCAL_PLAYER, Action::Break(target.pos))
        .map(|(p, _)| p)
}

/// Takes the targeted source of water into the local player's bucket: it leaves air
/// (or cave air inside a cave) and what it fed recedes (in a lake, the sources around
/// fill it again at the next step, as in Minecraft).
pub fn take_water(blocks: &mut WorldBlocks, target: &RayHit) -> Result<BlockPos, Refusal> {
    blocks
        .act(LOCAL_PLAYER, Action::Take(target.pos))
        .map(|(p, _)| p)
}

/// Places `block` against the targeted face for the local player, standing at
/// `feet` (world coordinates), unless the space holds something solid or overlaps a
/// body. Water is replaced (a block set in flowing water stops it); water from the
/// bucket is a source.
pub fn place_block(
    blocks: &mut WorldBlocks,
    feet: DVec3,
    target: &RayHit,
    block: Block,
) -> Result<BlockPos, Refusal> {
    let pos = target.adjacent().ok_or(Refusal::NoFace)?;
    blocks
        .authority_mut()
        .players_mut()
        .place(LOCAL_PLAYER, feet.to_array());
    blocks
        .act(LOCAL_PLAYER, Action::Place(pos, block))
        .map(|(p, _)| p)
}

/// The editing plugin.
pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Acted>()
        .init_resource::<Hotbar>()
        .init_resource::<Target>()
        .init_resource::<EditIntent>()
        .add_systems(
            Update,
            (select_block.run_if(keys_to_game), read_click).in_set(GameSystems::Input),
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
    mut blocks: WorldBlocks,
    mut acted: MessageWriter<Acted>,
) {
    let Some(hit) = target.0 else {
        return;
    };
    let full = blocks.authority().players().bucket_full(LOCAL_PLAYER);
    let place = |b| {
        hit.adjacent()
            .map(|p| Action::Place(p, b))
            .ok_or(Refusal::NoFace)
    };
    let action = match (*intent, hotbar.slot()) {
        (EditIntent::None, _) => return,
        (EditIntent::Break, _) => Ok(Action::Break(hit.pos)),
        (EditIntent::Place, Slot::Block(b)) => place(b),
        (EditIntent::Place, Slot::Bucket) if full => place(Block::Water),
        (EditIntent::Place, Slot::Bucket) => Ok(Action::Take(hit.pos)),
    };
    let made = action.and_then(|action| {
        let before = blocks.block(action.pos()).unwrap_or(Block::Air);
        blocks
            .act(LOCAL_PLAYER, action)
            .map(|_| acted.write(Acted { action, before }))
    });
    if let Err(e) = made {
        debug!("edit refused: {e}");
    }
}

/// Aims the ray from the player's eye and stores what it hits.
fn update_target(
    chunks: Res<Chunks>,
    hotbar: Res<Hotbar>,
    authority: Res<WorldAuthority>,
    player: Query<&Player>,
    mut target: ResMut<Target>,
) {
    let full = authority.players().bucket_full(LOCAL_PLAYER);
    let hit = player.single().ok().and_then(|p| {
        let (origin, dir) = eye_ray(p);
        find_target(&chunks, origin, dir, hotbar.empty_bucket(full))
    });
    if target.0 != hit {
        target.0 = hit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_is_the_last_slot_and_says_whether_it_is_full() {
        let mut h = Hotbar {
            selected: HOTBAR.len() - 1,
        };
        assert_eq!(h.slot(), Slot::Bucket);
        assert!(h.empty_bucket(false));
        assert_eq!(h.name(false), "bucket");
        assert!(!h.empty_bucket(true));
        assert_eq!(h.name(true), "water bucket");
        h.selected = 0;
        assert_eq!(h.name(true), "grass");
        assert_eq!(HOTBAR[9], Slot::Block(Block::Slate));
    }
}
