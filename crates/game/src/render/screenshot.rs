//! The automated screenshot (`--screenshot`): once the world around the player and
//! the horizon are complete and the pipelines had time to compile, one frame is
//! captured to a PNG and the game exits.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use super::RenderSystems;
use crate::config::AutoScreenshot;
use crate::horizon::Horizon;
use crate::persistence::Saves;
use crate::player::{PlayerCamera, Spawn};
use crate::streaming::Chunks;

/// The automated screenshot.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ScreenshotState>().add_systems(
        Update,
        take_auto_screenshot.in_set(RenderSystems::Screenshot),
    );
}

/// Progress of the automated screenshot.
#[derive(Resource, Default, Debug)]
struct ScreenshotState {
    loaded_at: Option<(u32, f32)>,
    taken_at: Option<u32>,
    frame: u32,
}

fn take_auto_screenshot(
    plan: Res<AutoScreenshot>,
    (chunks, saves, spawn, horizon): (Res<Chunks>, Res<Saves>, Res<Spawn>, Res<Horizon>),
    time: Res<Time>,
    mut state: ResMut<ScreenshotState>,
    camera: Query<(), With<PlayerCamera>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(plan) = &plan.0 else { return };
    state.frame += 1;
    let now = time.elapsed_secs();
    if camera.is_empty() {
        return;
    }
    let settled = spawn.placed() && chunks.fully_loaded() && !saves.loading() && horizon.complete();
    if state.loaded_at.is_none() && settled {
        info!(
            "view distance loaded after {:.2} s ({} frames)",
            now, state.frame
        );
        state.loaded_at = Some((state.frame, now));
    }
    let Some((f0, t0)) = state.loaded_at else {
        return;
    };
    // Pipelines compile after the first frames that use them; wait for at least 10
    // frames and one second after loading even if the plan asks for less.
    let ready = state.frame >= f0 + plan.frames.max(10) && now >= t0 + plan.seconds.max(1.0);
    match state.taken_at {
        None if ready => {
            info!("taking screenshot {}", plan.path.display());
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(plan.path.clone()));
            state.taken_at = Some(state.frame);
        }
        // Give the capture a few frames to be read back and written.
        Some(t) if state.frame >= t + 10 && plan.path.exists() => {
            exit.write(AppExit::Success);
        }
        Some(t) if state.frame >= t + 600 => {
            error!("the screenshot was never written");
            exit.write(AppExit::error());
        }
        _ => {}
    }
}
