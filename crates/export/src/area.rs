//! What to export: a rectangle of columns ([`Area`]) or a box of blocks ([`Volume`]),
//! checked against the world's bounds and an export's size limit.

use terravox_worldgen::{PLAYABLE_HEIGHTS, WORLD_LIMIT};

use crate::error::ExportError;

/// A rectangle of columns: `x` in `from[0]..to[0]`, `z` in `from[1]..to[1]` (the
/// `to` corner is the first column past the area).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// The first column, `[x, z]`.
    pub from: [i32; 2],
    /// One past the last column, `[x, z]`.
    pub to: [i32; 2],
}

impl Area {
    /// The area from `from` up to (not including) `to`, at most `max_side` columns
    /// a side; an empty or inverted area, one outside the world or one too large is
    /// an error naming the option.
    pub fn new(from: [i32; 2], to: [i32; 2], max_side: u32) -> Result<Area, ExportError> {
        check_sides(&from, &to, max_side)?;
        for v in from.iter().chain(&to) {
            if !(-WORLD_LIMIT..=WORLD_LIMIT).contains(v) {
                return Err(ExportError::Area(format!(
                    "{from:?}..{to:?} reaches outside the world: X and Z within \
                     -{WORLD_LIMIT}..{WORLD_LIMIT}"
                )));
            }
        }
        Ok(Area { from, to })
    }

    /// Columns along x and z.
    pub fn size(&self) -> [u32; 2] {
        [
            (self.to[0] - self.from[0]) as u32,
            (self.to[1] - self.from[1]) as u32,
        ]
    }

    /// Whether column `(x, z)` is inside.
    pub fn contains(&self, x: i32, z: i32) -> bool {
        (self.from[0]..self.to[0]).contains(&x) && (self.from[1]..self.to[1]).contains(&z)
    }
}

/// A box of blocks: `from` up to (not including) `to` on each axis, `[x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Volume {
    /// The first block, `[x, y, z]`.
    pub from: [i32; 3],
    /// One past the last block, `[x, y, z]`.
    pub to: [i32; 3],
}

impl Volume {
    /// The box from `from` up to (not including) `to`, at most `max_side` blocks
    /// along x and z and within the world's playable heights; anything else is an
    /// error naming the option.
    pub fn new(from: [i32; 3], to: [i32; 3], max_side: u32) -> Result<Volume, ExportError> {
        Area::new([from[0], from[2]], [to[0], to[2]], max_side)?;
        if to[1] <= from[1] {
            return Err(ExportError::Area(format!(
                "--from {from:?} --to {to:?}: the heights are empty or inverted (--to's Y \
                 must be above --from's)"
            )));
        }
        let (low, high) = (PLAYABLE_HEIGHTS.start, PLAYABLE_HEIGHTS.end);
        if from[1] < low || to[1] > high {
            return Err(ExportError::Area(format!(
                "--from {from:?} --to {to:?}: heights out of range: Y within {low}..{high}"
            )));
        }
        if to[1] - from[1] > max_side as i32 {
            return Err(ExportError::Area(format!(
                "--from {from:?} --to {to:?} is {} blocks tall; at most {max_side}",
                to[1] - from[1]
            )));
        }
        Ok(Volume { from, to })
    }

    /// Whether block `p` is inside.
    pub fn contains(&self, p: [i32; 3]) -> bool {
        (0..3).all(|i| (self.from[i]..self.to[i]).contains(&p[i]))
    }
}

/// Checks the sides of `from..to` (`[x, z]`): not empty, not inverted, at most
/// `max_side`.
fn check_sides(from: &[i32; 2], to: &[i32; 2], max_side: u32) -> Result<(), ExportError> {
    for i in 0..2 {
        let side = to[i] as i64 - from[i] as i64;
        if side <= 0 {
            return Err(ExportError::Area(format!(
                "--from {from:?} --to {to:?} (X,Z) is empty or inverted: each of --to's \
                 coordinates must be greater than --from's (--to is the first column past \
                 the area)"
            )));
        }
        if side > max_side as i64 {
            return Err(ExportError::Area(format!(
                "--from {from:?} --to {to:?} is {side} blocks a side; this export takes at \
                 most {max_side}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_inverted_large_and_outside_areas_are_refused() {
        assert!(Area::new([0, 0], [16, 16], 64).is_ok());
        for (from, to) in [
            ([0, 0], [0, 16]),
            ([10, 0], [0, 16]),
            ([0, 0], [65, 16]),
            ([WORLD_LIMIT - 1, 0], [WORLD_LIMIT + 1, 1]),
        ] {
            let e = Area::new(from, to, 64).unwrap_err();
            assert!(matches!(e, ExportError::Area(_)), "{from:?}..{to:?}: {e}");
        }
    }

    #[test]
    fn volumes_check_their_heights() {
        assert!(Volume::new([0, 0, 0], [16, 16, 16], 64).is_ok());
        for to_y in [0, -5, 100] {
            assert!(
                Volume::new([0, 0, 0], [16, to_y, 16], 64).is_err(),
                "{to_y}"
            );
        }
        let low = PLAYABLE_HEIGHTS.start;
        assert!(Volume::new([0, low - 1, 0], [16, low + 8, 16], 64).is_err());
    }
}
