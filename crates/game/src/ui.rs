//! The egui panel (Tab): generator, parameters, seed, presets, world code, saved
//! edits, view distance; the stats overlay, crosshair, hotbar and notices.

use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use terravox_worldgen::map::{MapImage, MapView};
use terravox_worldgen::{
    Generator, GeneratorConfig, IslandLayout, NoiseKind, Seed, WorldConfig, map, presets,
};

use crate::config::{ActiveWorld, Notices, StartWithPanel, ViewDistance, WorldChanged};
use crate::editing::{HOTBAR, Hotbar};
use crate::persistence::{DiscardEdits, WorldEdits};
use crate::player::Player;
use crate::streaming::{Chunks, StreamStats};

/// Whether the panel is open.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PanelOpen(pub bool);

/// The config being edited, and the panel's text fields.
#[derive(Resource, Clone, Debug)]
pub struct PanelState {
    /// The pending config (applied with Apply).
    pub pending: WorldConfig,
    /// The seed text box.
    pub seed: String,
    /// The world code box.
    pub code: String,
    /// File name for Save.
    pub save_path: String,
    /// Last status or error message.
    pub message: Option<(bool, String)>,
    /// The discard button was pressed once; a second button confirms.
    pub confirm_discard: bool,
}

/// The UI plugin.
pub fn plugin(app: &mut App) {
    if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
        app.add_plugins(FrameTimeDiagnosticsPlugin::default());
    }
    app.init_resource::<PanelOpen>()
        .add_systems(Startup, init_panel)
        .init_resource::<Preview>()
        .add_systems(Update, (toggle_panel, update_preview))
        .add_systems(
            EguiPrimaryContextPass,
            (draw_stats, draw_hud, draw_panel, draw_saves).chain(),
        );
}

fn init_panel(mut commands: Commands, world: Res<ActiveWorld>, start: Option<Res<StartWithPanel>>) {
    commands.insert_resource(PanelOpen(start.is_some_and(|s| s.0)));
    commands.insert_resource(PanelState {
        pending: world.config.clone(),
        seed: world.config.seed.text().to_owned(),
        code: world.config.to_world_code(),
        save_path: "world.ron".into(),
        message: None,
        confirm_discard: false,
    });
}

fn toggle_panel(keys: Option<Res<ButtonInput<KeyCode>>>, mut open: ResMut<PanelOpen>) {
    if keys.is_some_and(|k| k.just_pressed(KeyCode::Tab)) {
        open.0 = !open.0;
    }
}

fn draw_stats(
    mut contexts: EguiContexts,
    diagnostics: Res<DiagnosticsStore>,
    chunks: Res<Chunks>,
    stats: Res<StreamStats>,
    world: Res<ActiveWorld>,
    player: Query<&Transform, With<Player>>,
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
    let pos = player.single().map(|t| t.translation).unwrap_or_default();
    egui::Area::new(egui::Id::new("stats"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(format!("{fps:.0} FPS  {ms:.1} ms"));
                ui.label(format!(
                    "chunks {} loaded, {} queued, {} in flight",
                    chunks.loaded.len(),
                    chunks.missing(),
                    chunks.in_flight.len()
                ));
                ui.label(format!(
                    "gen {:.0} µs  mesh {:.0} µs per chunk",
                    per(stats.generate),
                    per(stats.mesh)
                ));
                ui.label(format!(
                    "applying chunks: {:.0} µs last frame",
                    stats.main_thread.as_secs_f64() * 1e6
                ));
                let c = terravox_voxel::ChunkPos::containing(pos.to_array());
                ui.label(format!(
                    "pos {:.1} {:.1} {:.1}  chunk {} {} {}",
                    pos.x, pos.y, pos.z, c.x, c.y, c.z
                ));
                ui.label(format!(
                    "{} — seed {:?}",
                    world.config.generator_name(),
                    world.config.seed.text()
                ));
                ui.label("Tab: panel   LMB break  RMB place  1-9 / wheel: block");
            });
        });
    Ok(())
}

/// An egui colour from a block's colour.
fn block_color(b: terravox_voxel::Block) -> egui::Color32 {
    let [r, g, bl] = b.color();
    egui::Color32::from_rgb(r, g, bl)
}

/// Crosshair, hotbar and notices: drawn whenever the panel is closed (notices always).
fn draw_hud(
    mut contexts: EguiContexts,
    open: Res<PanelOpen>,
    hotbar: Res<Hotbar>,
    mut notices: ResMut<Notices>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let current = notices.to_show();
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
    if open.0 {
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
                            (i + 1).to_string(),
                            egui::FontId::proportional(12.0),
                            egui::Color32::BLACK,
                        );
                    }
                });
            });
        });
    Ok(())
}

/// The panel's saved-edits window: location, count, state, discard (asking first).
fn draw_saves(
    mut contexts: EguiContexts,
    open: Res<PanelOpen>,
    mut state: ResMut<PanelState>,
    edits: Res<WorldEdits>,
    mut discard: MessageWriter<DiscardEdits>,
) -> Result {
    if !open.0 {
        state.confirm_discard = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Your edits")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            match edits.path() {
                Some(p) => ui.label(format!("Saved to {}", p.display())),
                None => ui.label("Edits are not saved in this session"),
            };
            ui.label(format!(
                "{} edited blocks{}",
                edits.edits.len(),
                if edits.dirty() {
                    " (unsaved changes)"
                } else {
                    ""
                }
            ));
            ui.label(&edits.status);
            if state.confirm_discard {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 70, 60),
                    format!(
                        "Discard all {} edited blocks of this world? This cannot be undone.",
                        edits.edits.len()
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
                .add_enabled(!edits.edits.is_empty(), egui::Button::new("Discard edits…"))
                .on_hover_text("Return this world to its generated state")
                .clicked()
            {
                state.confirm_discard = true;
            }
        });
    Ok(())
}

/// Preview map size in pixels.
pub const PREVIEW_PIXELS: u32 = 192;
/// The preview recentres when the player moves this far from its centre.
const PREVIEW_RECENTRE: i32 = 64;

/// The live preview map of the pending config around the player.
#[derive(Resource, Default)]
pub struct Preview {
    /// The config and view the latest image (or running task) is for.
    pub wanted: Option<(WorldConfig, MapView)>,
    task: Option<Task<(WorldConfig, MapView, MapImage)>>,
    /// The latest finished image, not yet uploaded to egui.
    pub image: Option<(MapView, MapImage)>,
    texture: Option<(MapView, egui::TextureHandle)>,
}

/// The map view a preview of `cfg` around `feet` uses: a wider scale for islands.
pub fn preview_view(cfg: &WorldConfig, feet: Vec3) -> MapView {
    let snap = |v: f32| (v as i32).div_euclid(PREVIEW_RECENTRE) * PREVIEW_RECENTRE;
    let blocks_per_pixel = match cfg.generator {
        GeneratorConfig::Density(_) => 3,
        GeneratorConfig::Islands(_) => 5,
    };
    MapView {
        center: [snap(feet.x), snap(feet.z)],
        size: [PREVIEW_PIXELS, PREVIEW_PIXELS],
        blocks_per_pixel,
    }
}

fn update_preview(
    open: Res<PanelOpen>,
    state: Option<Res<PanelState>>,
    player: Query<&Transform, With<Player>>,
    mut preview: ResMut<Preview>,
) {
    let preview = &mut *preview;
    if let Some(task) = &mut preview.task
        && let Some((cfg, view, img)) = check_ready(task)
    {
        preview.task = None;
        if preview.wanted.as_ref() == Some(&(cfg, view)) {
            preview.image = Some((view, img));
        }
    }
    let (Some(state), true) = (state, open.0) else {
        return;
    };
    let feet = player.single().map(|t| t.translation).unwrap_or_default();
    let wanted = (state.pending.clone(), preview_view(&state.pending, feet));
    if preview.wanted.as_ref() == Some(&wanted) || preview.task.is_some() {
        return;
    }
    let Ok(generator) = Generator::new(&wanted.0) else {
        preview.wanted = Some(wanted);
        preview.image = None;
        preview.texture = None;
        return;
    };
    let (cfg, view) = wanted.clone();
    preview.wanted = Some(wanted);
    preview.task = Some(AsyncComputeTaskPool::get().spawn(async move {
        let img = map::render(&generator, &view);
        (cfg, view, img)
    }));
}

/// Draws the preview with the player marked.
fn show_preview(ui: &mut egui::Ui, preview: &mut Preview, feet: Vec3) {
    if let Some((view, img)) = preview.image.take() {
        let color = egui::ColorImage::from_rgb([img.width as usize, img.height as usize], &img.rgb);
        let tex = ui
            .ctx()
            .load_texture("preview", color, egui::TextureOptions::NEAREST);
        preview.texture = Some((view, tex));
    }
    let Some((view, tex)) = &preview.texture else {
        ui.label("preview: computing…");
        return;
    };
    let size = egui::vec2(PREVIEW_PIXELS as f32, PREVIEW_PIXELS as f32);
    let response = ui.image((tex.id(), size));
    let [px, py] = view.pixel_of(feet.x as f64, feet.z as f64);
    let at = response.rect.min + egui::vec2(px as f32, py as f32);
    ui.painter().circle(
        at,
        4.0,
        egui::Color32::RED,
        egui::Stroke::new(1.5, egui::Color32::WHITE),
    );
    ui.label(format!(
        "preview: {} blocks across, you are the red dot",
        view.size[0] * view.blocks_per_pixel
    ));
}

/// A slider for an `f64` parameter with a tooltip.
fn param(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut f64,
    range: std::ops::RangeInclusive<f64>,
    tip: &str,
) {
    ui.add(egui::Slider::new(v, range).text(label))
        .on_hover_text(tip);
}

fn noise_kind(ui: &mut egui::Ui, id: &str, kind: &mut NoiseKind) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{kind:?}"))
        .show_ui(ui, |ui| {
            for k in NoiseKind::ALL {
                ui.selectable_value(kind, k, format!("{k:?}"));
            }
        });
}

/// Edits the generator parameters of `cfg`.
fn edit_generator(ui: &mut egui::Ui, cfg: &mut WorldConfig) {
    match &mut cfg.generator {
        GeneratorConfig::Density(d) => {
            noise_kind(ui, "density-noise", &mut d.noise.kind);
            param(
                ui,
                "frequency",
                &mut d.noise.frequency,
                0.001..=0.1,
                "Cycles per block of the first octave: smaller is broader terrain.",
            );
            ui.add(egui::Slider::new(&mut d.noise.octaves, 1..=16).text("octaves"))
                .on_hover_text("Noise layers, each finer than the last.");
            param(
                ui,
                "persistence",
                &mut d.noise.persistence,
                0.05..=1.0,
                "Amplitude kept per octave: higher is rougher.",
            );
            param(
                ui,
                "lacunarity",
                &mut d.noise.lacunarity,
                1.0..=4.0,
                "Frequency gained per octave.",
            );
            param(
                ui,
                "scale",
                &mut d.scale,
                1.0..=256.0,
                "Vertical stretch in blocks.",
            );
            param(
                ui,
                "offset",
                &mut d.offset,
                -128.0..=256.0,
                "Base terrain height.",
            );
            param(
                ui,
                "cliff scale",
                &mut d.cliff_scale,
                0.0..=8.0,
                "Extra relief where the noise is high: cliffs and spires.",
            );
            param(
                ui,
                "threshold",
                &mut d.threshold,
                -64.0..=64.0,
                "Solid where the density exceeds this.",
            );
            ui.add(egui::Slider::new(&mut d.snow_line, -64..=512).text("snow line"))
                .on_hover_text("Surface blocks at or above this height are snow.");
        }
        GeneratorConfig::Islands(i) => {
            noise_kind(ui, "island-noise", &mut i.kind);
            param(
                ui,
                "noise scale",
                &mut i.noise_scale,
                10.0..=2000.0,
                "Blocks per noise unit: larger is broader hills.",
            );
            ui.add(egui::Slider::new(&mut i.octaves, 1..=16).text("octaves"))
                .on_hover_text("Noise layers, each finer than the last.");
            param(
                ui,
                "persistence",
                &mut i.persistence,
                0.05..=1.0,
                "Amplitude kept per octave.",
            );
            param(
                ui,
                "lacunarity",
                &mut i.lacunarity,
                1.0..=4.0,
                "Frequency gained per octave.",
            );
            param(
                ui,
                "island size",
                &mut i.island_size,
                20.0..=4000.0,
                "Island size in blocks.",
            );
            param(
                ui,
                "radius",
                &mut i.radius,
                0.05..=4.0,
                "Fraction of the size where the sea is reached.",
            );
            param(
                ui,
                "steepness a",
                &mut i.steepness,
                1.0..=5.0,
                "Falloff steepness: higher is a sharper coast.",
            );
            param(
                ui,
                "attenuation b",
                &mut i.attenuation,
                0.01..=1.0,
                "Falloff attenuation: lower shrinks the island.",
            );
            param(
                ui,
                "centre x",
                &mut i.centre_offset[0],
                -2000.0..=2000.0,
                "Island centre offset, x.",
            );
            param(
                ui,
                "centre z",
                &mut i.centre_offset[1],
                -2000.0..=2000.0,
                "Island centre offset, z.",
            );
            param(
                ui,
                "height scale",
                &mut i.height_scale,
                1.0..=512.0,
                "Blocks between height 0 and 1.",
            );
            let mut archipelago = matches!(i.layout, IslandLayout::Archipelago { .. });
            if ui
                .checkbox(&mut archipelago, "archipelago")
                .on_hover_text("Repeat the island on a jittered grid.")
                .changed()
            {
                i.layout = if archipelago {
                    IslandLayout::Archipelago {
                        cell_size: (2.0 * i.island_size * i.radius).max(64.0) * 1.2,
                        jitter: 0.8,
                    }
                } else {
                    IslandLayout::Single
                };
            }
            if let IslandLayout::Archipelago { cell_size, jitter } = &mut i.layout {
                param(
                    ui,
                    "cell size",
                    cell_size,
                    16.0..=20000.0,
                    "Grid cell per island; at least twice size × radius.",
                );
                param(
                    ui,
                    "jitter",
                    jitter,
                    0.0..=1.0,
                    "How far islands move inside their cells.",
                );
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_panel(
    mut contexts: EguiContexts,
    open: Res<PanelOpen>,
    mut state: ResMut<PanelState>,
    mut world: ResMut<ActiveWorld>,
    mut view: ResMut<ViewDistance>,
    mut changed: MessageWriter<WorldChanged>,
    mut preview: ResMut<Preview>,
    player: Query<&Transform, With<Player>>,
) -> Result {
    let feet = player.single().map(|t| t.translation).unwrap_or_default();
    if !open.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let state = &mut *state;
    egui::Window::new("World generator")
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .default_width(360.0)
        .default_height(680.0)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(640.0)
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.label("Preset:");
                        for name in presets::names() {
                            if ui.button(name).clicked() {
                                match presets::builtin(name) {
                                    Ok(cfg) => {
                                        state.pending = cfg.with_seed(Seed::new(state.seed.clone()))
                                    }
                                    Err(e) => state.message = Some((false, e.to_string())),
                                }
                            }
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.label("Generator:");
                        let is_density =
                            matches!(state.pending.generator, GeneratorConfig::Density(_));
                        if ui
                            .selectable_label(is_density, "Cliffs (3D density)")
                            .clicked()
                            && !is_density
                        {
                            state.pending.generator = presets::builtin("cliffs")
                                .map(|c| c.generator)
                                .unwrap_or(state.pending.generator.clone());
                        }
                        if ui.selectable_label(!is_density, "Islands (2D)").clicked() && is_density
                        {
                            state.pending.generator = presets::builtin("islands")
                                .map(|c| c.generator)
                                .unwrap_or(state.pending.generator.clone());
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.label("Seed:");
                        ui.text_edit_singleline(&mut state.seed);
                        if ui.button("🎲").on_hover_text("Random seed").clicked() {
                            let t = std::time::SystemTime::now()
                                .duration_since(std::time::UNIX_EPOCH)
                                .map(|d| d.as_nanos())
                                .unwrap_or(0);
                            state.seed = (terravox_worldgen::seed::mix64(t as u64) % 1_000_000_000)
                                .to_string();
                        }
                    });
                    state.pending.seed = Seed::new(state.seed.clone());
                    ui.add(
                        egui::Slider::new(&mut state.pending.sea_level, -64..=128)
                            .text("sea level"),
                    )
                    .on_hover_text("Air at or below this height is water.");
                    show_preview(ui, &mut preview, feet);
                    ui.separator();
                    edit_generator(ui, &mut state.pending);
                    ui.separator();
                    let problems = state.pending.problems();
                    for p in &problems {
                        ui.colored_label(egui::Color32::from_rgb(230, 70, 60), p.to_string());
                    }
                    if ui
                        .add_enabled(problems.is_empty(), egui::Button::new("Apply"))
                        .on_hover_text("Rebuild the world around you")
                        .clicked()
                    {
                        match world.replace(state.pending.clone()) {
                            Ok(()) => {
                                changed.write(WorldChanged);
                                state.code = world.config.to_world_code();
                                state.message = Some((true, "world rebuilt".into()));
                            }
                            Err(e) => state.message = Some((false, e.to_string())),
                        }
                    }
                    ui.separator();
                    ui.label("World code (copy to share, paste to load):");
                    ui.add(
                        egui::TextEdit::multiline(&mut state.code)
                            .desired_rows(3)
                            .desired_width(f32::INFINITY),
                    );
                    ui.horizontal(|ui| {
                        if ui.button("Copy current").clicked() {
                            state.code = world.config.to_world_code();
                            ui.ctx().copy_text(state.code.clone());
                        }
                        if ui.button("Load code").clicked() {
                            match WorldConfig::from_ron(&state.code) {
                                Ok(cfg) => {
                                    state.seed = cfg.seed.text().to_owned();
                                    state.pending = cfg;
                                    state.message = Some((true, "code loaded: press Apply".into()));
                                }
                                Err(e) => {
                                    state.message = Some((false, format!("bad world code: {e}")))
                                }
                            }
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.text_edit_singleline(&mut state.save_path);
                        if ui.button("Save RON").clicked() {
                            let text = world.config.to_ron_pretty();
                            state.message = Some(match std::fs::write(&state.save_path, text) {
                                Ok(()) => (true, format!("saved {}", state.save_path)),
                                Err(e) => (false, format!("cannot save {}: {e}", state.save_path)),
                            });
                        }
                    });
                    if let Some((ok, msg)) = &state.message {
                        let color = if *ok {
                            egui::Color32::from_rgb(90, 190, 90)
                        } else {
                            egui::Color32::from_rgb(230, 70, 60)
                        };
                        ui.colored_label(color, msg);
                    }
                    ui.separator();
                    let mut v = view.0;
                    if ui
                        .add(egui::Slider::new(&mut v, ViewDistance::RANGE).text("view distance"))
                        .changed()
                    {
                        view.0 = v;
                    }
                });
        });
    Ok(())
}
