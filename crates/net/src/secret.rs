//! A server's password as netcode's key: both sides derive the same 32 bytes from
//! the password and the server's salt (Argon2id, slow on purpose, so a captured
//! packet cannot be tried against many passwords quickly), so a client that knows the
//! password makes its own connect token and no login service is needed. A client
//! proves it has the key before connecting ([`check_tag`]: a keyed BLAKE3 hash of
//! both sides' nonces), so a wrong password is told apart from a server that does
//! not answer.

use argon2::{Algorithm, Argon2, Params, Version};

/// netcode's key.
pub type Key = [u8; 32];

/// Derives the key of `password` with `salt`: Argon2id, 19 MiB, 2 passes (OWASP's
/// minimum for Argon2id).
pub fn derive(password: &str, salt: &[u8; 16]) -> Key {
    let params = Params::new(19 * 1024, 2, 1, Some(32)).expect("valid Argon2 parameters");
    let mut key = [0; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(password.as_bytes(), salt, &mut key)
        .expect("a 16-byte salt and a 32-byte key are within Argon2's bounds");
    key
}

/// The proof that a client has `key`, for the server's and the client's nonces.
pub fn check_tag(key: &Key, server: &[u8; 16], client: &[u8; 16]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_keyed(key);
    h.update(b"terravox password check");
    h.update(server);
    h.update(client);
    *h.finalize().as_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_password_and_salt_make_the_same_key_and_others_do_not() {
        let salt = [7; 16];
        let key = derive("open sesame", &salt);
        assert_eq!(key, derive("open sesame", &salt));
        assert_ne!(key, derive("open sesame!", &salt));
        assert_ne!(key, derive("open sesame", &[8; 16]));
        let tag = check_tag(&key, &[1; 16], &[2; 16]);
        assert_eq!(tag, check_tag(&key, &[1; 16], &[2; 16]));
        assert_ne!(tag, check_tag(&key, &[1; 16], &[3; 16]));
        assert_ne!(tag, check_tag(&derive("x", &salt), &[1; 16], &[2; 16]));
    }
}
