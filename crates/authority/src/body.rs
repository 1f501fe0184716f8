//! A player's body as the rules see it: a box [`HALF_WIDTH`] to each side of the
//! feet and [`HEIGHT`] tall, with the eyes [`EYE`] above the feet. The game's physics
//! moves the same box (these are its constants too).

use terravox_voxel::BlockPos;

/// Half the body's width.
pub const HALF_WIDTH: f32 = 0.3;
/// Body height.
pub const HEIGHT: f32 = 1.8;
/// Eye height above the feet (the generator's, which casts the first frame from it).
pub const EYE: f32 = terravox_worldgen::EYE_HEIGHT as f32;

/// The lowest and highest block the body at `feet` (world coordinates) overlaps.
pub fn blocks_of(feet: [f64; 3]) -> (BlockPos, BlockPos) {
    let w = f64::from(HALF_WIDTH);
    let lo = [feet[0] - w, feet[1], feet[2] - w];
    let hi = [
        feet[0] + w - 1e-5,
        feet[1] + f64::from(HEIGHT) - 1e-5,
        feet[2] + w - 1e-5,
    ];
    (BlockPos::containing_f64(lo), BlockPos::containing_f64(hi))
}

/// Whether the body at `feet` overlaps the block at `p`.
pub fn overlaps(feet: [f64; 3], p: BlockPos) -> bool {
    let (lo, hi) = blocks_of(feet);
    (lo.x..=hi.x).contains(&p.x) && (lo.y..=hi.y).contains(&p.y) && (lo.z..=hi.z).contains(&p.z)
}

/// The eyes of the body at `feet`.
pub fn eye(feet: [f64; 3]) -> [f64; 3] {
    [feet[0], feet[1] + f64::from(EYE), feet[2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_overlaps_the_blocks_of_its_box_and_no_others() {
        let feet = [0.5, 10.0, 0.5];
        assert!(overlaps(feet, BlockPos::new(0, 10, 0)));
        assert!(overlaps(feet, BlockPos::new(0, 11, 0)));
        assert!(!overlaps(feet, BlockPos::new(0, 12, 0)));
        assert!(!overlaps(feet, BlockPos::new(0, 9, 0)));
        assert!(!overlaps(feet, BlockPos::new(1, 10, 0)));
        // Standing across a block edge, the body overlaps both columns.
        let across = [1.1, 10.0, 0.5];
        assert!(overlaps(across, BlockPos::new(0, 10, 0)));
        assert!(overlaps(across, BlockPos::new(1, 10, 0)));
        assert_eq!(eye(feet), [0.5, 10.0 + f64::from(EYE), 0.5]);
    }
}
