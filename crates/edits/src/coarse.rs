//! The player's builds on the horizon: the overlay down-sampled into a coarse chunk
//! ([`terravox_worldgen::LodPos`]), so a tower built and left stays in sight beyond the
//! view distance.
//!
//! A coarse cell stands for `2^L` blocks a side and takes the generator's verdict at
//! its sample point. Where edits fall into a cell:
//!
//! ```text
//! generated open (air, water):  any block placed  -> the highest block placed
//!                               else water in air  -> water
//! generated solid:              most of it emptied -> water where water fills more
//!                                                     of it than air, else air
//!                               most of it placed  -> the highest block placed
//! ```
//!
//! so thin builds on open ground show (a one-block pillar fills its cells), while a
//! few blocks dug out of a hillside do not hollow it; water poured or flowing
//! (drawn as a coarse source, which has no levels) shows where it stands.

use std::collections::BTreeMap;

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::LodPos;

use crate::overlay::Edits;

/// The edits falling into one coarse cell.
#[derive(Default)]
struct Cell {
    /// Blocks placed, and the highest of them (y, block).
    placed: u64,
    top: Option<(i64, Block)>,
    /// Blocks emptied (set to air or cave air).
    removed: u64,
    /// Blocks set to water of any kind.
    water: u64,
}

impl Edits {
    /// Lays the edits inside `lod`'s blocks over its generated coarse chunk
    /// (`chunk`, as `Generator::generate_coarse` made it), down-sampled as the
    /// module says. At level 0 this is [`Edits::apply`].
    pub fn apply_coarse(&self, lod: LodPos, chunk: &mut Chunk) {
        if lod.level == 0 {
            self.apply(lod.pos, chunk);
            return;
        }
        let span = 1i32 << lod.level;
        let first = ChunkPos::new(lod.pos.x * span, lod.pos.y * span, lod.pos.z * span);
        let last = |v: i32| v + span - 1;
        let (lo, hi) = (
            ChunkPos::new(first.x, i32::MIN, i32::MIN),
            ChunkPos::new(last(first.x), i32::MAX, i32::MAX),
        );
        let inside = |v: i32, f: i32| (f..=last(f)).contains(&v);
        let origin = lod.origin();
        let size = i64::from(lod.cell());
        let mut cells: BTreeMap<[i32; 3], Cell> = BTreeMap::new();
        for (p, b) in self.in_range(lo, hi) {
            let c = p.to_chunk().0;
            if !(inside(c.y, first.y) && inside(c.z, first.z)) {
                continue;
            }
            let rel = [p.x as i64, p.y as i64, p.z as i64];
            let cell = std::array::from_fn(|i| ((rel[i] - origin[i]).div_euclid(size)) as i32);
            let e = cells.entry(cell).or_default();
            if b.is_solid() {
                e.placed += 1;
                if e.top.is_none_or(|(y, _)| rel[1] > y) {
                    e.top = Some((rel[1], b));
                }
            } else if b.is_water() {
                e.water += 1;
            } else {
                e.removed += 1;
            }
        }
        let volume = (size * size * size) as u64;
        for ([x, y, z], c) in cells {
            debug_assert!([x, y, z].iter().all(|v| (0..CHUNK).contains(v)));
            let top = c.top.map(|(_, b)| b);
            let wet = (c.water > c.removed).then_some(Block::Water);
            let generated = chunk.get(x, y, z);
            let new = if !generated.is_solid() {
                top.or(wet.filter(|_| generated.is_air()))
            } else if 2 * (c.removed + c.water) > volume {
                Some(wet.unwrap_or(Block::Air))
            } else if 2 * c.placed > volume {
                top
            } else {
                None
            };
            if let Some(b) = new {
                chunk.set(x, y, z, b);
            }
        }
    }
}
