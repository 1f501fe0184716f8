//! Biomes (version 2): chosen per column by nearest fit in (temperature, humidity,
//! continentalness, erosion, height) space, as Minecraft's multi-noise biome source
//! does, with rivers laid over the land.
//!
//! Each biome has its surface blocks, its tints and its chance of a tree (the species
//! it grows are `planting`'s, above the trees). Borders are neither
//! straight nor hard: biomes are chosen on a grid every [`STEP`] blocks and each block
//! column takes the biome of one of its four grid corners, picked by a seeded hash
//! with the bilinear weights as odds (a dithered border); tints are interpolated
//! bilinearly between the corners (blended over the 8 blocks).

use terravox_voxel::{Block, CHUNK, ColumnTints, PADDED};

use crate::mix::mix64;
use crate::shape::climate::Fields;

/// One biome. The order is the table's and the map legend's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Biome {
    /// Open sea.
    Ocean,
    /// Sand between sea and land.
    Beach,
    /// A river channel.
    River,
    /// Grassland with a few trees.
    Plains,
    /// Oak and birch woods.
    Forest,
    /// Birch woods.
    BirchForest,
    /// Spruce woods on podzol.
    Taiga,
    /// Sand, sandstone and cacti.
    Desert,
    /// Dry grass and acacias.
    Savanna,
    /// Wet lowland with clay and dark oaks.
    Swamp,
    /// Snow-covered land with a few spruces.
    SnowyPlains,
    /// Bare rock above the tree line.
    StonyPeaks,
    /// Snow and ice on the highest mountains.
    SnowyPeaks,
}

impl Biome {
    /// Every biome, in order.
    pub const ALL: [Biome; 13] = [
        Biome::Ocean,
        Biome::Beach,
        Biome::River,
        Biome::Plains,
        Biome::Forest,
        Biome::BirchForest,
        Biome::Taiga,
        Biome::Desert,
        Biome::Savanna,
        Biome::Swamp,
        Biome::SnowyPlains,
        Biome::StonyPeaks,
        Biome::SnowyPeaks,
    ];

    /// Its name, as in the map legend.
    pub const fn name(self) -> &'static str {
        self.looks().name
    }

    /// Its colour on the biome map.
    pub const fn map_color(self) -> [u8; 3] {
        self.looks().map
    }

    /// The colour of its grass (leaves are tinted by the same factor).
    pub const fn grass(self) -> [u8; 3] {
        self.looks().grass
    }

    /// The colour of its water.
    pub const fn water(self) -> [u8; 3] {
        self.looks().water
    }

    /// Whether trees grow densely here (forests, taiga): a player standing in it sees
    /// trunks all around.
    pub const fn is_wooded(self) -> bool {
        self.looks().trees > OPEN_LAND_TREES
    }

    pub(crate) const fn looks(self) -> &'static Looks {
        &LOOKS[self as usize]
    }
}

/// Biomes with at most this chance of a tree per cell (out of 256) are open land.
const OPEN_LAND_TREES: u8 = 40;

/// What a biome looks like and grows.
#[derive(Debug)]
pub(crate) struct Looks {
    pub name: &'static str,
    pub map: [u8; 3],
    pub grass: [u8; 3],
    pub water: [u8; 3],
    /// The surface block above the shore.
    pub top: Block,
    /// Another surface block mixed in, and its share out of 256.
    pub patches: (Block, u8),
    /// The three blocks under the surface.
    pub filler: Block,
    /// The surface from just below sea level to one block above it.
    pub shore: Block,
    /// The surface more than six blocks below sea level.
    pub floor: Block,
    /// Chance out of 256 that a tree cell holds a tree (the species are
    /// `planting`'s).
    pub trees: u8,
}

const fn looks(
    name: &'static str,
    map: [u8; 3],
    (grass, water): ([u8; 3], [u8; 3]),
    [top, filler, shore, floor]: [Block; 4],
    patches: (Block, u8),
    trees: u8,
) -> Looks {
    Looks {
        name,
        map,
        grass,
        water,
        top,
        patches,
        filler,
        shore,
        floor,
        trees,
    }
}

use Block::{Clay, Dirt, Grass, Gravel, Ice, Podzol, Sand, Sandstone, Snow, Stone};

/// Every biome's looks, in [`Biome::ALL`] order: name, map colour, (grass colour,
/// water colour), [top, filler, shore, floor], patches, tree chance.
#[rustfmt::skip]
const LOOKS: [Looks; 13] = [
    looks("ocean", [20, 60, 150], ([95, 155, 70], [40, 90, 170]), [Sand, Sand, Sand, Gravel], (Clay, 20), 0),
    looks("beach", [235, 220, 160], ([110, 170, 70], [45, 115, 175]), [Sand, Sandstone, Sand, Gravel], (Sand, 0), 0),
    looks("river", [60, 120, 230], ([95, 160, 70], [50, 105, 175]), [Sand, Gravel, Sand, Gravel], (Clay, 60), 0),
    looks("plains", [140, 200, 90], ([115, 175, 70], [45, 100, 165]), [Grass, Dirt, Sand, Gravel], (Grass, 0), 6),
    looks("forest", [40, 120, 40], ([80, 150, 55], [40, 95, 150]), [Grass, Dirt, Sand, Gravel], (Podzol, 25), 150),
    looks("birch forest", [110, 170, 100], ([125, 175, 85], [45, 100, 165]), [Grass, Dirt, Sand, Gravel], (Grass, 0), 140),
    looks("taiga", [50, 100, 80], ([95, 135, 65], [40, 85, 140]), [Podzol, Dirt, Sand, Gravel], (Grass, 90), 130),
    looks("desert", [240, 200, 110], ([190, 180, 100], [50, 120, 170]), [Sand, Sandstone, Sand, Gravel], (Sandstone, 8), 10),
    looks("savanna", [190, 180, 80], ([170, 165, 75], [55, 110, 150]), [Grass, Dirt, Sand, Gravel], (Dirt, 15), 14),
    looks("swamp", [80, 100, 60], ([85, 110, 55], [65, 85, 60]), [Grass, Dirt, Clay, Clay], (Dirt, 25), 40),
    looks("snowy plains", [240, 245, 250], ([130, 165, 140], [50, 85, 150]), [Snow, Dirt, Sand, Gravel], (Snow, 0), 4),
    looks("stony peaks", [140, 135, 130], ([120, 145, 100], [45, 95, 160]), [Stone, Stone, Gravel, Gravel], (Gravel, 50), 0),
    looks("snowy peaks", [200, 220, 240], ([125, 150, 120], [50, 85, 150]), [Snow, Stone, Gravel, Gravel], (Ice, 30), 0),
];

/// One entry of the fit table: a biome and the box of fields it fits without penalty.
/// A biome may have several entries.
struct Entry {
    biome: Biome,
    t: (f64, f64),
    h: (f64, f64),
    c: (f64, f64),
    e: (f64, f64),
    /// Height above sea level, blocks.
    y: (f64, f64),
}

const ANY: (f64, f64) = (-9.0, 9.0);
const INLAND: (f64, f64) = (-0.12, 9.0);
/// Land heights below the peaks.
const LAND: (f64, f64) = (-6.0, 64.0);

const fn land(biome: Biome, t: (f64, f64), h: (f64, f64)) -> Entry {
    Entry {
        biome,
        t,
        h,
        c: INLAND,
        e: ANY,
        y: LAND,
    }
}

// Temperature and humidity bands.
const FROZEN: (f64, f64) = (-9.0, -0.45);
const COLD: (f64, f64) = (-0.45, -0.15);
const TEMPERATE: (f64, f64) = (-0.15, 0.2);
const WARM: (f64, f64) = (0.2, 0.5);
const HOT: (f64, f64) = (0.5, 9.0);
const ARID: (f64, f64) = (-9.0, -0.25);
const DRY: (f64, f64) = (-0.25, 0.05);
const HUMID: (f64, f64) = (0.05, 0.35);
const WET: (f64, f64) = (0.35, 9.0);

/// An entry for ocean, beach and peaks: any climate, inland or not.
const fn terrain(biome: Biome, t: (f64, f64), c: (f64, f64), y: (f64, f64)) -> Entry {
    Entry {
        biome,
        t,
        h: ANY,
        c,
        e: ANY,
        y,
    }
}

/// The fit table: terrain first (ocean, beach, peaks), then land by climate.
#[rustfmt::skip]
const TABLE: [Entry; 19] = [
    terrain(Biome::Ocean, ANY, ANY, (-999.0, -6.0)),
    terrain(Biome::Beach, (-0.45, 9.0), (-0.2, -0.08), (-3.0, 3.0)),
    terrain(Biome::StonyPeaks, (-0.15, 9.0), ANY, (64.0, 999.0)),
    terrain(Biome::SnowyPeaks, (-9.0, -0.15), ANY, (64.0, 999.0)),
    terrain(Biome::SnowyPeaks, ANY, ANY, (110.0, 999.0)),
    land(Biome::SnowyPlains, FROZEN, ANY),
    land(Biome::Plains, COLD, ARID),
    land(Biome::Taiga, COLD, (-0.25, 9.0)),
    land(Biome::Plains, TEMPERATE, ARID),
    land(Biome::Plains, TEMPERATE, DRY),
    land(Biome::Forest, TEMPERATE, HUMID),
    land(Biome::BirchForest, TEMPERATE, WET),
    land(Biome::Savanna, WARM, ARID),
    land(Biome::Plains, WARM, DRY),
    land(Biome::Forest, WARM, HUMID),
    land(Biome::Swamp, WARM, WET),
    land(Biome::Desert, HOT, (-9.0, 0.0)),
    land(Biome::Savanna, HOT, (0.0, 0.35)),
    land(Biome::Swamp, HOT, WET),
];

/// The distance of `v` outside `r`.
#[inline]
fn outside(v: f64, r: (f64, f64)) -> f64 {
    (r.0 - v).max(v - r.1).max(0.0)
}

/// The biome of a column with `fields`, `height` blocks above sea level (expected
/// surface) and `river` (1 in a river's middle).
pub(crate) fn choose(f: &Fields, height: f64, river: f64) -> Biome {
    if river > 0.9 && height < 40.0 && f.c > INLAND.0 {
        return Biome::River;
    }
    let mut best = (f64::INFINITY, Biome::Plains);
    for e in &TABLE {
        let d = [
            outside(f.t, e.t),
            outside(f.h, e.h),
            outside(f.c, e.c),
            outside(f.e, e.e) * 0.5,
            outside(height, e.y) / 16.0,
        ]
        .iter()
        .map(|v| v * v)
        .sum::<f64>();
        if d < best.0 {
            best = (d, e.biome);
        }
    }
    best.1
}

/// A column's look, packed for lookup tables: biome index times two, plus one when
/// the biome's patch block replaces its top block here.
pub(crate) type Kind = u8;

/// The kind of a block column in a biome, with the patch decided by `hash`.
#[inline]
pub(crate) fn kind(biome: Biome, hash: u64) -> Kind {
    let patch = ((hash >> 40) & 0xff) < biome.looks().patches.1 as u64;
    biome as u8 * 2 + patch as u8
}

/// The biome of a kind.
#[inline]
pub(crate) fn biome_of(kind: Kind) -> Biome {
    Biome::ALL[(kind / 2) as usize]
}

/// The surface block of a kind (before the shore, floor and snow-line rules).
#[inline]
pub(crate) fn top_of(kind: Kind) -> Block {
    let l = biome_of(kind).looks();
    if kind & 1 == 1 { l.patches.0 } else { l.top }
}

/// The seeded hash of a block column, for dithering and patches.
#[inline]
pub(crate) fn column_hash(seed: u64, x: i32, z: i32) -> u64 {
    mix64(seed ^ 0xb10e_b10e ^ mix64((x as u32 as u64) << 32 | z as u32 as u64))
}

/// Picks one of four corner values with the bilinear weights of `(tx, tz)` as odds,
/// using 16 bits of `hash`: `[north-west, north-east, south-west, south-east]`.
#[inline]
pub(crate) fn dither<T: Copy>(corners: [T; 4], tx: f64, tz: f64, hash: u64) -> T {
    let u = (hash & 0xffff) as f64 / 65536.0;
    let v = ((hash >> 16) & 0xffff) as f64 / 65536.0;
    let east = (u < tx) as usize;
    let south = (v < tz) as usize;
    corners[south * 2 + east]
}

/// Bilinear blend of four corner colours at offset `(wx, wz)` (each `0..STEP`) in
/// the cell, in exact integer arithmetic.
#[inline]
pub(crate) fn blend(c: [[u8; 3]; 4], wx: i32, wz: i32) -> [u8; 3] {
    let (s, x, z) = (STEP as u32, wx as u32, wz as u32);
    let w = [(s - x) * (s - z), x * (s - z), (s - x) * z, x * z];
    std::array::from_fn(|i| {
        let sum: u32 = (0..4).map(|k| c[k][i] as u32 * w[k]).sum();
        ((sum + s * s / 2) / (s * s)) as u8
    })
}

/// Spacing of the grid biomes are chosen on, in blocks: borders are dithered and
/// tints blended across one cell.
pub(crate) const STEP: i32 = 8;

/// The grid cell holding local coordinate `l` on a grid of `n` points from local
/// `first`, the next point (the last one again at the far edge), and the offset
/// `0..STEP` inside the cell.
#[inline]
fn cell(first: i32, n: usize, l: i32) -> (usize, usize, i32) {
    let c = (l - first).div_euclid(STEP) as usize;
    (c, (c + 1).min(n - 1), (l - first).rem_euclid(STEP))
}

/// The biomes at the four lattice corners of block column `(lx, lz)` (local) and its
/// offsets `0..STEP` inside their cell, from the biomes of the square of lattice
/// columns every [`STEP`] blocks from local `first` on both axes, `[k][i]`.
fn corners(first: i32, biomes: &[Biome], lx: i32, lz: i32) -> ([Biome; 4], i32, i32) {
    let n = biomes.len().isqrt();
    let ((i, i1, wx), (k, k1, wz)) = (cell(first, n, lx), cell(first, n, lz));
    (
        [
            biomes[k * n + i],
            biomes[k * n + i1],
            biomes[k1 * n + i],
            biomes[k1 * n + i1],
        ],
        wx,
        wz,
    )
}

/// The look of world block column `(x, z)` at offsets `(wx, wz)` in a lattice cell
/// with `corners`: one corner's biome, picked by the column's hash with the
/// bilinear weights as odds, and its patches.
#[inline]
fn look(seed: u64, x: i32, z: i32, corners: [Biome; 4], wx: i32, wz: i32) -> Kind {
    let same = corners.iter().all(|&b| b == corners[0]);
    if same && corners[0].looks().patches.1 == 0 {
        // One biome and no patches: nothing to draw lots for.
        return kind(corners[0], 0);
    }
    let hash = column_hash(seed, x, z);
    let b = if same {
        corners[0]
    } else {
        dither(
            corners,
            wx as f64 / STEP as f64,
            wz as f64 / STEP as f64,
            hash,
        )
    };
    kind(b, hash)
}

/// The look of block column `(lx, lz)` (local) of the chunk whose corner is world
/// column `origin`, from lattice biomes as in [`columns`].
pub(crate) fn lattice_kind(
    seed: u64,
    origin: [i32; 2],
    first: i32,
    biomes: &[Biome],
    lx: i32,
    lz: i32,
) -> Kind {
    let (c, wx, wz) = corners(first, biomes, lx, lz);
    look(seed, origin[0] + lx, origin[1] + lz, c, wx, wz)
}

/// The looks of block columns `lo..=hi` (local, on both axes) of the chunk whose
/// corner is world column `origin`, into `kinds` (indexed
/// `(lz - lo) * width + (lx - lo)`), and the blended tints of its padded columns.
/// `biomes` are the biomes of the square of lattice columns every [`STEP`] blocks
/// from local `first` on both axes, `[k][i]`.
pub(crate) fn columns(
    seed: u64,
    origin: [i32; 2],
    (lo, hi): (i32, i32),
    first: i32,
    biomes: &[Biome],
    kinds: &mut [Kind],
) -> Box<ColumnTints> {
    let n = biomes.len().isqrt();
    let width = (hi - lo + 1) as usize;
    // Per local coordinate: grid cell, next corner, offset in the cell.
    let axis: Vec<(usize, usize, i32)> = (lo..=hi).map(|l| cell(first, n, l)).collect();
    let mut tints = ColumnTints::boxed();
    for (z, &(k, k1, wz)) in axis.iter().enumerate() {
        let lz = lo + z as i32;
        for (x, &(i, i1, wx)) in axis.iter().enumerate() {
            let lx = lo + x as i32;
            let c = [
                biomes[k * n + i],
                biomes[k * n + i1],
                biomes[k1 * n + i],
                biomes[k1 * n + i1],
            ];
            kinds[z * width + x] = look(seed, origin[0] + lx, origin[1] + lz, c, wx, wz);
            if (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz) {
                let i = (lz + 1) as usize * PADDED + (lx + 1) as usize;
                (tints.grass[i], tints.water[i]) = if c.iter().all(|&b| b == c[0]) {
                    (c[0].grass(), c[0].water())
                } else {
                    (
                        blend(c.map(Biome::grass), wx, wz),
                        blend(c.map(Biome::water), wx, wz),
                    )
                };
            }
        }
    }
    tints
}

/// The look of one block column `(x, z)` from the biomes of its four lattice
/// corners (`[north-west, north-east, south-west, south-east]`).
pub(crate) fn column_kind(seed: u64, x: i32, z: i32, corners: [Biome; 4]) -> Kind {
    look(seed, x, z, corners, x.rem_euclid(STEP), z.rem_euclid(STEP))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_tints_blend_grass_and_water_across_a_border() {
        // Lattice columns every STEP blocks from local -8: swamp west of local 8,
        // ocean from local 16 on.
        let (lo, hi, first) = (-1, CHUNK, -STEP);
        let n = ((hi - first).div_euclid(STEP) + 2) as usize;
        let biomes: Vec<Biome> = (0..n * n)
            .map(|i| {
                if i % n < 3 {
                    Biome::Swamp
                } else {
                    Biome::Ocean
                }
            })
            .collect();
        let width = (hi - lo + 1) as usize;
        let mut kinds: Vec<Kind> = vec![0; width * width];
        let tints = columns(7, [0, 0], (lo, hi), first, &biomes, &mut kinds);
        let at = |x: i32| (x + 1) as usize + 5 * PADDED;
        assert_eq!(tints.water[at(-1)], Biome::Swamp.water());
        assert_eq!(tints.grass[at(-1)], Biome::Swamp.grass());
        assert_eq!(tints.water[at(CHUNK)], Biome::Ocean.water());
        assert_eq!(tints.grass[at(CHUNK)], Biome::Ocean.grass());
        // Between the lattice columns at 8 and 16 the water blends.
        let mid = tints.water[at(12)];
        let (swamp, ocean) = (Biome::Swamp.water(), Biome::Ocean.water());
        for c in 0..3 {
            let (a, b) = (swamp[c].min(ocean[c]), swamp[c].max(ocean[c]));
            assert!(
                (a..=b).contains(&mid[c]),
                "{mid:?} between {swamp:?} and {ocean:?}"
            );
        }
        assert!(mid != swamp && mid != ocean);
    }

    #[test]
    fn table_and_looks_agree_with_the_enum() {
        for (i, b) in Biome::ALL.iter().enumerate() {
            assert_eq!(*b as usize, i);
            assert!(!b.name().is_empty());
        }
        // Every biome but the river (laid over the land) has an entry.
        for b in Biome::ALL.into_iter().filter(|&b| b != Biome::River) {
            assert!(TABLE.iter().any(|e| e.biome == b), "{b:?} has no entry");
        }
    }

    #[test]
    fn fields_choose_the_expected_biomes() {
        let at = |t, h, c, height| {
            choose(
                &Fields {
                    c,
                    e: 0.0,
                    w: 0.5,
                    t,
                    h,
                },
                height,
                0.0,
            )
        };
        assert_eq!(at(0.0, 0.0, -0.6, -40.0), Biome::Ocean);
        assert_eq!(at(0.0, 0.0, -0.2, 1.0), Biome::Beach);
        assert_eq!(at(0.8, -0.8, 0.4, 20.0), Biome::Desert);
        assert_eq!(at(-0.8, 0.0, 0.4, 20.0), Biome::SnowyPlains);
        assert_eq!(at(0.0, 0.2, 0.4, 20.0), Biome::Forest);
        assert_eq!(at(-0.3, 0.2, 0.4, 20.0), Biome::Taiga);
        assert_eq!(at(0.3, 0.6, 0.4, 2.0), Biome::Swamp);
        assert_eq!(at(0.3, 0.0, 0.4, 90.0), Biome::StonyPeaks);
        assert_eq!(at(-0.5, 0.0, 0.4, 90.0), Biome::SnowyPeaks);
        let river = Fields {
            c: 0.3,
            ..Fields::default()
        };
        assert_eq!(choose(&river, 3.0, 1.0), Biome::River);
    }

    #[test]
    fn dithering_follows_the_weights() {
        let corners = [0, 1, 2, 3];
        let mut counts = [0; 4];
        for i in 0..40_000u64 {
            counts[dither(corners, 0.25, 0.5, mix64(i))] += 1;
        }
        // Expected shares: 0.375, 0.125, 0.375, 0.125.
        for (c, want) in counts.iter().zip([0.375, 0.125, 0.375, 0.125]) {
            let share = *c as f64 / 40_000.0;
            assert!((share - want).abs() < 0.01, "{counts:?}");
        }
        assert_eq!(dither(corners, 0.0, 0.0, 12345), 0);
        assert_eq!(
            blend([[0; 3], [100; 3], [0; 3], [100; 3]], STEP / 2, 1),
            [50; 3]
        );
        assert_eq!(blend([[7; 3], [100; 3], [0; 3], [100; 3]], 0, 0), [7; 3]);
    }
}
