//! The spline editor: every spline of a shaped density world
//! ([`params::SHAPE_SPLINES`], [`params::RELIEF_SPLINES`]) drawn as a curve, input
//! on x, output on y (the `height` spline in absolute heights: `offset + height(c)`,
//! the height the generator makes); points dragged, added (double-click) and removed
//! (right-click), values typed. Every edit keeps the spline valid: `x` strictly
//! ascending in `[-1, 1]`, `y` in the spline's range, 2 to 16 points.

use bevy_egui::egui;
use terravox_worldgen::params::{self, SplineParam};
use terravox_worldgen::{DensityConfig, GeneratorConfig, Spline, WorldConfig};

/// Points stay this far apart in `x`.
const MIN_GAP: f64 = 0.01;
/// The most points a spline may have.
const MOST: usize = 16;
/// The plot's size in points.
const SIZE: [f32; 2] = [330.0, 150.0];

/// Which spline the editor shows.
#[derive(Clone, Debug, Default)]
pub(super) struct SplineEditor {
    /// Index into the shape's splines, then the relief's.
    chosen: usize,
    /// Whether it is open in the panel.
    pub(super) open: bool,
}

/// Moves point `i` of `s` to `[x, y]`, kept between its neighbours (`MIN_GAP`
/// apart), in `[-1, 1]` and in `range`.
pub(super) fn move_point(s: &mut Spline, i: usize, [x, y]: [f64; 2], range: (f64, f64)) {
    let p = &mut s.0;
    let lo = if i == 0 { -1.0 } else { p[i - 1][0] + MIN_GAP };
    let hi = if i + 1 == p.len() {
        1.0
    } else {
        p[i + 1][0] - MIN_GAP
    };
    if lo <= hi && x.is_finite() {
        p[i][0] = x.clamp(lo, hi);
    }
    if y.is_finite() {
        p[i][1] = y.clamp(range.0, range.1);
    }
}

/// Adds a point on the curve at `x` if there is room (fewer than 16 points, none
/// within `MIN_GAP`); returns its index.
pub(super) fn add_point(s: &mut Spline, x: f64) -> Option<usize> {
    let x = x.clamp(-1.0, 1.0);
    if s.0.len() >= MOST || s.0.iter().any(|p| (p[0] - x).abs() < MIN_GAP) {
        return None;
    }
    let y = s.at(x);
    let i = s.0.iter().position(|p| p[0] > x).unwrap_or(s.0.len());
    s.0.insert(i, [x, y]);
    Some(i)
}

/// Removes point `i` if more than two are left; returns whether it did.
pub(super) fn remove_point(s: &mut Spline, i: usize) -> bool {
    if s.0.len() <= 2 || i >= s.0.len() {
        return false;
    }
    s.0.remove(i);
    true
}

/// What the editor shows on the y axis for `y` of spline `sp`: the absolute height
/// (`offset + y`) for the base height, else `y` itself.
pub(super) fn shown<C>(d: &DensityConfig, sp: &SplineParam<C>, y: f64) -> f64 {
    if sp.field == "height" {
        d.offset + y
    } else {
        y
    }
}

/// The spline editor, for a shaped density world (nothing otherwise).
pub(super) fn show_splines(ui: &mut egui::Ui, editor: &mut SplineEditor, cfg: &mut WorldConfig) {
    let GeneratorConfig::Density(d) = &mut cfg.generator else {
        return;
    };
    if d.shape.is_none() {
        return;
    }
    let header = egui::CollapsingHeader::new("Splines")
        .default_open(editor.open)
        .show(ui, |ui| {
            let shape_count = params::SHAPE_SPLINES.len();
            let relief = d.shape.as_ref().is_some_and(|s| s.relief.is_some());
            let count = shape_count
                + if relief {
                    params::RELIEF_SPLINES.len()
                } else {
                    0
                };
            editor.chosen = editor.chosen.min(count - 1);
            let label = |i: usize| {
                if i < shape_count {
                    params::SHAPE_SPLINES[i].label
                } else {
                    params::RELIEF_SPLINES[i - shape_count].label
                }
            };
            egui::ComboBox::from_id_salt("spline")
                .selected_text(label(editor.chosen))
                .show_ui(ui, |ui| {
                    for i in 0..count {
                        ui.selectable_value(&mut editor.chosen, i, label(i));
                    }
                });
            let offset_config = d.clone();
            let shape = d.shape.as_mut().expect("checked above");
            if editor.chosen < shape_count {
                let sp = &params::SHAPE_SPLINES[editor.chosen];
                edit(ui, &offset_config, sp, (sp.get_mut)(shape));
            } else if let Some(r) = shape.relief.as_deref_mut() {
                let sp = &params::RELIEF_SPLINES[editor.chosen - shape_count];
                edit(ui, &offset_config, sp, (sp.get_mut)(r));
            }
        });
    editor.open = header.body_returned.is_some();
}

/// The plot and the point table of one spline.
fn edit<C>(ui: &mut egui::Ui, d: &DensityConfig, sp: &SplineParam<C>, s: &mut Spline) {
    if sp.field == "height" {
        ui.label(format!(
            "x: {}   y: height in blocks (offset {} + the spline)",
            sp.input, d.offset
        ));
    } else {
        ui.label(format!("x: {}   y: {}", sp.input, sp.output));
    }
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(SIZE[0], SIZE[1]), egui::Sense::click());
    // The y range shown: the curve's, with room around it, inside the allowed one.
    let (lo, hi) = s.range();
    let pad = ((hi - lo) * 0.15).max(if sp.blocks { 8.0 } else { 0.05 });
    let (lo, hi) = ((lo - pad).max(sp.range.0), (hi + pad).min(sp.range.1));
    let to_screen = |[x, y]: [f64; 2]| {
        egui::pos2(
            rect.min.x + ((x + 1.0) / 2.0) as f32 * rect.width(),
            rect.max.y - ((y - lo) / (hi - lo).max(1e-9)) as f32 * rect.height(),
        )
    };
    let from_screen = |p: egui::Pos2| {
        [
            ((p.x - rect.min.x) / rect.width()) as f64 * 2.0 - 1.0,
            lo + ((rect.max.y - p.y) / rect.height()) as f64 * (hi - lo),
        ]
    };
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(28));
    for gx in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        let a = to_screen([gx, lo]);
        painter.line_segment(
            [egui::pos2(a.x, rect.min.y), egui::pos2(a.x, rect.max.y)],
            egui::Stroke::new(1.0, egui::Color32::from_gray(50)),
        );
    }
    let curve: Vec<egui::Pos2> = (0..=120)
        .map(|k| {
            let x = -1.0 + 2.0 * k as f64 / 120.0;
            to_screen([x, s.at(x)])
        })
        .collect();
    painter.add(egui::Shape::line(
        curve,
        egui::Stroke::new(2.0, egui::Color32::from_rgb(120, 200, 255)),
    ));
    let unit = if sp.blocks { " blocks" } else { "" };
    for (y, align) in [
        (hi, egui::Align2::LEFT_TOP),
        (lo, egui::Align2::LEFT_BOTTOM),
    ] {
        let at = to_screen([-1.0, y]);
        painter.text(
            egui::pos2(rect.min.x + 3.0, at.y),
            align,
            format!("{:.1}{unit}", shown(d, sp, y)),
            egui::FontId::monospace(10.0),
            egui::Color32::LIGHT_GRAY,
        );
    }
    let mut remove = None;
    for i in 0..s.0.len() {
        let at = to_screen(s.0[i]);
        let id = response.id.with(("point", i));
        let handle = ui.interact(
            egui::Rect::from_center_size(at, egui::vec2(12.0, 12.0)),
            id,
            egui::Sense::click_and_drag(),
        );
        if handle.dragged()
            && let Some(p) = handle.interact_pointer_pos()
        {
            move_point(s, i, from_screen(p), sp.range);
        }
        if handle.secondary_clicked() {
            remove = Some(i);
        }
        let hot = handle.hovered() || handle.dragged();
        painter.circle_filled(
            at,
            if hot { 6.0 } else { 4.5 },
            egui::Color32::from_rgb(250, 210, 90),
        );
        handle.on_hover_text(format!(
            "{:.3} → {:.2}{unit} (drag; right-click removes)",
            s.0[i][0],
            shown(d, sp, s.0[i][1])
        ));
    }
    if let Some(i) = remove {
        remove_point(s, i);
    }
    if response.double_clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        add_point(s, from_screen(p)[0]);
    }
    if let Some(p) = response.hover_pos() {
        let [x, _] = from_screen(p);
        ui.label(format!(
            "at {} {x:+.3}: {:.2}{unit}  (double-click adds a point)",
            sp.input,
            shown(d, sp, s.at(x))
        ));
    }
    egui::Grid::new(("spline points", sp.field)).show(ui, |ui| {
        for i in 0..s.0.len() {
            let [mut x, mut y] = s.0[i];
            let dx = ui.add(egui::DragValue::new(&mut x).speed(0.01).range(-1.0..=1.0));
            let dy = ui.add(
                egui::DragValue::new(&mut y)
                    .speed(0.5)
                    .range(sp.range.0..=sp.range.1),
            );
            if dx.changed() || dy.changed() {
                move_point(s, i, [x, y], sp.range);
            }
            if (i + 1) % 2 == 0 {
                ui.end_row();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_worldgen::fields::Field;
    use terravox_worldgen::{Generator, Seed, presets};

    /// Any sequence of edits keeps every spline valid: validation finds nothing wrong
    /// with any spline (a world can still be refused as a whole, its surface sunk
    /// below the floor, as with any parameter; the panel says so).
    #[test]
    fn edits_keep_the_config_valid() {
        let mut cfg = presets::builtin("continents").unwrap();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        for step in 0..3000 {
            let GeneratorConfig::Density(d) = &mut cfg.generator else {
                unreachable!("continents is a density world")
            };
            let shape = d.shape.as_mut().unwrap();
            let k = (next() * 6.0) as usize;
            let (s, range) = if k < 5 {
                let sp = &params::SHAPE_SPLINES[k];
                ((sp.get_mut)(shape), sp.range)
            } else {
                let sp = &params::RELIEF_SPLINES[0];
                let r = shape.relief.as_deref_mut().unwrap();
                ((sp.get_mut)(r), sp.range)
            };
            let i = (next() * s.0.len() as f64) as usize;
            match (next() * 3.0) as u32 {
                0 => move_point(s, i, [next() * 2.6 - 1.3, next() * 1200.0 - 600.0], range),
                1 => {
                    add_point(s, next() * 2.0 - 1.0);
                }
                _ => {
                    remove_point(s, i);
                }
            }
            let splines: Vec<String> = params::SHAPE_SPLINES
                .iter()
                .map(|sp| format!("generator.shape.{}", sp.field))
                .chain(
                    params::RELIEF_SPLINES
                        .iter()
                        .map(|sp| format!("generator.shape.{}", sp.field)),
                )
                .collect();
            for p in cfg.problems() {
                let text = p.to_string();
                assert!(
                    !splines.iter().any(|f| text.contains(f.as_str())),
                    "step {step}: {text}"
                );
            }
        }
    }

    /// The height the editor shows for the base-height spline at a column's
    /// continentalness is the height the generator makes there: in a world whose
    /// other splines add nothing (no mountains, no roughness), at lattice columns away
    /// from rivers, the surface is the highest block under the shown height.
    #[test]
    fn the_editors_heights_are_the_generators() {
        let mut cfg = presets::builtin("continents")
            .unwrap()
            .with_seed(Seed::new("splines"));
        let GeneratorConfig::Density(d) = &mut cfg.generator else {
            unreachable!("continents is a density world")
        };
        let shape = d.shape.as_mut().unwrap();
        shape.relief = None;
        for p in &mut shape.mountains.0 {
            p[1] = 0.0;
        }
        for p in &mut shape.roughness.0 {
            p[1] = 0.0;
        }
        // An edit in the editor: the coast's point raised.
        let coast = shape.height.0.len() / 2;
        let [x, y] = shape.height.0[coast];
        move_point(&mut shape.height, coast, [x, y + 17.0], (-512.0, 512.0));
        let shape = shape.clone();
        let d = d.clone();
        let g = Generator::new(&cfg).unwrap();
        let sp = &params::SHAPE_SPLINES[0];
        assert_eq!(sp.field, "height");
        let mut checked = 0;
        for i in 0..400 {
            let (x, z) = ((i % 20) * 4 * 37 - 1400, (i / 20) * 4 * 41 - 1600);
            let f = g.fields_at(x, z);
            let (c, w) = (
                f.get(Field::Continentalness).unwrap(),
                f.get(Field::Weirdness).unwrap(),
            );
            if w.abs() < shape.rivers.width * 1.5 {
                continue;
            }
            let height = shown(&d, sp, shape.height.at(c));
            let expected = (height - d.threshold).ceil() as i32 - 1;
            assert_eq!(g.surface_height(x, z), expected, "({x}, {z}) c {c}");
            checked += 1;
        }
        assert!(checked > 200, "only {checked} columns away from rivers");
    }
}
