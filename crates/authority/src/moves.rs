//! Moves a server decides: a player's game moves its body by the body's rules
//! ([`crate::body`]) and says where it is ten times a second; the server takes each
//! move only if a body could have made it ([`Motion::judge`]), with room for a
//! link's latency and jitter, and otherwise puts the player back where it last was
//! (a correction the client takes).
//!
//! A move is taken when:
//! - it is no faster than the body goes (walking, sprinting and a current: 10.4
//!   blocks a second; falling: terminal speed; flying where allowed: 40), against a
//!   budget that fills with the time since the last move and holds at most a
//!   second of moving ([`SLACK`]), so moves that arrive in a burst after a stall
//!   pass;
//! - the body does not end inside a block nor pass through one on the way (the
//!   straight way, or up then across as a step up goes), its box a little smaller
//!   than the body's so corners cut by sampling pass;
//! - off the ground and out of water, it rises no more than a jump above where it
//!   last stood ([`APEX`]), and after the longest jump's time in the air
//!   ([`AIR_TIME`]) it comes down.
//!
//! Where flying is allowed (the world is started so, or the player is an operator)
//! only the speed is checked: flying and noclip go through. Blocks the server has
//! not made are taken to be open: what it cannot see it does not refuse.

use glam::{DVec3, Vec3, Vec3Swizzles};
use terravox_voxel::{Block, BlockPos};

use crate::body::{CURRENT, FLY, GRAVITY, HALF_WIDTH, HEIGHT, JUMP, SPRINT, WALK, wet};

/// Seconds of moving the budget holds at most: a link's stall and burst.
pub const SLACK: f64 = 1.0;
/// The fastest a body goes on foot or swimming (sprinting, carried by a current),
/// with a tenth more for rounding.
const WALK_MOST: f64 = (WALK as f64 * SPRINT as f64 + CURRENT as f64) * 1.1;
/// The fastest a flying body goes (sprinting), with a tenth more.
const FLY_MOST: f64 = FLY as f64 * 2.5 * 1.1;
/// The fastest a body falls (terminal speed), with a tenth more.
const FALL_MOST: f64 = 60.0 * 1.1;
/// How high a jump lifts the feet above where they stood, with room to spare.
pub const APEX: f64 = (JUMP as f64 * JUMP as f64) / (2.0 * GRAVITY as f64) + 0.4;
/// How long a body may stay in the air without coming down: the longest jump's
/// time, twice.
pub const AIR_TIME: f64 = 2.0 * 2.0 * JUMP as f64 / GRAVITY as f64;
/// How much smaller the box that must stay clear is than the body, each way.
const SHRINK: f32 = 0.1;
/// Steps of the way checked, in blocks.
const STRIDE: f32 = 0.1;
/// A move further than this is not checked block by block (a flying body's).
const LONGEST_CHECKED: f32 = 64.0;

/// Why a move was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Wrong {
    /// Further than a body goes in the time.
    #[error("faster than a body moves")]
    TooFast,
    /// It would end inside a block.
    #[error("inside a block")]
    Inside,
    /// It would pass through a block.
    #[error("through a block")]
    Through,
    /// Higher than a jump lifts it, with nothing under it.
    #[error("rising with nothing under it")]
    Rising,
    /// In the air too long without coming down.
    #[error("hovering in the air")]
    Hovering,
}

/// The blocks a move is judged among: `None` where the server has not made them
/// (open, as far as a move is concerned).
pub type Blocks<'a> = &'a dyn Fn(BlockPos) -> Option<Block>;

/// What a server knows of one player's movement (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// The feet as last taken.
    at: DVec3,
    /// Blocks it may still move across, and fall.
    budget: f64,
    fall: f64,
    /// The height the feet last stood (on the ground or in water) at.
    support: f64,
    /// Seconds since.
    airborne: f64,
    /// Corrections made so far: a client's moves say which they follow.
    corrections: u32,
}

impl Motion {
    /// A body standing at `feet` (where the player joined).
    pub fn new(feet: [f64; 3]) -> Self {
        Self {
            at: DVec3::from_array(feet),
            budget: 0.0,
            fall: 0.0,
            support: feet[1],
            airborne: 0.0,
            corrections: 0,
        }
    }

    /// The feet as last taken: where a correction puts the player.
    pub fn at(&self) -> [f64; 3] {
        self.at.to_array()
    }

    /// The corrections made so far.
    pub fn corrections(&self) -> u32 {
        self.corrections
    }

    /// Counts a correction (the player is put back at [`Motion::at`]): its number.
    pub fn correct(&mut self) -> u32 {
        self.corrections = self.corrections.wrapping_add(1);
        self.budget = 0.0;
        self.fall = 0.0;
        self.airborne = 0.0;
        self.support = self.at.y;
        self.corrections
    }

    /// Judges a move to `feet` made `dt` seconds after the last one judged; taken
    /// (it becomes [`Motion::at`]) or why not. `fly`: flying and noclip allowed.
    pub fn judge(
        &mut self,
        feet: [f64; 3],
        dt: f64,
        fly: bool,
        blocks: Blocks,
    ) -> Result<(), Wrong> {
        let dt = dt.clamp(0.0, SLACK);
        let (most, rise_most) = if fly {
            (FLY_MOST, FLY_MOST)
        } else {
            (WALK_MOST, f64::INFINITY)
        };
        self.budget = (self.budget + most * dt).min(most * SLACK);
        self.fall = (self.fall + FALL_MOST.max(most) * dt).min(FALL_MOST.max(most) * SLACK);
        let to = DVec3::from_array(feet);
        let d = to - self.at;
        let across = d.xz().length();
        if across > self.budget + 0.3 || -d.y > self.fall + 0.5 || d.y > rise_most * SLACK {
            return Err(Wrong::TooFast);
        }
        // In a frame anchored at the last feet's block, so f32 stays exact anywhere.
        let anchor = BlockPos::containing_f64(self.at.to_array());
        let base = DVec3::new(
            f64::from(anchor.x),
            f64::from(anchor.y),
            f64::from(anchor.z),
        );
        let local = |b: BlockPos| blocks(b.offset([anchor.x, anchor.y, anchor.z]));
        let (from, to_local) = ((self.at - base).as_vec3(), (to - base).as_vec3());
        if !fly {
            let solid = |b: BlockPos| local(b).is_some_and(Block::is_solid);
            if overlaps(to_local, SHRINK, &solid) {
                return Err(Wrong::Inside);
            }
            if !clear(from, to_local, &solid) {
                return Err(Wrong::Through);
            }
            let wet = wet(to_local, &local).depth > 0.0;
            if to.y > self.support + APEX && !wet {
                return Err(Wrong::Rising);
            }
            if wet || standing(to_local, &|b| local(b).is_none_or(Block::is_solid)) {
                self.support = to.y;
                self.airborne = 0.0;
            } else {
                self.airborne += dt;
                if self.airborne > AIR_TIME && d.y >= 0.0 {
                    return Err(Wrong::Hovering);
                }
            }
        }
        self.budget -= across;
        self.fall -= (-d.y).max(0.0);
        self.at = to;
        Ok(())
    }
}

/// Whether the body at `feet`, `shrink` smaller each way, overlaps a block `solid`
/// picks.
fn overlaps(feet: Vec3, shrink: f32, solid: &dyn Fn(BlockPos) -> bool) -> bool {
    let lo = feet - Vec3::new(HALF_WIDTH - shrink, -shrink, HALF_WIDTH - shrink);
    let hi = feet + Vec3::new(HALF_WIDTH - shrink, HEIGHT - shrink, HALF_WIDTH - shrink);
    let (lo, hi) = (lo.floor().as_ivec3(), hi.floor().as_ivec3());
    (lo.y..=hi.y)
        .any(|y| (lo.z..=hi.z).any(|z| (lo.x..=hi.x).any(|x| solid(BlockPos::new(x, y, z)))))
}

/// Whether the way from `from` to `to` is clear for the (slightly smaller) body:
/// the straight way, or up (or down) first and then across.
fn clear(from: Vec3, to: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> bool {
    let along = |a: Vec3, b: Vec3| {
        let length = (b - a).length();
        if length > LONGEST_CHECKED {
            return true;
        }
        let steps = (length / STRIDE).ceil().max(1.0) as i32;
        (1..=steps).all(|i| !overlaps(a.lerp(b, i as f32 / steps as f32), SHRINK, solid))
    };
    let turn = Vec3::new(from.x, to.y, from.z);
    along(from, to) || (along(from, turn) && along(turn, to))
}

/// Whether something under the body at `feet` holds it up (within a tenth of a block
/// below its footprint).
fn standing(feet: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> bool {
    let y = (feet.y - 0.1).floor() as i32;
    let lo = (feet - Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH))
        .floor()
        .as_ivec3();
    let hi = (feet + Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH) - Vec3::splat(1e-5))
        .floor()
        .as_ivec3();
    (lo.z..=hi.z).any(|z| (lo.x..=hi.x).any(|x| solid(BlockPos::new(x, y, z))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stone below y 0, a wall at x 5 (two blocks high, z 0 and 1), a pillar at
    /// (-3, 0..3, 0).
    fn land(b: BlockPos) -> Option<Block> {
        let wall = b.x == 5 && (0..2).contains(&b.y) && (0..2).contains(&b.z);
        let pillar = b.x == -3 && b.z == 0 && (0..3).contains(&b.y);
        Some(if b.y < 0 || wall || pillar {
            Block::Stone
        } else {
            Block::Air
        })
    }

    /// Moves of a body walking at `speed` along +x from (0.5, 0, 0.5), `n` of them
    /// every `dt`: the first refused, if any.
    fn walk(speed: f64, dt: f64, n: usize) -> Result<(), Wrong> {
        let mut m = Motion::new([0.5, 0.0, 10.5]);
        for i in 1..=n {
            let x = 0.5 + speed * dt * i as f64;
            m.judge([x, 0.0, 10.5], dt, false, &land)?;
        }
        Ok(())
    }

    #[test]
    fn walking_and_sprinting_pass_and_150_blocks_a_second_does_not() {
        assert_eq!(walk(5.0, 0.1, 30), Ok(()));
        assert_eq!(walk(9.0, 0.1, 30), Ok(()));
        assert_eq!(walk(150.0, 0.1, 5), Err(Wrong::TooFast));
        // Flying fast where flying is allowed.
        let mut m = Motion::new([0.5, 0.0, 10.5]);
        for i in 1..=20 {
            let x = 0.5 + 3.5 * i as f64;
            assert_eq!(m.judge([x, 20.0, 10.5], 0.1, true, &land), Ok(()));
        }
    }

    #[test]
    fn moves_held_back_by_the_link_and_arriving_at_once_pass() {
        let mut m = Motion::new([0.5, 0.0, 10.5]);
        // A second of walking at 8 blocks a second sent as one burst after a stall:
        // the first after a second's silence, the others no time apart.
        assert_eq!(m.judge([4.5, 0.0, 10.5], 1.0, false, &land), Ok(()));
        for x in [5.5, 6.5, 7.5, 8.5] {
            assert_eq!(m.judge([x, 0.0, 10.5], 0.0, false, &land), Ok(()));
        }
        // But not a second burst with nothing left.
        assert_eq!(
            m.judge([20.5, 0.0, 10.5], 0.0, false, &land),
            Err(Wrong::TooFast)
        );
    }

    #[test]
    fn a_wall_is_neither_entered_nor_passed_without_noclip() {
        let mut m = Motion::new([4.0, 0.0, 0.5]);
        assert_eq!(
            m.judge([5.5, 0.0, 0.5], 0.5, false, &land),
            Err(Wrong::Inside)
        );
        assert_eq!(
            m.judge([6.5, 0.0, 0.5], 0.5, false, &land),
            Err(Wrong::Through)
        );
        assert_eq!(m.at(), [4.0, 0.0, 0.5]);
        // Flush against it, and through it with noclip where flying is allowed.
        assert_eq!(m.judge([4.69, 0.0, 0.5], 0.5, false, &land), Ok(()));
        assert_eq!(m.judge([6.5, 0.0, 0.5], 0.5, true, &land), Ok(()));
    }

    #[test]
    fn a_step_up_and_a_jump_pass_and_climbing_the_air_does_not() {
        // A jump beside the wall, and down again.
        let mut m = Motion::new([4.0, 0.0, 0.5]);
        assert_eq!(m.judge([4.0, 1.3, 0.5], 0.2, false, &land), Ok(()));
        assert_eq!(m.judge([4.0, 0.2, 0.5], 0.3, false, &land), Ok(()));
        // Up beside the pillar: higher than a jump with nothing under it, and onto
        // its top (three blocks) at once.
        let mut m = Motion::new([-1.6, 0.0, 0.5]);
        assert_eq!(m.judge([-1.6, 1.2, 0.5], 0.2, false, &land), Ok(()));
        assert_eq!(
            m.judge([-1.6, 2.4, 0.5], 0.2, false, &land),
            Err(Wrong::Rising)
        );
        let mut m = Motion::new([-1.6, 0.0, 0.5]);
        assert_eq!(
            m.judge([-2.5, 3.0, 0.5], 0.5, false, &land),
            Err(Wrong::Rising)
        );
        // A bot stepping onto a block beside it at once: up, then across.
        let mut m = Motion::new([4.0, 0.0, 3.5]);
        let step = |b: BlockPos| {
            Some(if b.y < 0 || (b == BlockPos::new(4, 0, 4)) {
                Block::Stone
            } else {
                Block::Air
            })
        };
        assert_eq!(m.judge([4.5, 1.0, 4.3], 0.1, false, &step), Ok(()));
    }

    #[test]
    fn hovering_is_refused_once_a_jump_would_have_come_down() {
        let mut m = Motion::new([0.5, 0.0, 10.5]);
        assert_eq!(m.judge([0.5, 1.0, 10.5], 0.1, false, &land), Ok(()));
        let mut refused = None;
        for i in 0..30 {
            if let Err(w) = m.judge([0.6 + 0.1 * f64::from(i), 1.0, 10.5], 0.1, false, &land) {
                refused = Some((i, w));
                break;
            }
        }
        let (i, why) = refused.expect("refused");
        assert_eq!(why, Wrong::Hovering);
        assert!(f64::from(i) * 0.1 >= AIR_TIME - 0.2, "after {i} moves");
        // A fall from a height comes down: taken however long it lasts.
        let mut m = Motion::new([0.5, 200.0, 10.5]);
        for i in 1..=60 {
            let y = 200.0 - 0.5 * f64::from(GRAVITY) * (0.1 * f64::from(i)).powi(2);
            assert_eq!(
                m.judge([0.5, y.max(0.0), 10.5], 0.1, false, &land),
                Ok(()),
                "{i}"
            );
        }
    }

    #[test]
    fn a_correction_puts_the_body_back_and_counts() {
        let mut m = Motion::new([0.5, 0.0, 10.5]);
        assert!(m.judge([90.5, 0.0, 10.5], 0.1, false, &land).is_err());
        assert_eq!(m.correct(), 1);
        assert_eq!(m.at(), [0.5, 0.0, 10.5]);
        assert_eq!(m.corrections(), 1);
    }

    #[test]
    fn unmade_blocks_are_taken_for_open() {
        let mut m = Motion::new([0.5, 0.0, 0.5]);
        assert_eq!(m.judge([1.5, 0.0, 0.5], 0.5, false, &|_| None), Ok(()));
    }
}
