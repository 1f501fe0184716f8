//! The panel's "Your edits" window: where the edits are saved, how many, whether
//! saved, and discarding them (asking first).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::panel_state::PanelState;
use crate::persistence::Saves;
use crate::world::{DiscardEdits, WorldAuthority};

/// The panel's saved-edits window: location, count, state, discard (asking first).
pub(super) fn draw_edits_window(
    mut contexts: EguiContexts,
    mut state: ResMut<PanelState>,
    edits: Res<WorldAuthority>,
    saves: Res<Saves>,
    mut discard: MessageWriter<DiscardEdits>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let shown = egui::Window::new("Your edits")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            match saves.path(&edits) {
                Some(p) => ui.label(format!("Saved to {}", p.display())),
                None => ui.label("Edits are not saved in this session"),
            };
            ui.label(format!(
                "{} edited blocks{}",
                edits.edits().len(),
                if saves.dirty(&edits) {
                    " (unsaved changes)"
                } else {
                    ""
                }
            ));
            ui.label(saves.status());
            if saves.unsaved_worlds() > 0 {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 150, 60),
                    format!(
                        "{} other worlds have edits not saved yet (kept in memory, retried)",
                        saves.unsaved_worlds()
                    ),
                );
            }
            if state.confirm_discard {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 70, 60),
                    format!(
                        "Discard all {} edited blocks of this world? This cannot be undone.",
                        edits.edits().len()
                    ),
                );
                ui.horizontal(|ui| {
                    if ui.button("Yes, discard").clicked() {
                        discard.write(DiscardEdits);
                        state.confirm_discard = false;
                    }
                    if ui.button("Keep them").clicked() {
                        state.confirm_discard = false;
                    }
                });
            } else if ui
                .add_enabled(
                    !edits.edits().is_empty(),
                    egui::Button::new("Discard edits…"),
                )
                .on_hover_text("Return this world to its generated state")
                .clicked()
            {
                state.confirm_discard = true;
            }
        });
    state.edits_window_height = shown.map_or(0.0, |s| s.response.rect.height());
    Ok(())
}
