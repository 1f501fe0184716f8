//! SIGTERM (logout, `kill`) ends the game the way closing the window does: unsaved
//! edits are written first. In a test binary of its own, since the signal handler is
//! the process's.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{load, run_until};
use terravox_edits::SaveDir;
use terravox_game::{ExitOnSignal, PlayOptions};
use terravox_voxel::Block;

#[test]
fn sigterm_saves_and_exits() {
    let dir = std::env::temp_dir().join(format!("terravox-signal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let world = common::world("islands", "signal");
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        save_dir: Some(dir.clone()),
        ..PlayOptions::new(world.clone())
    });
    app.add_plugins(ExitOnSignal);
    // Game time barely moves, so no autosave comes first.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_micros(1)));
    load(&mut app);
    let feet = common::feet(&mut app);
    let p = common::dig(&mut app, feet.x as i32 + 2, feet.z as i32);
    let saves = SaveDir::new(&dir);
    assert!(!saves.path_for(&world).exists(), "not saved yet");

    let status = std::process::Command::new("kill")
        .args(["-TERM", &std::process::id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    run_until(&mut app, 10, |a| a.should_exit().is_some());
    assert_eq!(saves.load(&world).unwrap().get(p), Some(Block::Air));
    let _ = std::fs::remove_dir_all(dir);
}
