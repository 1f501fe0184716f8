//! Key-press tests in the headless game (Bevy's `how_to_test_systems` style): the
//! input resources are pressed and released by hand between updates, with a fixed
//! frame time so movement is exact.

use crate::common;

use std::time::Duration;

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{feet, load, with_player, world};
use terravox_game::{Chunks, HOTBAR, Hotbar, LOCAL_PLAYER, Mode, Slot, Target, WorldAuthority};
use terravox_voxel::Block;

/// A loaded headless game stepping 1/30 s per frame.
fn game() -> App {
    let mut app = common::app(world("cliffs", "input-test"));
    load(&mut app);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 30.0,
    )));
    app.update();
    app
}

fn mode(app: &App) -> Mode {
    *app.world().resource::<State<Mode>>().get()
}

/// Presses `button` (a key or a mouse button) for one frame, then releases it.
fn press_once<T: Copy + Eq + std::hash::Hash + Send + Sync + 'static>(app: &mut App, button: T) {
    app.world_mut()
        .resource_mut::<ButtonInput<T>>()
        .press(button);
    app.update();
    let mut input = app.world_mut().resource_mut::<ButtonInput<T>>();
    input.release(button);
    input.clear();
    app.update();
}

fn tap(app: &mut App, key: KeyCode) {
    press_once(app, key);
}

fn click(app: &mut App, button: MouseButton) {
    press_once(app, button);
}

/// Holds `keys` for `frames` frames.
fn hold(app: &mut App, keys: &[KeyCode], frames: usize) {
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    for key in keys {
        input.press(*key);
    }
    for _ in 0..frames {
        app.update();
    }
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    input.release_all();
    input.clear();
    app.update();
}

#[test]
fn tab_opens_and_closes_the_panel_click_plays_and_esc_releases() {
    let mut app = game();
    assert_eq!(mode(&app), Mode::Released);
    tap(&mut app, KeyCode::Tab);
    assert_eq!(mode(&app), Mode::Panel);
    // A click while the panel is open does not grab the mouse.
    click(&mut app, MouseButton::Left);
    assert_eq!(mode(&app), Mode::Panel);
    tap(&mut app, KeyCode::Tab);
    assert_eq!(mode(&app), Mode::Released);
    click(&mut app, MouseButton::Left);
    assert_eq!(mode(&app), Mode::Playing);
    tap(&mut app, KeyCode::Escape);
    assert_eq!(mode(&app), Mode::Released);
}

#[test]
fn walking_keys_move_the_player_only_while_playing() {
    let mut app = game();
    // Flying high, above any hill or tree in the way.
    with_player(&mut app, |p| {
        p.flying = true;
        p.yaw = 0.0;
        p.position.y += 48.0;
    });
    let start = feet(&mut app);
    hold(&mut app, &[KeyCode::KeyW], 15);
    assert_eq!(feet(&mut app), start, "W moved a released player");

    click(&mut app, MouseButton::Left);
    assert_eq!(mode(&app), Mode::Playing);
    let start = feet(&mut app);
    hold(&mut app, &[KeyCode::KeyW], 15);
    let walked = feet(&mut app) - start;
    // Yaw 0 looks towards -z; flying speed 16 blocks/s for 15 frames of 1/30 s.
    assert!((walked.z + 8.0).abs() < 0.01, "{walked}");
    assert!(walked.x.abs() < 1e-3 && walked.y.abs() < 1e-3, "{walked}");

    // D strafes right (+x at yaw 0); Shift sprints (2.5x while flying).
    let start = feet(&mut app);
    hold(&mut app, &[KeyCode::KeyD, KeyCode::ShiftLeft], 15);
    let walked = feet(&mut app) - start;
    assert!((walked.x - 20.0).abs() < 0.01, "{walked}");
    // Space rises, Ctrl sinks.
    let start = feet(&mut app);
    hold(&mut app, &[KeyCode::Space], 15);
    assert!((feet(&mut app).y - start.y - 8.0).abs() < 0.01);
    let start = feet(&mut app);
    hold(&mut app, &[KeyCode::ControlLeft], 15);
    assert!((start.y - feet(&mut app).y - 8.0).abs() < 0.01);
}

#[test]
fn f_toggles_flying_and_n_noclip_but_not_in_the_panel() {
    let mut app = game();
    let flying = |app: &mut App| with_player(app, |p| (p.flying, p.noclip));
    assert_eq!(flying(&mut app), (false, false));
    tap(&mut app, KeyCode::KeyF);
    assert_eq!(flying(&mut app), (true, false));
    tap(&mut app, KeyCode::KeyN);
    assert_eq!(flying(&mut app), (true, true));
    tap(&mut app, KeyCode::Tab);
    tap(&mut app, KeyCode::KeyF);
    assert_eq!(flying(&mut app), (true, true), "the panel has the keys");
    tap(&mut app, KeyCode::Tab);
    tap(&mut app, KeyCode::KeyF);
    assert_eq!(flying(&mut app), (false, true));
}

#[test]
fn a_jump_leaves_the_ground_and_lands_again() {
    let mut app = game();
    click(&mut app, MouseButton::Left);
    for _ in 0..30 {
        app.update();
    }
    let on_ground = |app: &mut App| with_player(app, |p| p.on_ground);
    assert!(on_ground(&mut app), "standing at the spawn");
    let ground = feet(&mut app).y;
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::Space);
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release_all();
    let mut top = ground;
    for _ in 0..45 {
        app.update();
        top = top.max(feet(&mut app).y);
    }
    assert!(top > ground + 1.0, "jumped to {top} from {ground}");
    assert!(on_ground(&mut app) && (feet(&mut app).y - ground).abs() < 0.01);
}

#[test]
fn digits_and_the_wheel_select_hotbar_slots() {
    let mut app = game();
    let selected = |app: &App| app.world().resource::<Hotbar>().selected;
    tap(&mut app, KeyCode::Digit3);
    assert_eq!(selected(&app), 2);
    assert_eq!(app.world().resource::<Hotbar>().slot(), HOTBAR[2]);
    // Wheel down: next slot; wheel up from the first slot wraps to the last.
    app.world_mut()
        .resource_mut::<AccumulatedMouseScroll>()
        .delta = Vec2::new(0.0, -1.0);
    app.update();
    app.world_mut()
        .resource_mut::<AccumulatedMouseScroll>()
        .delta = Vec2::ZERO;
    assert_eq!(selected(&app), 3);
    tap(&mut app, KeyCode::Digit1);
    app.world_mut()
        .resource_mut::<AccumulatedMouseScroll>()
        .delta = Vec2::new(0.0, 1.0);
    app.update();
    app.world_mut()
        .resource_mut::<AccumulatedMouseScroll>()
        .delta = Vec2::ZERO;
    assert_eq!(selected(&app), HOTBAR.len() - 1);
    // 0 selects the tenth slot: slate; - the last: the bucket.
    tap(&mut app, KeyCode::Digit2);
    tap(&mut app, KeyCode::Digit0);
    assert_eq!(selected(&app), 9);
    assert_eq!(
        app.world().resource::<Hotbar>().slot(),
        Slot::Block(Block::Slate)
    );
    tap(&mut app, KeyCode::Minus);
    assert_eq!(app.world().resource::<Hotbar>().slot(), Slot::Bucket);
    tap(&mut app, KeyCode::Digit0);
    // The panel has the keys.
    tap(&mut app, KeyCode::Tab);
    tap(&mut app, KeyCode::Digit5);
    assert_eq!(selected(&app), 9);
}

#[test]
fn the_mouse_turns_the_player_only_while_playing() {
    let mut app = game();
    let view = |app: &mut App| with_player(app, |p| (p.yaw, p.pitch));
    let before = view(&mut app);
    app.world_mut()
        .resource_mut::<AccumulatedMouseMotion>()
        .delta = Vec2::new(100.0, 40.0);
    app.update();
    assert_eq!(view(&mut app), before, "a released mouse turned the player");
    app.world_mut()
        .resource_mut::<AccumulatedMouseMotion>()
        .delta = Vec2::ZERO;
    click(&mut app, MouseButton::Left);
    app.world_mut()
        .resource_mut::<AccumulatedMouseMotion>()
        .delta = Vec2::new(100.0, 40.0);
    app.update();
    app.world_mut()
        .resource_mut::<AccumulatedMouseMotion>()
        .delta = Vec2::ZERO;
    let after = view(&mut app);
    assert!((after.0 - (before.0 - 0.25)).abs() < 1e-5, "{after:?}");
    assert!((after.1 - (before.1 - 0.1)).abs() < 1e-5, "{after:?}");
}

#[test]
fn the_grabbing_click_does_not_edit_and_the_next_click_breaks_the_target() {
    let mut app = game();
    // Look down at the ground in front of the feet (the spawn faces open land).
    with_player(&mut app, |p| p.pitch = -0.8);
    app.update();
    let target = app.world().resource::<Target>().0.expect("ground below");
    let block = |app: &App| app.world().resource::<Chunks>().block(target.pos);
    assert!(block(&app).is_some_and(|b| b.is_solid()));
    click(&mut app, MouseButton::Left);
    assert_eq!(mode(&app), Mode::Playing);
    assert!(
        block(&app).is_some_and(|b| b.is_solid()),
        "the grabbing click broke a block"
    );
    click(&mut app, MouseButton::Left);
    assert_eq!(block(&app), Some(Block::Air));
    assert_eq!(app.world().resource::<WorldAuthority>().edits().len(), 1);
    // Right click places the selected block against the face now outlined.
    tap(&mut app, KeyCode::Digit7);
    let next = app.world().resource::<Target>().0.expect("ground beyond");
    let free = next.adjacent().expect("a face to place against");
    let at = |app: &App| app.world().resource::<Chunks>().block(free);
    assert!(at(&app).is_some_and(|b| !b.is_solid()));
    click(&mut app, MouseButton::Right);
    assert_eq!(at(&app).map(Slot::Block), Some(HOTBAR[6]));
    // Two edits, or one where the block went back into the hole just dug.
    let edits = 1 + usize::from(free != target.pos);
    assert_eq!(
        app.world().resource::<WorldAuthority>().edits().len(),
        edits
    );
}

#[test]
fn flying_at_the_far_edge_of_the_world_is_exact_and_drawn_near_the_origin() {
    let far = (terravox_worldgen::WORLD_LIMIT - 64) as f64;
    let mut app = terravox_game::headless_app(terravox_game::PlayOptions {
        view_distance: 4,
        at: Some([far, 200.0, -far]),
        look: Some([0.0, 0.0]),
        ..terravox_game::PlayOptions::new(world("cliffs", "far-lands"))
    });
    load(&mut app);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 30.0,
    )));
    click(&mut app, MouseButton::Left);
    let start = feet(&mut app);
    hold(&mut app, &[KeyCode::KeyW], 15);
    let moved = feet(&mut app) - start;
    // Flying at 16 blocks a second for half a second, towards -z: exact, as at home.
    assert!((moved.z + 8.0).abs() < 1e-3, "{moved}");
    assert!(moved.x.abs() < 1e-6 && moved.y.abs() < 1e-6, "{moved}");
    // Drawn relative to a floating origin: the transform stays small and exact.
    let mut q = app
        .world_mut()
        .query_filtered::<&Transform, With<terravox_game::Player>>();
    let t = q.single(app.world()).unwrap().translation;
    assert!(t.abs().max_element() < 1024.0, "{t}");
}

#[test]
fn the_bucket_pours_a_source_and_takes_it_back() {
    let mut app = game();
    with_player(&mut app, |p| p.pitch = -0.8);
    app.update();
    click(&mut app, MouseButton::Left);
    assert_eq!(mode(&app), Mode::Playing);
    app.world_mut()
        .resource_mut::<WorldAuthority>()
        .players_mut()
        .set_bucket(LOCAL_PLAYER, true);
    tap(&mut app, KeyCode::Minus);
    assert_eq!(app.world().resource::<Hotbar>().slot(), Slot::Bucket);
    let ground = app.world().resource::<Target>().0.expect("ground below");
    let spot = ground.adjacent().expect("a face to pour against");
    let at = |app: &App| app.world().resource::<Chunks>().block(spot);
    click(&mut app, MouseButton::Right);
    assert_eq!(at(&app), Some(Block::Water), "poured");
    assert!(!bucket_full(&app));
    // Empty, the bucket aims at the source (not through it) and takes it back.
    app.update();
    let aimed = app.world().resource::<Target>().0.expect("the source");
    assert_eq!(aimed.pos, spot);
    click(&mut app, MouseButton::Right);
    assert!(
        at(&app).is_some_and(|b| b.is_air()),
        "taken: {:?}",
        at(&app)
    );
    assert!(bucket_full(&app));
    // Water is not broken with a click.
    click(&mut app, MouseButton::Right);
    assert_eq!(at(&app), Some(Block::Water));
    click(&mut app, MouseButton::Left);
    assert_eq!(at(&app), Some(Block::Water), "a left click broke water");
}

/// Whether the local player's bucket holds water (the world authority says).
fn bucket_full(app: &App) -> bool {
    app.world()
        .resource::<WorldAuthority>()
        .players()
        .bucket_full(LOCAL_PLAYER)
}
