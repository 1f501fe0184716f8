//! The seed browser: a 3x3 grid of thumbnails of the pending settings, each with a
//! random seed, computed on worker tasks (outdated ones are dropped, which cancels
//! them, when the settings change); a click takes that seed.

use bevy::prelude::*;
use bevy_egui::egui;
use terravox_worldgen::map::{self, Layer, MapImage, MapView};
use terravox_worldgen::{Generator, GeneratorConfig, Seed, WorldConfig};

use crate::latest::Latest;
use crate::world::Draft;

/// Thumbnails in the grid, and its side.
const CELLS: usize = 9;
const SIDE: usize = 3;
/// Thumbnail size in pixels.
const PIXELS: u32 = 96;

/// One thumbnail: its seed, the job drawing it (for the latest settings), its
/// texture once drawn.
struct Thumb {
    seed: String,
    job: Latest<MapImage>,
    texture: Option<egui::TextureHandle>,
    image: Option<MapImage>,
}

/// The seeds shown and the settings they were drawn with.
#[derive(Resource, Default)]
pub(super) struct SeedBrowser {
    /// Whether the grid is open (closed: nothing is computed).
    pub(super) open: bool,
    thumbs: Vec<Thumb>,
    /// The pending settings, seed left out, that the thumbnails show.
    drawn_for: Option<WorldConfig>,
}

/// The pending settings without their seed: what the thumbnails depend on.
fn settings(cfg: &WorldConfig) -> WorldConfig {
    cfg.clone().with_seed(Seed::new(""))
}

/// The view a thumbnail of `cfg` shows: the land around the origin, where a new
/// world's spawn is searched for, at the scale its features need.
fn thumb_view(cfg: &WorldConfig) -> MapView {
    let blocks_per_pixel = match &cfg.generator {
        GeneratorConfig::Density(d) if d.shape.is_some() => 32,
        GeneratorConfig::Density(_) => 6,
        GeneratorConfig::Islands(_) => 12,
    };
    MapView {
        center: [0, 0],
        size: [PIXELS, PIXELS],
        blocks_per_pixel,
    }
}

/// Nine fresh random seeds from `salt` (the clock).
fn random_seeds(salt: u64) -> Vec<String> {
    (0..CELLS as u64)
        .map(|i| {
            let v = terravox_worldgen::mix::mix64(salt ^ i.wrapping_mul(0x9e37_79b9));
            (v % 1_000_000_000).to_string()
        })
        .collect()
}

impl SeedBrowser {
    /// New seeds, drawn with `pending`'s settings.
    fn roll(&mut self, pending: &WorldConfig, salt: u64) {
        self.thumbs = random_seeds(salt)
            .into_iter()
            .map(|seed| Thumb {
                seed,
                job: Latest::default(),
                texture: None,
                image: None,
            })
            .collect();
        self.drawn_for = None;
        self.redraw(pending);
    }

    /// Starts drawing every thumbnail for `pending`'s settings (dropping, and so
    /// cancelling, any drawing under way).
    fn redraw(&mut self, pending: &WorldConfig) {
        let base = settings(pending);
        if self.drawn_for.as_ref() == Some(&base) {
            return;
        }
        let view = thumb_view(pending);
        for t in &mut self.thumbs {
            let cfg = base.clone().with_seed(Seed::new(t.seed.clone()));
            t.texture = None;
            t.image = None;
            t.job.start((), |_| async move {
                match Generator::new(&cfg) {
                    // Each thumbnail is its own job: its rows run one after another.
                    Ok(g) => {
                        map::render_layer(&g, &view, Layer::Terrain, &terravox_worldgen::sequential)
                            .image
                    }
                    Err(_) => MapImage {
                        width: 1,
                        height: 1,
                        rgb: vec![90, 20, 20],
                    },
                }
            });
        }
        self.drawn_for = Some(base);
    }
}

/// Takes in finished thumbnails and redraws them when the settings changed (while
/// the panel is open).
pub(super) fn update_seed_browser(draft: Res<Draft>, mut browser: ResMut<SeedBrowser>) {
    if !browser.open || browser.thumbs.is_empty() {
        return;
    }
    let browser = &mut *browser;
    browser.redraw(draft.pending());
    for t in &mut browser.thumbs {
        if let Some(img) = t.job.poll() {
            t.image = Some(img);
        }
    }
}

/// Draws the browser; returns the seed clicked, if any.
pub(super) fn show_seed_browser(
    ui: &mut egui::Ui,
    browser: &mut SeedBrowser,
    pending: &WorldConfig,
    salt: u64,
) -> Option<String> {
    let mut picked = None;
    let header = egui::CollapsingHeader::new("Seed browser")
        .default_open(browser.open)
        .show(ui, |ui| {
            if ui
                .button("New seeds")
                .on_hover_text("Nine random seeds with these settings, around the origin")
                .clicked()
                || browser.thumbs.is_empty()
            {
                browser.roll(pending, salt);
            }
            egui::Grid::new("seeds").spacing([4.0, 4.0]).show(ui, |ui| {
                for (i, t) in browser.thumbs.iter_mut().enumerate() {
                    if let Some(img) = t.image.take() {
                        let size = [img.width as usize, img.height as usize];
                        let color = egui::ColorImage::from_rgb(size, &img.rgb);
                        t.texture = Some(ui.ctx().load_texture(
                            format!("seed {i}"),
                            color,
                            egui::TextureOptions::NEAREST,
                        ));
                    }
                    let size = egui::vec2(PIXELS as f32, PIXELS as f32);
                    let clicked = match &t.texture {
                        Some(tex) => ui
                            .add(egui::Button::image((tex.id(), size)))
                            .on_hover_text(format!("seed {}", t.seed))
                            .clicked(),
                        None => {
                            ui.add_sized(size, egui::Spinner::new());
                            false
                        }
                    };
                    if clicked {
                        picked = Some(t.seed.clone());
                    }
                    if i % SIDE == SIDE - 1 {
                        ui.end_row();
                    }
                }
            });
        });
    browser.open = header.body_returned.is_some();
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nine distinct seeds, different for another salt; the thumbnails show the
    /// settings, not the seed.
    #[test]
    fn seeds_are_fresh_and_thumbnails_follow_the_settings() {
        let a = random_seeds(1);
        assert_eq!(a.len(), CELLS);
        let unique: std::collections::HashSet<_> = a.iter().collect();
        assert_eq!(unique.len(), CELLS);
        assert_ne!(a, random_seeds(2));
        let cfg = terravox_worldgen::presets::builtin("continents").unwrap();
        let other_seed = cfg.clone().with_seed(Seed::new("elsewhere"));
        assert_eq!(settings(&cfg), settings(&other_seed));
        let islands = terravox_worldgen::presets::builtin("islands").unwrap();
        assert_ne!(settings(&cfg), settings(&islands));
        assert!(thumb_view(&cfg).check().is_ok());
    }
}
