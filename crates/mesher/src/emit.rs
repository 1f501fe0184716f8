//! Vertex emission: a merged quad becomes four vertices (position, normal, colour
//! darkened by occlusion) and two triangles split along the brighter diagonal.

use terravox_voxel::Block;

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
    /// Linear colour of every block.
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
            palette: Block::ALL.map(|b| b.color().map(srgb_to_linear)),
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

#[inline(always)]
pub(crate) fn emit(out: &mut Surface, q: Quad) {
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
    let rgb = out.palette[q.block as usize];
    let alpha = if q.block == Block::Water { 0.7 } else { 1.0 };
    let start = out.positions.len() as u32;
    let colors: [[f32; 4]; 4] = std::array::from_fn(|k| {
        let light = AO_LIGHT[ao[k] as usize] * variation(verts[k]);
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
