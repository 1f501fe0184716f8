//! Water in the block model: sources, flowing water with its level and falling
//! water, as Minecraft has them, and how its surface is drawn (the heights at a
//! block's corners) and which way it runs.
//!
//! ```text
//! block                       fluid              amount  own height
//! Water                       Source             8       8/9
//! FlowingWater1..7            Flowing(1..=7)     8 - L   (8 - L)/9   (L: the level)
//! FallingWater                Falling            8       8/9, drawn full under water
//! ```
//!
//! A block of water under another is drawn full height (9/9). The surface of a block
//! is drawn through its four corners, each the weighted mean of the heights of the
//! four columns that share it (Minecraft's `LiquidBlockRenderer`: heights of at least
//! 0.8 weigh ten times as much, air counts as 0, solid blocks not at all), so a
//! surface runs on smoothly from one block to the next and slopes down where the
//! water thins out. The rules by which water spreads are `terravox_edits::fluid`'s;
//! these are only what a block says by itself and what drawing and swimming read.

use crate::block::Block;

/// What a block holds of water.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fluid {
    /// A source: the sea, rivers, lakes, a bucket's water. It never drains.
    Source,
    /// Flowing water, level `1..=7`: as many blocks from the water feeding it.
    Flowing(u8),
    /// Water falling: fed from above.
    Falling,
}

/// The highest level of flowing water (the thinnest film).
pub const LOWEST_LEVEL: u8 = 7;

/// Units of a surface's drop below its block's top, per block (`144`: a ninth, the
/// step between two levels, is 16 units).
pub const DROP_UNITS: u32 = 144;

impl Fluid {
    /// The block holding this water.
    pub const fn block(self) -> Block {
        match self {
            Fluid::Source => Block::Water,
            Fluid::Falling => Block::FallingWater,
            Fluid::Flowing(level) => match level {
                0 | 1 => Block::FlowingWater1,
                2 => Block::FlowingWater2,
                3 => Block::FlowingWater3,
                4 => Block::FlowingWater4,
                5 => Block::FlowingWater5,
                6 => Block::FlowingWater6,
                _ => Block::FlowingWater7,
            },
        }
    }

    /// Minecraft's amount: 8 for a source and falling water, `8 - level` for
    /// flowing water; also its height in the block in ninths, with no water above.
    pub const fn amount(self) -> u8 {
        match self {
            Fluid::Source | Fluid::Falling => 8,
            Fluid::Flowing(level) => 8 - level,
        }
    }

    /// Whether it is a source.
    pub const fn is_source(self) -> bool {
        matches!(self, Fluid::Source)
    }
}

impl Block {
    /// The water the block holds, if it is water.
    pub const fn fluid(self) -> Option<Fluid> {
        Some(match self {
            Block::Water => Fluid::Source,
            Block::FallingWater => Fluid::Falling,
            Block::FlowingWater1 => Fluid::Flowing(1),
            Block::FlowingWater2 => Fluid::Flowing(2),
            Block::FlowingWater3 => Fluid::Flowing(3),
            Block::FlowingWater4 => Fluid::Flowing(4),
            Block::FlowingWater5 => Fluid::Flowing(5),
            Block::FlowingWater6 => Fluid::Flowing(6),
            Block::FlowingWater7 => Fluid::Flowing(7),
            _ => return None,
        })
    }

    /// Whether the block is water of any kind: a source, flowing or falling.
    #[inline]
    pub const fn is_water(self) -> bool {
        matches!(self as u8, 1 | 31..=38)
    }
}

/// How high the water stands in a column at the height of the surface being drawn:
/// what the corners of a surface average over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    /// A solid block: it does not count.
    Solid,
    /// Open (air, cave air): counts as no water.
    Open,
    /// Water `ninths` high (9: full, water above it).
    Water(u8),
}

impl Column {
    /// The column of `block`, with `above` the block over it.
    const fn of(block: Block, above: Block) -> Self {
        match block.fluid() {
            Some(_) if above.is_water() => Column::Water(9),
            Some(f) => Column::Water(f.amount()),
            None if block.is_solid() => Column::Solid,
            None => Column::Open,
        }
    }

    /// Its height in ninths, `None` for a solid block.
    const fn ninths(self) -> Option<u8> {
        match self {
            Column::Solid => None,
            Column::Open => Some(0),
            Column::Water(n) => Some(n),
        }
    }
}

/// How far below the top of its block the surface of water `own` is at the corner
/// it shares with `sides` (the two columns beside it there) and `diagonal`, in
/// [`DROP_UNITS`]: 0 is the block's top, 144 its bottom. Minecraft's
/// `calculateAverageHeight`, in whole ninths so every chunk drawing a corner gets the
/// same answer.
fn corner_drop(own: Column, sides: [Column; 2], diagonal: Column) -> u8 {
    let full = |c: Column| matches!(c, Column::Water(9));
    if full(own) || full(sides[0]) || full(sides[1]) {
        return 0;
    }
    let (mut sum, mut weight) = (0u32, 0u32);
    let mut add = |c: Column| match c.ninths() {
        // At least 0.8 of a block (Minecraft's threshold): ten times the weight.
        Some(n) if n >= 8 => {
            sum += 10 * n as u32;
            weight += 10;
        }
        Some(n) => {
            sum += n as u32;
            weight += 1;
        }
        None => {}
    };
    let wet = |c: Column| matches!(c, Column::Water(n) if n > 0);
    if wet(sides[0]) || wet(sides[1]) {
        if full(diagonal) {
            return 0;
        }
        add(diagonal);
    }
    add(own);
    add(sides[0]);
    add(sides[1]);
    if weight == 0 {
        return DROP_UNITS as u8;
    }
    // DROP_UNITS * (1 - sum / (9 * weight)), rounded.
    let units = DROP_UNITS / 9;
    let drop = (2 * units * (9 * weight - sum) + weight) / (2 * weight);
    drop.min(DROP_UNITS) as u8
}

/// The drops (in [`DROP_UNITS`]) of the four top corners of a block of water,
/// `[dz][dx]` for the corner at `(x + dx, z + dz)`; `at(dx, dy, dz)` answers the
/// blocks around it (`dx, dz` in `-1..=1`, `dy` in `0..=1`).
pub fn top_drops(at: impl Fn(i32, i32, i32) -> Block) -> [[u8; 2]; 2] {
    let column = |dx, dz| Column::of(at(dx, 0, dz), at(dx, 1, dz));
    let own = column(0, 0);
    std::array::from_fn(|iz| {
        std::array::from_fn(|ix| {
            let (dx, dz) = (2 * ix as i32 - 1, 2 * iz as i32 - 1);
            corner_drop(own, [column(dx, 0), column(0, dz)], column(dx, dz))
        })
    })
}

/// The way water at a block runs (Minecraft's `getFlow`): towards lower water and
/// open drops beside it, and down along a wall where it falls; `[0; 3]` where it is
/// still. Not normalised. `at(dx, dy, dz)` answers the blocks around it (`dy` in
/// `-1..=1`).
pub fn flow(at: impl Fn(i32, i32, i32) -> Block) -> [f32; 3] {
    let Some(own) = at(0, 0, 0).fluid() else {
        return [0.0; 3];
    };
    let height = |f: Fluid| f.amount() as f32 / 9.0;
    let mine = height(own);
    let (mut x, mut z) = (0.0f32, 0.0f32);
    for [dx, dz] in SIDES {
        let beside = at(dx, 0, dz);
        let g = match beside.fluid() {
            Some(f) => mine - height(f),
            // Open: the water below it, if any, draws this way.
            None if !beside.is_solid() => match at(dx, -1, dz).fluid() {
                Some(f) => mine - (height(f) - 8.0 / 9.0),
                None => 0.0,
            },
            None => 0.0,
        };
        x += dx as f32 * g;
        z += dz as f32 * g;
    }
    let normal = |v: [f32; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if l == 0.0 { v } else { v.map(|c| c / l) }
    };
    let v = normal([x, 0.0, z]);
    let walled = SIDES
        .iter()
        .any(|&[dx, dz]| at(dx, 0, dz).is_solid() || at(dx, 1, dz).is_solid());
    if own == Fluid::Falling && walled {
        return normal([v[0], -6.0, v[2]]);
    }
    v
}

/// The four directions on the ground, `[dx, dz]`, in a fixed order.
pub const SIDES: [[i32; 2]; 4] = [[0, -1], [0, 1], [-1, 0], [1, 0]];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_water_block_round_trips_through_its_fluid() {
        let water: Vec<Block> = Block::ALL.into_iter().filter(|b| b.is_water()).collect();
        assert_eq!(water.len(), 9);
        for b in Block::ALL {
            assert_eq!(b.fluid().is_some(), b.is_water(), "{b:?}");
            if let Some(f) = b.fluid() {
                assert_eq!(f.block(), b);
                assert!(!b.is_solid() && !b.is_opaque() && !b.is_air());
            }
        }
        for level in 1..=LOWEST_LEVEL {
            let f = Fluid::Flowing(level);
            assert_eq!(f.block().fluid(), Some(f));
            assert_eq!(f.amount(), 8 - level);
        }
    }

    /// A column of `ninths` water: how [`Column::of`] sees it.
    fn w(ninths: u8) -> Column {
        Column::Water(ninths)
    }

    #[test]
    fn a_lake_is_drawn_flat_a_ninth_below_the_top() {
        let s = w(8);
        assert_eq!(corner_drop(s, [s, s], s), 16);
        // A source beside air sinks a little at that corner: three sources of
        // weight 10 and the air's 0 of weight 1, 240/31 ninths high, 20.1 units down.
        assert_eq!(corner_drop(s, [s, Column::Open], s), 20);
        // Water above any of the three: the corner is at the top.
        assert_eq!(corner_drop(s, [w(9), s], s), 0);
        assert_eq!(corner_drop(w(9), [s, s], s), 0);
        // Solid blocks do not count: a source in a corner of rock is flat.
        assert_eq!(corner_drop(s, [Column::Solid; 2], Column::Solid), 16);
    }

    #[test]
    fn flowing_water_is_drawn_lower_the_further_it_runs() {
        // Alone between walls, each level's corners stand at its own height.
        let mut last = 0;
        for level in 1..=LOWEST_LEVEL {
            let f = Fluid::Flowing(level);
            let own = Column::of(f.block(), Block::Air);
            let drop = corner_drop(own, [Column::Solid; 2], Column::Solid);
            assert_eq!(
                drop as u32,
                (DROP_UNITS / 9) * (1 + level as u32),
                "level {level}"
            );
            assert!(drop > last);
            last = drop;
        }
        // Level 7 is a thin film: an eighth of the block or less.
        assert!(DROP_UNITS - last as u32 <= DROP_UNITS / 8);
    }

    #[test]
    fn the_corners_of_a_channel_slope_down_from_the_lake() {
        // A channel along +x out of a lake (x < 0), walls at z = -1 and z = 1.
        let at = |x: i32, y: i32, z: i32| {
            if y != 0 || z != 0 {
                return if y > 0 { Block::Air } else { Block::Stone };
            }
            match x {
                ..0 => Block::Water,
                0..=6 => Fluid::Flowing(x as u8 + 1).block(),
                _ => Block::Air,
            }
        };
        let mut prev: Option<u8> = None;
        for x in 0..7 {
            let d = top_drops(|dx, dy, dz| at(x + dx, dy, dz));
            // The same height on both sides of the channel, lower downstream.
            assert_eq!(d[0][0], d[1][0]);
            assert_eq!(d[0][1], d[1][1]);
            assert!(d[0][1] > d[0][0], "x {x}: {d:?}");
            if let Some(p) = prev {
                assert_eq!(p, d[0][0], "x {x}: corners shared with the block before");
            }
            prev = Some(d[0][1]);
            // It runs downstream, along +x.
            let f = flow(|dx, dy, dz| at(x + dx, dy, dz));
            assert!(f[0] > 0.99 && f[2].abs() < 1e-6, "x {x}: {f:?}");
        }
    }

    #[test]
    fn falling_water_beside_a_wall_runs_down() {
        let at = |x: i32, _y: i32, z: i32| match (x, z) {
            (0, 0) => Block::FallingWater,
            (1, 0) => Block::Stone,
            _ => Block::Air,
        };
        let f = flow(at);
        assert!(f[1] < -0.99, "{f:?}");
        assert_eq!(flow(|_, _, _| Block::Water), [0.0; 3]);
        assert_eq!(flow(|_, _, _| Block::Stone), [0.0; 3]);
    }
}
