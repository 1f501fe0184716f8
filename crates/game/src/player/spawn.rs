//! Where a player appears: on land near the origin facing the relief in sight (a
//! mountain range or a valley: `Generator::spawn`), else where `--at` says or, in a
//! world without land, above the sea, flying, looking along the most open direction;
//! `--look` sets the view. Found once per world on a worker.

use std::f32::consts::TAU;

use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_worldgen::{Generator, SPAWN_RADIUS};

use super::body::{EYE, Player};
use crate::config::StartView;
use crate::world::{ActiveWorld, WorldChanged};

/// How high above the sea a player of a world without land appears (flying).
const ABOVE_SEA: f64 = 24.0;
/// The pitch a new player starts with: a little down, so that both the land nearby and
/// the relief they face (a range rising ahead, or a valley below) are in frame.
const LOOK_DOWN: f32 = -0.15;

/// Where a new player stands and how they look, as feet and `[yaw, pitch]` in radians
/// (unless `--at` or `--look` say otherwise): on land near the origin with relief in
/// sight, facing it ([`Generator::spawn`]), looking a little down; where trees or
/// ground close by hide every direction (in the woods), or in a world without land
/// (above the sea at the origin), facing the most open direction ([`spawn_view`]).
pub fn spawn_pose(generator: &Generator) -> (DVec3, [f32; 2]) {
    land(generator).unwrap_or_else(|| {
        let feet = above_sea(generator);
        (feet, spawn_view(generator, feet))
    })
}

/// The yaw in radians that looks along the horizontal direction `[x, z]` (yaw 0
/// looks towards `-z`, a quarter turn towards `-x`).
pub fn yaw_towards([x, z]: [f32; 2]) -> f32 {
    (-x).atan2(-z)
}

/// The land the bounded search finds, if any: the feet there and the view of its
/// relief (where nothing near blocks it, else the most open direction).
fn land(generator: &Generator) -> Option<(DVec3, [f32; 2])> {
    let spawn = generator.spawn(0, 0, SPAWN_RADIUS)?;
    let [x, y, z] = spawn.at;
    let feet = DVec3::new(x as f64 + 0.5, y as f64, z as f64 + 0.5);
    let view = if spawn.clear {
        [yaw_towards(spawn.facing), LOOK_DOWN]
    } else {
        spawn_view(generator, feet)
    };
    Some((feet, view))
}

/// Over the sea at the origin, for a world without land near it.
pub(super) fn above_sea(generator: &Generator) -> DVec3 {
    DVec3::new(0.5, generator.sea_level() as f64 + ABOVE_SEA, 0.5)
}

/// The view a player standing at `feet` starts with where the spawn search chose no
/// view (placed by `--at` without `--look`, in the woods, or over a world without
/// land), as `[yaw, pitch]` in radians: of 16 compass directions, the one where the
/// terrain stays below the eye for the longest stretch with no tree in the way (up to
/// 96 blocks; ties go to the lower land, a view over it), looking a little down onto
/// the land. Water counts as flat.
pub fn spawn_view(generator: &Generator, feet: DVec3) -> [f32; 2] {
    const DIRECTIONS: usize = 16;
    const REACH: u32 = 96;
    let eye = feet.y + EYE as f64;
    let water = generator.sea_level() as f64 + 1.0;
    let mut best = (0.0, 0, f64::INFINITY);
    for i in 0..DIRECTIONS {
        let yaw = i as f32 * TAU / DIRECTIONS as f32;
        let dir = Vec2::new(-yaw.sin(), -yaw.cos()).as_dvec2();
        let (mut clear, mut sum) = (REACH, 0.0);
        for d in 1..=REACH {
            let p = feet.xz() + dir * d as f64;
            let (x, z) = (p.x.floor() as i32, p.y.floor() as i32);
            let surface = (generator.surface_height(x, z) as f64 + 1.0).max(water);
            if surface > eye || generator.tree_near(x, z) {
                clear = d;
                break;
            }
            sum += surface;
        }
        let mean = sum / clear as f64;
        if clear > best.1 || (clear == best.1 && mean < best.2) {
            best = (yaw, clear, mean);
        }
    }
    [best.0, LOOK_DOWN]
}

/// Feet position and `[yaw, pitch]` of a new player, and whether it starts flying
/// (when placed by `--at`, so the view stays where it was put, or over the sea).
/// `--look` wins over the view the spawn search chose.
fn find_pose(generator: &Generator, start: StartView) -> Pose {
    let (feet, view, flying) = match start.at {
        Some(at) => (at, None, true),
        None => match land(generator) {
            Some((feet, view)) => (feet, Some(view), false),
            None => (above_sea(generator), None, true),
        },
    };
    let view = match start.look {
        Some([yaw, pitch]) => [yaw.to_radians(), pitch.to_radians()],
        None => view.unwrap_or_else(|| spawn_view(generator, feet)),
    };
    Pose { feet, view, flying }
}

/// Where and how a player appears.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pose {
    feet: DVec3,
    /// Yaw and pitch in radians.
    view: [f32; 2],
    /// Placed in the air (by `--at`, or over a world without land).
    flying: bool,
}

/// Where the player appears in the active world: found once per world on a worker
/// (the search can take a moment), then reused when the player falls out of the
/// world. Until it is found the player waits, frozen.
#[derive(Resource, Default)]
pub(crate) struct Spawn {
    finding: Option<Task<Pose>>,
    pose: Option<Pose>,
}

impl Spawn {
    /// Whether the player has been placed in the active world.
    pub(crate) fn placed(&self) -> bool {
        self.finding.is_none() && self.pose.is_some()
    }

    /// Where the player appears in the active world, once placed there.
    pub(super) fn feet(&self) -> Option<DVec3> {
        self.pose.filter(|_| self.placed()).map(|p| p.feet)
    }

    /// Whether the spawn is being looked for.
    pub(super) fn finding(&self) -> bool {
        self.finding.is_some()
    }

    /// Starts looking for the spawn of `world` (forgetting the last one).
    pub(super) fn find(&mut self, world: &ActiveWorld, start: StartView) {
        let generator = world.generator().clone();
        self.pose = None;
        self.finding =
            Some(AsyncComputeTaskPool::get().spawn(async move { find_pose(&generator, start) }));
    }
}

/// Looks for the new world's spawn (on land, facing the relief in sight).
pub(super) fn respawn_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    mut spawn: ResMut<Spawn>,
) {
    changed.clear();
    spawn.find(&world, StartView::default());
}

/// Puts the player where the spawn search found, once it has.
pub(super) fn place_player(mut spawn: ResMut<Spawn>, mut player: Query<&mut Player>) {
    let Some(pose) = spawn.finding.as_mut().and_then(check_ready) else {
        return;
    };
    spawn.finding = None;
    spawn.pose = Some(pose);
    for mut p in &mut player {
        p.position = pose.feet;
        [p.yaw, p.pitch] = pose.view;
        p.flying = pose.flying;
        p.velocity = Vec3::ZERO;
    }
}
