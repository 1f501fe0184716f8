//! Top-down colour maps of a world, for the `map` command and the in-game preview.
//!
//! Each pixel shows the top of one column in one of the [`Layer`]s: its block's
//! colour with hill shading (light from the north-west) or water coloured by depth;
//! its biome's legend colour; its height; or one of the fields that drive the world
//! ([`Field`], coloured by [`field_color`]). Rows are computed by the caller's
//! [`ForEach`], in parallel where it has threads; the result does not depend on how
//! they were run.

use crate::bounds::WORLD_LIMIT;
use crate::generator::{ColumnTop, Generator};
use crate::query::{ForEach, collect};
use crate::shape::fields::Field;
use crate::surface::biome::Biome;

/// What a map shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layer {
    /// The surface blocks, hill-shaded, and water by depth.
    #[default]
    Terrain,
    /// Each column's biome in its legend colour ([`Biome::map_color`]), hill-shaded.
    Biomes,
    /// Heights: blues below sea level, greens to browns to white above it.
    Height,
    /// Water (version 5): rivers and lakes above the sea by depth (creeks pale,
    /// deep rivers and lakes dark), the sea dark grey-blue, land pale grey,
    /// hill-shaded.
    Water,
    /// One field of the generator ([`field_color`]; grey where the world has none).
    Field(Field),
}

impl Layer {
    /// Every layer.
    pub const ALL: [Layer; 13] = {
        let mut all = [Layer::Terrain; 13];
        all[1] = Layer::Biomes;
        all[2] = Layer::Height;
        all[3] = Layer::Water;
        let mut i = 0;
        while i < Field::ALL.len() {
            all[4 + i] = Layer::Field(Field::ALL[i]);
            i += 1;
        }
        all
    };

    /// Its name on the command line and in the panel.
    pub const fn name(self) -> &'static str {
        match self {
            Layer::Terrain => "terrain",
            Layer::Biomes => "biomes",
            Layer::Height => "height",
            Layer::Water => "water",
            Layer::Field(f) => f.name(),
        }
    }
}

/// Which part of the world a map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapView {
    /// World column `[x, z]` at the centre of the image.
    pub center: [i32; 2],
    /// Image width and height in pixels.
    pub size: [u32; 2],
    /// World blocks per pixel along each axis.
    pub blocks_per_pixel: u32,
}

impl MapView {
    /// `Err` naming the problem when the view reaches past the world's bounds
    /// ([`WORLD_LIMIT`] on each horizontal axis), where columns would wrap.
    pub fn check(&self) -> Result<(), String> {
        let limit = WORLD_LIMIT as i64;
        // The corners of the image, shading row included.
        let [x0, z0] = self.column_at_wide(-1, -1);
        let [x1, z1] = self.column_at_wide(self.size[0] as i64, self.size[1] as i64);
        let inside = |v: i64| -limit <= v && v < limit;
        if [x0, z0, x1, z1].into_iter().all(inside) {
            Ok(())
        } else {
            Err(format!(
                "the map around {},{} reaches columns {x0}..{x1} x {z0}..{z1}, outside the world \
                 (-{limit}..{limit} on x and z)",
                self.center[0], self.center[1]
            ))
        }
    }

    /// [`MapView::column_at`] without the `i32` narrowing.
    fn column_at_wide(&self, px: i64, py: i64) -> [i64; 2] {
        let bpp = self.blocks_per_pixel as i64;
        [
            self.center[0] as i64 + (px - self.size[0] as i64 / 2) * bpp,
            self.center[1] as i64 + (py - self.size[1] as i64 / 2) * bpp,
        ]
    }

    /// The world column `[x, z]` shown by pixel `(px, py)` (`x` east to the right,
    /// `z` south downwards).
    /// Saturates at the `i32` range; [`MapView::check`] keeps views inside the world.
    pub fn column_at(&self, px: i64, py: i64) -> [i32; 2] {
        self.column_at_wide(px, py)
            .map(|v| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
    }

    /// The pixel showing world column `(x, z)` (may be outside the image).
    pub fn pixel_of(&self, x: f64, z: f64) -> [f64; 2] {
        let bpp = self.blocks_per_pixel as f64;
        [
            (x - self.center[0] as f64) / bpp + (self.size[0] / 2) as f64,
            (z - self.center[1] as f64) / bpp + (self.size[1] / 2) as f64,
        ]
    }
}

/// An RGB image, row-major, 3 bytes a pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 3` bytes.
    pub rgb: Vec<u8>,
}

/// A rendered map and how many of its pixels each biome covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The image.
    pub image: MapImage,
    /// Pixels per biome, in [`Biome::ALL`] order; all zero in worlds without biomes.
    pub biome_pixels: [u64; Biome::ALL.len()],
}

impl Map {
    /// Each biome's share of the map (0..=1) with its name, largest first, leaving out
    /// biomes not on it.
    pub fn biome_shares(&self) -> Vec<(Biome, f64)> {
        let total: u64 = self.biome_pixels.iter().sum();
        let mut v: Vec<(Biome, f64)> = Biome::ALL
            .into_iter()
            .zip(self.biome_pixels)
            .filter(|&(_, n)| n > 0)
            .map(|(b, n)| (b, n as f64 / total as f64))
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        v
    }
}

/// Renders the terrain map of `view`, its rows run by `rows`.
pub fn render(generator: &Generator, view: &MapView, rows: ForEach<'_>) -> MapImage {
    render_layer(generator, view, Layer::Terrain, rows).image
}

/// Renders one layer of `view`, its rows run by `rows`, counting biomes.
pub fn render_layer(generator: &Generator, view: &MapView, layer: Layer, rows: ForEach<'_>) -> Map {
    render_layer_over(generator, view, layer, rows, &|_, _, top| top)
}

/// Something laid over the generator's column tops, `(x, z, top) -> top` (the
/// player's edits: their builds and the water they set flowing).
pub type Over<'a> = &'a (dyn Fn(i32, i32, ColumnTop) -> ColumnTop + Sync);

/// [`render_layer`] with `over` laid over every column top (the field layers read
/// no column top, so nothing is laid over them).
pub fn render_layer_over(
    generator: &Generator,
    view: &MapView,
    layer: Layer,
    rows: ForEach<'_>,
    over: Over<'_>,
) -> Map {
    if let Layer::Field(field) = layer {
        return render_field(generator, view, field, rows);
    }
    let [w, h] = view.size;
    let (gw, gh) = (w as usize + 1, h as usize + 1);
    // Column tops, with one extra row and column to the north-west for shading.
    let tops: Vec<ColumnTop> = collect(rows, gh, |gy| {
        (0..gw)
            .map(|gx| {
                let [x, z] = view.column_at(gx as i64 - 1, gy as i64 - 1);
                over(x, z, generator.column_top(x, z))
            })
            .collect::<Vec<_>>()
    })
    .concat();
    let sea = generator.sea_level();
    let bpp = view.blocks_per_pixel.max(1) as f64;
    let rgb = collect(rows, h as usize, |py| {
        let mut row = vec![0u8; w as usize * 3];
        for px in 0..w as usize {
            let here = tops[(py + 1) * gw + px + 1];
            let nw = tops[py * gw + px];
            let slope = (here.y - nw.y) as f64 / bpp;
            let c = match layer {
                Layer::Terrain => column_color(here, sea, slope),
                Layer::Biomes => biome_color(here, slope),
                Layer::Height => height_color(here.y - sea),
                Layer::Water => water_color(here, sea, slope),
                Layer::Field(_) => unreachable!("fields are drawn by render_field"),
            };
            row[px * 3..px * 3 + 3].copy_from_slice(&c);
        }
        row
    })
    .concat();
    let mut biome_pixels = [0u64; Biome::ALL.len()];
    for row in tops.chunks(gw).skip(1) {
        for t in &row[1..] {
            if let Some(b) = t.biome {
                biome_pixels[b as usize] += 1;
            }
        }
    }
    Map {
        image: MapImage {
            width: w,
            height: h,
            rgb,
        },
        biome_pixels,
    }
}

/// A field layer: each row's columns computed together (one grid of the coarse
/// fields a row), the rows run by `rows`.
fn render_field(generator: &Generator, view: &MapView, field: Field, rows: ForEach<'_>) -> Map {
    let [w, h] = view.size;
    let rgb = collect(rows, h as usize, |py| {
        let columns: Vec<[i32; 2]> = (0..w as i64)
            .map(|px| view.column_at(px, py as i64))
            .collect();
        let mut row = vec![0u8; w as usize * 3];
        for (px, f) in generator.fields_along(&columns).iter().enumerate() {
            row[px * 3..px * 3 + 3].copy_from_slice(&field_color(field, f.get(field)));
        }
        row
    })
    .concat();
    Map {
        image: MapImage {
            width: w,
            height: h,
            rgb,
        },
        biome_pixels: [0; Biome::ALL.len()],
    }
}

/// The colour of `value` of `field` on a map: fields from -1 to 1 run from blue
/// through white to red; those from 0 to 1 from dark blue-grey to yellow; grey where
/// the world has no such field.
pub fn field_color(field: Field, value: Option<f64>) -> [u8; 3] {
    let Some(v) = value else {
        return [96, 96, 96];
    };
    let [lo, hi] = field.range();
    let t = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
    let ramp: &[[f64; 3]] = if lo < 0.0 {
        &[
            [40.0, 70.0, 160.0],
            [245.0, 245.0, 245.0],
            [180.0, 40.0, 40.0],
        ]
    } else {
        &[
            [30.0, 35.0, 60.0],
            [60.0, 140.0, 130.0],
            [250.0, 225.0, 80.0],
        ]
    };
    let x = t * (ramp.len() - 1) as f64;
    let i = (x.floor() as usize).min(ramp.len() - 2);
    let f = x - i as f64;
    std::array::from_fn(|k| (ramp[i][k] + (ramp[i + 1][k] - ramp[i][k]) * f).round() as u8)
}

/// A colour shaded by `slope` (rise towards the light, blocks per block).
fn shaded(c: [u8; 3], slope: f64) -> [u8; 3] {
    let shade = (1.0 + slope * 0.35).clamp(0.55, 1.45);
    c.map(|c| (c as f64 * shade).clamp(0.0, 255.0) as u8)
}

/// The biome map colour of a column top: its biome's legend colour, hill-shaded; grey
/// in worlds without biomes.
pub fn biome_color(top: ColumnTop, slope: f64) -> [u8; 3] {
    shaded(top.biome.map_or([128; 3], Biome::map_color), slope)
}

/// Water's colour `depth` (0..1) of the way from `shallow` to `deep`.
fn by_depth(shallow: [f64; 3], deep: [f64; 3], depth: f64) -> [u8; 3] {
    std::array::from_fn(|i| (shallow[i] + (deep[i] - shallow[i]) * depth) as u8)
}

/// The water map colour of a column top: a river or lake above the sea by its depth
/// (pale creeks to dark lakes), the sea grey-blue, land pale grey; `slope` shades
/// the land as in [`column_color`].
pub fn water_color(top: ColumnTop, sea_level: i32, slope: f64) -> [u8; 3] {
    match top.water {
        Some(level) => {
            let depth = ((level - top.y) as f64 / 6.0).min(1.0);
            by_depth([110.0, 200.0, 255.0], [0.0, 60.0, 200.0], depth)
        }
        None if top.y < sea_level => [70, 85, 110],
        None => shaded([215, 215, 210], slope),
    }
}

/// The height map colour of a column `above` blocks above sea level.
pub fn height_color(above: i32) -> [u8; 3] {
    let ramp: &[(f64, [f64; 3])] = if above < 0 {
        &[(-128.0, [5.0, 20.0, 70.0]), (0.0, [90.0, 170.0, 230.0])]
    } else {
        &[
            (0.0, [60.0, 140.0, 60.0]),
            (40.0, [170.0, 190.0, 90.0]),
            (90.0, [140.0, 100.0, 60.0]),
            (160.0, [250.0, 250.0, 250.0]),
        ]
    };
    let v = (above as f64).clamp(ramp[0].0, ramp[ramp.len() - 1].0);
    let i = ramp.windows(2).position(|w| v <= w[1].0).unwrap_or(0);
    let ((a, ca), (b, cb)) = (ramp[i], ramp[i + 1]);
    let t = if b > a { (v - a) / (b - a) } else { 0.0 };
    std::array::from_fn(|k| (ca[k] + (cb[k] - ca[k]) * t) as u8)
}

/// The map colour of a column top; `slope` is its rise towards the light (blocks per
/// block), which brightens or darkens land.
pub fn column_color(top: ColumnTop, sea_level: i32, slope: f64) -> [u8; 3] {
    if let Some(level) = top.water {
        // A river or lake above the sea: fresh water, deeper darker.
        let depth = ((level - top.y) as f64 / 8.0).min(1.0);
        return by_depth([80.0, 175.0, 220.0], [30.0, 95.0, 170.0], depth);
    }
    if top.y < sea_level {
        let depth = ((sea_level - top.y) as f64 / 32.0).min(1.0);
        return by_depth([70.0, 160.0, 215.0], [15.0, 45.0, 115.0], depth);
    }
    shaded(top.block.color(), slope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_inside_the_world_pass_and_past_its_edge_are_refused() {
        let view = |center, bpp| MapView {
            center,
            size: [512, 512],
            blocks_per_pixel: bpp,
        };
        assert!(view([0, 0], 2).check().is_ok());
        assert!(view([-1_000_000, 5_000], 64).check().is_ok());
        let edge = WORLD_LIMIT - 200;
        assert!(view([edge - 100, 0], 1).check().is_ok());
        assert!(view([edge, 0], 1).check().is_err());
        assert!(view([i32::MAX, i32::MAX], 2).check().is_err());
        assert!(view([0, i32::MIN], 1).check().is_err());
        // No wrap-around: far columns saturate instead of jumping across the world.
        assert_eq!(view([i32::MAX, 0], 1).column_at(600, 256)[0], i32::MAX);
    }
}
