//! The face a slope gives the ground (version 4, with relief): bare rock on steep
//! faces and eroded ridges, scree in gullies, soil elsewhere, decided per block column
//! from the ground the relief's lattice describes ([`Ground`]) and a dither of the
//! column, so the edge of a rock face frays. The blocks a face is made of are
//! [`Surface::face_block`](crate::surface::blocks::Surface::face_block)'s.

use crate::mix::mix64;
use crate::shape::climate::ColumnShape;
use crate::shape::relief::{Ground, Relief};

/// Ground steeper than this (blocks per block of the expected surface, 56 degrees) is
/// bare rock, give or take [`ROCK_DITHER`].
const ROCK_SLOPE: f64 = 1.5;
/// An eroded ridge (the erosion's ridge map above [`RIDGE`]) is bare rock from this
/// slope on (35 degrees), so ribs of rock stand between the gullies.
const RIDGE_ROCK_SLOPE: f64 = 0.7;
const RIDGE: f64 = 0.25;
/// How far a column's own dither moves the rock slopes either way, so the edge of a
/// rock face frays rather than following the lattice.
const ROCK_DITHER: f64 = 0.15;
/// A gully (the erosion's ridge map below this) on a slope above [`SCREE_SLOPE`] holds
/// scree.
const SCREE_GULLY: f64 = -0.35;
const SCREE_SLOPE: f64 = 0.3;
/// Separates the columns' dither and the trees' thinning from other draws.
pub(crate) const FACE_SALT: u64 = 0x6661_6365_3400; // "face4"
/// 2^-53: a 53-bit integer times this is in `[0, 1)`.
pub(crate) const UNIT: f64 = 1.0 / (1u64 << 53) as f64;

/// A 64-bit key of a block column.
fn column_key(x: i32, z: i32) -> u64 {
    mix64(((x as u32 as u64) << 32) | z as u32 as u64)
}

/// What a slope makes of a column's ground (version 4, with relief).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Face {
    /// The biome's blocks.
    #[default]
    Soil,
    /// Bare rock: stone with beds of slate, down to the filler's depth.
    Rock,
    /// Scree: gravel on a gully's floor.
    Scree,
}

impl Face {
    /// Whether any block column among the lattice columns `shapes` (`width` a side,
    /// `step` blocks apart) can have a face other than soil: a lattice edge rises
    /// steeply enough, or a gully is deep enough on an edge that rises at all. The
    /// slope of a cell's bilinear surface is at most its steepest edge's times
    /// `sqrt(2)`.
    pub(crate) fn possible(shapes: &[ColumnShape], width: usize, step: i32) -> bool {
        let steepest = |lo: f64| {
            // An edge rise (blocks) above which a cell may be steeper than `lo`.
            let rise = lo * step as f64 / std::f64::consts::SQRT_2;
            (0..shapes.len()).any(|c| {
                let s = shapes[c].offset;
                let right = (c % width + 1 < width).then(|| shapes[c + 1].offset);
                let down = shapes.get(c + width).map(|d| d.offset);
                [right, down]
                    .into_iter()
                    .flatten()
                    .any(|o| (o - s).abs() > rise)
            })
        };
        let gullies = shapes.iter().any(|s| s.gully < SCREE_GULLY);
        let ridges = shapes.iter().any(|s| s.gully > RIDGE);
        steepest(ROCK_SLOPE - ROCK_DITHER)
            || (ridges && steepest(RIDGE_ROCK_SLOPE - ROCK_DITHER))
            || (gullies && steepest(SCREE_SLOPE))
    }

    /// The face of ground whose expected surface rises `slope` blocks per block, with
    /// the erosion's ridge map `gully` there and a column's `dither` in `[0, 1)`.
    pub(crate) fn of(slope: f64, gully: f64, dither: f64) -> Face {
        let fray = ROCK_DITHER * (2.0 * dither - 1.0);
        if slope > ROCK_SLOPE + fray || (gully > RIDGE && slope > RIDGE_ROCK_SLOPE + fray) {
            Face::Rock
        } else if gully < SCREE_GULLY && slope > SCREE_SLOPE {
            Face::Scree
        } else {
            Face::Soil
        }
    }
}

impl Relief {
    /// The face of block column `(x, z)` on `ground`: rock where steep, scree in
    /// gullies (see [`Face::of`]).
    pub(crate) fn face(&self, ground: &Ground, x: i32, z: i32) -> Face {
        let dither = (mix64(self.seed ^ FACE_SALT ^ column_key(x, z)) >> 11) as f64 * UNIT;
        Face::of(ground.slope, ground.gully, dither)
    }
}
