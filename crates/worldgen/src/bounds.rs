//! The world's bounds, at the bottom of the crate: how far columns and heights go,
//! where a player may be, and where surfaces may lie. Every module that clamps or
//! validates a position reads them here.

use terravox_voxel::{CHUNK, ChunkPos};

/// The world's horizontal bounds: block columns `x` and `z` lie in
/// `-WORLD_LIMIT..WORLD_LIMIT` (about a billion blocks each way). Maps and the
/// command line refuse positions beyond them; chunks beyond them are empty.
pub const WORLD_LIMIT: i32 = 1 << 30;
/// The world's vertical bounds: heights lie in `-HEIGHT_LIMIT..HEIGHT_LIMIT`; chunks
/// beyond them are empty.
pub const HEIGHT_LIMIT: i32 = 1 << 20;
/// Below this height a player is put back at the spawn; validation keeps every
/// surface at least [`PLAYABLE_MARGIN`] blocks above it, so every world can be played.
pub const WORLD_FLOOR: i32 = -1024;
/// How far inside [`PLAYABLE_HEIGHTS`] every surface and sea level must stay: above
/// [`WORLD_FLOOR`], and below [`HEIGHT_LIMIT`] with room for a spawn over the sea.
pub const PLAYABLE_MARGIN: i32 = 64;
/// The heights a player can be at: from [`WORLD_FLOOR`] (below it a player is put back
/// at the spawn) to below [`HEIGHT_LIMIT`] (above it there are no chunks). A start
/// position (`--at`) must be one of them.
pub const PLAYABLE_HEIGHTS: std::ops::Range<i32> = WORLD_FLOOR..HEIGHT_LIMIT;
/// The heights a world's surface and sea level may take: [`PLAYABLE_HEIGHTS`] less
/// [`PLAYABLE_MARGIN`] at each end, so the spawn (on the land, or flying a little above
/// the sea) is always a playable height. Validation refuses worlds that leave it.
pub const SURFACE_HEIGHTS: std::ops::RangeInclusive<i32> =
    PLAYABLE_HEIGHTS.start + PLAYABLE_MARGIN..=PLAYABLE_HEIGHTS.end - PLAYABLE_MARGIN;

/// Whether every block of the chunk at `pos` lies inside the world's bounds (chunks
/// outside are empty air).
pub fn chunk_in_world(pos: ChunkPos) -> bool {
    let (h, v) = ((WORLD_LIMIT / CHUNK) as i64, (HEIGHT_LIMIT / CHUNK) as i64);
    let inside = |c: i32, limit: i64| (-limit..limit).contains(&(c as i64));
    inside(pos.x, h) && inside(pos.z, h) && inside(pos.y, v)
}
