//! Sky light: how much of the sky's (ambient) light reaches each open block of a
//! padded chunk, as a level `0..=15`.
//!
//! Air and water are under the open sky (level 15). Cave air ([`Block::CaveAir`]) is
//! out of it: as in Minecraft, full sky light goes straight down an open shaft, and
//! otherwise the level falls by one per block from the nearest air or water source
//! through cave air (a flood within the padded chunk), so light fades into a cave's
//! mouth and the deep caves are dark but for the player's lantern. Flowing and
//! falling water take their light as cave air does (water poured into a cave leaves
//! it dark; under the open sky it is lit). A chunk without cave air is lit
//! everywhere and costs nothing.
//!
//! The flood sees the chunk and its one-block padding only: light that would come
//! from an entrance further away in a neighbouring chunk is not seen, so a lit
//! passage can darken in a step where it crosses a chunk border near an entrance.

use terravox_voxel::{Block, PADDED, PADDED_VOLUME};

use crate::masks::Masks;

/// The level of open sky.
pub const SKY: u8 = 15;

/// Whether light reaches `block` only through the flood: cave air, and flowing or
/// falling water.
fn dim(block: Block) -> bool {
    block == Block::CaveAir || block.is_water() && block != Block::Water
}

/// Sky light levels of a padded chunk, and the flood's scratch space.
#[derive(Clone, Debug)]
pub(crate) struct SkyLight {
    /// The level of every cave air block the flood reached; 0 elsewhere.
    levels: Box<[u8; PADDED_VOLUME]>,
    /// The blocks the flood reached (so the next chunk clears only those).
    queue: Vec<u32>,
    /// The chunk has cave air. Otherwise every open block has [`SKY`].
    caves: bool,
}

impl Default for SkyLight {
    fn default() -> Self {
        Self {
            levels: Box::new([0; PADDED_VOLUME]),
            queue: Vec::new(),
            caves: false,
        }
    }
}

impl SkyLight {
    /// Computes the levels of the padded chunk `blocks`, whose bit masks are `masks`.
    pub(crate) fn compute(&mut self, blocks: &[Block], masks: &Masks) {
        for &i in &self.queue {
            self.levels[i as usize] = 0;
        }
        self.queue.clear();
        self.caves = masks.cave.iter().any(|&c| c != 0);
        if !self.caves {
            return;
        }
        // Seeds, a row along x at a time: cave air under the open sky has it all;
        // next to it, one level less.
        let p = PADDED;
        let sky = |r: usize| (masks.air[r] & !masks.cave[r]) | (masks.water[r] & !masks.flowing[r]);
        for y in 0..p {
            for z in 0..p {
                let r = y * p + z;
                let cave = masks.cave[r] | masks.flowing[r];
                if cave == 0 {
                    continue;
                }
                let above = if y + 1 < p { sky(r + p) } else { 0 };
                let mut beside = sky(r) << 1 | sky(r) >> 1;
                if y > 0 {
                    beside |= sky(r - p);
                }
                if z > 0 {
                    beside |= sky(r - 1);
                }
                if z + 1 < p {
                    beside |= sky(r + 1);
                }
                let (full, dimmer) = (cave & above, cave & beside & !above);
                for (mut bits, level) in [(full, SKY), (dimmer, SKY - 1)] {
                    while bits != 0 {
                        let x = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        self.levels[r * p + x] = level;
                        self.queue.push((r * p + x) as u32);
                    }
                }
            }
        }
        let strides = [1, p, p * p];
        let up = p * p;
        let mut head = 0;
        while head < self.queue.len() {
            let i = self.queue[head] as usize;
            head += 1;
            let level = self.levels[i];
            let coords = [i % p, i / p % p, i / (p * p)];
            for (axis, &stride) in strides.iter().enumerate() {
                let c = coords[axis];
                for j in [(c > 0).then(|| i - stride), (c + 1 < p).then(|| i + stride)]
                    .into_iter()
                    .flatten()
                {
                    // Full sky light goes straight down without fading.
                    let next = if level == SKY && j + up == i {
                        SKY
                    } else {
                        level.saturating_sub(1)
                    };
                    if dim(blocks[j]) && self.levels[j] < next {
                        self.levels[j] = next;
                        self.queue.push(j as u32);
                    }
                }
            }
        }
    }

    /// The level of the open block `block` at padded index `i`.
    #[inline]
    pub(crate) fn at(&self, i: usize, block: Block) -> u8 {
        if self.caves && dim(block) {
            self.levels[i]
        } else {
            SKY
        }
    }
}
