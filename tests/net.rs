//! Playing together, with real processes on loopback: a `terravox serve` and headless
//! clients (`terravox bot`) of this build. An edit on one client appears on the
//! other; two clients' water equals the server's after a dam break; a killed client
//! reconnects and sees every edit; a server killed with SIGKILL and started again
//! holds every acknowledged edit; garbage on the port and in a connection drops only
//! its sender; a wrong password is refused with its message; a flood is limited
//! while the other players play on; a player is told where the near players are
//! and never of one beyond the tracking range; a far edit is not sent until the
//! player comes near, then it is; a swarm of clients in one process each ends with
//! the server's world; a client whose build makes another
//! world is refused. `public` holds what a server open to the internet must hold.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use terravox_net::loopback::{Process, ServerProcess, bot, fresh_dir};

const WAIT: Duration = Duration::from_secs(60);

fn exe() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_terravox"))
}

fn dir(name: &str) -> PathBuf {
    fresh_dir(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &format!("net-{name}"),
    )
}

/// A bot joined and ready (the backlog laid, the terrain around it made): the bot
/// and where it stands.
fn ready(server: &ServerProcess, name: &str, extra: &[&str]) -> (Process, [i32; 3]) {
    let b = server.bot(exe(), name, extra, &[]).unwrap();
    let at = settled(&b);
    (b, at)
}

/// Waits until bot `b` is ready (the backlog laid, the terrain around it made):
/// where it stands.
fn settled(b: &Process) -> [i32; 3] {
    let at = b.wait_for(0, WAIT, |l| l.starts_with("at ")).unwrap();
    let v: Vec<f64> = at
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().unwrap())
        .collect();
    b.wait_for(0, WAIT, |l| l.starts_with("ready ")).unwrap();
    [
        v[0].floor() as i32,
        v[1].floor() as i32,
        v[2].floor() as i32,
    ]
}

/// Waits until process `p` has written nothing for three seconds.
fn quiet(p: &Process) {
    let mut last = 0;
    loop {
        std::thread::sleep(Duration::from_secs(3));
        let n = p.lines().len();
        if n == last {
            return;
        }
        last = n;
    }
}

/// The `acked` lines of a bot: where and what.
fn acked(b: &Process) -> Vec<([i32; 3], String)> {
    b.lines()
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.first() == Some(&"acked")).then(|| {
                let n = |i: usize| w[i].parse::<i32>().unwrap();
                ([n(2), n(3), n(4)], w[5].to_owned())
            })
        })
        .collect()
}

/// A bot's dump of its world's edits: position to block name.
fn dumped(b: &mut Process, file: &Path) -> BTreeMap<[i32; 3], String> {
    let from = b.lines().len();
    b.send(&format!("dump {}", file.display()));
    b.wait_for(from, WAIT, |l| l.starts_with("dumped "))
        .unwrap();
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| w[i].parse::<i32>().unwrap();
            ([n(0), n(1), n(2)], w[3].to_owned())
        })
        .collect()
}

#[test]
fn an_edit_on_one_client_appears_on_the_other() {
    let server = ServerProcess::start(exe(), &dir("edit"), &[]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let (bo, _) = ready(&server, "bo", &[]);
    let ground = format!("{} {} {}", x + 1, y - 1, z);
    ada.send(&format!("break {ground}"));
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 1 "))
        .unwrap();
    let seen = bo
        .wait_for(0, WAIT, |l| l.starts_with(&format!("seen {ground} ")))
        .unwrap();
    assert!(
        !seen.contains(" stone ") && !seen.contains(" sand "),
        "{seen}"
    );
    ada.send(&format!("place {ground} brick"));
    bo.wait_for(0, WAIT, |l| l.starts_with(&format!("seen {ground} brick")))
        .unwrap();
    server.stop().unwrap();
}

#[test]
fn a_killed_client_reconnects_and_sees_every_edit() {
    let saves = dir("reconnect");
    let server = ServerProcess::start(exe(), &saves, &[]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let (mut bo, _) = ready(&server, "bo", &[]);
    for (i, dz) in [-2, 0, 2].into_iter().enumerate() {
        ada.send(&format!("place {} {} {} brick", x + 2, y, z + dz));
        ada.wait_for(0, WAIT, |l| l.starts_with(&format!("acked {} ", i + 1)))
            .unwrap();
    }
    ada.kill();
    for dz in [-1, 1] {
        bo.send(&format!("place {} {} {} planks", x + 3, y, z + dz));
    }
    bo.wait_for(0, WAIT, |l| l.starts_with("acked 2 ")).unwrap();
    // A connection silent for a second is taken for gone when its name joins again
    // (the killed game sends nothing more).
    std::thread::sleep(Duration::from_millis(1500));
    let (mut again, _) = ready(&server, "ada", &[]);
    let joined = again
        .wait_for(0, WAIT, |l| l.starts_with("joined "))
        .unwrap();
    assert_eq!(joined.split_whitespace().nth(2), Some("5"), "{joined}");
    let world = dumped(&mut again, &saves.join("ada.txt"));
    for (p, b) in acked(&ada).into_iter().chain(acked(&bo)) {
        assert_eq!(world.get(&p), Some(&b), "{p:?}");
    }
    assert_eq!(world.len(), 5);
    server.stop().unwrap();
}

#[test]
fn a_server_killed_with_sigkill_keeps_every_acknowledged_edit() {
    let saves = dir("sigkill");
    let mut server = ServerProcess::start(exe(), &saves, &[]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    // Edits at distinct places on the land beside the player (bricks on the ground,
    // then a second layer), sent as fast as the rules allow, and the server killed
    // while they arrive.
    for i in 0..60 {
        ada.send(&format!(
            "place {} {} {} brick",
            x + 2 + i % 7,
            y + i / 49,
            z - 3 + i / 7 % 7
        ));
    }
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 20 "))
        .unwrap();
    server.process.kill();
    let kept = acked(&ada);
    assert!(kept.len() >= 20, "{} acknowledged", kept.len());
    drop(ada);
    let server = ServerProcess::start(exe(), &saves, &[]).unwrap();
    let (mut after, _) = ready(&server, "bo", &[]);
    let world = dumped(&mut after, &saves.join("after.txt"));
    for (p, b) in &kept {
        assert_eq!(world.get(p), Some(b), "acknowledged edit at {p:?} lost");
    }
    server.stop().unwrap();
}

#[test]
fn garbage_drops_its_sender_only() {
    let server = ServerProcess::start(exe(), &dir("garbage"), &[]).unwrap();
    // Datagrams of every kind of garbage at the server's port.
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut state = 0x1234_5678_9abc_def1_u64;
    for i in 0..20_000usize {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 1300) as usize;
        let mut packet: Vec<u8> = (0..len)
            .map(|j| (state >> (j % 8 * 8)) as u8 ^ j as u8)
            .collect();
        if let Some(first) = packet.first_mut() {
            // Every kind of first byte: netcode's packet types and the side packets.
            *first = (i % 9) as u8 | if i % 3 == 0 { 0xf0 } else { 0 };
        }
        let _ = socket.send_to(&packet, server.address());
    }
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let (mut bo, _) = ready(&server, "bo", &[]);
    // Messages that are no message, inside a connection: that client alone goes.
    bo.send("garbage 3");
    bo.wait_for(0, WAIT, |l| {
        l.starts_with("refused-player ") || l.starts_with("ended ")
    })
    .unwrap();
    ada.send(&format!("place {} {} {} brick", x + 2, y, z));
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 1 "))
        .unwrap();
    server.stop().unwrap();
}

#[test]
fn a_wrong_password_is_refused_with_its_message() {
    let server =
        ServerProcess::start(exe(), &dir("password"), &["--password", "open sesame"]).unwrap();
    // It says so at start (the line after the address).
    server
        .process
        .wait_for(0, WAIT, |l| l.contains("password set"))
        .unwrap();
    for (given, expected) in [
        (Some("close sesame"), "wrong password"),
        (None, "wants a password"),
    ] {
        let extra: Vec<&str> = given.map(|p| vec!["--password", p]).unwrap_or_default();
        let mut b = server.bot(exe(), "eve", &extra, &[]).unwrap();
        let status = b.wait_exit(WAIT).expect("the bot ends");
        assert!(!status.success());
        let errors = b.errors().join("\n");
        assert!(errors.contains(expected), "{errors}");
    }
    let (mut ada, [x, y, z]) = ready(&server, "ada", &["--password", "open sesame"]);
    ada.send(&format!("break {} {} {}", x + 1, y - 1, z));
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 1 "))
        .unwrap();
    server.stop().unwrap();
}

#[test]
fn a_flood_is_limited_while_the_others_play_on() {
    let server = ServerProcess::start(exe(), &dir("flood"), &[]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let (mut bo, _) = ready(&server, "bo", &[]);
    bo.send("flood 5000");
    let dropped = bo
        .wait_for(0, WAIT, |l| {
            l.starts_with("refused-player ") || l.starts_with("ended ")
        })
        .unwrap();
    assert!(
        dropped.contains("flood") || dropped.starts_with("ended"),
        "{dropped}"
    );
    for i in 0..5 {
        ada.send(&format!("place {} {} {} brick", x + 2, y, z - 2 + i));
    }
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 5 "))
        .unwrap();
    server
        .process
        .wait_for(0, WAIT, |l| l.contains("dropping bo: too many messages"))
        .unwrap();
    server.stop().unwrap();
}

#[test]
fn a_client_whose_build_makes_another_world_is_refused() {
    let server = ServerProcess::start(exe(), &dir("other"), &[]).unwrap();
    let mut b = server
        .bot(exe(), "eve", &[], &[("TERRAVOX_TEST_OTHER_BLOCKS", "1")])
        .unwrap();
    let status = b.wait_exit(WAIT).expect("the bot ends");
    assert!(!status.success());
    let errors = b.errors().join("\n");
    assert!(
        errors.contains("makes other blocks than the server's"),
        "{errors}"
    );
    assert!(
        errors.contains("generator version 9") && errors.contains("terravox 0."),
        "{errors}"
    );
    server.stop().unwrap();
}

#[test]
fn a_world_opened_to_others_is_joined_and_keeps_its_edits() {
    use bevy::prelude::*;
    use terravox_game::{Hosting, OpenToOthers, PlayOptions, Session, WorldAuthority};
    let saves = dir("host");
    let mut options = PlayOptions::new(terravox_worldgen::WorldConfig::default());
    options.save_dir = Some(saves.clone());
    options.server_exe = Some(exe().to_owned());
    options.view_distance = 3;
    options.horizon = 0;
    let mut app = terravox_game::headless_app(options);
    // Its workers run at the lowest priority: under load (the other tests' servers
    // and bots) the world takes a while.
    let started = std::time::Instant::now();
    while !terravox_game::settled(app.world()) {
        app.update();
        std::thread::sleep(Duration::from_millis(1));
        assert!(started.elapsed() < WAIT * 2, "the world never settled");
    }
    // An edit made alone, before the world is opened.
    let feet = app
        .world()
        .resource::<WorldAuthority>()
        .players()
        .feet(terravox_game::LOCAL_PLAYER)
        .unwrap();
    let below = terravox_voxel::BlockPos::containing_f64(feet).offset([1, -1, 0]);
    let mut state =
        bevy::ecs::system::SystemState::<terravox_game::WorldBlocks>::new(app.world_mut());
    let mut blocks = state.get_mut(app.world_mut()).unwrap();
    blocks.set(below, terravox_voxel::Block::Brick).unwrap();
    state.apply(app.world_mut());
    app.world_mut().write_message(OpenToOthers {
        port: 0,
        password: None,
        name: "host".to_owned(),
    });
    let port = loop {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
        assert!(started.elapsed() < WAIT * 3, "the world was never opened");
        let playing = app
            .world()
            .get_resource::<Session>()
            .is_some_and(Session::playing);
        match app.world().resource::<Hosting>() {
            Hosting::Open(server) if playing => break server.port,
            Hosting::Failed(why) => panic!("{why}"),
            _ => {}
        }
    };
    assert_eq!(
        app.world().resource::<WorldAuthority>().role(),
        terravox_authority::Role::Client
    );
    // Another player joins the hosted world: the edit made alone is in it.
    let guest = terravox_net::loopback::profiles(&saves).join("guest");
    let mut b = bot(
        exe(),
        &format!("127.0.0.1:{port}"),
        "guest",
        &guest,
        &[],
        &[],
    )
    .unwrap();
    b.wait_for(0, WAIT, |l| l.starts_with("ready ")).unwrap();
    let world = dumped(&mut b, &saves.join("guest.txt"));
    assert_eq!(
        world.get(&[below.x, below.y, below.z]).map(String::as_str),
        Some("brick")
    );
    b.send("quit");
    // The player who opened it is its operator.
    let host = terravox_net::client::Profile::in_data(&saves)
        .identity()
        .unwrap()
        .public();
    let ops = std::fs::read_to_string(saves.join("ops.txt")).unwrap();
    assert!(ops.contains(&host.hex()), "{ops}");
    // The game ends: the server it started stops and saves.
    app.world_mut().write_message(AppExit::Success);
    app.update();
    assert!(matches!(app.world().resource::<Hosting>(), Hosting::Closed));
}

/// The players whose poses bot `b` had within the last 3 s, by name.
fn others(b: &mut Process) -> String {
    let from = b.lines().len();
    b.send("others");
    let line = b.wait_for(from, WAIT, |l| l.starts_with("others")).unwrap();
    line["others".len()..].trim().to_owned()
}

#[test]
fn a_player_is_told_where_the_near_players_are_and_never_of_one_beyond_the_range() {
    // Everyone flies: bo is 400 blocks off, in the air over whatever is there.
    let server = ServerProcess::start(exe(), &dir("tracking"), &["--allow-flying"]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let near = format!("{},{},{}", x + 8, y + 20, z);
    let far = format!("{},{},{}", x + 400, y + 20, z);
    let (mut cy, _) = ready(&server, "cy", &["--at", &near]);
    let (mut bo, _) = ready(&server, "bo", &["--at", &far]);
    // Over 4 s, ada hears of cy and never of bo; bo hears of nobody.
    let mut heard = Vec::new();
    for _ in 0..8 {
        std::thread::sleep(Duration::from_millis(500));
        heard.push(others(&mut ada));
        assert_eq!(others(&mut bo), "", "bo, 400 blocks off");
    }
    assert!(heard.iter().all(|h| h.is_empty() || h == "cy"), "{heard:?}");
    assert_eq!(heard.last().map(String::as_str), Some("cy"), "{heard:?}");
    assert_eq!(others(&mut cy), "ada");
    server.stop().unwrap();
}

#[test]
fn a_far_edit_is_not_sent_until_the_player_comes_near_then_it_is() {
    use terravox_worldgen::{Generator, WorldConfig};
    let server = ServerProcess::start(
        exe(),
        &dir("reach"),
        &[
            "--allow-flying",
            "--edit-reach",
            "256",
            "--water-reach",
            "128",
        ],
    )
    .unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    // Bo on dry land 320 to 800 blocks from her, along an axis (the server's world
    // is the default one): beyond the edit reach and its chunk.
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let sea = g.config().sea_level;
    let dry = |[x, z]: [i32; 2]| g.surface_height(x, z) > sea;
    let (way, far) = [[1, 0], [-1, 0], [0, 1], [0, -1]]
        .into_iter()
        .find_map(|d| {
            let at = |k: i32| [x + d[0] * k, z + d[1] * k];
            (320..800)
                .find(|&k| dry(at(k)) && dry(at(k + 1)))
                .map(|k| (d, k))
        })
        .expect("dry land 320 to 800 blocks off");
    let [bx, bz] = [x + way[0] * far, z + way[1] * far];
    let top = g.surface_height(bx, bz) + 1;
    let (mut bo, _) = ready(&server, "bo", &["--at", &format!("{bx},{top},{bz}")]);
    let [gx, gz] = [bx + way[0], bz + way[1]];
    let ground = [gx, g.surface_height(gx, gz), gz];
    bo.send(&format!("break {} {} {}", ground[0], ground[1], ground[2]));
    bo.wait_for(0, WAIT, |l| l.starts_with("acked 1 ")).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let file = dir("reach-dumps").join("ada.txt");
    assert_eq!(dumped(&mut ada, &file).get(&ground), None, "sent from afar");
    // Ada flies towards it at 40 blocks a second until 200 blocks from it.
    let mut k = 0;
    while k < far - 200 {
        k = (k + 40).min(far - 200);
        ada.send(&format!(
            "goto {} {} {}",
            x + way[0] * k,
            y + 30,
            z + way[1] * k
        ));
        ada.send("wait 1000");
    }
    ada.send("wait 2000");
    assert_eq!(
        dumped(&mut ada, &file).get(&ground).map(String::as_str),
        Some("air"),
        "{:?}",
        ada.lines()
            .iter()
            .filter(|l| l.starts_with("corrected "))
            .collect::<Vec<_>>()
    );
    drop(bo);
    server.stop().unwrap();
}

#[test]
fn a_swarm_of_clients_in_one_process_each_ends_with_the_servers_world() {
    // They pave flying over the tiles: a world that lets its players fly.
    let saves = dir("swarm");
    let server =
        ServerProcess::start(exe(), &saves, &["--allow-flying", "--max-players", "16"]).unwrap();
    let profiles = saves.join("swarm-profiles");
    let args: Vec<String> = [
        "bot",
        "--join",
        &server.address(),
        "--name",
        "sw",
        "--profile",
    ]
    .map(String::from)
    .into_iter()
    .chain([profiles.display().to_string()])
    .chain(["--swarm", "6", "--spread", "24"].map(String::from))
    .collect();
    let mut swarm = Process::start(exe(), &args, &[]).unwrap();
    let names: Vec<String> = (0..6).map(|i| format!("sw{i}")).collect();
    for name in &names {
        swarm
            .wait_for(0, WAIT, |l| l.starts_with(&format!("{name} ready ")))
            .unwrap();
    }
    swarm.send("* pave 12");
    quiet(&swarm);
    let acked = swarm
        .lines()
        .iter()
        .filter(|l| l.contains(" acked "))
        .count();
    assert!(acked >= 30, "{acked} edits acknowledged");
    for name in &names {
        let from = swarm.lines().len();
        swarm.send(&format!(
            "{name} dump {}",
            saves.join(format!("{name}.txt")).display()
        ));
        swarm
            .wait_for(from, WAIT, |l| l.starts_with(&format!("{name} dumped ")))
            .unwrap();
    }
    swarm.send("* quit");
    server.stop().unwrap();
    let world = terravox_worldgen::WorldConfig::default();
    let saved: BTreeMap<[i32; 3], String> = terravox_edits::SaveDir::new(&saves)
        .load(&world)
        .unwrap()
        .iter()
        .map(|(p, b)| ([p.x, p.y, p.z], terravox_net::bot::word(b)))
        .collect();
    assert!(saved.len() >= acked);
    // An edit the server refused was put back as the block was: an edit here that
    // is the generated block, and none in the server's world.
    let generator = terravox_worldgen::Generator::new(&world).unwrap();
    let generated = |[x, y, z]: [i32; 3]| {
        let (chunk, [lx, ly, lz]) = terravox_voxel::BlockPos::new(x, y, z).to_chunk();
        terravox_net::bot::word(generator.generate(chunk).get(lx, ly, lz))
    };
    for name in &names {
        let text = std::fs::read_to_string(saves.join(format!("{name}.txt"))).unwrap();
        let mine: BTreeMap<[i32; 3], String> = text
            .lines()
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let n = |i: usize| w[i].parse::<i32>().unwrap();
                ([n(0), n(1), n(2)], w[3].to_owned())
            })
            .filter(|(p, b)| saved.contains_key(p) || **b != generated(*p))
            .collect();
        assert_eq!(mine, saved, "{name}'s world is the server's");
    }
}

#[test]
fn a_second_server_on_a_world_in_use_is_refused_and_touches_nothing() {
    let saves = dir("twice");
    let first = ServerProcess::start(exe(), &saves, &[]).unwrap();
    let second = ServerProcess::start(exe(), &saves, &[]);
    let Err(why) = second else {
        panic!("a second server opened the world");
    };
    assert!(why.contains("open in another terravox"), "{why}");
    first.stop().unwrap();
}

#[path = "net/public.rs"]
mod public;

/// The long sweeps: `cargo test --release --workspace -- --ignored sweep::` (as
/// `.ci/run` does) runs them.
mod sweep {
    use super::*;

    #[test]
    #[ignore = "long sweep: .ci/run runs it"]
    fn two_clients_water_equals_the_servers_after_a_dam_break() {
        let saves = dir("water");
        let world = terravox_worldgen::WorldConfig::default();
        let spawn = terravox_worldgen::Generator::new(&world)
            .unwrap()
            .land_near_origin()
            .unwrap();
        let (lake, floor) = terravox_net::loopback::dam(&world, spawn);
        terravox_edits::SaveDir::new(&saves)
            .save(&world, &lake)
            .unwrap();
        // She stands in the air beside the dam: a world that lets players fly.
        let server = ServerProcess::start(exe(), &saves, &["--allow-flying"]).unwrap();
        let (mut ada, _) = ready(&server, "ada", &[]);
        let (mut bo, _) = ready(&server, "bo", &[]);
        for line in terravox_net::loopback::break_dam(floor) {
            ada.send(&line);
        }
        ada.wait_for(0, WAIT, |l| l.starts_with("acked 25 "))
            .unwrap();
        quiet(&bo);
        let flowed = bo
            .lines()
            .iter()
            .filter(|l| l.starts_with("seen ") && l.contains("water"))
            .count();
        assert!(flowed > 100, "the water flowed: {flowed} changes seen");
        let a = dumped(&mut ada, &saves.join("ada.txt"));
        let b = dumped(&mut bo, &saves.join("bo.txt"));
        server.stop().unwrap();
        let saved = terravox_edits::SaveDir::new(&saves).load(&world).unwrap();
        let saved: BTreeMap<[i32; 3], String> = saved
            .iter()
            .map(|(p, b)| ([p.x, p.y, p.z], terravox_net::bot::word(b)))
            .collect();
        assert_eq!(a, saved, "ada's world is the server's");
        assert_eq!(b, saved, "bo's world is the server's");
    }
}
