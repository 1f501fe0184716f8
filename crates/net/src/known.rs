//! The servers a player has joined and the identity each proved (trust on first use,
//! as SSH's `known_hosts`): `known_servers.txt` in the player's profile folder, a
//! server a line (`ADDRESS KEY`). A server whose identity changed is refused until
//! the player accepts its new one.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use terravox_edits::file::write_atomic;

use crate::files::read_or_empty;
use crate::identity::PublicKey;

/// What the file says of a server's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pin {
    /// Never joined: its identity is taken on trust and pinned.
    New,
    /// The identity pinned.
    Same,
    /// Another identity than the one pinned.
    Changed(PublicKey),
}

/// The known servers file (see the module docs).
#[derive(Debug)]
pub struct KnownServers {
    path: PathBuf,
    servers: BTreeMap<SocketAddr, PublicKey>,
}

impl KnownServers {
    /// Reads the file at `path` (none yet: no server known). A line that is not an
    /// address and a key is an error naming it, and the file is never rewritten.
    pub fn open(path: &Path) -> Result<Self, String> {
        let text =
            read_or_empty(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut servers = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parsed = line
                .split_once(' ')
                .and_then(|(a, k)| Some((a.parse::<SocketAddr>().ok()?, PublicKey::from_hex(k)?)));
            let Some((addr, key)) = parsed else {
                return Err(format!(
                    "{} line {}: {line:?} is not `ADDRESS KEY` (fix or remove the line)",
                    path.display(),
                    i + 1
                ));
            };
            servers.insert(addr, key);
        }
        Ok(Self {
            path: path.to_owned(),
            servers,
        })
    }

    /// What is known of the server at `addr` that says it is `key`.
    pub fn check(&self, addr: SocketAddr, key: PublicKey) -> Pin {
        match self.servers.get(&addr) {
            None => Pin::New,
            Some(k) if *k == key => Pin::Same,
            Some(k) => Pin::Changed(*k),
        }
    }

    /// Pins `key` for `addr` (replacing another) and writes the file.
    pub fn pin(&mut self, addr: SocketAddr, key: PublicKey) -> Result<(), String> {
        self.servers.insert(addr, key);
        let mut text = String::from(
            "# terravox: the servers joined and the identity each proved (ADDRESS KEY)\n",
        );
        for (a, k) in &self.servers {
            text.push_str(&format!("{a} {k}\n"));
        }
        write_atomic(&self.path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Identity;

    #[test]
    fn a_server_is_pinned_on_first_use_and_a_changed_one_told_apart() {
        let dir = crate::files::scratch("known");
        let path = dir.join("known_servers.txt");
        let addr: SocketAddr = "127.0.0.1:27050".parse().unwrap();
        let (a, b) = (Identity::generate().public(), Identity::generate().public());
        let mut known = KnownServers::open(&path).unwrap();
        assert_eq!(known.check(addr, a), Pin::New);
        known.pin(addr, a).unwrap();
        let known = KnownServers::open(&path).unwrap();
        assert_eq!(known.check(addr, a), Pin::Same);
        assert_eq!(known.check(addr, b), Pin::Changed(a));
        assert_eq!(known.check("127.0.0.1:1".parse().unwrap(), b), Pin::New);
        std::fs::write(&path, "127.0.0.1:27050 nokey\n").unwrap();
        let e = KnownServers::open(&path).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
