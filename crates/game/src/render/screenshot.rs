//! The automated screenshot (`--screenshot`): once the world around the player and
//! the horizon are complete and the pipelines had time to compile, one frame is
//! captured to a PNG and the game exits. The frames between (the view complete,
//! nothing loading) are timed and logged: what drawing that view costs, on the
//! renderer at hand.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use super::RenderSystems;
use crate::config::AutoScreenshot;
use crate::frame_times::FrameTimes;
use crate::player::PlayerCamera;
use crate::readiness::horizon_settled;

/// The automated screenshot.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ScreenshotState>().add_systems(
        Update,
        (
            count_frame,
            note_loaded.run_if(waiting.and_then(horizon_settled)),
            take_auto_screenshot,
        )
            .chain()
            .run_if(planned)
            .in_set(RenderSystems::Screenshot),
    );
}

/// Progress of the automated screenshot.
#[derive(Resource, Default, Debug)]
struct ScreenshotState {
    /// The frame and the time when the world and the horizon were first complete.
    loaded_at: Option<(u32, f32)>,
    taken_at: Option<u32>,
    frame: u32,
    /// The frames since the world was complete, until the screenshot is asked for.
    drawn: Vec<std::time::Duration>,
}

/// Whether a screenshot was asked for.
fn planned(plan: Res<AutoScreenshot>) -> bool {
    plan.0.is_some()
}

/// Whether the world has not been seen complete yet.
fn waiting(state: Res<ScreenshotState>) -> bool {
    state.loaded_at.is_none()
}

/// Counts the frame, and times it once the world is complete (until the shot).
fn count_frame(real: Res<Time<Real>>, mut state: ResMut<ScreenshotState>) {
    state.frame += 1;
    if state.loaded_at.is_some() && state.taken_at.is_none() {
        state.drawn.push(real.delta());
    }
}

/// Notes when the world around the player and the horizon were first complete
/// (runs only then), once the camera is there.
fn note_loaded(
    time: Res<Time>,
    camera: Query<(), With<PlayerCamera>>,
    mut state: ResMut<ScreenshotState>,
) {
    if camera.is_empty() {
        return;
    }
    let now = time.elapsed_secs();
    info!(
        "view distance loaded after {:.2} s ({} frames)",
        now, state.frame
    );
    state.loaded_at = Some((state.frame, now));
}

/// Takes the screenshot once enough frames and time passed after loading, then
/// exits once it was written.
fn take_auto_screenshot(
    plan: Res<AutoScreenshot>,
    time: Res<Time>,
    mut state: ResMut<ScreenshotState>,
    camera: Query<(), With<PlayerCamera>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(plan) = &plan.0 else { return };
    let now = time.elapsed_secs();
    if camera.is_empty() {
        return;
    }
    let Some((f0, t0)) = state.loaded_at else {
        return;
    };
    // Pipelines compile after the first frames that use them; wait for at least 10
    // frames and one second after loading even if the plan asks for less.
    let ready = state.frame >= f0 + plan.frames.max(10) && now >= t0 + plan.seconds.max(1.0);
    match state.taken_at {
        None if ready => {
            // The first frame after loading may still compile pipelines.
            let t = FrameTimes::of(state.drawn.iter().skip(1).copied().collect());
            info!(
                "frames of the complete view: {}, median {:.1} ms, p90 {:.1} ms, longest {:.1} ms",
                t.count,
                t.median.as_secs_f64() * 1e3,
                t.p90.as_secs_f64() * 1e3,
                t.max.as_secs_f64() * 1e3
            );
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
