//! World seeds: text the user types, turned into a 64-bit number that never changes
//! between runs, machines or Rust versions.
//!
//! An integer string (after trimming spaces; `-5` and `18446744073709551615` both
//! count) is that integer, negative values taking their two's-complement bits. Any
//! other text is hashed with 64-bit FNV-1a over its UTF-8 bytes, exactly as written
//! (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`). The original text is
//! kept so it can be shown and shared.

use serde::{Deserialize, Serialize};
use terravox_voxel::Fnv64;

/// A world seed, kept as the text the user gave.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seed(String);

impl Seed {
    /// A seed from its text.
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The text as given.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The 64-bit seed value (see the module docs for the rule).
    pub fn value(&self) -> u64 {
        let t = self.0.trim();
        if let Ok(v) = t.parse::<u64>() {
            return v;
        }
        if let Ok(v) = t.parse::<i64>() {
            return v as u64;
        }
        let mut h = Fnv64::new();
        h.write(self.0.as_bytes());
        h.finish()
    }
}

impl From<&str> for Seed {
    fn from(text: &str) -> Self {
        Self::new(text)
    }
}

impl std::fmt::Display for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// SplitMix64: a tiny, fixed PRNG used to derive per-octave seeds and offsets from a
/// world seed. Its output sequence is part of the world format.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.0)
    }

    /// A uniform `f64` in `[lo, hi]`.
    pub fn range_f64(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / ((1u64 << 53) - 1) as f64;
        lo + (hi - lo) * unit
    }
}

/// The SplitMix64 finaliser: a fixed 64-bit mixing function, also used to hash
/// lattice cells (archipelago centres).
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_themselves() {
        assert_eq!(Seed::new("42").value(), 42);
        assert_eq!(Seed::new(" 7 ").value(), 7);
        assert_eq!(Seed::new("-1").value(), u64::MAX);
        assert_eq!(Seed::new("18446744073709551615").value(), u64::MAX);
    }

    #[test]
    fn text_is_hashed_with_fnv1a() {
        // FNV-1a 64 of "a" is a published test vector.
        assert_eq!(Seed::new("a").value(), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Seed::new("foobar").value(), 0x8594_4171_f739_67e8);
        assert_ne!(Seed::new("hello").value(), Seed::new("Hello").value());
        assert_eq!(Seed::new("terravox").text(), "terravox");
    }

    #[test]
    fn splitmix_is_fixed() {
        // Reference values of SplitMix64 seeded with 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        let v = SplitMix64::new(9).range_f64(-5.0, 5.0);
        assert!((-5.0..=5.0).contains(&v));
    }
}
