//! Where the players are: each move judged by the body's rules
//! (`terravox_authority::moves`), taken, or refused and corrected (the player put
//! back where it last was, told why; its moves made before it took the correction
//! are not judged). Flying and noclip only for operators, or everyone in a world
//! started so (`--allow-flying`).

use std::time::Duration;

use terravox_authority::moves::Motion;
use terravox_edits::fluid::Cells;

use super::Server;
use crate::protocol::{Channel, ToClient, ToServer};

/// A player's corrections are told the console at most this often.
const NOTE_EVERY: Duration = Duration::from_secs(10);

impl Server {
    /// Whether the player `name` with `key` may fly here.
    pub(super) fn may_fly(&self, name: &str, key: &crate::identity::PublicKey) -> bool {
        self.options.allow_flying || self.access.is_op(name, key)
    }

    /// One message on the moves channel.
    pub(super) fn read_move(&mut self, client: u64, bytes: &[u8]) -> Result<(), String> {
        let Some(c) = self.clients.get(&client) else {
            return Ok(());
        };
        let (Some(id), Some(name)) = (c.id(), c.name()) else {
            return Ok(());
        };
        let fly = self.may_fly(name, &c.key);
        let now = self.now;
        let Some(c) = self.clients.get_mut(&client) else {
            return Ok(());
        };
        if !c.moves.take() {
            return Ok(());
        }
        let ToServer::Move(pose, corrections) = ToServer::decode(bytes)
            .map_err(|e| format!("sent a move this server cannot read ({e})"))?
        else {
            return Err("sent something else than a move on the moves channel".to_owned());
        };
        // A new player's first move is where it starts (each game finds the spawn).
        let (motion, last) = c
            .motion
            .get_or_insert_with(|| (Motion::new(pose.feet), now));
        if corrections != motion.corrections() {
            // Made before it took the latest correction.
            return Ok(());
        }
        let dt = now.duration_since(*last).as_secs_f64();
        *last = now;
        let chunks = &self.chunks;
        match motion.judge(pose.feet, dt, fly, &|b| chunks.block(b)) {
            Ok(()) => {
                c.pose = Some((pose, now));
                self.authority.players_mut().place(id, pose.feet);
                self.chunks.player_at(id, pose.feet);
            }
            Err(why) => {
                let corrections = motion.correct();
                let feet = motion.at();
                let correct = ToClient::Correct {
                    feet,
                    corrections,
                    why: why.to_string(),
                };
                self.renet
                    .send_message(client, Channel::World, correct.encode());
                if c.noted_correction
                    .is_none_or(|t| now.duration_since(t) >= NOTE_EVERY)
                {
                    c.noted_correction = Some(now);
                    let name = c.name().unwrap_or_default().to_owned();
                    self.notes.push(format!("put {name} back ({why})"));
                }
            }
        }
        Ok(())
    }
}
