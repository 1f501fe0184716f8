//! Joining and leaving: the join's handshakes answered (a connect token for a player
//! let in, else why not), the connections the tokens open, hello and the welcome
//! (where the player last stood, its bucket), and players leaving, dropped or
//! kicked (where they stood kept).

use renet::ServerEvent;
use terravox_authority::PlayerId;
use terravox_authority::moves::Motion;

use super::admission::Room;
use super::clients::Client;
use super::interest;
use super::roster::Seen;
use super::{HELLO_WAIT, STALE, Server};
use crate::handshake::{self, Verdict};
use crate::protocol::{Channel, ToClient, Welcome};

impl Server {
    /// The handshakes that arrived, each answered.
    pub(super) fn knocks(&mut self) {
        for knock in self.transport.take_knocks() {
            let Some(asked) = handshake::read_request(&self.identity, &knock.message) else {
                continue;
            };
            let room = Room {
                access: &self.access,
                roster: &self.roster,
                playing: self.playing(),
                max: self.options.max_players,
            };
            let decided = self.door.decide(
                &room,
                &asked.player,
                &asked.request,
                knock.from.ip(),
                self.now,
            );
            let verdict = match decided {
                Ok(()) => {
                    let client = u64::from_le_bytes(renetcode::generate_random_bytes::<8>());
                    match self.transport.mint(client) {
                        Some(token) => {
                            self.door.admit(
                                client,
                                asked.request.name.clone(),
                                asked.player,
                                self.now,
                            );
                            Verdict::Admitted(Box::new(token))
                        }
                        None => Verdict::Refused("the server cannot make a token".to_owned()),
                    }
                }
                Err(why) => {
                    self.notes.push(format!(
                        "refused {:?} from {} ({}): {why}",
                        asked.request.name,
                        knock.from,
                        asked.player.short()
                    ));
                    Verdict::Refused(why)
                }
            };
            if let Some(answer) = asked.answer(&verdict) {
                self.transport.answer(knock.from, &answer);
            }
        }
    }

    /// Connections made and ended; those that said no hello in time freed.
    pub(super) fn connections(&mut self) {
        while let Some(event) = self.renet.get_event() {
            match event {
                ServerEvent::ClientConnected { client_id } => {
                    match self.door.connected(client_id) {
                        Some(who) => {
                            self.clients
                                .insert(client_id, Client::new(who.name, who.key, self.now));
                        }
                        // Only this server makes tokens, and it remembers each: a
                        // connection it cannot name is let go.
                        None => self.renet.disconnect(client_id),
                    }
                }
                ServerEvent::ClientDisconnected { client_id, reason } => {
                    let why = match reason {
                        renet::DisconnectReason::Transport => "left or lost".to_owned(),
                        other => other.to_string(),
                    };
                    self.left(client_id, &why);
                }
            }
        }
        let now = self.now;
        let late: Vec<u64> = self
            .clients
            .iter()
            .filter(|(_, c)| {
                c.player.is_none()
                    && c.leaving.is_none()
                    && now.duration_since(c.connected) > HELLO_WAIT
            })
            .map(|(id, _)| *id)
            .collect();
        for id in late {
            self.drop_client(id, "no hello in time".to_owned());
        }
    }

    /// Where a playing client stands and its bucket, as the roster keeps it.
    pub(super) fn seen(&self, c: &Client) -> Option<Seen> {
        let (id, _) = c.player.as_ref()?;
        Some(Seen {
            world: self.world_key,
            pose: c.pose?.0,
            bucket_full: self.authority.players().bucket_full(*id),
        })
    }

    /// Notes in the roster where every player stands, and writes it.
    pub(super) fn keep_players(&mut self) {
        let seen: Vec<(String, Seen)> = self
            .clients
            .values()
            .filter_map(|c| Some((c.name()?.to_owned(), self.seen(c)?)))
            .collect();
        for (name, s) in seen {
            self.roster.note(&name, s);
        }
        if let Err(e) = self.roster.save() {
            self.notes.push(e);
        }
    }

    /// A client is gone: its player leaves the world (where it stood kept).
    pub(super) fn left(&mut self, client: u64, why: &str) {
        let Some(c) = self.clients.get(&client) else {
            return;
        };
        if let (Some(name), Some(seen)) = (c.name(), self.seen(c)) {
            let name = name.to_owned();
            self.roster.note(&name, seen);
            if let Err(e) = self.roster.save() {
                self.notes.push(e);
            }
        }
        let Some(c) = self.clients.remove(&client) else {
            return;
        };
        if let Some((id, name)) = c.player {
            self.authority.players_mut().remove(id);
            self.chunks.player_gone(id);
            let why = c.leaving.map_or_else(|| why.to_owned(), |(w, _)| w);
            self.notes.push(format!("{name} left ({why})"));
            self.broadcast(&ToClient::Left(id, format!("{name} left")));
        }
    }

    /// Drops a client after telling it why (it is disconnected two ticks later, once
    /// the message is out).
    pub(super) fn drop_client(&mut self, client: u64, why: String) {
        let Some(c) = self.clients.get_mut(&client) else {
            return;
        };
        if c.leaving.is_some() {
            return;
        }
        let name = c.name().map_or_else(
            || {
                self.transport
                    .client_addr(client)
                    .map_or("a client".to_owned(), |a| a.to_string())
            },
            str::to_owned,
        );
        self.notes.push(format!("dropping {name}: {why}"));
        self.renet.send_message(
            client,
            Channel::World,
            ToClient::Refused(why.clone()).encode(),
        );
        c.leaving = Some((why, 3));
    }

    /// Disconnects the clients whose leaving time came.
    pub(super) fn leave_departed(&mut self) {
        let mut gone = Vec::new();
        for (id, c) in &mut self.clients {
            if let Some((_, ticks)) = &mut c.leaving {
                *ticks = ticks.saturating_sub(1);
                if *ticks == 0 {
                    gone.push(*id);
                }
            }
        }
        for id in gone {
            self.renet.disconnect(id);
        }
    }

    /// A client says hello as the player its token was given to: let in (a welcome,
    /// the backlog) or refused.
    pub(super) fn hello(&mut self, client: u64, name: &str, build: &str) -> Result<(), String> {
        let Some(c) = self.clients.get(&client) else {
            return Ok(());
        };
        if !name.eq_ignore_ascii_case(&c.asked_name) {
            return Err(format!(
                "said hello as {name:?} after asking to join as {:?}",
                c.asked_name
            ));
        }
        let (name, key) = (c.asked_name.clone(), c.key);
        // Two players may have asked for a free name at once: the first hello binds it.
        self.roster.claim(&name, key)?;
        if let Err(e) = self.roster.save() {
            self.notes.push(e);
        }
        let taken = self
            .clients
            .iter()
            .find(|(id, c)| {
                **id != client && c.name().is_some_and(|n| n.eq_ignore_ascii_case(&name))
            })
            .map(|(id, _)| *id);
        if let Some(old) = taken {
            // A game that crashed or lost its link is silent: its name comes back.
            let silent = self.transport.silent_for(old).is_none_or(|t| t >= STALE);
            if !silent {
                return Err(format!(
                    "{name} is already playing here: choose another name"
                ));
            }
            self.left(old, "replaced by a new connection of the same player");
            self.renet.disconnect(old);
        }
        let id: PlayerId = self.next_player;
        self.next_player += 1;
        let players: Vec<(PlayerId, String)> = self
            .clients
            .values()
            .filter_map(|c| c.player.clone())
            .collect();
        let seen = self.roster.seen(&name, self.world_key);
        if let Some(s) = seen {
            self.authority.players_mut().place(id, s.pose.feet);
            self.authority.players_mut().set_bucket(id, s.bucket_full);
        }
        let clock = self.authority.clock();
        // Where it will be sent the edits around first: where it stood, or the
        // origin until its first move says where its game put it.
        let centre = seen.map_or([0.0; 3], |s| s.pose.feet);
        let reach = self.options.reaches.edits;
        let (mut owed, mut backlog) = (interest::Owed::default(), 0);
        for (chunk, n) in self.authority.edits().chunk_sizes() {
            owed.owe(chunk, reach);
            if interest::distance(chunk, centre) <= reach {
                backlog += n;
            }
        }
        let welcome = Welcome {
            you: id,
            world_code: self.options.world.to_world_code(),
            generator_version: self.options.world.version,
            build: self.options.build.clone(),
            hashes: self.hashes.clone(),
            clock: (clock.hours, clock.paused),
            players,
            at: seen.map(|s| s.pose),
            bucket_full: seen.is_some_and(|s| s.bucket_full),
            may_fly: self.may_fly(&name, &key),
            backlog: backlog as u64,
        };
        self.renet.send_message(
            client,
            Channel::World,
            ToClient::Welcome(Box::new(welcome)).encode(),
        );
        let addr = self
            .transport
            .client_addr(client)
            .map_or_else(String::new, |a| format!(" from {a}"));
        let op = if self.access.is_op(&name, &key) {
            ", an operator"
        } else {
            ""
        };
        self.notes.push(format!(
            "{name} joined{addr} ({build}, key {}{op})",
            key.short()
        ));
        self.broadcast(&ToClient::Joined(id, name.clone()));
        let now = self.now;
        if let Some(c) = self.clients.get_mut(&client) {
            // Its moves are judged from where it stood when it left.
            c.motion = seen.map(|s| (Motion::new(s.pose.feet), now));
            c.player = Some((id, name));
            c.joining = true;
            c.owed = owed;
        }
        Ok(())
    }
}
