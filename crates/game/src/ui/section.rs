//! The cross-section: a side view of the pending world along the player's look
//! direction, 1 to 4 km long ([`terravox_worldgen::section`]): terrain in its biome's
//! colour, water, caves, the player and the heights, with the player's edits (their
//! builds and the water they set flowing) where the pending world is the one played.
//! Computed on a worker task; an outdated one is told to stop and dropped.

use bevy::prelude::*;
use bevy_egui::egui;
use terravox_edits::{EditedColumns, Edits};
use terravox_worldgen::section::Section;
use terravox_worldgen::{ColumnTop, Generator, WorldConfig};

use crate::latest::Latest;
use crate::player::Player;
use crate::world::{Draft, WorldAuthority};

/// Sample columns of a section.
const SAMPLES: usize = 256;
/// The start follows the player in steps of this many blocks, the direction in steps
/// of this many degrees.
const SNAP: f64 = 8.0;
const YAW_STEP: f32 = 5.0;
/// The drawing's size in points.
const WIDTH: f32 = 340.0;
const HEIGHT: f32 = 150.0;

/// What a section shows: a config, its start, its direction (in yaw steps), its
/// length in km and the revision of the edits laid over it (none where the config
/// is not the world played).
type Key = (WorldConfig, [i64; 2], i32, u32, Option<u64>);

/// The cross-section and the work on it.
#[derive(Resource)]
pub(super) struct CrossSection {
    /// Whether it is open in the panel (closed: nothing is computed).
    pub(super) open: bool,
    /// Length in km, 1 to 4.
    km: u32,
    /// The section for the latest key asked for, computed on a worker (none if it
    /// was stopped, or for an invalid config).
    job: Latest<Option<(Key, Section)>, Key>,
    shown: Option<(Key, Section)>,
}

impl Default for CrossSection {
    fn default() -> Self {
        Self {
            open: false,
            km: 1,
            job: Latest::default(),
            shown: None,
        }
    }
}

/// The horizontal direction `[x, z]` a yaw (radians) looks along (yaw 0 looks
/// towards `-z`).
fn forward(yaw: f32) -> [f64; 2] {
    [-(yaw.sin() as f64), -(yaw.cos() as f64)]
}

/// Keeps the section of the pending world along the player's view (while it is open
/// in the panel): takes in a finished one, starts a new one when it is outdated.
pub(super) fn update_cross_section(
    draft: Res<Draft>,
    edits: Res<WorldAuthority>,
    player: Query<&Player>,
    mut section: ResMut<CrossSection>,
) {
    let s = &mut *section;
    if let Some(Some(done)) = s.job.poll() {
        s.shown = Some(done);
    }
    let Ok(p) = player.single() else { return };
    if !s.open {
        return;
    }
    let snap = |v: f64| (v / SNAP).floor() as i64;
    let steps = (p.yaw.to_degrees() / YAW_STEP).round() as i32;
    let played = draft.pending() == edits.world();
    let key: Key = (
        draft.pending().clone(),
        [snap(p.position.x), snap(p.position.z)],
        steps.rem_euclid((360.0 / YAW_STEP) as i32),
        s.km,
        played.then(|| edits.revision()),
    );
    if s.job.is_latest(&key) {
        return;
    }
    // A snapshot, as a save takes (the same cost at any size).
    let edits = played.then(|| edits.edits().clone());
    let from = [p.position.x, p.position.z];
    let dir = forward((key.2 as f32 * YAW_STEP).to_radians());
    let length = key.3 as f64 * 1000.0;
    // Everything, the generator's set-up included, off the main thread; the outdated
    // section is told to stop.
    s.job.start(key.clone(), |stop| async move {
        let generator = Generator::new(&key.0).ok()?;
        let mut section = generator.cross_section(from, dir, length, SAMPLES, &stop)?;
        if let Some(edits) = edits {
            lay_edits(&generator, &edits, &mut section);
        }
        Some((key, section))
    });
}

/// Lays `edits` over the columns of `section`: their surfaces and the water over
/// them ([`EditedColumns::top`]).
fn lay_edits(generator: &Generator, edits: &Edits, section: &mut Section) {
    let (xs, zs) = section.columns.iter().fold(
        ([i32::MAX, i32::MIN], [i32::MAX, i32::MIN]),
        |(xs, zs), c| {
            (
                [xs[0].min(c.at[0]), xs[1].max(c.at[0])],
                [zs[0].min(c.at[1]), zs[1].max(c.at[1])],
            )
        },
    );
    let columns = EditedColumns::within(edits, [xs[0], zs[0]], [xs[1], zs[1]]);
    for c in &mut section.columns {
        let top = ColumnTop {
            y: c.surface,
            block: c.top,
            biome: c.biome,
            water: c.water,
        };
        let laid = columns.top(generator, c.at[0], c.at[1], top);
        (c.surface, c.top, c.water) = (laid.y, laid.block, laid.water);
    }
}

/// Draws the section (a collapsing part of the panel) with the player's feet at
/// `feet_y`.
pub(super) fn show_cross_section(ui: &mut egui::Ui, section: &mut CrossSection, feet_y: f64) {
    let header = egui::CollapsingHeader::new("Cross-section")
        .default_open(section.open)
        .show(ui, |ui| {
            ui.add(
                egui::Slider::new(&mut section.km, 1..=4)
                    .text("km ahead")
                    .suffix(" km"),
            );
            match &section.shown {
                Some((_, s)) => draw(ui, s, feet_y),
                None => {
                    ui.label("cross-section: computing…");
                }
            }
        });
    section.open = header.body_returned.is_some();
}

/// The colour of a section column's ground.
fn ground_colour(c: &terravox_worldgen::section::SectionColumn) -> egui::Color32 {
    let [r, g, b] = c.biome.map_or(c.top.color(), |b| b.map_color());
    egui::Color32::from_rgb(r, g, b)
}

/// Paints a section: ground by biome colour, water to sea level, caves dark, the
/// player as a red dot at the left, the heights at the left edge.
fn draw(ui: &mut egui::Ui, s: &Section, feet_y: f64) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(WIDTH, HEIGHT), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, egui::Color32::from_rgb(150, 190, 225));
    let top = s
        .columns
        .iter()
        .map(|c| c.surface)
        .chain([s.sea_level, feet_y as i32])
        .max()
        .unwrap_or(0)
        + 16;
    let bottom = s
        .columns
        .iter()
        .map(|c| c.surface - terravox_worldgen::section::CAVE_DEPTH / 2)
        .chain([s.sea_level - 32])
        .min()
        .unwrap_or(0);
    let span = (top - bottom).max(1) as f32;
    let y_of = |h: f64| rect.max.y - (h as f32 - bottom as f32) / span * HEIGHT;
    let n = s.columns.len().max(2);
    let w = WIDTH / (n - 1) as f32;
    for (i, c) in s.columns.iter().enumerate() {
        let x0 = rect.min.x + i as f32 * w - w / 2.0;
        let column = |lo: f64, hi: f64, colour| {
            let r = egui::Rect::from_min_max(
                egui::pos2(x0, y_of(hi)),
                egui::pos2(x0 + w + 0.5, y_of(lo)),
            );
            painter.rect_filled(r, 0.0, colour);
        };
        column(bottom as f64, c.surface as f64 + 1.0, ground_colour(c));
        // The sea, or a river or lake above it.
        let water = c.water.unwrap_or(s.sea_level);
        if c.surface < water {
            column(
                c.surface as f64 + 1.0,
                water as f64 + 1.0,
                egui::Color32::from_rgb(40, 90, 170),
            );
        }
        for &[lo, hi] in &c.caves {
            column(
                lo as f64,
                hi as f64 + 1.0,
                egui::Color32::from_rgb(25, 22, 20),
            );
        }
    }
    painter.circle(
        egui::pos2(rect.min.x + 3.0, y_of(feet_y)),
        4.0,
        egui::Color32::RED,
        egui::Stroke::new(1.0, egui::Color32::WHITE),
    );
    let label = |h: i32| {
        painter.text(
            egui::pos2(rect.max.x - 2.0, y_of(h as f64)),
            egui::Align2::RIGHT_CENTER,
            format!("{h}"),
            egui::FontId::monospace(10.0),
            egui::Color32::BLACK,
        );
    };
    let highest = s.columns.iter().map(|c| c.surface).max().unwrap_or(0);
    label(highest);
    label(s.sea_level);
    label(bottom + 4);
    let length = s.columns.last().map_or(0.0, |c| c.along);
    let hover = response.hover_pos().map(|p| {
        let i = (((p.x - rect.min.x) / w).round() as usize).min(n - 1);
        let c = &s.columns[i.min(s.columns.len() - 1)];
        format!(
            "{:.0} m ahead: surface {} ({}), {} caves under it",
            c.along,
            c.surface,
            c.biome.map_or("no biome", |b| b.name()),
            c.caves.len()
        )
    });
    ui.label(hover.unwrap_or(format!(
        "{length:.0} blocks ahead of you (the red dot), heights at the right"
    )));
}
