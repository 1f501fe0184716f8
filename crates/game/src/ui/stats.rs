//! The stats overlay.

use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::config::HorizonDistance;
use crate::horizon::Horizon;
use crate::player::Player;
use crate::sky::TimeOfDay;
use crate::streaming::Chunks;
use crate::streaming::{Culling, StreamStats};
use crate::world::ActiveWorld;

/// The overlay's line of fields: for which world epoch and column, and the text.
type FieldsLine = (u64, [i32; 2], String);

/// The fields at a column as one line of the overlay (empty without fields).
fn fields_line(f: &terravox_worldgen::fields::ColumnFields) -> String {
    use terravox_worldgen::fields::Field;
    let short = |field: Field| match field {
        Field::Continentalness => "C",
        Field::Erosion => "E",
        Field::Weirdness => "W",
        Field::Temperature => "T",
        Field::Humidity => "H",
        Field::Ranges => "ranges",
        Field::Ridges => "ridges",
        Field::Jaggedness => "jag",
        Field::ErosionStrength => "gullies",
    };
    f.present()
        .map(|(field, v)| format!("{} {v:+.2}", short(field)))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The overlay at the top right: frame rate, chunks, timings, position, seed, time.
pub(super) fn draw_stats(
    mut contexts: EguiContexts,
    diagnostics: Res<DiagnosticsStore>,
    chunks: Res<Chunks>,
    (stats, culling): (Res<StreamStats>, Res<Culling>),
    (horizon, distance): (Res<Horizon>, Res<HorizonDistance>),
    (world, time): (Res<ActiveWorld>, Res<TimeOfDay>),
    (player, mut fields): (Query<&Player>, Local<Option<FieldsLine>>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let fps = diagnostics
        .get(&FrameTimeDiagnosticsPlugin::FPS)
        .and_then(|d| d.smoothed())
        .unwrap_or(0.0);
    let ms = diagnostics
        .get(&FrameTimeDiagnosticsPlugin::FRAME_TIME)
        .and_then(|d| d.smoothed())
        .unwrap_or(0.0);
    let per = |d: std::time::Duration| {
        if stats.chunks == 0 {
            0.0
        } else {
            d.as_secs_f64() * 1e6 / stats.chunks as f64
        }
    };
    let pos = player.single().map(|p| p.position).unwrap_or_default();
    egui::Area::new(egui::Id::new("stats"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(format!("{fps:.0} FPS  {ms:.1} ms"));
                ui.label(format!(
                    "chunks {} loaded, {} queued, {} in flight",
                    chunks.loaded_count(),
                    chunks.missing(),
                    chunks.in_flight()
                ));
                let counts = culling.counts(&chunks);
                ui.label(format!(
                    "meshes drawn {} of {} (cave culling, walk {:.0} µs), {} unmeshed",
                    counts.drawn,
                    counts.with_faces,
                    culling.walk_time.as_secs_f64() * 1e6,
                    counts.unmeshed
                ));
                if distance.0 > 0 {
                    let [wanted, loaded, drawn] = horizon.counts();
                    ui.label(format!(
                        "horizon {} blocks: {loaded} coarse chunks loaded of {wanted}, \
                         {drawn} drawn, {} in flight",
                        distance.0,
                        horizon.pending()
                    ));
                }
                ui.label(format!(
                    "gen {:.0} µs  mesh {:.0} µs per chunk",
                    per(stats.generate),
                    per(stats.mesh)
                ));
                ui.label(format!(
                    "applying chunks: {:.0} µs last frame",
                    stats.main_thread.as_secs_f64() * 1e6
                ));
                let c = terravox_voxel::ChunkPos::containing_f64(pos.to_array());
                ui.label(format!(
                    "pos {:.1} {:.1} {:.1}  chunk {} {} {}",
                    pos.x, pos.y, pos.z, c.x, c.y, c.z
                ));
                // The generator's fields at the player's column, computed when the
                // column or the world changes.
                let column = [pos.x.floor() as i32, pos.z.floor() as i32];
                let stale = fields
                    .as_ref()
                    .is_none_or(|(e, at, _)| *e != world.epoch() || *at != column);
                if stale {
                    let text = fields_line(&world.generator().fields_at(column[0], column[1]));
                    *fields = Some((world.epoch(), column, text));
                }
                if let Some((_, _, text)) = fields.as_ref().filter(|(_, _, t)| !t.is_empty()) {
                    ui.label(text);
                }
                ui.label(format!(
                    "{} — seed {:?} — {}{}",
                    world.config().generator_name(),
                    world.config().seed.text(),
                    time.clock(),
                    if time.paused { " (paused)" } else { "" }
                ));
                ui.label("Tab: panel   LMB break  RMB place  1-0, - / wheel: block, bucket");
            });
        });
    Ok(())
}
