//! The head-up display: notices (always), and outside the panel the crosshair and the
//! hotbar.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::editing::{HOTBAR, Hotbar};
use crate::mode::Mode;
use crate::persistence::Saves;
use crate::world::Notices;

/// An egui colour from a block's colour.
fn block_color(b: terravox_voxel::Block) -> egui::Color32 {
    let [r, g, bl] = b.color();
    egui::Color32::from_rgb(r, g, bl)
}

/// Crosshair, hotbar and notices: drawn whenever the panel is closed (notices always).
pub(super) fn draw_hud(
    mut contexts: EguiContexts,
    mode: Res<State<Mode>>,
    hotbar: Res<Hotbar>,
    saves: Res<Saves>,
    mut notices: ResMut<Notices>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if saves.loading() {
        egui::Area::new(egui::Id::new("loading"))
            .anchor(egui::Align2::LEFT_BOTTOM, [12.0, -12.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| ui.label("Loading your edits…"));
            });
    }
    let current = notices.shown_now();
    if !current.is_empty() {
        egui::Area::new(egui::Id::new("notices"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 12.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style())
                    .fill(egui::Color32::from_rgb(90, 25, 20))
                    .show(ui, |ui| {
                        ui.set_max_width(560.0);
                        for n in current {
                            ui.colored_label(egui::Color32::WHITE, n);
                        }
                    });
            });
    }
    if *mode.get() == Mode::Panel {
        return Ok(());
    }
    let centre = ctx.content_rect().center();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::new("crosshair"),
    ));
    for (stroke, half) in [(4.0, 9.0), (2.0, 8.0)] {
        let color = if stroke > 3.0 {
            egui::Color32::from_black_alpha(160)
        } else {
            egui::Color32::WHITE
        };
        let s = egui::Stroke::new(stroke, color);
        painter.line_segment(
            [
                centre - egui::vec2(half, 0.0),
                centre + egui::vec2(half, 0.0),
            ],
            s,
        );
        painter.line_segment(
            [
                centre - egui::vec2(0.0, half),
                centre + egui::vec2(0.0, half),
            ],
            s,
        );
    }
    egui::Area::new(egui::Id::new("hotbar"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -12.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.vertical_centered(|ui| ui.label(hotbar.block().name()));
                ui.horizontal(|ui| {
                    for (i, b) in HOTBAR.iter().enumerate() {
                        let (rect, _) =
                            ui.allocate_exact_size(egui::vec2(40.0, 40.0), egui::Sense::hover());
                        let p = ui.painter();
                        p.rect_filled(rect.shrink(3.0), 3.0, block_color(*b));
                        let selected = i == hotbar.selected;
                        let stroke = if selected {
                            egui::Stroke::new(3.0, egui::Color32::WHITE)
                        } else {
                            egui::Stroke::new(1.0, egui::Color32::from_gray(60))
                        };
                        p.rect_stroke(rect.shrink(1.5), 4.0, stroke, egui::StrokeKind::Middle);
                        p.text(
                            rect.left_top() + egui::vec2(6.0, 4.0),
                            egui::Align2::LEFT_TOP,
                            ((i + 1) % 10).to_string(),
                            egui::FontId::proportional(12.0),
                            egui::Color32::BLACK,
                        );
                    }
                });
            });
        });
    Ok(())
}
