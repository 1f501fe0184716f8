//! Who may play: the server folder's operators (`ops.txt`), allowlist
//! (`allowlist.txt`, on or off) and bans (`bans.txt`), plain files a line an entry,
//! changed from the console or by operators in chat, and taken up again when edited
//! by hand. An entry names a player by name, by key (64 hex digits) or by address;
//! what follows it on the line is a note (a ban's reason).
//!
//! ```text
//! # bans.txt                          # allowlist.txt
//! eve griefed the spawn               allowlist: on
//! 3fa4…(64 hex digits) stole a name   ada
//! 203.0.113.7                         bo
//! ```
//!
//! A file that cannot be read is left as it is and its last good lists stay in force
//! (the console says why); nothing is written over it until it reads again.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use terravox_edits::file::write_atomic;

use super::clients::valid_name;
use crate::files::read_or_empty;
use crate::identity::PublicKey;

/// Whom an entry names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    /// A player's name (compared regardless of case).
    Name(String),
    /// A player's identity.
    Key(PublicKey),
    /// Every player from an address.
    Address(IpAddr),
}

impl Who {
    /// Reads one word: an address, a key, or a name.
    pub(crate) fn parse(word: &str) -> Option<Self> {
        if let Ok(ip) = word.parse::<IpAddr>() {
            return Some(Self::Address(ip));
        }
        if let Some(key) = PublicKey::from_hex(word) {
            return Some(Self::Key(key));
        }
        valid_name(word).then(|| Self::Name(word.to_owned()))
    }

    fn word(&self) -> String {
        match self {
            Self::Name(n) => n.clone(),
            Self::Key(k) => k.hex(),
            Self::Address(a) => a.to_string(),
        }
    }

    /// Whether it names the player `name` with `key` from `ip`.
    pub(crate) fn names(&self, name: &str, key: &PublicKey, ip: IpAddr) -> bool {
        match self {
            Self::Name(n) => n.eq_ignore_ascii_case(name),
            Self::Key(k) => k == key,
            Self::Address(a) => *a == ip,
        }
    }
}

/// One line of a list: whom, and the rest of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) who: Who,
    pub(crate) note: String,
}

/// A list file as read: its entries and, for the allowlist, the switch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct List {
    pub(crate) entries: Vec<Entry>,
    /// `allowlist: on` (the allowlist file alone has it).
    pub(crate) on: bool,
}

impl List {
    /// Reads a list's text; the first line that is none, with its number.
    pub(crate) fn parse(text: &str, switch: bool) -> Result<Self, (usize, String)> {
        let mut list = Self::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if switch && let Some(value) = line.strip_prefix("allowlist:") {
                list.on = match value.trim() {
                    "on" => true,
                    "off" => false,
                    other => return Err((i + 1, format!("allowlist: {other:?} is not on or off"))),
                };
                continue;
            }
            let (word, note) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let Some(who) = Who::parse(word) else {
                return Err((
                    i + 1,
                    format!("{word:?} is no name, key (64 hex digits) or address"),
                ));
            };
            list.entries.push(Entry {
                who,
                note: note.trim().to_owned(),
            });
        }
        Ok(list)
    }

    fn text(&self, header: &str, switch: bool) -> String {
        let mut out = String::from(header);
        if switch {
            out.push_str(if self.on {
                "allowlist: on\n"
            } else {
                "allowlist: off\n"
            });
        }
        for e in &self.entries {
            out.push_str(&e.who.word());
            if !e.note.is_empty() {
                out.push(' ');
                out.push_str(&e.note);
            }
            out.push('\n');
        }
        out
    }

    /// The first entry naming the player.
    pub(crate) fn find(&self, name: &str, key: &PublicKey, ip: IpAddr) -> Option<&Entry> {
        self.entries.iter().find(|e| e.who.names(name, key, ip))
    }

    /// Adds `who` unless it is there; whether it was added.
    fn add(&mut self, who: Who, note: &str) -> bool {
        if self.entries.iter().any(|e| e.who == who) {
            return false;
        }
        self.entries.push(Entry {
            who,
            note: note.to_owned(),
        });
        true
    }

    /// Removes the entries `matches` picks; how many.
    fn remove(&mut self, matches: impl Fn(&Who) -> bool) -> usize {
        let before = self.entries.len();
        self.entries.retain(|e| !matches(&e.who));
        before - self.entries.len()
    }
}

/// The three lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ops,
    Allowlist,
    Bans,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Ops, Kind::Allowlist, Kind::Bans];

    fn file(self) -> &'static str {
        match self {
            Kind::Ops => "ops.txt",
            Kind::Allowlist => "allowlist.txt",
            Kind::Bans => "bans.txt",
        }
    }

    fn header(self) -> &'static str {
        match self {
            Kind::Ops => {
                "# terravox operators: one a line (a name or a key of 64 hex digits); they may\n\
                 # use the console's commands in chat (/kick NAME, /ban NAME, ...)\n"
            }
            Kind::Allowlist => {
                "# terravox allowlist: with \"allowlist: on\" only the players below may join (a\n\
                 # name, a key of 64 hex digits or an address, one a line); \"allowlist: off\"\n\
                 # lets in anyone\n"
            }
            Kind::Bans => {
                "# terravox bans: one a line (a name, a key of 64 hex digits or an address),\n\
                 # then the reason the player is told\n"
            }
        }
    }

    fn switch(self) -> bool {
        self == Kind::Allowlist
    }
}

/// One list's file: its last good reading, and whether the file reads now.
#[derive(Debug)]
struct File {
    kind: Kind,
    path: PathBuf,
    list: List,
    modified: Option<SystemTime>,
    /// Why the file on disk does not read (then nothing is written over it).
    broken: Option<String>,
}

impl File {
    fn open(dir: &Path, kind: Kind) -> Self {
        let mut f = Self {
            kind,
            path: dir.join(kind.file()),
            list: List::default(),
            modified: None,
            broken: None,
        };
        f.read();
        f
    }

    fn modified(&self) -> Option<SystemTime> {
        std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok()
    }

    /// Reads the file again: a note for the console if it changed or broke.
    fn read(&mut self) -> Option<String> {
        self.modified = self.modified();
        let text = match read_or_empty(&self.path) {
            Ok(t) => t,
            Err(e) => {
                let why = format!("cannot read {}: {e}", self.path.display());
                self.broken = Some(why.clone());
                return Some(why);
            }
        };
        match List::parse(&text, self.kind.switch()) {
            Ok(list) => {
                self.broken = None;
                let changed = list != self.list;
                self.list = list;
                changed.then(|| format!("{} read", self.path.display()))
            }
            Err((line, why)) => {
                let why = format!(
                    "{} line {line}: {why} (the file is left as it is; its last good list \
                     stays in force until it reads)",
                    self.path.display()
                );
                self.broken = Some(why.clone());
                Some(why)
            }
        }
    }

    /// Changes the list with `change` and writes the file (not over a file that does
    /// not read).
    fn change<T>(&mut self, change: impl FnOnce(&mut List) -> T) -> Result<T, String> {
        if let Some(why) = &self.broken {
            return Err(format!("not changed: {why}"));
        }
        let mut list = self.list.clone();
        let out = change(&mut list);
        write_atomic(
            &self.path,
            list.text(self.kind.header(), self.kind.switch()).as_bytes(),
        )
        .map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        self.list = list;
        self.modified = self.modified();
        Ok(out)
    }
}

/// Why a player may not join.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Barred {
    Banned(String),
    NotAllowed,
}

/// The server folder's lists (see the module docs).
#[derive(Debug)]
pub(crate) struct Access {
    files: [File; 3],
}

impl Access {
    /// Reads the lists in `dir`; notes for the console about files that do not read.
    pub(crate) fn open(dir: &Path) -> (Self, Vec<String>) {
        let files = Kind::ALL.map(|k| File::open(dir, k));
        let notes = files.iter().filter_map(|f| f.broken.clone()).collect();
        (Self { files }, notes)
    }

    fn file(&self, kind: Kind) -> &File {
        &self.files[kind as usize]
    }

    fn file_mut(&mut self, kind: Kind) -> &mut File {
        &mut self.files[kind as usize]
    }

    /// Reads the files edited by hand since; notes for the console.
    pub(crate) fn reload(&mut self) -> Vec<String> {
        self.files
            .iter_mut()
            .filter(|f| f.modified() != f.modified)
            .filter_map(File::read)
            .collect()
    }

    /// Whether the player `name` with `key` from `ip` may join.
    pub(crate) fn check(&self, name: &str, key: &PublicKey, ip: IpAddr) -> Result<(), Barred> {
        if let Some(ban) = self.file(Kind::Bans).list.find(name, key, ip) {
            return Err(Barred::Banned(ban.note.clone()));
        }
        let allow = &self.file(Kind::Allowlist).list;
        if allow.on && allow.find(name, key, ip).is_none() && !self.is_op(name, key) {
            return Err(Barred::NotAllowed);
        }
        Ok(())
    }

    /// Whether the player is an operator (by name or key; an address makes nobody
    /// one).
    pub(crate) fn is_op(&self, name: &str, key: &PublicKey) -> bool {
        self.file(Kind::Ops).list.entries.iter().any(|e| {
            !matches!(e.who, Who::Address(_)) && e.who.names(name, key, IpAddr::from([0; 4]))
        })
    }

    /// Whether the allowlist is on.
    pub(crate) fn allowlist_on(&self) -> bool {
        self.file(Kind::Allowlist).list.on
    }

    /// Adds `who` to a list, with `note`; whether it was new.
    pub(crate) fn add(&mut self, kind: Kind, who: Who, note: &str) -> Result<bool, String> {
        self.file_mut(kind).change(|l| l.add(who, note))
    }

    /// Removes from a list the entries `matches` picks; how many.
    pub(crate) fn remove(
        &mut self,
        kind: Kind,
        matches: impl Fn(&Who) -> bool,
    ) -> Result<usize, String> {
        self.file_mut(kind).change(|l| l.remove(matches))
    }

    /// Turns the allowlist on or off.
    pub(crate) fn set_allowlist(&mut self, on: bool) -> Result<(), String> {
        self.file_mut(Kind::Allowlist).change(|l| l.on = on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Identity;

    fn dir(name: &str) -> std::path::PathBuf {
        crate::files::scratch(&format!("access-{name}"))
    }

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));
    const AWAY: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 7));

    #[test]
    fn a_line_names_a_player_by_name_key_or_address_and_keeps_its_note() {
        let k = Identity::generate().public();
        let text = format!(
            "# comment\n\neve griefed the spawn\n{} stole a name\n203.0.113.7\n::1 loopback\n",
            k.hex()
        );
        let list = List::parse(&text, false).unwrap();
        assert_eq!(list.entries.len(), 4);
        assert_eq!(list.entries[0].who, Who::Name("eve".into()));
        assert_eq!(list.entries[0].note, "griefed the spawn");
        assert_eq!(list.entries[1].who, Who::Key(k));
        assert_eq!(list.entries[2].who, Who::Address(AWAY));
        assert!(list.entries[0].who.names("EVE", &k, HOME));
        let (line, why) = List::parse("ada\nno/such name\n", false).unwrap_err();
        assert_eq!(line, 2, "{why}");
        assert!(List::parse("allowlist: on\n", false).is_err());
        assert!(List::parse("allowlist: on\n", true).unwrap().on);
        assert!(List::parse("allowlist: maybe\n", true).is_err());
    }

    #[test]
    fn bans_and_the_allowlist_bar_players_and_operators_pass_the_allowlist() {
        let d = dir("check");
        let (mut access, notes) = Access::open(&d);
        assert!(notes.is_empty());
        let (ada, eve) = (Identity::generate().public(), Identity::generate().public());
        assert_eq!(access.check("ada", &ada, HOME), Ok(()));
        access.add(Kind::Bans, Who::Key(eve), "griefing").unwrap();
        assert_eq!(
            access.check("eve2", &eve, HOME),
            Err(Barred::Banned("griefing".into()))
        );
        access.add(Kind::Bans, Who::Address(AWAY), "").unwrap();
        assert!(access.check("ada", &ada, AWAY).is_err());
        access.set_allowlist(true).unwrap();
        assert_eq!(access.check("ada", &ada, HOME), Err(Barred::NotAllowed));
        access.add(Kind::Ops, Who::Name("Ada".into()), "").unwrap();
        assert!(access.is_op("ada", &eve));
        assert_eq!(access.check("ada", &ada, HOME), Ok(()));
        access
            .remove(Kind::Ops, |w| *w == Who::Name("Ada".into()))
            .unwrap();
        access
            .add(Kind::Allowlist, Who::Name("ada".into()), "")
            .unwrap();
        assert_eq!(access.check("ada", &ada, HOME), Ok(()));
        // Written and read back whole.
        let (again, _) = Access::open(&d);
        assert!(again.allowlist_on());
        assert_eq!(again.check("ada", &ada, HOME), Ok(()));
        assert!(again.check("eve2", &eve, HOME).is_err());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_file_edited_by_hand_is_taken_up_and_a_broken_one_is_never_written_over() {
        let d = dir("reload");
        let (mut access, _) = Access::open(&d);
        let k = Identity::generate().public();
        std::fs::write(d.join("bans.txt"), "eve\n").unwrap();
        // A modification time that differs whatever the file system's resolution.
        let f = std::fs::File::options()
            .write(true)
            .open(d.join("bans.txt"))
            .unwrap();
        f.set_modified(SystemTime::now() + std::time::Duration::from_secs(5))
            .unwrap();
        assert_eq!(access.reload().len(), 1);
        assert!(access.check("eve", &k, HOME).is_err());
        std::fs::write(d.join("bans.txt"), "eve\nbad/line\n").unwrap();
        f.set_modified(SystemTime::now() + std::time::Duration::from_secs(10))
            .unwrap();
        let notes = access.reload();
        assert!(notes[0].contains("line 2"), "{notes:?}");
        // The last good list holds, and no change is written over the broken file.
        assert!(access.check("eve", &k, HOME).is_err());
        assert!(access.add(Kind::Bans, Who::Name("bo".into()), "").is_err());
        assert_eq!(
            std::fs::read_to_string(d.join("bans.txt")).unwrap(),
            "eve\nbad/line\n"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
