//! The rivers and lakes of generator version 5 in a chunk: the level of the water
//! over each padded column ([`WaterTops`], from the drainage network, made with the
//! chunk column's shapes) and the air below it filled ([`flood`]), after the caves
//! (which never open right under water). From version 6 each column's shore
//! (`hydrology::shore`, decided there with the field's verdict from here) is laid in
//! the same pass.

use std::ops::RangeInclusive;

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints, Flow, PADDED};

use crate::hydrology::shore::{BANK, ColumnWater, Shore, shore};

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
    /// origin), from `column`: the water's world height at a column, if any, its
    /// flow and whether it lies in a running course's bed; with `solid_at` (version
    /// 6: whether the field is solid at height `y` of local column `(lx, lz)`), the
    /// shores of the columns beside it in a world whose sea stands at `sea`
    /// ([`shore`]).
    pub(super) fn new(
        x0: i32,
        z0: i32,
        column: impl Fn(i32, i32) -> (Option<i32>, Flow, bool),
        sea: i32,
        solid_at: Option<&dyn Fn(i32, i32, i32) -> bool>,
    ) -> Option<Self> {
        // The padded columns and one more each side.
        const W: usize = PADDED + 2;
        let mut flows = [Flow::STILL; PADDED * PADDED];
        let mut beds = [false; PADDED * PADDED];
        let wide: Vec<i32> = (0..W * W)
            .map(|c| {
                let (lx, lz) = ((c % W) as i32 - 2, (c / W) as i32 - 2);
                let (level, flow, bed) = column(x0 + lx, z0 + lz);
                if (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz) {
                    let p = (lz + 1) as usize * PADDED + (lx + 1) as usize;
                    (flows[p], beds[p]) = (flow, bed);
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
                shore(some(tops[c]), some(beside[c]), sea, beds[c], |y| {
                    solid_at(lx, lz, y)
                })
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

    /// The water over padded column `c` (as `tops`): its level and shore.
    fn column(&self, c: usize) -> ColumnWater {
        ColumnWater {
            surface: (self.tops[c] > i32::MIN).then_some(self.tops[c]),
            shore: self.shores[c],
        }
    }

    /// Whether a column is opened down to its water ([`ColumnWater::opened`])
    /// anywhere between heights `y0` and `y1`: a chunk there is not all rock.
    pub(super) fn opens_between(&self, y0: i32, y1: i32) -> bool {
        (0..PADDED * PADDED).any(|c| {
            let opened = self.column(c).opened();
            !opened.is_empty() && *opened.start() <= y1 && *opened.end() >= y0
        })
    }

    /// Sets the flow of `tints`' columns to the water's.
    pub(super) fn set_flows(&self, tints: &mut ColumnTints) {
        tints.flow = self.flows;
    }
}

/// Fills the air of `chunk` (at `pos`) at or below each column's river or lake level
/// in `water` with water (version 5), after opening the columns whose water the
/// ground buries, and the air of the banks beside it with [`BANK`] (version 6;
/// [`ColumnWater::opened`] and [`ColumnWater::banked`] in a world whose sea stands at
/// `sea`); cave air and every other solid block stay.
pub(super) fn flood(chunk: Chunk, pos: ChunkPos, water: &WaterTops, sea: i32) -> Chunk {
    let oy = pos.y * CHUNK;
    // A running bed is opened up to its ground's top, above every water's level.
    let opens = water.opens_between(oy - 1, oy + CHUNK);
    if water.highest < oy - 1 && !opens {
        return chunk;
    }
    let (mut blocks, uniform) = match chunk {
        Chunk::Uniform(b) if b != Block::Air && !opens => {
            return chunk;
        }
        Chunk::Uniform(b) => (terravox_voxel::dense_array(b), Some(b)),
        Chunk::Dense(b) => (b, None),
    };
    // World heights to the padded chunk's local ones.
    let local =
        |from: i32, to: i32| (from.saturating_sub(oy)).max(-1)..=to.saturating_sub(oy).min(CHUNK);
    let mut changed = false;
    for lz in -1..=CHUNK {
        for lx in -1..=CHUNK {
            let c = (lz + 1) as usize * PADDED + (lx + 1) as usize;
            let column = water.column(c);
            // `block` laid over the heights, onto the blocks `onto` (any if `None`).
            let mut lay = |heights: RangeInclusive<i32>, onto: Option<Block>, block: Block| {
                for ly in local(*heights.start(), *heights.end()) {
                    let i = terravox_voxel::padded_index(lx, ly, lz);
                    if onto.is_none_or(|b| blocks[i] == b) {
                        blocks[i] = block;
                        changed = true;
                    }
                }
            };
            lay(column.opened(), None, Block::Air);
            lay(i32::MIN..=water.tops[c], Some(Block::Air), Block::Water);
            lay(column.banked(sea), Some(Block::Air), BANK);
        }
    }
    match uniform {
        Some(b) if !changed => Chunk::Uniform(b),
        _ => Chunk::Dense(blocks),
    }
}
