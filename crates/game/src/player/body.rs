//! The player's body: an upright box moved by walking, jumping, gravity or flying,
//! colliding with solid blocks one axis at a time. Pure physics on plain values: the
//! systems in the parent module feed it blocks and input.

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_voxel::BlockPos;

/// Half the body's width (x and z).
pub const HALF_WIDTH: f32 = 0.3;
/// Body height.
pub const HEIGHT: f32 = 1.8;
/// Eye height above the feet.
pub const EYE: f32 = 1.62;
/// Walking speed, blocks per second.
pub const WALK: f32 = 5.0;
/// Sprint factor.
pub const SPRINT: f32 = 1.8;
/// Flying speed, blocks per second.
pub const FLY: f32 = 16.0;
/// Gravity, blocks per second squared.
pub const GRAVITY: f32 = 28.0;
/// Jump take-off speed.
pub const JUMP: f32 = 8.6;

/// The player's body. Its position is kept in `f64` world coordinates, so walking is
/// exact anywhere in the world; the entity's `Transform` only places it relative to
/// the render origin.
#[derive(Component, Debug, Default, Clone)]
pub struct Player {
    /// The feet (bottom centre), in world coordinates.
    pub position: DVec3,
    /// Velocity, blocks per second.
    pub velocity: Vec3,
    /// Yaw (radians, around +y; 0 looks towards -z).
    pub yaw: f32,
    /// Pitch (radians, up is positive).
    pub pitch: f32,
    /// Standing on something.
    pub on_ground: bool,
    /// F: flying, no gravity.
    pub flying: bool,
    /// N: no collision (only while flying).
    pub noclip: bool,
}

/// What the player asks to do this frame (read from the keys while playing).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInput {
    /// Forward (+) / back (-).
    pub forward: f32,
    /// Right (+) / left (-).
    pub right: f32,
    /// Jump (walking) or up (flying).
    pub up: bool,
    /// Down (flying).
    pub down: bool,
    /// Sprint.
    pub sprint: bool,
}

/// One movement step of the player at [`Player::position`], computed in a frame
/// anchored at the block holding the feet, so `f32` stays exact however far from the
/// origin the player is. `solid` answers for world block positions, as in [`step`].
pub fn step_in_world(
    p: &mut Player,
    input: MoveInput,
    dt: f32,
    solid: &dyn Fn(BlockPos) -> Option<bool>,
) {
    let anchor = BlockPos::containing_f64(p.position.to_array());
    let base = DVec3::new(anchor.x as f64, anchor.y as f64, anchor.z as f64);
    let local = (p.position - base).as_vec3();
    let moved = step(p, local, input, dt, &|b| {
        solid(b.offset([anchor.x, anchor.y, anchor.z]))
    });
    p.position = base + moved.as_dvec3();
}

/// One movement step. `solid` answers whether a block is solid, or `None` if its
/// chunk is not loaded (treated as solid, and the body does not fall into it).
pub fn step(
    p: &mut Player,
    feet: Vec3,
    input: MoveInput,
    dt: f32,
    solid: &dyn Fn(BlockPos) -> Option<bool>,
) -> Vec3 {
    let (sin, cos) = p.yaw.sin_cos();
    let forward = Vec3::new(-sin, 0.0, -cos);
    let right = Vec3::new(cos, 0.0, -sin);
    let wish = (forward * input.forward + right * input.right).normalize_or_zero();
    let below_loaded = solid(BlockPos::containing((feet - Vec3::Y * 0.5).to_array())).is_some();
    if p.flying {
        let speed = FLY * if input.sprint { 2.5 } else { 1.0 };
        let vertical = input.up as i32 as f32 - input.down as i32 as f32;
        p.velocity = (wish + Vec3::Y * vertical) * speed;
    } else {
        let speed = WALK * if input.sprint { SPRINT } else { 1.0 };
        p.velocity.x = wish.x * speed;
        p.velocity.z = wish.z * speed;
        if input.up && p.on_ground {
            p.velocity.y = JUMP;
        }
        if below_loaded {
            p.velocity.y = (p.velocity.y - GRAVITY * dt).max(-60.0);
        } else {
            // Wait for the ground to load rather than fall through it.
            p.velocity.y = p.velocity.y.max(0.0);
        }
    }
    let delta = p.velocity * dt;
    if p.flying && p.noclip {
        p.on_ground = false;
        return feet + delta;
    }
    let (pos, blocked) = move_body(feet, delta, &|b| solid(b).unwrap_or(true));
    if blocked[1] {
        p.on_ground = delta.y < 0.0;
        p.velocity.y = 0.0;
    } else {
        p.on_ground = false;
    }
    pos
}

/// Moves an upright box (feet at `feet`, [`HALF_WIDTH`], [`HEIGHT`]) by `delta`, one
/// axis at a time (y, then x, then z), stopping at solid blocks. Returns the new feet
/// position and which axes were blocked. Large moves are split into sub-steps of at
/// most half a block so nothing is tunnelled through.
pub fn move_body(feet: Vec3, delta: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> (Vec3, [bool; 3]) {
    let steps = (delta.abs().max_element() / 0.45).ceil().max(1.0) as i32;
    let part = delta / steps as f32;
    let mut pos = feet;
    let mut blocked = [false; 3];
    for _ in 0..steps {
        for axis in [1, 0, 2] {
            if blocked[axis] {
                continue;
            }
            let mut next = pos;
            next[axis] += part[axis];
            if part[axis] != 0.0 && overlaps_solid(next, solid) {
                blocked[axis] = true;
                // Snap flush against the block face.
                next[axis] = if part[axis] > 0.0 {
                    let edge = if axis == 1 {
                        next[axis] + HEIGHT
                    } else {
                        next[axis] + HALF_WIDTH
                    };
                    let face = edge.floor();
                    face - if axis == 1 { HEIGHT } else { HALF_WIDTH } - 1e-4
                } else {
                    let edge = if axis == 1 {
                        next[axis]
                    } else {
                        next[axis] - HALF_WIDTH
                    };
                    let face = edge.floor() + 1.0;
                    face + if axis == 1 { 0.0 } else { HALF_WIDTH } + 1e-4
                };
                if overlaps_solid(next, solid) {
                    next[axis] = pos[axis];
                }
            }
            pos = next;
        }
    }
    (pos, blocked)
}

/// Whether the body at `feet` overlaps a solid block.
pub fn overlaps_solid(feet: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> bool {
    let min = feet - Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH);
    let max = feet + Vec3::new(HALF_WIDTH, HEIGHT, HALF_WIDTH);
    let (lo, hi) = (
        min.floor().as_ivec3(),
        (max - Vec3::splat(1e-5)).floor().as_ivec3(),
    );
    for y in lo.y..=hi.y {
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                if solid(BlockPos::new(x, y, z)) {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use terravox_voxel::{Chunk, ChunkPos};
    use terravox_worldgen::{Generator, Seed, presets};

    use super::*;

    /// Generated chunks, cached, for walking over real terrain.
    struct Terrain {
        generator: Generator,
        cache: RefCell<HashMap<ChunkPos, Chunk>>,
    }

    impl Terrain {
        fn solid(&self, b: BlockPos) -> Option<bool> {
            let (c, l) = b.to_chunk();
            let mut cache = self.cache.borrow_mut();
            let chunk = cache.entry(c).or_insert_with(|| self.generator.generate(c));
            Some(chunk.get(l[0], l[1], l[2]).is_solid())
        }
    }

    #[test]
    fn walking_into_walls_and_across_borders_never_ends_inside_a_block() {
        for preset in ["cliffs", "amplified", "islands"] {
            let generator = Generator::new(
                &presets::builtin(preset)
                    .unwrap()
                    .with_seed(Seed::new("walk")),
            )
            .unwrap();
            let [x, y, z] = generator
                .find_land(0, 0, 2048)
                .expect("land near the origin");
            let spawn = Vec3::new(x as f32 + 0.5, y as f32, z as f32 + 0.5);
            let terrain = Terrain {
                generator,
                cache: Default::default(),
            };
            let solid = |b| terrain.solid(b);
            let mut longest: f32 = 0.0;
            for (i, yaw) in [0.0f32, 1.3, 2.6, 3.9, 5.2].into_iter().enumerate() {
                let mut p = Player {
                    yaw,
                    ..Default::default()
                };
                let mut feet = spawn + Vec3::Y * 3.0;
                let mut landed = false;
                let mut walked = 0.0;
                for frame in 0..1200 {
                    let input = MoveInput {
                        forward: 1.0,
                        up: frame % 40 == 0,
                        sprint: i % 2 == 0,
                        ..Default::default()
                    };
                    let next = step(&mut p, feet, input, 1.0 / 30.0, &solid);
                    walked += (next - feet).xz().length();
                    feet = next;
                    landed |= p.on_ground;
                    assert!(
                        !overlaps_solid(feet, &|b| solid(b).unwrap()),
                        "{preset}: inside a block at {feet} (yaw {yaw}, frame {frame})"
                    );
                }
                assert!(landed, "{preset}: never touched the ground");
                // 40 s of walking forward, jumping over steps and sliding along walls,
                // covers ground: a walker stuck in place fails.
                // A walker stuck in place fails: each one covers ground, however
                // rough (amplified's pits stop some after ~10 blocks).
                assert!(
                    walked > 5.0,
                    "{preset} yaw {yaw}: walked only {walked} blocks"
                );
                longest = longest.max(walked);
            }
            // 40 s forward, jumping over steps and sliding along walls, goes far.
            assert!(
                longest > 30.0,
                "{preset}: the longest walk was {longest} blocks"
            );
        }
    }

    #[test]
    fn unloaded_ground_holds_the_player() {
        let mut p = Player::default();
        let feet = Vec3::new(0.5, 10.0, 0.5);
        let after = step(&mut p, feet, MoveInput::default(), 0.1, &|_| None);
        assert!(after.y >= feet.y, "fell into an unloaded chunk");
    }

    #[test]
    fn a_wall_stops_the_body_flush_and_the_floor_holds_it() {
        // Floor at y < 0, a wall at x >= 3.
        let solid = |b: BlockPos| b.y < 0 || b.x >= 3;
        let (pos, blocked) = move_body(Vec3::new(0.5, 0.0, 0.5), Vec3::new(5.0, -1.0, 0.0), &solid);
        assert_eq!(blocked, [true, true, false]);
        assert!((pos.x - (3.0 - HALF_WIDTH)).abs() < 1e-3, "{pos}");
        assert!(pos.y.abs() < 1e-3, "{pos}");
        assert!(!overlaps_solid(pos, &solid));
    }

    #[test]
    fn jumping_rises_and_gravity_brings_the_body_back() {
        let solid = |b: BlockPos| Some(b.y < 0);
        let mut p = Player::default();
        let mut feet = Vec3::new(0.5, 0.0, 0.5);
        feet = step(&mut p, feet, MoveInput::default(), 1.0 / 60.0, &solid);
        assert!(p.on_ground);
        let jump = MoveInput {
            up: true,
            ..Default::default()
        };
        feet = step(&mut p, feet, jump, 1.0 / 60.0, &solid);
        let mut top: f32 = feet.y;
        for _ in 0..120 {
            feet = step(&mut p, feet, MoveInput::default(), 1.0 / 60.0, &solid);
            top = top.max(feet.y);
        }
        // v^2 / 2g = 8.6^2 / 56 = 1.32 blocks.
        assert!((1.2..1.4).contains(&top), "jumped {top}");
        assert!(p.on_ground && feet.y.abs() < 1e-3, "{feet}");
    }

    #[test]
    fn walking_and_flying_keep_their_speed_at_the_far_edge_of_the_world() {
        let edge = (terravox_worldgen::WORLD_LIMIT - 64) as f64;
        for start in [
            DVec3::new(edge, 0.0, edge),
            DVec3::new(-edge, 0.0, 3.5),
            DVec3::new(0.5, 0.0, 0.5),
        ] {
            // Flat ground below y = 0 everywhere.
            let solid = |b: BlockPos| Some(b.y < 0);
            let mut p = Player {
                position: start,
                yaw: std::f32::consts::FRAC_PI_2, // towards -x
                ..Default::default()
            };
            let walk = MoveInput {
                forward: 1.0,
                ..Default::default()
            };
            for _ in 0..60 {
                step_in_world(&mut p, walk, 1.0 / 60.0, &solid);
            }
            let moved = p.position - start;
            assert!(
                (moved.x + WALK as f64).abs() < 1e-3,
                "{start}: walked {moved}"
            );
            assert!(
                moved.z.abs() < 1e-3 && moved.y.abs() < 1e-3,
                "{start}: {moved}"
            );
            // Sprint-flying: 2.5 x 16 blocks a second, and still exact.
            p.flying = true;
            let before = p.position;
            let fly = MoveInput {
                forward: 1.0,
                sprint: true,
                ..Default::default()
            };
            for _ in 0..60 {
                step_in_world(&mut p, fly, 1.0 / 60.0, &solid);
            }
            let flown = p.position - before;
            assert!((flown.x + 40.0).abs() < 1e-3, "{start}: flew {flown}");
        }
    }
}
