//! Kill test: a process saves growing and shrinking edit sets in a loop and is killed
//! (SIGKILL on Unix) at random moments, many times over. Every time, the save on disk
//! must load and equal one of the states that was saved.
//!
//! The saving process is this test binary itself, re-run with an environment
//! variable that makes `saver_process` loop instead of returning.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use terravox_edits::{Edits, SaveDir};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{WorldConfig, presets};

const CHILD_DIR: &str = "TERRAVOX_KILL_TEST_DIR";

fn world() -> WorldConfig {
    presets::builtin("islands").unwrap()
}

/// The state of `n` edits: the first `n` of a fixed sequence. A state is known by
/// its size, so whatever is on disk can be checked against the one it must be.
fn state(n: usize) -> Edits {
    let mut e = Edits::new();
    for i in 0..n as i32 {
        let b = Block::ALL[(i as usize * 7) % Block::ALL.len()];
        e.set(
            BlockPos::new(i % 97 - 48, i / 97 - 20, (i * 31) % 83 - 41),
            b,
        );
    }
    e
}

/// Sizes the saver cycles through: up to a few thousand edits (files of ~100 KB), so
/// a kill often lands in the middle of a write.
fn size(k: usize) -> usize {
    (k * 397) % 4000
}

/// The states the saver cycles through.
const STATES: usize = 16;

#[test]
#[ignore = "the saving process of the kill test; run by it"]
fn saver_process() {
    let states: Vec<Edits> = (0..STATES).map(|k| state(size(k))).collect();
    let world = world();
    let Ok(dir) = std::env::var(CHILD_DIR) else {
        // Run alone (`--include-ignored`): one pass through the states, each saved
        // over the last and read back.
        let dir = std::env::temp_dir().join(format!("terravox-saver-{}", std::process::id()));
        let save = SaveDir::new(&dir);
        for s in &states {
            save.save(&world, s).unwrap();
            assert_eq!(&save.load(&world).unwrap(), s);
        }
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let dir = SaveDir::new(dir);
    for k in 0.. {
        dir.save(&world, &states[k % states.len()]).unwrap();
    }
}

#[test]
fn killing_a_saving_process_never_leaves_a_broken_save() {
    let dir = std::env::temp_dir().join(format!("terravox-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let save = SaveDir::new(&dir);
    let world = world();
    let exe = std::env::current_exe().unwrap();
    // A fixed PRNG for the kill moments, so a failure can be replayed.
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let rounds = 60;
    let mut checked = 0;
    let mut sizes = std::collections::BTreeSet::new();
    for round in 0..rounds {
        let mut child = Command::new(&exe)
            .args(["saver_process", "--exact", "--ignored", "--test-threads=1"])
            .env(CHILD_DIR, &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Let it save a while (the first rounds also cover the very first write).
        let wait = Duration::from_micros(2_000 + next() % 60_000);
        let t = Instant::now();
        while t.elapsed() < wait {
            std::thread::yield_now();
        }
        child.kill().unwrap();
        child.wait().unwrap();
        if !save.path_for(&world).exists() {
            // Killed before its first save finished: no save is a valid state too.
            continue;
        }
        let loaded = save
            .load(&world)
            .unwrap_or_else(|e| panic!("round {round}: the save does not load: {e}"));
        // One of the states saved (a state is known by its size), whole.
        let n = loaded.len();
        assert!(
            (0..STATES).any(|k| size(k) == n),
            "round {round}: {n} edits is not a size that was saved"
        );
        assert_eq!(loaded, state(n), "round {round}: not a saved state");
        checked += 1;
        sizes.insert(loaded.len());
    }
    assert!(checked >= rounds / 2, "only {checked} rounds found a save");
    // The kills landed at different points of the loop.
    assert!(sizes.len() >= 3, "saved states seen: {sizes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
