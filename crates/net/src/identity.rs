//! Lasting identities: a key pair (X25519, Noise's) made once and kept in a file of
//! its owner's alone. A server's is in its save folder (`server-identity.key`): the
//! clients that joined it once pin its public half and refuse a server that cannot
//! prove it holds the private one. A player's is in its profile folder
//! (`identity.key`): a server binds each name to the key that first took it.
//!
//! Whoever has the file is that server or that player: it never leaves its machine
//! (the handshake proves it holds the key without sending it).

use std::fmt;
use std::path::{Path, PathBuf};

use terravox_edits::file::write_private;

/// Noise's pattern and primitives: the keys are its (X25519), and the join's
/// handshake is this pattern.
pub(crate) const NOISE: &str = "Noise_IK_25519_ChaChaPoly_BLAKE2s";

/// The public half of an identity: what a client pins and a server binds names to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PublicKey(pub [u8; 32]);

impl PublicKey {
    /// The key as 64 hex digits, as the files write it.
    pub fn hex(&self) -> String {
        hex(&self.0)
    }

    /// Reads 64 hex digits.
    pub fn from_hex(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut out = [0; 32];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Self(out))
    }

    /// Its first 16 hex digits: enough to tell keys apart by eye.
    pub fn short(&self) -> String {
        hex(&self.0[..8])
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.short())
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

/// Bytes as lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A key pair.
#[derive(Clone)]
pub struct Identity {
    private: [u8; 32],
    public: PublicKey,
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({})", self.public.short())
    }
}

/// Why an identity could not be had.
#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    /// The file is there but is no identity: left as it is.
    #[error(
        "{0} is not a terravox identity (it is left as it is: move it away to make a new one, \
         which makes you someone else to every server)"
    )]
    Unreadable(PathBuf),
    /// The file could not be read or written.
    #[error("cannot use the identity file {0}: {1}")]
    Io(PathBuf, std::io::Error),
}

const HEADER: &str = "# terravox identity: keep this file to yourself; whoever has it is you";

impl Identity {
    /// A new random identity.
    pub fn generate() -> Self {
        let pair = snow::Builder::new(NOISE.parse().expect("valid Noise parameters"))
            .generate_keypair()
            .expect("the operating system's random numbers");
        let mut private = [0; 32];
        private.copy_from_slice(&pair.private);
        let mut public = [0; 32];
        public.copy_from_slice(&pair.public);
        Self {
            private,
            public: PublicKey(public),
        }
    }

    /// The identity kept at `path`, made and written there (its owner's alone) if
    /// there is none. A file that is there but cannot be read is never replaced.
    pub fn load_or_create(path: &Path) -> Result<Self, IdentityError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text).ok_or_else(|| IdentityError::Unreadable(path.into())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let identity = Self::generate();
                write_private(path, identity.to_text().as_bytes())
                    .map_err(|e| IdentityError::Io(path.into(), e))?;
                Ok(identity)
            }
            Err(e) => Err(IdentityError::Io(path.into(), e)),
        }
    }

    /// Its public half.
    pub fn public(&self) -> PublicKey {
        self.public
    }

    pub(crate) fn private(&self) -> &[u8; 32] {
        &self.private
    }

    fn to_text(&self) -> String {
        format!(
            "{HEADER}\nprivate {}\npublic {}\n",
            hex(&self.private),
            self.public.hex()
        )
    }

    fn parse(text: &str) -> Option<Self> {
        let mut private = None;
        let mut public = None;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.split_once(' ')? {
                ("private", k) => private = Some(PublicKey::from_hex(k)?.0),
                ("public", k) => public = Some(PublicKey::from_hex(k)?),
                _ => return None,
            }
        }
        Some(Self {
            private: private?,
            public: public?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_is_made_once_and_read_back() {
        let dir = crate::files::scratch("identity");
        let path = dir.join("identity.key");
        let made = Identity::load_or_create(&path).unwrap();
        let read = Identity::load_or_create(&path).unwrap();
        assert_eq!(made.public(), read.public());
        assert_eq!(made.private(), read.private());
        assert_ne!(made.public(), Identity::generate().public());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        std::fs::write(&path, "private zz\n").unwrap();
        assert!(matches!(
            Identity::load_or_create(&path),
            Err(IdentityError::Unreadable(_))
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "private zz\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn keys_read_back_from_hex_and_nothing_else_does() {
        let k = Identity::generate().public();
        assert_eq!(PublicKey::from_hex(&k.hex()), Some(k));
        assert_eq!(PublicKey::from_hex(&k.hex()[1..]), None);
        assert_eq!(PublicKey::from_hex(&"g".repeat(64)), None);
        assert_eq!(k.short().len(), 16);
    }
}
