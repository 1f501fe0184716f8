//! The rules of editing a world: what a player may break, place and take with the
//! bucket, how far it reaches, how fast it may edit. Every edit of every player,
//! single-player, on a server or in a test, is decided here ([`decide`]).
//!
//! ```text
//! who       a player the world knows, with edits left (`EDIT_RATE` a
//!           second, `EDIT_BURST` at once: an honest fast builder clicks far slower)
//! where     within REACH + SLACK of its eyes (the block's nearest point), in a
//!           loaded chunk
//! break     something solid (water is taken with the bucket); what it holds then is
//!           the water that runs in at once, else air or cave air (fluid::broken)
//! take      a source of water, into an empty bucket (it leaves air or cave air)
//! place     a block of the hotbar (PLACEABLE), or water from a full bucket, into an
//!           open block beside something solid, never into a player's body
//! water     refused near water while the water waiting to tick is at its bound
//! ```

use terravox_edits::fluid::{self, Cells, Pending};
use terravox_voxel::{Block, BlockPos};
use thiserror::Error;

use crate::body;

/// How far a player reaches from its eyes, in blocks: the game's target ray.
pub const REACH: f32 = 8.0;

/// What the authority allows past [`REACH`]: a block, as Minecraft's server allows
/// (its eyes moved since the click; the box's nearest point is measured).
pub const SLACK: f64 = 1.0;

/// The blocks a player may place (the hotbar's, in its order); water comes from
/// the bucket.
pub const PLACEABLE: [Block; 10] = [
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

/// An edit a player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Break the block here.
    Break(BlockPos),
    /// Place this block here ([`Block::Water`]: pour the bucket).
    Place(BlockPos, Block),
    /// Take the source of water here into the bucket.
    Take(BlockPos),
}

impl Action {
    /// The block the action changes.
    pub fn pos(&self) -> BlockPos {
        match *self {
            Action::Break(p) | Action::Place(p, _) | Action::Take(p) => p,
        }
    }
}

/// Why an edit was not made.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum Refusal {
    /// The ray started inside a block: there is no face to place against.
    #[error("no face to place against")]
    NoFace,
    /// The block would overlap a player's body.
    #[error("that space is taken by a player")]
    InsidePlayer,
    /// Something solid is already there.
    #[error("that space is not empty")]
    Occupied,
    /// The chunk is not loaded.
    #[error("that part of the world is not loaded")]
    NotLoaded,
    /// The world is a live draft of the panel, which keeps no edits.
    #[error("this is a draft of the world: Apply it to build")]
    Draft,
    /// Water is not broken: it is taken with the bucket.
    #[error("water is taken with the bucket, not broken")]
    Water,
    /// The bucket needs a source to take (flowing water is not one).
    #[error("the bucket takes only a source of water")]
    NoSource,
    /// Nothing solid is there to break.
    #[error("there is nothing to break there")]
    Nothing,
    /// Nothing solid is beside the block to place it against.
    #[error("there is nothing to place it against")]
    Floating,
    /// The block is not one a player may place.
    #[error("that block cannot be placed")]
    NotPlaceable,
    /// Water is poured from a full bucket.
    #[error("the bucket is empty")]
    BucketEmpty,
    /// A full bucket takes no more.
    #[error("the bucket is full")]
    BucketFull,
    /// The block is beyond the player's reach.
    #[error("that is out of reach")]
    OutOfReach,
    /// The player edits faster than any honest builder.
    #[error("too many edits at once")]
    TooFast,
    /// The water waiting to tick is at its bound and the edit would wake more.
    #[error("the water here is too busy: wait for it to settle")]
    WaterBusy,
    /// The world knows no such player.
    #[error("no such player in this world")]
    UnknownPlayer,
}

/// Whether `p` lies within [`REACH`] + [`SLACK`] of `eye`: the distance from the
/// eye to the nearest point of the block's box.
pub fn in_reach(eye: [f64; 3], p: BlockPos) -> bool {
    let lo = [p.x, p.y, p.z].map(f64::from);
    let d2: f64 = (0..3)
        .map(|i| {
            let nearest = eye[i].clamp(lo[i], lo[i] + 1.0);
            (eye[i] - nearest).powi(2)
        })
        .sum();
    let most = f64::from(REACH) + SLACK;
    d2 <= most * most
}

/// A player asking for an edit, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Asker {
    /// Where its feet are.
    pub(crate) feet: [f64; 3],
    /// Whether its bucket holds water.
    pub(crate) bucket_full: bool,
}

/// Decides `action` by `player` (the others' bodies at `others`) over the loaded
/// world `cells`, with the water `pending`: the block it puts there, or why not. The
/// player's edits left are spent by the caller, whatever the answer.
pub(crate) fn decide(
    action: Action,
    player: &Asker,
    others: &[[f64; 3]],
    cells: &(impl Cells + ?Sized),
    pending: &Pending,
) -> Result<Block, Refusal> {
    let p = action.pos();
    if !in_reach(body::eye(player.feet), p) {
        return Err(Refusal::OutOfReach);
    }
    let here = cells.block(p).ok_or(Refusal::NotLoaded)?;
    let block = match action {
        Action::Break(_) if here.is_water() => return Err(Refusal::Water),
        Action::Break(_) if !here.is_solid() => return Err(Refusal::Nothing),
        Action::Break(_) => fluid::broken(cells, p),
        Action::Take(_) if player.bucket_full => return Err(Refusal::BucketFull),
        Action::Take(_) if here != Block::Water => return Err(Refusal::NoSource),
        Action::Take(_) => fluid::emptied(
            p.neighbours()
                .map(|q| cells.block(q).unwrap_or(Block::Stone)),
        ),
        Action::Place(_, b) => {
            place(b, here, p, player, others, cells)?;
            b
        }
    };
    if pending.full() && Pending::woken_by(p, cells).next().is_some() {
        return Err(Refusal::WaterBusy);
    }
    Ok(block)
}

/// Whether `b` may be placed at `p`, which holds `here`, by `player` (the other
/// players' bodies at `others`).
fn place(
    b: Block,
    here: Block,
    p: BlockPos,
    player: &Asker,
    others: &[[f64; 3]],
    cells: &(impl Cells + ?Sized),
) -> Result<(), Refusal> {
    match b {
        Block::Water if !player.bucket_full => return Err(Refusal::BucketEmpty),
        Block::Water => {}
        b if !PLACEABLE.contains(&b) => return Err(Refusal::NotPlaceable),
        _ => {}
    }
    if here.is_solid() {
        return Err(Refusal::Occupied);
    }
    let body = |feet| body::overlaps(feet, p);
    if b.is_solid() && (body(player.feet) || others.iter().copied().any(body)) {
        return Err(Refusal::InsidePlayer);
    }
    if !p
        .neighbours()
        .into_iter()
        .any(|q| cells.block(q).is_some_and(Block::is_solid))
    {
        return Err(Refusal::Floating);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_is_measured_to_the_nearest_point_of_the_block() {
        let eye = [0.5, 10.0, 0.5];
        let most = f64::from(REACH) + SLACK;
        // A block whose near face is just within reach along x.
        let at = |x: i32| BlockPos::new(x, 9, 0);
        let within = (0.5 + most).floor() as i32;
        assert!(in_reach(eye, at(within)));
        assert!(!in_reach(eye, at(within + 1)));
        assert!(in_reach(eye, BlockPos::new(0, 9, 0)));
        // Diagonally the same distance is further.
        assert!(!in_reach(eye, BlockPos::new(within, 9, within)));
    }
}
