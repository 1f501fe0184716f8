//! The sparse edit overlay: blocks the player changed, laid over the generated world.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use imbl::OrdMap;

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk, ChunkPos};

use crate::fluid::Pending;

/// A padded local coordinate (`-1..=32` on each axis) and the block to put there.
pub type LocalEdit = ([i32; 3], Block);

/// The blocks the player changed in one world, grouped by chunk, and the water they
/// woke ([`Pending`]: flowing water is edits too). Iteration order is fixed (by
/// chunk, then by position inside it), so saves are deterministic.
///
/// A clone is a snapshot that costs the same at any size (a persistent map of chunks
/// sharing its nodes, each chunk's edits shared until one side changes it): the game
/// hands one to every background save without stalling a frame. An edit after a
/// snapshot copies only the path to its chunk and that chunk's edits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edits {
    chunks: OrdMap<ChunkPos, Arc<BTreeMap<u16, Block>>>,
    len: usize,
    /// The water waiting to tick.
    pending: Pending,
}

/// Index of a local coordinate (`0..32` each) inside a chunk: x fastest, then z, y.
fn index(l: [i32; 3]) -> u16 {
    ((l[1] * CHUNK + l[2]) * CHUNK + l[0]) as u16
}

fn local(i: u16) -> [i32; 3] {
    let i = i as i32;
    [i % CHUNK, i / (CHUNK * CHUNK), (i / CHUNK) % CHUNK]
}

impl Edits {
    /// No edits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that the block at `pos` is now `block`. Returns whether the overlay
    /// changed.
    pub fn set(&mut self, pos: BlockPos, block: Block) -> bool {
        let (c, l) = pos.to_chunk();
        let blocks = Arc::make_mut(self.chunks.entry(c).or_default());
        let old = blocks.insert(index(l), block);
        if old.is_none() {
            self.len += 1;
        }
        old != Some(block)
    }

    /// The edited block at `pos`, if it was edited.
    pub fn get(&self, pos: BlockPos) -> Option<Block> {
        let (c, l) = pos.to_chunk();
        self.chunks.get(&c)?.get(&index(l)).copied()
    }

    /// The edits of sorted chunks, each with its edits sorted by index inside the
    /// chunk (as a save lists them): built in one pass.
    pub(crate) fn from_sorted_chunks(chunks: Vec<(ChunkPos, Vec<(u16, Block)>)>) -> Self {
        let len = chunks.iter().map(|(_, b)| b.len()).sum();
        let chunks = chunks
            .into_iter()
            .filter(|(_, b)| !b.is_empty())
            .map(|(c, b)| (c, Arc::new(b.into_iter().collect())))
            .collect();
        Self {
            chunks,
            len,
            pending: Pending::default(),
        }
    }

    /// The water waiting to tick.
    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    /// The water waiting to tick, to wake, take or put aside blocks.
    pub fn pending_mut(&mut self) -> &mut Pending {
        &mut self.pending
    }

    /// Lays `newer` over these edits: its blocks replace theirs, and the water it
    /// woke is woken here too (a save read after edits were made meanwhile).
    pub fn lay_over(&mut self, newer: &Edits) {
        for (p, b) in newer.iter() {
            self.set(p, b);
        }
        for (_, p) in newer.pending.due() {
            self.pending.wake(p);
        }
        for (p, c) in newer.pending.waiting() {
            self.pending.wait(p, c);
        }
    }

    /// The edited chunks, in order, with their edits by index inside the chunk.
    pub(crate) fn chunks(&self) -> impl Iterator<Item = (&ChunkPos, &BTreeMap<u16, Block>)> {
        self.chunks.iter().map(|(c, blocks)| (c, blocks.as_ref()))
    }

    /// The edits of the chunks from `lo` to `hi` (inclusive, in the map's order:
    /// by x, then y, then z), each as a world position and block.
    pub(crate) fn in_range(
        &self,
        lo: ChunkPos,
        hi: ChunkPos,
    ) -> impl Iterator<Item = (BlockPos, Block)> + '_ {
        self.chunks.range(lo..=hi).flat_map(|(c, blocks)| {
            blocks
                .iter()
                .map(move |(&i, &b)| (c.local_to_world(local(i)), b))
        })
    }

    /// The edits of chunk `c` (an edit is never removed, only set again, so these
    /// are all a copy of the chunk needs to be as it is here).
    pub fn of_chunk(&self, c: ChunkPos) -> Vec<(BlockPos, Block)> {
        self.chunks.get(&c).map_or_else(Vec::new, |blocks| {
            blocks
                .iter()
                .map(|(&i, &b)| (c.local_to_world(local(i)), b))
                .collect()
        })
    }

    /// The chunks holding an edited block, each with how many it holds.
    pub fn chunk_sizes(&self) -> impl Iterator<Item = (ChunkPos, usize)> + '_ {
        self.chunks.iter().map(|(c, blocks)| (*c, blocks.len()))
    }

    /// Number of chunks holding an edited block.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Number of edited blocks.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was edited and no water waits to tick.
    pub fn is_empty(&self) -> bool {
        self.len == 0 && self.pending.is_empty()
    }

    /// Every edit, in the overlay's fixed order.
    pub fn iter(&self) -> impl Iterator<Item = (BlockPos, Block)> + '_ {
        self.chunks.iter().flat_map(|(c, blocks)| {
            blocks
                .iter()
                .map(move |(&i, &b)| (c.local_to_world(local(i)), b))
        })
    }

    /// The edits that fall inside `chunk`'s padded region (its own blocks and its
    /// one-block border), as padded local coordinates: what a worker task lays over a
    /// freshly generated chunk.
    pub fn for_chunk(&self, chunk: ChunkPos) -> Vec<LocalEdit> {
        let mut out = Vec::new();
        let o = chunk.origin();
        for dy in -1..=1 {
            for dz in -1..=1 {
                for dx in -1..=1 {
                    let n = ChunkPos::new(chunk.x + dx, chunk.y + dy, chunk.z + dz);
                    let Some(blocks) = self.chunks.get(&n) else {
                        continue;
                    };
                    let no = n.origin();
                    for (&i, &b) in blocks.iter() {
                        let l = local(i);
                        let rel = [no.x + l[0] - o.x, no.y + l[1] - o.y, no.z + l[2] - o.z];
                        if rel.iter().all(|&v| (-1..=CHUNK).contains(&v)) {
                            out.push((rel, b));
                        }
                    }
                }
            }
        }
        out
    }

    /// Lays the overlay over a generated `chunk` at `pos` (padding included).
    pub fn apply(&self, pos: ChunkPos, chunk: &mut Chunk) {
        apply_local(chunk, &self.for_chunk(pos));
    }

    /// Every chunk whose padded region holds an edit: the chunks that differ from the
    /// generated world. An edit inside a chunk touches that chunk only; one on its
    /// border also touches the neighbours whose padding holds it.
    pub fn touched_chunks(&self) -> BTreeSet<ChunkPos> {
        let mut out = BTreeSet::new();
        for (c, blocks) in self.chunks.iter() {
            out.insert(*c);
            for &i in blocks.keys() {
                let l = local(i);
                if l.iter().any(|&v| v == 0 || v == CHUNK - 1) {
                    out.extend(c.local_to_world(l).holders().map(|(h, _)| h));
                }
            }
        }
        out
    }
}

/// Sets each listed padded local coordinate of `chunk` (from [`Edits::for_chunk`]).
pub fn apply_local(chunk: &mut Chunk, edits: &[LocalEdit]) {
    for &([x, y, z], b) in edits {
        chunk.set(x, y, z, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        for l in [[0, 0, 0], [31, 31, 31], [5, 17, 30], [31, 0, 1]] {
            assert_eq!(local(index(l)), l);
        }
    }

    #[test]
    fn a_chunks_edits_are_all_of_it_and_none_of_its_neighbours() {
        let mut e = Edits::new();
        let (a, b, next) = (
            BlockPos::new(0, 0, 0),
            BlockPos::new(31, 5, 31),
            BlockPos::new(32, 0, 0),
        );
        e.set(a, Block::Brick);
        e.set(b, Block::Water);
        e.set(next, Block::Stone);
        e.set(a, Block::Air);
        let c = a.to_chunk().0;
        let mut got = e.of_chunk(c);
        got.sort();
        assert_eq!(got, [(a, Block::Air), (b, Block::Water)]);
        let sizes: Vec<(ChunkPos, usize)> = e.chunk_sizes().collect();
        assert_eq!(sizes, [(c, 2), (next.to_chunk().0, 1)]);
        assert!(e.of_chunk(ChunkPos::new(9, 9, 9)).is_empty());
    }

    #[test]
    fn set_get_len_and_overwrite() {
        let mut e = Edits::new();
        assert!(e.set(BlockPos::new(-1, -40, 33), Block::Brick));
        assert!(!e.set(BlockPos::new(-1, -40, 33), Block::Brick));
        assert!(e.set(BlockPos::new(-1, -40, 33), Block::Air));
        assert!(e.set(BlockPos::new(0, 0, 0), Block::Stone));
        assert_eq!(e.len(), 2);
        assert_eq!(e.get(BlockPos::new(-1, -40, 33)), Some(Block::Air));
        assert_eq!(e.get(BlockPos::new(1, 0, 0)), None);
        let all: Vec<_> = e.iter().collect();
        assert!(all.contains(&(BlockPos::new(-1, -40, 33), Block::Air)));
        assert!(all.contains(&(BlockPos::new(0, 0, 0), Block::Stone)));
    }

    #[test]
    fn a_snapshot_keeps_its_edits_while_the_original_changes() {
        let mut e = Edits::new();
        e.set(BlockPos::new(1, 2, 3), Block::Brick);
        e.set(BlockPos::new(40, 2, 3), Block::Snow);
        let snapshot = e.clone();
        e.set(BlockPos::new(1, 2, 3), Block::Air);
        e.set(BlockPos::new(1, 2, 4), Block::Stone);
        e.set(BlockPos::new(-90, 0, 0), Block::Sand);
        assert_eq!(snapshot.len(), 2);
        assert_eq!(snapshot.get(BlockPos::new(1, 2, 3)), Some(Block::Brick));
        assert_eq!(snapshot.get(BlockPos::new(1, 2, 4)), None);
        assert_eq!(snapshot.chunk_count(), 2);
        assert_eq!(e.len(), 4);
        assert_eq!(e.get(BlockPos::new(1, 2, 3)), Some(Block::Air));
        assert_eq!(e.get(BlockPos::new(40, 2, 3)), Some(Block::Snow));
    }

    #[test]
    fn a_border_edit_reaches_every_chunk_whose_padding_holds_it() {
        let mut e = Edits::new();
        let p = BlockPos::new(-1, 31, 0);
        e.set(p, Block::Planks);
        let touched = e.touched_chunks();
        assert_eq!(touched.len(), 8);
        for (c, l) in p.holders() {
            assert!(touched.contains(&c));
            assert_eq!(e.for_chunk(c), vec![(l, Block::Planks)]);
            let mut chunk = Chunk::Uniform(Block::Air);
            e.apply(c, &mut chunk);
            assert_eq!(chunk.get(l[0], l[1], l[2]), Block::Planks);
        }
        assert!(e.for_chunk(ChunkPos::new(1, 0, 0)).is_empty());
    }
}
