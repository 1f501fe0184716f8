//! Who gets a connect token: the answer to a join's handshake. A player whose
//! password is right (wrong ones are counted per address), whose name is well formed
//! and its own (or free), who is banned by neither name, key nor address, who is on
//! the allowlist where it is on, is let in while there is room. The token's client
//! id is remembered with who asked, so the connection it opens is that player's.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use super::access::{Access, Barred};
use super::clients::valid_name;
use super::roster::{Roster, taken};
use crate::handshake::Request;
use crate::identity::PublicKey;
use crate::transport::Limits;

/// Wrong passwords an address may give a minute.
const WRONG_RATE: u32 = 10;
/// Tokens given and not yet used, at most (the oldest go first).
const MAX_ADMITTED: usize = 1024;
/// How long a token given may be used (netcode's token expires with it).
const ADMITTED_FOR: Duration = Duration::from_secs(30);

/// A player let in, until its connection opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Admitted {
    pub(crate) name: String,
    pub(crate) key: PublicKey,
    until: Instant,
}

/// The password and the wrong guesses.
pub(crate) struct Door {
    /// The password's hash (compared in constant time), if there is one.
    password: Option<blake3::Hash>,
    wrong: Limits,
    /// Tokens given, by client id.
    admitted: HashMap<u64, Admitted>,
}

/// What the server holds that a decision reads.
pub(crate) struct Room<'a> {
    pub(crate) access: &'a Access,
    pub(crate) roster: &'a Roster,
    pub(crate) playing: usize,
    pub(crate) max: usize,
}

impl Door {
    pub(crate) fn new(password: Option<&str>) -> Self {
        Self {
            password: password.map(|p| blake3::hash(p.as_bytes())),
            wrong: Limits::new(Duration::from_secs(60), WRONG_RATE),
            admitted: HashMap::new(),
        }
    }

    /// Whether a password is needed.
    pub(crate) fn wants_password(&self) -> bool {
        self.password.is_some()
    }

    /// Decides the request of `key` from `ip` (see the module docs).
    pub(crate) fn decide(
        &mut self,
        room: &Room,
        key: &PublicKey,
        request: &Request,
        ip: IpAddr,
        now: Instant,
    ) -> Result<(), String> {
        if let Some(hash) = self.password {
            if self.wrong.spent(ip, now) {
                return Err("too many wrong passwords from your address: wait a minute".to_owned());
            }
            let given = request
                .password
                .as_deref()
                .map(|p| blake3::hash(p.as_bytes()));
            if given != Some(hash) {
                self.wrong.allow(ip, now);
                return Err(if given.is_none() {
                    "this server wants a password (--password)".to_owned()
                } else {
                    "wrong password".to_owned()
                });
            }
        }
        let name = &request.name;
        if !valid_name(name) {
            return Err(format!(
                "the name {name:?} is not allowed: 1 to 16 letters, digits, _ or -"
            ));
        }
        match room.access.check(name, key, ip) {
            Err(Barred::Banned(why)) if why.is_empty() => {
                return Err("you are banned from this server".to_owned());
            }
            Err(Barred::Banned(why)) => {
                return Err(format!("you are banned from this server: {why}"));
            }
            Err(Barred::NotAllowed) => {
                return Err(
                    "this server lets in only the players on its allowlist (ask an operator \
                     to add you)"
                        .to_owned(),
                );
            }
            Ok(()) => {}
        }
        if !room.roster.may_take(name, key) {
            return Err(taken(name));
        }
        if room.playing >= room.max {
            return Err(format!(
                "the server is full ({} of {} players)",
                room.playing, room.max
            ));
        }
        Ok(())
    }

    /// Remembers that `client`'s token is `name`'s with `key`.
    pub(crate) fn admit(&mut self, client: u64, name: String, key: PublicKey, now: Instant) {
        self.admitted.retain(|_, a| a.until > now);
        if self.admitted.len() >= MAX_ADMITTED
            && let Some(oldest) = self
                .admitted
                .iter()
                .min_by_key(|(_, a)| a.until)
                .map(|(id, _)| *id)
        {
            self.admitted.remove(&oldest);
        }
        self.admitted.insert(
            client,
            Admitted {
                name,
                key,
                until: now + ADMITTED_FOR,
            },
        );
    }

    /// Who `client`'s connection is (its token was given to them).
    pub(crate) fn connected(&mut self, client: u64) -> Option<Admitted> {
        self.admitted.remove(&client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Identity;
    use crate::server::access::{Kind, Who};

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));

    fn request(name: &str, password: Option<&str>) -> Request {
        Request {
            name: name.into(),
            build: "terravox".into(),
            password: password.map(str::to_owned),
        }
    }

    fn folder(name: &str) -> std::path::PathBuf {
        crate::files::scratch(&format!("door-{name}"))
    }

    #[test]
    fn wrong_passwords_are_refused_and_counted_per_address() {
        let d = folder("password");
        let (access, _) = Access::open(&d);
        let roster = Roster::open(&d).unwrap();
        let room = Room {
            access: &access,
            roster: &roster,
            playing: 0,
            max: 8,
        };
        let mut door = Door::new(Some("open sesame"));
        let k = Identity::generate().public();
        let ok = request("ada", Some("open sesame"));
        assert_eq!(door.decide(&room, &k, &ok, HOME, Instant::now()), Ok(()));
        let e = door
            .decide(&room, &k, &request("ada", None), HOME, Instant::now())
            .unwrap_err();
        assert!(e.contains("wants a password"), "{e}");
        for _ in 0..9 {
            let e = door
                .decide(
                    &room,
                    &k,
                    &request("ada", Some("guess")),
                    HOME,
                    Instant::now(),
                )
                .unwrap_err();
            assert_eq!(e, "wrong password");
        }
        // Ten wrong a minute: then even the right one waits.
        let e = door
            .decide(&room, &k, &ok, HOME, Instant::now())
            .unwrap_err();
        assert!(e.contains("too many wrong passwords"), "{e}");
        let elsewhere = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 1));
        assert_eq!(
            door.decide(&room, &k, &ok, elsewhere, Instant::now()),
            Ok(())
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_ban_the_allowlist_a_taken_name_and_a_full_server_each_say_why() {
        let d = folder("rules");
        let (mut access, _) = Access::open(&d);
        let mut roster = Roster::open(&d).unwrap();
        let (ada, eve) = (Identity::generate().public(), Identity::generate().public());
        roster.claim("ada", ada).unwrap();
        access
            .add(Kind::Bans, Who::Name("mallory".into()), "griefing")
            .unwrap();
        let mut door = Door::new(None);
        let mut decide = |access: &Access, playing: usize, name: &str, key: &PublicKey| {
            let room = Room {
                access,
                roster: &roster,
                playing,
                max: 2,
            };
            door.decide(&room, key, &request(name, None), HOME, Instant::now())
        };
        assert_eq!(decide(&access, 0, "ada", &ada), Ok(()));
        assert!(
            decide(&access, 0, "ada", &eve)
                .unwrap_err()
                .contains("belongs to another")
        );
        assert_eq!(
            decide(&access, 0, "mallory", &eve).unwrap_err(),
            "you are banned from this server: griefing"
        );
        assert!(
            decide(&access, 0, "two words", &eve)
                .unwrap_err()
                .contains("not allowed")
        );
        assert!(
            decide(&access, 2, "ada", &ada)
                .unwrap_err()
                .contains("full (2 of 2")
        );
        access.set_allowlist(true).unwrap();
        assert!(
            decide(&access, 0, "eve", &eve)
                .unwrap_err()
                .contains("allowlist")
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_token_names_its_player_once() {
        let mut door = Door::new(None);
        let k = Identity::generate().public();
        door.admit(7, "ada".into(), k, Instant::now());
        assert_eq!(door.connected(7).map(|a| a.name), Some("ada".to_owned()));
        assert_eq!(door.connected(7), None);
        assert_eq!(door.connected(8), None);
    }
}
