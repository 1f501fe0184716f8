//! Editing and saving in the headless game: breaking and placing across chunk
//! borders and at negative coordinates, neighbour remeshes with watertight seams,
//! edits kept through unloads, world switches and restarts, autosave, discarding,
//! and unreadable saves moved aside.

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{edit, load, notices, run_until, with_player};
use terravox_authority::Refusal;
use terravox_edits::SaveDir;
use terravox_game::{
    ActiveWorld, ChunkMeshed, Chunks, DiscardEdits, EYE, GameSystems, LOCAL_PLAYER, PlayOptions,
    Saves, SwitchWorld, WorldAuthority, WorldBlocks, break_block, find_target, place_block,
};
use terravox_mesher::{MeshBuffers, Surface, mesh_chunk_tinted};
use terravox_voxel::raycast::RayHit;
use terravox_voxel::{Block, BlockPos, CHUNK, ChunkPos};
use terravox_worldgen::{Generator, Seed, WorldConfig};

fn world() -> WorldConfig {
    common::world("cliffs", "edit-test")
}

/// A fresh, empty save folder for one test.
fn save_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("terravox-edit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The last meshes sent for each chunk, as the render plugin would receive them.
#[derive(Resource, Default)]
struct Meshed(HashMap<ChunkPos, (Surface, Surface)>);

fn record_meshes(mut meshed: MessageReader<ChunkMeshed>, mut out: ResMut<Meshed>) {
    // Full-detail chunks only (coarse ones are the horizon's).
    for m in meshed.read().filter(|m| m.lod.level == 0) {
        out.0.insert(m.lod.pos, (m.opaque.clone(), m.water.clone()));
    }
}

/// A game of `world`, started on the origin's column (the tests edit fixed columns
/// near it), recording its meshes.
fn app(world: WorldConfig, dir: Option<PathBuf>) -> App {
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        save_dir: dir,
        at: Some(common::by_origin(&world)),
        ..PlayOptions::new(world)
    });
    app.init_resource::<Meshed>()
        .add_systems(Update, record_meshes.in_set(GameSystems::Present));
    app
}

fn block(app: &App, p: BlockPos) -> Option<Block> {
    app.world().resource::<Chunks>().block(p)
}

/// Breaks the top block of column `(x, z)` by aiming at it from above, as a player
/// would. Returns its position.
fn break_top(app: &mut App, x: i32, z: i32) -> BlockPos {
    let top = app
        .world()
        .resource::<ActiveWorld>()
        .generator()
        .surface_height(x, z);
    let hit = aim_down(app, x, z, top + 4);
    assert_eq!(hit.pos, BlockPos::new(x, top, z));
    assert_eq!(hit.normal, [0, 1, 0]);
    // The player's eyes where the ray starts (the world's authority measures reach).
    let feet = DVec3::new(
        x as f64 + 0.5,
        top as f64 + 4.5 - f64::from(EYE),
        z as f64 + 0.5,
    );
    edit(app, |blocks| {
        stand(blocks, feet);
        break_block(blocks, &hit)
    })
    .unwrap()
}

/// Puts the local player's body at `feet` in the world's authority, as if it had
/// walked there: its reach is measured from there.
fn stand(blocks: &mut WorldBlocks, feet: DVec3) {
    blocks
        .authority_mut()
        .players_mut()
        .place(LOCAL_PLAYER, feet.to_array());
}

/// The ray from above `(x, y, z)` straight down.
fn aim_down(app: &App, x: i32, z: i32, y: i32) -> RayHit {
    let origin = DVec3::new(x as f64 + 0.5, y as f64 + 0.5, z as f64 + 0.5);
    find_target(app.world().resource::<Chunks>(), origin, Vec3::NEG_Y, false).expect("a target")
}

fn remeshed(app: &mut App) {
    run_until(app, 30, |a| terravox_game::settled(a.world()));
}

/// Whether the overlay has edits not on disk.
fn dirty(app: &App) -> bool {
    let edits = app.world().resource::<WorldAuthority>();
    app.world().resource::<Saves>().dirty(edits)
}

/// How many blocks the overlay holds.
fn edit_count(app: &App) -> usize {
    app.world().resource::<WorldAuthority>().edits().len()
}

/// The loaded blocks of `c` equal the generated chunk with the edits laid over it,
/// and the mesh last sent for it is the mesh of those blocks.
fn check_chunk(app: &App, c: ChunkPos) {
    let chunks = app.world().resource::<Chunks>();
    let loaded = chunks.blocks(c).expect("loaded");
    let generator = app.world().resource::<ActiveWorld>().generator();
    let mut expected = generator.generate(c);
    app.world()
        .resource::<WorldAuthority>()
        .edits()
        .apply(c, &mut expected);
    assert_eq!(**loaded, expected, "blocks of {c:?}");
    let mut b = MeshBuffers::default();
    mesh_chunk_tinted(loaded, chunks.tints(c), &mut b);
    let (opaque, water) = &app.world().resource::<Meshed>().0[&c];
    assert_eq!(*opaque, b.opaque, "opaque mesh of {c:?} is stale");
    assert_eq!(*water, b.water, "water mesh of {c:?} is stale");
}

/// Every padding block of `a` that lies in `b` equals `b`'s own block there, and vice
/// versa: the two meshes meet without holes or hidden faces.
fn check_seam(app: &App, a: ChunkPos, b: ChunkPos) {
    let chunks = app.world().resource::<Chunks>();
    for (p, q) in [(a, b), (b, a)] {
        let (pc, qc) = (chunks.blocks(p).unwrap(), chunks.blocks(q).unwrap());
        let padding_in_q = (-1..=CHUNK)
            .flat_map(|y| (-1..=CHUNK).flat_map(move |z| (-1..=CHUNK).map(move |x| [x, y, z])))
            .filter(|&l| p.local_to_world(l).to_chunk().0 == q);
        let mut compared = 0;
        for [x, y, z] in padding_in_q {
            let w = p.local_to_world([x, y, z]);
            let l = w.to_chunk().1;
            assert_eq!(pc.get(x, y, z), qc.get(l[0], l[1], l[2]), "{w:?}");
            compared += 1;
        }
        // The whole shared face of padding was compared.
        assert_eq!(compared, CHUNK * CHUNK, "{p:?} and {q:?} share a face");
    }
}

#[test]
fn breaking_and_placing_across_a_border_at_negative_coordinates_remeshes_both_sides() {
    let mut app = app(world(), None);
    load(&mut app);
    // x = -1 is the last column of chunk x = -1; its neighbour x = 0 holds it as padding.
    let broken = break_top(&mut app, -1, -5);
    assert_eq!(block(&app, broken), Some(Block::Air));
    let (own, _) = broken.to_chunk();
    assert_eq!(own.x, -1);
    let neighbour = ChunkPos::new(0, own.y, own.z);
    {
        let chunks = app.world().resource::<Chunks>();
        let padding = chunks.blocks(neighbour).unwrap().get(
            -1,
            broken.y - own.y * CHUNK,
            broken.z - own.z * CHUNK,
        );
        assert_eq!(
            padding,
            Block::Air,
            "the neighbour's padding follows the edit"
        );
        assert!(chunks.remesh_queued(own) && chunks.remesh_queued(neighbour));
    }
    app.world_mut().resource_mut::<Meshed>().0.clear();
    remeshed(&mut app);
    for c in [own, neighbour] {
        check_chunk(&app, c);
    }
    check_seam(&app, own, neighbour);

    // Place a brick on the block below the hole, on the other side of the border.
    let below = aim_down(&app, -1, -5, broken.y + 3);
    assert_eq!(below.pos, broken.offset([0, -1, 0]));
    // Standing in the air three blocks beside it (clear of the block placed).
    let beside = DVec3::new(
        broken.x as f64 + 3.5,
        broken.y as f64,
        broken.z as f64 + 0.5,
    );
    let placed = edit(&mut app, |b| place_block(b, beside, &below, Block::Brick)).unwrap();
    assert_eq!(placed, broken);
    assert_eq!(block(&app, broken), Some(Block::Brick));
    // Placing into a solid block is refused.
    let again = edit(&mut app, |b| place_block(b, beside, &below, Block::Stone));
    assert_eq!(again, Err(Refusal::Occupied));
    remeshed(&mut app);
    for c in [own, neighbour] {
        check_chunk(&app, c);
    }
    check_seam(&app, own, neighbour);
    assert_eq!(edit_count(&app), 1);
}

#[test]
fn placing_into_the_players_own_box_is_refused() {
    let mut app = app(world(), None);
    load(&mut app);
    let feet = common::feet(&mut app);
    let standing_on = BlockPos::containing_f64((feet - DVec3::Y * 0.5).to_array());
    assert_eq!(
        block(&app, standing_on).map(|b| b.is_solid()),
        Some(true),
        "the player stands on ground"
    );
    let hit = RayHit {
        pos: standing_on,
        normal: [0, 1, 0],
        distance: 1.0,
    };
    // At the feet, and at head height (the upper block of the body).
    for hit in [
        hit,
        RayHit {
            pos: standing_on.offset([0, 1, 0]),
            ..hit
        },
    ] {
        let r = edit(&mut app, |b| place_block(b, feet, &hit, Block::Planks));
        assert_eq!(r, Err(Refusal::InsidePlayer));
    }
    assert_eq!(edit_count(&app), 0);
    // Beside the body it works (on stone with air above, made so first).
    let beside = RayHit {
        pos: standing_on.offset([2, 0, 0]),
        normal: [0, 1, 0],
        distance: 2.0,
    };
    edit(&mut app, |b| {
        b.set(beside.pos, Block::Stone)?;
        b.set(beside.pos.offset([0, 1, 0]), Block::Air)
    })
    .unwrap();
    let r = edit(&mut app, |b| place_block(b, feet, &beside, Block::Planks));
    assert_eq!(r, Ok(beside.pos.offset([0, 1, 0])));
    assert_eq!(
        block(&app, beside.pos.offset([0, 1, 0])),
        Some(Block::Planks)
    );
}

#[test]
fn edits_survive_unloading_world_switches_and_a_restart_with_the_same_mesh() {
    let dir = save_dir("survive");
    let cfg = world();
    let mut first = app(cfg.clone(), Some(dir.clone()));
    load(&mut first);
    let a = break_top(&mut first, 3, 4);
    let b = break_top(&mut first, -33, -2);
    remeshed(&mut first);

    // Unload: move the player 10 chunks away and back.
    let home = with_player(&mut first, |p| {
        let home = p.position;
        p.position.x += 10.0 * CHUNK as f64;
        home
    });
    run_until(&mut first, 120, |app| {
        app.world()
            .resource::<Chunks>()
            .blocks(a.to_chunk().0)
            .is_none()
    });
    with_player(&mut first, |p| {
        p.position = home + DVec3::Y * 2.0;
        p.velocity = Vec3::ZERO;
    });
    load(&mut first);
    assert_eq!(
        block(&first, a),
        Some(Block::Air),
        "edit kept through an unload"
    );

    // Switch to another seed: its own (no) edits; back again: the edits return.
    let other = cfg.clone().with_seed(Seed::new("edit-test-other"));
    switch_world(&mut first, other.clone());
    assert_eq!(edit_count(&first), 0);
    // Its spawn is elsewhere: go back to where the edits are.
    with_player(&mut first, |p| {
        p.position = home + DVec3::Y * 2.0;
        p.velocity = Vec3::ZERO;
        p.flying = true;
    });
    load(&mut first);
    // The other world shows its own generated blocks where the edits were.
    let generator = Generator::new(&other).unwrap();
    for p in [a, b] {
        let (c, l) = p.to_chunk();
        let generated = generator.generate(c).get(l[0], l[1], l[2]);
        assert_eq!(block(&first, p), Some(generated), "{p:?}");
    }
    switch_world(&mut first, cfg.clone());
    common::back_to_origin(&mut first);
    assert_eq!(edit_count(&first), 2);
    assert_eq!(block(&first, a), Some(Block::Air));
    assert_eq!(block(&first, b), Some(Block::Air));

    // Exit saves; a new game in the same folder shows the same blocks and meshes.
    first.world_mut().write_message(AppExit::Success);
    first.update();
    assert!(!dirty(&first));
    let mut second = app(cfg.clone(), Some(dir.clone()));
    load(&mut second);
    assert_eq!(edit_count(&second), 2);
    for p in [a, b] {
        let c = p.to_chunk().0;
        let blocks = |app: &App| app.world().resource::<Chunks>().blocks(c).unwrap().clone();
        assert_eq!(blocks(&first), blocks(&second), "blocks of {c:?}");
        check_chunk(&second, c);
        let (m1, m2) = (
            &first.world().resource::<Meshed>().0[&c],
            &second.world().resource::<Meshed>().0[&c],
        );
        assert_eq!(m1, m2, "mesh of {c:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

fn switch_world(app: &mut App, cfg: WorldConfig) {
    app.world_mut().write_message(SwitchWorld(cfg.clone()));
    load(app);
    assert_eq!(app.world().resource::<ActiveWorld>().config(), &cfg);
}

#[test]
fn autosave_writes_within_seconds_and_discard_restores_the_generated_world() {
    let dir = save_dir("autosave");
    let cfg = world();
    let mut app = app(cfg.clone(), Some(dir.clone()));
    load(&mut app);
    let original = {
        let top = app
            .world()
            .resource::<ActiveWorld>()
            .generator()
            .surface_height(5, 5);
        block(&app, BlockPos::new(5, top, 5)).unwrap()
    };
    let p = break_top(&mut app, 5, 5);
    let path = SaveDir::new(&dir).path_for(&cfg);
    assert!(!path.exists(), "not saved at once");
    // Let game time run a quarter second per frame: the autosave comes within 5
    // seconds of game time.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        250,
    )));
    for _ in 0..22 {
        app.update();
    }
    assert!(
        app.world().resource::<Saves>().writing() || path.exists(),
        "autosave started within 5 seconds of game time"
    );
    // The write runs on an I/O task; its outcome is taken in on a later frame.
    run_until(&mut app, 30, |a| {
        !a.world().resource::<Saves>().writing() && !dirty(a)
    });
    assert!(path.exists(), "autosaved");
    assert_eq!(SaveDir::new(&dir).load(&cfg).unwrap().len(), 1);

    app.world_mut().write_message(DiscardEdits);
    remeshed(&mut app);
    assert_eq!(edit_count(&app), 0);
    assert_eq!(
        block(&app, p),
        Some(original),
        "back to the generated block"
    );
    assert!(!path.exists(), "the save is deleted");
    check_chunk(&app, p.to_chunk().0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn unreadable_saves_are_reported_moved_aside_and_the_game_starts() {
    let cfg = world();
    for (name, text, says) in [
        (
            "truncated",
            "// terravox world edits\n(\n    version: 1,\n    world: (\n        vers",
            "could not be loaded",
        ),
        (
            "garbage",
            "\u{0}\u{7f}PNG this is not a save",
            "could not be loaded",
        ),
        (
            "version",
            "(version: 99, world: (), edits: [])",
            "version 99",
        ),
    ] {
        let dir = save_dir(name);
        let path = SaveDir::new(&dir).path_for(&cfg);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, text).unwrap();
        let mut app = app(cfg.clone(), Some(dir.clone()));
        load(&mut app);
        let notices = notices(&app);
        assert_eq!(notices.len(), 1, "{name}: {notices:?}");
        assert!(
            notices[0].contains("could not be loaded"),
            "{name}: {notices:?}"
        );
        assert!(notices[0].contains(says), "{name}: {notices:?}");
        assert!(!path.exists(), "{name}: moved aside");
        // Beside the world's lock file, only the moved save.
        let moved: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_none_or(|e| e != "lock"))
            .collect();
        assert_eq!(moved.len(), 1, "{name}");
        assert_eq!(std::fs::read_to_string(&moved[0]).unwrap(), text, "{name}");
        assert_eq!(edit_count(&app), 0);
        // The game goes on: edits work and save next to the moved file.
        break_top(&mut app, 1, 1);
        app.world_mut().write_message(AppExit::Success);
        app.update();
        assert_eq!(SaveDir::new(&dir).load(&cfg).unwrap().len(), 1, "{name}");
        assert_eq!(std::fs::read_to_string(&moved[0]).unwrap(), text, "{name}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_save_that_cannot_be_read_or_moved_is_never_overwritten() {
    // The save folder is a file: nothing can be read, moved or written there.
    let base = save_dir("not-a-folder");
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("saves");
    std::fs::write(&file, "precious").unwrap();
    let mut app = app(world(), Some(file.clone()));
    load(&mut app);
    let notices = notices(&app);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("could not be loaded"), "{notices:?}");
    let edits = app.world().resource::<WorldAuthority>();
    assert!(app.world().resource::<Saves>().path(edits).is_none());
    break_top(&mut app, 2, 2);
    app.world_mut().write_message(AppExit::Success);
    app.update();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "precious");
    let _ = std::fs::remove_dir_all(base);
}
