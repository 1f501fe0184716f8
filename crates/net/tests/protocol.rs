//! The message decoder fuzzed: random bytes, and valid messages cut, stretched and
//! with bytes flipped, are decoded by both sides' decoders; every one is an error or
//! a message, never a panic, and every message decoded encodes back to a message
//! that decodes the same. Seeded, so a failure repeats.

use terravox_authority::{Action, Refusal};
use terravox_net::protocol::{Answer, Pose, ToClient, ToServer, Welcome};
use terravox_voxel::{Block, BlockPos, ChunkPos};

/// xorshift64: a seeded stream of numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn samples() -> (Vec<ToServer>, Vec<ToClient>) {
    let pose = Pose {
        feet: [120.5, -40.25, 1e7],
        yaw: 1.0,
        pitch: -0.5,
    };
    let to_server = vec![
        ToServer::Hello {
            name: "ada".into(),
            build: "terravox 0.1.0".into(),
        },
        ToServer::Act {
            seq: 7,
            action: Action::Place(BlockPos::new(-5, 70, 3), Block::Brick),
        },
        ToServer::Act {
            seq: u32::MAX,
            action: Action::Take(BlockPos::new(0, 0, 0)),
        },
        ToServer::Chat("hello there".into()),
        ToServer::Move(pose, 3),
    ];
    let to_client = vec![
        ToClient::Welcome(Box::new(Welcome {
            you: 3,
            world_code: "(version: 9, seed: \"42\")".into(),
            generator_version: 9,
            build: "terravox 0.1.0".into(),
            hashes: vec![(ChunkPos::new(1, 2, -3), 0xdead_beef)],
            clock: (9.5, false),
            players: vec![(1, "bo".into())],
            at: Some(pose),
            bucket_full: true,
            may_fly: false,
            backlog: 1_000_000,
        })),
        ToClient::Refused("wrong password".into()),
        ToClient::Blocks {
            backlog: true,
            changes: (0..500)
                .map(|i| (BlockPos::new(i, i % 7, -i), Block::ALL[i as usize % 39]))
                .collect(),
        },
        ToClient::BacklogDone,
        ToClient::Answer(Answer {
            seq: 9,
            refused: Some(Refusal::OutOfReach),
            pos: BlockPos::new(1, 2, 3),
            block: Some(Block::Stone),
            bucket_full: true,
        }),
        ToClient::Joined(4, "cy".into()),
        ToClient::Left(4, "cy left".into()),
        ToClient::Chat(4, "hi".into()),
        ToClient::Say("the server stops in a minute".into()),
        ToClient::Clock(23.5, true),
        ToClient::Players(vec![(1, pose), (2, Pose::default())]),
        ToClient::Correct {
            feet: [10.5, 64.0, -3.25],
            corrections: 7,
            why: "faster than a body moves".into(),
        },
    ];
    (to_server, to_client)
}

/// Decodes `bytes` with both decoders; a message decoded must survive a round trip.
fn decode_both(bytes: &[u8]) -> usize {
    let mut decoded = 0;
    if let Ok(m) = ToServer::decode(bytes) {
        let again = ToServer::decode(&m.encode()).expect("a decoded message re-encodes");
        assert_eq!(again.encode(), m.encode());
        decoded += 1;
    }
    if let Ok(m) = ToClient::decode(bytes) {
        let again = ToClient::decode(&m.encode()).expect("a decoded message re-encodes");
        assert_eq!(again.encode(), m.encode());
        decoded += 1;
    }
    decoded
}

#[test]
fn every_message_round_trips() {
    let (to_server, to_client) = samples();
    for m in &to_server {
        let back = ToServer::decode(&m.encode()).unwrap();
        // Poses are sent in 64ths of a block and fractions of a turn.
        assert_eq!(back.encode(), m.encode(), "{m:?}");
    }
    for m in &to_client {
        let back = ToClient::decode(&m.encode()).unwrap();
        assert_eq!(back.encode(), m.encode(), "{m:?}");
    }
    match ToServer::decode(&to_server[4].encode()).unwrap() {
        ToServer::Move(p, 3) => {
            assert_eq!(p.feet, [120.5, -40.25, 1e7]);
            assert!((p.yaw - 1.0).abs() < 1e-3 && (p.pitch + 0.5).abs() < 1e-3);
        }
        m => panic!("{m:?}"),
    }
}

#[test]
fn garbage_cut_and_flipped_messages_never_panic_the_decoders() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    // Random bytes of every length up to 64, then longer.
    for _ in 0..200_000 {
        let len = if rng.below(10) == 0 {
            rng.below(4096)
        } else {
            rng.below(64)
        };
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        decode_both(&bytes);
    }
    // Valid messages cut at every length, with bytes appended, and with bytes flipped.
    let (to_server, to_client) = samples();
    // Each is cut and stretched for its own side's decoder (a tag alone is a whole
    // message the other way: `[3]` is the server's "backlog done").
    let valid: Vec<(Vec<u8>, bool)> = to_server
        .iter()
        .map(|m| (m.encode(), true))
        .chain(to_client.iter().map(|m| (m.encode(), false)))
        .collect();
    let own = |bytes: &[u8], to_server: bool| {
        if to_server {
            ToServer::decode(bytes).is_ok()
        } else {
            ToClient::decode(bytes).is_ok()
        }
    };
    let mut decoded = 0;
    for (bytes, side) in &valid {
        for cut in 0..bytes.len() {
            assert!(!own(&bytes[..cut], *side), "a message cut at {cut} decoded");
            decode_both(&bytes[..cut]);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(!own(&longer, *side), "a message with a stray byte decoded");
        for _ in 0..5_000 {
            let mut flipped = bytes.clone();
            for _ in 0..=rng.below(3) {
                let i = rng.below(flipped.len());
                flipped[i] ^= 1 << rng.below(8);
            }
            decoded += decode_both(&flipped);
        }
    }
    // Some flips still make messages (another name, another position): they too
    // went through the round trip above.
    assert!(decoded > 0);
}
