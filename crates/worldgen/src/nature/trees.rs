//! Trees and cacti (version 2): where they stand and what they look like.
//!
//! Trees stand on a jittered grid fixed in world space: each cell of
//! `tree_spacing` blocks holds at most one trunk, at a position and with a species,
//! shape and chance drawn from a seeded hash of the cell. The biome of the trunk's
//! column says how likely a tree is and which species grow. A trunk stands on every
//! soil block of its column with air above it and above sea level, so a tree never
//! floats and never stands in water.
//!
//! A tree reaches at most [`CROWN`] blocks sideways and [`TALLEST`] up from its soil
//! block. A chunk stamps every tree whose blocks reach into it (trunks up to `CROWN`
//! columns outside it, soil up to `TALLEST` blocks below it), trunks first, then
//! leaves, only into air, in world order of the cells, so a tree is whole and the
//! same whichever chunk is generated first.
//!
//! Every generator plants through `planting` (beside this module, above the surface
//! stage): the species each biome grows, the grid's trees by biome, and their soil
//! blocks in a full-detail chunk.

use terravox_voxel::{Block, BlockPos, CHUNK, Chunk};

use crate::mix::mix64;

/// How far a tree reaches sideways from its trunk.
pub(crate) const CROWN: i32 = 2;
/// How far above its soil block a tree's highest block can be.
pub(crate) const TALLEST: i32 = 11;

/// A kind of tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Species {
    /// Round crowns, in forests, plains and swamps.
    Oak,
    /// Pale trunks, narrow crowns.
    Birch,
    /// Tall cones, in taiga and snow.
    Spruce,
    /// Flat canopies on savanna.
    Acacia,
    /// Cacti in deserts.
    Cactus,
}

impl Species {
    /// Whether a trunk of this species can stand on `soil`.
    pub(crate) fn grows_on(self, soil: Block) -> bool {
        match self {
            Species::Cactus => soil == Block::Sand,
            Species::Spruce => matches!(
                soil,
                Block::Grass | Block::Podzol | Block::Dirt | Block::Snow
            ),
            _ => matches!(soil, Block::Grass | Block::Podzol | Block::Dirt),
        }
    }

    /// How far above its soil block a tree of this species reaches at most.
    pub(crate) const fn tallest(self) -> i32 {
        match self {
            Species::Oak | Species::Acacia => 7,
            Species::Birch => 8,
            Species::Spruce => TALLEST,
            Species::Cactus => 3,
        }
    }

    /// The block of its crown (a cactus is all cactus), which stands for the whole
    /// tree far away.
    pub(crate) fn crown(self) -> Block {
        match self {
            Species::Oak => Block::OakLeaves,
            Species::Birch => Block::BirchLeaves,
            Species::Spruce => Block::SpruceLeaves,
            Species::Acacia => Block::AcaciaLeaves,
            Species::Cactus => Block::Cactus,
        }
    }

    /// The blocks of one tree of this species relative to its soil block, shape chosen
    /// by `variant`: `(dx, dy, dz, block)`, trunk first.
    pub(crate) fn blocks(self, variant: u64, out: &mut Vec<([i32; 3], Block)>) {
        out.clear();
        let bit = |n: u32| (variant >> n) & 1 == 1;
        let pick = |n: u32, count: u64| ((variant >> n) % count) as i32;
        let (log, leaves) = match self {
            Species::Oak => (Block::OakLog, Block::OakLeaves),
            Species::Birch => (Block::BirchLog, Block::BirchLeaves),
            Species::Spruce => (Block::SpruceLog, Block::SpruceLeaves),
            Species::Acacia => (Block::AcaciaLog, Block::AcaciaLeaves),
            Species::Cactus => {
                for dy in 1..=1 + pick(8, 3) {
                    out.push(([0, dy, 0], Block::Cactus));
                }
                return;
            }
        };
        let height = match self {
            Species::Oak => 4 + pick(8, 3),
            Species::Birch => 5 + pick(8, 3),
            Species::Spruce => 6 + pick(8, 4),
            _ => 4 + pick(8, 2),
        };
        for dy in 1..=height {
            out.push(([0, dy, 0], log));
        }
        // A layer of leaves of radius `r`; `round` drops the corners (some of them,
        // by the variant's bits, for radius 2).
        let mut layer = |dy: i32, r: i32, round: bool, n: u32| {
            for dz in -r..=r {
                for dx in -r..=r {
                    let corner = dx.abs() == r && dz.abs() == r;
                    if (dx, dz) == (0, 0) && dy <= height {
                        continue;
                    }
                    if corner && r > 0 && (round || bit(n + (dx > 0) as u32 + 2 * (dz > 0) as u32))
                    {
                        continue;
                    }
                    out.push(([dx, dy, dz], leaves));
                }
            }
        };
        match self {
            Species::Oak => {
                layer(height - 2, 2, bit(0), 12);
                layer(height - 1, 2, bit(1), 16);
                layer(height, 1, false, 20);
                layer(height + 1, 1, true, 0);
            }
            Species::Birch => {
                layer(height - 2, 2, true, 0);
                layer(height - 1, 2, bit(0), 12);
                layer(height, 1, true, 0);
                layer(height + 1, 0, true, 0);
            }
            Species::Spruce => {
                let lowest = 2 + pick(16, 2);
                for dy in lowest..=height {
                    let r = if (height - dy) % 2 == 1 && height - dy < 6 {
                        2
                    } else {
                        1
                    };
                    layer(dy, r, true, 0);
                }
                layer(height + 1, 0, true, 0);
                layer(height + 2, 0, true, 0);
            }
            Species::Acacia => {
                layer(height + 1, 2, bit(0), 12);
                layer(height + 2, 1, true, 0);
            }
            Species::Cactus => unreachable!("returned above"),
        }
    }
}

/// A tree cell's trunk column and its random bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trunk {
    pub x: i32,
    pub z: i32,
    /// Random bits: chance, species, shape.
    pub hash: u64,
}

impl Trunk {
    /// Whether the trunk is there, given its biome's chance out of 256 and the
    /// world's density factor.
    pub(crate) fn present(&self, chance: u8, density: f64) -> bool {
        ((self.hash & 0xffff) as f64) < chance as f64 * 256.0 * density
    }

    /// The species, by the weights of the biome's list.
    pub(crate) fn species(&self, list: &[(Species, u8)]) -> Option<Species> {
        let total: u64 = list.iter().map(|(_, w)| *w as u64).sum();
        if total == 0 {
            return None;
        }
        let mut r = (self.hash >> 16 & 0xffff) % total;
        for &(s, w) in list {
            if r < w as u64 {
                return Some(s);
            }
            r -= w as u64;
        }
        None
    }

    /// The bits that choose the shape.
    pub(crate) fn variant(&self) -> u64 {
        self.hash >> 32
    }
}

/// The trunks of every tree cell whose trunk column lies in `x0..=x1` by `z0..=z1`,
/// in world order (rows of cells north to south, west to east).
pub(crate) fn trunks(seed: u64, spacing: i32, x0: i32, z0: i32, x1: i32, z1: i32) -> Vec<Trunk> {
    let s = spacing.max(1);
    let mut v = Vec::new();
    for cz in z0.div_euclid(s)..=z1.div_euclid(s) {
        for cx in x0.div_euclid(s)..=x1.div_euclid(s) {
            let hash =
                mix64(seed ^ 0x7ee5_7ee5 ^ mix64((cx as u32 as u64) << 32 | cz as u32 as u64));
            let x = cx.wrapping_mul(s).wrapping_add((hash >> 48) as i32 % s);
            let z = cz.wrapping_mul(s).wrapping_add((hash >> 56) as i32 % s);
            if (x0..=x1).contains(&x) && (z0..=z1).contains(&z) {
                v.push(Trunk {
                    x,
                    z,
                    hash: mix64(hash),
                });
            }
        }
    }
    v
}

/// A tree standing on a soil block (`planting::plant` makes them).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planted {
    /// World position of the soil block under the trunk.
    pub(crate) soil: [i32; 3],
    /// Its species.
    pub(crate) species: Species,
    /// The bits that choose its shape ([`Trunk::variant`]).
    pub(crate) variant: u64,
}

/// Writes the blocks of `planted` that fall inside the padded chunk at `origin` into
/// air: every trunk first, then every leaf, each in list order.
pub(crate) fn stamp(chunk: &mut Chunk, origin: BlockPos, planted: &[Planted]) {
    let mut blocks = Vec::new();
    for leaves in [false, true] {
        for t in planted {
            t.species.blocks(t.variant, &mut blocks);
            for &([dx, dy, dz], b) in &blocks {
                if b.is_leaves() != leaves {
                    continue;
                }
                let l = [
                    t.soil[0] + dx - origin.x,
                    t.soil[1] + dy - origin.y,
                    t.soil[2] + dz - origin.z,
                ];
                if l.iter().all(|v| (-1..=CHUNK).contains(v))
                    && chunk.get(l[0], l[1], l[2]) == Block::Air
                {
                    chunk.set(l[0], l[1], l[2], b);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_fits_its_bounds_and_starts_with_its_trunk() {
        let mut out = Vec::new();
        for species in [
            Species::Oak,
            Species::Birch,
            Species::Spruce,
            Species::Acacia,
            Species::Cactus,
        ] {
            for variant in 0..512u64 {
                species.blocks(mix64(variant), &mut out);
                assert!(!out.is_empty());
                assert_eq!(
                    out[0].0,
                    [0, 1, 0],
                    "{species:?}: the trunk starts on the soil"
                );
                for ([dx, dy, dz], _) in &out {
                    assert!(dx.abs() <= CROWN && dz.abs() <= CROWN, "{species:?}");
                    assert!((1..=species.tallest()).contains(dy), "{species:?}: {dy}");
                }
                assert!(species.tallest() <= TALLEST);
            }
        }
    }

    #[test]
    fn trunks_stay_in_their_cells_and_do_not_depend_on_the_area() {
        let all = trunks(9, 7, -50, -50, 50, 50);
        let part = trunks(9, 7, -10, -3, 20, 30);
        for t in &part {
            assert!(all.iter().any(|a| (a.x, a.z, a.hash) == (t.x, t.z, t.hash)));
        }
        // One trunk a cell: no two in the same cell.
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(
                    (a.x.div_euclid(7), a.z.div_euclid(7))
                        != (b.x.div_euclid(7), b.z.div_euclid(7))
                );
            }
        }
        assert!(all.len() > 150, "{}", all.len());
    }
}
