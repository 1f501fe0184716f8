//! The shore rule (generator version 6): every column beside higher water keeps it in.
//!
//! The shaping works on the 4-block lattice, so the ground of a block column between
//! two pieces of water (at the foot of a waterfall, between two beds) can lie below
//! the upper water beside it, over its own water or none; without a shore that water
//! would stand beside open air with no water below it to fall into. A dry column is
//! raised with a bank ([`Shore::Bank`]); a column whose own water the ground buries
//! has that ground dug out down to its water ([`Shore::Open`]), so the water above
//! falls into it.
//!
//! Version 8 opens one more kind of column: one in the bed of a running course whose
//! water the ground buries (the 4-block lattice lifts a narrow creek's bed toward the
//! banks beside it) is dug out from its water up to its ground's top, so a course
//! holds water in every column.
//!
//! A column is decided ([`shore`]) from the levels of itself and its four neighbours,
//! whether it lies in a running bed, and the field's verdict at heights of it, never
//! from blocks, so every chunk holding it agrees. The decision is laid in one way everywhere: full chunks
//! (`density::flood::flood`), coarse cells and column tops all read the heights a
//! column opens and banks ([`ColumnWater::opened`], [`ColumnWater::banked`]) and its
//! top ([`ColumnWater::top`]) from here.

use std::ops::RangeInclusive;

use terravox_voxel::Block;

/// The block a dry column beside water is raised with: rock, the side wall of a
/// fall's pool.
pub(crate) const BANK: Block = Block::Stone;

/// How far above its water a running bed's buried column is walked up for its
/// ground's top, in blocks: the lattice lifts a bed toward the banks beside it, at
/// most a fall's height at its foot (whose banks hold the water above it); a column
/// buried deeper is left as it is.
const BED_REACH: i32 = 48;

/// How a column keeps in the higher water beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shore {
    /// A dry column: its air above the sea up to `top` (the water beside) is
    /// [`BANK`].
    Bank { top: i32 },
    /// A column whose own water lies under its ground: every block from that water's
    /// level up to `top` (the water beside) is opened (the water fills it to its
    /// level); `floor` is then the highest solid block left below it.
    Open { top: i32, floor: i32 },
}

/// The water over one block column: its level and its shore.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ColumnWater {
    /// The world height of the river or lake above the sea over it.
    pub(crate) surface: Option<i32>,
    /// Version 6: how it keeps in the water beside it.
    pub(crate) shore: Option<Shore>,
}

impl ColumnWater {
    /// The heights its shore opens (air, which its water then fills up to its level):
    /// from its water up to the water beside; empty unless [`Shore::Open`].
    pub(crate) fn opened(&self) -> RangeInclusive<i32> {
        match (self.shore, self.surface) {
            (Some(Shore::Open { top, .. }), Some(level)) => level..=top,
            _ => Self::NONE,
        }
    }

    /// The heights its shore banks in a world whose sea stands at `sea` (air there is
    /// [`BANK`]): above the sea up to the water beside; empty unless [`Shore::Bank`].
    pub(crate) fn banked(&self, sea: i32) -> RangeInclusive<i32> {
        match self.shore {
            Some(Shore::Bank { top }) => sea + 1..=top,
            _ => Self::NONE,
        }
    }

    /// The highest solid block of a column whose ground tops out at `y` with `block`,
    /// once its shore is laid: a bank's top (of [`BANK`]) where it rises above the
    /// ground and the sea, an opened column's floor where the opening reaches its
    /// ground.
    pub(crate) fn top(&self, y: i32, block: Block, sea: i32) -> (i32, Block) {
        match self.shore {
            Some(Shore::Bank { top }) if top > y.max(sea) => (top, BANK),
            Some(Shore::Open { top, floor }) if y <= top => (floor, block),
            _ => (y, block),
        }
    }

    /// No heights (an empty range, on purpose).
    #[allow(clippy::reversed_empty_ranges)]
    const NONE: RangeInclusive<i32> = 1..=0;
}

/// The highest water level among the four columns beside column `(x, z)`, `level`
/// giving a column's (the `beside` of [`shore`]).
pub(crate) fn highest_beside(
    x: i32,
    z: i32,
    level: impl Fn(i32, i32) -> Option<i32>,
) -> Option<i32> {
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter_map(|(dx, dz)| level(x + dx, z + dz))
        .max()
}

/// How a column whose own water is `own` keeps in the higher water of its four
/// neighbours, `beside` (their highest level), in a world whose sea stands at `sea`,
/// from `solid_at(y)`: whether the field is solid at height `y` of the column.
/// Nothing where its own water (or the sea, where it has none) lies open (the air
/// above it is a waterfall's face), or where its ground stands as high as the water
/// beside. Else a dry column is banked, and a column with water of its own is opened
/// down to it (its floor found walking down from under its water). A column in the
/// `bed` of a running course (version 8) whose water the ground buries is opened from
/// its water up to its ground's top (or the water beside, where higher).
pub(crate) fn shore(
    own: Option<i32>,
    beside: Option<i32>,
    sea: i32,
    bed: bool,
    mut solid_at: impl FnMut(i32) -> bool,
) -> Option<Shore> {
    // The ground below the water: near water the field is calm, so this is the
    // first height below it, but it is walked for certain.
    let floor = |l: i32, solid_at: &mut dyn FnMut(i32) -> bool| {
        (sea..l).rev().find(|&y| solid_at(y)).unwrap_or(sea - 1)
    };
    if let (true, Some(l)) = (bed, own)
        && l >= sea
        && solid_at(l)
        && let Some(air) = (l + 1..=l + BED_REACH).find(|&y| !solid_at(y))
    {
        let top = beside
            .filter(|&b| b >= air && !solid_at(b))
            .unwrap_or(air - 1);
        return Some(Shore::Open {
            top,
            floor: floor(l, &mut solid_at),
        });
    }
    let top = beside?;
    let low = own.unwrap_or(sea).max(sea);
    if top <= low || !solid_at(low) || solid_at(top) {
        return None;
    }
    Some(match own {
        Some(l) if l > sea => Shore::Open {
            top,
            floor: floor(l, &mut solid_at),
        },
        _ => Shore::Bank { top },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEA: i32 = 0;

    /// A column of hand-made ground: solid up to `ground`.
    fn ground(ground: i32) -> impl Fn(i32) -> bool {
        move |y| y <= ground
    }

    #[test]
    fn a_dry_column_below_the_water_beside_is_banked_up_to_it() {
        let s = shore(None, Some(20), SEA, false, ground(12));
        assert_eq!(s, Some(Shore::Bank { top: 20 }));
        let w = ColumnWater {
            surface: None,
            shore: s,
        };
        assert_eq!(w.banked(SEA), 1..=20);
        assert!(w.opened().is_empty());
        assert_eq!(w.top(12, Block::Grass, SEA), (20, BANK));
    }

    #[test]
    fn a_column_whose_water_the_ground_buries_is_opened_down_to_it() {
        // Its water at 10 lies under ground up to 14; the water beside stands at 20.
        let s = shore(Some(10), Some(20), SEA, false, ground(14));
        assert_eq!(s, Some(Shore::Open { top: 20, floor: 9 }));
        let w = ColumnWater {
            surface: Some(10),
            shore: s,
        };
        assert_eq!(w.opened(), 10..=20);
        assert!(w.banked(SEA).is_empty());
        assert_eq!(w.top(14, Block::Dirt, SEA), (9, Block::Dirt));
    }

    #[test]
    fn open_water_high_ground_and_lower_water_beside_need_no_shore() {
        // Its own water lies open: the air above it is a fall's face.
        assert_eq!(shore(Some(10), Some(20), SEA, false, ground(9)), None);
        // Its ground stands as high as the water beside.
        assert_eq!(shore(None, Some(20), SEA, false, ground(20)), None);
        // The water beside is no higher than its own.
        assert_eq!(shore(Some(10), Some(10), SEA, false, ground(14)), None);
        // No water beside.
        assert_eq!(shore(None, None, SEA, false, ground(5)), None);
        let w = ColumnWater::default();
        assert!(w.opened().is_empty() && w.banked(SEA).is_empty());
        assert_eq!(w.top(5, Block::Sand, SEA), (5, Block::Sand));
    }

    #[test]
    fn a_running_bed_the_ground_buries_is_opened_up_to_its_ground() {
        // Its water at 10 under ground up to 14, no higher water beside.
        let s = shore(Some(10), None, SEA, true, ground(14));
        assert_eq!(s, Some(Shore::Open { top: 14, floor: 9 }));
        // Higher water beside, above the ground: opened up to it.
        let s = shore(Some(10), Some(16), SEA, true, ground(14));
        assert_eq!(s, Some(Shore::Open { top: 16, floor: 9 }));
        // Out of a bed, or buried deeper than a bank and a cell, it is left.
        assert_eq!(shore(Some(10), None, SEA, false, ground(14)), None);
        assert_eq!(
            shore(Some(10), None, SEA, true, ground(10 + BED_REACH)),
            None
        );
        // Its water open: nothing to do.
        assert_eq!(shore(Some(10), None, SEA, true, ground(9)), None);
    }

    #[test]
    fn a_bank_never_lowers_a_column_top() {
        let w = ColumnWater {
            surface: None,
            shore: Some(Shore::Bank { top: 8 }),
        };
        assert_eq!(w.top(8, Block::Grass, SEA), (8, Block::Grass));
        assert_eq!(w.top(-3, Block::Sand, 8), (-3, Block::Sand));
    }

    #[test]
    fn the_highest_water_beside_is_taken_from_the_four_neighbours_only() {
        let level = |x: i32, z: i32| match (x, z) {
            (1, 0) => Some(4),
            (0, -1) => Some(9),
            (1, 1) => Some(50),
            _ => None,
        };
        assert_eq!(highest_beside(0, 0, level), Some(9));
        assert_eq!(highest_beside(5, 5, level), None);
    }
}
