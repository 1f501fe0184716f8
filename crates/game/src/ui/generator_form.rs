//! The generator's parameters as widgets, driven by the tables in
//! `terravox_worldgen::params` (the same ranges validation uses), plus the choices
//! that are not numbers: the noise kind, the island layout and whether there are
//! caves. Grouped as Shape, Rivers, Relief, Erosion, Water, Caves, Climate and Trees.

use bevy_egui::egui;
use terravox_worldgen::params::{self, Param, Scale};
use terravox_worldgen::{
    GeneratorConfig, IslandLayout, NoiseKind, ReliefConfig, ShapeConfig, WorldConfig,
};

/// A slider per parameter of `table`, with its range, scale and tooltip.
pub(super) fn sliders<C>(ui: &mut egui::Ui, table: &[Param<C>], config: &mut C) {
    for p in table {
        let s = p.spec;
        let mut v = (p.get)(config);
        // Ranges spanning orders of magnitude get a logarithmic slider.
        let wide = s.scale == Scale::Log || s.max - s.min > 10_000.0;
        let mut slider = egui::Slider::new(&mut v, s.min..=s.max)
            .text(s.label)
            .logarithmic(wide);
        if s.scale == Scale::Integer {
            slider = slider.integer();
        }
        if ui.add(slider).on_hover_text(s.tooltip).changed() {
            (p.set)(config, v);
        }
    }
}

fn noise_kind(ui: &mut egui::Ui, kind: &mut NoiseKind) {
    egui::ComboBox::from_label("noise")
        .selected_text(format!("{kind:?}"))
        .show_ui(ui, |ui| {
            for k in NoiseKind::ALL {
                ui.selectable_value(kind, k, format!("{k:?}"));
            }
        });
}

/// A collapsible group of widgets.
fn group(ui: &mut egui::Ui, name: &str, open: bool, add: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(name)
        .default_open(open)
        .show(ui, add);
}

/// Edits the generator parameters of `cfg`, in groups.
pub(super) fn edit_generator(ui: &mut egui::Ui, cfg: &mut WorldConfig) {
    group(ui, "Shape", true, |ui| shape(ui, cfg));
    if let GeneratorConfig::Density(d) = &mut cfg.generator
        && let Some(s) = &mut d.shape
    {
        group(ui, "Rivers", false, |ui| sliders(ui, &params::RIVERS, s));
        group(ui, "Relief", false, |ui| relief(ui, s));
        if let Some(r) = &mut s.relief {
            group(ui, "Erosion", false, |ui| erosion(ui, r));
        }
        group(ui, "Water", false, |ui| water(ui, s));
    }
    if matches!(cfg.generator, GeneratorConfig::Density(_)) {
        group(ui, "Caves", false, |ui| caves(ui, cfg));
    }
    if let Some(n) = &mut cfg.nature {
        group(ui, "Climate", false, |ui| sliders(ui, &params::CLIMATE, n));
        group(ui, "Trees", false, |ui| sliders(ui, &params::TREES, n));
    }
}

/// Caves on or off, and their parameters (an edited world is of the current
/// generator version: `Draft::set`).
fn caves(ui: &mut egui::Ui, cfg: &mut WorldConfig) {
    let GeneratorConfig::Density(d) = &mut cfg.generator else {
        return;
    };
    let mut on = d.caves.is_some();
    let tip = "Caverns, tunnels and thin passages under the surface.";
    if ui.checkbox(&mut on, "caves").on_hover_text(tip).changed() {
        d.caves = if on { default_caves() } else { None };
    }
    if let Some(c) = &mut d.caves {
        sliders(ui, &params::CAVES, c);
    }
}

/// Mountain ranges on or off, and their parameters.
fn relief(ui: &mut egui::Ui, s: &mut ShapeConfig) {
    let mut on = s.relief.is_some();
    let tip = "Long mountain ranges with jagged peaks and eroded gullies.";
    if ui.checkbox(&mut on, "ranges").on_hover_text(tip).changed() {
        s.relief = if on { default_relief() } else { None };
    }
    if let Some(r) = &mut s.relief {
        sliders(ui, &params::RELIEF, r);
        ui.label(
            "Spline `ranges` (erosion to the share of the range height): edit in a config file.",
        );
    }
}

/// Water that runs downhill on or off (on turns version 2's noise rivers off), and
/// its parameters.
fn water(ui: &mut egui::Ui, s: &mut ShapeConfig) {
    let mut on = s.water.is_some();
    let tip = "Springs on high ground, rivers that always run downhill to the sea, lakes \
               above sea level and waterfalls.";
    if ui
        .checkbox(&mut on, "rivers and lakes")
        .on_hover_text(tip)
        .changed()
    {
        s.water = if on { default_water() } else { None };
        if on {
            s.rivers.width = 0.0;
        }
    }
    if let Some(w) = &mut s.water {
        sliders(ui, &params::WATER, w);
    }
}

/// The default world's water.
fn default_water() -> Option<Box<terravox_worldgen::WaterConfig>> {
    match terravox_worldgen::presets::builtin("continents")
        .ok()?
        .generator
    {
        GeneratorConfig::Density(d) => d.shape?.water,
        GeneratorConfig::Islands(_) => None,
    }
}

/// The erosion filter on or off and its parameters.
fn erosion(ui: &mut egui::Ui, r: &mut ReliefConfig) {
    let mut on = r.erosion.is_some();
    let tip = "Branching gullies, sharp ridges and V-shaped valleys on the ranges.";
    if ui.checkbox(&mut on, "erosion").on_hover_text(tip).changed() {
        r.erosion = if on {
            default_relief().and_then(|d| d.erosion)
        } else {
            None
        };
    }
    if let Some(e) = &mut r.erosion {
        sliders(ui, &params::EROSION, e);
    }
}

/// The default world's mountain ranges.
fn default_relief() -> Option<Box<ReliefConfig>> {
    match terravox_worldgen::presets::builtin("continents")
        .ok()?
        .generator
    {
        GeneratorConfig::Density(d) => d.shape?.relief,
        GeneratorConfig::Islands(_) => None,
    }
}

/// The default world's caves.
fn default_caves() -> Option<terravox_worldgen::CaveConfig> {
    match terravox_worldgen::presets::builtin("continents")
        .ok()?
        .generator
    {
        GeneratorConfig::Density(d) => d.caves,
        GeneratorConfig::Islands(_) => None,
    }
}

/// The terrain's shape parameters.
fn shape(ui: &mut egui::Ui, cfg: &mut WorldConfig) {
    match &mut cfg.generator {
        GeneratorConfig::Density(d) => {
            noise_kind(ui, &mut d.noise.kind);
            sliders(ui, &params::DENSITY, d);
            if let Some(s) = &mut d.shape {
                sliders(ui, &params::SHAPE, s);
                ui.label(
                    "Splines (height, mountains, peaks, roughness, crags): edit in a config file.",
                );
            }
        }
        GeneratorConfig::Islands(i) => {
            noise_kind(ui, &mut i.kind);
            sliders(ui, &params::ISLANDS, i);
            ui.collapsing("height bands", |ui| sliders(ui, &params::BANDS, i));
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
                let mut cells = (*cell_size, *jitter);
                sliders(ui, &params::ARCHIPELAGO, &mut cells);
                (*cell_size, *jitter) = cells;
            }
        }
    }
}
