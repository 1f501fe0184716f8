//! The bounds of a Minecraft world that the export's parts share: its heights, where
//! terravox's sea goes, its border.

/// The lowest block in a Minecraft world.
pub const MIN_Y: i32 = -64;
/// One above the highest block in a Minecraft world of the default height (a taller
/// export raises it, see the module docs).
pub const MAX_Y: i32 = 320;
/// One above the highest block any Minecraft dimension can have (`min_y + height` is
/// at most 2032).
pub const HIGHEST_TOP: i32 = 2032;
/// Where terravox's sea level (its top water block) goes by default: the water's
/// surface is then at 63, Minecraft's own sea level.
pub const SEA_TOP: i32 = 62;
/// The most columns a side an export takes: Minecraft's world border, 29,999,984
/// blocks each way from the origin.
pub const MAX_SIDE: u32 = 59_999_968;
