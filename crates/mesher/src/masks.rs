//! Bit masks of a padded chunk (one `u64` per row of 34 blocks) and the visible faces
//! of one plane, computed from them with shifts and ands.

use terravox_voxel::{Block, CHUNK, PADDED};

use crate::face::Face;

pub(crate) const P: usize = PADDED;
pub(crate) const N: usize = CHUNK as usize;

/// Bit masks of the padded chunk: bit `x + 1` of `opaque[(y + 1) * P + z + 1]` is the
/// block at `(x, y, z)`.
#[derive(Clone, Debug)]
pub(crate) struct Masks {
    pub(crate) opaque: [u64; P * P],
    pub(crate) water: [u64; P * P],
    /// Water that is not a source: flowing or falling (the water mask holds it too).
    pub(crate) flowing: [u64; P * P],
    /// Cave air (not opaque; the air mask holds it too).
    pub(crate) cave: [u64; P * P],
    /// Every block that is neither opaque nor water.
    pub(crate) air: [u64; P * P],
    /// Visible ±x faces gathered per layer x: `[x][y]`, bit `z`.
    x_planes: [[u32; N]; N],
    /// Face keys of one plane, `[row][col]`.
    pub(crate) keys: [[u32; N]; N],
}

impl Default for Masks {
    fn default() -> Self {
        Self {
            opaque: [0; P * P],
            water: [0; P * P],
            flowing: [0; P * P],
            cave: [0; P * P],
            air: [0; P * P],
            x_planes: [[0; N]; N],
            keys: [[0; N]; N],
        }
    }
}

/// High bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// Packs the high bits of 8 bytes (after `>> 7`) into the low 8 bits (`>> 56`).
const PACK: u64 = 0x0102_0408_1020_4080;
/// All 34 bits of a padded row.
const ROW: u64 = (1 << P) - 1;

// Flowing and falling water are the last blocks: every number from the first of
// them up is water.
const _: () = assert!(Block::FallingWater as usize == Block::ALL.len() - 1);
const _: () = assert!(Block::FallingWater as u8 - Block::FlowingWater1 as u8 == 7);

/// Every byte set to `b`.
const fn splat(b: Block) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of every byte `>= n` among 8 block bytes (every block value is
/// below 128, so the per-byte sums never carry).
#[inline]
const fn at_least(v: u64, n: u8) -> u64 {
    (v + 0x0101_0101_0101_0101 * (128 - n as u64)) & HIGH
}

/// Bits of the opaque blocks (`>= 2` but neither cave air nor water), of all water
/// (`== 1`, the source, or the flowing and falling water numbered from
/// [`Block::FlowingWater1`] on: the last numbers), of the flowing and falling water
/// alone and of cave air, among 8 block bytes.
#[inline]
fn classify8(v: u64) -> [u64; 4] {
    let cave = !((v ^ splat(Block::CaveAir)) + 0x7f7f_7f7f_7f7f_7f7f) & HIGH;
    let source = !((v ^ splat(Block::Water)) + 0x7f7f_7f7f_7f7f_7f7f) & HIGH;
    // Flowing and falling water are the last block numbers (checked below).
    let flowing = at_least(v, Block::FlowingWater1 as u8);
    let opaque = at_least(v, 2) & !cave & !flowing;
    let pack = |bits: u64| ((bits >> 7).wrapping_mul(PACK)) >> 56;
    let flowing = pack(flowing);
    [pack(opaque), pack(source) | flowing, flowing, pack(cave)]
}

impl Masks {
    pub(crate) fn fill(&mut self, blocks: &[Block]) {
        for (i, row) in blocks.chunks_exact(P).enumerate() {
            let (mut o, mut w, mut f, mut c) = (0u64, 0u64, 0u64, 0u64);
            for (g, eight) in row.chunks_exact(8).enumerate() {
                let v = u64::from_le_bytes(std::array::from_fn(|k| eight[k] as u8));
                // Runs of air or stone (most of a chunk) need no classification.
                let [og, wg, fg, cg] = match v {
                    0 => [0; 4],
                    0x0202_0202_0202_0202 => [0xff, 0, 0, 0],
                    _ => classify8(v),
                };
                o |= og << (8 * g);
                w |= wg << (8 * g);
                f |= fg << (8 * g);
                c |= cg << (8 * g);
            }
            // The last two blocks, zero-extended (zero bytes are air: no bit).
            let tail = row[32] as u64 | (row[33] as u64) << 8;
            if tail != 0 {
                let [ot, wt, ft, ct] = classify8(tail);
                o |= ot << 32;
                w |= wt << 32;
                f |= ft << 32;
                c |= ct << 32;
            }
            self.opaque[i] = o;
            self.water[i] = w;
            self.flowing[i] = f;
            self.cave[i] = c;
            self.air[i] = !(o | w) & ROW;
        }
    }

    /// Gathers the visible ±x faces of every layer into `x_planes`.
    #[inline(always)]
    pub(crate) fn gather_x(&mut self, face: Face, pass: Pass) {
        self.x_planes = [[0; N]; N];
        for y in 0..N {
            for z in 0..N {
                let i = (y + 1) * P + z + 1;
                let (me, open) = match pass {
                    Pass::Opaque => (self.opaque[i], !self.opaque[i]),
                    Pass::Water => (self.water[i], self.air[i]),
                };
                let toward = if face == Face::PosX {
                    open >> 1
                } else {
                    open << 1
                };
                let mut bits = (me & toward & INTERIOR) >> 1;
                while bits != 0 {
                    let x = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.x_planes[x][y] |= 1 << z;
                }
            }
        }
    }
}

/// Which surface a pass builds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    Opaque,
    Water,
}

/// Bits 1..=32: the chunk's own blocks along a row.
pub(crate) const INTERIOR: u64 = ((1u64 << N) - 1) << 1;

/// Visible faces of one plane, row by row (bit `c` = column `c`); the plane's
/// `(row, col) -> (x, y, z)` mapping is [`Face::axes`].
#[inline(always)]
pub(crate) fn plane_rows(masks: &Masks, face: Face, pass: Pass, layer: usize) -> [u32; N] {
    let (solid, open) = match pass {
        Pass::Opaque => (&masks.opaque, None),
        Pass::Water => (&masks.water, Some(&masks.air)),
    };
    let other = |i: usize| match open {
        None => !masks.opaque[i],
        Some(open) => open[i],
    };
    let l = layer + 1; // padded index of the layer
    let mut rows = [0u32; N];
    if matches!(face, Face::PosX | Face::NegX) {
        return masks.x_planes[layer];
    }
    // First row of this layer, first row of the neighbouring layer, and the stride
    // between rows r and r + 1.
    let (me, next, stride) = match face {
        // Rows along x indexed by (y = layer, z = row), against the next layer.
        Face::PosY => (l * P + 1, (l + 1) * P + 1, 1),
        Face::NegY => (l * P + 1, (l - 1) * P + 1, 1),
        // Rows along x indexed by (y = row, z = layer).
        Face::PosZ => (P + l, P + l + 1, P),
        _ => (P + l, P + l - 1, P),
    };
    for (r, row) in rows.iter_mut().enumerate() {
        let bits = solid[me + r * stride] & other(next + r * stride);
        *row = ((bits & INTERIOR) >> 1) as u32;
    }
    rows
}
