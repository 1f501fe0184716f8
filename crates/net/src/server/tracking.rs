//! Who is told where each other player is, and how often: every update within
//! 64 blocks, every second one within 128, every fourth within the tracking range
//! (256 blocks), never beyond; and only a pose that changed since that client was
//! last sent it, or one a second old (so a client knows a player standing still is
//! still there, and forgets one it has not heard of for a while).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use terravox_authority::PlayerId;

use crate::protocol::Pose;

/// The farthest another player is tracked, in blocks: beyond it a client is sent
/// nothing of that player.
pub(crate) const TRACKING_RANGE: f64 = 256.0;

/// A pose unchanged is sent again after this long (a game forgets a player it has
/// not heard of for three seconds).
const REFRESH: Duration = Duration::from_secs(1);

/// Updates between two poses of a player `distance` blocks away: `None` beyond the
/// tracking range.
pub(crate) fn every(distance: f64) -> Option<u64> {
    match distance {
        d if d <= 64.0 => Some(1),
        d if d <= 128.0 => Some(2),
        d if d <= TRACKING_RANGE => Some(4),
        _ => None,
    }
}

/// What one client was last sent of each other player: the pose, and when.
#[derive(Debug, Default)]
pub(crate) struct Tracked(HashMap<PlayerId, (Pose, Instant)>);

impl Tracked {
    /// Whether `other`, at `pose`, is sent at update number `update` to a client
    /// whose feet are at `me`: its turn at its distance (the turns of players at
    /// one distance spread by their ids), and changed since it was last sent or
    /// not sent for [`REFRESH`].
    pub(crate) fn due(
        &self,
        update: u64,
        me: [f64; 3],
        other: PlayerId,
        pose: &Pose,
        now: Instant,
    ) -> bool {
        let distance = (0..3)
            .map(|k| (pose.feet[k] - me[k]).powi(2))
            .sum::<f64>()
            .sqrt();
        let Some(every) = every(distance) else {
            return false;
        };
        if !update.wrapping_add(other).is_multiple_of(every) {
            return false;
        }
        match self.0.get(&other) {
            None => true,
            Some((last, when)) => last != pose || now.duration_since(*when) >= REFRESH,
        }
    }

    /// `other` was sent at `pose` at `now`.
    pub(crate) fn sent(&mut self, other: PlayerId, pose: Pose, now: Instant) {
        self.0.insert(other, (pose, now));
    }

    /// Forgets the players for which `playing` is false (they left).
    pub(crate) fn keep(&mut self, playing: impl Fn(PlayerId) -> bool) {
        self.0.retain(|id, _| playing(*id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64) -> Pose {
        Pose {
            feet: [x, 70.0, 0.0],
            yaw: 0.0,
            pitch: 0.0,
        }
    }

    /// The updates among `0..n` at which `other` at `pose` is due, sent each time.
    fn sends(tracked: &mut Tracked, other: PlayerId, pose: Pose, n: u64) -> Vec<u64> {
        let start = Instant::now();
        (0..n)
            .filter(|&u| {
                let now = start + Duration::from_millis(100 * u);
                let due = tracked.due(u, [0.0, 70.0, 0.0], other, &pose, now);
                if due {
                    tracked.sent(other, pose, now);
                }
                due
            })
            .collect()
    }

    #[test]
    fn near_players_go_every_update_farther_ones_less_often_none_beyond_the_range() {
        assert_eq!(every(0.0), Some(1));
        assert_eq!(every(64.0), Some(1));
        assert_eq!(every(64.5), Some(2));
        assert_eq!(every(200.0), Some(4));
        assert_eq!(every(256.0), Some(4));
        assert_eq!(every(256.5), None);
        // A player walking at 100 blocks: every second update, offset by its id.
        let tracked = Tracked::default();
        let start = Instant::now();
        let walked: Vec<u64> = (0..8)
            .filter(|&u| {
                let pose = at(100.0 + u as f64 * 0.4);
                let now = start + Duration::from_millis(100 * u);
                tracked.due(u, [0.0, 70.0, 0.0], 7, &pose, now)
            })
            .collect();
        assert_eq!(walked, [1, 3, 5, 7]);
        // Beyond the range, never.
        assert!(sends(&mut Tracked::default(), 8, at(300.0), 50).is_empty());
    }

    #[test]
    fn a_player_standing_still_is_sent_once_then_once_a_second() {
        let mut tracked = Tracked::default();
        assert_eq!(sends(&mut tracked, 4, at(10.0), 25), [0, 10, 20]);
        // A new pose goes at once.
        let start = Instant::now();
        assert!(tracked.due(25, [0.0, 70.0, 0.0], 4, &at(11.0), start));
        // One that left is forgotten, and sent again as new when it is back.
        tracked.keep(|id| id != 4);
        assert!(tracked.0.is_empty());
    }
}
