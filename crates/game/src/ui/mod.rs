//! The egui user interface: the generator panel (`panel`, with `generator_form`,
//! `preview`, `section`, `seeds`, `splines` and their `panel_state`), the "Your edits" window (`edits_window`), the
//! stats overlay (`stats`), the HUD (`hud`: notices, crosshair, hotbar) and, on a
//! server, the names, chat and player list (`together`). Drawing runs in egui's pass after
//! `Update`; the bookkeeping around it (the preview task, whether the pointer is over
//! a window) runs in [`GameSystems::Present`].

mod edits_window;
mod generator_form;
mod hud;
mod panel;
mod panel_state;
mod preview;
mod section;
mod seeds;
mod splines;
mod stats;
mod together;

use bevy::diagnostic::FrameTimeDiagnosticsPlugin;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::input::EguiWantsInput;

use crate::config::PanelView;
use crate::mode::Mode;
use crate::mode::PointerOverUi;
use crate::schedule::GameSystems;
use crate::world::ActiveWorld;
use panel_state::PanelState;
use preview::Preview;

/// The UI plugin.
pub(crate) fn plugin(app: &mut App) {
    if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
        app.add_plugins(FrameTimeDiagnosticsPlugin::default());
    }
    app.init_resource::<Preview>()
        .init_resource::<together::Together>()
        .init_resource::<seeds::SeedBrowser>()
        .init_resource::<section::CrossSection>()
        .add_systems(Startup, init_panel)
        .add_systems(OnExit(Mode::Panel), on_close)
        .add_systems(Last, report_panel_time.run_if(on_message::<AppExit>))
        .add_systems(
            Update,
            (
                track_pointer,
                together::toggle_list.run_if(crate::mode::keys_to_game),
                preview::update_preview.run_if(in_state(Mode::Panel)),
                seeds::update_seed_browser.run_if(in_state(Mode::Panel)),
                section::update_cross_section.run_if(in_state(Mode::Panel)),
            )
                .in_set(GameSystems::Present),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                stats::draw_stats,
                hud::draw_hud,
                together::draw_together,
                (
                    panel::draw_panel,
                    edits_window::draw_edits_window,
                    together::draw_open_to_others,
                )
                    .chain()
                    .run_if(in_state(Mode::Panel)),
            )
                .chain(),
        );
}

fn init_panel(
    mut commands: Commands,
    world: Res<ActiveWorld>,
    view: Res<PanelView>,
    mut preview: ResMut<Preview>,
    mut seeds: ResMut<seeds::SeedBrowser>,
    mut section: ResMut<section::CrossSection>,
) {
    let mut state = PanelState::new(world.config());
    state.splines.open = view.splines;
    commands.insert_resource(state);
    preview.show(view.layer.unwrap_or_default());
    seeds.open = view.seeds;
    section.open = view.section;
}

/// Remembers whether the pointer is over a UI window, so a click there does not grab
/// the mouse next frame.
fn track_pointer(egui: Res<EguiWantsInput>, mut over: ResMut<PointerOverUi>) {
    over.0 = egui.wants_any_pointer_input();
}

/// On exit, logs the main-thread time the panel took a frame (its own work: laying
/// out, validating, the pointer's value; egui's drawing aside): its CPU time, and
/// the wall clock, which also counts time the system gave the core to other
/// threads (a software renderer's, on a machine without a GPU).
fn report_panel_time(state: Option<Res<PanelState>>) {
    let Some(state) = state else {
        return;
    };
    for (clock, what) in [(0, "CPU time"), (1, "wall clock")] {
        if let Some((frames, [median, p99, max], at)) = state.timings(clock) {
            info!(
                "panel over {frames} frames, {what}: median {median:?}, p99 {p99:?}, longest {max:?} (frame {at})"
            );
        }
    }
}

/// A closed panel forgets a half-asked discard, and opens from the top next time.
fn on_close(mut state: ResMut<PanelState>) {
    state.confirm_discard = false;
    state.closed();
}

#[cfg(test)]
mod tests {
    use bevy::ecs::system::RunSystemOnce;
    use terravox_worldgen::WorldConfig;
    use terravox_worldgen::map::Layer;

    use super::*;

    #[test]
    fn show_water_opens_the_panel_on_the_water_layer() {
        let mut app = App::new();
        app.insert_resource(ActiveWorld::new(WorldConfig::default()).unwrap())
            .insert_resource("water,section".parse::<PanelView>().unwrap())
            .init_resource::<Preview>()
            .init_resource::<seeds::SeedBrowser>()
            .init_resource::<section::CrossSection>();
        app.world_mut().run_system_once(init_panel).unwrap();
        assert_eq!(app.world().resource::<Preview>().layer(), Layer::Water);
        assert!(app.world().resource::<section::CrossSection>().open);
        assert!(!app.world().resource::<seeds::SeedBrowser>().open);
    }
}
