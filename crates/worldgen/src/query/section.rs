//! A side view of a world along a line ([`Generator::cross_section`]): at each sample
//! column its surface, its top block and biome, whether water covers it, and the
//! caves under it, as the generated chunks have them. A pure function of the config
//! and the line; it can be stopped half-way (an outdated one on a worker).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};

use crate::generator::Generator;
use crate::surface::biome::Biome;

/// How deep under the surface caves are looked for, in blocks.
pub const CAVE_DEPTH: i32 = 96;

/// One sample column of a cross-section.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionColumn {
    /// The column, `[x, z]`.
    pub at: [i32; 2],
    /// Distance from the line's start, in blocks.
    pub along: f64,
    /// Height of its highest solid block ([`Generator::surface_height`]).
    pub surface: i32,
    /// That block.
    pub top: Block,
    /// Its biome, in worlds with biomes.
    pub biome: Option<Biome>,
    /// The surface of a river or lake above the sea over it (version 5).
    pub water: Option<i32>,
    /// Runs of cave air within [`CAVE_DEPTH`] blocks under the surface, as
    /// `[lowest, highest]` heights, top first.
    pub caves: Vec<[i32; 2]>,
}

/// A cross-section: its columns from the line's start, and the world's sea level.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The sample columns, in order along the line.
    pub columns: Vec<SectionColumn>,
    /// The sea level (water fills what lies below it).
    pub sea_level: i32,
}

impl Generator {
    /// The cross-section along the line from column `from` in direction `dir` (any
    /// length, horizontal `[x, z]`), `length` blocks long, at `samples` evenly spaced
    /// columns (the start and the end included). Returns `None` if `stop` was set
    /// meanwhile (checked at every column).
    pub fn cross_section(
        &self,
        from: [f64; 2],
        dir: [f64; 2],
        length: f64,
        samples: usize,
        stop: &AtomicBool,
    ) -> Option<Section> {
        let norm = (dir[0] * dir[0] + dir[1] * dir[1]).sqrt();
        let unit = if norm > 0.0 {
            [dir[0] / norm, dir[1] / norm]
        } else {
            [0.0, -1.0]
        };
        let samples = samples.max(2);
        let mut chunks: HashMap<ChunkPos, Chunk> = HashMap::new();
        let mut columns = Vec::with_capacity(samples);
        for i in 0..samples {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let along = length * i as f64 / (samples - 1) as f64;
            let at = [
                (from[0] + unit[0] * along).floor() as i32,
                (from[1] + unit[1] * along).floor() as i32,
            ];
            let top = self.column_top(at[0], at[1]);
            // Only the chunks of the column's own chunk column are kept: the line
            // never comes back to one it left.
            let own = BlockPos::new(at[0], 0, at[1]).to_chunk().0;
            chunks.retain(|c, _| c.x == own.x && c.z == own.z);
            let mut caves: Vec<[i32; 2]> = Vec::new();
            for y in (top.y - CAVE_DEPTH..top.y).rev() {
                let (c, l) = BlockPos::new(at[0], y, at[1]).to_chunk();
                let chunk = chunks.entry(c).or_insert_with(|| self.generate(c));
                if chunk.get(l[0], l[1], l[2]) == Block::CaveAir {
                    match caves.last_mut() {
                        Some(run) if run[0] == y + 1 => run[0] = y,
                        _ => caves.push([y, y]),
                    }
                }
            }
            columns.push(SectionColumn {
                at,
                along,
                surface: top.y,
                top: top.block,
                biome: top.biome,
                water: top.water,
                caves,
            });
        }
        Some(Section {
            columns,
            sea_level: self.sea_level(),
        })
    }
}
