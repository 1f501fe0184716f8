//! A player's body: an upright box [`HALF_WIDTH`] to each side of the feet and
//! [`HEIGHT`] tall, with the eyes [`EYE`] above the feet, moved by walking, jumping,
//! gravity, swimming or flying, colliding with solid blocks one axis at a time: the
//! rules the game's player moves by and a server checks its players' moves by
//! ([`crate::moves`]). Pure physics on plain values: the game feeds it blocks and
//! input.
//!
//! In water (any of the body's blocks holds water above its feet) the body is
//! buoyant, as in Minecraft: it sinks slowly ([`SINK`]), Space swims up ([`RISE`])
//! and, at the surface, holds it floating with the eyes just above the water; it
//! moves at [`SWIM`] (sprinting faster), on the bed too; a fall into water is
//! slowed to a sinking within a few blocks, with no bounce; pushing against a bank
//! that has room above lifts the body out; flowing water carries it the way it runs
//! ([`CURRENT`]). Flying and noclip ignore water.

use glam::{DVec3, IVec3, Vec3};
use terravox_voxel::{Block, BlockPos, water_states};

/// Half the body's width.
pub const HALF_WIDTH: f32 = 0.3;
/// Body height.
pub const HEIGHT: f32 = 1.8;
/// Eye height above the feet (the generator's, which casts the first frame from it).
pub const EYE: f32 = terravox_worldgen::EYE_HEIGHT as f32;

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
/// Swimming speed, blocks per second (Minecraft's is about 2).
pub const SWIM: f32 = 2.0;
/// Sprint-swimming speed.
pub const SWIM_SPRINT: f32 = 4.0;
/// How fast the body sinks in water, blocks per second.
pub const SINK: f32 = 1.0;
/// How fast Space swims up, blocks per second.
pub const RISE: f32 = 2.5;
/// How fast the water's flow carries the body, blocks per second.
pub const CURRENT: f32 = 1.4;
/// How deep the feet float below the surface: the eyes 0.12 above the water.
pub const FLOAT: f32 = EYE - 0.12;
/// How quickly the body's vertical speed in water settles on what it swims towards
/// (per second: a fall at 60 blocks a second is slowed to sinking within about 7
/// blocks).
const WATER_DRAG: f32 = 10.0;
/// Floating: vertical speed per block the feet are off [`FLOAT`].
const BOB: f32 = 6.0;

/// A player's body. Its position is kept in `f64` world coordinates, so walking is
/// exact anywhere in the world (the game's entity `Transform` only places it
/// relative to the render origin).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Body {
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

/// What the player asks to do this frame (the game reads it from the keys).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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

/// The blocks a body moves among: the block at a position, or `None` where its chunk
/// is not loaded (solid to the body, which does not fall into it).
pub type Blocks<'a> = &'a dyn Fn(BlockPos) -> Option<Block>;

/// One movement step of the player at [`Body::position`], computed in a frame
/// anchored at the block holding the feet, so `f32` stays exact however far from the
/// origin the player is. `blocks` answers for world block positions, as in [`step`].
pub fn step_in_world(p: &mut Body, input: MoveInput, dt: f32, blocks: Blocks) {
    let anchor = BlockPos::containing_f64(p.position.to_array());
    let base = DVec3::new(anchor.x as f64, anchor.y as f64, anchor.z as f64);
    let local = (p.position - base).as_vec3();
    let moved = step(p, local, input, dt, &|b| {
        blocks(b.offset([anchor.x, anchor.y, anchor.z]))
    });
    p.position = base + moved.as_dvec3();
}

/// The water around a body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wet {
    /// How high the water stands above the feet, at most the body's height (0: dry).
    pub depth: f32,
    /// The way the water's flow carries the body, blocks per second ([`CURRENT`]
    /// along the mean of its blocks' flows; down in falling water beside a wall).
    pub current: Vec3,
}

/// The water around a body with its feet at `feet`: how deep it stands above the
/// feet (a block of water is as high as its surface is drawn: full under water,
/// else its level's height) and the way it carries the body.
pub fn wet(feet: Vec3, blocks: Blocks) -> Wet {
    let (lo, hi) = body_blocks(feet);
    let (mut top, mut flow) = (feet.y, Vec3::ZERO);
    for y in lo.y..=hi.y {
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                let p = BlockPos::new(x, y, z);
                let Some(f) = blocks(p).and_then(Block::fluid) else {
                    continue;
                };
                let full = blocks(p.offset([0, 1, 0])).is_some_and(Block::is_water);
                let height = if full { 1.0 } else { f.amount() as f32 / 9.0 };
                if y as f32 + height <= feet.y {
                    continue;
                }
                top = top.max(y as f32 + height);
                let at = |dx, dy, dz| blocks(p.offset([dx, dy, dz])).unwrap_or(Block::Stone);
                flow += Vec3::from_array(water_states::flow(at));
            }
        }
    }
    Wet {
        depth: (top - feet.y).min(HEIGHT),
        current: flow.normalize_or_zero() * CURRENT,
    }
}

/// The lowest and highest block a body with its feet at `feet` overlaps.
fn body_blocks(feet: Vec3) -> (IVec3, IVec3) {
    let min = feet - Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH);
    let max = feet + Vec3::new(HALF_WIDTH, HEIGHT, HALF_WIDTH);
    (
        min.floor().as_ivec3(),
        (max - Vec3::splat(1e-5)).floor().as_ivec3(),
    )
}

/// Whether a swimming body at `feet` pushing towards `wish` meets a bank it can
/// climb: something solid right ahead, and room for the body a body's height up and
/// a little forward (a bank at most that high above the feet: a bank one block above
/// the water, from floating at the surface).
fn bank_ahead(feet: Vec3, wish: Vec3, solid: &dyn Fn(BlockPos) -> bool) -> bool {
    wish != Vec3::ZERO
        && overlaps_solid(feet + wish * 0.1, solid)
        && !overlaps_solid(feet + Vec3::Y * HEIGHT + wish * 0.3, solid)
}

/// The vertical speed of a body in water `wet` after `dt`: climbing out onto a
/// bank, jumping off a shallow bed, swimming up and floating at the surface with
/// Space, else sinking slowly; a fast fall is slowed within a few blocks.
fn swim(p: &Body, wet: Wet, input: MoveInput, climb: bool, dt: f32) -> f32 {
    if climb {
        return JUMP;
    }
    if input.up && p.on_ground && wet.depth < FLOAT - 0.3 {
        // Too shallow to float: a jump off the bed.
        return JUMP;
    }
    let towards = if input.up {
        ((wet.depth - FLOAT) * BOB).clamp(-SINK, RISE)
    } else {
        -SINK
    } + wet.current.y;
    let settle = 1.0 - (-WATER_DRAG * dt).exp();
    p.velocity.y + (towards - p.velocity.y) * settle
}

/// One movement step. `blocks` answers what is where, `None` where a chunk is not
/// loaded (solid, and the body does not fall into it).
pub fn step(p: &mut Body, feet: Vec3, input: MoveInput, dt: f32, blocks: Blocks) -> Vec3 {
    let (sin, cos) = p.yaw.sin_cos();
    let forward = Vec3::new(-sin, 0.0, -cos);
    let right = Vec3::new(cos, 0.0, -sin);
    let wish = (forward * input.forward + right * input.right).normalize_or_zero();
    let below_loaded = blocks(BlockPos::containing((feet - Vec3::Y * 0.5).to_array())).is_some();
    let solid = |b: BlockPos| blocks(b).is_none_or(Block::is_solid);
    if p.flying {
        let speed = FLY * if input.sprint { 2.5 } else { 1.0 };
        let vertical = input.up as i32 as f32 - input.down as i32 as f32;
        p.velocity = (wish + Vec3::Y * vertical) * speed;
    } else {
        let wet = wet(feet, blocks);
        let swimming = wet.depth > 0.0;
        let speed = match (swimming, input.sprint) {
            (false, false) => WALK,
            (false, true) => WALK * SPRINT,
            (true, false) => SWIM,
            (true, true) => SWIM_SPRINT,
        };
        p.velocity.x = wish.x * speed + wet.current.x;
        p.velocity.z = wish.z * speed + wet.current.z;
        if swimming {
            let climb = bank_ahead(feet, wish, &solid);
            p.velocity.y = swim(p, wet, input, climb, dt);
        } else if input.up && p.on_ground {
            p.velocity.y = JUMP;
        }
        if !below_loaded {
            // Wait for the ground to load rather than fall through it.
            p.velocity.y = p.velocity.y.max(0.0);
        } else if !swimming {
            p.velocity.y = (p.velocity.y - GRAVITY * dt).max(-60.0);
        }
    }
    let delta = p.velocity * dt;
    if p.flying && p.noclip {
        p.on_ground = false;
        return feet + delta;
    }
    let (pos, blocked) = move_body(feet, delta, &solid);
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
    let (lo, hi) = body_blocks(feet);
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

/// The lowest and highest block the body at `feet` (world coordinates) overlaps.
pub fn blocks_of(feet: [f64; 3]) -> (BlockPos, BlockPos) {
    let w = f64::from(HALF_WIDTH);
    let lo = [feet[0] - w, feet[1], feet[2] - w];
    let hi = [
        feet[0] + w - 1e-5,
        feet[1] + f64::from(HEIGHT) - 1e-5,
        feet[2] + w - 1e-5,
    ];
    (BlockPos::containing_f64(lo), BlockPos::containing_f64(hi))
}

/// Whether the body at `feet` overlaps the block at `p`.
pub fn overlaps(feet: [f64; 3], p: BlockPos) -> bool {
    let (lo, hi) = blocks_of(feet);
    (lo.x..=hi.x).contains(&p.x) && (lo.y..=hi.y).contains(&p.y) && (lo.z..=hi.z).contains(&p.z)
}

/// The eyes of the body at `feet`.
pub fn eye(feet: [f64; 3]) -> [f64; 3] {
    [feet[0], feet[1] + f64::from(EYE), feet[2]]
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use terravox_voxel::{Chunk, ChunkPos};
    use terravox_worldgen::{Generator, Seed, presets};

    use glam::Vec3Swizzles;

    use super::*;

    /// Generated chunks, cached, for walking over real terrain.
    struct Terrain {
        generator: Generator,
        cache: RefCell<HashMap<ChunkPos, Chunk>>,
    }

    impl Terrain {
        fn block(&self, b: BlockPos) -> Option<Block> {
            let (c, l) = b.to_chunk();
            let mut cache = self.cache.borrow_mut();
            let chunk = cache.entry(c).or_insert_with(|| self.generator.generate(c));
            Some(chunk.get(l[0], l[1], l[2]))
        }
    }

    /// Stone below `y = 0` and air above.
    fn flat(b: BlockPos) -> Option<Block> {
        Some(if b.y < 0 { Block::Stone } else { Block::Air })
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
            let blocks = |b| terrain.block(b);
            let mut longest: f32 = 0.0;
            for (i, yaw) in [0.0f32, 1.3, 2.6, 3.9, 5.2].into_iter().enumerate() {
                let mut p = Body {
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
                    let next = step(&mut p, feet, input, 1.0 / 30.0, &blocks);
                    walked += (next - feet).xz().length();
                    feet = next;
                    landed |= p.on_ground;
                    assert!(
                        !overlaps_solid(feet, &|b| blocks(b).unwrap().is_solid()),
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
        let mut p = Body::default();
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
        let mut p = Body::default();
        let mut feet = Vec3::new(0.5, 0.0, 0.5);
        feet = step(&mut p, feet, MoveInput::default(), 1.0 / 60.0, &flat);
        assert!(p.on_ground);
        let jump = MoveInput {
            up: true,
            ..Default::default()
        };
        feet = step(&mut p, feet, jump, 1.0 / 60.0, &flat);
        let mut top: f32 = feet.y;
        for _ in 0..120 {
            feet = step(&mut p, feet, MoveInput::default(), 1.0 / 60.0, &flat);
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
            let mut p = Body {
                position: start,
                yaw: std::f32::consts::FRAC_PI_2, // towards -x
                ..Default::default()
            };
            let walk = MoveInput {
                forward: 1.0,
                ..Default::default()
            };
            for _ in 0..60 {
                step_in_world(&mut p, walk, 1.0 / 60.0, &flat);
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
                step_in_world(&mut p, fly, 1.0 / 60.0, &flat);
            }
            let flown = p.position - before;
            assert!((flown.x + 40.0).abs() < 1e-3, "{start}: flew {flown}");
        }
    }

    /// A pool: stone below `y = 0` and at `x >= 8`, water up to `y = 19` (its
    /// surface 8/9 up that block), air above.
    fn pool(b: BlockPos) -> Option<Block> {
        Some(match (b.x, b.y) {
            (_, ..0) | (8.., ..20) => Block::Stone,
            (_, ..20) => Block::Water,
            _ => Block::Air,
        })
    }

    /// The pool's surface.
    const SURFACE: f32 = 19.0 + 8.0 / 9.0;

    /// Steps `p` from `feet` for `seconds` at 60 steps a second; the feet after each.
    fn run(
        p: &mut Body,
        mut feet: Vec3,
        input: MoveInput,
        seconds: f32,
        blocks: Blocks,
    ) -> Vec<Vec3> {
        (0..(seconds * 60.0) as usize)
            .map(|_| {
                feet = step(p, feet, input, 1.0 / 60.0, blocks);
                feet
            })
            .collect()
    }

    #[test]
    fn in_water_the_body_sinks_slowly_and_space_swims_up_to_float_at_the_surface() {
        // Sinking: a second under water takes the body about a block down, where
        // the same second in air drops it 14.
        let mut p = Body::default();
        let start = Vec3::new(0.5, 10.0, 0.5);
        let sunk = start.y - run(&mut p, start, MoveInput::default(), 1.0, &pool)[59].y;
        assert!((0.4..1.2).contains(&sunk), "sank {sunk} in a second");
        assert!(p.velocity.y >= -SINK - 1e-3, "{}", p.velocity.y);
        let mut q = Body::default();
        let fell = 30.0
            - run(
                &mut q,
                Vec3::new(0.5, 30.0, 0.5),
                MoveInput::default(),
                1.0,
                &flat,
            )[59]
                .y;
        assert!(fell > 10.0 * sunk, "fell {fell}");
        // Space from the bed: up to the surface, then floating with the eyes just
        // above the water, steady.
        let up = MoveInput {
            up: true,
            ..Default::default()
        };
        let path = run(&mut p, Vec3::new(0.5, 0.0, 0.5), up, 15.0, &pool);
        let eyes: Vec<f32> = path.iter().map(|f| f.y + EYE - SURFACE).collect();
        assert!(eyes.iter().take(60).all(|&e| e < 0.0), "rose too fast");
        for &e in &eyes[eyes.len() - 120..] {
            assert!((0.05..0.2).contains(&e), "eyes {e} above the surface");
        }
    }

    #[test]
    fn on_the_bed_the_body_walks_at_swimming_speed() {
        let forward = MoveInput {
            forward: 1.0,
            ..Default::default()
        };
        let start = Vec3::new(0.5, 0.0, 0.5);
        let mut p = Body {
            yaw: std::f32::consts::PI, // towards +z
            ..Default::default()
        };
        let walked = run(&mut p, start, forward, 2.0, &pool)[119].z - start.z;
        assert!(p.on_ground);
        assert!(
            (walked - 2.0 * SWIM).abs() < 0.1,
            "walked {walked} on the bed"
        );
        let mut q = Body {
            yaw: std::f32::consts::PI,
            ..Default::default()
        };
        let on_land = run(&mut q, start, forward, 2.0, &flat)[119].z - start.z;
        assert!(
            (on_land - 2.0 * WALK).abs() < 0.1,
            "walked {on_land} on land"
        );
    }

    #[test]
    fn a_fall_into_water_is_stopped_within_a_few_blocks_without_a_bounce() {
        let mut p = Body::default();
        let mut feet = Vec3::new(0.5, 120.0, 0.5);
        let (mut entry, mut slowed) = (None, None);
        for _ in 0..8 * 60 {
            let next = step(&mut p, feet, MoveInput::default(), 1.0 / 60.0, &pool);
            // Never thrown back up: the height only falls.
            assert!(next.y <= feet.y + 1e-4, "bounced from {feet} to {next}");
            feet = next;
            if feet.y < SURFACE && entry.is_none() {
                entry = Some(p.velocity.y);
            }
            if entry.is_some() && slowed.is_none() && p.velocity.y > -2.0 * SINK {
                slowed = Some(feet.y);
            }
        }
        // It hit the water at 60 blocks a second and was slowed to sinking within 8.
        assert!(entry.unwrap() < -50.0, "hit the water at {entry:?}");
        let slowed = slowed.expect("slowed down");
        assert!(SURFACE - slowed < 8.0, "slowed at {slowed}");
        assert!((p.velocity.y + SINK).abs() < 0.05, "{}", p.velocity.y);
    }

    #[test]
    fn a_swimmer_climbs_out_onto_a_bank_one_block_up() {
        // Floating at the surface, the bank (x >= 8) rises to y = 20, one block
        // above the water's block.
        let mut p = Body {
            yaw: -std::f32::consts::FRAC_PI_2, // towards +x
            ..Default::default()
        };
        let up = MoveInput {
            up: true,
            ..Default::default()
        };
        let floating = *run(&mut p, Vec3::new(5.0, 15.0, 0.5), up, 6.0, &pool)
            .last()
            .unwrap();
        let ahead = MoveInput { forward: 1.0, ..up };
        let pushed = *run(&mut p, floating, ahead, 3.0, &pool).last().unwrap();
        let out = *run(&mut p, pushed, MoveInput::default(), 1.0, &pool)
            .last()
            .unwrap();
        assert!(out.x > 8.3 && (out.y - 20.0).abs() < 1e-3, "ended at {out}");
        assert!(p.on_ground);
    }

    #[test]
    fn flowing_water_carries_the_body_downstream() {
        // A channel along +x of flowing water, level rising with x, over stone.
        let channel = |b: BlockPos| {
            Some(match b.y {
                ..0 => Block::Stone,
                0 => terravox_voxel::Fluid::Flowing((b.x.clamp(0, 6) + 1) as u8).block(),
                _ => Block::Air,
            })
        };
        let mut p = Body::default();
        let path = run(
            &mut p,
            Vec3::new(2.5, 0.0, 0.5),
            MoveInput::default(),
            2.0,
            &channel,
        );
        let carried = path.last().unwrap().x - 2.5;
        assert!((carried - 2.0 * CURRENT).abs() < 0.2, "carried {carried}");
        assert!(path.iter().all(|f| (f.z - 0.5).abs() < 1e-4));
        assert!(wet(Vec3::new(2.5, 0.0, 0.5), &channel).depth > 0.0);
        assert_eq!(wet(Vec3::new(2.5, 0.0, 0.5), &flat), Wet::default());
    }

    #[test]
    fn flying_ignores_the_water() {
        let mut p = Body {
            flying: true,
            ..Default::default()
        };
        let up = MoveInput {
            up: true,
            ..Default::default()
        };
        let path = run(&mut p, Vec3::new(0.5, 5.0, 0.5), up, 1.0, &pool);
        assert!((path[59].y - 5.0 - FLY).abs() < 1e-3, "{}", path[59].y);
    }

    #[test]
    fn a_body_overlaps_the_blocks_of_its_box_and_no_others() {
        let feet = [0.5, 10.0, 0.5];
        assert!(overlaps(feet, BlockPos::new(0, 10, 0)));
        assert!(overlaps(feet, BlockPos::new(0, 11, 0)));
        assert!(!overlaps(feet, BlockPos::new(0, 12, 0)));
        assert!(!overlaps(feet, BlockPos::new(0, 9, 0)));
        assert!(!overlaps(feet, BlockPos::new(1, 10, 0)));
        // Standing across a block edge, the body overlaps both columns.
        let across = [1.1, 10.0, 0.5];
        assert!(overlaps(across, BlockPos::new(0, 10, 0)));
        assert!(overlaps(across, BlockPos::new(1, 10, 0)));
        assert_eq!(eye(feet), [0.5, 10.0 + f64::from(EYE), 0.5]);
    }
}
