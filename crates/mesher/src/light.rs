//! Sky light: how much of the sky's (ambient) light reaches each open block of a
//! padded chunk, as a level `0..=15`.
//!
//! Air and water are under the open sky (level 15). Cave air ([`Block::CaveAir`]) is
//! out of it: as in Minecraft, full sky light goes straight down an open shaft, and
//! otherwise the level falls by one per block from the nearest air or water through
//! cave air (a flood within the padded chunk), so light fades into a cave's mouth and
//! the deep caves are dark but for the player's lantern. A chunk without cave air is
//! lit everywhere and costs nothing.
//!
//! The flood sees the chunk and its one-block padding only: light that would come
//! from an entrance further away in a neighbouring chunk is not seen, so a lit
//! passage can darken in a step where it crosses a chunk border near an entrance.

use terravox_voxel::{Block, PADDED, PADDED_VOLUME};

/// The level of open sky.
pub const SKY: u8 = 15;

/// Sky light levels of a padded chunk, and the flood's scratch space.
#[derive(Clone, Debug)]
pub(crate) struct SkyLight {
    levels: Box<[u8; PADDED_VOLUME]>,
    queue: Vec<u32>,
    /// The chunk has cave air: `levels` holds the flood. Otherwise every open block
    /// has [`SKY`].
    flooded: bool,
}

impl Default for SkyLight {
    fn default() -> Self {
        Self {
            levels: Box::new([0; PADDED_VOLUME]),
            queue: Vec::new(),
            flooded: false,
        }
    }
}

impl SkyLight {
    /// Computes the levels of the padded chunk `blocks`.
    pub(crate) fn compute(&mut self, blocks: &[Block]) {
        self.flooded = blocks.contains(&Block::CaveAir);
        if !self.flooded {
            return;
        }
        let p = PADDED;
        let strides = [1, p, p * p];
        // The neighbours of padded index `i` (x fastest, then z, then y).
        let neighbours = move |i: usize| {
            let coords = [i % p, i / p % p, i / (p * p)];
            (0..3).flat_map(move |axis| {
                let (c, stride) = (coords[axis], strides[axis]);
                [(c > 0).then(|| i - stride), (c + 1 < p).then(|| i + stride)]
                    .into_iter()
                    .flatten()
            })
        };
        let open_sky = |j: usize| matches!(blocks[j], Block::Air | Block::Water);
        let up = p * p;
        // Cave air under the open sky has it all; next to it, one level less.
        self.levels.fill(0);
        self.queue.clear();
        for (i, &b) in blocks.iter().enumerate() {
            if b != Block::CaveAir {
                continue;
            }
            let level = if i + up < blocks.len() && open_sky(i + up) {
                SKY
            } else if neighbours(i).any(open_sky) {
                SKY - 1
            } else {
                continue;
            };
            self.levels[i] = level;
            self.queue.push(i as u32);
        }
        let mut head = 0;
        while head < self.queue.len() {
            let i = self.queue[head] as usize;
            head += 1;
            let level = self.levels[i];
            for j in neighbours(i) {
                // Full sky light goes straight down without fading.
                let next = if level == SKY && j + up == i {
                    SKY
                } else {
                    level.saturating_sub(1)
                };
                if blocks[j] == Block::CaveAir && self.levels[j] < next {
                    self.levels[j] = next;
                    self.queue.push(j as u32);
                }
            }
        }
    }

    /// The level of the open block `block` at padded index `i`.
    #[inline]
    pub(crate) fn at(&self, i: usize, block: Block) -> u8 {
        if self.flooded && block == Block::CaveAir {
            self.levels[i]
        } else {
            SKY
        }
    }
}
