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

/// The most columns a side a heightmap takes (8 km; about 340 MB of memory).
pub const MAX_SIDE: u32 = 8192;

/// Rows computed together (a multiple of the density lattice's 4-block cells).
const BAND: i32 = 16;

/// What a heightmap export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
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
    /// Width and height in pixels.
    pub size: [u32; 2],
    /// The height that value 0 stands for.
    pub low: i32,
    /// The height that value 65535 stands for.
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

/// Writes the heightmap of `area` to `out` (a PNG), the biome map to
/// `NAME.biomes.png` beside it, the water surface to `NAME.water.png`, the river
/// mask to `NAME.rivers.png` and, with `raw`, RAW16 (little-endian, rows as in the
/// PNG) to `NAME.raw`. Existing files are refused unless `force`.
pub fn export(
    source: &Source,
    area: Area,
    out: &Path,
    raw: bool,
    force: bool,
    progress: &dyn Progress,
) -> Result<Report, ExportError> {
    let [w, h] = area.size();
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(ExportError::Area(format!(
            "a heightmap takes at most {MAX_SIDE} columns a side; {w} x {h} asked"
        )));
    }
    let png_target = Target::file(out, force)?;
    let biome_target = Target::file(&beside(out, ".biomes.png"), force)?;
    let water_target = Target::file(&beside(out, ".water.png"), force)?;
    let rivers_target = Target::file(&beside(out, ".rivers.png"), force)?;
    let raw_target = raw
        .then(|| Target::file(&beside(out, ".raw"), force))
        .transpose()?;

    progress.start(h as u64, "rows");
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
    if high as i64 - low as i64 > 65535 {
        return Err(ExportError::Area(format!(
            "heights out of range: {low}..={high} spans more than 65,536 blocks, more than \
             16 bits hold block by block"
        )));
    }

    let values = |row: &[Surface], water: bool| -> Vec<u16> {
        row.iter()
            .map(|s| {
                let y = if water { s.water.unwrap_or(s.y) } else { s.y };
                encode(y, low, high)
            })
            .collect()
    };
    let texts = |what: &str| {
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
    };
    // A 16-bit map of the ground (`water` false) or of the water's surface.
    let heights = |path: &Path, what: &str, water: bool| {
        write_png(
            path,
            [w, h],
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            &texts(what),
            |i| {
                values(&rows[i], water)
                    .iter()
                    .flat_map(|v| v.to_be_bytes())
                    .collect()
            },
        )
    };
    heights(png_target.partial(), "surface heights", false)?;
    heights(
        water_target.partial(),
        "water surface heights (the ground where no river or lake above the sea covers it)",
        true,
    )?;
    write_png(
        rivers_target.partial(),
        [w, h],
        png::ColorType::Grayscale,
        png::BitDepth::Eight,
        &[],
        |i| {
            rows[i]
                .iter()
                .map(|s| if s.water.is_some() { 255 } else { 0 })
                .collect()
        },
    )?;
    write_png(
        biome_target.partial(),
        [w, h],
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &[],
        |i| {
            rows[i]
                .iter()
                .flat_map(|s| biome_color(s.biome.map_or(u8::MAX, |b| b as u8)))
                .collect()
        },
    )?;
    let raw = match raw_target {
        Some(t) => {
            let path = t.partial().to_path_buf();
            let file = File::create(&path).map_err(ExportError::io(&path))?;
            let mut f = BufWriter::new(file);
            for row in &rows {
                let bytes: Vec<u8> = values(row, false)
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect();
                f.write_all(&bytes).map_err(ExportError::io(&path))?;
            }
            f.flush().map_err(ExportError::io(&path))?;
            Some(t)
        }
        None => None,
    };
    Ok(Report {
        png: png_target.finish()?,
        raw: raw.map(Target::finish).transpose()?,
        biomes: biome_target.finish()?,
        water: water_target.finish()?,
        rivers: rivers_target.finish()?,
        size: [w, h],
        low,
        high,
    })
}

/// A biome's map colour; grey where the world has no biomes.
fn biome_color(b: u8) -> [u8; 3] {
    Biome::ALL
        .get(b as usize)
        .map_or([128, 128, 128], |b| b.map_color())
}

/// Writes a PNG row by row (`row(i)` gives row `i`'s bytes) with text chunks.
fn write_png(
    path: &Path,
    [w, h]: [u32; 2],
    color: png::ColorType,
    depth: png::BitDepth,
    texts: &[(&str, String)],
    row: impl Fn(usize) -> Vec<u8>,
) -> Result<(), ExportError> {
    let fail = |e: png::EncodingError| ExportError::Encode {
        what: "a PNG",
        message: e.to_string(),
    };
    let file = File::create(path).map_err(ExportError::io(path))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), w, h);
    enc.set_color(color);
    enc.set_depth(depth);
    for (key, text) in texts {
        enc.add_text_chunk(key.to_string(), text.clone())
            .map_err(fail)?;
    }
    let mut writer = enc.write_header().map_err(fail)?;
    let mut stream = writer.stream_writer().map_err(fail)?;
    for i in 0..h as usize {
        stream.write_all(&row(i)).map_err(ExportError::io(path))?;
    }
    stream.finish().map_err(fail)
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
