//! One atlas image made from the game's texture array: each 16x16 layer a tile in a
//! grid of [`COLUMNS`] x [`COLUMNS`].
//!
//! The game multiplies a texture's tint-masked pixels (alpha 255) by the biome tint
//! of the column. In the atlas, a layer masked all over (grass tops, leaves, water)
//! keeps its grey pixels and takes the tint from the vertex colours; a layer masked
//! in part (the green top edge of a grass block's side) has grass's own colour
//! baked into its masked pixels, since a vertex colour would tint the dirt too.

use terravox_voxel::Block;
use terravox_voxel::textures::{self, SIZE};

/// Tiles along each side of the atlas.
pub(crate) const COLUMNS: usize = 8;
/// Pixels along each side of the atlas.
pub(crate) const PIXELS: usize = COLUMNS * SIZE;

/// The atlas: RGBA pixels, and which layers take the vertex tint.
pub(crate) struct Atlas {
    /// `PIXELS x PIXELS` RGBA, row by row.
    pub(crate) rgba: Vec<u8>,
    /// Per layer: tinted all over (takes the vertex tint).
    tinted: Vec<bool>,
}

impl Atlas {
    /// The atlas of the game's textures.
    pub(crate) fn new() -> Self {
        let layers = textures::generate();
        assert!(
            layers.len() <= COLUMNS * COLUMNS,
            "the atlas holds every layer"
        );
        let mut rgba = vec![0; PIXELS * PIXELS * 4];
        let grass = Block::Grass.color();
        let tinted = layers
            .iter()
            .enumerate()
            .map(|(layer, pixels)| {
                let all = pixels.iter().all(|p| p[3] == 255);
                let (tx, ty) = (layer % COLUMNS * SIZE, layer / COLUMNS * SIZE);
                for (i, p) in pixels.iter().enumerate() {
                    let rgb = if p[3] == 255 && !all {
                        [0, 1, 2].map(|c| (p[c] as u32 * grass[c] as u32 / 255) as u8)
                    } else {
                        [p[0], p[1], p[2]]
                    };
                    let at = ((ty + i / SIZE) * PIXELS + tx + i % SIZE) * 4;
                    rgba[at..at + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
                }
                all
            })
            .collect();
        Self { rgba, tinted }
    }

    /// Whether `layer` takes the vertex tint.
    pub(crate) fn tinted(&self, layer: u8) -> bool {
        self.tinted.get(layer as usize).copied().unwrap_or(false)
    }

    /// The atlas coordinates of `uv` (`0..=1` across one tile) in `layer`'s tile,
    /// pulled in a little from the tile's edges so no neighbour bleeds in.
    pub(crate) fn uv(layer: u8, [u, v]: [f32; 2]) -> [f32; 2] {
        const INSET: f32 = 1.0 / 64.0;
        let (col, row) = (layer as usize % COLUMNS, layer as usize / COLUMNS);
        let s = |t: f32| INSET + t * (1.0 - 2.0 * INSET);
        [
            (col as f32 + s(u)) / COLUMNS as f32,
            (row as f32 + s(v)) / COLUMNS as f32,
        ]
    }

    /// The atlas as a PNG.
    pub(crate) fn png(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, PIXELS as u32, PIXELS as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(&self.rgba).map_err(|e| e.to_string())?;
        w.finish().map_err(|e| e.to_string())?;
        Ok(out)
    }
}
