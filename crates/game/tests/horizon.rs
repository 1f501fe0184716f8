//! The horizon: the rings of detail tile the world, seams between levels are closed,
//! moving never opens a hole, coarse work keeps up with a paced flight, chunks kept
//! for cover are bounded, and a world switch drops every ring.

use crate::common;

use std::collections::HashMap;

use std::time::{Duration, Instant};

use bevy::math::DVec3;
use bevy::time::TimeUpdateStrategy;
use common::{app, feet, load, run_until, with_player, world};
use terravox_game::{
    Chunks, Detail, Horizon, HorizonDistance, PlayOptions, Rings, holes_in_horizon, horizon_settled,
};
use terravox_mesher::{Face, MeshBuffers, mesh_chunk_tinted};
use terravox_voxel::{BlockPos, CHUNK, ChunkPos};
use terravox_worldgen::{Generator, LodPos, presets};

/// The chunk drawn at block `p` when everything is loaded: the first level, from the
/// top down, whose chunk there is not split (level 0 inside split level-1 chunks).
fn leaf(rings: Rings, centre: ChunkPos, p: [i64; 3]) -> LodPos {
    let (c, _) = BlockPos::new(p[0] as i32, p[1] as i32, p[2] as i32).to_chunk();
    let mut n = LodPos::new(0, c);
    for level in (1..=rings.top()).rev() {
        n = LodPos::new(0, c).ancestor(level);
        if !rings.split(centre, n) {
            return n;
        }
    }
    n.children()
        .into_iter()
        .find(|k| k.pos == c)
        .expect("a child of its parent")
}

#[test]
fn the_rings_tile_the_world_out_to_the_horizon() {
    for (view, horizon) in [
        (12, 4096),
        (12, 8192),
        (12, 16384),
        (12, 65536),
        (4, 1024),
        (6, 3000),
    ] {
        for detail in [Detail::FULL, Detail::new(800), Detail::MIN] {
            tile(Rings {
                view,
                horizon,
                detail,
            });
        }
        // Narrower rings hold fewer chunks of the finer levels.
        let level_2 = |detail| {
            let leaves = Rings {
                view,
                horizon,
                detail,
            }
            .leaves(ChunkPos::new(7, 2, -5));
            leaves.iter().filter(|n| n.level == 2).count()
        };
        assert!(level_2(Detail::MIN) < level_2(Detail::FULL));
    }
    // No horizon within the view: no coarse chunks at all.
    let rings = Rings::new(12, 300);
    assert_eq!(rings.top(), 0);
    assert!(rings.leaves(ChunkPos::new(0, 0, 0)).is_empty());
}

/// Checks that the leaves of `rings` tile the world out to their horizon.
fn tile(rings: Rings) {
    let Rings { view, horizon, .. } = rings;
    {
        let centre = ChunkPos::new(7, 2, -5);
        let leaves = rings.leaves(centre);
        assert!(!leaves.is_empty());
        let set: std::collections::HashSet<_> = leaves.iter().copied().collect();
        assert_eq!(set.len(), leaves.len(), "a leaf twice");
        // Finer levels first, nearer first within a level.
        assert!(leaves.windows(2).all(|w| w[0].level <= w[1].level));
        // Every place within the horizon (at the player's height, and 200 blocks
        // above and below) lies in exactly one drawn chunk: a leaf, or a full-detail
        // chunk in a split level-1 chunk, which is in the view.
        let o = centre.origin();
        // The level of the chunk each place lies in (0: full detail).
        let mut levels = std::collections::BTreeSet::new();
        for i in 0..4000 {
            // Every other place evenly over the area, the rest denser towards
            // the player (the inner rings of a wide horizon are narrow).
            let t = i as f64 / 4000.0;
            let (a, r) = (
                i as f64 * 2.399,
                if i % 2 == 0 { t.sqrt() } else { t * t } * horizon as f64,
            );
            let p = [
                o.x as i64 + (r * a.cos()) as i64,
                o.y as i64 + [0, -200, 200][i % 3],
                o.z as i64 + (r * a.sin()) as i64,
            ];
            let (c, _) = BlockPos::new(p[0] as i32, p[1] as i32, p[2] as i32).to_chunk();
            let mut holders = 0;
            for level in 1..=rings.top() {
                let here = set.contains(&LodPos::new(0, c).ancestor(level));
                holders += usize::from(here);
                if here {
                    levels.insert(level);
                }
            }
            let full = rings.split(centre, LodPos::new(0, c).ancestor(1));
            if full {
                assert!(terravox_game::in_view(centre, c, view), "{c:?}");
            }
            holders += usize::from(full);
            if full {
                levels.insert(0);
            }
            assert_eq!(
                holders, 1,
                "{p:?} lies in {holders} drawn chunks ({rings:?})"
            );
        }
        // Every ring, from full detail out to the top level, holds some of them.
        assert_eq!(
            levels,
            (0..=rings.top()).collect(),
            "the levels drawn ({rings:?})"
        );
    }
}

/// A face of a mesh in world blocks: its box (flat on its axis), its axis and sign,
/// and whether it is water (drawn from both sides).
struct WorldFace {
    lo: [f64; 3],
    hi: [f64; 3],
    axis: usize,
    positive: bool,
    water: bool,
}

/// The faces of chunk `n` as the game draws them (coarse cells scaled and lowered).
fn faces(g: &Generator, n: LodPos, out: &mut Vec<WorldFace>) {
    let (chunk, tints) = g.generate_coarse(n);
    let mut b = MeshBuffers::default();
    mesh_chunk_tinted(&chunk, tints.as_deref(), &mut b);
    let o = n.origin().map(|v| v as f64);
    let s = n.cell() as f64;
    let shift = [0.0, s - 1.0, 0.0];
    for (surface, water) in [(&b.opaque, false), (&b.water, true)] {
        for q in &surface.quads {
            let (axis, positive) = match q.face {
                Face::PosX => (0, true),
                Face::NegX => (0, false),
                Face::PosY => (1, true),
                Face::NegY => (1, false),
                Face::PosZ => (2, true),
                Face::NegZ => (2, false),
            };
            let mut lo = [0.0; 3];
            let mut hi = [0.0; 3];
            for i in 0..3 {
                lo[i] = o[i] + q.min[i] as f64 * s - shift[i];
                hi[i] = o[i] + (q.max[i] as f64 + 1.0) * s - shift[i];
            }
            let plane = if positive { hi[axis] } else { lo[axis] };
            (lo[axis], hi[axis]) = (plane, plane);
            out.push(WorldFace {
                lo,
                hi,
                axis,
                positive,
                water,
            });
        }
    }
}

/// How far along the ray from `p` along `d` it first meets a face it would see (a
/// front face, or water), if it does.
fn first_hit(faces: &[WorldFace], p: [f64; 3], d: [f64; 3]) -> Option<f64> {
    faces
        .iter()
        .filter_map(|f| {
            let (a, n) = (f.axis, if f.positive { 1.0 } else { -1.0 });
            if d[a] == 0.0 || (!f.water && d[a] * n >= 0.0) {
                return None;
            }
            let t = (f.lo[a] - p[a]) / d[a];
            let inside = (0..3)
                .filter(|&i| i != a)
                .all(|i| (f.lo[i]..=f.hi[i]).contains(&(p[i] + t * d[i])));
            (t >= 0.0 && inside).then_some(t)
        })
        .min_by(f64::total_cmp)
}

/// Whether the drawn world is solid at point `q`: the cell holding it in the chunk
/// drawn there (coarse cells are drawn `2^L - 1` blocks lower).
fn solid_at(
    g: &Generator,
    rings: Rings,
    centre: ChunkPos,
    cache: &mut HashMap<LodPos, terravox_voxel::Chunk>,
    q: [f64; 3],
) -> bool {
    let b = q.map(|v| v.floor() as i64);
    let n = leaf(rings, centre, b);
    let s = n.cell() as i64;
    let o = n.origin();
    let local = |i: usize, shift: i64| (b[i] + shift - o[i]).div_euclid(s) as i32;
    let chunk = cache.entry(n).or_insert_with(|| g.generate_coarse(n).0);
    let (x, y, z) = (local(0, 0), local(1, s - 1), local(2, 0));
    (-1..=CHUNK).contains(&y) && chunk.get(x, y, z).is_opaque()
}

/// Along a line from the spawn outwards, at every border between two levels, rays
/// from above going outwards (as from the player's eye) and down across the border
/// all meet a face of one of the meshes around it: the skirts of the coarse chunk
/// close the step between the levels. For every preset.
#[test]
fn seams_between_levels_are_closed() {
    let rings = Rings::new(4, 1024);
    for name in presets::names() {
        let g = Generator::new(&presets::builtin(name).unwrap()).unwrap();
        let [sx, sy, sz] = g.land_near_origin().expect("land");
        let centre = BlockPos::new(sx, sy, sz).to_chunk().0;
        let (mut borders, mut seam_rays) = (0, 0);
        let mut cache = HashMap::new();
        for (dir, axis) in [(1i64, 0usize), (-1, 0), (1, 2), (-1, 2)] {
            // Walk outwards; the covering level changes at each border.
            let at = |k: i64| {
                let mut p = [sx as i64, 0, sz as i64];
                p[axis] += dir * k;
                p[1] = g.surface_height(p[0] as i32, p[2] as i32) as i64;
                p
            };
            let mut last = leaf(rings, centre, at(0)).level;
            for k in 1..1000 {
                let p = at(k);
                let level = leaf(rings, centre, p).level;
                if level == last {
                    continue;
                }
                last = level;
                borders += 1;
                // Every chunk drawn around the border, 48 blocks each way and from 40
                // blocks under the lower surface to 40 over the higher one.
                let (y0, y1) = (p[1].min(at(k - 1)[1]) - 40, p[1].max(at(k - 1)[1]) + 40);
                let mut around = std::collections::HashSet::new();
                for s in (-48..=48).step_by(4) {
                    for w in (-48..=48).step_by(4) {
                        for y in (y0..=y1).step_by(4) {
                            let mut q = [p[0], y, p[2]];
                            q[axis] += dir * s;
                            q[2 - axis] += w;
                            around.insert(leaf(rings, centre, q));
                        }
                    }
                }
                let mut world = Vec::new();
                let mut rays = 0;
                for n in around {
                    faces(&g, n, &mut world);
                }
                // Rays from 30 blocks over the higher side, outwards across the border
                // plane: where one crosses the plane inside the terrain of either side
                // as drawn, it must have met a face by then (a gap would let it through
                // to the sky).
                let plane = if dir > 0 {
                    p[axis] as f64
                } else {
                    p[axis] as f64 + 1.0
                };
                for w in -12..=12 {
                    for back in [2.0, 6.0, 12.0] {
                        for (out, side) in [(0.3, 0.0), (0.6, 0.2), (1.2, -0.3), (2.5, 0.1)] {
                            let mut start =
                                [p[0] as f64 + 0.5, y1 as f64 - 10.0, p[2] as f64 + 0.5];
                            start[axis] = plane - dir as f64 * back;
                            start[2 - axis] += w as f64 * 1.37;
                            let mut d = [0.0, -1.0, 0.0];
                            d[axis] = dir as f64 * out;
                            d[2 - axis] = side;
                            let t = back / out;
                            let c = [0, 1, 2].map(|i| start[i] + t * d[i]);
                            let (mut near, mut far) = (c, c);
                            near[axis] -= dir as f64 * 0.5;
                            far[axis] += dir as f64 * 0.5;
                            if !(solid_at(&g, rings, centre, &mut cache, near)
                                || solid_at(&g, rings, centre, &mut cache, far))
                            {
                                continue;
                            }
                            let hit = first_hit(&world, start, d);
                            assert!(
                                hit.is_some_and(|h| h <= t + 1e-9),
                                "{name}: a ray from {start:?} along {d:?} crosses the border at {c:?} (level {level}) inside the terrain unseen (first face at {hit:?}, plane at {t})"
                            );
                            rays += 1;
                        }
                    }
                }
                seam_rays += rays;
            }
        }
        assert!(borders >= 8, "{name}: only {borders} borders crossed");
        assert!(
            seam_rays > 200,
            "{name}: only {seam_rays} rays crossed a seam"
        );
    }
}

/// A headless game with a small horizon (view 4, 1024 blocks).
fn horizon_app(preset: &str) -> bevy::app::App {
    terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        horizon: 1024,
        ..PlayOptions::new(world(preset, "horizon-test"))
    })
}

fn horizon_loaded(app: &mut bevy::app::App) -> bool {
    horizon_settled(app.world())
}

#[test]
fn moving_never_leaves_a_hole_and_a_world_switch_drops_every_ring() {
    let mut app = horizon_app("continents");
    let generator = app
        .world()
        .resource::<terravox_game::ActiveWorld>()
        .generator()
        .clone();
    let mut heights = HashMap::new();
    // Before anything loaded, the checker finds holes (it is not blind).
    app.update();
    let start = feet(&mut app);
    let (spots, missing) = holes_in_horizon(app.world(), start, &generator, &mut heights);
    assert!(spots > 40 && missing > 0, "{spots} spots, {missing} holes");
    run_until(&mut app, 120, horizon_loaded);
    let here = feet(&mut app);
    assert_eq!(
        holes_in_horizon(app.world(), here, &generator, &mut heights).1,
        0
    );
    let h = app.world().resource::<Horizon>();
    let rings = h.rings_now().expect("rings");
    let centre = ChunkPos::containing_f64(here.to_array());
    let mut wanted: Vec<_> = h.wanted().to_vec();
    wanted.sort();
    let mut expected = rings.leaves(centre);
    expected.sort();
    assert_eq!(wanted, expected, "the ring set for the player's chunk");
    assert!(rings.top() >= 2);

    // Fly 400 blocks east and 300 north-west, 2 blocks a frame (60 blocks a second
    // at 30 frames a second; sprint flying is 40), each frame ending once the
    // workers finished what it started: no frame has a hole. How fast frames and
    // workers are on a machine is `terravox bench --horizon`'s figure, not this
    // test's.
    with_player(&mut app, |p| {
        p.flying = true;
        p.noclip = true;
    });
    let start = feet(&mut app);
    for step in 0..=350 {
        let flown = 2.0 * step as f64;
        let to = if flown < 400.0 {
            start + DVec3::new(flown, 0.0, 0.0)
        } else {
            start + DVec3::new(400.0, 0.0, 0.0) + DVec3::new(-0.6, 0.0, -0.8) * (flown - 400.0)
        };
        with_player(&mut app, |p| p.position = to);
        frame_keeping_up(&mut app);
        let (_, missing) = holes_in_horizon(app.world(), to, &generator, &mut heights);
        assert_eq!(missing, 0, "a hole at step {step}, {to:?}");
    }
    run_until(&mut app, 120, horizon_loaded);
    let loaded = app.world().resource::<Horizon>().loaded().count();
    assert!(loaded > 50, "{loaded} coarse chunks loaded");

    // A world switch drops every coarse chunk of the old world at once.
    app.world_mut()
        .write_message(terravox_game::SwitchWorld(world("archipelago", "other")));
    app.update();
    let h = app.world().resource::<Horizon>();
    assert_eq!(h.loaded().count(), 0, "coarse chunks of the old world stay");
    run_until(&mut app, 120, horizon_loaded);
    assert!(app.world().resource::<Horizon>().loaded().count() > 50);
    assert_eq!(app.world().resource::<HorizonDistance>().0, 1024);
}

/// Loads `preset`'s view (4 chunks) and a 4 km horizon within `budget` MiB of
/// meshes; returns the meshes' bytes then, the rings' width and the wanted chunks
/// of level 2.
fn load_within(preset: &str, budget: u32) -> (usize, Detail, usize) {
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        horizon: 4096,
        horizon_memory: budget,
        ..PlayOptions::new(world(preset, "memory-test"))
    });
    run_until(&mut app, 300, horizon_loaded);
    let h = app.world().resource::<Horizon>();
    let rings: usize = h.rings().iter().map(|r| r.bytes).sum();
    let level_2 = h.wanted().iter().filter(|n| n.level == 2).count();
    let view = app.world().resource::<Chunks>().mesh_bytes();
    (view + rings, h.detail(), level_2)
}

#[test]
fn no_horizon_means_no_coarse_chunks() {
    let mut a = app(world("cliffs", "no-horizon"));
    load(&mut a);
    for _ in 0..10 {
        a.update();
    }
    let h = a.world().resource::<Horizon>();
    assert_eq!(h.loaded().count(), 0);
    assert!(h.wanted().is_empty());
}

/// A headless game with the small horizon of [`horizon_app`] whose game time
/// advances `1 / fps` a frame, loaded, with the player flying through the terrain.
fn paced_app(fps: f64) -> bevy::app::App {
    let mut app = horizon_app("continents");
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / fps,
    )));
    run_until(&mut app, 120, horizon_loaded);
    with_player(&mut app, |p| {
        p.flying = true;
        p.noclip = true;
    });
    app
}

/// One frame of a machine whose workers keep up with the work the game gives them:
/// the frame ends once every task started so far has finished. A wait on the work,
/// not on the clock, so what a frame gets done does not depend on the machine.
fn frame_keeping_up(app: &mut bevy::app::App) {
    app.update();
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let w = app.world();
        let running =
            w.resource::<Horizon>().tasks_running() + w.resource::<Chunks>().tasks_running();
        if running == 0 {
            return;
        }
        assert!(Instant::now() < end, "tasks still running after a minute");
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Coarse work is scheduled by what the player needs and keeps the workers busy for
/// the frame, not a fixed number of tasks a frame with the far level last: flying
/// east 8 blocks a frame at 30 frames a second of game time, on workers that finish
/// each frame's work, no spot inside the horizon is ever left uncovered. (With 8
/// coarse tasks a frame, finer levels first, 251 of 300 such frames had a hole.)
#[test]
fn a_paced_flight_never_leaves_a_hole_while_the_workers_keep_up() {
    let mut app = paced_app(30.0);
    let generator = app
        .world()
        .resource::<terravox_game::ActiveWorld>()
        .generator()
        .clone();
    let mut heights = HashMap::new();
    let start = feet(&mut app);
    for frame in 0..240 {
        let to = start + DVec3::new(8.0 * frame as f64, 0.0, 0.0);
        with_player(&mut app, |p| p.position = to);
        frame_keeping_up(&mut app);
        let (_, missing) = holes_in_horizon(app.world(), to, &generator, &mut heights);
        assert_eq!(
            missing, 0,
            "{missing} spots uncovered in frame {frame} at {to:?}"
        );
    }
}

/// Full-detail chunks kept while they cover a place whose coarse chunk is missing
/// are bounded: flying fast, every frame has full-detail chunks waiting to start,
/// which keep the workers first, so the coarse chunks behind the player fall far
/// behind (the same flight kept 619 chunks for 343 wanted before the bound); at most
/// as many as are wanted stay kept, and the bound is reached. How many pile up
/// depends on how much the workers get done a frame (too fast a flight loads no
/// full-detail chunk to keep), so the flight is flown at three speeds, each from a
/// fresh start: every frame of each stays under the bound, and one reaches it.
#[test]
fn chunks_kept_for_cover_stay_under_the_bound() {
    let mut reached = Vec::new();
    for speed in [48.0, 64.0, 96.0] {
        let mut app = paced_app(30.0);
        let start = feet(&mut app);
        let mut most = 0;
        for frame in 0..200 {
            let to = start + DVec3::new(speed * frame as f64, 0.0, 0.0);
            with_player(&mut app, |p| p.position = to);
            frame_keeping_up(&mut app);
            let chunks = app.world().resource::<Chunks>();
            let (kept, bound) = (chunks.kept_count(), chunks.max_kept());
            assert!(bound <= chunks.wanted().len(), "{bound} may be kept");
            assert!(
                kept <= bound,
                "{kept} chunks kept in frame {frame} at {speed} a frame, {bound} at most"
            );
            most = most.max(kept);
        }
        let bound = app.world().resource::<Chunks>().max_kept();
        if most == bound {
            return;
        }
        reached.push((speed, most, bound));
    }
    panic!("no flight reached the bound (speed, most kept, bound): {reached:?}");
}

/// An edit shows on the horizon at once: a tower built beside the player goes into
/// every loaded coarse chunk that holds it, each made again with the edits (and drawn
/// until then) within a few frames of workers that keep up, without reloading
/// anything; a frame is a sixtieth of a second of game time, so within a second.
#[test]
fn a_tower_built_shows_in_every_coarse_chunk_that_holds_it() {
    use bevy::ecs::message::Messages;
    use terravox_game::ChunkMeshed;
    use terravox_mesher::vertex::Vertex;
    use terravox_voxel::Block;
    use terravox_worldgen::MAX_LEVEL;

    let mut app = horizon_app("continents");
    run_until(&mut app, 120, horizon_loaded);
    let generator = app
        .world()
        .resource::<terravox_game::ActiveWorld>()
        .generator()
        .clone();
    let here = feet(&mut app);
    let loaded: Vec<LodPos> = app.world().resource::<Horizon>().loaded().collect();
    // A column out towards the view's edge whose blocks are loaded (so it can be
    // built on) and whose level-1 coarse chunk is loaded too (the view does not
    // cover all of it).
    let chunks = app.world().resource::<Chunks>();
    let (x, z, ground) = (0..256)
        .step_by(4)
        .flat_map(|d| [(d, 0), (0, d), (-d, 0), (0, -d)])
        .map(|(dx, dz)| (here.x.floor() as i32 + dx, here.z.floor() as i32 + dz))
        .find_map(|(x, z)| {
            let ground = generator.surface_height(x, z);
            let [low, high] = [1, 24].map(|h| BlockPos::new(x, ground + h, z).to_chunk().0);
            let holder = LodPos::new(0, high).ancestor(1);
            (loaded.contains(&holder)
                && chunks.blocks(low).is_some()
                && chunks.blocks(high).is_some())
            .then_some((x, z, ground))
        })
        .expect("a loaded column under a loaded level-1 chunk");
    let top = BlockPos::new(x, ground + 24, z);
    let mut holders: Vec<LodPos> = (1..=MAX_LEVEL)
        .map(|l| LodPos::new(0, top.to_chunk().0).ancestor(l))
        .filter(|lod| loaded.contains(lod))
        .collect();
    holders.sort();
    assert!(
        !holders.is_empty(),
        "no loaded coarse chunk holds the tower"
    );
    // Whether a mesh of `lod` has the top face of the cell holding the tower's top.
    let shows_top = |lod: LodPos, m: &ChunkMeshed| {
        let (cell, origin) = (lod.edge() / CHUNK as i64, lod.origin());
        let local = |v: i32, axis: usize| (v as i64 - origin[axis]).div_euclid(cell);
        let (cx, cy, cz) = (local(top.x, 0), local(top.y, 1), local(top.z, 2));
        m.opaque
            .vertices
            .iter()
            .filter_map(|&v| Vertex::unpack(v))
            .any(|v| {
                let [vx, vy, vz] = v.pos.map(i64::from);
                v.face == Face::PosY
                    && vy == cy + 1
                    && (cx..=cx + 1).contains(&vx)
                    && (cz..=cz + 1).contains(&vz)
            })
    };

    let mut cursor = app.world().resource::<Messages<ChunkMeshed>>().get_cursor();
    common::edit(&mut app, |b| {
        for y in ground + 1..=top.y {
            b.set(BlockPos::new(x, y, z), Block::Brick)
                .expect("a loaded chunk");
        }
    });
    let mut shown = Vec::new();
    for _ in 0..60 {
        frame_keeping_up(&mut app);
        let messages = app.world().resource::<Messages<ChunkMeshed>>();
        for m in cursor.read(messages) {
            if holders.contains(&m.lod) && shows_top(m.lod, m) && !shown.contains(&m.lod) {
                shown.push(m.lod);
            }
        }
        if shown.len() == holders.len() {
            break;
        }
    }
    shown.sort();
    assert_eq!(shown, holders, "coarse chunks remade with the tower");
    run_until(&mut app, 120, horizon_loaded);
}

/// The long sweeps: `cargo test --release --workspace -- --ignored sweep::` (as
/// `.ci/run` does) runs them.
mod sweep {
    use super::*;

    /// Where the meshes at full width would outgrow the memory budget, the horizon draws
    /// its rings narrower and ends within the budget; with room, at full width.
    #[test]
    #[ignore = "long sweep: .ci/run runs it"]
    fn the_rings_narrow_to_keep_the_meshes_within_the_memory_budget() {
        let mib = 1 << 20;
        let (full, detail, wide) = load_within("amplified", 65536);
        assert_eq!(detail, Detail::FULL);
        assert!(full > 64 * mib, "{} MiB at full width", full / mib);
        let (bytes, detail, narrow) = load_within("amplified", 64);
        println!(
            "{:.1} MiB at full width, {:.1} MiB at {detail:?} ({wide} level-2 chunks wanted, then {narrow})",
            full as f64 / mib as f64,
            bytes as f64 / mib as f64
        );
        assert!(detail < Detail::FULL && narrow < wide, "{detail:?}");
        assert!(
            bytes <= 64 * mib,
            "{:.1} MiB of meshes against a budget of 64 ({detail:?}; {:.1} at full width)",
            bytes as f64 / mib as f64,
            full as f64 / mib as f64
        );
    }
}
