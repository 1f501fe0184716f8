//! Cave culling: each chunk's face graph comes with its mesh, and [`Culling`] walks
//! them from the camera's chunk whenever the camera enters another chunk or a graph
//! changes ([`terravox_mesher::visibility`]). Chunks the walk cannot reach are
//! hidden; those it could not reach when they were wanted (deep rock around closed
//! caves) are generated without a mesh, after the reachable ones, and meshed once the
//! walk reaches them.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use terravox_mesher::visibility::{Reach, reachable};
use terravox_voxel::ChunkPos;

use super::Chunks;
use super::view::{UNLOAD_MARGIN, VERTICAL_RADIUS};
use crate::config::ViewDistance;
use crate::world::Eye;

/// Frames between walks while chunks only load (each walk costs ~0.16 ms at view
/// distance 12).
const WALK_AFTER_LOADS: u32 = 8;

/// Cave culling: the chunks the last walk from the camera's chunk through the loaded
/// chunks' face graphs could not reach, which are neither drawn nor meshed.
#[derive(Resource, Default)]
pub struct Culling {
    /// The last walk.
    reach: Option<Reach>,
    /// The chunk holding the eye when it was walked.
    camera: Option<ChunkPos>,
    /// Something may have opened since (a graph changed, chunks unloaded): walk now.
    opened: bool,
    /// Chunks loaded since, and frames since the walk. Loading a chunk can only hide
    /// others (it counted as open), so these walks wait for [`WALK_AFTER_LOADS`]
    /// frames.
    loaded: bool,
    frames: u32,
    /// Main-thread time of the last walk.
    pub walk_time: Duration,
    /// Culling is off (`--no-culling`): nothing walks, nothing is hidden.
    off: bool,
}

/// Loaded chunks by what culling does to them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CullingCounts {
    /// Chunks whose mesh has faces (or would, for those not meshed): what would be
    /// drawn without culling.
    pub with_faces: usize,
    /// Those of them culling lets through.
    pub drawn: usize,
    /// Chunks generated but not meshed (hidden since they loaded).
    pub unmeshed: usize,
}

impl Culling {
    /// Culling on or off (`--no-culling`), nothing walked yet.
    pub(super) fn new(on: bool) -> Self {
        Self {
            off: !on,
            ..default()
        }
    }

    /// Forgets the walk (a new world): the next frame walks again.
    pub(super) fn clear(&mut self) {
        *self = Self::new(!self.off);
    }

    /// Whether culling hides chunk `p`: the walk did not reach it.
    pub fn hides(&self, p: ChunkPos) -> bool {
        self.reach.as_ref().is_some_and(|r| r.hides(p))
    }

    /// Notes that something may have opened (a graph changed, chunks unloaded).
    pub(super) fn note_opened(&mut self) {
        self.opened = true;
    }

    /// Notes that chunks loaded.
    pub(super) fn note_loaded(&mut self) {
        self.loaded = true;
    }

    /// What culling does to the loaded chunks now.
    pub fn counts(&self, chunks: &Chunks) -> CullingCounts {
        let mut c = CullingCounts::default();
        for (&p, lc) in &chunks.world.loaded {
            // A chunk not meshed has faces if it is not all one block (counting those
            // of stone and ore only, which have none unless a neighbour is open).
            let faces = lc.has_faces || (!lc.meshed && !lc.blocks.is_uniform());
            c.with_faces += usize::from(faces);
            c.drawn += usize::from(lc.has_faces && !self.hides(p));
            c.unmeshed += usize::from(!lc.meshed);
        }
        c
    }
}

/// Walks the face graphs from the camera's chunk when the camera entered another
/// chunk or a graph changed, and queues meshes for the chunks generated while hidden
/// that it reaches now.
pub(super) fn walk_culling(
    eye: Res<Eye>,
    view: Res<ViewDistance>,
    mut culling: ResMut<Culling>,
    mut chunks: ResMut<Chunks>,
) {
    if culling.off {
        return;
    }
    let camera = eye.0.to_chunk().0;
    let c = culling.bypass_change_detection();
    c.frames += 1;
    let loads_due = c.loaded && c.frames >= WALK_AFTER_LOADS;
    if c.camera == Some(camera) && !c.opened && !loads_due {
        return;
    }
    let start = Instant::now();
    let w = &mut chunks.world;
    // The box holds every chunk that may be loaded (the eye may be a chunk above the
    // feet that loading follows).
    let vertical = (VERTICAL_RADIUS + 1) as u32 + UNLOAD_MARGIN;
    let graphs = w.loaded.iter().map(|(&p, lc)| (p, lc.graph));
    let reach = reachable(camera, view.0 + UNLOAD_MARGIN, vertical, vertical, graphs);
    for (&pos, lc) in w.loaded.iter_mut() {
        if !lc.meshed && !reach.hides(pos) {
            lc.meshed = true;
            w.remesh_wanted.insert(pos);
        }
    }
    *culling = Culling {
        reach: Some(reach),
        camera: Some(camera),
        opened: false,
        loaded: false,
        frames: 0,
        walk_time: start.elapsed(),
        off: false,
    };
}
