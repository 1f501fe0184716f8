//! The rivers and lakes of generator version 5 in a chunk: the level of the water
//! over each padded column ([`WaterTops`], from the drainage network, made with the
//! chunk column's shapes) and the air below it filled ([`flood`]), after the caves
//! (which never open right under water).

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, PADDED};

/// The level of the river or lake over each padded column of a chunk.
pub(super) struct WaterTops {
    /// World heights, `(lz + 1) * PADDED + lx + 1`; `i32::MIN` where none.
    pub(super) tops: [i32; PADDED * PADDED],
    /// The highest of the four columns beside each, as `tops`: caves never open at
    /// or below it, beside the water.
    pub(super) beside: [i32; PADDED * PADDED],
    /// The highest of `tops`.
    pub(super) highest: i32,
}

impl WaterTops {
    /// The water over each padded column of the chunk column at `(x0, z0)` (its
    /// origin), from `level`: the water's world height at a column, if any.
    pub(super) fn new(x0: i32, z0: i32, level: impl Fn(i32, i32) -> Option<i32>) -> Option<Self> {
        // The padded columns and one more each side.
        const W: usize = PADDED + 2;
        let wide: Vec<i32> = (0..W * W)
            .map(|c| {
                let (lx, lz) = ((c % W) as i32 - 2, (c / W) as i32 - 2);
                level(x0 + lx, z0 + lz).unwrap_or(i32::MIN)
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
        let highest = wide.iter().copied().max().unwrap_or(i32::MIN);
        (highest > i32::MIN).then_some(Self {
            tops,
            beside,
            highest,
        })
    }
}

/// Fills the air of `chunk` (at `pos`) at or below each column's river or lake level
/// in `water` with water (version 5); cave air and every solid block stay.
pub(super) fn flood(chunk: Chunk, pos: ChunkPos, water: &WaterTops) -> Chunk {
    let oy = pos.y * CHUNK;
    if water.highest < oy - 1 {
        return chunk;
    }
    let (mut blocks, uniform) = match chunk {
        Chunk::Uniform(b) if b != Block::Air => return chunk,
        Chunk::Uniform(b) => (terravox_voxel::dense_array(b), true),
        Chunk::Dense(b) => (b, false),
    };
    let mut changed = false;
    for lz in -1..=CHUNK {
        for lx in -1..=CHUNK {
            let top = water.tops[(lz + 1) as usize * PADDED + (lx + 1) as usize];
            for ly in -1..=top.saturating_sub(oy).min(CHUNK) {
                let i = terravox_voxel::padded_index(lx, ly, lz);
                if blocks[i] == Block::Air {
                    blocks[i] = Block::Water;
                    changed = true;
                }
            }
        }
    }
    if uniform && !changed {
        Chunk::Uniform(Block::Air)
    } else {
        Chunk::Dense(blocks)
    }
}
