//! Packed vertices: everything the vertex shader needs about a chunk vertex in two
//! `u32`s (8 bytes).
//!
//! ```text
//! word 0:  bits  0..6   x   (chunk-local corner, 0..=32)
//!          bits  6..12  y
//!          bits 12..18  z
//!          bits 18..21  face  (index into Face::ALL)
//!          bits 21..23  ao    (0 darkest ..= 3 open; for water: depth level)
//!          bits 23..31  layer (texture array layer)
//! word 1:  bits  0..24  tint  (sRGB bytes r, g, b)
//!          bits 24..28  sky   (sky light level 0..=15, see crate::light)
//! ```
//!
//! The normal follows from the face, the texture coordinates from the position and
//! the face (in block units, so a merged quad repeats its texture once per block).
//! The game's shaders decode the same layout
//! (`crates/game/src/shaders/packed_vertex.wgsl`).

use crate::Face;

/// One unpacked chunk vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// Chunk-local corner position, each `0..=32`.
    pub pos: [u8; 3],
    /// The face it belongs to.
    pub face: Face,
    /// Ambient occlusion level `0..=3` (water: depth level `0..=3`, shallow first).
    pub ao: u8,
    /// Texture array layer.
    pub layer: u8,
    /// Tint, sRGB bytes (white for untinted blocks).
    pub tint: [u8; 3],
    /// Sky light level `0..=15`.
    pub sky: u8,
}

/// A packed vertex, as uploaded.
pub type Packed = [u32; 2];

impl Vertex {
    /// Packs the vertex. Positions above 63 or occlusion above 3 would spill into
    /// the next field (sky light above 15 is cut); the mesher never makes them.
    #[inline]
    pub const fn pack(self) -> Packed {
        let [x, y, z] = self.pos;
        let w0 = x as u32
            | (y as u32) << 6
            | (z as u32) << 12
            | (self.face as u32) << 18
            | (self.ao as u32 & 3) << 21
            | (self.layer as u32) << 23;
        let w1 = self.tint[0] as u32
            | (self.tint[1] as u32) << 8
            | (self.tint[2] as u32) << 16
            | (self.sky as u32 & 15) << 24;
        [w0, w1]
    }

    /// Unpacks a vertex; `None` if the face field is not a face.
    pub const fn unpack(p: Packed) -> Option<Self> {
        let [w0, w1] = p;
        let face = (w0 >> 18 & 7) as usize;
        if face >= 6 {
            return None;
        }
        Some(Self {
            pos: [(w0 & 63) as u8, (w0 >> 6 & 63) as u8, (w0 >> 12 & 63) as u8],
            face: Face::ALL[face],
            ao: (w0 >> 21 & 3) as u8,
            layer: (w0 >> 23) as u8,
            tint: [w1 as u8, (w1 >> 8) as u8, (w1 >> 16) as u8],
            sky: (w1 >> 24 & 15) as u8,
        })
    }
}

// Two 32-bit words a vertex, as the layout above says (44 bytes a quad with indices).
const _: () = assert!(std::mem::size_of::<Packed>() == 8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_round_trips() {
        let corners = [0u8, 1, 16, 31, 32];
        for face in Face::ALL {
            for ao in 0..4 {
                for layer in [0u8, 1, 33, 127, 255] {
                    for &x in &corners {
                        for &y in &corners {
                            for &z in &corners {
                                let v = Vertex {
                                    pos: [x, y, z],
                                    face,
                                    ao,
                                    layer,
                                    tint: [x.wrapping_mul(7), 255 - y, z ^ layer],
                                    sky: (x ^ y ^ z) & 15,
                                };
                                assert_eq!(Vertex::unpack(v.pack()), Some(v));
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(Vertex::unpack([7 << 18, 0]), None);
    }
}
