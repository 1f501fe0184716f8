//! The panel's live preview map of the pending config around the player, computed on
//! a worker task and shown with the player as a red dot, in the layer the player picks
//! (terrain, biomes, height, or one of the generator's fields with its legend), with
//! the value under the pointer.

use bevy::math::DVec3;
use bevy::prelude::*;
use bevy_egui::egui;
use terravox_worldgen::map::{self, Layer, MapImage, MapView};
use terravox_worldgen::{Generator, GeneratorConfig, WorldConfig};

use crate::latest::Latest;
use crate::player::Player;
use crate::world::Draft;

/// Preview map size in pixels.
const PREVIEW_PIXELS: u32 = 192;
/// The preview recentres when the player moves this far from its centre.
const PREVIEW_RECENTRE: i32 = 64;

/// What a preview image shows: a config, a view and a layer.
type Wanted = (WorldConfig, MapView, Layer);

/// A finished preview: the config's generator and its image (none for an invalid
/// config).
type Drawn = (std::sync::Arc<Generator>, MapImage);

/// The live preview map of the pending config around the player.
#[derive(Resource, Default)]
pub(super) struct Preview {
    /// The layer shown.
    layer: Layer,
    /// The image for the latest config, view and layer asked for (none for an
    /// invalid config), drawn on a worker.
    job: Latest<(Wanted, Option<Drawn>), Wanted>,
    /// The latest finished image, not yet uploaded to egui.
    image: Option<(MapView, MapImage)>,
    texture: Option<(MapView, egui::TextureHandle)>,
    /// The generator of the config wanted, for the value under the pointer.
    generator: Option<std::sync::Arc<Generator>>,
}

impl Preview {
    /// Shows `layer`.
    pub(super) fn show(&mut self, layer: Layer) {
        self.layer = layer;
    }

    /// The layer shown.
    #[cfg(test)]
    pub(super) fn layer(&self) -> Layer {
        self.layer
    }
}

/// The map view a preview of `cfg` around `feet` uses: wider scales for islands and
/// for continents.
fn preview_view(cfg: &WorldConfig, feet: DVec3) -> MapView {
    let snap = |v: f64| (v.floor() as i32).div_euclid(PREVIEW_RECENTRE) * PREVIEW_RECENTRE;
    let blocks_per_pixel = match &cfg.generator {
        GeneratorConfig::Density(d) if d.shape.is_some() => 16,
        GeneratorConfig::Density(_) => 3,
        GeneratorConfig::Islands(_) => 5,
    };
    MapView {
        center: [snap(feet.x), snap(feet.z)],
        size: [PREVIEW_PIXELS, PREVIEW_PIXELS],
        blocks_per_pixel,
    }
}

/// Keeps the preview of the pending config around the player (run while the panel is
/// open): takes in a finished image, starts a new one when the config or place moved.
/// The generator is set up on the worker too, so the panel never waits for it.
pub(super) fn update_preview(
    draft: Res<Draft>,
    player: Query<&Player>,
    mut preview: ResMut<Preview>,
) {
    let preview = &mut *preview;
    if let Some((done, drawn)) = preview.job.poll() {
        match drawn {
            Some((generator, img)) => {
                preview.image = Some((done.1, img));
                preview.generator = Some(generator);
            }
            None => {
                preview.image = None;
                preview.texture = None;
                preview.generator = None;
            }
        }
    }
    let feet = player.single().map(|p| p.position).unwrap_or_default();
    let wanted = (
        draft.pending().clone(),
        preview_view(draft.pending(), feet),
        preview.layer,
    );
    // A new image waits for the one being drawn: while a slider moves, an image
    // still comes every so often.
    if preview.job.is_latest(&wanted) || preview.job.running() {
        return;
    }
    preview.job.start(wanted.clone(), |_| async move {
        let drawn = Generator::new(&wanted.0).ok().map(|g| {
            let img = map::render_layer(&g, &wanted.1, wanted.2, &rows_on_pool).image;
            (std::sync::Arc::new(g), img)
        });
        (wanted, drawn)
    });
}

/// Runs a preview map's rows on the async compute pool (worldgen owns no threads): the
/// job drawing the map waits for them, helping to run them.
fn rows_on_pool(n: usize, job: &(dyn Fn(usize) + Sync)) {
    bevy::tasks::AsyncComputeTaskPool::get().scope(|s| {
        for i in 0..n {
            s.spawn(async move { job(i) });
        }
    });
}

/// Draws the layer choice and the preview with the player marked, the legend of a
/// field layer and the value under the pointer.
pub(super) fn show_preview(ui: &mut egui::Ui, preview: &mut Preview, feet: DVec3) {
    ui.horizontal(|ui| {
        ui.label("Map:");
        egui::ComboBox::from_id_salt("preview layer")
            .selected_text(preview.layer.name())
            .show_ui(ui, |ui| {
                for layer in Layer::ALL {
                    ui.selectable_value(&mut preview.layer, layer, layer.name());
                }
            });
    });
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
    let [px, py] = view.pixel_of(feet.x, feet.z);
    let at = response.rect.min + egui::vec2(px as f32, py as f32);
    ui.painter().circle(
        at,
        4.0,
        egui::Color32::RED,
        egui::Stroke::new(1.5, egui::Color32::WHITE),
    );
    if let Layer::Field(field) = preview.layer {
        legend(ui, field);
    }
    let under = response.hover_pos().zip(preview.generator.as_deref());
    let text = match under {
        Some((pos, g)) => {
            let p = pos - response.rect.min;
            let [x, z] = view.column_at(p.x as i64, p.y as i64);
            format!("({x}, {z}): {}", value_at(g, preview.layer, x, z))
        }
        None => format!(
            "preview: {} blocks across, you are the red dot",
            view.size[0] * view.blocks_per_pixel
        ),
    };
    ui.label(text);
}

/// A field layer's legend: its colour ramp and what its ends mean.
fn legend(ui: &mut egui::Ui, field: terravox_worldgen::fields::Field) {
    let ([lo, hi], [low, high]) = (field.range(), field.ends());
    ui.horizontal(|ui| {
        ui.label(format!("{lo} {low}"));
        let (rect, _) = ui.allocate_exact_size(egui::vec2(80.0, 12.0), egui::Sense::hover());
        for i in 0..40 {
            let v = lo + (hi - lo) * (i as f64 + 0.5) / 40.0;
            let [r, g, b] = map::field_color(field, Some(v));
            let x0 = rect.min.x + i as f32 * 2.0;
            let cell = egui::Rect::from_min_size(egui::pos2(x0, rect.min.y), egui::vec2(2.0, 12.0));
            ui.painter()
                .rect_filled(cell, 0.0, egui::Color32::from_rgb(r, g, b));
        }
        ui.label(format!("{hi} {high}"));
    });
}

/// What `layer` shows at column `(x, z)` of `g`'s world, as text.
fn value_at(g: &Generator, layer: Layer, x: i32, z: i32) -> String {
    match layer {
        Layer::Field(f) => match g.fields_at(x, z).get(f) {
            Some(v) => format!("{} {v:+.3}", f.name()),
            None => format!("no {} in this world", f.name()),
        },
        Layer::Biomes => g
            .biome_at(x, z)
            .map_or("no biomes in this world".to_owned(), |b| {
                b.name().to_owned()
            }),
        Layer::Terrain | Layer::Height | Layer::Water => {
            let top = g.column_top(x, z);
            let sea = g.sea_level();
            match top.water {
                Some(level) => format!(
                    "river or lake {} deep, its surface {} blocks above the sea",
                    level - top.y,
                    level - sea
                ),
                None => format!("{:?}, {} blocks above the sea", top.block, top.y - sea),
            }
        }
    }
}
