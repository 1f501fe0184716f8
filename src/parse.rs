//! Numbers given on the command line: `N` of them, comma-separated (`--center
//! 100,-250`, `--at 120,80,-40`, an export's area), each refused with what it should
//! have been, and the start position a player may be put at.

/// `N` comma-separated numbers, e.g. `100,-250`; `shape` names them for the error.
pub(crate) fn parse_numbers<T: std::str::FromStr, const N: usize>(
    s: &str,
    shape: &str,
) -> Result<[T; N], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != N {
        return Err(format!("`{s}` is not {shape}"));
    }
    let mut out = Vec::with_capacity(N);
    for v in parts {
        out.push(
            v.trim()
                .parse::<T>()
                .map_err(|_| format!("`{v}` in `{s}` is not a number of the right kind"))?,
        );
    }
    out.try_into().map_err(|_| format!("`{s}` is not {shape}"))
}

/// A start position `X,Y,Z`: inside the world's columns and at a height a player can
/// be at ([`terravox_worldgen::PLAYABLE_HEIGHTS`]: below its floor a player is put
/// back at the spawn).
pub(crate) fn parse_at(s: &str) -> Result<[f64; 3], String> {
    use terravox_worldgen::{PLAYABLE_HEIGHTS, WORLD_FLOOR, WORLD_LIMIT};
    let [x, y, z]: [f64; 3] = parse_numbers(s, "X,Y,Z (for example 120,80,-40)")?;
    let w = WORLD_LIMIT as f64;
    let (floor, top) = (PLAYABLE_HEIGHTS.start as f64, PLAYABLE_HEIGHTS.end as f64);
    let inside = |v: f64, low: f64, high: f64| v.is_finite() && low <= v && v < high;
    if !(inside(x, -w, w) && inside(z, -w, w)) {
        return Err(format!(
            "`{s}` is outside the world: X and Z within -{WORLD_LIMIT}..{WORLD_LIMIT}"
        ));
    }
    if !inside(y, floor, top) {
        return Err(format!(
            "`{s}` is outside the world's playable heights: Y within {}..{} (below \
             {WORLD_FLOOR} a player is put back at the spawn)",
            PLAYABLE_HEIGHTS.start, PLAYABLE_HEIGHTS.end
        ));
    }
    Ok([x, y, z])
}
