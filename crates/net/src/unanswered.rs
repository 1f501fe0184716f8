//! The edits a client sent that its server has not answered ([`Unanswered`]): each
//! numbered, with what its block held before (put back if the server refuses it),
//! kept across a lost connection and offered again once the client has joined again
//! and has the world's edits, so a long outage loses none: the server decides each
//! afresh (made, or refused with what the block holds). What a client shows once
//! an edit is answered is decided here too ([`Unanswered::answer`]): the game and the
//! bot predict their edits so, the one rule for both.

use std::collections::BTreeMap;

use terravox_authority::Action;
use terravox_voxel::{Block, BlockPos};

use crate::protocol::{Answer, ToServer};

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

    /// Takes in the server's answer `a` (its edit is no longer unanswered): the block
    /// as this client is to show it now, if it knows: the server's block where it
    /// says (made, or refused with what the block holds), else what the block held
    /// before this client's edit (put back).
    pub fn answer(&mut self, a: &Answer) -> Option<(BlockPos, Block)> {
        let before = self.sent.remove(&a.seq).map(|s| s.before);
        let block = if a.refused.is_none() {
            a.block
        } else {
            a.block.or(before)
        };
        block.map(|b| (a.pos, b))
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
    use terravox_authority::Refusal;

    #[test]
    fn unanswered_edits_are_offered_again_in_order_until_answered() {
        let mut u = Unanswered::default();
        let p = |x| BlockPos::new(x, 0, 0);
        let (a, _) = u.send(Action::Break(p(1)), Block::Stone);
        let (b, _) = u.send(Action::Place(p(2), Block::Brick), Block::Air);
        let (c, _) = u.send(Action::Take(p(3)), Block::Water);
        assert!(a < b && b < c);
        let refused = |seq, block| Answer {
            seq,
            refused: Some(Refusal::TooFast),
            pos: p(2),
            block,
            bucket_full: false,
        };
        // Refused, and the server did not say what the block holds: put back.
        assert_eq!(u.answer(&refused(b, None)), Some((p(2), Block::Air)));
        // Answered once: a second answer knows nothing to put back.
        assert_eq!(u.answer(&refused(b, None)), None);
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
        // The server's word wins over what the block held before.
        assert_eq!(
            u.answer(&refused(a, Some(Block::Brick))),
            Some((p(2), Block::Brick))
        );
        let made = Answer {
            seq: c,
            refused: None,
            pos: p(3),
            block: Some(Block::Air),
            bucket_full: true,
        };
        assert_eq!(u.answer(&made), Some((p(3), Block::Air)));
        assert!(u.is_empty());
    }
}
