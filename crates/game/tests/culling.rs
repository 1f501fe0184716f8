//! Cave culling in a headless game: what it hides from a cave, that a ray from the eye
//! never ends in a hidden chunk, that chunks generated while hidden are meshed once
//! the player can see them, and that loading follows the player down.

use crate::common;
#[path = "../../mesher/tests/common/culling.rs"]
mod rays;

use bevy::prelude::*;
use common::{app, load, with_player, world};
use terravox_game::{Chunks, Culling, Player, eye_ray, wanted_chunks};
use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, WorldConfig, presets};

/// The default world (on its own seed, or on `seed`) with the player standing in a
/// cave 24 blocks or more under the spawn.
fn in_a_cave(seed: Option<&str>) -> (App, [f64; 3]) {
    in_a_cave_culling(seed, true)
}

fn in_a_cave_culling(seed: Option<&str>, culling: bool) -> (App, [f64; 3]) {
    let cfg: WorldConfig = match seed {
        Some(seed) => world("continents", seed),
        None => presets::builtin("continents").expect("preset"),
    };
    let g = Generator::new(&cfg).expect("valid");
    let [x, _, z] = g.land_near_origin().expect("land");
    let [cx, cy, cz] = g.find_cave(x, z, 24).expect("a cave under the spawn");
    let at = [cx as f64 + 0.5, cy as f64, cz as f64 + 0.5];
    let app = terravox_game::headless_app(terravox_game::PlayOptions {
        view_distance: 6,
        at: Some(at),
        culling,
        ..terravox_game::PlayOptions::new(cfg)
    });
    (app, at)
}

fn player(app: &mut App) -> Player {
    let mut q = app.world_mut().query::<&Player>();
    q.single(app.world()).expect("one player").clone()
}

/// Casts rays from the eye in many directions through the loaded chunks; every chunk
/// a ray enters must be one culling lets through. Returns the chunks entered.
fn assert_rays_see_no_hidden_chunk(app: &mut App, what: &str) -> usize {
    let (eye, _) = eye_ray(&player(app));
    let world = app.world();
    let (chunks, culling) = (world.resource::<Chunks>(), world.resource::<Culling>());
    let eye = eye.to_array();
    let (block, shown) = (|p| chunks.block(p), |c| !culling.hides(c));
    rays::assert_rays_see_only_shown(eye, 4000, 400.0, block, shown, what)
}

#[test]
fn from_a_cave_culling_hides_the_rock_around_it_but_nothing_a_ray_sees() {
    // A cave in a network that reaches the surface: rays travel far through it, and
    // culling skips at least a tenth of the meshes. A closed pocket: it sees little
    // beyond its own chunk, and culling skips at least three quarters of the meshes.
    let mut entered_by = Vec::new();
    for (seed, skipped_at_least) in [(None, 0.1), (Some("caves"), 0.75)] {
        let (mut app, at) = in_a_cave(seed);
        load(&mut app);
        let counts = {
            let w = app.world();
            w.resource::<Culling>().counts(w.resource::<Chunks>())
        };
        let skipped = 1.0 - counts.drawn as f64 / counts.with_faces as f64;
        assert!(
            skipped >= skipped_at_least,
            "{skipped:.2} of the meshes are skipped in a cave at {at:?}: {counts:?}"
        );
        assert!(
            counts.unmeshed > 0,
            "hidden chunks are not meshed: {counts:?}"
        );
        let entered = assert_rays_see_no_hidden_chunk(&mut app, &format!("in a cave at {at:?}"));
        entered_by.push(entered);
    }
    let [network, pocket] = entered_by[..] else {
        unreachable!("two caves")
    };
    assert!(
        network >= 10 && network > 4 * pocket,
        "rays entered {network} chunks from the network, {pocket} from the pocket"
    );
}

#[test]
fn without_culling_every_chunk_is_meshed_and_drawn() {
    let (mut app, _) = in_a_cave_culling(None, false);
    load(&mut app);
    let w = app.world();
    let (chunks, culling) = (w.resource::<Chunks>(), w.resource::<Culling>());
    let counts = culling.counts(chunks);
    assert_eq!(counts.unmeshed, 0);
    assert_eq!(counts.drawn, counts.with_faces);
    assert!(counts.drawn > 100, "{counts:?}");
    assert!(chunks.loaded().all(|p| !culling.hides(p)));
}

#[test]
fn on_the_surface_no_ray_ends_in_a_hidden_chunk() {
    let mut app = app(world("continents", "caves"));
    load(&mut app);
    let entered = assert_rays_see_no_hidden_chunk(&mut app, "at the spawn");
    assert!(entered > 10, "the rays crossed the land ({entered} chunks)");
    // High above the land, looking down on it.
    with_player(&mut app, |p| {
        p.flying = true;
        p.noclip = true;
        p.position.y += 90.0;
    });
    load(&mut app);
    assert_rays_see_no_hidden_chunk(&mut app, "above the spawn");
}

#[test]
fn a_chunk_generated_while_hidden_is_meshed_when_the_player_gets_there() {
    let (mut app, at) = in_a_cave(None);
    load(&mut app);
    // A hidden, unmeshed chunk with caves in it, deeper than the player.
    let target = {
        let w = app.world();
        let (chunks, culling) = (w.resource::<Chunks>(), w.resource::<Culling>());
        let mut hidden: Vec<ChunkPos> = chunks
            .loaded()
            .filter(|&p| !chunks.is_meshed(p) && culling.hides(p))
            .filter(|&p| chunks.blocks(p).is_some_and(|b| !b.is_uniform()))
            .collect();
        hidden.sort_by_key(|p| (p.distance_squared(ChunkPos::containing_f64(at)), *p));
        *hidden.first().expect("a hidden chunk with caves")
    };
    // Move there (as if digging down): it is the camera's chunk now, so it is drawn.
    with_player(&mut app, |p| {
        p.flying = true;
        p.noclip = true;
        let o = target.origin();
        p.position = bevy::math::DVec3::new(o.x as f64 + 16.0, o.y as f64 + 8.0, o.z as f64 + 16.0);
    });
    load(&mut app);
    let w = app.world();
    let (chunks, culling) = (w.resource::<Chunks>(), w.resource::<Culling>());
    assert!(
        chunks.is_meshed(target),
        "{target:?} was meshed once reachable"
    );
    assert!(!culling.hides(target));
    // And loading followed the player down: the wanted set is centred on the feet.
    let feet = ChunkPos::containing_f64(player(&mut app).position.to_array());
    let chunks = app.world().resource::<Chunks>();
    for p in wanted_chunks(feet, 6) {
        assert!(
            chunks.blocks(p).is_some(),
            "{p:?} around the player is loaded"
        );
    }
    assert!(
        chunks
            .blocks(ChunkPos::new(feet.x, feet.y - 3, feet.z))
            .is_some()
    );
}
