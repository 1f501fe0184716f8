//! A 16-bit greyscale PNG of surface heights (one pixel a column, north up: rows
//! run along +z, columns along +x), optionally the same as RAW16 for Unity and
//! Unreal, and beside it a biome PNG, a 16-bit water-surface PNG (the same encoding:
//! the surface of the river or lake above the sea over a column, else its ground, so
//! the water's depth is the difference) and an 8-bit river mask (255 where a river or
//! lake above the sea covers the column, 0 elsewhere; version 5's water).
//!
//! **Encoding.** The area's lowest surface height maps to 0 and its highest to
//! 65535, linearly: `value = round((y - low) * 65535 / (high - low))`. `low` and
//! `high` are in the PNG's text chunks (`terravox:low`, `terravox:high`) and printed
//! by the command; with at most 65,536 blocks between them (always, in practice)
//! every height reads back exactly: `y = low + round(value * (high - low) / 65535)`.
//! The surface is the highest solid block of each column, trees aside, the
//! player's edits included ([`Source::surface_height`]).
//!
//! **Tiles.** An area wider or longer than one image holds ([`MAX_TILE`] columns, or
//! `tile` asked for) is written as a grid of tiles, `NAME_xC_yR.png` and their
//! companions ([`tiles`]), all in one encoding: each tile is made and written with
//! its own range, then, once every tile's range is known, the tiles whose range is
//! not the whole area's are re-encoded to it from their own pixels (every height
//! reads back exactly, so nothing is made twice). Memory is one tile's whatever
//! the area's size.

mod image;
pub mod tiles;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use terravox_worldgen::Biome;

use crate::area::Area;
use crate::error::ExportError;
use crate::progress::Progress;
use crate::source::{Source, Surface};
use crate::target::Target;
use image::{Range, recode_png, recode_raw, write_png};
pub use tiles::Tile;

/// The most columns a side one image of a heightmap takes (8 km; about 1 GiB of
/// memory while it is made); a larger area is written in tiles.
pub const MAX_TILE: u32 = 8192;
/// The most columns a side a heightmap takes: Minecraft's world border, as the
/// Minecraft export.
pub const MAX_SIDE: u32 = crate::minecraft::MAX_SIDE;

/// Rows computed together (a multiple of the density lattice's 4-block cells).
const BAND: i32 = 16;

/// How a heightmap is written, besides its area and file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Also write RAW16 (`NAME.raw`).
    pub raw: bool,
    /// Replace existing files.
    pub force: bool,
    /// The most columns a side of one image: 1..=[`MAX_TILE`].
    pub tile: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            raw: false,
            force: false,
            tile: MAX_TILE,
        }
    }
}

/// The files of one image ([`Tile`]) of a heightmap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Files {
    /// The tile.
    pub tile: Tile,
    /// The heightmap PNG.
    pub png: PathBuf,
    /// The RAW16 file, if asked for.
    pub raw: Option<PathBuf>,
    /// The biome PNG.
    pub biomes: PathBuf,
    /// The water-surface PNG.
    pub water: PathBuf,
    /// The river mask PNG.
    pub rivers: PathBuf,
}

/// What a heightmap export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The images, row by row (one when the area fits one).
    pub tiles: Vec<Files>,
    /// The grid of tiles: columns and rows.
    pub grid: [u32; 2],
    /// The whole area's width and height in pixels.
    pub size: [u32; 2],
    /// The height that value 0 stands for, in every tile.
    pub low: i32,
    /// The height that value 65535 stands for, in every tile.
    pub high: i32,
}

/// The 16-bit value of height `y` in a map from `low` to `high`.
pub fn encode(y: i32, low: i32, high: i32) -> u16 {
    if high == low {
        return 0;
    }
    ((y - low) as f64 * 65535.0 / (high - low) as f64).round() as u16
}

/// The height a 16-bit value stands for in a map from `low` to `high`.
pub fn decode(value: u16, low: i32, high: i32) -> i32 {
    low + (value as f64 * (high - low) as f64 / 65535.0).round() as i32
}

/// The file beside `png` with `suffix` in place of its extension
/// (`map.png` -> `map.raw`, `map.biomes.png`).
pub fn beside(png: &Path, suffix: &str) -> PathBuf {
    let stem = png.file_stem().unwrap_or_default().to_string_lossy();
    png.with_file_name(format!("{stem}{suffix}"))
}

/// One tile's files while they are written.
struct Targets {
    tile: Tile,
    png: Target,
    raw: Option<Target>,
    biomes: Target,
    water: Target,
    rivers: Target,
}

impl Targets {
    fn new(tile: Tile, png: &Path, options: &Options) -> Result<Targets, ExportError> {
        let file = |suffix: &str| Target::file(&beside(png, suffix), options.force);
        Ok(Targets {
            tile,
            png: Target::file(png, options.force)?,
            raw: options.raw.then(|| file(".raw")).transpose()?,
            biomes: file(".biomes.png")?,
            water: file(".water.png")?,
            rivers: file(".rivers.png")?,
        })
    }

    fn finish(self) -> Result<Files, ExportError> {
        Ok(Files {
            tile: self.tile,
            png: self.png.finish()?,
            raw: self.raw.map(Target::finish).transpose()?,
            biomes: self.biomes.finish()?,
            water: self.water.finish()?,
            rivers: self.rivers.finish()?,
        })
    }
}

/// Writes the heightmap of `area` to `out` (a PNG), the biome map to
/// `NAME.biomes.png` beside it, the water surface to `NAME.water.png`, the river
/// mask to `NAME.rivers.png` and, with `raw`, RAW16 (little-endian, rows as in the
/// PNG) to `NAME.raw`; in tiles ([`tiles::tile_png`]) where the area is more than
/// `options.tile` columns a side. Existing files are refused unless `force`, before
/// anything is made; nothing carries a file's name until every tile is complete.
pub fn export(
    source: &Source,
    area: Area,
    out: &Path,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Report, ExportError> {
    let [w, h] = area.size();
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(ExportError::Area(format!(
            "a heightmap takes at most {MAX_SIDE} columns a side; {w} x {h} asked"
        )));
    }
    if !(1..=MAX_TILE).contains(&options.tile) {
        return Err(ExportError::Area(format!(
            "a tile is 1 to {MAX_TILE} columns a side; {} asked",
            options.tile
        )));
    }
    let plan = tiles::plan(area, options.tile);
    let single = plan.len() == 1;
    let targets = plan
        .iter()
        .map(|&t| Targets::new(t, &tiles::tile_png(out, t.index, single), options))
        .collect::<Result<Vec<_>, _>>()?;
    let grid = [w.div_ceil(options.tile), h.div_ceil(options.tile)];

    progress.start(h as u64 * grid[0] as u64, "rows");
    let mut ranges = Vec::with_capacity(targets.len());
    for (k, t) in targets.iter().enumerate() {
        if !single {
            progress.stage(&format!("tile {} of {}", k + 1, targets.len()));
        }
        ranges.push(write_tile(source, t, progress)?);
    }
    let low = ranges.iter().map(|r| r.low).min().unwrap_or(0);
    let high = ranges.iter().map(|r| r.high).max().unwrap_or(0);
    let whole = check_range(low, high)?;
    for (k, (t, &range)) in targets.iter().zip(&ranges).enumerate() {
        if range != whole {
            progress.stage(&format!(
                "tile {} of {}: to the heights every tile shares",
                k + 1,
                targets.len()
            ));
            recode_tile(t, range, whole)?;
        }
    }
    let tiles = targets
        .into_iter()
        .map(Targets::finish)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Report {
        tiles,
        grid,
        size: [w, h],
        low,
        high,
    })
}

/// The encoding from `low` to `high`, if 16 bits hold every height between.
fn check_range(low: i32, high: i32) -> Result<Range, ExportError> {
    if high as i64 - low as i64 > 65535 {
        return Err(ExportError::Area(format!(
            "heights out of range: {low}..={high} spans more than 65,536 blocks, more than \
             16 bits hold block by block"
        )));
    }
    Ok(Range { low, high })
}

/// The text chunks of a tile's 16-bit map of `what` in `range`.
fn texts(area: Area, range: Range, what: &str) -> [(&'static str, String); 3] {
    let Range { low, high } = range;
    [
        ("terravox:low", low.to_string()),
        ("terravox:high", high.to_string()),
        (
            "Description",
            format!(
                "terravox {what} of columns x {}..{}, z {}..{}: value 0 is y {low}, \
                 65535 is y {high}, linear; one pixel a block, rows along +z",
                area.from[0], area.to[0], area.from[1], area.to[1]
            ),
        ),
    ]
}

const GROUND: &str = "surface heights";
const WATER: &str =
    "water surface heights (the ground where no river or lake above the sea covers it)";

/// Makes one tile's columns and writes its files in the tile's own range, which it
/// returns.
fn write_tile(source: &Source, t: &Targets, progress: &dyn Progress) -> Result<Range, ExportError> {
    let area = t.tile.area;
    let [w, h] = area.size();
    // Bands of rows on the lattice's 4-block grid, so no cell is walked twice.
    let mut bands = Vec::new();
    let (mut z, end) = (area.from[1], area.to[1]);
    while z < end {
        let next = ((z.div_euclid(BAND) + 1) * BAND).min(end);
        bands.push((z, (next - z) as u32));
        z = next;
    }
    let banded: Vec<Vec<Vec<Surface>>> = bands
        .par_iter()
        .map(|&(z, n)| {
            let tops = source.surfaces(area.from[0], z, w, n);
            progress.advance(n as u64);
            tops.chunks(w as usize).map(<[Surface]>::to_vec).collect()
        })
        .collect();
    let rows: Vec<Vec<Surface>> = banded.into_iter().flatten().collect();
    // The ground, and the water where it stands above it: the range holds both.
    let heights = rows
        .iter()
        .flatten()
        .flat_map(|s| std::iter::once(s.y).chain(s.water));
    let (low, high) = heights.fold((i32::MAX, i32::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let range = check_range(low, high)?;

    let values = |row: &[Surface], water: bool| -> Vec<u16> {
        row.iter()
            .map(|s| {
                let y = if water { s.water.unwrap_or(s.y) } else { s.y };
                encode(y, low, high)
            })
            .collect()
    };
    // A 16-bit map of the ground (`water` false) or of the water's surface.
    let heights = |path: &Path, what: &str, water: bool| {
        write_png(
            path,
            [w, h],
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            &texts(area, range, what),
            |i| {
                Ok(values(&rows[i], water)
                    .iter()
                    .flat_map(|v| v.to_be_bytes())
                    .collect())
            },
        )
    };
    heights(t.png.partial(), GROUND, false)?;
    heights(t.water.partial(), WATER, true)?;
    write_png(
        t.rivers.partial(),
        [w, h],
        png::ColorType::Grayscale,
        png::BitDepth::Eight,
        &[],
        |i| {
            Ok(rows[i]
                .iter()
                .map(|s| if s.water.is_some() { 255 } else { 0 })
                .collect())
        },
    )?;
    write_png(
        t.biomes.partial(),
        [w, h],
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &[],
        |i| {
            Ok(rows[i]
                .iter()
                .flat_map(|s| biome_color(s.biome.map_or(u8::MAX, |b| b as u8)))
                .collect())
        },
    )?;
    if let Some(raw) = &t.raw {
        let path = raw.partial();
        let file = File::create(path).map_err(ExportError::io(path))?;
        let mut f = BufWriter::new(file);
        for row in &rows {
            let bytes: Vec<u8> = values(row, false)
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            f.write_all(&bytes).map_err(ExportError::io(path))?;
        }
        f.flush().map_err(ExportError::io(path))?;
    }
    Ok(range)
}

/// Re-encodes a written tile's 16-bit files from its own range to the shared one.
fn recode_tile(t: &Targets, from: Range, to: Range) -> Result<(), ExportError> {
    let area = t.tile.area;
    recode_png(t.png.partial(), from, to, &texts(area, to, GROUND))?;
    recode_png(t.water.partial(), from, to, &texts(area, to, WATER))?;
    if let Some(raw) = &t.raw {
        recode_raw(raw.partial(), from, to)?;
    }
    Ok(())
}

/// A biome's map colour; grey where the world has no biomes.
fn biome_color(b: u8) -> [u8; 3] {
    Biome::ALL
        .get(b as usize)
        .map_or([128, 128, 128], |b| b.map_color())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_height_reads_back() {
        for (low, high) in [(-40, 300), (0, 0), (5, 6), (-30000, 35535)] {
            for y in low..=high.min(low + 2000) {
                assert_eq!(decode(encode(y, low, high), low, high), y, "{low}..{high}");
            }
            assert_eq!(encode(high, low, high), if low == high { 0 } else { 65535 });
        }
    }
}
