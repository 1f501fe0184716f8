//! The walk over the tree of levels that decides what is drawn: from the top
//! chunks down, a wanted leaf is drawn once loaded; until then whatever covered its
//! place stays drawn (a coarser chunk, or all of its finer ones), and full-detail
//! chunks doing that are kept from unloading. Notes how each missing leaf is
//! covered, for the order coarse tasks start in.

use bevy::platform::collections::HashSet;
use terravox_voxel::ChunkPos;
use terravox_worldgen::LodPos;

use super::rings::Rings;
use super::schedule::Cover;
use super::state::HorizonWorld;
use crate::streaming::Chunks;

impl HorizonWorld {
    /// Walks the tree of levels from the top chunks down and decides what is drawn:
    /// a leaf once loaded; a split chunk's children once all of them cover their
    /// places, else the chunk itself if it is still loaded. A leaf not loaded yet is
    /// covered by its old children where all of them are still loaded. Full-detail
    /// chunks that cover their place while no longer wanted are kept
    /// ([`Chunks::set_kept`]), the nearest [`Chunks::max_kept`] of them. With
    /// `note_cover`, notes how each leaf not loaded is covered. Returns whether
    /// what is drawn changed.
    pub(super) fn resolve(&mut self, chunks: &mut Chunks, note_cover: bool) -> bool {
        let Some((centre, rings)) = self.wanted_for else {
            return false;
        };
        let mut walk = Walk {
            occupied: self.occupied(chunks, rings.top()),
            drawn: Vec::new(),
            kept: Vec::new(),
            missing: Vec::new(),
        };
        for root in rings.tree_roots(centre) {
            self.visit(root, centre, rings, chunks, &mut walk);
        }
        let Walk {
            drawn,
            mut kept,
            missing,
            ..
        } = walk;
        let drawn: HashSet<LodPos> = drawn.into_iter().collect();
        let changed = drawn != self.drawn;
        self.drawn = drawn;
        if note_cover {
            self.cover = missing.into_iter().collect();
        }
        nearest(&mut kept, centre, chunks.max_kept());
        chunks.set_kept(kept);
        changed
    }

    /// The coarse chunks up to level `top` with a loaded chunk (at any level) under
    /// them: the only places where a fallback can find anything. Each loaded chunk
    /// climbs until it meets an ancestor already marked, so this costs about one
    /// lookup per loaded chunk.
    fn occupied(&self, chunks: &Chunks, top: u8) -> HashSet<LodPos> {
        let mut occupied = HashSet::new();
        let full = chunks.loaded().map(|p| LodPos::new(0, p));
        for mut n in full.chain(self.loaded.keys().copied()) {
            while n.level < top {
                n = n.parent();
                if !occupied.insert(n) {
                    break;
                }
            }
        }
        occupied
    }

    /// Covers the place of `n`; returns whether all of it is covered.
    fn visit(
        &self,
        n: LodPos,
        centre: ChunkPos,
        rings: Rings,
        chunks: &Chunks,
        walk: &mut Walk,
    ) -> bool {
        if n.level == 0 {
            return chunks.is_loaded(n.pos);
        }
        if !rings.split(centre, n) {
            if self.loaded.contains_key(&n) {
                walk.drawn.push(n);
                return true;
            }
            let all = self.fallback(n, chunks, walk);
            walk.missing
                .push((n, if all { Cover::Finer } else { Cover::Hole }));
            return all;
        }
        let marks = (walk.drawn.len(), walk.kept.len(), walk.missing.len());
        let mut all = true;
        for c in n.children() {
            all &= self.visit(c, centre, rings, chunks, walk);
        }
        if all {
            return true;
        }
        if self.loaded.contains_key(&n) {
            walk.drawn.truncate(marks.0);
            walk.kept.truncate(marks.1);
            walk.drawn.push(n);
            for (_, cover) in &mut walk.missing[marks.2..] {
                *cover = Cover::Coarser;
            }
            return true;
        }
        false
    }

    /// Covers the place of `n`, which is not loaded, with what is still loaded of
    /// its finer chunks (all of them, even where they leave gaps: better than
    /// nothing); returns whether they cover all of it. Descends only where
    /// something is loaded: a full descent from an unloaded level-5 chunk would look
    /// up 32,768 full-detail chunks.
    fn fallback(&self, n: LodPos, chunks: &Chunks, walk: &mut Walk) -> bool {
        let mut all = true;
        for c in n.children() {
            all &= if c.level == 0 {
                let here = chunks.is_loaded(c.pos);
                if here {
                    walk.kept.push(c.pos);
                }
                here
            } else if self.loaded.contains_key(&c) {
                walk.drawn.push(c);
                true
            } else {
                walk.occupied.contains(&c) && self.fallback(c, chunks, walk)
            };
        }
        all
    }
}

/// What a walk over the tree of levels gathers.
struct Walk {
    /// See [`HorizonWorld::occupied`].
    occupied: HashSet<LodPos>,
    /// Coarse chunks drawn, and full-detail chunks kept while they cover a place.
    drawn: Vec<LodPos>,
    kept: Vec<ChunkPos>,
    /// Wanted chunks not loaded, and how their places are covered.
    missing: Vec<(LodPos, Cover)>,
}

/// Keeps the `most` chunks of `kept` nearest to `centre` (horizontally, then
/// vertically), in no particular order.
fn nearest(kept: &mut Vec<ChunkPos>, centre: ChunkPos, most: usize) {
    if kept.len() <= most {
        return;
    }
    let key = |p: &ChunkPos| {
        let (dx, dz) = ((p.x - centre.x) as i64, (p.z - centre.z) as i64);
        (dx * dx + dz * dz, (p.y - centre.y).abs())
    };
    if most > 0 {
        kept.select_nth_unstable_by_key(most - 1, key);
    }
    kept.truncate(most);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horizon::state::CoarseChunk;

    fn coarse() -> CoarseChunk {
        CoarseChunk::default()
    }

    /// The bound on chunks kept for cover keeps the nearest ones, horizontally
    /// first.
    #[test]
    fn the_nearest_kept_chunks_stay() {
        let centre = ChunkPos::new(10, 2, -4);
        let at = |dx, dy, dz| ChunkPos::new(centre.x + dx, centre.y + dy, centre.z + dz);
        let mut kept = vec![
            at(-20, 0, 0),
            at(5, 3, 0),
            at(0, 0, -9),
            at(5, 0, 0),
            at(0, 1, 30),
        ];
        nearest(&mut kept, centre, 5);
        assert_eq!(kept.len(), 5, "under the bound nothing goes");
        nearest(&mut kept, centre, 3);
        kept.sort();
        let mut expected = vec![at(5, 0, 0), at(5, 3, 0), at(0, 0, -9)];
        expected.sort();
        assert_eq!(kept, expected);
        nearest(&mut kept, centre, 0);
        assert!(kept.is_empty());
    }

    /// The occupied set equals a plain climb from every loaded chunk to the top,
    /// although each climb stops at the first ancestor already marked.
    #[test]
    fn occupied_marks_every_ancestor_of_every_loaded_chunk() {
        let top = 5;
        let mut h = HorizonWorld::default();
        let mut loaded = Vec::new();
        // Chunks at every level, some sharing ancestors, some far apart.
        for (i, level) in (1..=4).cycle().take(40).enumerate() {
            let i = i as i32;
            let pos = ChunkPos::new(i * 7 - 130, (i % 5) - 2, 90 - i * 11);
            let lod = LodPos::new(level, pos);
            h.loaded.insert(lod, coarse());
            loaded.push(lod);
        }
        let occupied = h.occupied(&Chunks::default(), top);
        let mut expected = HashSet::new();
        for mut n in loaded.iter().copied() {
            while n.level < top {
                n = n.parent();
                expected.insert(n);
            }
        }
        assert_eq!(occupied, expected);
        // A loaded chunk marks its ancestors, not itself where nothing lies below.
        let lone = LodPos::new(4, ChunkPos::new(4000, 0, 4000));
        h.loaded.insert(lone, coarse());
        let occupied = h.occupied(&Chunks::default(), top);
        assert!(occupied.contains(&lone.parent()));
        assert!(!occupied.contains(&lone));
    }
}
