//! The bytes of a message: little-endian fixed-width numbers, LEB128 varints
//! (zigzag for signed ones), and lengths that are checked against a bound before
//! anything is allocated. Reading never panics: truncated, oversized or malformed
//! input is a [`DecodeError`].

use thiserror::Error;

/// Why bytes are not a message.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes end in the middle of a value.
    #[error("the message is cut short")]
    Truncated,
    /// A length is over its bound.
    #[error("{what} of {len} is over the {max} allowed")]
    TooLong {
        /// What was counted.
        what: &'static str,
        /// The length read.
        len: u64,
        /// The most allowed.
        max: u64,
    },
    /// A value that means nothing here.
    #[error("bad {0}")]
    Invalid(&'static str),
    /// Bytes left after the message.
    #[error("{0} stray bytes after the message")]
    Trailing(usize),
}

/// Bytes being written.
#[derive(Clone, Debug, Default)]
pub struct Writer(Vec<u8>);

impl Writer {
    /// An empty message.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    /// A 32-bit float, its bits.
    pub fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// A 64-bit number, 8 bytes.
    pub fn u64_fixed(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// Raw bytes, no length.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// An unsigned number, 1 to 10 bytes (LEB128).
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    /// A signed number, zigzag then LEB128: small magnitudes are short.
    pub fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// Bytes with their length.
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.varint(bytes.len() as u64);
        self.raw(bytes);
    }

    /// Text with its length in bytes.
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
}

/// Bytes being read.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// Reads `bytes` from the start.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    /// `n` raw bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(DecodeError::Truncated)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    /// A 32-bit float; `what` names it when it is not a finite number.
    pub fn f32(&mut self, what: &'static str) -> Result<f32, DecodeError> {
        let b = self.take(4)?;
        let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        v.is_finite().then_some(v).ok_or(DecodeError::Invalid(what))
    }

    /// A 64-bit number, 8 bytes.
    pub fn u64_fixed(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// An unsigned LEB128 number (at most 10 bytes, no overflow).
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.u8()?;
            let part = u64::from(b & 0x7f);
            if i == 9 && part > 1 {
                return Err(DecodeError::Invalid("varint"));
            }
            v |= part << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::Invalid("varint"))
    }

    /// A zigzag number.
    pub fn zigzag(&mut self) -> Result<i64, DecodeError> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// A zigzag number that must fit an `i32`.
    pub fn i32(&mut self, what: &'static str) -> Result<i32, DecodeError> {
        i32::try_from(self.zigzag()?).map_err(|_| DecodeError::Invalid(what))
    }

    /// A varint that must fit a `u32`.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        u32::try_from(self.varint()?).map_err(|_| DecodeError::Invalid(what))
    }

    /// A count of at most `max`, named `what`.
    pub fn len(&mut self, what: &'static str, max: usize) -> Result<usize, DecodeError> {
        let len = self.varint()?;
        if len > max as u64 {
            return Err(DecodeError::TooLong {
                what,
                len,
                max: max as u64,
            });
        }
        Ok(len as usize)
    }

    /// Bytes with their length, at most `max`.
    pub fn bytes(&mut self, what: &'static str, max: usize) -> Result<&'a [u8], DecodeError> {
        let n = self.len(what, max)?;
        self.take(n)
    }

    /// Text of at most `max` bytes, valid UTF-8.
    pub fn str(&mut self, what: &'static str, max: usize) -> Result<String, DecodeError> {
        let b = self.bytes(what, max)?;
        String::from_utf8(b.to_vec()).map_err(|_| DecodeError::Invalid(what))
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Ends the reading: nothing may be left.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.rest() {
            0 => Ok(()),
            n => Err(DecodeError::Trailing(n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_small_ones_are_short() {
        let mut w = Writer::new();
        let values = [0, 1, -1, 63, -64, 64, i64::MAX, i64::MIN, 1 << 40];
        for v in values {
            w.zigzag(v);
        }
        w.varint(u64::MAX);
        w.str("tvx");
        let bytes = w.into_bytes();
        let mut r = Reader::new(&bytes);
        for v in values {
            assert_eq!(r.zigzag().unwrap(), v);
        }
        assert_eq!(r.varint().unwrap(), u64::MAX);
        assert_eq!(r.str("text", 3).unwrap(), "tvx");
        r.finish().unwrap();
        let mut w = Writer::new();
        w.zigzag(-64);
        assert_eq!(w.into_bytes().len(), 1);
    }

    #[test]
    fn bad_bytes_are_errors() {
        assert_eq!(Reader::new(&[0x80]).varint(), Err(DecodeError::Truncated));
        assert_eq!(
            Reader::new(&[0xff; 11]).varint(),
            Err(DecodeError::Invalid("varint"))
        );
        assert!(matches!(
            Reader::new(&[200, 1]).str("name", 16),
            Err(DecodeError::TooLong { len: 200, .. })
        ));
        assert_eq!(
            Reader::new(&[2, 0xff, 0xfe]).str("name", 16),
            Err(DecodeError::Invalid("name"))
        );
        assert_eq!(
            Reader::new(&[0, 0, 0xc0, 0x7f]).f32("yaw"),
            Err(DecodeError::Invalid("yaw"))
        );
        assert_eq!(Reader::new(&[1]).finish(), Err(DecodeError::Trailing(1)));
    }
}
