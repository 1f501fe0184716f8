//! The world seed: text the user types, turned into a 64-bit number that never changes
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
}
