//! Saves that fail: edits are never lost to a failed write or a world switch, saving
//! is retried, a save that cannot be read is left alone, no temporary file stays, and
//! what cannot be saved at exit goes to a rescue copy. Writes are made to fail by
//! putting a folder where the save file goes (the rename onto it fails), which works
//! whoever runs the tests (root ignores file permissions).

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{dig, load, notices, run_until};
use terravox_edits::SaveDir;
use terravox_game::{PlayOptions, Saves, SwitchWorld, WorldEdits};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::WorldConfig;

fn save_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("terravox-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn app(world: WorldConfig, dir: &Path) -> App {
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        save_dir: Some(dir.to_owned()),
        ..PlayOptions::new(world)
    });
    // A quarter second of game time per frame: autosaves come within a few frames.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        250,
    )));
    load(&mut app);
    app
}

fn edit_count(app: &App) -> usize {
    app.world().resource::<WorldEdits>().edits().len()
}

fn dirty(app: &App) -> bool {
    let edits = app.world().resource::<WorldEdits>();
    app.world().resource::<Saves>().dirty(edits)
}

fn failing(app: &App) -> bool {
    app.world().resource::<Saves>().failing().is_some()
}

/// Files in `dir` whose name contains `part`.
fn files_with(dir: &Path, part: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .collect()
}

fn switch(app: &mut App, world: &WorldConfig) {
    app.world_mut().write_message(SwitchWorld(world.clone()));
    load(app);
}

#[test]
fn failed_saves_keep_every_worlds_edits_retry_and_leave_no_temporary_file() {
    let dir = save_dir("failing");
    let a = common::world("cliffs", "saves-a");
    let b = common::world("cliffs", "saves-b");
    let mut app = app(a.clone(), &dir);
    let saves = SaveDir::new(&dir);
    // The disk "fails": a folder sits where world A's save goes.
    let blocker = saves.path_for(&a);
    std::fs::create_dir_all(blocker.join("x")).unwrap();
    let dug: Vec<BlockPos> = (0..5).map(|i| dig(&mut app, 3 * i, 7)).collect();
    run_until(&mut app, 30, |a| failing(a));
    assert!(dirty(&app), "the edits are not on disk");
    let notices = notices(&app);
    assert!(
        notices
            .iter()
            .any(|n| n.contains("cannot save") && n.contains("kept")),
        "{notices:?}"
    );
    assert!(
        files_with(&dir, ".tmp").is_empty(),
        "a failed save left its temporary file"
    );

    // Switching worlds keeps A's unsaved edits in memory; B starts with its own.
    switch(&mut app, &b);
    assert_eq!(edit_count(&app), 0);
    assert_eq!(app.world().resource::<Saves>().unsaved_worlds(), 1);
    dig(&mut app, 1, 1);
    // Back to A: every edit is there, on the blocks too.
    switch(&mut app, &a);
    assert_eq!(edit_count(&app), 5);
    for p in &dug {
        assert_eq!(
            app.world().resource::<terravox_game::Chunks>().block(*p),
            Some(Block::Air)
        );
    }
    // The disk recovers: the retry writes A's edits; B's were saved meanwhile.
    std::fs::remove_dir_all(&blocker).unwrap();
    run_until(&mut app, 30, |a| !dirty(a) && !failing(a));
    assert_eq!(saves.load(&a).unwrap().len(), 5);
    assert_eq!(saves.load(&b).unwrap().len(), 1);
    assert!(files_with(&dir, ".tmp").is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn what_cannot_be_saved_at_exit_goes_to_a_rescue_copy() {
    let dir = save_dir("rescue");
    let a = common::world("cliffs", "saves-rescue");
    let mut app = app(a.clone(), &dir);
    let saves = SaveDir::new(&dir);
    std::fs::create_dir_all(saves.path_for(&a).join("x")).unwrap();
    let p = dig(&mut app, 2, 2);
    app.world_mut().write_message(AppExit::Success);
    app.update();
    let rescued = files_with(&dir, ".rescue-");
    assert_eq!(rescued.len(), 1, "{:?}", files_with(&dir, ""));
    let bytes = std::fs::read(&rescued[0]).unwrap();
    let edits = terravox_edits::save::decode(&rescued[0], &bytes, &a).unwrap();
    assert_eq!(edits.get(p), Some(Block::Air));
    // The blocker was not touched.
    assert!(saves.path_for(&a).join("x").is_dir());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_save_that_cannot_be_read_is_left_alone_and_never_overwritten() {
    let dir = save_dir("unreadable");
    let a = common::world("cliffs", "saves-unreadable");
    let saves = SaveDir::new(&dir);
    // Not a regular file: an I/O problem, not damaged contents.
    let path = saves.path_for(&a);
    std::fs::create_dir_all(path.join("precious")).unwrap();
    let mut app = app(a.clone(), &dir);
    let notices = notices(&app);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains("not a regular file") && notices[0].contains("left as it is"),
        "{notices:?}"
    );
    let edits = app.world().resource::<WorldEdits>();
    assert!(
        app.world().resource::<Saves>().path(edits).is_none(),
        "saving is off"
    );
    dig(&mut app, 0, 0);
    app.world_mut().write_message(AppExit::Success);
    app.update();
    assert!(path.join("precious").is_dir(), "left where it was");
    assert!(
        files_with(&dir, ".unreadable").is_empty(),
        "not moved aside"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn edits_made_as_soon_as_possible_are_kept_with_the_loaded_ones() {
    let dir = save_dir("loading");
    let a = common::world("cliffs", "saves-loading");
    let saves = SaveDir::new(&dir);
    let mut stored = terravox_edits::Edits::new();
    for i in 0..200_000 {
        stored.set(
            BlockPos::new(i % 400 + 100, 200 + i / 160_000, (i / 400) % 400),
            Block::Brick,
        );
    }
    let generator = terravox_worldgen::Generator::new(&a).unwrap();
    let top = generator.surface_height(4, 4);
    let mine = BlockPos::new(9, generator.surface_height(9, 9), 9);
    stored.set(BlockPos::new(4, top, 4), Block::Planks);
    saves.save(&a, &stored).unwrap();
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        save_dir: Some(dir.clone()),
        // Start by the edits, wherever the spawn is.
        at: Some([9.5, mine.y as f64 + 3.0, 9.5]),
        ..PlayOptions::new(a.clone())
    });
    // An edit as soon as its chunk is there, likely while the save still loads.
    run_until(&mut app, 60, |a| {
        a.world()
            .resource::<terravox_game::Chunks>()
            .block(mine)
            .is_some()
    });
    assert_eq!(dig(&mut app, 9, 9), mine);
    load(&mut app);
    let chunks = app.world().resource::<terravox_game::Chunks>();
    assert_eq!(
        chunks.block(mine),
        Some(Block::Air),
        "the edit made meanwhile"
    );
    assert_eq!(
        chunks.block(BlockPos::new(4, top, 4)),
        Some(Block::Planks),
        "a loaded edit is laid over its chunk"
    );
    assert_eq!(edit_count(&app), stored.len() + 1);
    let _ = std::fs::remove_dir_all(dir);
}
