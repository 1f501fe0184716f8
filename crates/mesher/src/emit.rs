//! Vertex emission: a merged quad becomes four packed vertices (position, face,
//! occlusion, texture layer, tint) and two triangles split along the brighter
//! diagonal.

use terravox_voxel::textures::Side;
use terravox_voxel::{Block, ColumnTints, Flow, PADDED};

use crate::face::Face;
use crate::quad::Quad;
use crate::vertex::{Packed, Vertex};

/// Vertex and index data of one surface, ready for a GPU mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Surface {
    /// Packed vertices, four per quad (see [`Vertex`]).
    pub vertices: Vec<Packed>,
    /// Triangle list indices.
    pub indices: Vec<u32>,
    /// The merged quads, in emission order (four vertices each).
    pub quads: Vec<Quad>,
}

impl Surface {
    pub(crate) fn clear(&mut self) {
        self.vertices.clear();
        self.indices.clear();
        self.quads.clear();
    }

    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Whether every index fits in a `u16` (at most 65,536 vertices): then the
    /// game uploads 2-byte indices.
    pub fn fits_u16(&self) -> bool {
        self.vertices.len() <= 1 << 16
    }

    /// The indices as `u16`, if they fit.
    pub fn indices_u16(&self) -> Option<Vec<u16>> {
        self.fits_u16()
            .then(|| self.indices.iter().map(|&i| i as u16).collect())
    }

    /// Bytes the surface takes on the GPU: 8 per vertex plus 2 or 4 per index.
    pub fn gpu_bytes(&self) -> usize {
        let index = if self.fits_u16() { 2 } else { 4 };
        self.vertices.len() * size_of::<Packed>() + self.indices.len() * index
    }
}

/// The tints of a chunk's padded columns, for tinted blocks and water.
#[derive(Clone, Debug)]
pub(crate) struct Tints {
    /// Per padded column, `(z + 1) * PADDED + x + 1`.
    columns: Box<ColumnTints>,
    /// Whether `columns` holds a chunk's tints; if not, grass's and water's own
    /// colours are used.
    set: bool,
}

impl Default for Tints {
    fn default() -> Self {
        Self {
            columns: ColumnTints::boxed(),
            set: false,
        }
    }
}

impl Tints {
    /// Takes a chunk's tints, or none.
    pub(crate) fn set(&mut self, tints: Option<&ColumnTints>) {
        self.set = tints.is_some();
        if let Some(t) = tints {
            (*self.columns).clone_from(t);
        }
    }

    /// How the water flows at a vertex's local corner `(x, z)` (`0..=32`): its
    /// column's flow for water, still for every other block and without tints.
    #[inline]
    fn flow_at(&self, block: Block, x: u8, z: u8) -> u8 {
        if !block.is_water() || !self.set {
            return 0;
        }
        self.columns.flow[Self::column(x, z)].0
    }

    /// The padded column whose tints a vertex at local corner `(x, z)` takes.
    #[inline]
    fn column(x: u8, z: u8) -> usize {
        let c = |v: u8| (v as usize).min(PADDED - 2) + 1;
        c(z) * PADDED + c(x)
    }

    /// The tint of `block` at a vertex's local corner `(x, z)` (`0..=32`): the
    /// column's grass or water colour, white for untinted blocks.
    #[inline]
    fn at(&self, block: Block, x: u8, z: u8) -> [u8; 3] {
        let water = block.is_water();
        if !water && !block.is_tinted() {
            return [255; 3];
        }
        if !self.set {
            return if water {
                block.color()
            } else {
                Block::Grass.color()
            };
        }
        let i = Self::column(x, z);
        if water {
            self.columns.water[i]
        } else {
            self.columns.grass[i]
        }
    }
}

/// The side of a block a face is on.
const fn side(face: Face) -> Side {
    match face {
        Face::PosY => Side::Top,
        Face::NegY => Side::Bottom,
        _ => Side::Side,
    }
}

/// The chunk-local corners A, B, C, D of a quad, before any reversal.
#[inline(always)]
pub(crate) fn corners(q: &Quad) -> [[u8; 3]; 4] {
    let (d, r, c) = q.face.axes();
    let mut base = q.min;
    base[d] += q.face.positive() as u8;
    let (h, w) = (q.max[r] - q.min[r] + 1, q.max[c] - q.min[c] + 1);
    let corner = |dr: u8, dc: u8| {
        let mut p = base;
        p[r] += dr;
        p[c] += dc;
        p
    };
    [corner(0, 0), corner(0, w), corner(h, w), corner(h, 0)]
}

/// Emits quad `q`, of water if `WATER`: four vertices and two triangles. Water's
/// vertices carry the surface's drop where others carry their texture layer (water
/// has one texture), and `flow` where the water's own way overrides its column's
/// (other blocks do not flow).
#[inline(always)]
pub(crate) fn emit<const WATER: bool>(
    out: &mut Surface,
    tints: &Tints,
    q: Quad,
    flow: Option<Flow>,
) {
    let mut verts = corners(&q);
    let mut ao = q.ao;
    let mut drop = q.drop;
    if q.face.reversed() {
        verts.swap(1, 3);
        ao.swap(1, 3);
        drop.swap(1, 3);
    }
    let layer = if WATER {
        0
    } else {
        q.block.texture(side(q.face)).layer()
    };
    let start = out.vertices.len() as u32;
    for k in 0..4 {
        // Tinted blocks and water take the tint of the column at each corner, so
        // colours blend smoothly across a merged quad and across biome borders.
        let [x, _, z] = verts[k];
        out.vertices.push(
            Vertex {
                pos: verts[k],
                face: q.face,
                ao: ao[k],
                layer: if WATER { drop[k] } else { layer },
                tint: tints.at(q.block, x, z),
                sky: q.sky,
                flow: match (WATER, flow) {
                    (false, _) => 0,
                    (true, Some(f)) => f.0,
                    (true, None) => tints.flow_at(q.block, x, z),
                },
            }
            .pack(),
        );
    }
    let order = if ao[0] as u32 + ao[2] as u32 >= ao[1] as u32 + ao[3] as u32 {
        [0, 1, 2, 0, 2, 3]
    } else {
        [1, 2, 3, 1, 3, 0]
    };
    out.indices.extend_from_slice(&order.map(|k| start + k));
    out.quads.push(q);
}
