//! The head-up display: notices (always), and outside the panel the crosshair and the
//! hotbar.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::editing::{HOTBAR, Hotbar, Slot};
use crate::mode::Mode;
use crate::persistence::Saves;
use crate::world::{LOCAL_PLAYER, Notices, WorldAuthority};

/// An egui colour from a block's colour.
fn block_color(b: terravox_voxel::Block) -> egui::Color32 {
    let [r, g, bl] = b.color();
    egui::Color32::from_rgb(r, g, bl)
}

/// Crosshair, hotbar and notices: drawn whenever the panel is closed (notices always).
pub(super) fn draw_hud(
    mut contexts: EguiContexts,
    mode: Res<State<Mode>>,
    (hotbar, world): (Res<Hotbar>, Res<WorldAuthority>),
    saves: Res<Saves>,
    mut notices: ResMut<Notices>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let full = world.players().bucket_full(LOCAL_PLAYER);
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
                ui.vertical_centered(|ui| ui.label(hotbar.name(full)));
                ui.horizontal(|ui| {
                    for (i, slot) in HOTBAR.iter().enumerate() {
                        let (rect, _) =
                            ui.allocate_exact_size(egui::vec2(40.0, 40.0), egui::Sense::hover());
                        let p = ui.painter();
                        match slot {
                            Slot::Block(b) => {
                                p.rect_filled(rect.shrink(3.0), 3.0, block_color(*b));
                            }
                            Slot::Bucket => draw_bucket(p, rect, full),
                        }
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
                            slot_key(i),
                            egui::FontId::proportional(12.0),
                            egui::Color32::BLACK,
                        );
                    }
                });
            });
        });
    Ok(())
}

/// The key of hotbar slot `i`: 1 to 9, 0, then -.
fn slot_key(i: usize) -> String {
    match i {
        0..=8 => (i + 1).to_string(),
        9 => "0".to_owned(),
        _ => "-".to_owned(),
    }
}

/// A bucket in `rect`: a grey pail, with water in it when `full`.
fn draw_bucket(p: &egui::Painter, rect: egui::Rect, full: bool) {
    let r = rect.shrink(7.0);
    let pail = |top: f32| {
        let y = r.top() + top * r.height();
        let inset = 0.18 * r.width() * (1.0 - top);
        vec![
            egui::pos2(r.left() + inset, y),
            egui::pos2(r.right() - inset, y),
            egui::pos2(r.right() - 0.18 * r.width(), r.bottom()),
            egui::pos2(r.left() + 0.18 * r.width(), r.bottom()),
        ]
    };
    let metal = egui::Color32::from_gray(170);
    p.add(egui::Shape::convex_polygon(
        pail(0.25),
        metal,
        egui::Stroke::new(1.5, egui::Color32::from_gray(60)),
    ));
    if full {
        let [r, g, b] = terravox_voxel::Block::Water.color();
        p.add(egui::Shape::convex_polygon(
            pail(0.4),
            egui::Color32::from_rgb(r, g, b),
            egui::Stroke::NONE,
        ));
    }
    // The handle: a half circle over the rim.
    let (centre, radius) = (
        egui::pos2(r.center().x, r.top() + 0.25 * r.height()),
        0.36 * r.width(),
    );
    let handle = (0..=12)
        .map(|k| {
            let a = std::f32::consts::PI * k as f32 / 12.0;
            centre + radius * egui::vec2(a.cos(), -a.sin())
        })
        .collect();
    p.add(egui::Shape::line(
        handle,
        egui::Stroke::new(1.5, egui::Color32::from_gray(60)),
    ));
}
