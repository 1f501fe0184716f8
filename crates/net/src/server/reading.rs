//! What clients say, read and decided: each client's moves first, then its world
//! messages (hello, edits, chat, an operator's commands), within their rates; an
//! edit decided by the authority, or kept to wait for the chunk the server is still
//! making; the edits made appended to the journal and made durable before they are
//! answered and queued for the others.

use std::time::{Duration, Instant};

use terravox_authority::{Action, Refusal};
use terravox_edits::fluid::Cells;
use terravox_voxel::{Block, BlockPos};

use super::Server;
use super::clients::Client;
use crate::protocol::{Answer, Channel, ToClient, ToServer};

/// How long an edit in a chunk the server is still making waits for it.
const WAIT_FOR_WORLD: Duration = Duration::from_secs(2);

/// Messages read from a client in one tick; more wait for the next.
const READ_PER_TICK: usize = 64;

/// An edit asked for, decided when the chunk it is in is made.
pub(super) struct Asked {
    pub(super) client: u64,
    pub(super) seq: u32,
    pub(super) action: Action,
    /// Refused if still undecided then.
    pub(super) until: Instant,
}

/// An edit made this tick, waiting to be durable before it is answered.
pub(super) struct Made {
    pub(super) client: u64,
    pub(super) seq: u32,
    pub(super) pos: BlockPos,
    pub(super) block: Block,
}

impl Server {
    /// Reads every client's messages; the edits made, to be made durable.
    pub(super) fn read_all(&mut self, dt: Duration) -> Vec<Made> {
        let mut made = Vec::new();
        let ids: Vec<u64> = self.clients.keys().copied().collect();
        for client in ids {
            if let Some(c) = self.clients.get_mut(&client) {
                let s = dt.as_secs_f32();
                c.messages.refill(s);
                c.chat.refill(s);
                c.moves.refill(s);
            }
            // Where it is first: its edits are measured from there.
            while let Some(bytes) = self.renet.receive_message(client, Channel::Moves) {
                if let Err(why) = self.read_move(client, &bytes) {
                    self.drop_client(client, why);
                    break;
                }
            }
            for _ in 0..READ_PER_TICK {
                let Some(bytes) = self.renet.receive_message(client, Channel::World) else {
                    break;
                };
                if let Err(why) = self.read(client, &bytes, &mut made) {
                    self.drop_client(client, why);
                    break;
                }
            }
        }
        made
    }

    /// One message on the world channel.
    pub(super) fn read(
        &mut self,
        client: u64,
        bytes: &[u8],
        made: &mut Vec<Made>,
    ) -> Result<(), String> {
        let Some(c) = self.clients.get_mut(&client) else {
            return Ok(());
        };
        if c.leaving.is_some() {
            return Ok(());
        }
        if !c.messages.take() {
            return Err("too many messages (a flood)".to_owned());
        }
        let message = ToServer::decode(bytes)
            .map_err(|e| format!("sent a message this server cannot read ({e})"))?;
        match (message, c.id()) {
            (ToServer::Hello { name, build }, None) => self.hello(client, &name, &build),
            (ToServer::Hello { .. }, Some(_)) => Err("said hello twice".to_owned()),
            (ToServer::Act { seq, action }, Some(_)) => {
                let asked = Asked {
                    client,
                    seq,
                    action,
                    until: self.now + WAIT_FOR_WORLD,
                };
                if let Some(asked) = self.act(asked, made) {
                    self.waiting.push(asked);
                }
                Ok(())
            }
            (ToServer::Chat(text), Some(id)) => {
                if !c.chat.take() {
                    let slow =
                        ToClient::Say("chat: slow down (a line every two seconds)".to_owned());
                    self.renet
                        .send_message(client, Channel::World, slow.encode());
                } else if let Some(line) = text.strip_prefix('/') {
                    self.chat_command(client, line);
                } else {
                    let name = c.name().unwrap_or_default().to_owned();
                    self.notes.push(format!("<{name}> {text}"));
                    self.broadcast(&ToClient::Chat(id, text));
                }
                Ok(())
            }
            (ToServer::Move(..), _) => Err("sent a move on the world channel".to_owned()),
            (_, None) => Err("played before saying hello".to_owned()),
        }
    }

    /// Decides an edit asked for: made (into `made`), refused (answered), or, where
    /// the server is still making the chunk (or has not heard where the player is),
    /// given back to wait for it.
    pub(super) fn act(&mut self, asked: Asked, made: &mut Vec<Made>) -> Option<Asked> {
        let id = self.clients.get(&asked.client).and_then(Client::id)?;
        let pos = asked.action.pos();
        let refusal = match self.authority.act(id, asked.action, &mut self.chunks) {
            Ok((pos, block)) => {
                made.push(Made {
                    client: asked.client,
                    seq: asked.seq,
                    pos,
                    block,
                });
                return None;
            }
            Err(r) => r,
        };
        let coming = match refusal {
            Refusal::NotLoaded => self.chunks.coming(pos.to_chunk().0),
            Refusal::UnknownPlayer => true,
            _ => false,
        };
        if coming && self.now < asked.until {
            return Some(asked);
        }
        let answer = Answer {
            seq: asked.seq,
            refused: Some(refusal),
            pos,
            block: self.chunks.block(pos),
            bucket_full: self.authority.players().bucket_full(id),
        };
        self.renet.send_message(
            asked.client,
            Channel::World,
            ToClient::Answer(answer).encode(),
        );
        None
    }

    /// Decides the edits that waited for the world around them.
    pub(super) fn act_waiting(&mut self, made: &mut Vec<Made>) {
        for asked in std::mem::take(&mut self.waiting) {
            if let Some(asked) = self.act(asked, made) {
                self.waiting.push(asked);
            }
        }
    }

    /// Makes the edits made durable, then answers them and tells the others.
    pub(super) fn make_durable(&mut self, made: Vec<Made>) {
        self.held.extend(made);
        if self.held.is_empty() {
            return;
        }
        let changes: Vec<(BlockPos, Block)> = self.held.iter().map(|m| (m.pos, m.block)).collect();
        if let Some(store) = &mut self.store
            && let Err(e) = store.append(&changes)
        {
            self.notes.push(format!(
                "cannot write the journal ({e}): {} edits wait to be made durable",
                self.held.len()
            ));
            return;
        }
        self.edits_made += self.held.len() as u64;
        for m in std::mem::take(&mut self.held) {
            let bucket_full = self
                .clients
                .get(&m.client)
                .and_then(Client::id)
                .is_some_and(|id| self.authority.players().bucket_full(id));
            let answer = Answer {
                seq: m.seq,
                refused: None,
                pos: m.pos,
                block: Some(m.block),
                bucket_full,
            };
            self.renet
                .send_message(m.client, Channel::World, ToClient::Answer(answer).encode());
            for (id, c) in &mut self.clients {
                if *id != m.client && c.player.is_some() {
                    c.changed(m.pos, m.block, true);
                }
            }
        }
    }
}
