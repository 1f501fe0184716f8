//! What each client is sent: the chunks of edits it is owed that came within reach
//! (its backlog) while the channel has room, the blocks changed since (a player's
//! edits at once, the water's by chunk, nearest first, within a budget), where the
//! others are (as [`tracking`](super::tracking) has it) and the time.

use std::time::Duration;

use terravox_authority::PlayerId;
use terravox_voxel::{Block, BlockPos, ChunkPos};

use super::clients::Client;
use super::{Server, interest};
use crate::protocol::{Channel, Pose, ToClient};

/// Time between updates of where the players are.
const POSES_EVERY: Duration = Duration::from_millis(100);

/// Poses in one message at most: 32 of the longest (an id of 10 bytes, feet at the
/// world's edge) encode to about a kilobyte, under one of renet's 1,200-byte slices,
/// so a lost packet loses those poses only, never half a message and all of it.
const POSES_PER_MESSAGE: usize = 32;

/// Each update of the poses goes out in this many groups of clients, a group a
/// tick (three ticks fit in an update's 100 ms): a hundred players near one
/// another were each sent 99 poses in one tick, three times as long as the others.
const POSE_GROUPS: u64 = 3;

/// Time between updates of the clock.
const CLOCK_EVERY: Duration = Duration::from_secs(10);

/// Bytes of water changes a client is sent a second at most (packed): a dam break
/// cannot flood a link; the nearest chunks go first and the latest state wins.
pub const WATER_BYTES_PER_SECOND: f32 = 8192.0;

/// Edits in one message of the owed chunks (the backlog), at least.
const BACKLOG_BATCH: usize = 16_384;

/// The owed chunks are sent while the channel has this much room.
const BACKLOG_ROOM: usize = 2 << 20;

/// The changes messages of one tick, each encoded once: the players near one
/// another are sent the same changes, and a hundred of them made the server pack
/// the same batch a hundred times.
#[derive(Default)]
struct Encoded(std::collections::HashMap<Vec<(BlockPos, Block)>, Vec<u8>>);

impl Encoded {
    /// `changes` as a message of changes (not of the backlog).
    fn changes(&mut self, changes: Vec<(BlockPos, Block)>) -> Vec<u8> {
        if let Some(bytes) = self.0.get(&changes) {
            return bytes.clone();
        }
        let bytes = ToClient::Blocks {
            backlog: false,
            changes: changes.clone(),
        }
        .encode();
        self.0.insert(changes, bytes.clone());
        bytes
    }
}

/// Where `others` are, as messages that each fit one slice ([`POSES_PER_MESSAGE`]).
fn poses_messages(others: &[(PlayerId, Pose)]) -> Vec<Vec<u8>> {
    others
        .chunks(POSES_PER_MESSAGE)
        .map(|part| ToClient::Players(part.to_vec()).encode())
        .collect()
}

impl Server {
    /// Sends `message` to every playing client.
    pub(super) fn broadcast(&mut self, message: &ToClient) {
        let bytes = message.encode();
        for (id, c) in &self.clients {
            if c.player.is_some() && c.leaving.is_none() {
                self.renet.send_message(*id, Channel::World, bytes.clone());
            }
        }
    }

    /// Sends every client what it is owed: the backlog, the changes, the players, the
    /// clock.
    pub(super) fn send_all(&mut self, dt: Duration) {
        let poses_due = self.now.duration_since(self.last_poses) >= POSES_EVERY;
        let clock_due = self.now.duration_since(self.last_clock) >= CLOCK_EVERY;
        if clock_due {
            self.last_clock = self.now;
            let clock = self.authority.clock();
            self.broadcast(&ToClient::Clock(clock.hours, clock.paused));
        }
        let ids: Vec<u64> = self.clients.keys().copied().collect();
        let mut encoded = Encoded::default();
        for &client in &ids {
            self.send_owed(client);
            self.send_changes(client, dt, &mut encoded);
        }
        if poses_due {
            // On the update's own beat, not the tick's: three ticks of 33.333 ms fall
            // short of 100 ms, and a fourth made it 7.5 updates a second.
            self.last_poses = (self.last_poses + POSES_EVERY)
                .max(self.now.checked_sub(POSES_EVERY).unwrap_or(self.now));
            self.pose_updates += 1;
            self.pose_group = 0;
        }
        if self.pose_group < POSE_GROUPS {
            let group: Vec<u64> = (ids.iter().copied())
                .filter(|id| id % POSE_GROUPS == self.pose_group)
                .collect();
            self.send_poses(&group);
            self.pose_group += 1;
        }
    }

    /// Tells each client where the others it tracks are ([`tracking`](super::tracking)).
    fn send_poses(&mut self, ids: &[u64]) {
        let poses: Vec<(PlayerId, Pose)> = self
            .clients
            .values()
            .filter_map(|c| Some((c.id()?, c.pose?.0)))
            .collect();
        let playing: std::collections::HashSet<PlayerId> =
            poses.iter().map(|(id, _)| *id).collect();
        let (update, now) = (self.pose_updates, self.now);
        for client in ids {
            let Some(c) = self.clients.get_mut(client) else {
                continue;
            };
            let (Some(me), Some((mine, _))) = (c.id(), c.pose) else {
                continue;
            };
            c.tracked.keep(|id| playing.contains(&id));
            let mut due = Vec::new();
            for &(id, pose) in &poses {
                if id != me && c.tracked.due(update, mine.feet, id, &pose, now) {
                    c.tracked.sent(id, pose, now);
                    due.push((id, pose));
                }
            }
            for message in poses_messages(&due) {
                self.renet.send_message(*client, Channel::Moves, message);
            }
        }
    }

    /// Where client `c` is, as far as what it is sent goes: its last move, else
    /// where it stood when it last left, else the origin (a new player's game has
    /// not said yet where it put it).
    fn centre(c: &Client) -> [f64; 3] {
        c.pose
            .map(|(p, _)| p.feet)
            .or_else(|| c.motion.as_ref().map(|(m, _)| m.at()))
            .unwrap_or([0.0; 3])
    }

    /// The chunks a client is owed that came within reach, nearest first, while its
    /// channel has room: each as its edits are now. A joining client is told
    /// `BacklogDone` once none within reach is left.
    pub(super) fn send_owed(&mut self, client: u64) {
        let Some(c) = self.clients.get_mut(&client) else {
            return;
        };
        if c.player.is_none() {
            return;
        }
        let at = Self::centre(c);
        while self.renet.channel_available_memory(client, Channel::World) > BACKLOG_ROOM {
            let mut chunks = Vec::new();
            let mut edits = 0;
            while edits < BACKLOG_BATCH {
                let Some(chunk) = c.owed.next(at) else {
                    break;
                };
                // Its changes queued meanwhile are in its edits as they are now.
                c.take_chunk(chunk);
                let of = self.authority.edits().of_chunk(chunk);
                edits += of.len();
                chunks.push((chunk, of));
            }
            // The nearest chunks, in the overlay's order within the message: steps
            // from one chunk to the next stay short, and zlib finds the chunks alike.
            chunks.sort_unstable_by_key(|(c, _)| *c);
            let batch: Vec<(BlockPos, Block)> = chunks.into_iter().flat_map(|(_, of)| of).collect();
            if batch.is_empty() {
                if c.joining {
                    c.joining = false;
                    self.renet
                        .send_message(client, Channel::World, ToClient::BacklogDone.encode());
                }
                return;
            }
            let message = ToClient::Blocks {
                backlog: true,
                changes: batch,
            };
            self.renet
                .send_message(client, Channel::World, message.encode());
        }
    }

    /// The blocks changed since: a player's edits at once, the water's by chunk,
    /// nearest first, within the client's budget; a chunk beyond the reach of its
    /// kind of change is owed instead (its changes dropped: the chunk comes whole).
    /// The message is `encoded` once for every client sent the same.
    fn send_changes(&mut self, client: u64, dt: Duration, encoded: &mut Encoded) {
        let reaches = self.options.reaches;
        let Some(c) = self.clients.get_mut(&client) else {
            return;
        };
        if c.joining || c.changes.is_empty() {
            return;
        }
        let at = Self::centre(c);
        let chunks: Vec<ChunkPos> = c.changes.keys().copied().collect();
        for chunk in chunks {
            let reach = if c.urgent.contains(&chunk) {
                reaches.edits
            } else {
                reaches.water
            };
            if c.owed.holds(chunk) || interest::distance(chunk, at) > reach {
                c.take_chunk(chunk);
                c.owed.owe(chunk, reach);
            }
        }
        let mut out: Vec<(BlockPos, Block)> = Vec::new();
        for chunk in std::mem::take(&mut c.urgent) {
            out.extend(c.take_chunk(chunk));
        }
        c.water_budget = (c.water_budget + dt.as_secs_f32() * WATER_BYTES_PER_SECOND)
            .min(WATER_BYTES_PER_SECOND);
        let here = interest::chunk_of(at);
        let mut nearest: Vec<ChunkPos> = c.changes.keys().copied().collect();
        nearest.sort_by_key(|k| k.distance_squared(here));
        for chunk in nearest {
            if c.water_budget <= 0.0 {
                break;
            }
            // About a byte and a half a block, packed: a chunk may overdraw the
            // budget, which the next ticks pay back.
            c.water_budget -= c.changes[&chunk].len() as f32 * 1.5;
            out.extend(c.take_chunk(chunk));
        }
        if !out.is_empty() {
            self.renet
                .send_message(client, Channel::World, encoded.changes(out));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_poses_go_in_messages_that_each_fit_one_slice() {
        // The longest a pose encodes: the largest ids, feet at the world's edge.
        let edge = f64::from(1 << 30);
        let others: Vec<(PlayerId, Pose)> = (0..99)
            .map(|i| {
                let pose = Pose {
                    feet: [-edge, edge, -edge + f64::from(i)],
                    yaw: 1.0,
                    pitch: -0.5,
                };
                (u64::MAX - i as u64, pose)
            })
            .collect();
        let messages = poses_messages(&others);
        assert_eq!(messages.len(), 4);
        let mut back = Vec::new();
        for m in &messages {
            assert!(m.len() <= 1200, "{} bytes", m.len());
            let ToClient::Players(part) = ToClient::decode(m).expect("decodes") else {
                panic!("not poses");
            };
            back.extend(part);
        }
        let ids: Vec<PlayerId> = back.iter().map(|(id, _)| *id).collect();
        let want: Vec<PlayerId> = others.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, want, "every pose, once, in order");
        assert!(poses_messages(&[]).is_empty());
    }
}
