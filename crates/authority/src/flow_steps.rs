//! The water's steps as the authority runs them: what a step reads (a [`Picture`] of
//! the loaded chunks around the blocks due, as far as [`READ_REACH`] says a tick
//! reads), the step's job for any thread ([`StepJob`]) and what laying it changed
//! ([`Laid`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use terravox_edits::Edits;
use terravox_edits::fluid::{self, Cells, Pending, READ_REACH, Step, Waters};
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};

use crate::blocks::Blocks;
use crate::changed::Changed;

/// The loaded chunks a step's ticks may read, shared with its thread.
#[derive(Clone, Debug, Default)]
pub struct Picture(HashMap<ChunkPos, Arc<Chunk>>);

impl Picture {
    /// The chunks a step of the blocks `due` may read: those within [`READ_REACH`]
    /// of any of them.
    pub fn chunks_for(due: &[BlockPos]) -> BTreeSet<ChunkPos> {
        let mut out = BTreeSet::new();
        for &p in due {
            let (lo, hi) = READ_REACH.around(p);
            let (lo, hi) = (lo.to_chunk().0, hi.to_chunk().0);
            for y in lo.y..=hi.y {
                for z in lo.z..=hi.z {
                    for x in lo.x..=hi.x {
                        out.insert(ChunkPos::new(x, y, z));
                    }
                }
            }
        }
        out
    }

    /// The loaded chunks of `blocks` a step of `due` may read.
    pub fn around(blocks: &(impl Blocks + ?Sized), due: &[BlockPos]) -> Self {
        Self(
            Self::chunks_for(due)
                .into_iter()
                .filter_map(|c| blocks.chunk(c).map(|chunk| (c, chunk.clone())))
                .collect(),
        )
    }
}

impl Cells for Picture {
    fn block(&self, p: BlockPos) -> Option<Block> {
        let (c, l) = p.to_chunk();
        self.0.get(&c).map(|chunk| chunk.get(l[0], l[1], l[2]))
    }
}

/// One step of the water, ready to run on any thread: the blocks due, in the order
/// they tick, and the picture of the world they read.
#[derive(Clone, Debug)]
pub struct StepJob {
    /// The blocks that tick.
    pub due: Vec<BlockPos>,
    /// What they read.
    pub picture: Picture,
    /// The edits it was taken from ([`crate::Authority::lineage`]): a step of
    /// edits replaced since is dropped.
    pub lineage: u64,
}

impl StepJob {
    /// Runs the step: what it writes.
    pub fn run(&self) -> Step {
        fluid::step(&self.picture, &self.due)
    }
}

/// What laying a step changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Laid {
    /// The blocks it changed, each with what it holds now, in the order written.
    pub changes: Vec<(BlockPos, Block)>,
    /// How many blocks ticked.
    pub ticked: usize,
}

/// A step's writes laid into the loaded world and the edits.
pub(crate) struct Laying<'a, B: Blocks + ?Sized> {
    pub(crate) blocks: &'a mut B,
    pub(crate) edits: &'a mut Edits,
    pub(crate) changed: &'a mut Changed,
    pub(crate) out: Vec<(BlockPos, Block)>,
}

impl<B: Blocks + ?Sized> Cells for Laying<'_, B> {
    fn block(&self, p: BlockPos) -> Option<Block> {
        self.blocks.block(p)
    }
}

impl<B: Blocks + ?Sized> Waters for Laying<'_, B> {
    fn flow(&mut self, p: BlockPos, b: Block) {
        if self.blocks.set(p, b) && self.edits.set(p, b) {
            self.changed.note([p.to_chunk().0]);
            self.out.push((p, b));
        }
    }

    fn pending(&mut self) -> &mut Pending {
        self.edits.pending_mut()
    }
}
