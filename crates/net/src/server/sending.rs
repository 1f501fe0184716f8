//! What each client is sent: its backlog while the channel has room, the blocks
//! changed since (a player's edits at once, the water's by chunk, nearest first,
//! within a budget), where the others are and the time.

use std::time::Duration;

use terravox_authority::PlayerId;
use terravox_voxel::{Block, BlockPos, ChunkPos};

use super::Server;
use super::clients::Client;
use crate::protocol::{Channel, Pose, ToClient};

/// Time between updates of where the players are.
const POSES_EVERY: Duration = Duration::from_millis(100);

/// Poses in one message at most: 32 of the longest (an id of 10 bytes, feet at the
/// world's edge) encode to about a kilobyte, under one of renet's 1,200-byte slices,
/// so a lost packet loses those poses only, never half a message and all of it.
const POSES_PER_MESSAGE: usize = 32;

/// Time between updates of the clock.
const CLOCK_EVERY: Duration = Duration::from_secs(10);

/// Bytes of water changes a client is sent a second at most (packed): a dam break
/// cannot flood a link; the nearest chunks go first and the latest state wins.
pub const WATER_BYTES_PER_SECOND: f32 = 8192.0;

/// Edits in one message of the backlog.
const BACKLOG_BATCH: usize = 16_384;

/// The backlog is sent while the channel has this much room.
const BACKLOG_ROOM: usize = 2 << 20;

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
        let poses: Vec<(PlayerId, Pose)> = if poses_due {
            self.last_poses = self.now;
            self.clients
                .values()
                .filter_map(|c| Some((c.id()?, c.pose?.0)))
                .collect()
        } else {
            Vec::new()
        };
        let any_moved = self.clients.values().any(|c| c.moved);
        let clock_due = self.now.duration_since(self.last_clock) >= CLOCK_EVERY;
        if clock_due {
            self.last_clock = self.now;
            let clock = self.authority.clock();
            self.broadcast(&ToClient::Clock(clock.hours, clock.paused));
        }
        let ids: Vec<u64> = self.clients.keys().copied().collect();
        for client in ids {
            self.send_backlog(client);
            self.send_changes(client, dt);
            if poses_due && any_moved {
                let Some(me) = self.clients.get(&client).and_then(Client::id) else {
                    continue;
                };
                let others: Vec<(PlayerId, Pose)> =
                    poses.iter().filter(|(id, _)| *id != me).copied().collect();
                for message in poses_messages(&others) {
                    self.renet.send_message(client, Channel::Moves, message);
                }
            }
        }
        if poses_due {
            for c in self.clients.values_mut() {
                c.moved = false;
            }
        }
    }

    /// The next part of a joining client's backlog, while its channel has room.
    pub(super) fn send_backlog(&mut self, client: u64) {
        let Some(c) = self.clients.get_mut(&client) else {
            return;
        };
        let Some(backlog) = &mut c.backlog else {
            return;
        };
        while self.renet.channel_available_memory(client, Channel::World) > BACKLOG_ROOM {
            let mut batch = Vec::new();
            let mut last = backlog.after;
            for (chunk, edits) in backlog.edits.chunks_after(backlog.after) {
                batch.extend(edits);
                last = Some(chunk);
                if batch.len() >= BACKLOG_BATCH {
                    break;
                }
            }
            if batch.is_empty() {
                c.backlog = None;
                self.renet
                    .send_message(client, Channel::World, ToClient::BacklogDone.encode());
                return;
            }
            backlog.after = last;
            let message = ToClient::Blocks {
                backlog: true,
                changes: batch,
            };
            self.renet
                .send_message(client, Channel::World, message.encode());
        }
    }

    /// The blocks changed since: a player's edits at once, the water's by chunk,
    /// nearest first, within the client's budget.
    pub(super) fn send_changes(&mut self, client: u64, dt: Duration) {
        let Some(c) = self.clients.get_mut(&client) else {
            return;
        };
        if c.backlog.is_some() || c.changes.is_empty() {
            return;
        }
        let mut out: Vec<(BlockPos, Block)> = Vec::new();
        for chunk in std::mem::take(&mut c.urgent) {
            out.extend(c.take_chunk(chunk));
        }
        c.water_budget = (c.water_budget + dt.as_secs_f32() * WATER_BYTES_PER_SECOND)
            .min(WATER_BYTES_PER_SECOND);
        let at = c.pose.map_or(ChunkPos::new(0, 0, 0), |(p, _)| {
            BlockPos::containing_f64(p.feet).to_chunk().0
        });
        let mut nearest: Vec<ChunkPos> = c.changes.keys().copied().collect();
        nearest.sort_by_key(|k| k.distance_squared(at));
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
            let message = ToClient::Blocks {
                backlog: false,
                changes: out,
            };
            self.renet
                .send_message(client, Channel::World, message.encode());
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
