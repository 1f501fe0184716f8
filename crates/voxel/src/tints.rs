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
}

impl ColumnTints {
    /// All black, on the heap (the arrays are 7 KB).
    pub fn boxed() -> Box<Self> {
        Box::new(Self {
            grass: [[0; 3]; PADDED * PADDED],
            water: [[0; 3]; PADDED * PADDED],
        })
    }
}
