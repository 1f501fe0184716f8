//! Which coarse work starts first and how much of it is kept going: pure functions
//! of how each missing chunk's place is covered meanwhile, where the player is
//! heading, and how long the workers take.
//!
//! The order is by what the player will need: first the places nothing covers
//! (holes), those on screen and those the player flies towards before they come
//! within the horizon; then chunks that let finer ones unload (full-detail chunks
//! kept for cover are bounded, [`crate::streaming::Chunks::max_kept`]); then chunks that
//! refine what a coarser one covers, finer levels first; last the holes beyond the
//! horizon that the player is not heading towards.
//!
//! How much: enough tasks in flight that the workers stay busy until the next frame
//! collects and refills them, whatever the frame rate (a frame's worth of work and
//! a half, from the mean time of a coarse chunk), except while full-detail chunks
//! wait to start: they keep the workers first.

use std::time::Duration;

use bevy::math::DVec3;
use terravox_worldgen::LodPos;

use super::Rings;

/// Coarse tasks in flight per worker while full-detail chunks wait to start (the
/// coarse chunk that replaces full-detail ones behind a moving player must not wait
/// for every chunk ahead, but those come first).
const WHILE_STREAMING: usize = 2;
/// Coarse tasks in flight per worker at least once every full-detail chunk started.
const MIN_PER_WORKER: usize = 8;
/// Frames longer than this are taken as this long: a hitch does not queue seconds
/// of coarse work ahead of the full-detail chunks started next frame.
const LONGEST_FRAME: Duration = Duration::from_millis(100);

/// How the place of a wanted coarse chunk that is not loaded yet is covered
/// meanwhile (found by the walk over the levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cover {
    /// Nothing covers all of it: a hole on screen once it lies within the horizon.
    Hole,
    /// Its finer chunks cover it, and stay loaded for that.
    Finer,
    /// A coarser chunk still drawn covers it.
    Coarser,
}

/// The order coarse tasks start in, smallest first: a class, then a key within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Urgency(u8, u32, u32);

/// How soon the player needs coarse chunk `n`, not loaded yet and covered as `cover`
/// says, with the feet at `feet` heading along `travel` (any length; zero: not
/// moving) under `rings`:
///
/// 1. holes within the horizon or coming into it, by the blocks the player still
///    has to travel before they do (none for those within), then nearest first;
/// 2. chunks covered by their finer ones, finer levels first, nearest first;
/// 3. chunks covered by a coarser one, finer levels first, nearest first;
/// 4. holes beyond the horizon that the player is not heading towards, nearest
///    first.
pub(crate) fn urgency(
    rings: Rings,
    feet: DVec3,
    travel: DVec3,
    n: LodPos,
    cover: Cover,
) -> Urgency {
    let o = n.origin();
    let e = n.edge() as f64;
    let gap = |p: f64, lo: i64| (lo as f64 - p).max(p - (lo as f64 + e)).max(0.0);
    let (dx, dz) = (gap(feet.x, o[0]), gap(feet.z, o[2]));
    let d = (dx * dx + dz * dz).sqrt();
    let blocks = |v: f64| v.min(u32::MAX as f64) as u32;
    let level = u32::from(n.level);
    match cover {
        Cover::Hole => {
            let beyond = d - rings.horizon as f64;
            if beyond <= 0.0 {
                return Urgency(0, 0, blocks(d));
            }
            // The component of the travel towards the chunk's centre: the player
            // covers `beyond` blocks of distance to it in `beyond / towards` blocks.
            let to = DVec3::new(
                o[0] as f64 + e / 2.0 - feet.x,
                0.0,
                o[2] as f64 + e / 2.0 - feet.z,
            );
            let flat = DVec3::new(travel.x, 0.0, travel.z);
            let towards = to.normalize_or_zero().dot(flat.normalize_or_zero());
            if towards > 0.0 {
                Urgency(0, blocks(beyond / towards), blocks(d))
            } else {
                Urgency(3, 0, blocks(d))
            }
        }
        Cover::Finer => Urgency(1, level, blocks(d)),
        Cover::Coarser => Urgency(2, level, blocks(d)),
    }
}

/// How much coarse work a frame keeps going.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Depth {
    /// Worker threads.
    pub workers: usize,
    /// The last frame's duration.
    pub frame: Duration,
    /// Mean time of one coarse task (generate + mesh).
    pub task: Duration,
    /// Frames of work to keep queued per worker.
    pub frames: f32,
    /// Most tasks in flight per worker.
    pub most_per_worker: usize,
    /// Some full-detail chunk waits to start.
    pub streaming: bool,
}

impl Depth {
    /// Coarse tasks to keep in flight: `frames` frames of work per worker at the
    /// mean task time (a frame counting at most [`LONGEST_FRAME`]), between
    /// [`MIN_PER_WORKER`] and `most_per_worker` per worker;
    /// [`WHILE_STREAMING`] per worker while full-detail chunks wait to start. Twice
    /// the frame time keeps twice the tasks in flight, so the coarse chunks done a
    /// second do not depend on the frame rate.
    pub(crate) fn tasks(self) -> usize {
        let workers = self.workers.max(1);
        if self.streaming {
            return WHILE_STREAMING * workers;
        }
        // In nanoseconds: whole numbers, so round figures divide exactly.
        let task = self.task.max(Duration::from_micros(10)).as_nanos() as f64;
        let frame = self.frame.min(LONGEST_FRAME).as_nanos() as f64;
        let per_worker = (frame * self.frames as f64 / task).ceil() as usize;
        workers * per_worker.clamp(MIN_PER_WORKER, self.most_per_worker.max(MIN_PER_WORKER))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_voxel::ChunkPos;

    const RINGS: Rings = Rings::new(12, 8192);

    /// The top-level chunk (1024 blocks) whose box starts `dx`, `dz` of its edges away.
    fn top(dx: i32, dz: i32) -> LodPos {
        LodPos::new(5, ChunkPos::new(dx, 0, dz))
    }

    fn order(travel: DVec3, missing: &[(LodPos, Cover)]) -> Vec<LodPos> {
        let feet = DVec3::new(512.0, 0.0, 512.0);
        let mut v: Vec<_> = missing
            .iter()
            .map(|&(n, c)| (urgency(RINGS, feet, travel, n, c), n))
            .collect();
        v.sort();
        v.into_iter().map(|(_, n)| n).collect()
    }

    #[test]
    fn holes_ahead_come_first_then_what_frees_finer_chunks_then_refinements() {
        let east = DVec3::X;
        // The feet 512 blocks into top chunk (0, 0); its chunks are 1024 blocks.
        let ahead_far = top(8, 0); // 7680 blocks to its box: within the horizon
        let ahead_rim = top(9, 0); // 8704: beyond it, coming in after 512 blocks east
        let ahead_side = top(7, 6); // 8719: beyond it, coming in after ~690 blocks
        let behind_rim = top(-9, 0); // 8704 behind: left behind
        let refine = LodPos::new(1, ChunkPos::new(14, 0, 0));
        let refine_far = LodPos::new(3, ChunkPos::new(8, 0, 0));
        let frees = LodPos::new(1, ChunkPos::new(-9, 0, 0));
        let missing = [
            (behind_rim, Cover::Hole),
            (refine_far, Cover::Coarser),
            (refine, Cover::Coarser),
            (frees, Cover::Finer),
            (ahead_side, Cover::Hole),
            (ahead_rim, Cover::Hole),
            (ahead_far, Cover::Hole),
        ];
        assert_eq!(
            order(east, &missing),
            [
                ahead_far, ahead_rim, ahead_side, frees, refine, refine_far, behind_rim
            ]
        );
        // Standing still, the holes beyond the horizon wait: none comes closer.
        assert_eq!(
            order(DVec3::ZERO, &missing)[..4],
            [ahead_far, frees, refine, refine_far]
        );
        // Flying west, the hole behind is the one that comes in.
        assert_eq!(order(-east, &missing)[..2], [ahead_far, behind_rim]);
        // The vertical part of the travel does not count.
        assert_eq!(
            order(DVec3::new(1.0, -5.0, 0.0), &missing),
            order(east, &missing)
        );
    }

    #[test]
    fn the_depth_keeps_the_workers_busy_for_the_frame_whatever_the_rate() {
        let at = |frame_ms, workers| Depth {
            workers,
            frame: Duration::from_millis(frame_ms),
            task: Duration::from_micros(500),
            frames: 1.5,
            most_per_worker: 256,
            streaming: false,
        };
        // 1.5 frames of 16 ms at 0.5 ms a task: 48 tasks; twice the frame, twice
        // the tasks (the same tasks a second); as many per worker.
        assert_eq!(at(16, 1).tasks(), 48);
        assert_eq!(at(32, 1).tasks(), 96);
        assert_eq!(at(16, 4).tasks(), 4 * 48);
        // Up to the most per worker; a hitch counts as the longest frame.
        assert_eq!(at(90, 1).tasks(), 256);
        let hitch = Depth {
            most_per_worker: 1000,
            ..at(2000, 1)
        };
        assert_eq!(hitch.tasks(), 300);
        // Fast frames keep a few per worker; waiting full-detail chunks come first.
        assert_eq!(at(1, 2).tasks(), 2 * MIN_PER_WORKER);
        let streaming = Depth {
            streaming: true,
            ..at(16, 3)
        };
        assert_eq!(streaming.tasks(), 3 * WHILE_STREAMING);
    }
}
