//! Helpers shared by the headless-app test files.

use std::time::{Duration, Instant};

use bevy::prelude::*;

/// Updates `app` until `done` says so, or panics after `secs` seconds.
pub fn run_until(app: &mut App, secs: u64, mut done: impl FnMut(&mut App) -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("timed out");
}
