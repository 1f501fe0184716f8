//! What the export tests share: a scratch folder, and the blocks of a source.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use terravox_export::Source;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};

pub(crate) mod files;

/// An empty folder for one test, under the system's temporary folder.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("terravox-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The default world (`continents`) with seed `seed`.
pub(crate) fn continents(seed: &str) -> terravox_worldgen::Generator {
    let cfg =
        terravox_worldgen::WorldConfig::default().with_seed(terravox_worldgen::Seed::new(seed));
    terravox_worldgen::Generator::new(&cfg).expect("the default world is valid")
}

/// The highest column of 8 km square around the origin (sampled every 128 blocks,
/// then every 8 around the highest sample): its surface height, `x` and `z`.
pub(crate) fn highest_peak(g: &terravox_worldgen::Generator) -> (i32, i32, i32) {
    let highest = |x0: i32, z0: i32, span: i32, step: usize| {
        (-span..span)
            .step_by(step)
            .flat_map(|dz| {
                (-span..span)
                    .step_by(step)
                    .map(move |dx| (x0 + dx, z0 + dz))
            })
            .map(|(x, z)| (g.surface_height(x, z), x, z))
            .max()
            .expect("samples")
    };
    let (_, x, z) = highest(0, 0, 4096, 128);
    highest(x, z, 128, 8)
}

/// The blocks of a source as the game shows them, each chunk generated once.
pub(crate) struct Blocks<'a>(&'a Source, HashMap<ChunkPos, Chunk>);

impl<'a> Blocks<'a> {
    /// The blocks of `source`.
    pub(crate) fn new(source: &'a Source) -> Self {
        Self(source, HashMap::new())
    }

    /// The block at `[x, y, z]`.
    pub(crate) fn get(&mut self, [x, y, z]: [i32; 3]) -> Block {
        let (pos, [lx, ly, lz]) = BlockPos::new(x, y, z).to_chunk();
        let source = self.0;
        self.1
            .entry(pos)
            .or_insert_with(|| source.chunk(pos))
            .get(lx, ly, lz)
    }
}

/// A world as its water sees it: `generator`'s blocks with `edits` laid over them,
/// every chunk loaded; for letting a flow settle before an export.
pub(crate) struct Flowing<'a> {
    generator: &'a terravox_worldgen::Generator,
    chunks: std::cell::RefCell<HashMap<ChunkPos, Chunk>>,
    /// The edits, water included.
    pub(crate) edits: terravox_edits::Edits,
}

impl terravox_edits::fluid::Cells for Flowing<'_> {
    fn block(&self, p: BlockPos) -> Option<Block> {
        if let Some(b) = self.edits.get(p) {
            return Some(b);
        }
        let (pos, [x, y, z]) = p.to_chunk();
        let mut chunks = self.chunks.borrow_mut();
        let chunk = chunks
            .entry(pos)
            .or_insert_with(|| self.generator.generate(pos));
        Some(chunk.get(x, y, z))
    }
}

impl terravox_edits::fluid::Waters for Flowing<'_> {
    fn flow(&mut self, p: BlockPos, b: Block) {
        self.edits.set(p, b);
    }

    fn pending(&mut self) -> &mut terravox_edits::fluid::Pending {
        self.edits.pending_mut()
    }
}

impl<'a> Flowing<'a> {
    /// `generator`'s world, no edits yet.
    pub(crate) fn new(generator: &'a terravox_worldgen::Generator) -> Self {
        Self {
            generator,
            chunks: Default::default(),
            edits: terravox_edits::Edits::new(),
        }
    }

    /// Digs out `blocks` in order (each emptied and woken around, as the game's
    /// edits are), then steps the water until nothing is due; the steps taken.
    pub(crate) fn dig_and_settle(&mut self, blocks: &[BlockPos]) -> usize {
        use terravox_edits::fluid;
        for &p in blocks {
            self.edits.set(p, Block::Air);
            let mut pending = std::mem::take(self.edits.pending_mut());
            pending.wake_around(p, self);
            *self.edits.pending_mut() = pending;
        }
        let mut steps = 0;
        while self.edits.pending().due_count() > 0 {
            assert!(steps < 1000, "the water never settled");
            let due = self.edits.pending_mut().take(fluid::MAX_TICKS);
            let step = fluid::step(self, &due);
            fluid::apply(&step, self);
            steps += 1;
        }
        steps
    }
}
