//! One step of the water: the woken blocks tick in order over a fixed picture of the
//! world, each seeing what the ticks before it wrote (as Minecraft's ticks run one
//! after another), and the step returns what it wrote.

use std::collections::HashMap;

use terravox_voxel::water_states::SIDES;
use terravox_voxel::{Block, BlockPos, ChunkPos};

#[cfg(feature = "test-support")]
use super::rules::new_liquid;
use super::rules::{Read, Tick, Unloaded, World, emptied, tick};

/// The blocks of a world as water sees them.
pub trait Cells {
    /// The block at `p`, or `None` where its chunk is not loaded.
    fn block(&self, p: BlockPos) -> Option<Block>;
}

impl<F: Fn(BlockPos) -> Option<Block>> Cells for F {
    fn block(&self, p: BlockPos) -> Option<Block> {
        self(p)
    }
}

/// A block a step changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Write {
    /// Where.
    pub pos: BlockPos,
    /// What the step read there: the write holds only while the block still is this
    /// (an edit made meanwhile wins).
    pub was: Block,
    /// What it is now.
    pub block: Block,
}

/// What one step did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The blocks it changed, each once, in the order first written.
    pub writes: Vec<Write>,
    /// How many blocks ticked.
    pub ticked: usize,
    /// The blocks whose tick needed a chunk that is not loaded, with that chunk: they
    /// wait for it ([`super::Pending::wait`]).
    pub waiting: Vec<(BlockPos, ChunkPos)>,
}

/// The world during a step: the picture it started from and what it wrote so far.
struct Stepping<'a, C: Cells + ?Sized> {
    cells: &'a C,
    written: HashMap<BlockPos, usize>,
    writes: Vec<Write>,
}

impl<C: Cells + ?Sized> World for Stepping<'_, C> {
    fn read(&self, p: BlockPos) -> Read<Block> {
        match self.written.get(&p) {
            Some(&i) => Ok(self.writes[i].block),
            None => self.cells.block(p).ok_or(Unloaded(p.to_chunk().0)),
        }
    }
}

impl<C: Cells + ?Sized> Stepping<'_, C> {
    /// Keeps a complete tick's writes.
    fn commit(&mut self, writes: Vec<(BlockPos, Block)>) {
        for (pos, block) in writes {
            match self.written.get(&pos) {
                Some(&i) => self.writes[i].block = block,
                None => {
                    let was = self.cells.block(pos).unwrap_or(Block::Air);
                    self.written.insert(pos, self.writes.len());
                    self.writes.push(Write { pos, was, block });
                }
            }
        }
    }
}

/// Ticks the blocks `due` (in order) over `cells`: a block that is not water (any
/// more) does nothing; one whose tick needs an unloaded chunk leaves nothing and is
/// listed to wait.
pub fn step(cells: &(impl Cells + ?Sized), due: &[BlockPos]) -> Step {
    let mut world = Stepping {
        cells,
        written: HashMap::new(),
        writes: Vec::new(),
    };
    let mut waiting = Vec::new();
    for &p in due {
        let mut t = Tick::new(&world, p);
        match tick(&mut t, p) {
            Ok(()) => {
                let writes = std::mem::take(&mut t.writes);
                world.commit(writes);
            }
            Err(Unloaded(c)) => waiting.push((p, c)),
        }
    }
    let writes = world
        .writes
        .into_iter()
        .filter(|w| w.block != w.was)
        .collect();
    Step {
        writes,
        ticked: due.len(),
        waiting,
    }
}

/// The water that flows into the open block `p` at once, as the next tick of the
/// water around it would make it (the water above first, then the water beside it
/// in [`SIDES`]' order): a block broken under or beside water is filled in the same
/// moment, so no air pocket stands under water. `None` where no water comes (or
/// `p` is not open, or the water around it needs an unloaded chunk to decide).
pub fn fill(cells: &(impl Cells + ?Sized), p: BlockPos) -> Option<Block> {
    let world = Stepping {
        cells,
        written: HashMap::new(),
        writes: Vec::new(),
    };
    let here = cells.block(p)?;
    if here.is_solid() || here.is_water() {
        return None;
    }
    let from =
        std::iter::once(p.offset([0, 1, 0])).chain(SIDES.map(|[dx, dz]| p.offset([dx, 0, dz])));
    for q in from {
        if !cells.block(q).is_some_and(Block::is_water) {
            continue;
        }
        let mut t = Tick::new(&world, q);
        if tick(&mut t, q).is_ok()
            && let Some(&(_, b)) = t.writes.iter().find(|(w, _)| *w == p)
        {
            return Some(b);
        }
    }
    None
}

/// What block `p` holds once it is broken: at once the water that runs into it
/// ([`fill`]), else air, or cave air inside a cave ([`emptied`]).
pub fn broken(cells: &(impl Cells + ?Sized), p: BlockPos) -> Block {
    let open = emptied(
        p.neighbours()
            .map(|q| cells.block(q).unwrap_or(Block::Stone)),
    );
    let opened = |q: BlockPos| if q == p { Some(open) } else { cells.block(q) };
    fill(&opened, p).unwrap_or(open)
}

/// Whether the water at `p` is fed: a source, or flowing or falling water that the
/// water around it makes just so (a settled flow holds only such water; a block of
/// flowing water with nothing feeding it is not). `None` where `p` holds no water or
/// the answer needs a chunk that is not loaded. For tests (feature `test-support`).
#[cfg(feature = "test-support")]
pub fn fed(cells: &(impl Cells + ?Sized), p: BlockPos) -> Option<bool> {
    let world = Stepping {
        cells,
        written: HashMap::new(),
        writes: Vec::new(),
    };
    let fluid = cells.block(p)?.fluid()?;
    if fluid.is_source() {
        return Some(true);
    }
    let mut t = Tick::new(&world, p);
    new_liquid(&mut t, p).ok().map(|made| made == Some(fluid))
}
