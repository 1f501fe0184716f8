//! Where a player appears: at the vantage near the origin whose first frame shows
//! the most (`Generator::spawn`: a range or a valley below, water, the sky and no
//! wall in the face), else where `--at` says or, in a world without land, above the
//! sea, flying, looking the way the same rule rates best (`Generator::view_from`);
//! `--look` sets the view. Found once per world on a worker.

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_worldgen::{Generator, sequential, yaw_towards};

use super::body::Player;
use crate::config::StartView;
use crate::latest::Latest;
use crate::world::{ActiveWorld, WorldChanged};

/// How high above the sea a player of a world without land appears (flying).
const ABOVE_SEA: f64 = 24.0;

/// Where a new player stands and how they look, as feet and `[yaw, pitch]` in radians
/// (unless `--at` or `--look` say otherwise): at the vantage whose first frame
/// [`Generator::spawn`] rates best; in a world without land, above the sea at the
/// origin, looking the way [`spawn_view`] rates best.
pub fn spawn_pose(generator: &Generator) -> (DVec3, [f32; 2]) {
    land(generator).unwrap_or_else(|| {
        let feet = above_sea(generator);
        (feet, spawn_view(generator, feet))
    })
}

/// The land the bounded search finds, if any: the feet there and the view the search
/// rated best from it (one job after another: it runs on a worker of its own).
fn land(generator: &Generator) -> Option<(DVec3, [f32; 2])> {
    let spawn = generator.spawn(&sequential)?;
    let [x, y, z] = spawn.at;
    let feet = DVec3::new(x as f64 + 0.5, y as f64, z as f64 + 0.5);
    Some((feet, [yaw_towards(spawn.facing), spawn.pitch]))
}

/// Over the sea at the origin, for a world without land near it.
pub(super) fn above_sea(generator: &Generator) -> DVec3 {
    DVec3::new(0.5, generator.sea_level() as f64 + ABOVE_SEA, 0.5)
}

/// The view a player standing at `feet` starts with where the spawn search chose no
/// place (placed by `--at` without `--look`, or over a world without land), as
/// `[yaw, pitch]` in radians: the one rule the spawn search rates its places by
/// ([`Generator::view_from`]: the first frame's).
pub fn spawn_view(generator: &Generator, feet: DVec3) -> [f32; 2] {
    let at = [feet.x, feet.y, feet.z].map(|v| v.floor() as i32);
    let view = generator.view_from(at, &sequential);
    [yaw_towards(view.facing), view.pitch]
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
    /// The search for the active world's spawn (a newer world's search supersedes
    /// an older one's).
    finding: Latest<Pose>,
    pose: Option<Pose>,
}

impl Spawn {
    /// Whether the player has been placed in the active world.
    pub(crate) fn placed(&self) -> bool {
        !self.finding.running() && self.pose.is_some()
    }

    /// Where the player appears in the active world, once placed there.
    pub(crate) fn feet(&self) -> Option<DVec3> {
        self.pose.filter(|_| self.placed()).map(|p| p.feet)
    }

    /// Whether the spawn is being looked for.
    pub(super) fn finding(&self) -> bool {
        self.finding.running()
    }

    /// Starts looking for the spawn of `world` (forgetting the last one).
    pub(super) fn find(&mut self, world: &ActiveWorld, start: StartView) {
        let generator = world.generator().clone();
        self.pose = None;
        self.finding
            .start((), |_| async move { find_pose(&generator, start) });
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
    let Some(pose) = spawn.finding.poll() else {
        return;
    };
    spawn.pose = Some(pose);
    for mut p in &mut player {
        p.position = pose.feet;
        [p.yaw, p.pitch] = pose.view;
        p.flying = pose.flying;
        p.velocity = Vec3::ZERO;
    }
}
