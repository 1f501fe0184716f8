//! Block textures: which texture each face of a block shows, and the generator that
//! draws every texture, 16x16 pixel art made for terravox from seeded hashes and
//! per-block palettes (no image is copied from anywhere).
//!
//! [`generate`] is a pure function: the same call always gives the same pixels. The
//! CLI (`terravox textures`) writes its output to `assets/textures/blocks.png`, a
//! vertical strip of one 16x16 tile per [`Texture`] in declaration order, which the
//! game embeds as a texture array (one layer per tile). A test keeps the committed
//! file equal to the generator's output.
//!
//! The alpha channel is not transparency but the **tint mask**: 255 where the pixel
//! is multiplied by the biome tint of its column (grass, leaves, water), 0 where it
//! keeps its own colour (the dirt of a grass block's side). Tinted pixels are drawn in
//! greys so that the tint gives them their colour.

use crate::block::Block;

/// Pixels along one side of a texture.
pub const SIZE: usize = 16;

/// One texture: a layer of the block texture array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Texture {
    Stone,
    Dirt,
    GrassTop,
    GrassSide,
    Sand,
    Snow,
    SnowSide,
    Gravel,
    ForestFloorTop,
    ForestFloorSide,
    Planks,
    Brick,
    Cobblestone,
    SandstoneTop,
    SandstoneSide,
    Clay,
    Ice,
    PodzolTop,
    PodzolSide,
    OakLogTop,
    OakLogSide,
    OakLeaves,
    BirchLogTop,
    BirchLogSide,
    BirchLeaves,
    SpruceLogTop,
    SpruceLogSide,
    SpruceLeaves,
    AcaciaLogTop,
    AcaciaLogSide,
    AcaciaLeaves,
    CactusTop,
    CactusSide,
    Water,
    CoalOre,
    IronOre,
    GoldOre,
    Slate,
}

impl Texture {
    /// Every texture, in layer order.
    pub const ALL: [Texture; 38] = [
        Texture::Stone,
        Texture::Dirt,
        Texture::GrassTop,
        Texture::GrassSide,
        Texture::Sand,
        Texture::Snow,
        Texture::SnowSide,
        Texture::Gravel,
        Texture::ForestFloorTop,
        Texture::ForestFloorSide,
        Texture::Planks,
        Texture::Brick,
        Texture::Cobblestone,
        Texture::SandstoneTop,
        Texture::SandstoneSide,
        Texture::Clay,
        Texture::Ice,
        Texture::PodzolTop,
        Texture::PodzolSide,
        Texture::OakLogTop,
        Texture::OakLogSide,
        Texture::OakLeaves,
        Texture::BirchLogTop,
        Texture::BirchLogSide,
        Texture::BirchLeaves,
        Texture::SpruceLogTop,
        Texture::SpruceLogSide,
        Texture::SpruceLeaves,
        Texture::AcaciaLogTop,
        Texture::AcaciaLogSide,
        Texture::AcaciaLeaves,
        Texture::CactusTop,
        Texture::CactusSide,
        Texture::Water,
        Texture::CoalOre,
        Texture::IronOre,
        Texture::GoldOre,
        Texture::Slate,
    ];

    /// The texture's layer in the array.
    pub const fn layer(self) -> u8 {
        self as u8
    }
}

/// Which side of a block a face is on, for its texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Facing up.
    Top,
    /// Facing down.
    Bottom,
    /// Facing sideways.
    Side,
}

impl Block {
    /// The texture drawn on this side of the block (air draws nothing; it answers
    /// stone).
    pub const fn texture(self, side: Side) -> Texture {
        use Side::{Bottom, Top};
        use Texture as T;
        match (self, side) {
            (Block::Air | Block::CaveAir | Block::Stone, _) => T::Stone,
            (Block::CoalOre, _) => T::CoalOre,
            (Block::IronOre, _) => T::IronOre,
            (Block::GoldOre, _) => T::GoldOre,
            (Block::Slate, _) => T::Slate,
            (
                Block::Water
                | Block::FlowingWater1
                | Block::FlowingWater2
                | Block::FlowingWater3
                | Block::FlowingWater4
                | Block::FlowingWater5
                | Block::FlowingWater6
                | Block::FlowingWater7
                | Block::FallingWater,
                _,
            ) => T::Water,
            (Block::Grass, Top) => T::GrassTop,
            (Block::Grass, Bottom) | (Block::Dirt, _) => T::Dirt,
            (Block::Grass, _) => T::GrassSide,
            (Block::Sand, _) => T::Sand,
            (Block::Snow, Top) => T::Snow,
            (Block::Snow, Bottom) => T::Dirt,
            (Block::Snow, _) => T::SnowSide,
            (Block::Gravel, _) => T::Gravel,
            (Block::ForestFloor, Top) => T::ForestFloorTop,
            (Block::ForestFloor, Bottom) => T::Dirt,
            (Block::ForestFloor, _) => T::ForestFloorSide,
            (Block::Wood | Block::OakLog, Top | Bottom) => T::OakLogTop,
            (Block::Wood | Block::OakLog, _) => T::OakLogSide,
            (Block::Planks, _) => T::Planks,
            (Block::Brick, _) => T::Brick,
            (Block::Cobblestone, _) => T::Cobblestone,
            (Block::Sandstone, Top | Bottom) => T::SandstoneTop,
            (Block::Sandstone, _) => T::SandstoneSide,
            (Block::Clay, _) => T::Clay,
            (Block::Ice, _) => T::Ice,
            (Block::Podzol, Top) => T::PodzolTop,
            (Block::Podzol, Bottom) => T::Dirt,
            (Block::Podzol, _) => T::PodzolSide,
            (Block::OakLeaves, _) => T::OakLeaves,
            (Block::BirchLog, Top | Bottom) => T::BirchLogTop,
            (Block::BirchLog, _) => T::BirchLogSide,
            (Block::BirchLeaves, _) => T::BirchLeaves,
            (Block::SpruceLog, Top | Bottom) => T::SpruceLogTop,
            (Block::SpruceLog, _) => T::SpruceLogSide,
            (Block::SpruceLeaves, _) => T::SpruceLeaves,
            (Block::AcaciaLog, Top | Bottom) => T::AcaciaLogTop,
            (Block::AcaciaLog, _) => T::AcaciaLogSide,
            (Block::AcaciaLeaves, _) => T::AcaciaLeaves,
            (Block::Cactus, Top | Bottom) => T::CactusTop,
            (Block::Cactus, _) => T::CactusSide,
        }
    }
}

/// One texture's pixels: sRGB colour plus the tint mask, row by row from the top.
pub type Pixels = [[u8; 4]; SIZE * SIZE];

/// Draws every texture, in layer order.
pub fn generate() -> Vec<Pixels> {
    Texture::ALL.iter().map(|&t| draw(t)).collect()
}

/// A hash of a pixel and a salt to `0.0..1.0`, fixed forever.
fn hash(x: i32, y: i32, salt: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x27d4_eb2d)
        ^ (y as u32).wrapping_mul(0x1656_67b1)
        ^ salt.wrapping_mul(0x9e37_79b9);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    (h >> 8) as f32 / (1u32 << 24) as f32
}

/// Value noise that tiles every 16 pixels, at a cell size of `cell` pixels.
fn tiled_noise(x: i32, y: i32, cell: i32, salt: u32) -> f32 {
    let n = SIZE as i32 / cell;
    let (cx, cy) = (x / cell, y / cell);
    let (fx, fy) = (
        (x % cell) as f32 / cell as f32,
        (y % cell) as f32 / cell as f32,
    );
    let at = |i: i32, j: i32| hash(i.rem_euclid(n), j.rem_euclid(n), salt);
    let s = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sy) = (s(fx), s(fy));
    let top = at(cx, cy) + (at(cx + 1, cy) - at(cx, cy)) * sx;
    let bottom = at(cx, cy + 1) + (at(cx + 1, cy + 1) - at(cx, cy + 1)) * sx;
    top + (bottom - top) * sy
}

/// Scales an sRGB colour by `k`, clamped.
fn shade(c: [u8; 3], k: f32) -> [u8; 3] {
    c.map(|v| (v as f32 * k).round().clamp(0.0, 255.0) as u8)
}

/// An opaque, untinted pixel.
fn own(c: [u8; 3]) -> [u8; 4] {
    [c[0], c[1], c[2], 0]
}

/// A grey pixel of brightness `v` (`0..=1` of white) that takes the tint.
fn tinted(v: f32) -> [u8; 4] {
    let g = (v * 255.0).round().clamp(0.0, 255.0) as u8;
    [g, g, g, 255]
}

/// Speckled ground: the colour varied by fine and coarse noise.
fn speckle(x: i32, y: i32, c: [u8; 3], salt: u32, amount: f32) -> [u8; 3] {
    let n = hash(x, y, salt) * 0.6 + tiled_noise(x, y, 4, salt + 1) * 0.4;
    shade(c, 1.0 + (n - 0.5) * 2.0 * amount)
}

/// Grey leaves (or a coloured canopy): bright clumps, dark gaps between them.
fn leaves(x: i32, y: i32, salt: u32) -> f32 {
    let clump = tiled_noise(x, y, 4, salt);
    let fine = hash(x, y, salt + 7);
    if fine < 0.12 {
        0.35
    } else {
        0.62 + clump * 0.28 + fine * 0.1
    }
}

/// The side of a log: vertical bark streaks.
fn bark(x: i32, y: i32, c: [u8; 3], salt: u32) -> [u8; 3] {
    let streak = hash(x, 0, salt) * 0.7 + tiled_noise(x, y, 8, salt + 3) * 0.3;
    let groove = if hash(x, y / 3, salt + 5) < 0.15 {
        0.7
    } else {
        1.0
    };
    shade(c, (0.8 + streak * 0.35) * groove)
}

/// The cut end of a log: rings around the centre inside a rim of bark.
fn log_top(x: i32, y: i32, wood: [u8; 3], rim: [u8; 3], salt: u32) -> [u8; 3] {
    let (dx, dy) = (x as f32 - 7.5, y as f32 - 7.5);
    if dx.abs().max(dy.abs()) > 6.6 {
        return bark(x, y, rim, salt);
    }
    let r = (dx * dx + dy * dy).sqrt();
    let ring = if (r + hash(x, y, salt) * 0.8) as i32 % 3 == 0 {
        0.82
    } else {
        1.0
    };
    shade(wood, ring * (0.95 + hash(x, y, salt + 1) * 0.1))
}

/// Ground with a fringe of a top layer hanging over its side: `top` gives the
/// fringe's pixel, `under` the ground's.
fn fringe(
    x: i32,
    y: i32,
    salt: u32,
    top: impl Fn() -> [u8; 4],
    under: impl Fn() -> [u8; 4],
) -> [u8; 4] {
    let depth = 3 + (hash(x, 0, salt) * 2.4) as i32;
    if y < depth { top() } else { under() }
}

/// Draws one texture.
fn draw(t: Texture) -> Pixels {
    let salt = t as u32 * 101 + 17;
    let mut px = [[0u8; 4]; SIZE * SIZE];
    for (i, p) in px.iter_mut().enumerate() {
        let (x, y) = ((i % SIZE) as i32, (i / SIZE) as i32);
        *p = pixel(t, x, y, salt);
    }
    px
}

const DIRT: [u8; 3] = [121, 85, 58];
const STONE: [u8; 3] = [128, 128, 131];
const SAND: [u8; 3] = [222, 208, 156];
const SNOW: [u8; 3] = [238, 243, 250];
const OAK: [u8; 3] = [176, 138, 86];
const OAK_BARK: [u8; 3] = [104, 80, 50];

fn dirt(x: i32, y: i32) -> [u8; 4] {
    let pebble = hash(x, y, 991) < 0.06;
    own(if pebble {
        shade(DIRT, 0.7)
    } else {
        speckle(x, y, DIRT, 990, 0.14)
    })
}

fn grass(x: i32, y: i32) -> [u8; 4] {
    let blade = hash(x, y, 331);
    tinted(0.74 + tiled_noise(x, y, 4, 332) * 0.16 + (blade - 0.5) * 0.28)
}

fn stone(x: i32, y: i32, salt: u32) -> [u8; 4] {
    let n = tiled_noise(x, y, 4, salt) * 0.6 + tiled_noise(x, y, 8, salt + 1) * 0.4;
    let crack = hash(x, y, salt + 2) < 0.05;
    own(shade(STONE, if crack { 0.72 } else { 0.86 + n * 0.26 }))
}

/// Stone (the stone texture's own pattern) with lumps of `colour`: a few blobs of 2 to 4 pixels
/// around seeded centres, lit on their upper left.
fn ore(x: i32, y: i32, salt: u32, colour: [u8; 3]) -> [u8; 4] {
    for i in 0..5u32 {
        let cx = 2 + (hash(i as i32, 0, salt + 7) * 11.0) as i32;
        let cy = 2 + (hash(i as i32, 1, salt + 7) * 11.0) as i32;
        let (dx, dy) = (x - cx, y - cy);
        let r = 1 + (hash(i as i32, 2, salt + 7) * 1.6) as i32;
        if dx * dx + dy * dy <= r * r && hash(x, y, salt + 8) > 0.15 {
            let light = if dx + dy < 0 { 1.12 } else { 0.86 };
            return own(shade(colour, light));
        }
    }
    stone(x, y, Texture::Stone as u32 * 101 + 17)
}

/// Slate: thin beds of dark blue-grey rock, each its own tone and finely banded row by
/// row, split by broken dark partings (a pale lip of lit edge under each) that each step
/// down a pixel somewhere along the face, with faint grain streaks and a few pale mica
/// flecks.
fn slate(x: i32, y: i32, salt: u32) -> [u8; 4] {
    // The first row of each bed, and the beds' tones.
    const BEDS: [i32; 5] = [0, 3, 7, 10, 13];
    const TONES: [[u8; 3]; 5] = [
        [82, 89, 103],
        [70, 76, 89],
        [88, 94, 107],
        [74, 80, 92],
        [84, 91, 104],
    ];
    // Each parting steps down a pixel along part of the face (noise that tiles every
    // 16 pixels), each at its own place.
    let parting = |k: usize| BEDS[k] + (tiled_noise(x, 0, 8, salt + k as u32) > 0.5) as i32;
    // The bed holding this row: under the last parting above it, or the last bed
    // (wrapping) above the first parting.
    let bed = (0..BEDS.len())
        .rev()
        .find(|&k| parting(k) <= y)
        .unwrap_or(BEDS.len() - 1);
    let tone = TONES[bed];
    if parting(bed) == y && hash(x, bed as i32, salt + 8) > 0.1 {
        return own(shade(tone, 0.6 + hash(x, y, salt + 9) * 0.08));
    }
    if hash(x, y, salt + 10) < 0.025 {
        return own(shade([136, 144, 160], 0.96 + hash(x, y, salt + 11) * 0.1));
    }
    let lip = if parting(bed) == y - 1 { 0.08 } else { 0.0 };
    let row = y - parting(bed);
    let band = hash(bed as i32, row, salt + 12) * 0.07;
    let streak = hash((x + y * 5) / 4, y, salt + 13) * 0.06;
    own(shade(
        tone,
        0.92 + lip + band + streak + hash(x, y, salt + 14) * 0.04,
    ))
}

/// One pixel of texture `t`. Over 150 lines, and left so on purpose: it is a data
/// table (one arm a texture, each naming its painter and colours), which reads best
/// whole; splitting it would scatter the table without making any arm simpler.
fn pixel(t: Texture, x: i32, y: i32, salt: u32) -> [u8; 4] {
    use Texture as T;
    match t {
        T::Stone => stone(x, y, salt),
        T::CoalOre => ore(x, y, salt, [38, 36, 38]),
        T::IronOre => ore(x, y, salt, [196, 150, 118]),
        T::GoldOre => ore(x, y, salt, [238, 206, 72]),
        T::Slate => slate(x, y, salt),
        T::Dirt => dirt(x, y),
        T::GrassTop => grass(x, y),
        T::GrassSide => fringe(x, y, salt, || grass(x, y), || dirt(x, y)),
        T::Sand => own(speckle(x, y, SAND, salt, 0.07)),
        T::Snow => own(speckle(x, y, SNOW, salt, 0.03)),
        T::SnowSide => fringe(
            x,
            y,
            salt,
            || own(speckle(x, y, SNOW, salt, 0.03)),
            || dirt(x, y),
        ),
        T::Gravel => {
            let stone = tiled_noise(x, y, 2, salt);
            let tone = if hash(x / 2, y / 2, salt + 1) < 0.3 {
                [150, 128, 110]
            } else {
                [136, 134, 132]
            };
            own(shade(tone, 0.72 + stone * 0.45))
        }
        T::ForestFloorTop => {
            let moss = tiled_noise(x, y, 2, salt);
            tinted(0.55 + moss * 0.25 + hash(x, y, salt + 1) * 0.1)
        }
        T::ForestFloorSide => fringe(
            x,
            y,
            salt,
            || tinted(0.6 + hash(x, y, salt + 1) * 0.2),
            || dirt(x, y),
        ),
        T::Planks => {
            let board = y / 4;
            let seam = y % 4 == 3 || (x + board * 5) % 16 == 0;
            let grain = tiled_noise(x, y, 2, salt + board as u32) * 0.15;
            own(shade(OAK, if seam { 0.68 } else { 0.92 + grain }))
        }
        T::Brick => {
            let row = y / 4;
            let offset = if row % 2 == 0 { 0 } else { 4 };
            let mortar = y % 4 == 3 || (x + offset) % 8 == 7;
            own(if mortar {
                speckle(x, y, [178, 172, 160], salt, 0.05)
            } else {
                let brick = hash((x + offset) / 8, row, salt + 1);
                speckle(
                    x,
                    y,
                    shade([158, 72, 58], 0.9 + brick * 0.2),
                    salt + 2,
                    0.08,
                )
            })
        }
        T::Cobblestone => {
            // Stones in a jittered 4x4 grid, separated by dark mortar.
            let (mut best, mut second, mut id) = (f32::MAX, f32::MAX, 0u32);
            for j in -1i32..=4 {
                for i in -1i32..=4 {
                    let cx = i as f32 * 4.0 + hash(i.rem_euclid(4), j.rem_euclid(4), salt) * 4.0;
                    let cy =
                        j as f32 * 4.0 + hash(i.rem_euclid(4), j.rem_euclid(4), salt + 1) * 4.0;
                    let d = (x as f32 + 0.5 - cx).hypot(y as f32 + 0.5 - cy);
                    if d < best {
                        second = best;
                        best = d;
                        id = (i.rem_euclid(4) * 4 + j.rem_euclid(4)) as u32;
                    } else if d < second {
                        second = d;
                    }
                }
            }
            own(if second - best < 0.9 {
                shade(STONE, 0.55)
            } else {
                shade(STONE, 0.8 + hash(id as i32, 0, salt + 2) * 0.35)
            })
        }
        T::SandstoneTop => own(speckle(x, y, [212, 190, 134], salt, 0.05)),
        T::SandstoneSide => {
            let band = [1.0, 0.97, 0.92, 1.02][(y / 4) as usize % 4];
            let line = if y % 4 == 0 { 0.86 } else { 1.0 };
            own(speckle(
                x,
                y,
                shade([212, 190, 134], band * line),
                salt,
                0.04,
            ))
        }
        T::Clay => own(speckle(x, y, [152, 158, 172], salt, 0.05)),
        T::Ice => {
            let streak = ((x + y * 2) % 11 == 0) as u8 as f32;
            own(shade(
                [170, 204, 245],
                0.95 + tiled_noise(x, y, 8, salt) * 0.08 + streak * 0.1,
            ))
        }
        T::PodzolTop => {
            let needle = hash(x, y, salt) < 0.25;
            own(if needle {
                speckle(x, y, [150, 98, 48], salt + 1, 0.1)
            } else {
                speckle(x, y, [98, 68, 38], salt + 2, 0.12)
            })
        }
        T::PodzolSide => fringe(
            x,
            y,
            salt,
            || own(speckle(x, y, [110, 76, 40], salt + 1, 0.12)),
            || dirt(x, y),
        ),
        T::OakLogTop => own(log_top(x, y, OAK, OAK_BARK, salt)),
        T::OakLogSide => own(bark(x, y, OAK_BARK, salt)),
        T::OakLeaves => tinted(leaves(x, y, salt)),
        T::BirchLogTop => own(log_top(x, y, [214, 196, 150], [220, 218, 208], salt)),
        T::BirchLogSide => {
            let dash = hash(x / 3, y, salt) < 0.18 && y % 5 != 0;
            own(if dash {
                [48, 44, 40]
            } else {
                speckle(x, y, [222, 220, 210], salt + 1, 0.04)
            })
        }
        T::BirchLeaves => own(shade([128, 168, 84], leaves(x, y, salt) * 1.25)),
        T::SpruceLogTop => own(log_top(x, y, [140, 104, 64], [66, 48, 30], salt)),
        T::SpruceLogSide => own(bark(x, y, [70, 50, 31], salt)),
        T::SpruceLeaves => own(shade([52, 94, 60], leaves(x, y, salt) * 1.25)),
        T::AcaciaLogTop => own(log_top(x, y, [178, 96, 52], [110, 102, 92], salt)),
        T::AcaciaLogSide => own(bark(x, y, [112, 104, 94], salt)),
        T::AcaciaLeaves => tinted(leaves(x, y, salt)),
        T::CactusTop => {
            let (dx, dy) = (x as f32 - 7.5, y as f32 - 7.5);
            let rim = dx.abs().max(dy.abs()) > 5.5;
            own(speckle(
                x,
                y,
                if rim { [52, 118, 44] } else { [96, 160, 70] },
                salt,
                0.06,
            ))
        }
        T::CactusSide => {
            let ridge = x % 4 == 1;
            let spine = x % 4 == 3 && hash(x, y, salt) < 0.2;
            own(if spine {
                [226, 222, 180]
            } else {
                speckle(
                    x,
                    y,
                    if ridge { [78, 148, 62] } else { [58, 124, 48] },
                    salt + 1,
                    0.06,
                )
            })
        }
        T::Water => {
            let ripple = tiled_noise(x, y, 4, salt) * 0.5 + tiled_noise(x, y, 8, salt + 1) * 0.5;
            tinted(0.82 + ripple * 0.18)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_side_has_a_texture_and_layers_are_in_order() {
        for (i, t) in Texture::ALL.iter().enumerate() {
            assert_eq!(t.layer() as usize, i);
        }
        for b in Block::ALL {
            for side in [Side::Top, Side::Bottom, Side::Side] {
                assert!(Texture::ALL.contains(&b.texture(side)));
            }
        }
    }

    #[test]
    fn textures_are_deterministic_and_not_flat() {
        let (a, b) = (generate(), generate());
        assert_eq!(a, b);
        for (t, px) in Texture::ALL.iter().zip(&a) {
            let distinct: std::collections::HashSet<_> = px.iter().collect();
            assert!(distinct.len() >= 8, "{t:?} has {} colours", distinct.len());
        }
        // Tinted blocks' faces are grey and marked for the tint; others are not.
        let grass = &a[Texture::GrassTop as usize];
        assert!(
            grass
                .iter()
                .all(|p| p[3] == 255 && p[0] == p[1] && p[1] == p[2])
        );
        assert!(a[Texture::Stone as usize].iter().all(|p| p[3] == 0));
        let side = &a[Texture::GrassSide as usize];
        assert!(
            side[..SIZE].iter().all(|p| p[3] == 255),
            "grass fringe on top"
        );
        assert!(side[SIZE * 15..].iter().all(|p| p[3] == 0), "dirt below");
    }

    #[test]
    fn slate_is_dark_blue_grey_and_layered() {
        let all = generate();
        let mean = |t: Texture| {
            let px = &all[t as usize];
            [0, 1, 2].map(|c| px.iter().map(|p| p[c] as f32).sum::<f32>() / px.len() as f32)
        };
        let (slate, stone) = (mean(Texture::Slate), mean(Texture::Stone));
        assert!(slate[2] > slate[0] + 12.0, "blue-grey: {slate:?}");
        assert!(slate[1] < stone[1] - 30.0, "darker than stone: {slate:?}");
        // Its colour is the mean of its texture, like stone's.
        for (c, m) in Block::Slate.color().iter().zip(slate) {
            assert!(
                (*c as f32 - m).abs() < 1.5,
                "{:?} vs {slate:?}",
                Block::Slate.color()
            );
        }
        // Strata: brightness changes far more down the face than along it.
        let px = &all[Texture::Slate as usize];
        let spread = |line: &dyn Fn(usize) -> f32| {
            let v: Vec<f32> = (0..SIZE).map(line).collect();
            let m = v.iter().sum::<f32>() / SIZE as f32;
            v.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / SIZE as f32
        };
        let rows = spread(&|y| (0..SIZE).map(|x| px[y * SIZE + x][1] as f32).sum::<f32>());
        let cols = spread(&|x| (0..SIZE).map(|y| px[y * SIZE + x][1] as f32).sum::<f32>());
        assert!(rows > cols * 4.0, "rows {rows} cols {cols}");
        assert!(px.iter().all(|p| p[3] == 0), "slate is not tinted");
    }
}
