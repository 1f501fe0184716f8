//! A server open to the internet, with real processes on loopback: what another
//! player who knows the password captures of a session it can neither read nor
//! forge; a client that pinned a server refuses one with another identity; a name
//! bound to one key is refused to another; bans, the allowlist and operators, from
//! the console, in chat and in files edited by hand; where a player stood kept
//! across a restart; floods of handshakes, queries and connection requests limited
//! while the others play on; the resend time shorter on a fast link than on a slow
//! one; the metrics when asked for; and (a sweep) a 40 s outage that loses no edit.

use std::collections::BTreeSet;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::*;

/// Datagrams a relay passed: `true` on their way to the server.
type Captured = Arc<Mutex<Vec<(bool, Vec<u8>)>>>;

/// A UDP relay on loopback between one client and a server that keeps every
/// datagram it passes (what someone on the path captures), and can send captured
/// ones to the server again from the client's side of the path.
struct Relay {
    front: SocketAddr,
    back: Arc<UdpSocket>,
    server: SocketAddr,
    /// Datagrams to the server and from it, in order.
    captured: Captured,
    /// While set, nothing passes either way.
    blackout: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Relay {
    fn start(server: SocketAddr) -> Self {
        Self::start_delayed(server, Duration::ZERO)
    }

    /// A relay that holds every datagram `delay` before it passes it on (a link
    /// with that much latency each way).
    fn start_delayed(server: SocketAddr, delay: Duration) -> Self {
        let front = UdpSocket::bind("127.0.0.1:0").unwrap();
        let back = Arc::new(UdpSocket::bind("127.0.0.1:0").unwrap());
        let captured = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let blackout = Arc::new(AtomicBool::new(false));
        let relay = Self {
            front: front.local_addr().unwrap(),
            back: back.clone(),
            server,
            captured: captured.clone(),
            blackout: blackout.clone(),
            stop: stop.clone(),
        };
        front.set_nonblocking(true).unwrap();
        back.set_nonblocking(true).unwrap();
        std::thread::spawn(move || {
            let mut client = None;
            let mut buf = [0u8; 2048];
            // (when it passes, to the server, the datagram), in the order they came.
            let mut held: std::collections::VecDeque<(Instant, bool, Vec<u8>)> = Default::default();
            while !stop.load(Ordering::Relaxed) {
                let mut idle = true;
                while let Ok((n, from)) = front.recv_from(&mut buf) {
                    if blackout.load(Ordering::Relaxed) {
                        continue;
                    }
                    client = Some(from);
                    captured.lock().unwrap().push((true, buf[..n].to_vec()));
                    held.push_back((Instant::now() + delay, true, buf[..n].to_vec()));
                    idle = false;
                }
                while let Ok((n, _)) = back.recv_from(&mut buf) {
                    if blackout.load(Ordering::Relaxed) {
                        continue;
                    }
                    captured.lock().unwrap().push((false, buf[..n].to_vec()));
                    held.push_back((Instant::now() + delay, false, buf[..n].to_vec()));
                    idle = false;
                }
                while held.front().is_some_and(|(at, _, _)| *at <= Instant::now()) {
                    let Some((_, to_server, p)) = held.pop_front() else {
                        break;
                    };
                    if to_server {
                        let _ = back.send_to(&p, server);
                    } else if let Some(c) = client {
                        let _ = front.send_to(&p, c);
                    }
                }
                if idle {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        });
        relay
    }

    fn address(&self) -> String {
        self.front.to_string()
    }

    /// Sends every datagram captured on its way to the server again, as captured
    /// and with one byte flipped, from where the client's came.
    fn replay(&self) -> usize {
        let sent: Vec<Vec<u8>> = self
            .captured
            .lock()
            .unwrap()
            .iter()
            .filter(|(to_server, _)| *to_server)
            .map(|(_, p)| p.clone())
            .collect();
        for p in &sent {
            let _ = self.back.send_to(p, self.server);
            let mut flipped = p.clone();
            let i = flipped.len() / 2;
            flipped[i] ^= 0x40;
            let _ = self.back.send_to(&flipped, self.server);
            std::thread::sleep(Duration::from_micros(200));
        }
        sent.len()
    }

    /// Whether `needle` is in any datagram either way.
    fn saw(&self, needle: &[u8]) -> bool {
        self.captured
            .lock()
            .unwrap()
            .iter()
            .any(|(_, p)| p.windows(needle.len()).any(|w| w == needle))
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn server_addr(server: &ServerProcess) -> SocketAddr {
    server.address().parse().unwrap()
}

/// A bot that must be refused: what it wrote to standard error.
fn refused(mut b: Process) -> String {
    let status = b.wait_exit(WAIT).expect("the bot ends");
    assert!(!status.success(), "it joined: {:?}", b.lines());
    b.errors().join("\n")
}

/// A bot joined to `server` as `name` with the profile (the key) of `whose`.
fn posing(server: &ServerProcess, name: &str, whose: &str) -> Process {
    bot(
        exe(),
        &server.address(),
        name,
        &server.profile(whose),
        &[],
        &[],
    )
    .unwrap()
}

/// Sends a console command and waits for its answer.
fn console(server: &mut ServerProcess, line: &str, answer: &str) {
    let from = server.process.lines().len();
    server.process.send(line);
    server
        .process
        .wait_for(from, WAIT, |l| l.contains(answer))
        .unwrap();
}

#[test]
fn a_player_who_knows_the_password_can_neither_read_nor_forge_anothers_session() {
    const PASSWORD: &str = "open sesame";
    let server = ServerProcess::start(exe(), &dir("sealed"), &["--password", PASSWORD]).unwrap();
    let relay = Relay::start(server_addr(&server));
    // adalovelace plays through the relay (everything she sends and gets captured);
    // bo, who knows the password too, plays beside her.
    let mut ada = bot(
        exe(),
        &relay.address(),
        "adalovelace",
        &server.profile("adalovelace"),
        &["--password", PASSWORD],
        &[],
    )
    .unwrap();
    let v = settled(&ada);
    let (mut bo, _) = ready(&server, "bo", &["--password", PASSWORD]);
    let brick = format!("{} {} {}", v[0] + 2, v[1], v[2]);
    ada.send("say meet me at the old oak tree");
    bo.wait_for(0, WAIT, |l| l.contains("meet me at the old oak tree"))
        .unwrap();
    ada.send(&format!("place {brick} brick"));
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 1 "))
        .unwrap();
    bo.wait_for(0, WAIT, |l| l.starts_with(&format!("seen {brick} brick")))
        .unwrap();
    // Read: the password, her name and her chat are in no datagram either way.
    for needle in [
        &b"open sesame"[..],
        b"adalovelace",
        b"meet me at the old oak",
    ] {
        assert!(
            !relay.saw(needle),
            "{:?} captured",
            String::from_utf8_lossy(needle)
        );
    }
    // Forge: her captured datagrams sent again (as captured and altered) while she
    // plays and after she left make no edit and no join: bo breaks her brick, and
    // it stays broken.
    assert!(relay.replay() > 10);
    ada.send("quit");
    ada.wait_exit(WAIT).expect("she leaves");
    bo.send(&format!("break {brick}"));
    bo.wait_for(0, WAIT, |l| l.starts_with("acked 1 ")).unwrap();
    relay.replay();
    std::thread::sleep(Duration::from_secs(2));
    let (mut cy, _) = ready(&server, "cy", &["--password", PASSWORD]);
    let world = dumped(&mut cy, &server.save_dir.join("cy.txt"));
    let p: Vec<i32> = brick.split(' ').map(|w| w.parse().unwrap()).collect();
    assert_eq!(
        world.get(&[p[0], p[1], p[2]]).map(String::as_str),
        Some("air")
    );
    let joins = server
        .process
        .lines()
        .iter()
        .filter(|l| l.starts_with("adalovelace joined"))
        .count();
    assert_eq!(joins, 1, "{:?}", server.process.lines());
    server.stop().unwrap();
}

#[test]
fn a_client_that_pinned_a_server_refuses_one_with_another_identity() {
    let saves = dir("pinned");
    let first = ServerProcess::start(exe(), &saves, &[]).unwrap();
    let port = first.port.to_string();
    let (ada, _) = ready(&first, "ada", &[]);
    drop(ada);
    let profile = first.profile("ada");
    first.stop().unwrap();
    // Another server (another save, so another identity) on the same address.
    let impostor = ServerProcess::start_on(
        exe(),
        &dir("pinned-impostor"),
        &port,
        &["--bind", "127.0.0.1"],
    )
    .unwrap();
    let join = |extra: &[&str]| bot(exe(), &impostor.address(), "ada", &profile, extra, &[]);
    let errors = refused(join(&[]).unwrap());
    assert!(
        errors.contains("is not the one you joined before")
            && errors.contains("--accept-new-identity"),
        "{errors}"
    );
    // Accepted: joined, and pinned from then on.
    let mut b = join(&["--accept-new-identity"]).unwrap();
    b.wait_for(0, WAIT, |l| l.starts_with("ready ")).unwrap();
    b.send("quit");
    b.wait_exit(WAIT);
    let again = join(&[]).unwrap();
    again
        .wait_for(0, WAIT, |l| l.starts_with("ready "))
        .unwrap();
    impostor.stop().unwrap();
}

#[test]
fn a_name_is_its_first_keys_and_where_it_stood_is_kept_across_a_restart() {
    let saves = dir("names");
    // She goes to stand in the air: a world that lets players fly.
    let server = ServerProcess::start(exe(), &saves, &["--allow-flying"]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    // `goto` stands on a block's centre; a second after joining, as a body could.
    let there = [f64::from(x) + 3.5, f64::from(y) + 4.0, f64::from(z) - 1.5];
    ada.send("wait 1000");
    ada.send(&format!("goto {} {} {}", x + 3, y + 4, z - 2));
    ada.send("wait 600");
    ada.send("quit");
    ada.wait_exit(WAIT).expect("she leaves");
    // Someone else (another key) asks for her name: refused, silent or not.
    let other = posing(&server, "Ada", "eve");
    let errors = refused(other);
    assert!(errors.contains("belongs to another player"), "{errors}");
    server.stop().unwrap();
    // Started again: she comes back where she stood; the name is still hers alone.
    let server = ServerProcess::start(exe(), &saves, &["--allow-flying"]).unwrap();
    let back = server.bot(exe(), "ada", &[], &[]).unwrap();
    let at = back.wait_for(0, WAIT, |l| l.starts_with("at ")).unwrap();
    let got: Vec<f64> = at
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(got, there, "{at}; before: {:?}", ada.lines());
    let other = posing(&server, "ada", "eve");
    assert!(refused(other).contains("belongs to another player"));
    server.stop().unwrap();
}

#[test]
fn bans_the_allowlist_and_operators_hold_from_the_console_chat_and_files() {
    let saves = dir("access");
    let mut server = ServerProcess::start(exe(), &saves, &[]).unwrap();
    let join = |server: &ServerProcess, name: &str| server.bot(exe(), name, &[], &[]).unwrap();
    console(
        &mut server,
        "ban mallory griefed the spawn",
        "banned mallory",
    );
    let errors = refused(join(&server, "mallory"));
    assert!(
        errors.contains("banned from this server: griefed the spawn"),
        "{errors}"
    );
    // Operators give commands in chat; players cannot.
    console(&mut server, "op ada", "ada is an operator");
    let (mut ada, _) = ready(&server, "ada", &[]);
    let (mut bo, _) = ready(&server, "bo", &[]);
    bo.send("say /kick ada");
    bo.wait_for(0, WAIT, |l| l.contains("only this server's operators"))
        .unwrap();
    ada.send("say /ban bo stop that");
    bo.wait_for(0, WAIT, |l| {
        l.starts_with("refused-player ") && l.contains("banned from this server: stop that")
    })
    .unwrap();
    // bo's name and key are banned: he is refused by name, and with another name.
    assert!(refused(join(&server, "bo")).contains("stop that"));
    let bo_key = posing(&server, "bobby", "bo");
    assert!(refused(bo_key).contains("banned"));
    console(&mut server, "pardon bo", "2 bans of bo lifted");
    let (bo, _) = ready(&server, "bo", &[]);
    drop(bo);
    // The allowlist: on, only those on it (and operators) come in.
    console(&mut server, "allowlist on", "the allowlist is on");
    assert!(refused(join(&server, "cy")).contains("allowlist"));
    console(&mut server, "allow cy", "cy is on the allowlist");
    let (cy, _) = ready(&server, "cy", &[]);
    drop(cy);
    // Files edited by hand are taken up.
    let bans = saves.join("bans.txt");
    let text = std::fs::read_to_string(&bans).unwrap() + "cy went too far\n";
    std::fs::write(&bans, text).unwrap();
    server
        .process
        .wait_for(0, WAIT, |l| l.contains("bans.txt read"))
        .unwrap();
    assert!(refused(join(&server, "cy")).contains("went too far"));
    // An address: everyone from it.
    console(&mut server, "ban 127.0.0.1", "banned 127.0.0.1");
    ada.wait_for(0, WAIT, |l| l.starts_with("refused-player "))
        .unwrap();
    console(
        &mut server,
        "pardon 127.0.0.1",
        "1 bans of 127.0.0.1 lifted",
    );
    let (ada, _) = ready(&server, "ada", &[]);
    drop(ada);
    server.stop().unwrap();
}

/// What bot `b` says of its link: the round trip and the resend time, in ms.
fn link(b: &mut Process) -> (f64, f64) {
    let from = b.lines().len();
    b.send("link");
    let line = b.wait_for(from, WAIT, |l| l.starts_with("link ")).unwrap();
    let w: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    (w[0], w[1])
}

#[test]
fn the_resend_time_is_shorter_on_a_fast_link_than_on_a_slow_one() {
    let server = ServerProcess::start(exe(), &dir("resend"), &[]).unwrap();
    let (mut ada, _) = ready(&server, "ada", &[]);
    // Bo 40 ms from the server each way.
    let relay = Relay::start_delayed(server_addr(&server), Duration::from_millis(40));
    let mut bo = bot(
        exe(),
        &relay.address(),
        "bo",
        &server.profile("bo"),
        &[],
        &[],
    )
    .unwrap();
    settled(&bo);
    // Both play a few seconds, a message each way every moment (moves, the clock).
    std::thread::sleep(Duration::from_secs(4));
    let (fast_rtt, fast) = link(&mut ada);
    let (slow_rtt, slow) = link(&mut bo);
    eprintln!(
        "link: loopback {fast_rtt} ms, resend {fast} ms; relay {slow_rtt} ms, resend {slow} ms"
    );
    assert!(slow_rtt >= 80.0, "bo's round trip {slow_rtt} ms");
    assert!(fast_rtt < slow_rtt, "{fast_rtt} ms against {slow_rtt} ms");
    assert!(
        fast < slow,
        "resent after {fast} ms on loopback, {slow} ms at 80 ms"
    );
    assert!(
        slow >= slow_rtt && slow <= 200.0,
        "{slow} ms at {slow_rtt} ms"
    );
    drop(relay);
    server.stop().unwrap();
}

#[test]
fn floods_of_handshakes_queries_and_connection_requests_are_limited_while_others_play() {
    let server = ServerProcess::start(exe(), &dir("knocks"), &[]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let to = server_addr(&server);
    let flooding = Arc::new(AtomicBool::new(true));
    let flood = {
        let flooding = flooding.clone();
        std::thread::spawn(move || {
            // From another address of loopback: the limits are an address's.
            let socket = UdpSocket::bind("127.0.0.2:0").unwrap();
            let mut sent = 0u64;
            let mut state = 0x9e37_79b9_7f4a_7c15_u64;
            while flooding.load(Ordering::Relaxed) && sent < 400_000 {
                // About 20,000 a second: more than a server's socket takes in is lost
                // for everyone, whatever the server does.
                if sent.is_multiple_of(200) {
                    std::thread::sleep(Duration::from_millis(10));
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Handshakes of the right size, queries, netcode connection requests.
                let (first, len) = match sent % 3 {
                    0 => (0xff, 1209),
                    1 => (0xff, 384),
                    _ => (0x00, 1078),
                };
                let mut p: Vec<u8> = (0..len).map(|i| (state >> (i % 8 * 8)) as u8).collect();
                p[0] = first;
                p[1..5].copy_from_slice(if len == 384 { b"TVXQ" } else { b"TVXH" });
                let _ = socket.send_to(&p, to);
                sent += 1;
            }
            sent
        })
    };
    for i in 0..5 {
        ada.send(&format!("place {} {} {} brick", x + 2, y, z - 2 + i));
    }
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 5 "))
        .unwrap();
    // A new player joins meanwhile.
    let (bo, _) = ready(&server, "bo", &[]);
    drop(bo);
    flooding.store(false, Ordering::Relaxed);
    assert!(flood.join().unwrap() > 1000);
    server.stop().unwrap();
}

#[test]
fn a_player_moving_too_fast_through_a_wall_or_up_the_air_is_put_back() {
    let server = ServerProcess::start(exe(), &dir("moves"), &[]).unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    let home = [f64::from(x) + 0.5, f64::from(y), f64::from(z) + 0.5];
    let put_back = |ada: &Process, from: usize| {
        let line = ada
            .wait_for(from, WAIT, |l| l.starts_with("corrected "))
            .unwrap();
        let w: Vec<&str> = line.split_whitespace().collect();
        let at: Vec<f64> = w[1..4].iter().map(|v| v.parse().unwrap()).collect();
        assert_eq!(at, home, "{line}");
        w[4..].join(" ")
    };
    // 15 blocks in a tenth of a second: 150 blocks a second.
    ada.send("wait 1000");
    let from = ada.lines().len();
    ada.send(&format!("goto {} {y} {z}", x + 15));
    assert_eq!(put_back(&ada, from), "faster than a body moves");
    // Up into the air, a second later (slow enough), with nothing under it.
    ada.send("wait 1000");
    let from = ada.lines().len();
    ada.send(&format!("goto {x} {} {z}", y + 6));
    assert_eq!(put_back(&ada, from), "rising with nothing under it");
    // Through a wall of bricks two high, slowly enough.
    for dz in -1..=1 {
        for dy in 0..2 {
            ada.send(&format!("place {} {} {} brick", x + 2, y + dy, z + dz));
        }
    }
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 6 "))
        .unwrap();
    ada.send("wait 1000");
    let from = ada.lines().len();
    ada.send(&format!("goto {} {y} {z}", x + 4));
    let why = put_back(&ada, from);
    assert!(why == "through a block" || why == "inside a block", "{why}");
    server
        .process
        .wait_for(0, WAIT, |l| l.starts_with("put ada back"))
        .unwrap();
    server.stop().unwrap();
}

#[test]
fn the_metrics_are_served_in_prometheus_text_when_asked_for() {
    use std::io::{Read, Write};
    let server =
        ServerProcess::start(exe(), &dir("metrics"), &["--metrics", "127.0.0.1:0"]).unwrap();
    let line = server
        .process
        .wait_for(0, WAIT, |l| l.starts_with("metrics on http://"))
        .unwrap();
    let addr: SocketAddr = line["metrics on http://".len()..]
        .trim_end_matches("/metrics")
        .parse()
        .unwrap();
    let (mut ada, [x, y, z]) = ready(&server, "ada", &[]);
    ada.send(&format!("place {} {y} {z} brick", x + 2));
    ada.wait_for(0, WAIT, |l| l.starts_with("acked 1 "))
        .unwrap();
    let scrape = || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        write!(s, "GET /metrics HTTP/1.0\r\nHost: terravox\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        text
    };
    // Set once a second.
    let end = std::time::Instant::now() + WAIT;
    let text = loop {
        let text = scrape();
        if text.contains("terravox_players 1") && text.contains("terravox_edits_total 1") {
            break text;
        }
        assert!(std::time::Instant::now() < end, "{text}");
        std::thread::sleep(Duration::from_millis(300));
    };
    for name in [
        "terravox_tick_seconds{quantile=\"0.99\"}",
        "terravox_received_bytes_total",
        "terravox_water_due",
        "terravox_journal_bytes",
        "# TYPE terravox_edits_total counter",
    ] {
        assert!(text.contains(name), "{name} in\n{text}");
    }
    server.stop().unwrap();
}

/// The long ones: `.ci/run` runs them (`-- --ignored sweep::`).
mod sweep {
    use super::*;

    /// The `N` of every line of `b` that starts with `word N`.
    fn numbered(b: &Process, word: &str) -> BTreeSet<u32> {
        b.lines()
            .iter()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                (w.next() == Some(word)).then(|| w.next()?.parse().ok())?
            })
            .collect()
    }

    #[test]
    #[ignore = "long sweep: .ci/run runs it"]
    fn a_forty_second_outage_loses_no_edit() {
        let server = ServerProcess::start(exe(), &dir("outage"), &[]).unwrap();
        let relay = Relay::start(server_addr(&server));
        let mut ada = bot(
            exe(),
            &relay.address(),
            "ada",
            &server.profile("ada"),
            &["--rejoin"],
            &[],
        )
        .unwrap();
        let v = settled(&ada);
        let place = |ada: &mut Process, i: i32| {
            ada.send(&format!(
                "place {} {} {} brick",
                v[0] + 2 + i % 5,
                v[1],
                v[2] - 2 + i / 5
            ));
        };
        for i in 0..3 {
            place(&mut ada, i);
        }
        ada.wait_for(0, WAIT, |l| l.starts_with("acked 3 "))
            .unwrap();
        // The link goes down for 40 s, past netcode's 15 s: she goes on building.
        relay.blackout.store(true, Ordering::Relaxed);
        let down = std::time::Instant::now();
        for i in 3..18 {
            place(&mut ada, i);
            std::thread::sleep(Duration::from_millis(700));
        }
        ada.wait_for(0, WAIT, |l| l.starts_with("ended ")).unwrap();
        std::thread::sleep(Duration::from_secs(40).saturating_sub(down.elapsed()));
        relay.blackout.store(false, Ordering::Relaxed);
        ada.wait_for(0, WAIT * 2, |l| l.starts_with("offered "))
            .unwrap();
        let made = numbered(&ada, "made");
        assert_eq!(made.len(), 18, "{:?}", ada.lines());
        let end = std::time::Instant::now() + WAIT;
        loop {
            let answered: BTreeSet<u32> = numbered(&ada, "acked")
                .union(&numbered(&ada, "refused"))
                .copied()
                .collect();
            if made.is_subset(&answered) {
                break;
            }
            assert!(
                std::time::Instant::now() < end,
                "unanswered: {:?}\n{}",
                made.difference(&answered).collect::<Vec<_>>(),
                ada.lines().join("\n")
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        // Every edit made is in the server's world: another player sees them all.
        let (mut bo, _) = ready(&server, "bo", &[]);
        let world = dumped(&mut bo, &server.save_dir.join("bo.txt"));
        for (p, b) in acked(&ada) {
            assert_eq!(world.get(&p), Some(&b), "{p:?}");
        }
        assert_eq!(acked(&ada).len(), 18, "{:?}", ada.lines());
        server.stop().unwrap();
    }
}
