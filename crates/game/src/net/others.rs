//! The other players as this game sees them: names, and where each was at the last
//! few updates, to draw them moving smoothly between updates (100 ms behind the
//! latest, as a game does to have two updates to move between).

use std::collections::{BTreeMap, VecDeque};

use terravox_authority::PlayerId;
use terravox_net::protocol::Pose;

/// How far behind the latest update the others are drawn, in seconds.
pub(crate) const BEHIND: f64 = 0.1;
/// Updates kept a player.
const KEPT: usize = 8;
/// A player not heard of for this long, in seconds, is not drawn: it went beyond
/// the server's tracking range (the server tells of one standing still once a
/// second).
const SILENT: f64 = 3.0;

/// Another player.
#[derive(Clone, Debug, Default)]
pub struct Other {
    /// Its name.
    pub name: String,
    /// `(when it arrived, in seconds of this game, where it was)`, oldest first.
    updates: VecDeque<(f64, Pose)>,
}

impl Other {
    /// Where it is drawn at `now`: between the two updates around `now - BEHIND`,
    /// eased linearly (the look turns the short way round); the first update before
    /// anything else; `None` before any, and once it was silent for [`SILENT`].
    pub fn pose_at(&self, now: f64) -> Option<Pose> {
        let t = now - BEHIND;
        let (first, last) = (self.updates.front()?, self.updates.back()?);
        if now - last.0 > SILENT {
            return None;
        }
        if t <= first.0 {
            return Some(first.1);
        }
        if t >= last.0 {
            return Some(last.1);
        }
        let i = self.updates.iter().position(|(at, _)| *at > t)?;
        let ((t0, a), (t1, b)) = (self.updates[i - 1], self.updates[i]);
        let f = ((t - t0) / (t1 - t0).max(1e-6)).clamp(0.0, 1.0);
        let turn = std::f32::consts::TAU;
        let dyaw = (b.yaw - a.yaw + turn / 2.0).rem_euclid(turn) - turn / 2.0;
        Some(Pose {
            feet: [0, 1, 2].map(|k| a.feet[k] + (b.feet[k] - a.feet[k]) * f),
            yaw: a.yaw + dyaw * f as f32,
            pitch: a.pitch + (b.pitch - a.pitch) * f as f32,
        })
    }
}

/// The other players, by id.
#[derive(Clone, Debug, Default, bevy::prelude::Resource)]
pub struct Others {
    players: BTreeMap<PlayerId, Other>,
}

impl Others {
    /// A player joined (or was there when this one joined).
    pub(crate) fn joined(&mut self, id: PlayerId, name: String) {
        self.players.entry(id).or_default().name = name;
    }

    /// A player left.
    pub(crate) fn left(&mut self, id: PlayerId) -> Option<Other> {
        self.players.remove(&id)
    }

    /// Player `id` was at `pose` at `now`.
    pub(crate) fn update(&mut self, id: PlayerId, pose: Pose, now: f64) {
        let updates = &mut self.players.entry(id).or_default().updates;
        if updates.len() == KEPT {
            updates.pop_front();
        }
        updates.push_back((now, pose));
    }

    /// The players, by id.
    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, &Other)> {
        self.players.iter().map(|(id, o)| (*id, o))
    }

    /// Player `id`'s name.
    pub fn name(&self, id: PlayerId) -> Option<&str> {
        self.players.get(&id).map(|o| o.name.as_str())
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether there is nobody else.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// Forgets everyone (the connection was lost).
    pub(crate) fn clear(&mut self) {
        self.players.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, yaw: f32) -> Pose {
        Pose {
            feet: [x, 10.0, 0.0],
            yaw,
            pitch: 0.0,
        }
    }

    #[test]
    fn a_player_moves_smoothly_between_updates_a_little_behind() {
        let mut others = Others::default();
        others.joined(3, "ada".into());
        let ada = |o: &Others| o.players[&3].clone();
        assert_eq!(ada(&others).pose_at(5.0), None);
        others.update(3, at(0.0, 3.0), 1.0);
        others.update(3, at(10.0, -3.0), 1.1);
        let o = ada(&others);
        // Before the first update and after the last: held there; silent for
        // three seconds, gone (beyond the server's tracking range).
        assert_eq!(o.pose_at(0.5).unwrap().feet[0], 0.0);
        assert_eq!(o.pose_at(4.0).unwrap().feet[0], 10.0);
        assert_eq!(o.pose_at(4.2), None);
        // Halfway between, drawn 0.1 s behind.
        let mid = o.pose_at(1.15).unwrap();
        assert!((mid.feet[0] - 5.0).abs() < 1e-9, "{mid:?}");
        // From 3 to -3 radians turns the short way, through pi.
        assert!(mid.yaw.abs() > 3.0, "{}", mid.yaw);
        assert_eq!(others.left(3).map(|o| o.name), Some("ada".to_owned()));
        assert_eq!(others.len(), 0);
    }
}
