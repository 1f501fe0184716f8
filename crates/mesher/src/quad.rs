//! Merged rectangles, as the tests and statistics see them.

use terravox_voxel::Block;

use crate::face::Face;

/// One merged rectangle, kept for tests and statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quad {
    /// Direction it faces.
    pub face: Face,
    /// The block whose faces it covers.
    pub block: Block,
    /// Chunk-local coordinates of the first covered block.
    pub min: [u8; 3],
    /// Chunk-local coordinates of the last covered block (inclusive); equal to `min`
    /// on the normal axis.
    pub max: [u8; 3],
    /// Occlusion level (0..=3) of the vertices A, B, C, D before any reversal.
    pub ao: [u8; 4],
    /// Sky light (0..=15) of the open block in front of it ([`crate::light`]).
    pub sky: u8,
    /// Water: how far below its block's top the surface is at the vertices A, B, C,
    /// D before any reversal, in [`terravox_voxel::water_states::DROP_UNITS`] (a lake's top
    /// a ninth, flowing water lower the further it ran, a side face's lower edge and
    /// water under water 0); 0 for every other block.
    pub drop: [u8; 4],
}

impl Quad {
    /// Number of unit faces covered.
    pub fn area(&self) -> u32 {
        (0..3)
            .map(|i| (self.max[i] - self.min[i]) as u32 + 1)
            .product()
    }
}
