//! Live reshaping: with *Live* on, a change of the pending config regenerates the
//! world around the player in place, once, after the debounce, as a draft that keeps
//! no edits and writes no save; Apply makes it a world again.

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{edit, feet, load, run_until, world};
use terravox_authority::Refusal;
use terravox_game::{
    ActiveWorld, Chunks, DEBOUNCE, Draft, PlayOptions, ReshapeWorld, holes_in_horizon,
    horizon_settled,
};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, Seed};

fn now(app: &App) -> Duration {
    app.world().resource::<Time<Real>>().elapsed()
}

fn epoch(app: &App) -> u64 {
    app.world().resource::<ActiveWorld>().epoch()
}

/// Game time a frame once the test drives the clock: the debounce is counted in
/// frames, whatever the machine's speed.
const STEP: Duration = Duration::from_millis(20);

/// Checks that no spot inside the horizon and no wanted chunk of the view is
/// uncovered in frame `frame`.
fn assert_no_hole(
    app: &mut App,
    generator: &Generator,
    heights: &mut HashMap<(i32, i32), i32>,
    frame: u32,
) {
    let feet = feet(app);
    let (spots, missing) = holes_in_horizon(app.world(), feet, generator, heights);
    assert!(spots > 0);
    assert_eq!(missing, 0, "a hole in the horizon in frame {frame}");
    let chunks = app.world().resource::<Chunks>();
    let gone = chunks.wanted().filter(|&p| !chunks.is_loaded(p)).count();
    assert_eq!(gone, 0, "a hole in the view in frame {frame}");
}

/// Every file in `dir` (none if it does not exist), with its length.
fn files(dir: &std::path::Path) -> Vec<(String, u64)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            let len = e.metadata().map(|m| m.len()).unwrap_or(0);
            (e.file_name().to_string_lossy().into_owned(), len)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_live_change_regenerates_in_place_once_after_the_debounce() {
    let dir = std::env::temp_dir().join(format!("terravox-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start = world("continents", "live");
    let mut app = terravox_game::headless_app(PlayOptions {
        view_distance: 4,
        horizon: 1024,
        save_dir: Some(dir.clone()),
        ..PlayOptions::new(start.clone())
    });
    load(&mut app);
    run_until(&mut app, 120, |a| horizon_settled(a.world()));
    // An edit of the real world, saved: it must come back after Apply.
    let at = feet(&mut app);
    let mark = BlockPos::new(at.x as i32 + 2, at.y as i32 + 3, at.z as i32);
    edit(&mut app, |b| b.set(mark, Block::Brick)).expect("loaded");
    run_until(&mut app, 30, |a| {
        !a.world()
            .resource::<terravox_game::Saves>()
            .dirty(a.world().resource::<terravox_game::WorldAuthority>())
    });
    let saved = files(&dir);
    // Flying, so the view stays put whatever the new ground does.
    common::with_player(&mut app, |p| {
        p.flying = true;
        p.velocity = Vec3::ZERO;
    });
    let (e0, before) = (epoch(&app), feet(&mut app));

    // From here on each frame is STEP of game time, so the debounce ends in a known
    // frame.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(STEP));
    let other = start.clone().with_seed(Seed::new("reshaped"));
    let t = now(&app);
    {
        let mut draft = app.world_mut().resource_mut::<Draft>();
        draft.set_live(true, t);
        assert!(draft.set(other.clone(), t));
    }
    // Within the debounce nothing happens: the frame that ends it regenerates.
    let due = DEBOUNCE.div_duration_f64(STEP).ceil() as u32;
    assert!(due > 5, "the debounce spans frames");
    for frame in 1..due {
        app.update();
        assert_eq!(now(&app), t + STEP * frame);
        assert_eq!(
            epoch(&app),
            e0,
            "regenerated before the debounce, frame {frame}"
        );
    }
    app.update();
    assert_eq!(
        epoch(&app),
        e0 + 1,
        "not regenerated when the debounce ended"
    );
    // It regenerates in place, never leaving a hole.
    let generator = Generator::new(&other).unwrap();
    let mut heights = HashMap::new();
    let mut frames = 0;
    assert_no_hole(&mut app, &generator, &mut heights, frames);
    run_until(&mut app, 180, |a| {
        frames += 1;
        assert_no_hole(a, &generator, &mut heights, frames);
        horizon_settled(a.world())
    });
    // A second of game time more: no second regeneration.
    for _ in 0..Duration::from_secs(1).div_duration_f64(STEP) as u32 {
        app.update();
    }
    assert_eq!(epoch(&app), e0 + 1, "regenerated exactly once");
    let after = feet(&mut app);
    assert_eq!(
        (after.x, after.z),
        (before.x, before.z),
        "the player was not moved"
    );
    let w = app.world();
    assert!(w.resource::<ActiveWorld>().is_draft());
    assert_eq!(w.resource::<ActiveWorld>().config(), &other);
    // Every loaded chunk is the new world's.
    let chunks = w.resource::<Chunks>();
    assert!(chunks.loaded_count() > 100);
    for p in chunks.loaded() {
        assert_eq!(**chunks.blocks(p).unwrap(), generator.generate(p), "{p:?}");
    }
    // A draft keeps no edits and writes nothing.
    assert_eq!(
        edit(&mut app, |b| b.set(mark, Block::Stone)),
        Err(Refusal::Draft)
    );
    assert_eq!(files(&dir), saved, "the draft wrote a save");

    // Undo goes back to the start config exactly; Apply makes it real again in
    // place and the saved edit comes back.
    let t = now(&app);
    let undone = {
        let mut draft = app.world_mut().resource_mut::<Draft>();
        assert!(draft.undo(t));
        draft.pending().clone()
    };
    assert_eq!(undone.to_world_code(), start.to_world_code());
    app.world_mut().write_message(ReshapeWorld {
        config: undone,
        draft: false,
    });
    run_until(&mut app, 180, |a| {
        terravox_game::settled(a.world())
            && a.world().resource::<Chunks>().block(mark) == Some(Block::Brick)
    });
    assert!(!app.world().resource::<ActiveWorld>().is_draft());
    assert_eq!(
        epoch(&app),
        e0 + 2,
        "the draft's regeneration was not repeated"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
