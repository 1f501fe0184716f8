//! The rivers and lakes of generator version 5 in a chunk: the level of the water
//! over each padded column ([`WaterTops`], from the drainage network, made with the
//! chunk column's shapes) and the air below it filled ([`flood`]), after the caves
//! (which never open right under water).
//!
//! From version 6 every column beside higher water keeps it in ([`shore`]). The
//! shaping works on the 4-block lattice, so the ground of a block column between two
//! pieces of water (at the foot of a waterfall, between two beds) can lie below the
//! upper water beside it, over its own water or none; without a shore that water
//! would stand beside open air with no water below it to fall into. A dry column is
//! raised with a bank ([`Shore::Bank`]); a column whose own water the ground buries
//! has that ground dug out down to its water ([`Shore::Open`]), so the water above
//! falls into it. A column is decided from the levels of itself and its four
//! neighbours and the field's verdict at two heights of it, never from blocks, so
//! every chunk holding it agrees, and column tops and coarse chunks apply the same
//! rule.

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints, Flow, PADDED};

/// The block a dry column beside water is raised with (version 6): rock, the side
/// wall of a fall's pool.
pub(crate) const BANK: Block = Block::Stone;

/// How a column keeps in the higher water beside it (version 6).
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

/// The water over one block column, as column tops report it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ColumnWater {
    /// The world height of the river or lake above the sea over it.
    pub(crate) surface: Option<i32>,
    /// Version 6: how it keeps in the water beside it.
    pub(crate) shore: Option<Shore>,
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
/// neighbours, `beside` (their highest level), in a world whose sea stands at `sea`
/// (version 6), from `solid_at(y)`: whether the field is solid at height `y` of the
/// column. Nothing where its own water (or the sea, where it has none) lies open
/// (the air above it is a waterfall's face), or where its ground stands as high as
/// the water beside. Else a dry column is banked, and a column with water of its own
/// is opened down to it (its floor found walking down from under its water).
pub(crate) fn shore(
    own: Option<i32>,
    beside: Option<i32>,
    sea: i32,
    mut solid_at: impl FnMut(i32) -> bool,
) -> Option<Shore> {
    let top = beside?;
    let low = own.unwrap_or(sea).max(sea);
    if top <= low || !solid_at(low) || solid_at(top) {
        return None;
    }
    Some(match own {
        Some(l) if l > sea => {
            // The ground below the water: near water the field is calm, so this is
            // the first height below it, but it is walked for certain.
            let floor = (sea..l).rev().find(|&y| solid_at(y)).unwrap_or(sea - 1);
            Shore::Open { top, floor }
        }
        _ => Shore::Bank { top },
    })
}

/// The level of the river or lake over each padded column of a chunk.
pub(super) struct WaterTops {
    /// World heights, `(lz + 1) * PADDED + lx + 1`; `i32::MIN` where none.
    pub(super) tops: [i32; PADDED * PADDED],
    /// The highest of the four columns beside each, as `tops`: caves never open at
    /// or below it, beside the water.
    pub(super) beside: [i32; PADDED * PADDED],
    /// Version 6: how each padded column, as `tops`, keeps in the water beside it.
    shores: [Option<Shore>; PADDED * PADDED],
    /// The way the water over each padded column flows, as `tops`.
    flows: [Flow; PADDED * PADDED],
    /// The highest of `tops`.
    pub(super) highest: i32,
}

impl WaterTops {
    /// The water over each padded column of the chunk column at `(x0, z0)` (its
    /// origin), from `column`: the water's world height at a column, if any, and its
    /// flow; with `solid_at` (version 6: whether the field is solid at height `y` of
    /// local column `(lx, lz)`), the shores of the columns beside it in a world whose
    /// sea stands at `sea` ([`shore`]).
    pub(super) fn new(
        x0: i32,
        z0: i32,
        column: impl Fn(i32, i32) -> (Option<i32>, Flow),
        sea: i32,
        solid_at: Option<&dyn Fn(i32, i32, i32) -> bool>,
    ) -> Option<Self> {
        // The padded columns and one more each side.
        const W: usize = PADDED + 2;
        let mut flows = [Flow::STILL; PADDED * PADDED];
        let wide: Vec<i32> = (0..W * W)
            .map(|c| {
                let (lx, lz) = ((c % W) as i32 - 2, (c / W) as i32 - 2);
                let (level, flow) = column(x0 + lx, z0 + lz);
                if (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz) {
                    flows[(lz + 1) as usize * PADDED + (lx + 1) as usize] = flow;
                }
                level.unwrap_or(i32::MIN)
            })
            .collect();
        let at = |lx: i32, lz: i32| wide[(lz + 2) as usize * W + (lx + 2) as usize];
        let padded = |c: usize| ((c % PADDED) as i32 - 1, (c / PADDED) as i32 - 1);
        let tops: [i32; PADDED * PADDED] = std::array::from_fn(|c| {
            let (lx, lz) = padded(c);
            at(lx, lz)
        });
        let beside = std::array::from_fn(|c| {
            let (lx, lz) = padded(c);
            at(lx - 1, lz)
                .max(at(lx + 1, lz))
                .max(at(lx, lz - 1))
                .max(at(lx, lz + 1))
        });
        let some = |v: i32| (v > i32::MIN).then_some(v);
        let shores = std::array::from_fn(|c| {
            let (lx, lz) = padded(c);
            solid_at.and_then(|solid_at| {
                shore(some(tops[c]), some(beside[c]), sea, |y| solid_at(lx, lz, y))
            })
        });
        let highest = wide.iter().copied().max().unwrap_or(i32::MIN);
        (highest > i32::MIN).then_some(Self {
            tops,
            beside,
            shores,
            flows,
            highest,
        })
    }

    /// Whether a column is opened down to its water ([`Shore::Open`]) anywhere
    /// between heights `y0` and `y1`: a chunk there is not all rock.
    pub(super) fn opens_between(&self, y0: i32, y1: i32) -> bool {
        self.shores
            .iter()
            .zip(&self.tops)
            .any(|(s, &l)| matches!(*s, Some(Shore::Open { top, .. }) if l <= y1 && top >= y0))
    }

    /// Sets the flow of `tints`' columns to the water's.
    pub(super) fn set_flows(&self, tints: &mut ColumnTints) {
        tints.flow = self.flows;
    }
}

/// Fills the air of `chunk` (at `pos`) at or below each column's river or lake level
/// in `water` with water (version 5), after opening the columns whose water the
/// ground buries, and the air of the banks beside it above the sea `sea` with
/// [`BANK`] (version 6); cave air and every other solid block stay.
pub(super) fn flood(chunk: Chunk, pos: ChunkPos, water: &WaterTops, sea: i32) -> Chunk {
    let oy = pos.y * CHUNK;
    if water.highest < oy - 1 {
        return chunk;
    }
    let (mut blocks, uniform) = match chunk {
        Chunk::Uniform(b) if b != Block::Air && !water.opens_between(oy - 1, oy + CHUNK) => {
            return chunk;
        }
        Chunk::Uniform(b) => (terravox_voxel::dense_array(b), Some(b)),
        Chunk::Dense(b) => (b, None),
    };
    let mut changed = false;
    for lz in -1..=CHUNK {
        for lx in -1..=CHUNK {
            let c = (lz + 1) as usize * PADDED + (lx + 1) as usize;
            let top = water.tops[c];
            if let Some(Shore::Open { top: open, .. }) = water.shores[c] {
                let (lo, hi) = (top.saturating_sub(oy).max(-1), open.saturating_sub(oy));
                for ly in lo..=hi.min(CHUNK) {
                    blocks[terravox_voxel::padded_index(lx, ly, lz)] = Block::Air;
                    changed = true;
                }
            }
            for ly in -1..=top.saturating_sub(oy).min(CHUNK) {
                let i = terravox_voxel::padded_index(lx, ly, lz);
                if blocks[i] == Block::Air {
                    blocks[i] = Block::Water;
                    changed = true;
                }
            }
            let Some(Shore::Bank { top: bank }) = water.shores[c] else {
                continue;
            };
            let above_sea = (sea + 1 - oy).max(-1);
            for ly in above_sea..=bank.saturating_sub(oy).min(CHUNK) {
                let i = terravox_voxel::padded_index(lx, ly, lz);
                if blocks[i] == Block::Air {
                    blocks[i] = BANK;
                    changed = true;
                }
            }
        }
    }
    match uniform {
        Some(b) if !changed => Chunk::Uniform(b),
        _ => Chunk::Dense(blocks),
    }
}
