//! The edits a client sent that its server has not answered ([`Unanswered`]): each
//! numbered, with what its block held before (put back if the server refuses it),
//! kept across a lost connection and offered again once the client has joined again
//! and has the world's edits, so a long outage loses none: the server decides each
//! afresh (made, or refused with what the block holds). The game and the bot keep
//! their edits so.

use std::collections::BTreeMap;

use terravox_authority::Action;
use terravox_voxel::Block;

use crate::protocol::ToServer;

/// An edit sent: what it asked, and what its block held before.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sent {
    /// The edit.
    pub action: Action,
    /// What the block held when the edit was made here.
    pub before: Block,
}

/// The edits sent and not answered, by number (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Unanswered {
    last: u32,
    sent: BTreeMap<u32, Sent>,
}

impl Unanswered {
    /// Numbers an edit made now over a block that held `before`: its number and the
    /// message that asks for it.
    pub fn send(&mut self, action: Action, before: Block) -> (u32, ToServer) {
        self.last = self.last.wrapping_add(1);
        self.sent.insert(self.last, Sent { action, before });
        (
            self.last,
            ToServer::Act {
                seq: self.last,
                action,
            },
        )
    }

    /// The edit answer `seq` is for (no longer unanswered).
    pub fn answered(&mut self, seq: u32) -> Option<Sent> {
        self.sent.remove(&seq)
    }

    /// The edits still unanswered as messages asking for them again, oldest first
    /// and under their numbers: what a client sends once it has joined again.
    pub fn offer_again(&self) -> Vec<ToServer> {
        self.sent
            .iter()
            .map(|(&seq, s)| ToServer::Act {
                seq,
                action: s.action,
            })
            .collect()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.sent.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.sent.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_voxel::BlockPos;

    #[test]
    fn unanswered_edits_are_offered_again_in_order_until_answered() {
        let mut u = Unanswered::default();
        let p = |x| BlockPos::new(x, 0, 0);
        let (a, _) = u.send(Action::Break(p(1)), Block::Stone);
        let (b, _) = u.send(Action::Place(p(2), Block::Brick), Block::Air);
        let (c, _) = u.send(Action::Take(p(3)), Block::Water);
        assert!(a < b && b < c);
        assert_eq!(u.answered(b).map(|s| s.before), Some(Block::Air));
        assert_eq!(u.answered(b), None);
        assert_eq!(
            u.offer_again(),
            [
                ToServer::Act {
                    seq: a,
                    action: Action::Break(p(1))
                },
                ToServer::Act {
                    seq: c,
                    action: Action::Take(p(3))
                }
            ]
        );
        // Offered again, still unanswered until the server says.
        assert_eq!(u.len(), 2);
        u.answered(a);
        u.answered(c);
        assert!(u.is_empty());
    }
}
