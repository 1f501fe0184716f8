//! One face direction of a chunk: per-vertex ambient occlusion from the blocks in
//! front of each face, and greedy merging of equal faces into rectangles.

use terravox_voxel::water_states::{self, DROP_UNITS};
use terravox_voxel::{Block, Flow, padded_index};

use crate::emit::{Surface, Tints, corners, emit};
use crate::face::Face;
use crate::light::SkyLight;
use crate::masks::{INTERIOR, Masks, N, P, Pass, plane_rows};
use crate::quad::Quad;

/// Block-local coordinates of plane cell `(layer, row, col)` for a face.
#[inline(always)]
fn coords(face: Face, layer: usize, row: usize, col: usize) -> [i32; 3] {
    let (d, r, c) = face.axes();
    let mut p = [0; 3];
    p[d] = layer as i32;
    p[r] = row as i32;
    p[c] = col as i32;
    p
}

/// The 3x3 opaque neighbourhood in front of the face of block `p`: bit
/// `(dr + 1) * 3 + (dc + 1)` is the block at row offset `dr`, column offset `dc`.
#[inline(always)]
fn front_neighbourhood(masks: &Masks, face: Face, p: [i32; 3]) -> usize {
    let n = face.normal();
    let f = [p[0] + n[0], p[1] + n[1], p[2] + n[2]].map(|v| (v + 1) as usize);
    let row3 = |bits: u64, c: usize| ((bits >> (c - 1)) & 7) as usize;
    match face {
        // Rows along z, columns along x: three x-rows of the front layer.
        Face::PosY | Face::NegY => (0..3).fold(0, |acc, dr| {
            acc | row3(masks.opaque[f[1] * P + f[2] + dr - 1], f[0]) << (dr * 3)
        }),
        // Rows along y, columns along x.
        Face::PosZ | Face::NegZ => (0..3).fold(0, |acc, dr| {
            acc | row3(masks.opaque[(f[1] + dr - 1) * P + f[2]], f[0]) << (dr * 3)
        }),
        // Rows along y, columns along z: single lookups.
        Face::PosX | Face::NegX => (0..9).fold(0, |acc, i| {
            let (dr, dc) = (i / 3, i % 3);
            let bit = masks.opaque[(f[1] + dr - 1) * P + f[2] + dc - 1] >> f[0] & 1;
            acc | (bit as usize) << i
        }),
    }
}

/// Packed occlusion levels (2 bits each: A, B, C, D) for every 3x3 neighbourhood,
/// by the rule `0 if both sides, else 3 - (side1 + side2 + corner)`.
const AO_TABLE: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut n = 0;
    while n < 512 {
        t[n] = vertex_ao(n, -1, -1)
            | vertex_ao(n, -1, 1) << 2
            | vertex_ao(n, 1, 1) << 4
            | vertex_ao(n, 1, -1) << 6;
        n += 1;
    }
    t
};

/// Occlusion level of the vertex towards `(dr, dc)` in neighbourhood `n`.
const fn vertex_ao(n: usize, dr: i32, dc: i32) -> u8 {
    const fn bit(n: usize, dr: i32, dc: i32) -> u8 {
        ((n >> ((dr + 1) * 3 + dc + 1)) & 1) as u8
    }
    let (s1, s2, corner) = (bit(n, dr, 0), bit(n, 0, dc), bit(n, dr, dc));
    if s1 == 1 && s2 == 1 {
        0
    } else {
        3 - (s1 + s2 + corner)
    }
}

/// Depth levels of water: `0` one block deep, `1` two or three, `2` four to six,
/// `3` seven or more (or deeper than the chunk shows).
fn depth_level(blocks: &[Block], x: i32, y: i32, z: i32) -> u8 {
    let depth = (-1..=y)
        .rev()
        .take_while(|&below| blocks[padded_index(x, below, z)].is_water())
        .count() as i32;
    match depth {
        // The water reaches the bottom of the padded chunk: deeper than shown.
        d if d == y + 2 => 3,
        0..=1 => 0,
        2..=3 => 1,
        4..=6 => 2,
        _ => 3,
    }
}

/// Depth levels of the water columns at height `y` of every padded column, indexed
/// `(z + 1) * P + x + 1`; columns without water there are `0`, so the colour of the
/// water shallows towards the shore.
fn column_depths(blocks: &[Block], y: i32) -> [u8; P * P] {
    std::array::from_fn(|i| {
        let (x, z) = ((i % P) as i32 - 1, (i / P) as i32 - 1);
        depth_level(blocks, x, y, z)
    })
}

/// The depth levels at the four corners A, B, C, D of the top face of water block
/// `p` (packed like occlusion levels): each the shallowest of the four columns
/// sharing that corner.
fn corner_depths(depths: &[u8; P * P], p: [i32; 3]) -> u8 {
    let at = |x: i32, z: i32| depths[(z + 1) as usize * P + (x + 1) as usize];
    let corner = |dz: i32, dx: i32| {
        let [x, _, z] = p;
        at(x, z)
            .min(at(x + dx, z))
            .min(at(x, z + dz))
            .min(at(x + dx, z + dz))
    };
    corner(-1, -1) | corner(-1, 1) << 2 | corner(1, 1) << 4 | corner(1, -1) << 6
}

/// The drop of a still lake's surface: a ninth of a block.
pub(crate) const SOURCE_DROP: u8 = (DROP_UNITS / 9) as u8;

/// The water top faces of layer `y` drawn flat at [`SOURCE_DROP`], by rows along z
/// (bit `x`): sources with no water above them or beside them above, and no air or
/// flowing water beside them (solid blocks do not count). The others have corners at
/// their own heights ([`water_states::top_drops`]) and are drawn block by block.
fn flat_tops(masks: &Masks, y: usize) -> [u32; N] {
    let l = y + 1;
    let spread = |m: u64| m | m << 1 | m >> 1;
    let lowering = |r: usize| {
        let i = l * P + r;
        masks.air[i] | masks.flowing[i] | masks.water[i + P]
    };
    std::array::from_fn(|z| {
        let r = z + 1;
        let bad = spread(lowering(r - 1) | lowering(r) | lowering(r + 1));
        ((!bad & INTERIOR) >> 1) as u32
    })
}

/// The quad of one water block `p` whose surface stands at its own corners'
/// heights (Minecraft's), its face `face`: the top corners of the block take their
/// drops, the others none; and the way the water there runs, if it runs.
fn water_cell(blocks: &[Block], face: Face, p: [i32; 3], ao: u8, sky: u8) -> (Quad, Option<Flow>) {
    let [x, y, z] = p;
    let at = |dx: i32, dy: i32, dz: i32| blocks[padded_index(x + dx, y + dy, z + dz)];
    let top = water_states::top_drops(at);
    let [fx, _, fz] = water_states::flow(at);
    let flow = Flow::toward(fx as f64, fz as f64);
    let min = p.map(|v| v as u8);
    let mut quad = Quad {
        face,
        block: at(0, 0, 0),
        min,
        max: min,
        ao: [ao & 3, ao >> 2 & 3, ao >> 4 & 3, ao >> 6 & 3],
        sky,
        drop: [0; 4],
    };
    quad.drop = corners(&quad).map(|[cx, cy, cz]| {
        if cy as i32 == y + 1 {
            top[(cz as i32 - z) as usize][(cx as i32 - x) as usize]
        } else {
            0
        }
    });
    (quad, (flow != Flow::STILL).then_some(flow))
}

/// Whether the water face of block `p` merges with its like: a top face drawn flat
/// (`flat`, by rows along z), the sides of water with water above it (whole height),
/// every bottom face.
#[inline]
fn merges(masks: &Masks, face: Face, flat: Option<&[u32; N]>, p: [i32; 3]) -> bool {
    let [x, y, z] = p.map(|v| v as usize);
    match face {
        Face::PosY => flat.is_some_and(|f| f[z] >> x & 1 == 1),
        Face::NegY => true,
        _ => masks.water[(y + 2) * P + z + 1] >> (x + 1) & 1 == 1,
    }
}

/// Meshes the faces of direction `Face::ALL[F]`, of water if `WATER`, else opaque.
pub(crate) fn mesh_faces<const F: usize, const WATER: bool>(
    blocks: &[Block],
    masks: &mut Masks,
    light: &SkyLight,
    tints: &Tints,
    out: &mut Surface,
) {
    let face = Face::ALL[F];
    let n = face.normal();
    let pass = if WATER { Pass::Water } else { Pass::Opaque };
    if matches!(face, Face::PosX | Face::NegX) {
        masks.gather_x(face, pass);
    }
    for layer in 0..N {
        let mut rows = plane_rows(masks, face, pass, layer);
        if rows.iter().all(|&r| r == 0) {
            continue;
        }
        // The water surface's depth below each column of this layer, and which of
        // its blocks are drawn flat.
        let depths = (WATER && face == Face::PosY).then(|| column_depths(blocks, layer as i32));
        let flat = (WATER && face == Face::PosY).then(|| flat_tops(masks, layer));
        // Keys: block in the low byte, the four occlusion levels (water: depth
        // levels) in the next, the sky light of the block in front above them.
        // Water blocks drawn on their own (not merged), by row.
        let mut own = [0u32; N];
        for (r, &bits) in rows.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let c = b.trailing_zeros() as usize;
                b &= b - 1;
                let p = coords(face, layer, r, c);
                let block = blocks[padded_index(p[0], p[1], p[2])];
                let ao_bits = match pass {
                    Pass::Opaque => AO_TABLE[front_neighbourhood(masks, face, p)],
                    Pass::Water => match &depths {
                        Some(d) => corner_depths(d, p),
                        None => 0xff,
                    },
                };
                let front = padded_index(p[0] + n[0], p[1] + n[1], p[2] + n[2]);
                let sky = light.at(front, blocks[front]);
                if WATER && !merges(masks, face, flat.as_ref(), p) {
                    // Drawn at its own corners' heights, block by block.
                    let (quad, flow) = water_cell(blocks, face, p, ao_bits, sky);
                    emit::<true>(out, tints, quad, flow);
                    own[r] |= 1 << c;
                    continue;
                }
                masks.keys[r][c] = block as u32 | (ao_bits as u32) << 8 | (sky as u32) << 16;
            }
        }
        if WATER {
            for (row, own) in rows.iter_mut().zip(own) {
                *row &= !own;
            }
        }
        // Greedy merge: widen along the row, then grow down the rows.
        for r in 0..N {
            while rows[r] != 0 {
                let c0 = rows[r].trailing_zeros() as usize;
                let key = masks.keys[r][c0];
                let mut c1 = c0;
                while c1 + 1 < N && rows[r] >> (c1 + 1) & 1 == 1 && masks.keys[r][c1 + 1] == key {
                    c1 += 1;
                }
                let span = ((u64::MAX >> (64 - (c1 - c0 + 1))) << c0) as u32;
                let mut r1 = r;
                while r1 + 1 < N
                    && rows[r1 + 1] & span == span
                    && masks.keys[r1 + 1][c0..=c1].iter().all(|&k| k == key)
                {
                    r1 += 1;
                }
                for row in &mut rows[r..=r1] {
                    *row &= !span;
                }
                let ao_bits = (key >> 8) as u8;
                let ao = [
                    ao_bits & 3,
                    ao_bits >> 2 & 3,
                    ao_bits >> 4 & 3,
                    ao_bits >> 6 & 3,
                ];
                let block = Block::ALL[(key & 0xff) as usize];
                let sky = (key >> 16) as u8;
                let min = coords(face, layer, r, c0).map(|v| v as u8);
                let max = coords(face, layer, r1, c1).map(|v| v as u8);
                // A merged water quad is a still lake's top, a ninth down, or the
                // side or bottom of water under water, whole.
                let drop = if WATER && face == Face::PosY {
                    SOURCE_DROP
                } else {
                    0
                };
                emit::<WATER>(
                    out,
                    tints,
                    Quad {
                        face,
                        block,
                        min,
                        max,
                        ao,
                        sky,
                        drop: [drop; 4],
                    },
                    None,
                );
            }
        }
    }
}
