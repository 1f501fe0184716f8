//! Running a server: the commands of its console and of its operators in chat (who
//! plays, a line to everyone, kick, ban and pardon, operators, the allowlist). What
//! they change is written to the save folder's files at once ([`super::access`]).

use super::Server;
use super::access::{Kind, Who};
use super::console::Command;
use crate::protocol::{Channel, ToClient};

impl Server {
    /// A console command; the answer to print.
    pub fn command(&mut self, command: Command) -> String {
        self.run_command(command)
            .unwrap_or_else(|why| format!("not done: {why}"))
    }

    /// A command an operator typed in chat (its slash taken off): answered to that
    /// player alone.
    pub(super) fn chat_command(&mut self, client: u64, line: &str) {
        let Some((name, key)) = self
            .clients
            .get(&client)
            .and_then(|c| Some((c.name()?.to_owned(), c.key)))
        else {
            return;
        };
        let answer = match Command::parse(line) {
            Err(why) => why,
            Ok(_) if !self.access.is_op(&name, &key) => {
                "only this server's operators may give commands".to_owned()
            }
            Ok(Command::Stop) => "stop is the console's alone".to_owned(),
            Ok(command) => {
                self.notes.push(format!("{name} (an operator): /{line}"));
                self.command(command)
            }
        };
        self.renet
            .send_message(client, Channel::World, ToClient::Say(answer).encode());
    }

    fn run_command(&mut self, command: Command) -> Result<String, String> {
        Ok(match command {
            Command::List => self.list(),
            Command::Kick(name, reason) => {
                let why = if reason.is_empty() {
                    "kicked by an operator".to_owned()
                } else {
                    format!("kicked by an operator: {reason}")
                };
                match self.kick(&Who::Name(name.clone()), &why).as_slice() {
                    [] => format!("nobody called {name} is playing"),
                    _ => format!("kicked {name}"),
                }
            }
            Command::Say(text) => {
                self.broadcast(&ToClient::Say(format!("[server] {text}")));
                format!("[server] {text}")
            }
            Command::Stop => "stopping".to_owned(),
            Command::Ban(word, reason) => self.ban(&word, &reason)?,
            Command::Pardon(word) => {
                let whom = self.with_key(parse(&word)?);
                let n = self.access.remove(Kind::Bans, |w| whom.contains(w))?;
                format!("{n} bans of {word} lifted")
            }
            Command::Op(word) => {
                let who = person(&word)?;
                self.access.add(Kind::Ops, who, "")?;
                format!("{word} is an operator")
            }
            Command::Deop(word) => {
                let who = person(&word)?;
                let n = self.access.remove(Kind::Ops, |w| *w == who)?;
                format!("{word}: {n} operator entries removed")
            }
            Command::Allow(word) => {
                self.access.add(Kind::Allowlist, parse(&word)?, "")?;
                format!("{word} is on the allowlist")
            }
            Command::Disallow(word) => {
                let who = parse(&word)?;
                let n = self.access.remove(Kind::Allowlist, |w| *w == who)?;
                format!("{word}: {n} allowlist entries removed")
            }
            Command::Allowlist(on) => {
                self.access.set_allowlist(on)?;
                if on {
                    "the allowlist is on: only the players on it (and operators) may join"
                        .to_owned()
                } else {
                    "the allowlist is off: anyone may join".to_owned()
                }
            }
        })
    }

    /// Who plays: names, addresses, keys, operators.
    fn list(&self) -> String {
        let names: Vec<String> = self
            .clients
            .iter()
            .filter_map(|(id, c)| {
                let name = c.name()?;
                let addr = self
                    .transport
                    .client_addr(*id)
                    .map_or_else(String::new, |a| format!(" {a}"));
                let op = if self.access.is_op(name, &c.key) {
                    ", operator"
                } else {
                    ""
                };
                Some(format!("{name} ({}{addr}{op})", c.key.short()))
            })
            .collect();
        let allowlist = if self.access.allowlist_on() {
            " (the allowlist is on)"
        } else {
            ""
        };
        format!(
            "{} of {} players{allowlist}: {}",
            names.len(),
            self.options.max_players,
            names.join(", ")
        )
    }

    /// `who`, and where it is a name, the key that name is bound to.
    fn with_key(&self, who: Who) -> Vec<Who> {
        let key = match &who {
            Who::Name(n) => self.roster.owner(n).map(Who::Key),
            _ => None,
        };
        std::iter::once(who).chain(key).collect()
    }

    /// Bans a name (and its key), a key or an address, and drops whoever it names.
    fn ban(&mut self, word: &str, reason: &str) -> Result<String, String> {
        let whom = self.with_key(parse(word)?);
        for who in &whom {
            self.access.add(Kind::Bans, who.clone(), reason)?;
        }
        let why = if reason.is_empty() {
            "banned from this server".to_owned()
        } else {
            format!("banned from this server: {reason}")
        };
        let mut dropped = Vec::new();
        for who in &whom {
            dropped.extend(self.kick(who, &why));
        }
        let key = match whom.get(1) {
            Some(Who::Key(k)) => format!(" and its key {}", k.short()),
            _ => String::new(),
        };
        Ok(format!(
            "banned {word}{key}{}",
            if dropped.is_empty() {
                String::new()
            } else {
                format!("; dropped {}", dropped.join(", "))
            }
        ))
    }

    /// Drops every client `who` names, telling it `why`; their names.
    fn kick(&mut self, who: &Who, why: &str) -> Vec<String> {
        let named: Vec<(u64, String)> = self
            .clients
            .iter()
            .filter_map(|(id, c)| {
                let ip = self.transport.client_addr(*id)?.ip();
                let name = c.name().unwrap_or(&c.asked_name);
                who.names(name, &c.key, ip).then(|| (*id, name.to_owned()))
            })
            .collect();
        for (id, _) in &named {
            self.drop_client(*id, why.to_owned());
        }
        named.into_iter().map(|(_, n)| n).collect()
    }
}

/// A name, key or address, or why the word is none.
fn parse(word: &str) -> Result<Who, String> {
    Who::parse(word).ok_or_else(|| format!("{word:?} is no name, key (64 hex digits) or address"))
}

/// A name or key (an operator is a player, not an address).
fn person(word: &str) -> Result<Who, String> {
    match parse(word)? {
        Who::Address(_) => Err("an operator is a player (a name or a key), not an address".into()),
        who => Ok(who),
    }
}
