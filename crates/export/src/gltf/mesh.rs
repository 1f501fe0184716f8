//! The game's chunk meshes unpacked for glTF: positions, normals, atlas UVs and
//! vertex colours (tint times ambient occlusion, in linear light).
//!
//! The game's merged quads repeat their texture once per block, which one atlas
//! cannot do; so each merged quad is cut back into its unit faces here, each with
//! its tile's UVs and the quad's corner values interpolated across it (what the
//! GPU draws across the merged quad).

use terravox_mesher::vertex::{Vertex, face_uv, occlusion_shade};
use terravox_mesher::{Face, Surface};
use terravox_voxel::textures::Texture;
use terravox_voxel::water_states::DROP_UNITS;

use super::atlas::Atlas;

/// The vertex and index arrays of one material.
#[derive(Debug, Default)]
pub(crate) struct Arrays {
    pub(crate) positions: Vec<[f32; 3]>,
    pub(crate) normals: Vec<[f32; 3]>,
    pub(crate) uvs: Vec<[f32; 2]>,
    /// Linear RGBA.
    pub(crate) colors: Vec<[u8; 4]>,
    pub(crate) indices: Vec<u32>,
}

/// What a corner carries that varies across a quad.
#[derive(Clone, Copy)]
struct Corner {
    pos: [f32; 3],
    /// Linear tint.
    tint: [f32; 3],
    /// Ambient occlusion `0..=3` (water: depth).
    ao: f32,
}

impl Corner {
    /// The corner of `v` moved by `origin`; a water vertex lowered by its surface's
    /// drop (which it carries in place of a texture layer).
    fn of(v: &Vertex, origin: [f32; 3], tinted: bool, water: bool) -> Self {
        let drop = if water {
            v.layer as f32 / DROP_UNITS as f32
        } else {
            0.0
        };
        Corner {
            pos: [
                v.pos[0] as f32 + origin[0],
                v.pos[1] as f32 + origin[1] - drop,
                v.pos[2] as f32 + origin[2],
            ],
            tint: if tinted { v.tint.map(linear) } else { [1.0; 3] },
            ao: v.ao as f32,
        }
    }

    /// `a + (b - a) * s + (d - a) * t` for every field.
    fn lerp(a: &Corner, b: &Corner, d: &Corner, s: f32, t: f32) -> Corner {
        let f = |x: f32, y: f32, z: f32| x + (y - x) * s + (z - x) * t;
        Corner {
            pos: [0, 1, 2].map(|i| f(a.pos[i], b.pos[i], d.pos[i])),
            tint: [0, 1, 2].map(|i| f(a.tint[i], b.tint[i], d.tint[i])),
            ao: f(a.ao, b.ao, d.ao),
        }
    }
}

impl Arrays {
    /// Adds `surface` (a chunk's opaque or water surface), its chunk-local
    /// positions moved by `origin`; `water` surfaces are not darkened by occlusion
    /// (their `ao` is a depth), show the water texture and stand at their drop (a
    /// lake's top a ninth below its blocks' tops, flowing water lower).
    pub(crate) fn add(&mut self, surface: &Surface, origin: [f32; 3], atlas: &Atlas, water: bool) {
        for quad in surface.vertices.chunks_exact(4) {
            let Some(v) = unpack(quad) else {
                continue;
            };
            let layer = if water {
                Texture::Water.layer()
            } else {
                v[0].layer
            };
            let tinted = atlas.tinted(layer);
            let [a, b, _, d] = v.map(|v| Corner::of(&v, origin, tinted, water));
            let normal = v[0].face.normal().map(|n| n as f32);
            let length = |p: &Corner| {
                let d = [0, 1, 2].map(|i| p.pos[i] - a.pos[i]);
                (d[0].abs() + d[1].abs() + d[2].abs()).round().max(1.0) as u32
            };
            let (w, h) = (length(&b), length(&d));
            for j in 0..h {
                for i in 0..w {
                    let at = |di: u32, dj: u32| {
                        let (s, t) = ((i + di) as f32 / w as f32, (j + dj) as f32 / h as f32);
                        Corner::lerp(&a, &b, &d, s, t)
                    };
                    let cell = [at(0, 0), at(1, 0), at(1, 1), at(0, 1)];
                    self.cell(&cell, normal, v[0].face, layer, water);
                }
            }
        }
    }

    /// One unit face: four corners in the quad's winding.
    fn cell(&mut self, c: &[Corner; 4], normal: [f32; 3], face: Face, layer: u8, water: bool) {
        let start = self.positions.len() as u32;
        // The game's texture coordinates, brought into this cell's tile.
        let uv: [[f32; 2]; 4] = c.map(|c| face_uv(face, c.pos));
        let min = [0, 1].map(|k| uv.iter().map(|p| p[k]).fold(f32::MAX, f32::min));
        for (corner, uv) in c.iter().zip(uv) {
            self.positions.push(corner.pos);
            self.normals.push(normal);
            self.uvs
                .push(Atlas::uv(layer, [uv[0] - min[0], uv[1] - min[1]]));
            let shade = if water {
                1.0
            } else {
                occlusion_shade(corner.ao)
            };
            let rgb = corner
                .tint
                .map(|t| ((t * shade).clamp(0.0, 1.0) * 255.0).round() as u8);
            self.colors.push([rgb[0], rgb[1], rgb[2], 255]);
        }
        // Split along the brighter diagonal, as the game does.
        let order = if c[0].ao + c[2].ao >= c[1].ao + c[3].ao {
            [0, 1, 2, 0, 2, 3]
        } else {
            [1, 2, 3, 1, 3, 0]
        };
        self.indices.extend(order.map(|k| start + k));
    }

    /// Appends `other`'s vertices and triangles.
    pub(crate) fn append(&mut self, mut other: Arrays) {
        let start = self.positions.len() as u32;
        self.positions.append(&mut other.positions);
        self.normals.append(&mut other.normals);
        self.uvs.append(&mut other.uvs);
        self.colors.append(&mut other.colors);
        self.indices.extend(other.indices.iter().map(|i| i + start));
    }

    /// The bounds of the positions (`[0; 3]` each when empty).
    pub(crate) fn bounds(&self) -> ([f32; 3], [f32; 3]) {
        if self.positions.is_empty() {
            return ([0.0; 3], [0.0; 3]);
        }
        self.positions
            .iter()
            .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
                (
                    [0, 1, 2].map(|i| lo[i].min(p[i])),
                    [0, 1, 2].map(|i| hi[i].max(p[i])),
                )
            })
    }
}

/// Unpacks a quad's four vertices (`None` if one is not a vertex).
fn unpack(quad: &[[u32; 2]]) -> Option<[Vertex; 4]> {
    Some([
        Vertex::unpack(quad[0])?,
        Vertex::unpack(quad[1])?,
        Vertex::unpack(quad[2])?,
        Vertex::unpack(quad[3])?,
    ])
}

/// An sRGB byte in linear light.
fn linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}
