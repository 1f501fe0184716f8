//! Numbers given on the command line: `N` of them, comma-separated (`--center
//! 100,-250`, `--at 120,80,-40`, an export's area), each refused with what it should
//! have been.

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
