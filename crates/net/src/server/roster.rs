//! The players a server has known (`players.txt` in its save folder): each name
//! bound to the key that first took it, so no one else can take it, and where that
//! player last stood in which world, with its bucket. A line a player:
//!
//! ```text
//! NAME KEY (64 hex digits) WORLD (16 hex digits) X Y Z YAW PITCH BUCKET (full or empty)
//! ada  3fa4…               9c1e…                 12.5 71 -3.25 1.57 -0.1 empty
//! ```
//!
//! The server writes a binding the moment it is made; where players stand, when
//! they leave, every half minute and when it stops. A file that does not read stops the server
//! from starting (it is never written over: names would change hands).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use terravox_edits::file::write_atomic;

use super::clients::valid_name;
use crate::files::read_or_empty;
use crate::identity::PublicKey;
use crate::protocol::Pose;

/// Where a player last stood, in which world, and its bucket.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Seen {
    pub(crate) world: u64,
    pub(crate) pose: Pose,
    pub(crate) bucket_full: bool,
}

/// A player the server knows.
#[derive(Clone, Debug, PartialEq)]
struct Known {
    /// The name as first taken (its case kept).
    name: String,
    key: PublicKey,
    seen: Option<Seen>,
}

/// The players (see the module docs), by name in lower case.
#[derive(Debug)]
pub(crate) struct Roster {
    path: PathBuf,
    players: BTreeMap<String, Known>,
    dirty: bool,
}

const HEADER: &str = "# terravox players: NAME KEY, then where each last stood (WORLD X Y Z YAW PITCH) and its bucket\n";

impl Roster {
    /// Reads `players.txt` in `dir` (none: nobody known yet).
    pub(crate) fn open(dir: &Path) -> Result<Self, String> {
        let path = dir.join("players.txt");
        let text =
            read_or_empty(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut players = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let known = parse_line(line).ok_or_else(|| {
                format!(
                    "{} line {}: {line:?} is not NAME KEY [WORLD X Y Z YAW PITCH BUCKET]: the \
                     server does not start, so that no name changes hands (fix the line)",
                    path.display(),
                    i + 1
                )
            })?;
            players.insert(known.name.to_ascii_lowercase(), known);
        }
        Ok(Self {
            path,
            players,
            dirty: false,
        })
    }

    /// The key `name` is bound to.
    pub(crate) fn owner(&self, name: &str) -> Option<PublicKey> {
        self.players.get(&name.to_ascii_lowercase()).map(|k| k.key)
    }

    /// Whether `key` may play as `name`: the name is free or already its own.
    pub(crate) fn may_take(&self, name: &str, key: &PublicKey) -> bool {
        self.owner(name).is_none_or(|k| k == *key)
    }

    /// Binds `name` to `key` if it is free (kept at the next [`Roster::save`], which
    /// the server makes at once); refused if another key holds it.
    pub(crate) fn claim(&mut self, name: &str, key: PublicKey) -> Result<(), String> {
        let lower = name.to_ascii_lowercase();
        match self.players.get(&lower) {
            Some(k) if k.key == key => Ok(()),
            Some(_) => Err(taken(name)),
            None => {
                self.players.insert(
                    lower,
                    Known {
                        name: name.to_owned(),
                        key,
                        seen: None,
                    },
                );
                self.dirty = true;
                Ok(())
            }
        }
    }

    /// Where `name` last stood in `world`.
    pub(crate) fn seen(&self, name: &str, world: u64) -> Option<Seen> {
        self.players
            .get(&name.to_ascii_lowercase())?
            .seen
            .filter(|s| s.world == world)
    }

    /// Notes where `name` stands (kept at the next save).
    pub(crate) fn note(&mut self, name: &str, seen: Seen) {
        if let Some(k) = self.players.get_mut(&name.to_ascii_lowercase())
            && k.seen != Some(seen)
        {
            k.seen = Some(seen);
            self.dirty = true;
        }
    }

    /// Writes the file if anything changed.
    pub(crate) fn save(&mut self) -> Result<(), String> {
        if !self.dirty {
            return Ok(());
        }
        let mut text = String::from(HEADER);
        for k in self.players.values() {
            text.push_str(&format!("{} {}", k.name, k.key));
            if let Some(s) = &k.seen {
                let [x, y, z] = s.pose.feet;
                text.push_str(&format!(
                    " {:016x} {x} {y} {z} {} {} {}",
                    s.world,
                    s.pose.yaw,
                    s.pose.pitch,
                    if s.bucket_full { "full" } else { "empty" }
                ));
            }
            text.push('\n');
        }
        write_atomic(&self.path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        self.dirty = false;
        Ok(())
    }
}

/// The refusal of a name bound to another key.
pub(crate) fn taken(name: &str) -> String {
    format!("the name {name} belongs to another player on this server: choose another name")
}

fn parse_line(line: &str) -> Option<Known> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let (name, key) = (*w.first()?, PublicKey::from_hex(w.get(1)?)?);
    if !valid_name(name) {
        return None;
    }
    let seen = match w.len() {
        2 => None,
        9 => {
            let n = |i: usize| w[i].parse::<f64>().ok().filter(|v| v.is_finite());
            Some(Seen {
                world: u64::from_str_radix(w[2], 16).ok()?,
                pose: Pose {
                    feet: [n(3)?, n(4)?, n(5)?],
                    yaw: n(6)? as f32,
                    pitch: n(7)? as f32,
                },
                bucket_full: match w[8] {
                    "full" => true,
                    "empty" => false,
                    _ => return None,
                },
            })
        }
        _ => return None,
    };
    Some(Known {
        name: name.to_owned(),
        key,
        seen,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Identity;

    fn dir(name: &str) -> std::path::PathBuf {
        crate::files::scratch(&format!("roster-{name}"))
    }

    #[test]
    fn a_name_belongs_to_the_key_that_took_it_first_whatever_its_case() {
        let d = dir("claim");
        let (ada, eve) = (Identity::generate().public(), Identity::generate().public());
        let mut r = Roster::open(&d).unwrap();
        assert!(r.may_take("ada", &eve));
        r.claim("Ada", ada).unwrap();
        assert!(r.claim("ada", ada).is_ok());
        assert!(!r.may_take("ADA", &eve));
        assert!(
            r.claim("aDa", eve)
                .unwrap_err()
                .contains("belongs to another")
        );
        r.save().unwrap();
        let r = Roster::open(&d).unwrap();
        assert_eq!(r.owner("ada"), Some(ada));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn where_a_player_stood_and_its_bucket_are_kept_for_its_world() {
        let d = dir("seen");
        let ada = Identity::generate().public();
        let mut r = Roster::open(&d).unwrap();
        r.claim("ada", ada).unwrap();
        let seen = Seen {
            world: 0xabc,
            pose: Pose {
                feet: [12.5, 71.0, -3.25],
                yaw: 1.5,
                pitch: -0.25,
            },
            bucket_full: true,
        };
        r.note("ada", seen);
        r.save().unwrap();
        let r = Roster::open(&d).unwrap();
        assert_eq!(r.seen("ada", 0xabc), Some(seen));
        assert_eq!(r.seen("ada", 0xabd), None);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_broken_file_stops_the_server_and_stays_as_it_is() {
        let d = dir("broken");
        std::fs::write(d.join("players.txt"), "ada notakey\n").unwrap();
        let e = Roster::open(&d).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        assert_eq!(
            std::fs::read_to_string(d.join("players.txt")).unwrap(),
            "ada notakey\n"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
