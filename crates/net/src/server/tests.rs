//! The server's rules, in-process: a real server and real clients (the handshake,
//! netcode, renet, the protocol) over a [`Hub`] instead of sockets, driven tick by
//! tick on the server's own clock, so a rule about seconds is tested in no time and
//! exactly. Each test builds what it needs by hand: the edits, the bans, the
//! datagrams.

use std::net::SocketAddr;
use std::time::Duration;

use renet::RenetClient;
use renetcode::NETCODE_MAX_PACKET_BYTES;
use terravox_authority::{Action, Refusal};
use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::WorldConfig;

use super::{Command, Server, ServerOptions, TICK, WATER_BYTES_PER_SECOND, connection_config};
use crate::handshake::{self, Request, Verdict};
use crate::identity::Identity;
use crate::protocol::{Channel, Pose, ToClient, ToServer};
use crate::transport::{self, ClientTransport};
use crate::wire::{Hub, Wire};

/// Where the server listens on the hub.
const SERVER: SocketAddr = SocketAddr::new(
    std::net::IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)),
    27_050,
);

/// An address of the hub's: `n` picks it.
fn address(n: u8) -> SocketAddr {
    SocketAddr::from(([10, 0, 1, n], 40_000))
}

/// A client in the test: its connection, and what it was sent.
struct Player {
    transport: ClientTransport,
    renet: RenetClient,
    got: Vec<ToClient>,
}

impl Player {
    /// Sends `message` on its channel.
    fn send(&mut self, message: &ToServer) {
        let channel = match message {
            ToServer::Move(..) => Channel::Moves,
            _ => Channel::World,
        };
        self.renet.send_message(channel, message.encode());
    }

    /// Says hello as `name`.
    fn hello(&mut self, name: &str) {
        self.send(&ToServer::Hello {
            name: name.into(),
            build: "terravox test".into(),
        });
    }

    /// Takes what it was sent so far.
    fn take(&mut self) -> Vec<ToClient> {
        std::mem::take(&mut self.got)
    }

    /// Whether it was told it is refused or dropped, and why.
    fn refused(&self) -> Option<&str> {
        self.got.iter().find_map(|m| match m {
            ToClient::Refused(why) => Some(why.as_str()),
            _ => None,
        })
    }

    fn step(&mut self) {
        self.transport.update(TICK, &mut self.renet);
        self.renet.update(TICK);
        for channel in [Channel::World, Channel::Moves] {
            while let Some(bytes) = self.renet.receive_message(channel) {
                self.got
                    .push(ToClient::decode(&bytes).expect("the server's message"));
            }
        }
        self.transport.send(&mut self.renet);
    }
}

/// A server on a hub and the clients that joined it.
struct Rig {
    hub: Hub,
    server: Server,
    players: Vec<Player>,
}

impl Rig {
    fn new(tag: &str, password: Option<&str>) -> Self {
        let hub = Hub::default();
        let options = ServerOptions {
            world: WorldConfig::default(),
            bind: SERVER,
            save_dir: crate::files::scratch(&format!("rules-{tag}")),
            max_players: 8,
            password: password.map(str::to_owned),
            name: "rules".into(),
            motd: String::new(),
            allow_flying: false,
            metrics: None,
            ops: Vec::new(),
            build: "terravox test".into(),
            reaches: super::Reaches::default(),
        };
        let server = Server::start_on(options, Box::new(hub.wire(SERVER))).expect("a server");
        Self {
            hub,
            server,
            players: Vec::new(),
        }
    }

    /// One tick of every client, then of the server.
    fn tick(&mut self) {
        for p in &mut self.players {
            p.step();
        }
        self.server.tick(TICK);
    }

    /// Ticks for `time` of the server's clock.
    fn run(&mut self, time: Duration) {
        for _ in 0..time.as_micros().div_ceil(TICK.as_micros()) {
            self.tick();
        }
    }

    /// The handshake as `name` from address `n`: the connect token's verdict.
    fn knock(&mut self, n: u8, name: &str, password: Option<&str>) -> Result<Verdict, String> {
        let me = Identity::generate();
        self.knock_as(&me, n, name, password).map(|(v, _)| v)
    }

    fn knock_as(
        &mut self,
        me: &Identity,
        n: u8,
        name: &str,
        password: Option<&str>,
    ) -> Result<(Verdict, Box<dyn Wire>), String> {
        let mut wire = self.hub.wire(address(n));
        let request = Request {
            name: name.into(),
            build: "terravox test".into(),
            password: password.map(str::to_owned),
        };
        let (opening, message) = handshake::open(me, &self.server.identity(), SERVER, &request)?;
        wire.send(&transport::handshake_packet(&message), SERVER);
        self.tick();
        let mut buf = [0; NETCODE_MAX_PACKET_BYTES];
        let (len, _) = wire.receive(&mut buf).ok_or("no answer")?;
        let answer = transport::answer_in(&buf[..len]).ok_or("not an answer")?;
        let verdict = opening.read(answer).ok_or("an answer that does not read")?;
        Ok((verdict, Box::new(wire)))
    }

    /// Joins as `name` from address `n`: connected, hello said, the welcome and the
    /// backlog received. Its index.
    fn join(&mut self, n: u8, name: &str) -> usize {
        self.join_as(&Identity::generate(), n, name)
    }

    /// [`Rig::join`] as `me`.
    fn join_as(&mut self, me: &Identity, n: u8, name: &str) -> usize {
        let i = self.connect_as(me, n, name);
        self.players[i].hello(name);
        for _ in 0..100 {
            self.tick();
            if self.players[i]
                .got
                .iter()
                .any(|m| matches!(m, ToClient::BacklogDone))
            {
                return i;
            }
        }
        panic!("{name} was not let in: {:?}", self.players[i].got);
    }

    /// Connects as `name` from address `n`, saying no hello. Its index.
    fn connect(&mut self, n: u8, name: &str) -> usize {
        self.connect_as(&Identity::generate(), n, name)
    }

    fn connect_as(&mut self, me: &Identity, n: u8, name: &str) -> usize {
        let (verdict, wire) = self.knock_as(me, n, name, None).expect("answered");
        let Verdict::Admitted(token) = verdict else {
            panic!("{name} refused: {verdict:?}");
        };
        let transport = ClientTransport::connect(wire, *token).expect("a connection");
        self.players.push(Player {
            transport,
            renet: RenetClient::new(connection_config()),
            got: Vec::new(),
        });
        let i = self.players.len() - 1;
        for _ in 0..30 {
            self.tick();
            if self.players[i].renet.is_connected() {
                return i;
            }
        }
        panic!("{name} did not connect");
    }

    fn clients(&self) -> usize {
        self.server.clients.len()
    }
}

fn refused(verdict: Result<Verdict, String>) -> String {
    match verdict {
        Ok(Verdict::Refused(why)) => why,
        other => panic!("not refused: {other:?}"),
    }
}

fn pose(x: f64, y: f64, z: f64) -> Pose {
    Pose {
        feet: [x, y, z],
        yaw: 0.0,
        pitch: 0.0,
    }
}

#[test]
fn a_connection_that_says_no_hello_is_freed_after_five_seconds() {
    let mut rig = Rig::new("hello", None);
    let quiet = rig.connect(1, "quiet");
    assert_eq!(rig.clients(), 1);
    rig.run(Duration::from_millis(4800));
    assert_eq!(rig.clients(), 1, "within its time");
    rig.run(Duration::from_millis(400));
    assert_eq!(rig.players[quiet].refused(), Some("no hello in time"));
    rig.run(Duration::from_millis(200));
    assert_eq!(rig.clients(), 0, "freed");
}

#[test]
fn banned_names_keys_and_addresses_and_those_off_the_allowlist_are_refused() {
    let mut rig = Rig::new("bans", None);
    let me = Identity::generate();
    let ada = rig.join_as(&me, 1, "ada");
    rig.server
        .command(Command::Ban("ada".into(), "griefing".into()));
    rig.run(Duration::from_millis(200));
    assert!(
        rig.players[ada].refused().is_some(),
        "a banned player is let go"
    );
    assert_eq!(rig.clients(), 0);
    let why = match rig.knock_as(&me, 1, "ada", None) {
        Ok((Verdict::Refused(why), _)) => why,
        _ => panic!("ada let in"),
    };
    assert_eq!(why, "you are banned from this server: griefing");
    // Her key is banned with her name, under any other name.
    let why = match rig.knock_as(&me, 1, "not_ada", None) {
        Ok((Verdict::Refused(why), _)) => why,
        _ => panic!("ada's key let in"),
    };
    assert!(why.starts_with("you are banned"), "{why}");
    rig.server
        .command(Command::Ban(address(2).ip().to_string(), String::new()));
    assert_eq!(
        refused(rig.knock(2, "bo", None)),
        "you are banned from this server"
    );
    assert!(matches!(rig.knock(3, "bo", None), Ok(Verdict::Admitted(_))));
    rig.server.command(Command::Allowlist(true));
    let why = refused(rig.knock(3, "cy", None));
    assert!(why.contains("allowlist"), "{why}");
    rig.server.command(Command::Allow("cy".into()));
    assert!(matches!(rig.knock(3, "cy", None), Ok(Verdict::Admitted(_))));
}

#[test]
fn ten_wrong_passwords_from_an_address_make_it_wait_a_minute() {
    let mut rig = Rig::new("password", Some("open sesame"));
    let right = Some("open sesame");
    let first = rig.server.now;
    for _ in 0..10 {
        assert_eq!(
            refused(rig.knock(1, "ada", Some("guess"))),
            "wrong password"
        );
        // Within the side packets' rate (ten a second an address).
        rig.run(Duration::from_millis(200));
    }
    let why = refused(rig.knock(1, "ada", right));
    assert!(why.contains("too many wrong passwords"), "{why}");
    assert!(
        matches!(rig.knock(2, "bo", right), Ok(Verdict::Admitted(_))),
        "another address"
    );
    // The minute counts from the first wrong one.
    rig.run((first + Duration::from_millis(59_500)) - rig.server.now);
    assert!(refused(rig.knock(1, "ada", right)).contains("too many"));
    rig.run(Duration::from_millis(500));
    assert!(matches!(
        rig.knock(1, "ada", right),
        Ok(Verdict::Admitted(_))
    ));
}

#[test]
fn a_client_that_floods_is_dropped_and_the_others_play_on() {
    let mut rig = Rig::new("flood", None);
    let (flood, calm) = (rig.join(1, "flood"), rig.join(2, "calm"));
    for _ in 0..200 {
        rig.players[flood].send(&ToServer::Chat("x".into()));
    }
    rig.run(Duration::from_millis(300));
    assert_eq!(
        rig.players[flood].refused(),
        Some("too many messages (a flood)")
    );
    assert_eq!(rig.clients(), 1);
    rig.players[calm].take();
    rig.players[calm].send(&ToServer::Chat("still here".into()));
    rig.run(Duration::from_millis(200));
    let heard = rig.players[calm].take();
    assert!(
        heard
            .iter()
            .any(|m| matches!(m, ToClient::Chat(_, t) if t == "still here")),
        "{heard:?}"
    );
    assert!(!heard.iter().any(|m| matches!(m, ToClient::Refused(_))));
    assert_eq!(rig.clients(), 1, "the calm one still plays");
}

#[test]
fn the_backlog_is_every_edit_then_done_before_any_change() {
    let mut rig = Rig::new("backlog", None);
    let mut edits = Edits::new();
    let mut made = Vec::new();
    for i in 0..40_000 {
        let p = BlockPos::new(i % 200 * 3, 10 + i / 8_000, i / 200 * 5);
        edits.set(p, Block::Brick);
        made.push((p, Block::Brick));
    }
    rig.server.authority.replace(WorldConfig::default(), edits);
    let i = rig.join(1, "ada");
    let got = rig.players[i].take();
    let mut backlog = Vec::new();
    let mut done = false;
    for m in got {
        match m {
            ToClient::Blocks {
                backlog: true,
                changes,
            } => {
                assert!(!done, "backlog after done");
                backlog.extend(changes);
            }
            ToClient::Blocks { backlog: false, .. } => assert!(done, "a change before done"),
            ToClient::BacklogDone => done = true,
            _ => {}
        }
    }
    backlog.sort();
    made.sort();
    assert!(done);
    assert_eq!(backlog, made, "every edit, once");
}

#[test]
fn an_edit_waits_two_seconds_for_its_player_and_is_then_refused() {
    let mut rig = Rig::new("waiting", None);
    let i = rig.join(1, "ada");
    rig.players[i].take();
    // No move yet: the server does not know where she is, so the edit waits.
    rig.players[i].send(&ToServer::Act {
        seq: 7,
        action: Action::Break(BlockPos::new(0, 0, 0)),
    });
    rig.run(Duration::from_millis(1800));
    let answered = |p: &Player| {
        p.got.iter().find_map(|m| match m {
            ToClient::Answer(a) if a.seq == 7 => Some(*a),
            _ => None,
        })
    };
    assert_eq!(answered(&rig.players[i]), None, "still waiting");
    rig.run(Duration::from_millis(400));
    let answer = answered(&rig.players[i]).expect("answered after two seconds");
    assert_eq!(answer.refused, Some(Refusal::UnknownPlayer));
}

#[test]
fn a_move_too_fast_is_put_back_and_moves_made_before_the_correction_are_not_judged() {
    let mut rig = Rig::new("moves", None);
    let i = rig.join(1, "ada");
    rig.players[i].take();
    rig.players[i].send(&ToServer::Move(pose(0.5, 200.0, 0.5), 0));
    rig.run(Duration::from_secs(1));
    // 150 blocks in a second.
    rig.players[i].send(&ToServer::Move(pose(150.5, 200.0, 0.5), 0));
    rig.run(Duration::from_millis(200));
    let corrections: Vec<_> = rig.players[i]
        .take()
        .into_iter()
        .filter_map(|m| match m {
            ToClient::Correct {
                feet,
                corrections,
                why,
            } => Some((feet, corrections, why)),
            _ => None,
        })
        .collect();
    assert_eq!(corrections.len(), 1, "{corrections:?}");
    let (feet, n, why) = &corrections[0];
    assert_eq!((*feet, *n), ([0.5, 200.0, 0.5], 1));
    assert!(why.contains("fast"), "{why}");
    // Sent before it took the correction: not judged, not corrected again.
    rig.players[i].send(&ToServer::Move(pose(151.0, 200.0, 0.5), 0));
    rig.run(Duration::from_millis(200));
    assert!(
        !rig.players[i]
            .take()
            .iter()
            .any(|m| matches!(m, ToClient::Correct { .. }))
    );
    let id = rig
        .server
        .clients
        .values()
        .find_map(|c| c.id())
        .expect("ada");
    assert_eq!(
        rig.server.authority.players().feet(id),
        Some([0.5, 200.0, 0.5])
    );
}

#[test]
fn the_water_reaches_a_client_within_its_budget_nearest_first() {
    let mut rig = Rig::new("budget", None);
    let i = rig.join(1, "ada");
    rig.players[i].send(&ToServer::Move(pose(0.5, 20.0, 0.5), 0));
    rig.run(Duration::from_millis(200));
    rig.players[i].take();
    // 64 chunks of 512 changed blocks, in a row going away from her.
    let far = |k: i32| (0..512).map(move |j| BlockPos::new(k * 32 + j % 32, 20, j / 32));
    for c in rig.server.clients.values_mut() {
        for k in (0..64).rev() {
            for p in far(k) {
                c.changed(p, Block::FlowingWater3, false);
            }
        }
    }
    rig.run(Duration::from_secs(2));
    let sent: Vec<BlockPos> = rig.players[i]
        .take()
        .into_iter()
        .filter_map(|m| match m {
            ToClient::Blocks {
                backlog: false,
                changes,
            } => Some(changes),
            _ => None,
        })
        .flatten()
        .map(|(p, _)| p)
        .collect();
    // Two seconds of budget at about 1.5 bytes a block, and one chunk's overdraw.
    let most = (2.0 * WATER_BYTES_PER_SECOND / 1.5) as usize + 512;
    assert!(
        !sent.is_empty() && sent.len() <= most,
        "{} blocks sent",
        sent.len()
    );
    let chunks: Vec<i32> = sent.iter().map(|p| p.x.div_euclid(32)).collect();
    assert!(chunks.is_sorted(), "nearest first");
    assert_eq!(chunks[0], 0);
}

#[test]
fn packets_read_a_tick_are_capped_and_side_packets_limited_per_address() {
    let mut rig = Rig::new("caps", None);
    let junk = address(9);
    let _ = rig.hub.wire(junk);
    for _ in 0..5000 {
        rig.hub.send(&[5; 40], junk, SERVER);
    }
    rig.tick();
    assert_eq!(
        rig.hub.waiting(SERVER),
        5000 - 2048,
        "the rest wait for the next tick"
    );
    rig.tick();
    rig.tick();
    assert_eq!(rig.hub.waiting(SERVER), 0);
    // Thirty queries from one address in a tick: ten answered; another address is.
    let (loud, other) = (address(10), address(11));
    let (_a, _b) = (rig.hub.wire(loud), rig.hub.wire(other));
    for _ in 0..30 {
        rig.hub
            .send(&transport::query_packet(&[1; 16]), loud, SERVER);
    }
    rig.hub
        .send(&transport::query_packet(&[2; 16]), other, SERVER);
    rig.tick();
    assert_eq!(rig.hub.take(loud).len(), 10);
    assert_eq!(rig.hub.take(other).len(), 1);
    // A second later it may ask again.
    rig.run(Duration::from_secs(1));
    rig.hub
        .send(&transport::query_packet(&[1; 16]), loud, SERVER);
    rig.tick();
    assert_eq!(rig.hub.take(loud).len(), 1);
}

#[test]
fn a_name_whose_link_died_may_join_again_and_a_live_one_may_not() {
    let mut rig = Rig::new("silent", None);
    let me = Identity::generate();
    rig.join_as(&me, 1, "ada");
    // Heard from within the second: the name is taken.
    let again = rig.connect_as(&me, 2, "ada");
    rig.players[again].hello("ada");
    rig.run(Duration::from_millis(300));
    let why = rig.players[again].refused().expect("refused");
    assert!(why.contains("already playing"), "{why}");
    rig.run(Duration::from_millis(300));
    // Her first link goes silent (her game crashed); a second later she is back.
    rig.hub.cut(address(1), true);
    rig.run(Duration::from_millis(1200));
    rig.join_as(&me, 3, "ada");
    rig.run(Duration::from_millis(300));
    assert_eq!(rig.clients(), 1, "the silent connection replaced");
    let names: Vec<&str> = rig
        .server
        .clients
        .values()
        .filter_map(|c| c.name())
        .collect();
    assert_eq!(names, ["ada"]);
}

/// The poses `player` was sent since it was last asked, by the id of whom.
fn poses_got(player: &mut Player) -> Vec<(u64, Pose)> {
    player
        .take()
        .into_iter()
        .filter_map(|m| match m {
            ToClient::Players(p) => Some(p),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn a_player_is_told_of_others_by_distance_and_of_none_beyond_the_tracking_range() {
    let mut rig = Rig::new("tracking", None);
    // In the air, 200 blocks up: a world where everyone flies.
    rig.server.options.allow_flying = true;
    let [ada, bo, cy] = [(1, "ada"), (2, "bo"), (3, "cy")].map(|(n, name)| rig.join(n, name));
    // Bo 20 blocks from ada, cy 400 from her and 380 from bo (first moves: where
    // each starts).
    for (i, x) in [(ada, 0.5), (bo, 20.5), (cy, 400.5)] {
        rig.players[i].send(&ToServer::Move(pose(x, 200.0, 0.5), 0));
    }
    rig.run(Duration::from_millis(300));
    let ids: Vec<u64> = [ada, bo, cy]
        .map(|i| {
            let me = rig.players[i].got.iter().find_map(|m| match m {
                ToClient::Welcome(w) => Some(w.you),
                _ => None,
            });
            me.expect("welcomed")
        })
        .to_vec();
    for i in [ada, bo, cy] {
        rig.players[i].take();
    }
    // Bo walks 2 blocks a second for 2 s: ada is told every update, each pose new.
    for step in 1..=60 {
        let x = 20.5 + f64::from(step) * 2.0 / 30.0;
        rig.players[bo].send(&ToServer::Move(pose(x, 200.0, 0.5), 0));
        rig.tick();
    }
    let of_bo: Vec<Pose> = poses_got(&mut rig.players[ada])
        .into_iter()
        .filter_map(|(id, p)| (id == ids[1]).then_some(p))
        .collect();
    assert!((18..=21).contains(&of_bo.len()), "{}", of_bo.len());
    assert!(of_bo.windows(2).all(|w| w[0].feet[0] < w[1].feet[0]));
    // Bo stands still for 3 s: ada is told once a second that it is still there.
    rig.run(Duration::from_secs(3));
    let still = poses_got(&mut rig.players[ada]);
    let of_bo = still.iter().filter(|(id, _)| *id == ids[1]).count();
    assert!((2..=4).contains(&of_bo), "{of_bo} of bo standing still");
    // Nothing of cy reached ada or bo, nor of them cy.
    assert!(!still.iter().any(|(id, _)| *id == ids[2]));
    assert!(
        !poses_got(&mut rig.players[bo])
            .iter()
            .any(|(id, _)| *id == ids[2])
    );
    assert!(poses_got(&mut rig.players[cy]).is_empty());
    // Dy joins 200 blocks from ada and walks: she is told of it every fourth update.
    let dy = rig.join(4, "dy");
    rig.players[dy].send(&ToServer::Move(pose(200.5, 200.0, 0.5), 0));
    rig.run(Duration::from_millis(300));
    poses_got(&mut rig.players[ada]);
    for step in 1..=60 {
        let x = 200.5 + f64::from(step) * 2.0 / 30.0;
        rig.players[dy].send(&ToServer::Move(pose(x, 200.0, 0.5), 0));
        rig.tick();
    }
    let of_dy = poses_got(&mut rig.players[ada])
        .iter()
        .filter(|(id, _)| !ids.contains(id))
        .count();
    assert!((4..=6).contains(&of_dy), "{of_dy} of dy in 2 s");
}

/// Blocks, as sent.
type Blocks = Vec<(BlockPos, Block)>;

/// The blocks `player` was sent since it was last asked: of the backlog (or owed
/// chunks), and as changes.
fn blocks_got(player: &mut Player) -> (Blocks, Blocks) {
    let (mut owed, mut changes) = (Vec::new(), Vec::new());
    for m in player.take() {
        if let ToClient::Blocks {
            backlog,
            changes: c,
        } = m
        {
            if backlog { &mut owed } else { &mut changes }.extend(c);
        }
    }
    (owed, changes)
}

#[test]
fn edits_beyond_the_reach_wait_until_the_player_comes_near_then_come_whole() {
    let mut rig = Rig::new("reach", None);
    rig.server.options.allow_flying = true;
    rig.server.options.reaches = super::Reaches {
        edits: 256.0,
        water: 128.0,
    };
    // A brick near the origin, one 400 blocks east, water 300 blocks east.
    let near = BlockPos::new(5, 100, 5);
    let far = BlockPos::new(400, 100, 5);
    let wet = BlockPos::new(300, 100, 5);
    let mut edits = Edits::new();
    edits.set(near, Block::Brick);
    edits.set(far, Block::Brick);
    rig.server
        .authority
        .replace(WorldConfig::default(), edits.clone());
    let ada = rig.join(1, "ada");
    let welcome = rig.players[ada].got.iter().find_map(|m| match m {
        ToClient::Welcome(w) => Some(w.backlog),
        _ => None,
    });
    assert_eq!(
        welcome,
        Some(1),
        "the backlog counts the edits within reach"
    );
    assert_eq!(blocks_got(&mut rig.players[ada]).0, [(near, Block::Brick)]);
    rig.players[ada].send(&ToServer::Move(pose(0.5, 200.0, 0.5), 0));
    rig.run(Duration::from_millis(300));
    // Meanwhile the far brick becomes glass (a player's edit) and water flows at
    // 300: both beyond their reach, so neither is sent.
    edits.set(far, Block::Planks);
    edits.set(wet, Block::FlowingWater3);
    rig.server.authority.replace(WorldConfig::default(), edits);
    for c in rig.server.clients.values_mut() {
        c.changed(far, Block::Planks, true);
        c.changed(wet, Block::FlowingWater3, false);
    }
    rig.run(Duration::from_millis(500));
    assert_eq!(blocks_got(&mut rig.players[ada]), (vec![], vec![]));
    // Ada flies east to x = 200, 40 blocks a second: the far chunk comes within
    // 256 blocks and the water within 128, each whole as it is now.
    let mut x = 0.5;
    let mut seen = Vec::new();
    while x < 200.0 {
        x += 40.0 / 30.0;
        rig.players[ada].send(&ToServer::Move(pose(x, 200.0, 0.5), 0));
        rig.tick();
        let (owed, changes) = blocks_got(&mut rig.players[ada]);
        assert!(changes.is_empty(), "{changes:?}");
        seen.extend(owed.into_iter().map(|b| (b, x)));
    }
    let blocks: Blocks = seen.iter().map(|(b, _)| *b).collect();
    assert_eq!(blocks, [(far, Block::Planks), (wet, Block::FlowingWater3)]);
    // Each as it came within its reach: the chunks' middles are 400 and 304 east,
    // so at 144 and 176, or within the chunk she was entering then (the list of
    // what is due is made again as she enters each chunk).
    assert!((144.0..176.0).contains(&seen[0].1), "{seen:?}");
    assert!((176.0..208.0).contains(&seen[1].1), "{seen:?}");
}

/// What a link of `one_way` latency that loses every `lose_every`th datagram does
/// to the World channel, with this server's connection config, over 4 s of
/// messages both ways every 50 ms (renet alone, no netcode): the server's and the
/// client's resend times at the end, and each server message's time on the way,
/// with when it was sent.
#[allow(clippy::type_complexity)]
fn over_a_link(
    one_way: Duration,
    lose_every: usize,
) -> (Duration, Duration, Vec<(Duration, Duration)>) {
    let step = Duration::from_millis(5);
    let mut server = renet::RenetServer::new(connection_config());
    let mut client = RenetClient::new(connection_config());
    client.set_connected();
    server.add_connection(7);
    // (arrives at, to the client, the datagram)
    let mut wire: Vec<(Duration, bool, Vec<u8>)> = Vec::new();
    let (mut sent, mut took) = (Vec::new(), Vec::new());
    let mut datagrams = 0usize;
    let mut now = Duration::ZERO;
    while now < Duration::from_secs(6) {
        now += step;
        server.update(step);
        client.update(step);
        if now < Duration::from_secs(4) && now.as_millis().is_multiple_of(50) {
            let n = sent.len() as u32;
            sent.push(now);
            server.send_message(7, Channel::World, n.to_le_bytes().to_vec());
            client.send_message(Channel::World, n.to_le_bytes().to_vec());
        }
        let mut out: Vec<(bool, Vec<u8>)> = Vec::new();
        out.extend(
            server
                .get_packets_to_send(7)
                .unwrap()
                .into_iter()
                .map(|p| (true, p)),
        );
        out.extend(client.get_packets_to_send().into_iter().map(|p| (false, p)));
        for (to_client, p) in out {
            datagrams += 1;
            if !datagrams.is_multiple_of(lose_every) {
                wire.push((now + one_way, to_client, p));
            }
        }
        for (_, to_client, p) in wire.extract_if(.., |(at, _, _)| *at <= now) {
            if to_client {
                client.process_packet(&p);
            } else {
                server.process_packet_from(&p, 7).unwrap();
            }
        }
        while let Some(m) = client.receive_message(Channel::World) {
            let n = u32::from_le_bytes(m[..4].try_into().unwrap()) as usize;
            took.push((sent[n], now - sent[n]));
        }
        while server.receive_message(7, Channel::World).is_some() {}
    }
    assert_eq!(took.len(), sent.len(), "every message arrived");
    let world = u8::from(Channel::World);
    (
        server.resend_time(7, world).unwrap(),
        client.resend_time(world).unwrap(),
        took,
    )
}

#[test]
fn the_resend_time_follows_the_links_round_trips_so_a_loss_costs_about_one() {
    let (fast_server, fast_client, _) = over_a_link(Duration::from_millis(2), usize::MAX);
    let (slow_server, slow_client, _) = over_a_link(Duration::from_millis(40), usize::MAX);
    for (fast, slow) in [(fast_server, slow_server), (fast_client, slow_client)] {
        assert!(fast < slow, "{fast:?} on 2 ms, {slow:?} on 40 ms");
        assert!(fast >= renet::MIN_RESEND_TIME, "{fast:?}");
        // At least the round trip, at most the configured 200 ms.
        assert!(slow >= Duration::from_millis(80), "{slow:?}");
        assert!(slow <= Duration::from_millis(200), "{slow:?}");
    }
    // One datagram in 20 lost on a 40 ms link: a lost message arrives a resend
    // time (about 85 ms here) late, not the configured 200 ms (it took 280 then).
    let (_, _, took) = over_a_link(Duration::from_millis(40), 20);
    let mut all: Vec<Duration> = took.iter().map(|t| t.1).collect();
    all.sort();
    let worst = all[all.len() - 1];
    assert!(worst < Duration::from_millis(200), "{worst:?}");
    assert!(all[all.len() / 2] < Duration::from_millis(50));
    // Once renet measured the loss, each message goes twice 10 ms apart: a lost
    // one arrives the gap late (two lost together, on this link, never).
    let later = (took.iter()).filter(|(at, _)| *at >= Duration::from_secs(2));
    let worst = later.map(|t| t.1).max().unwrap();
    assert!(worst <= Duration::from_millis(55), "{worst:?}");
}
