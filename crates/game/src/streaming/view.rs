//! The view's geometry: which full-detail chunks are wanted around a point, and
//! which are far enough to unload. Pure functions.

use terravox_voxel::ChunkPos;

/// Chunks above and below the player's chunk that are kept loaded.
pub(crate) const VERTICAL_RADIUS: i32 = 3;
/// Chunks further than the view distance plus this unload (hysteresis).
pub(crate) const UNLOAD_MARGIN: u32 = 2;

/// The chunks to load around `center`: within `view` chunks horizontally (a disc)
/// and [`VERTICAL_RADIUS`] vertically, nearest first (ties broken by position, so the
/// order is deterministic).
pub fn wanted_chunks(center: ChunkPos, view: u32) -> Vec<ChunkPos> {
    let r = view as i32;
    let mut v = Vec::new();
    for dz in -r..=r {
        for dx in -r..=r {
            for dy in -VERTICAL_RADIUS..=VERTICAL_RADIUS {
                let p = ChunkPos::new(center.x + dx, center.y + dy, center.z + dz);
                if in_view(center, p, view) {
                    v.push(p);
                }
            }
        }
    }
    v.sort_by_key(|p| (p.distance_squared(center), *p));
    v
}

/// Whether chunk `p` is in the view around `center`: within `view` chunks
/// horizontally (a disc) and [`VERTICAL_RADIUS`] vertically.
pub fn in_view(center: ChunkPos, p: ChunkPos, view: u32) -> bool {
    let (dx, dz) = ((p.x - center.x) as i64, (p.z - center.z) as i64);
    let r = view as i64;
    dx * dx + dz * dz <= r * r && (p.y - center.y).abs() <= VERTICAL_RADIUS
}

/// Whether a loaded chunk is far enough to unload: beyond view + margin horizontally,
/// or beyond the vertical range + margin.
pub fn should_unload(center: ChunkPos, pos: ChunkPos, view: u32) -> bool {
    let r = (view + UNLOAD_MARGIN) as i64;
    let (dx, dz) = ((pos.x - center.x) as i64, (pos.z - center.z) as i64);
    dx * dx + dz * dz > r * r || (pos.y - center.y).abs() > VERTICAL_RADIUS + UNLOAD_MARGIN as i32
}
