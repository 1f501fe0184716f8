//! Packed vertices: everything the vertex shader needs about a chunk vertex in two
//! `u32`s (8 bytes).
//!
//! ```text
//! word 0:  bits  0..6   x   (chunk-local corner, 0..=32)
//!          bits  6..12  y
//!          bits 12..18  z
//!          bits 18..21  face  (index into Face::ALL)
//!          bits 21..23  ao    (0 darkest ..= 3 open; for water: depth level)
//!          bits 23..31  layer (texture array layer; for water: the drop)
//! word 1:  bits  0..24  tint  (sRGB bytes r, g, b)
//!          bits 24..28  sky   (sky light level 0..=15, see crate::light)
//!          bits 28..32  flow  (water: 0 still, else its direction, see Flow)
//! ```
//!
//! The normal follows from the face, the texture coordinates from the position and
//! the face ([`face_uv`], in block units, so a merged quad repeats its texture once
//! per block), the brightness from the occlusion level ([`occlusion_shade`]). These
//! conventions are defined here once; the game's shaders
//! (`crates/game/src/render/shaders/packed_vertex.wgsl`) and the glTF export follow
//! them, and `crates/game/tests/shaders.rs` reads the WGSL and fails where it
//! disagrees.

use crate::face::Face;

/// Where one field of a packed vertex lies: its word, its lowest bit and its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name (as in the layout above and the shader's `Decoded`).
    pub name: &'static str,
    /// Word 0 or 1.
    pub word: usize,
    /// Its lowest bit.
    pub shift: u32,
    /// Its width in bits.
    pub bits: u32,
}

impl Field {
    /// Its bits, shifted down (`2^bits - 1`).
    pub const fn mask(self) -> u32 {
        (1 << self.bits) - 1
    }

    /// `value` in the field's place (bits beyond its width are cut).
    const fn put(self, value: u32) -> u32 {
        (value & self.mask()) << self.shift
    }

    /// The field's value in `packed`.
    const fn get(self, packed: Packed) -> u32 {
        packed[self.word] >> self.shift & self.mask()
    }
}

/// The corner's x, y and z (chunk-local, `0..=32`).
pub const X: Field = Field {
    name: "x",
    word: 0,
    shift: 0,
    bits: 6,
};
/// See [`X`].
pub const Y: Field = Field {
    name: "y",
    word: 0,
    shift: 6,
    bits: 6,
};
/// See [`X`].
pub const Z: Field = Field {
    name: "z",
    word: 0,
    shift: 12,
    bits: 6,
};
/// The face: an index into [`Face::ALL`].
pub const FACE: Field = Field {
    name: "face",
    word: 0,
    shift: 18,
    bits: 3,
};
/// The occlusion level (for water the depth level).
pub const AO: Field = Field {
    name: "ao",
    word: 0,
    shift: 21,
    bits: 2,
};
/// The texture array layer. Water has one texture ([`Texture::Water`], which the
/// game's water material knows), so a water vertex holds instead its **drop**: how
/// far below the top of its block the surface is there, in
/// [`terravox_voxel::water_states::DROP_UNITS`] (see `Quad::drop`).
///
/// [`Texture::Water`]: terravox_voxel::textures::Texture::Water
pub const LAYER: Field = Field {
    name: "layer",
    word: 0,
    shift: 23,
    bits: 8,
};
/// The tint's red, green and blue sRGB bytes.
pub const TINT: [Field; 3] = [
    Field {
        name: "tint r",
        word: 1,
        shift: 0,
        bits: 8,
    },
    Field {
        name: "tint g",
        word: 1,
        shift: 8,
        bits: 8,
    },
    Field {
        name: "tint b",
        word: 1,
        shift: 16,
        bits: 8,
    },
];
/// The sky light level.
pub const SKY: Field = Field {
    name: "sky",
    word: 1,
    shift: 24,
    bits: 4,
};
/// The way water flows at the vertex ([`terravox_voxel::Flow`]: 0 still, else
/// `code - 1` fifteenths of a turn from +x towards +z); 0 for other blocks.
pub const FLOW: Field = Field {
    name: "flow",
    word: 1,
    shift: 28,
    bits: terravox_voxel::Flow::BITS,
};
/// Every field, word 0 first.
pub const LAYOUT: [Field; 11] = [
    X, Y, Z, FACE, AO, LAYER, TINT[0], TINT[1], TINT[2], SKY, FLOW,
];

/// Brightness of a solid face's corner at occlusion level `ao` (`0.0` darkest ..=
/// `3.0` open, interpolated across the face): [`OCCLUSION_FLOOR`] in the darkest
/// corner, 1.0 (within rounding) in the open.
pub fn occlusion_shade(ao: f32) -> f32 {
    OCCLUSION_FLOOR + OCCLUSION_STEP * ao
}

/// The brightness of the darkest corner (see [`occlusion_shade`]).
pub const OCCLUSION_FLOOR: f32 = 0.42;
/// The brightness one occlusion level adds (see [`occlusion_shade`]).
pub const OCCLUSION_STEP: f32 = 0.193;

/// The texture coordinates of point `p` (chunk-local, in blocks) on a face of this
/// kind, in blocks (the texture repeats once per block); `v` grows downwards, so on
/// side faces the texture's top row is at the top.
pub fn face_uv(face: Face, p: [f32; 3]) -> [f32; 2] {
    match face {
        Face::PosX => [-p[2], -p[1]],
        Face::NegX => [p[2], -p[1]],
        Face::PosY => [p[0], p[2]],
        Face::NegY => [p[0], -p[2]],
        Face::PosZ => [p[0], -p[1]],
        Face::NegZ => [-p[0], -p[1]],
    }
}

/// One unpacked chunk vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// Chunk-local corner position, each `0..=32`.
    pub pos: [u8; 3],
    /// The face it belongs to.
    pub face: Face,
    /// Ambient occlusion level `0..=3` (water: depth level `0..=3`, shallow first).
    pub ao: u8,
    /// Texture array layer (for water: the drop, see [`LAYER`]).
    pub layer: u8,
    /// Tint, sRGB bytes (white for untinted blocks).
    pub tint: [u8; 3],
    /// Sky light level `0..=15`.
    pub sky: u8,
    /// How water flows here ([`FLOW`]).
    pub flow: u8,
}

/// A packed vertex, as uploaded.
pub type Packed = [u32; 2];

impl Vertex {
    /// Packs the vertex. Positions above 63 are cut (the mesher makes none above 32),
    /// occlusion above 3 and sky light above 15 likewise.
    #[inline]
    pub const fn pack(self) -> Packed {
        let [x, y, z] = self.pos;
        let w0 = X.put(x as u32)
            | Y.put(y as u32)
            | Z.put(z as u32)
            | FACE.put(self.face as u32)
            | AO.put(self.ao as u32)
            | LAYER.put(self.layer as u32);
        let w1 = TINT[0].put(self.tint[0] as u32)
            | TINT[1].put(self.tint[1] as u32)
            | TINT[2].put(self.tint[2] as u32)
            | SKY.put(self.sky as u32)
            | FLOW.put(self.flow as u32);
        [w0, w1]
    }

    /// Unpacks a vertex; `None` if the face field is not a face.
    pub const fn unpack(p: Packed) -> Option<Self> {
        let face = FACE.get(p) as usize;
        if face >= Face::ALL.len() {
            return None;
        }
        Some(Self {
            pos: [X.get(p) as u8, Y.get(p) as u8, Z.get(p) as u8],
            face: Face::ALL[face],
            ao: AO.get(p) as u8,
            layer: LAYER.get(p) as u8,
            tint: [
                TINT[0].get(p) as u8,
                TINT[1].get(p) as u8,
                TINT[2].get(p) as u8,
            ],
            sky: SKY.get(p) as u8,
            flow: FLOW.get(p) as u8,
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
                                    flow: (x + y + layer) & 15,
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

    #[test]
    fn the_layout_fields_neither_overlap_nor_spill_out_of_their_word() {
        for word in 0..2 {
            let mut used = 0u32;
            for f in LAYOUT.iter().filter(|f| f.word == word) {
                let bits = f.mask() << f.shift;
                assert_eq!(used & bits, 0, "{} overlaps", f.name);
                assert!(f.shift + f.bits <= 32, "{} spills out of its word", f.name);
                used |= bits;
            }
        }
    }

    #[test]
    fn occlusion_runs_from_the_floor_to_the_open() {
        assert_eq!(occlusion_shade(0.0), OCCLUSION_FLOOR);
        assert!((occlusion_shade(3.0) - 1.0).abs() < 0.01);
    }
}
