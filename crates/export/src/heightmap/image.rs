//! The heightmap's files: PNGs written row by row, and a tile's 16-bit heights
//! re-encoded to the range every tile shares.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::{decode, encode};
use crate::error::ExportError;

/// A 16-bit height map's encoding: the heights value 0 and 65535 stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    pub(crate) low: i32,
    pub(crate) high: i32,
}

impl Range {
    /// The value `v` of this encoding in encoding `to` (the same height).
    fn recode(self, v: u16, to: Range) -> u16 {
        encode(decode(v, self.low, self.high), to.low, to.high)
    }
}

fn png_error(e: impl ToString) -> ExportError {
    ExportError::Encode {
        what: "a PNG",
        message: e.to_string(),
    }
}

/// Writes a PNG row by row (`row(i)` gives row `i`'s bytes) with text chunks.
pub(crate) fn write_png(
    path: &Path,
    [w, h]: [u32; 2],
    color: png::ColorType,
    depth: png::BitDepth,
    texts: &[(&str, String)],
    mut row: impl FnMut(usize) -> Result<Vec<u8>, ExportError>,
) -> Result<(), ExportError> {
    let file = File::create(path).map_err(ExportError::io(path))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), w, h);
    enc.set_color(color);
    enc.set_depth(depth);
    for (key, text) in texts {
        enc.add_text_chunk(key.to_string(), text.clone())
            .map_err(png_error)?;
    }
    let mut writer = enc.write_header().map_err(png_error)?;
    let mut stream = writer.stream_writer().map_err(png_error)?;
    for i in 0..h as usize {
        stream.write_all(&row(i)?).map_err(ExportError::io(path))?;
    }
    stream.finish().map_err(png_error)
}

/// Rewrites the 16-bit greyscale PNG at `path`, encoded in `from`, in `to` (its text
/// chunks `texts`), streaming row by row: every height stays the height it was.
pub(crate) fn recode_png(
    path: &Path,
    from: Range,
    to: Range,
    texts: &[(&str, String)],
) -> Result<(), ExportError> {
    let file = File::open(path).map_err(ExportError::io(path))?;
    let mut reader = png::Decoder::new(BufReader::new(file))
        .read_info()
        .map_err(png_error)?;
    let (w, h) = (reader.info().width, reader.info().height);
    let out = sibling(path);
    let written = write_png(
        &out,
        [w, h],
        png::ColorType::Grayscale,
        png::BitDepth::Sixteen,
        texts,
        |_| {
            let row = reader
                .next_row()
                .map_err(png_error)?
                .ok_or_else(|| png_error(format!("{} ends before its last row", path.display())))?;
            Ok(row
                .data()
                .chunks_exact(2)
                .flat_map(|b| {
                    from.recode(u16::from_be_bytes([b[0], b[1]]), to)
                        .to_be_bytes()
                })
                .collect())
        },
    );
    replace(&out, path, written)
}

/// Rewrites the RAW16 file (little-endian) at `path`, encoded in `from`, in `to`.
pub(crate) fn recode_raw(path: &Path, from: Range, to: Range) -> Result<(), ExportError> {
    let out = sibling(path);
    let written = recode_raw_into(path, &out, from, to);
    replace(&out, path, written)
}

fn recode_raw_into(path: &Path, out: &Path, from: Range, to: Range) -> Result<(), ExportError> {
    let mut input = BufReader::new(File::open(path).map_err(ExportError::io(path))?);
    let mut output = BufWriter::new(File::create(out).map_err(ExportError::io(out))?);
    let mut buf = vec![0; 1 << 16];
    loop {
        let n = read_full(&mut input, &mut buf).map_err(ExportError::io(path))?;
        if n == 0 {
            break;
        }
        let bytes: Vec<u8> = buf[..n]
            .chunks_exact(2)
            .flat_map(|b| {
                from.recode(u16::from_le_bytes([b[0], b[1]]), to)
                    .to_le_bytes()
            })
            .collect();
        output.write_all(&bytes).map_err(ExportError::io(out))?;
    }
    output.flush().map_err(ExportError::io(out))
}

/// Puts the rewritten `out` in the place of `path` once `written`, else removes it.
fn replace(out: &Path, path: &Path, written: Result<(), ExportError>) -> Result<(), ExportError> {
    match written {
        Ok(()) => fs::rename(out, path).map_err(ExportError::io(path)),
        Err(e) => {
            let _ = fs::remove_file(out);
            Err(e)
        }
    }
}

/// Reads until `buf` is full or the input ends (so no 16-bit value is split).
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Where a file inside an export's temporary is rewritten before replacing it.
fn sibling(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".recode");
    path.with_file_name(name)
}
