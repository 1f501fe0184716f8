//! Saves that fail: edits are never lost to a failed write or a world switch, saving
//! is retried, a save that cannot be read is left alone, no temporary file stays, and
//! what cannot be saved at exit goes to a rescue copy. Writes are made to fail by
//! putting a folder where the save file goes (the rename onto it fails), which works
//! whoever runs the tests (root ignores file permissions).
//!
//! Two games on one world are two real processes: the first is this test binary run
//! again with an environment variable that makes `first_game_process` play on until
//! its input closes (run alone, it plays the first game's part in a folder of its
//! own and quits).

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{dig, load, notices, run_until};
use terravox_edits::SaveDir;
use terravox_game::{DiscardEdits, PlayOptions, Saves, SwitchWorld, WorldAuthority};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::WorldConfig;

fn save_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("terravox-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A game of `world` saving under `dir`, started by the origin's column (the tests
/// dig fixed columns near it).
fn app(world: WorldConfig, dir: &Path) -> App {
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        save_dir: Some(dir.to_owned()),
        at: Some(common::by_origin(&world)),
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
    app.world().resource::<WorldAuthority>().edits().len()
}

fn dirty(app: &App) -> bool {
    let edits = app.world().resource::<WorldAuthority>();
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

/// Switches to `world` and goes back to the origin's column from its spawn.
fn switch(app: &mut App, world: &WorldConfig) {
    app.world_mut().write_message(SwitchWorld(world.clone()));
    load(app);
    common::back_to_origin(app);
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
    let edits = app.world().resource::<WorldAuthority>();
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
fn edits_made_while_the_save_loads_are_kept_with_the_loaded_ones() {
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
    // Hold every I/O thread until the edit is made, so the save is surely still
    // loading when it lands (the read queues behind them).
    let io = bevy::tasks::IoTaskPool::get();
    let (release, held) = std::sync::mpsc::channel::<()>();
    let held = std::sync::Arc::new(std::sync::Mutex::new(held));
    for _ in 0..io.thread_num().max(1) {
        let held = held.clone();
        io.spawn(async move {
            let _ = held.lock().unwrap().recv();
        })
        .detach();
    }
    run_until(&mut app, 60, |a| {
        a.world()
            .resource::<terravox_game::Chunks>()
            .block(mine)
            .is_some()
    });
    assert!(
        app.world().resource::<terravox_game::Saves>().loading(),
        "the save is still loading when the edit is made"
    );
    assert_eq!(dig(&mut app, 9, 9), mine);
    for _ in 0..io.thread_num().max(1) {
        release.send(()).unwrap();
    }
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

/// The first game's save folder, for `first_game_process`.
const FIRST_GAME_DIR: &str = "TERRAVOX_FIRST_GAME_DIR";

/// What the first game prints once it holds the world (libtest may print the test's
/// name before it on the same line).
const READY: &str = "first game: saved and holding the world";

/// The world both games play.
fn shared_world() -> WorldConfig {
    common::world("cliffs", "two-games")
}

/// A game of `world` saving under `dir`, started by the origin's column.
fn app_at_origin(world: WorldConfig, dir: &Path) -> App {
    let top = terravox_worldgen::Generator::new(&world)
        .unwrap()
        .surface_height(0, 0);
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        save_dir: Some(dir.to_owned()),
        at: Some([0.5, top as f64 + 3.0, 0.5]),
        ..PlayOptions::new(world)
    });
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        250,
    )));
    load(&mut app);
    app
}

/// The columns the first game digs (the second digs others).
const FIRST_DIGS: [(i32, i32); 8] = [
    (0, 0),
    (3, 0),
    (6, 0),
    (9, 0),
    (0, 3),
    (3, 3),
    (6, 3),
    (9, 3),
];

/// The first game: digs [`FIRST_DIGS`], saves them and holds the world. Started by
/// the two-games tests (with [`FIRST_GAME_DIR`]), it then plays on until they close
/// its input; run alone (`--include-ignored`), in a folder of its own, it quits at
/// once. Either way it checks what it saved.
#[test]
#[ignore = "the first of two games on one world; run by the two-games tests"]
fn first_game_process() {
    let started = std::env::var_os(FIRST_GAME_DIR).map(PathBuf::from);
    let dir = started.clone().unwrap_or_else(|| save_dir("first-game"));
    let (world, saves) = (shared_world(), SaveDir::new(&dir));
    let mut app = app_at_origin(world.clone(), &dir);
    let edits = app.world().resource::<WorldAuthority>();
    assert!(
        app.world().resource::<Saves>().path(edits).is_some(),
        "the first game holds the world and saves"
    );
    for (x, z) in FIRST_DIGS {
        dig(&mut app, x, z);
    }
    run_until(&mut app, 60, |a| !dirty(a));
    assert_eq!(saves.load(&world).unwrap().len(), FIRST_DIGS.len());
    // Saved and holding the world: the other game may start.
    println!("{READY}");
    if started.is_some() {
        // Plays on until the other test closes its input.
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
    }
    // Quits, saving.
    app.world_mut().write_message(AppExit::Success);
    app.update();
    assert_eq!(saves.load(&world).unwrap().len(), FIRST_DIGS.len());
    if started.is_none() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Starts `first_game_process` on `dir` and waits until it has saved its edits and
/// holds the world.
fn start_first_game(dir: &Path) -> Child {
    // The test's name in this binary: its module's path past the crate's name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::first_game_process");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            name.as_str(),
            "--exact",
            "--ignored",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(FIRST_GAME_DIR, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|line| line.contains(READY));
    assert!(ready, "the first game ended before it was ready");
    // Keep reading what it prints, so its output never meets a closed pipe.
    std::thread::spawn(move || lines.for_each(drop));
    child
}

#[test]
fn a_second_game_on_a_world_opens_it_read_only_and_neither_loses_edits() {
    let dir = save_dir("two-games");
    let world = shared_world();
    let saves = SaveDir::new(&dir);
    let mut first = start_first_game(&dir);
    assert_eq!(saves.load(&world).unwrap().len(), FIRST_DIGS.len());

    let mut second = app_at_origin(world.clone(), &dir);
    let notices = notices(&second);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains("open in another terravox")
            && notices[0].contains(&format!("process {}", first.id())),
        "the notice names the holder: {notices:?}"
    );
    let edits = second.world().resource::<WorldAuthority>();
    assert!(
        second.world().resource::<Saves>().path(edits).is_none(),
        "read-only: saving is off"
    );
    assert_eq!(
        edit_count(&second),
        FIRST_DIGS.len(),
        "it sees the saved edits"
    );
    // A discard here must not delete the first game's save.
    second.world_mut().write_message(DiscardEdits);
    load(&mut second);
    assert_eq!(edit_count(&second), 0);
    let mine: Vec<BlockPos> = (0..5).map(|i| dig(&mut second, 20 + 3 * i, 9)).collect();
    second.world_mut().write_message(AppExit::Success);
    second.update();
    assert_eq!(
        saves.load(&world).unwrap().len(),
        FIRST_DIGS.len(),
        "the second game neither wrote nor deleted the save"
    );
    // Its own edits are in a rescue copy.
    let rescued = files_with(&dir, ".rescue-");
    assert_eq!(rescued.len(), 1, "{:?}", files_with(&dir, ""));
    let bytes = std::fs::read(&rescued[0]).unwrap();
    let kept = terravox_edits::save::decode(&rescued[0], &bytes, &world).unwrap();
    assert_eq!(kept.len(), mine.len());
    assert!(mine.iter().all(|&p| kept.get(p) == Some(Block::Air)));
    drop(second);

    // The first game quits normally; its edits are all on disk.
    drop(first.stdin.take());
    assert!(first.wait().unwrap().success(), "the first game failed");
    let on_disk = saves.load(&world).unwrap();
    assert_eq!(on_disk.len(), FIRST_DIGS.len());
    // Once it is gone, a new game holds the world and saves.
    let mut third = app_at_origin(world.clone(), &dir);
    assert!(common::notices(&third).is_empty());
    dig(&mut third, 30, 30);
    third.world_mut().write_message(AppExit::Success);
    third.update();
    assert_eq!(saves.load(&world).unwrap().len(), FIRST_DIGS.len() + 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_killed_games_lock_does_not_keep_the_world_read_only() {
    let dir = save_dir("killed-game");
    let world = shared_world();
    let mut first = start_first_game(&dir);
    first.kill().unwrap();
    first.wait().unwrap();
    let mut next = app_at_origin(world.clone(), &dir);
    assert!(
        common::notices(&next).is_empty(),
        "{:?}",
        common::notices(&next)
    );
    let edits = next.world().resource::<WorldAuthority>();
    assert!(next.world().resource::<Saves>().path(edits).is_some());
    assert_eq!(edit_count(&next), FIRST_DIGS.len());
    dig(&mut next, 30, 30);
    next.world_mut().write_message(AppExit::Success);
    next.update();
    assert_eq!(
        SaveDir::new(&dir).load(&world).unwrap().len(),
        FIRST_DIGS.len() + 1
    );
    let _ = std::fs::remove_dir_all(dir);
}
