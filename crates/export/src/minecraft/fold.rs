//! Fitting a tall world into Minecraft's standard height (`--height fit`), for servers
//! that take no data pack (Paper keeps to -64..319): the land above the fold is
//! brought down along `fold + room * tanh(d / room)` (`d` blocks above the fold,
//! `room` the rows between the fold and the top), whose slope is 1 at the fold and
//! less above it. So the fold makes no kink, no slope gets steeper (no step between
//! two columns grows), no peak is cut flat (the curve never reaches the top, and a
//! higher block always lands as high or higher), and below the fold nothing moves:
//! the sea, the lowlands and everything under them are as they were.

use std::ops::RangeInclusive;

use super::bounds::{MAX_Y, MIN_Y};
use crate::error::ExportError;

/// The curve that brings heights above a fold down under Minecraft's standard top.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fold {
    /// The highest height that stays where it is.
    at: i32,
    /// Rows between the fold and the top ([`MAX_Y`]).
    room: f64,
}

impl Fold {
    /// The fold at Minecraft height `at`: within `0..=MAX_Y - 32`, so the land above
    /// it has room to fold into.
    pub fn new(at: i32) -> Result<Fold, ExportError> {
        if !(0..=MAX_Y - 32).contains(&at) {
            return Err(ExportError::Area(format!(
                "--fold {at} is out of range: within 0..={} (the land above it is brought \
                 down under y {})",
                MAX_Y - 32,
                MAX_Y - 1
            )));
        }
        Ok(Fold {
            at,
            room: f64::from(MAX_Y - at),
        })
    }

    /// The fold's height.
    pub fn at(&self) -> i32 {
        self.at
    }

    /// Where a block at Minecraft height `y` goes: below [`MAX_Y`], never lower than
    /// a block under it goes.
    pub fn down(&self, y: i32) -> i32 {
        if y <= self.at {
            return y;
        }
        let d = f64::from(y - self.at);
        let up = (self.room * (d / self.room).tanh()).round() as i32;
        self.at + up.min(self.room as i32 - 1)
    }

    /// The heights whose blocks land on row `r` (a Minecraft height above [`MIN_Y`]);
    /// empty for a row nothing reaches. The top row takes every height from its
    /// first on: the range runs to `i32::MAX / 2`, for the caller to cut at the
    /// heights it has.
    pub fn sources(&self, r: i32) -> RangeInclusive<i32> {
        let first = |r: i32| {
            if r <= self.at + 1 {
                return r.max(MIN_Y);
            }
            // The inverse of the curve, then made exact against `down`.
            let t = f64::from(r - self.at) / self.room;
            let guess = if t < 1.0 {
                self.at + (self.room * t.atanh()).ceil() as i32
            } else {
                i32::MAX / 2
            };
            let mut y = guess.max(r);
            while y > r && self.down(y - 1) >= r {
                y -= 1;
            }
            while y < i32::MAX / 2 && self.down(y) < r {
                y += 1;
            }
            y
        };
        first(r)..=first(r + 1) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_the_fold_nothing_moves_and_above_it_nothing_reaches_the_top() {
        let f = Fold::new(160).unwrap();
        for y in -64..=160 {
            assert_eq!(f.down(y), y);
        }
        // Just above the fold the land goes up a block a block: no kink.
        assert_eq!((f.down(161), f.down(170)), (161, 170));
        assert!(f.down(2000) < MAX_Y && f.down(i32::MAX / 4) == MAX_Y - 1);
        assert!(Fold::new(MAX_Y - 31).is_err() && Fold::new(-1).is_err());
    }

    #[test]
    fn no_slope_gets_steeper_and_every_row_knows_its_heights() {
        let f = Fold::new(100).unwrap();
        let mut reached = 0;
        for y in -64..3000 {
            let step = f.down(y + 1) - f.down(y);
            assert!((0..=1).contains(&step), "{y}: a step of {step}");
            // Every height lands on a row whose sources hold it.
            assert!(f.sources(f.down(y)).contains(&y), "{y} -> {}", f.down(y));
            reached = reached.max(f.down(y));
        }
        // The rows below the highest reached each take at least one height.
        for r in -64..=reached {
            let s = f.sources(r);
            assert!(
                !s.is_empty() && s.clone().all(|y| f.down(y) == r),
                "{r}: {s:?}"
            );
        }
        assert_eq!(f.sources(50), 50..=50);
    }
}
