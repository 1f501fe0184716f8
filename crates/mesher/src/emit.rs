//! Vertex emission: a merged quad becomes four vertices (position, normal, colour
//! darkened by occlusion) and two triangles split along the brighter diagonal.

use terravox_voxel::{Block, ColumnTints, PADDED};

use crate::Quad;

/// Vertex and index data of one surface, ready for a GPU mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    /// Chunk-local vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Linear RGBA colours: the block colour, darkened by occlusion and varied a
    /// little by position.
    pub colors: Vec<[f32; 4]>,
    /// Triangle list indices.
    pub indices: Vec<u32>,
    /// The merged quads, in emission order (four vertices each).
    pub quads: Vec<Quad>,
    /// Linear colour of every block; for tinted blocks, their colour over grass's
    /// (multiplied by the column's tint).
    palette: [[f32; 3]; Block::ALL.len()],
}

impl Default for Surface {
    fn default() -> Self {
        Self {
            positions: Vec::new(),
            normals: Vec::new(),
            colors: Vec::new(),
            indices: Vec::new(),
            quads: Vec::new(),
            palette: Block::ALL.map(|b| {
                let c = b.color().map(srgb_to_linear);
                if b.is_tinted() {
                    let grass = Block::Grass.color().map(srgb_to_linear);
                    std::array::from_fn(|i| c[i] / grass[i])
                } else {
                    c
                }
            }),
        }
    }
}

impl Surface {
    pub(crate) fn clear(&mut self) {
        self.positions.clear();
        self.normals.clear();
        self.colors.clear();
        self.indices.clear();
        self.quads.clear();
    }

    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

/// Brightness of each occlusion level.
const AO_LIGHT: [f32; 4] = [0.42, 0.62, 0.81, 1.0];

/// sRGB byte to linear.
fn srgb_to_linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A small, stable brightness variation by vertex position: `0.94..=1.06`.
#[inline]
fn variation(p: [i32; 3]) -> f32 {
    let h = (p[0] as u32).wrapping_mul(0x8da6_b343)
        ^ (p[1] as u32).wrapping_mul(0xd816_3841)
        ^ (p[2] as u32).wrapping_mul(0xcb1a_b31f);
    let h = h ^ (h >> 15);
    0.94 + (h & 1023) as f32 * (0.12 / 1023.0)
}

/// The linear tints of a chunk's padded columns, for tinted blocks.
#[derive(Clone, Debug)]
pub(crate) struct Tints {
    /// Per padded column, `(z + 1) * PADDED + x + 1`.
    columns: Box<[[f32; 3]; PADDED * PADDED]>,
    /// Whether `columns` holds a chunk's tints; if not, grass's own colour is used.
    set: bool,
    grass: [f32; 3],
}

impl Default for Tints {
    fn default() -> Self {
        Self {
            columns: Box::new([[0.0; 3]; PADDED * PADDED]),
            set: false,
            grass: Block::Grass.color().map(srgb_to_linear),
        }
    }
}

impl Tints {
    /// Takes a chunk's tints (sRGB bytes), or none.
    pub(crate) fn set(&mut self, tints: Option<&ColumnTints>) {
        self.set = tints.is_some();
        if let Some(t) = tints {
            let lut: [f32; 256] = std::array::from_fn(|i| srgb_to_linear(i as u8));
            for (o, c) in self.columns.iter_mut().zip(t.iter()) {
                *o = c.map(|v| lut[v as usize]);
            }
        }
    }

    /// The tint at a vertex's local corner `(x, z)` (`0..=32`).
    #[inline]
    fn at(&self, x: i32, z: i32) -> [f32; 3] {
        if !self.set {
            return self.grass;
        }
        let c = |v: i32| v.clamp(0, PADDED as i32 - 2) as usize + 1;
        self.columns[c(z) * PADDED + c(x)]
    }
}

#[inline(always)]
pub(crate) fn emit(out: &mut Surface, tints: &Tints, q: Quad) {
    let (d, r, c) = q.face.axes();
    let mut base = q.min.map(i32::from);
    base[d] += q.face.positive() as i32;
    let (h, w) = (
        (q.max[r] - q.min[r]) as i32 + 1,
        (q.max[c] - q.min[c]) as i32 + 1,
    );
    let corner = |dr: i32, dc: i32| {
        let mut p = base;
        p[r] += dr;
        p[c] += dc;
        p
    };
    let mut verts = [corner(0, 0), corner(0, w), corner(h, w), corner(h, 0)];
    let mut ao = q.ao;
    if q.face.reversed() {
        verts.swap(1, 3);
        ao.swap(1, 3);
    }
    let n = q.face.normal().map(|v| v as f32);
    let base = out.palette[q.block as usize];
    let alpha = if q.block == Block::Water { 0.7 } else { 1.0 };
    let start = out.positions.len() as u32;
    let colors: [[f32; 4]; 4] = std::array::from_fn(|k| {
        let light = AO_LIGHT[ao[k] as usize] * variation(verts[k]);
        // Tinted blocks take the tint of the column at each corner, so colours
        // blend smoothly across a merged quad and across biome borders.
        let rgb = if q.block.is_tinted() {
            let tint = tints.at(verts[k][0], verts[k][2]);
            std::array::from_fn(|i| base[i] * tint[i])
        } else {
            base
        };
        [rgb[0] * light, rgb[1] * light, rgb[2] * light, alpha]
    });
    out.positions
        .extend_from_slice(&verts.map(|v| v.map(|a| a as f32)));
    out.normals.extend_from_slice(&[n; 4]);
    out.colors.extend_from_slice(&colors);
    let order = if ao[0] as u32 + ao[2] as u32 >= ao[1] as u32 + ao[3] as u32 {
        [0, 1, 2, 0, 2, 3]
    } else {
        [1, 2, 3, 1, 3, 0]
    };
    out.indices.extend_from_slice(&order.map(|k| start + k));
    out.quads.push(q);
}
