//! The horizon's state: the [`Horizon`] resource (what is wanted, loaded, in flight
//! and drawn, and the figures the bench reads), its per-world part
//! ([`HorizonWorld`], replaced whole on a world switch) and the order coarse tasks
//! start in. The walk over the levels that decides what is drawn is in `resolve`;
//! the systems that drive both are in `plugin`.

use std::collections::BTreeSet;
use std::time::Duration;

use bevy::math::DVec3;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use terravox_mesher::Surface;
use terravox_voxel::ChunkPos;
use terravox_worldgen::{LodPos, MAX_LEVEL};

use super::rings::{Detail, Rings};
use super::schedule::{Cover, Urgency, urgency};
use crate::streaming::pipeline::Pipeline;
use terravox_authority::Changed;

/// A loaded coarse chunk's mesh figures.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CoarseChunk {
    /// Its quads and mesh bytes (vertices and indices as uploaded).
    pub(super) quads: usize,
    pub(super) bytes: usize,
    /// Its meshes with faces (opaque, water): a draw call each.
    pub(super) meshes: usize,
    /// The world epoch it was made for: one older than the horizon's is made again
    /// (a live reshape) and stays drawn until then.
    pub(super) epoch: u64,
    /// The player's edits changed inside it since it was made: it is made again and
    /// stays drawn until then.
    pub(super) edited: bool,
}

impl CoarseChunk {
    /// Whether it shows the world of `epoch` with the edits as they are.
    pub(super) fn current(&self, epoch: u64) -> bool {
        self.epoch == epoch && !self.edited
    }
}

/// What a coarse worker task returns.
pub(super) struct CoarseResult {
    /// How urgent it was when its task started.
    pub(super) urgency: Urgency,
    pub(super) opaque: Surface,
    pub(super) water: Surface,
    pub(super) time: Duration,
}

/// Everything the horizon holds about the current world.
#[derive(Default)]
pub(super) struct HorizonWorld {
    /// The player's chunk and the rings the wanted set was made for.
    pub(super) wanted_for: Option<(ChunkPos, Rings)>,
    /// Wanted coarse chunks (finer levels and nearer ones first), tasks, results.
    pub(super) pipeline: Pipeline<CoarseResult>,
    /// How the last walk found the place of each wanted chunk not loaded covered.
    pub(super) cover: HashMap<LodPos, Cover>,
    /// The urgency of each chunk in the pipeline's start order, made again when the
    /// wanted set moved (after the walk that notes `cover`; between moves, the order
    /// of what is left changes little).
    pub(super) urgency: HashMap<LodPos, Urgency>,
    pub(super) queue_stale: bool,
    pub(super) loaded: HashMap<LodPos, CoarseChunk>,
    /// Coarse chunks drawn now.
    pub(super) drawn: HashSet<LodPos>,
    /// Something loaded or unloaded since the last walk, and frames since.
    pub(super) dirty: bool,
    pub(super) frames: u32,
    /// The wanted set moved since the last walk: walk at once.
    pub(super) moved: bool,
    /// [`Chunks::changes`](crate::streaming::Chunks::changes) at the last walk.
    pub(super) chunk_changes: u64,
    /// The world epoch coarse chunks are made for now.
    pub(super) epoch: u64,
    /// How wide the rings are drawn, and the view distance, horizon and memory
    /// budget it was narrowed for (any change of those starts at full width again).
    pub(super) detail: Detail,
    pub(super) detail_for: Option<(u32, u32, u32)>,
    /// Wanted chunks per level (index 0 is level 1), counted when the wanted set
    /// was made.
    pub(super) wanted_levels: [usize; MAX_LEVEL as usize],
}

/// The coarse chunks: wanted, loaded, in flight, drawn.
#[derive(Resource, Default)]
pub struct Horizon {
    /// The current world's coarse chunks and work; replaced whole on a world switch.
    pub(super) world: HorizonWorld,
    /// The stream centre last frame, and the direction of travel (a running mean
    /// of its steps).
    pub(super) last_centre: Option<DVec3>,
    pub(super) travel: DVec3,
    /// Running mean of a coarse task's time (generate + mesh).
    pub(super) task_time: Option<Duration>,
    /// Generate + mesh time of every coarse chunk so far, and their count.
    pub work: Duration,
    /// Coarse chunks finished.
    pub finished: u64,
    /// Main-thread time of the last walk over the tree.
    pub resolve_time: Duration,
}

/// Figures of one level: loaded chunks, those with faces, quads and mesh bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingFigures {
    /// Loaded chunks of the level.
    pub chunks: usize,
    /// Of those, drawn ones with faces.
    pub drawn: usize,
    /// Quads of the drawn ones.
    pub quads: usize,
    /// Mesh bytes of the loaded ones (on the GPU: vertices and indices).
    pub bytes: usize,
    /// Draw calls of the drawn ones: a mesh with faces each (opaque, water).
    pub draw_calls: usize,
}

impl Horizon {
    /// Whether coarse chunk `lod` is drawn now.
    pub fn draws(&self, lod: LodPos) -> bool {
        self.world.drawn.contains(&lod)
    }

    /// Whether full-detail chunk `p` is covered by a drawn coarse chunk (so its own
    /// mesh is hidden).
    pub fn covers(&self, p: ChunkPos) -> bool {
        let Some((_, rings)) = self.world.wanted_for else {
            return false;
        };
        let mut n = LodPos::new(0, p);
        (1..=rings.top()).any(|_| {
            n = n.parent();
            self.world.drawn.contains(&n)
        })
    }

    /// Whether every wanted coarse chunk is loaded (for the current epoch), the walk
    /// over the levels has seen them all, and the wanted set is that of the rings'
    /// current width (not one the memory budget has just narrowed).
    pub fn complete(&self) -> bool {
        let w = &self.world;
        !w.dirty
            && w.wanted_for.is_none_or(|(_, r)| r.detail == w.detail)
            && w.pipeline.wanted().iter().all(|&n| w.is_current(n))
    }

    /// How wide the rings are drawn now (narrower than full to keep the meshes
    /// within the memory budget).
    pub fn detail(&self) -> Detail {
        self.world.detail
    }

    /// Wanted coarse chunks.
    pub fn wanted(&self) -> &[LodPos] {
        self.world.pipeline.wanted()
    }

    /// Loaded coarse chunks.
    pub fn loaded(&self) -> impl Iterator<Item = LodPos> + '_ {
        self.world.loaded.keys().copied()
    }

    /// Chunks in flight (tasks started, not applied).
    pub fn pending(&self) -> usize {
        self.world.pipeline.pending()
    }

    /// Coarse tasks started whose work has not finished yet.
    pub fn tasks_running(&self) -> usize {
        self.world.pipeline.tasks_running()
    }

    /// For the stats overlay: coarse chunks wanted, loaded (wanted or kept while
    /// they cover a place) and drawn.
    pub(crate) fn counts(&self) -> [usize; 3] {
        let w = &self.world;
        [w.pipeline.wanted().len(), w.loaded.len(), w.drawn.len()]
    }

    /// Per level `1..=MAX_LEVEL` (index 0 is level 1): loaded chunks, drawn ones,
    /// quads, mesh bytes and draw calls.
    pub fn rings(&self) -> Vec<RingFigures> {
        let mut v = vec![RingFigures::default(); terravox_worldgen::MAX_LEVEL as usize];
        for (lod, c) in &self.world.loaded {
            let r = &mut v[lod.level as usize - 1];
            r.chunks += 1;
            r.bytes += c.bytes;
            if self.world.drawn.contains(lod) && c.quads > 0 {
                r.drawn += 1;
                r.quads += c.quads;
                r.draw_calls += c.meshes;
            }
        }
        v
    }

    /// The rings the wanted set was made for, if any.
    pub fn rings_now(&self) -> Option<Rings> {
        self.world.wanted_for.map(|(_, r)| r)
    }
}

impl HorizonWorld {
    /// Whether coarse chunk `n` is loaded for the current epoch and edits.
    pub(super) fn is_current(&self, n: LodPos) -> bool {
        self.loaded.get(&n).is_some_and(|c| c.current(self.epoch))
    }

    /// The player's edits changed where `changed` says: every coarse chunk holding
    /// such a place is made again (a loaded one stays drawn until its new version
    /// replaces it; a task under way, started with the old edits, starts again).
    /// Returns how many coarse chunks that is.
    pub(super) fn edited(&mut self, changed: &Changed) -> usize {
        let holders: BTreeSet<LodPos> = match changed {
            Changed::Nothing => return 0,
            // Loaded ones, and those under way (started with the old edits).
            Changed::Everything => self
                .loaded
                .keys()
                .copied()
                .chain(self.pipeline.pending_keys())
                .collect(),
            Changed::Chunks(chunks) => chunks
                .iter()
                .flat_map(|&c| (1..=MAX_LEVEL).map(move |l| LodPos::new(0, c).ancestor(l)))
                .collect(),
        };
        let mut again = 0;
        for lod in holders {
            let pending = self.pipeline.cancel(lod);
            match self.loaded.get_mut(&lod) {
                Some(c) => c.edited = true,
                None if pending => {}
                None => continue,
            }
            again += 1;
        }
        if again > 0 {
            self.queue_stale = true;
            self.pipeline.rewind();
        }
        again
    }

    /// Orders the wanted chunks not started yet, most urgent first (see
    /// [`urgency`]), for the player's feet at `feet` heading along `travel`.
    pub(super) fn make_queue(&mut self, feet: DVec3, travel: DVec3) {
        let Some((_, rings)) = self.wanted_for else {
            return;
        };
        let p = &self.pipeline;
        let mut queue: Vec<(Urgency, LodPos)> = p
            .wanted()
            .iter()
            .filter(|&&n| !(self.is_current(n) || p.is_pending(n)))
            .map(|&n| {
                let cover = self.cover.get(&n).copied().unwrap_or(Cover::Hole);
                (urgency(rings, feet, travel, n, cover), n)
            })
            .collect();
        queue.sort_unstable();
        self.urgency = queue.iter().map(|&(u, n)| (n, u)).collect();
        self.pipeline
            .set_order(queue.into_iter().map(|(_, n)| n).collect());
        self.queue_stale = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_remakes_the_loaded_coarse_chunks_that_hold_it() {
        let mut w = HorizonWorld::default();
        let chunk = ChunkPos::new(5, 1, -3);
        let holder = |level| LodPos::new(0, chunk).ancestor(level);
        let elsewhere = LodPos::new(1, ChunkPos::new(40, 0, 40));
        for lod in [holder(1), holder(3), elsewhere] {
            w.loaded.insert(lod, CoarseChunk::default());
        }
        assert!(w.is_current(holder(1)));
        let changed = Changed::Chunks(BTreeSet::from([chunk]));
        assert_eq!(w.edited(&changed), 2);
        assert!(!w.is_current(holder(1)) && !w.is_current(holder(3)));
        assert!(w.is_current(elsewhere));
        // Still loaded (and drawn) until the new versions arrive.
        assert!(w.loaded.contains_key(&holder(1)));
        assert_eq!(w.edited(&Changed::Nothing), 0);
        assert_eq!(w.edited(&Changed::Everything), 3);
        assert!(!w.is_current(elsewhere));
    }
}
