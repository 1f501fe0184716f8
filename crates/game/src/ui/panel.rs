//! The generator panel (Tab): presets, generator, seed, parameters with validation,
//! the preview map, Apply, the world code, Save RON, the view distance and the time
//! of day.

use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use terravox_authority::Clock;
use terravox_worldgen::{GeneratorConfig, Seed, WorldConfig, params, presets};

use super::generator_form;
use super::panel_state::PanelState;
use super::preview::{Preview, show_preview};
use super::section::{CrossSection, show_cross_section};
use super::seeds::{SeedBrowser, show_seed_browser};
use super::splines::show_splines;
use crate::config::{HorizonDistance, ViewDistance};
use crate::persistence::Saves;
use crate::player::Player;
use crate::world::{ActiveWorld, Draft, ReshapeWorld, SwitchWorld, WorldAuthority};

/// What the pending world's generator version means, for the panel, given the
/// version of the world last loaded (`loaded`): what the version brought, and how it
/// stands to the current one.
fn version_note(version: u32, loaded: u32) -> String {
    let current = terravox_worldgen::GENERATOR_VERSION;
    let brought =
        terravox_worldgen::version_brought(version).unwrap_or("a version this build does not make");
    let head = format!("Generator version {version} brought {brought}.");
    if version < current {
        format!(
            "{head} A world code from an older terravox, generated exactly as it was then \
             (an edit makes it a version-{current} world)."
        )
    } else if loaded < current {
        format!(
            "{head} Edited, this world of version {loaded} is made as terravox makes worlds \
             now (Reset or Undo brings the version-{loaded} world back)."
        )
    } else {
        head
    }
}

/// What the preset row shows the pending world to be: its built-in preset, or
/// "custom" once a value differs from every preset's.
fn preset_shown(pending: &WorldConfig) -> &'static str {
    presets::preset_of(pending).unwrap_or("custom")
}

/// A change the panel asks of the draft this frame, besides edits of its fields.
enum Step {
    /// Load a whole config (a preset, a world code).
    Load(Box<WorldConfig>),
    Undo,
    Redo,
    Reset,
}

/// Red: a problem.
const PROBLEM: egui::Color32 = egui::Color32::from_rgb(230, 70, 60);

/// The generator panel (run while it is open): a section after another, each in its
/// function below, laid out part by part as the panel opens
/// ([`PanelState::opening`]).
pub(super) fn draw_panel(
    mut contexts: EguiContexts,
    mut state: ResMut<PanelState>,
    (world, saves, real): (Res<ActiveWorld>, Res<Saves>, Res<Time<Real>>),
    (mut view, mut time, mut horizon): (
        ResMut<ViewDistance>,
        ResMut<WorldAuthority>,
        ResMut<HorizonDistance>,
    ),
    (mut switch, mut reshape): (MessageWriter<SwitchWorld>, MessageWriter<ReshapeWorld>),
    (mut draft, mut preview, mut seeds, mut section): (
        ResMut<Draft>,
        ResMut<Preview>,
        ResMut<SeedBrowser>,
        ResMut<CrossSection>,
    ),
    player: Query<&Player>,
) -> Result {
    let started = (cpu_time::ThreadTime::now(), std::time::Instant::now());
    let feet = player.single().map(|p| p.position).unwrap_or_default();
    let now = real.elapsed();
    let ctx = contexts.ctx_mut()?;
    let state = &mut *state;
    let mut pending = draft.pending().clone();
    let mut step = keyboard_step(ctx);
    let stage = state.opening();
    egui::Window::new("World generator")
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .default_width(360.0)
        .default_height(680.0)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(640.0)
                .show(ui, |ui| {
                    presets_row(ui, state, &pending, &mut step);
                    generator_row(ui, &mut pending);
                    seed_row(ui, &mut pending);
                    history_row(ui, &mut draft, now, &mut step);
                    ui.label(version_note(pending.version, draft.base().version));
                    if stage >= 1 {
                        generator_form::sliders(ui, &params::WORLD, &mut pending);
                        show_preview(ui, &mut preview, feet);
                    }
                    if stage >= 2 {
                        show_cross_section(ui, &mut section, feet.y);
                        show_splines(ui, &mut state.splines, &mut pending);
                    }
                    let problems = pending.problems();
                    if stage >= 3 {
                        if let Some(seed) =
                            show_seed_browser(ui, &mut seeds, &pending, random_seed())
                        {
                            pending.seed = Seed::new(seed);
                        }
                        ui.separator();
                        generator_form::edit_generator(ui, &mut pending);
                        ui.separator();
                        for p in &problems {
                            ui.colored_label(PROBLEM, p.to_string());
                        }
                    }
                    if stage >= 4 {
                        warnings(ui, &saves, &world);
                        let apply = Apply {
                            live: draft.live(),
                            allowed: problems.is_empty(),
                        };
                        apply.show(ui, state, &pending, &mut switch, &mut reshape);
                        ui.separator();
                        world_code(ui, state, &world, &mut step);
                        save_ron(ui, state, &world);
                        message(ui, state);
                        ui.separator();
                        view_settings(ui, &mut view, &mut horizon, &mut time);
                    }
                });
        });
    take_step(&mut draft, step, pending, now);
    state.note_frame(started.0.elapsed(), started.1.elapsed());
    Ok(())
}

/// Ctrl+Z / Ctrl+Shift+Z, unless a text field has the keys (it undoes its text).
fn keyboard_step(ctx: &egui::Context) -> Option<Step> {
    if ctx.egui_wants_keyboard_input() {
        return None;
    }
    ctx.input(|i| {
        let step = if i.modifiers.shift {
            Step::Redo
        } else {
            Step::Undo
        };
        (i.modifiers.command && i.key_pressed(egui::Key::Z)).then_some(step)
    })
}

/// The draft takes this frame's step, or else the fields as the panel left them.
fn take_step(draft: &mut Draft, step: Option<Step>, pending: WorldConfig, now: Duration) {
    match step {
        Some(Step::Load(cfg)) => draft.load(*cfg, now),
        Some(Step::Undo) => {
            draft.undo(now);
        }
        Some(Step::Redo) => {
            draft.redo(now);
        }
        Some(Step::Reset) => draft.reset(now),
        None => {
            draft.set(pending, now);
        }
    }
}

/// A button per built-in preset, the world's own highlighted ("custom" where it is
/// none of them): loads it with the pending seed.
fn presets_row(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    pending: &WorldConfig,
    step: &mut Option<Step>,
) {
    let shown = preset_shown(pending);
    ui.horizontal_wrapped(|ui| {
        ui.label("Preset:");
        for name in presets::names() {
            if ui.selectable_label(shown == name, name).clicked() {
                match presets::builtin(name) {
                    Ok(cfg) => {
                        *step = Some(Step::Load(Box::new(cfg.with_seed(pending.seed.clone()))))
                    }
                    Err(e) => state.message = Some((false, e.to_string())),
                }
            }
        }
        if shown == "custom" {
            ui.add_enabled(false, egui::Button::selectable(true, "custom"))
                .on_disabled_hover_text("A value differs from every preset's");
        }
    });
}

/// The two generators, named for what they are: a 3D density field (the
/// `continents`, `cliffs` and `amplified` presets) and a 2D heightmap of islands
/// (`islands`, `archipelago`), each switched to with its default preset's settings.
fn generator_row(ui: &mut egui::Ui, pending: &mut WorldConfig) {
    ui.horizontal(|ui| {
        ui.label("Generator:");
        let is_density = matches!(pending.generator, GeneratorConfig::Density(_));
        let choices = [
            (
                true,
                "3D density field",
                "continents",
                "Solid where a 3D noise field is dense enough: overhangs, cliffs, caves",
            ),
            (
                false,
                "2D heightmap islands",
                "islands",
                "A height per column: fractal noise less a falloff around each island",
            ),
        ];
        for (density, label, preset, hover) in choices {
            if ui
                .selectable_label(is_density == density, label)
                .on_hover_text(hover)
                .clicked()
                && is_density != density
            {
                pending.generator = presets::builtin(preset)
                    .map(|c| c.generator)
                    .unwrap_or(pending.generator.clone());
            }
        }
    });
}

/// The seed's text, and the dice.
fn seed_row(ui: &mut egui::Ui, pending: &mut WorldConfig) {
    ui.horizontal(|ui| {
        ui.label("Seed:");
        let mut seed = pending.seed.text().to_owned();
        if ui.text_edit_singleline(&mut seed).changed() {
            pending.seed = Seed::new(seed);
        }
        if ui.button("🎲").on_hover_text("Random seed").clicked() {
            pending.seed = Seed::new(random_seed().to_string());
        }
    });
}

/// Undo, Redo, Reset and Live (the draft written only when Live is switched).
fn history_row(
    ui: &mut egui::Ui,
    draft: &mut ResMut<Draft>,
    now: Duration,
    step: &mut Option<Step>,
) {
    ui.horizontal(|ui| {
        let (can_undo, can_redo) = (draft.can_undo(), draft.can_redo());
        if ui
            .add_enabled(can_undo, egui::Button::new("⟲ Undo"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            *step = Some(Step::Undo);
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("⟳ Redo"))
            .on_hover_text("Ctrl+Shift+Z")
            .clicked()
        {
            *step = Some(Step::Redo);
        }
        if ui
            .button("Reset")
            .on_hover_text("Back to the preset or world code last loaded")
            .clicked()
        {
            *step = Some(Step::Reset);
        }
        let mut live = draft.live();
        if ui
            .checkbox(&mut live, "Live")
            .on_hover_text(
                "Regenerate the world around you a moment after each change, without moving \
                 you. The result is a draft: nothing is saved and you cannot build until you \
                 Apply it.",
            )
            .changed()
        {
            draft.set_live(live, now);
        }
    });
}

/// Saving that fails, and a draft being walked.
fn warnings(ui: &mut egui::Ui, saves: &Saves, world: &ActiveWorld) {
    if let Some(why) = saves.failing() {
        ui.colored_label(
            egui::Color32::from_rgb(230, 150, 60),
            format!(
                "Saving fails: {why} Switching worlds keeps your edits in memory; quitting \
                 writes a rescue copy."
            ),
        );
    }
    if world.is_draft() {
        ui.colored_label(
            egui::Color32::from_rgb(230, 190, 60),
            "You are in a draft: Apply keeps it (and brings its saved edits).",
        );
    }
}

/// The Apply button.
struct Apply {
    /// Whether the draft is live (Apply keeps the world already around the player).
    live: bool,
    /// Whether the pending world is valid.
    allowed: bool,
}

impl Apply {
    /// Shows the button; pressed, it makes `pending` the world.
    fn show(
        &self,
        ui: &mut egui::Ui,
        state: &mut PanelState,
        pending: &WorldConfig,
        switch: &mut MessageWriter<SwitchWorld>,
        reshape: &mut MessageWriter<ReshapeWorld>,
    ) {
        let hover = if self.live {
            "Make the draft the world: its save is read, you can build"
        } else {
            "Rebuild the world around you"
        };
        if !ui
            .add_enabled(self.allowed, egui::Button::new("Apply"))
            .on_hover_text(hover)
            .clicked()
        {
            return;
        }
        if self.live {
            reshape.write(ReshapeWorld {
                config: pending.clone(),
                draft: false,
            });
            state.message = Some((true, "world applied".into()));
        } else {
            switch.write(SwitchWorld(pending.clone()));
            state.message = Some((true, "world rebuilt".into()));
        }
        state.code = pending.to_world_code();
    }
}

/// The world code: copied from the world, or pasted and loaded.
fn world_code(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    world: &ActiveWorld,
    step: &mut Option<Step>,
) {
    ui.label("World code (copy to share, paste to load):");
    ui.add(
        egui::TextEdit::multiline(&mut state.code)
            .desired_rows(3)
            .desired_width(f32::INFINITY),
    );
    ui.horizontal(|ui| {
        if ui.button("Copy current").clicked() {
            state.code = world.config().to_world_code();
            ui.ctx().copy_text(state.code.clone());
        }
        if ui.button("Load code").clicked() {
            match WorldConfig::from_ron(&state.code) {
                Ok(cfg) => {
                    *step = Some(Step::Load(Box::new(cfg)));
                    state.message = Some((true, "code loaded: press Apply".into()));
                }
                Err(e) => state.message = Some((false, format!("bad world code: {e}"))),
            }
        }
    });
}

/// Save RON: the world's config into a file of a folder.
fn save_ron(ui: &mut egui::Ui, state: &mut PanelState, world: &ActiveWorld) {
    ui.horizontal(|ui| {
        ui.label("Folder:");
        ui.text_edit_singleline(&mut state.save_folder);
    });
    ui.horizontal(|ui| {
        ui.label("File:");
        ui.text_edit_singleline(&mut state.save_file);
        if ui
            .button("Save RON")
            .on_hover_text("Write this world's config, to load with --config")
            .clicked()
        {
            let folder = std::path::Path::new(&state.save_folder);
            state.message = Some(
                match save_config(folder, &state.save_file, world.config()) {
                    Ok(path) => (true, format!("saved {}", path.display())),
                    Err(e) => (false, e),
                },
            );
        }
    });
}

/// The last thing the panel did, green, or what went wrong, red.
fn message(ui: &mut egui::Ui, state: &PanelState) {
    if let Some((ok, msg)) = &state.message {
        let color = if *ok {
            egui::Color32::from_rgb(90, 190, 90)
        } else {
            PROBLEM
        };
        ui.colored_label(color, msg);
    }
}

/// The view distance, the horizon and the time of day. Each is written only when its
/// control changes it: systems rebuild on their change.
fn view_settings(
    ui: &mut egui::Ui,
    view: &mut ResMut<ViewDistance>,
    horizon: &mut ResMut<HorizonDistance>,
    world: &mut ResMut<WorldAuthority>,
) {
    let mut v = view.0;
    if ui
        .add(egui::Slider::new(&mut v, ViewDistance::RANGE).text("view distance"))
        .changed()
    {
        view.0 = v;
    }
    let mut h = horizon.0;
    if ui
        .add(
            egui::Slider::new(&mut h, HorizonDistance::RANGE)
                .logarithmic(true)
                .smallest_positive(256.0)
                .step_by(256.0)
                .text("horizon (blocks)"),
        )
        .on_hover_text(
            "How far coarse chunks reach beyond the view distance (0: none; up to 64 km). \
             Far levels show your builds down-sampled.",
        )
        .changed()
    {
        horizon.0 = h;
    }
    ui.horizontal(|ui| {
        let clock = world.clock();
        let mut hours = clock.hours;
        if ui
            .add(egui::Slider::new(&mut hours, 0.0..=24.0).text(clock.hhmm()))
            .on_hover_text("Time of day: the sun, sky, light and fog follow it.")
            .changed()
        {
            world.set_clock(Clock::at(hours, clock.paused));
        }
        let mut paused = clock.paused;
        if ui
            .checkbox(&mut paused, "pause")
            .on_hover_text("Stop the clock (a day lasts 20 minutes).")
            .changed()
        {
            world.set_clock(Clock::at(clock.hours, paused));
        }
    });
}

/// A random seed from the clock (the dice button).
fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    terravox_worldgen::mix::mix64(t as u64) % 1_000_000_000
}

/// Writes `config` as pretty RON to `file` in `folder` atomically (a crash leaves the
/// old file or the new one), adding `.ron` if the name has no extension. Returns the
/// file written.
fn save_config(
    folder: &std::path::Path,
    file: &str,
    config: &WorldConfig,
) -> Result<std::path::PathBuf, String> {
    let name = file.trim();
    if name.is_empty() || name.contains(['/', '\\']) {
        return Err(format!(
            "`{file}` is not a file name (choose the folder in the field above)"
        ));
    }
    let mut path = folder.join(name);
    if path.extension().is_none() {
        path.set_extension("ron");
    }
    terravox_edits::file::write_atomic(&path, config.to_ron_pretty().as_bytes())
        .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preset_row_shows_the_preset_chosen_and_custom_after_an_edit() {
        let mut draft = Draft::new(&WorldConfig::default());
        assert_eq!(preset_shown(draft.pending()), "continents");
        let seed = draft.pending().seed.clone();
        let cliffs = presets::builtin("cliffs").unwrap().with_seed(seed);
        let pending = draft.pending().clone();
        take_step(
            &mut draft,
            Some(Step::Load(Box::new(cliffs))),
            pending,
            Duration::ZERO,
        );
        assert_eq!(preset_shown(draft.pending()), "cliffs");
        // Another seed is still the preset; a value changed is not.
        let mut reseeded = draft.pending().clone();
        reseeded.seed = Seed::new("another");
        take_step(&mut draft, None, reseeded, Duration::from_secs(1));
        assert_eq!(preset_shown(draft.pending()), "cliffs");
        let mut edited = draft.pending().clone();
        edited.sea_level -= 3;
        take_step(&mut draft, None, edited, Duration::from_secs(2));
        assert_eq!(preset_shown(draft.pending()), "custom");
        let pending = draft.pending().clone();
        take_step(
            &mut draft,
            Some(Step::Undo),
            pending,
            Duration::from_secs(3),
        );
        assert_eq!(preset_shown(draft.pending()), "cliffs");
    }

    #[test]
    fn the_version_text_names_what_each_version_brought() {
        let current = terravox_worldgen::GENERATOR_VERSION;
        for v in terravox_worldgen::SUPPORTED_VERSIONS {
            let note = version_note(v, v);
            let brought = terravox_worldgen::version_brought(v).unwrap();
            assert!(
                note.starts_with(&format!("Generator version {v} brought {brought}.")),
                "{note}"
            );
            assert_eq!(note.contains("older terravox"), v < current, "{note}");
        }
        assert!(version_note(current, 5).contains("this world of version 5"));
    }

    #[test]
    fn save_ron_writes_a_loadable_config_into_the_chosen_folder() {
        let folder = std::env::temp_dir().join(format!("terravox-ron-{}", std::process::id()));
        let config = presets::builtin("islands").unwrap();
        let path = save_config(&folder, " my world ", &config).unwrap();
        assert_eq!(path, folder.join("my world.ron"));
        assert_eq!(presets::load_file(&path).unwrap(), config);
        // Saving again replaces it whole; no temporary file is left.
        save_config(&folder, "my world.ron", &config).unwrap();
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
        assert!(save_config(&folder, "", &config).is_err());
        assert!(save_config(&folder, "a/b.ron", &config).is_err());
        // A folder that cannot be made (a file is in the way) is a clear error.
        let blocked = folder.join("my world.ron");
        let e = save_config(&blocked, "x", &config).unwrap_err();
        assert!(e.contains("cannot save"), "{e}");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
