//! Biome tints per padded column.

use crate::chunk::PADDED;

/// The biome tints of each padded column of a chunk, sRGB bytes, indexed by
/// `(z + 1) * PADDED + (x + 1)` for local `x, z` in `-1..=32`. They blend smoothly
/// across biome borders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnTints {
    /// The colour grass has there: tinted blocks ([`crate::block::Block::is_tinted`]) are drawn in
    /// it.
    pub grass: [[u8; 3]; PADDED * PADDED],
    /// The colour of water there.
    pub water: [[u8; 3]; PADDED * PADDED],
    /// The way the water there flows ([`Flow`]): still (the sea, lakes) or a
    /// river's direction.
    pub flow: [Flow; PADDED * PADDED],
}

/// The way water flows over a column, in [`Flow::BITS`] bits: 0 is still water,
/// `1..=DIRECTIONS` a direction on the ground, `(code - 1)` [`Flow::DIRECTIONS`]ths
/// of a turn from +x towards +z. The game's water moves along it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flow(pub u8);

impl Flow {
    /// Still water.
    pub const STILL: Self = Self(0);
    /// Bits a flow takes (a packed vertex holds it).
    pub const BITS: u32 = 4;
    /// The directions a flow tells apart.
    pub const DIRECTIONS: u8 = (1 << Self::BITS) - 1;

    /// The flow nearest the direction `(dx, dz)` (still if it is zero).
    pub fn toward(dx: f64, dz: f64) -> Self {
        if dx == 0.0 && dz == 0.0 || !(dx.is_finite() && dz.is_finite()) {
            return Self::STILL;
        }
        let turn = dz.atan2(dx).rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU;
        let n = Self::DIRECTIONS as f64;
        Self(((turn * n).round() as u8) % Self::DIRECTIONS + 1)
    }

    /// The unit direction `(dx, dz)` of the flow, `None` for still water.
    pub fn direction(self) -> Option<[f64; 2]> {
        (self.0 != 0).then(|| {
            let a = (self.0 - 1) as f64 / Self::DIRECTIONS as f64 * std::f64::consts::TAU;
            [a.cos(), a.sin()]
        })
    }
}

impl ColumnTints {
    /// All black and still, on the heap (the arrays are 8 KB).
    pub fn boxed() -> Box<Self> {
        Box::new(Self {
            grass: [[0; 3]; PADDED * PADDED],
            water: [[0; 3]; PADDED * PADDED],
            flow: [Flow::STILL; PADDED * PADDED],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flow_keeps_its_direction_within_half_a_step() {
        assert_eq!(Flow::toward(0.0, 0.0), Flow::STILL);
        assert_eq!(Flow::STILL.direction(), None);
        let step = std::f64::consts::TAU / Flow::DIRECTIONS as f64;
        for i in 0..360 {
            let a = (i as f64).to_radians();
            let f = Flow::toward(3.0 * a.cos(), 3.0 * a.sin());
            assert!((1..=Flow::DIRECTIONS).contains(&f.0), "{f:?}");
            let [x, z] = f.direction().unwrap();
            let off = (x * a.sin() - z * a.cos())
                .atan2(x * a.cos() + z * a.sin())
                .abs();
            assert!(off <= step / 2.0 + 1e-9, "{i} degrees: {f:?} is {off} off");
        }
    }
}
