//! `terravox bench --net`: a real server and headless clients (`terravox bot`), each
//! a process of this executable, on loopback: players walking and digging, a join
//! with a million edits, a dam break, and the server killed with SIGKILL.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use terravox_edits::{Edits, SaveDir};
use terravox_net::bot::word;
use terravox_net::loopback::{Process, ServerProcess, fresh_dir};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

const WAIT: Duration = Duration::from_secs(120);

/// A line's words after its first.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().skip(1).collect()
}

/// Where bot `i` starts: around the default world's spawn, 40 blocks apart.
fn spot(i: usize) -> String {
    let g = Generator::new(&WorldConfig::default()).expect("the default world");
    let [x, _, z] = g.land_near_origin().unwrap_or([0, 0, 0]);
    let (x, z) = (x + 40 * (i % 4) as i32 - 60, z + 40 * (i / 4) as i32 - 20);
    format!("{},{},{}", x, g.surface_height(x, z) + 1, z)
}

/// The servers' arguments where bots make load rather than play: they walk over
/// the land as generated, stand beside a dam in the air and fly over the tiles they
/// pave, which only a world that lets its players fly takes.
const LOAD: &[&str] = &["--allow-flying"];

/// Bots joined `server` and ready, named `bot0`...
fn bots(
    exe: &Path,
    server: &ServerProcess,
    n: usize,
    extra: &dyn Fn(usize) -> Vec<String>,
) -> Result<Vec<Process>, String> {
    let mut out = Vec::new();
    for i in 0..n {
        let args = extra(i);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        out.push(server.bot(exe, &format!("bot{i}"), &args, &[])?);
    }
    for b in &out {
        b.wait_for(0, WAIT, |l| l.starts_with("ready "))?;
    }
    Ok(out)
}

/// The `p`th of sorted `v`.
fn quantile<T: Copy + Ord + Default>(v: &mut [T], p: f64) -> T {
    v.sort_unstable();
    v.get(((v.len().max(1) - 1) as f64 * p).round() as usize)
        .copied()
        .unwrap_or_default()
}

/// The server's ticks, from the line it prints when it stops (`ticks: N, median M
/// µs, p99 P µs, longest L µs`): `p99 P ms (median M µs, longest L ms, N ticks)`.
fn ticks(server: &Process) -> String {
    let line = server
        .lines()
        .into_iter()
        .find(|l| l.starts_with("ticks: "))
        .unwrap_or_default();
    // Each part's number after its label ("p99 1877 µs": 1877, not the 99).
    let n: Vec<f64> = line
        .trim_start_matches("ticks: ")
        .split(", ")
        .filter_map(|part| part.split_whitespace().find_map(|w| w.parse().ok()))
        .collect();
    match n[..] {
        [count, median, p99, longest, ..] => format!(
            "p99 {:.1} ms (median {median} µs, longest {:.1} ms, {count} ticks)",
            p99 / 1000.0,
            longest / 1000.0
        ),
        _ => "(no figures)".to_owned(),
    }
}

/// Over which world the players walk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// A world nobody edited.
    Fresh,
    /// A world whose save holds water left flowing in a hundred places far from
    /// them ([`flowing`]), as a server that ran long holds it.
    LeftFlowing,
    /// The same, the server's tick times taken from its metrics in its first
    /// minutes and its last.
    Long,
}

/// The 99th percentile of the server's tick times over the last 30 s, in ms, from
/// its metrics at `addr`.
fn tick_p99(addr: &str) -> Option<f64> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.write_all(b"GET /metrics HTTP/1.0\r\n\r\n").ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("terravox_tick_seconds{quantile=\"0.99\"} "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v * 1000.0)
}

/// Players walking and digging: bytes received per client, an edit's time until the
/// others see it, the server's ticks.
fn walking(
    exe: &Path,
    base: &Path,
    players: usize,
    seconds: f64,
    walk: Walk,
) -> Result<(), String> {
    let left_flowing = walk != Walk::Fresh;
    let dir = fresh_dir(base, if left_flowing { "walk-water" } else { "walk" });
    if left_flowing {
        let world = WorldConfig::default();
        SaveDir::new(&dir)
            .save(&world, &flowing(&world))
            .map_err(|e| e.to_string())?;
    }
    let metrics = std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "127.0.0.1:27099".to_owned());
    let mut args = LOAD.to_vec();
    if walk == Walk::Long {
        args.extend(["--metrics", metrics.as_str()]);
    }
    let server = ServerProcess::start(exe, &dir, &args)?;
    let spread = |i: usize| {
        vec![
            "--walk".to_owned(),
            "--edits-per-second".to_owned(),
            "1".to_owned(),
            "--seconds".to_owned(),
            format!("{seconds}"),
            "--at".to_owned(),
            spot(i),
        ]
    };
    let bots = bots(exe, &server, players, &spread)?;
    let mut windows = String::new();
    if walk == Walk::Long {
        // The metrics' quantiles cover 30 s: the first window from 60 s in, the
        // last ending 10 s before the walk does.
        let started = Instant::now();
        std::thread::sleep(Duration::from_secs(90));
        let first = tick_p99(&metrics);
        let last_at = Duration::from_secs_f64((seconds - 10.0).max(100.0));
        std::thread::sleep(last_at.saturating_sub(started.elapsed()));
        let last = tick_p99(&metrics);
        let ms = |v: Option<f64>| v.map_or("?".to_owned(), |v| format!("{v:.1} ms"));
        windows = format!(
            "; tick p99 over 30 s in its second minute {}, in its last {}",
            ms(first),
            ms(last)
        );
    }
    for b in &bots {
        b.wait_for(0, Duration::from_secs_f64(seconds) + WAIT, |l| {
            l.starts_with("bytes ")
        })?;
    }
    let mut rates = Vec::new();
    for b in &bots {
        let line = b.wait_for(0, WAIT, |l| l.starts_with("bytes "))?;
        let w = words(&line);
        let (bytes, secs): (f64, f64) = (w[0].parse().unwrap_or(0.0), w[1].parse().unwrap_or(1.0));
        rates.push((bytes / secs / 1000.0 * 1000.0) as u64);
    }
    // An edit made by one bot, seen by each other.
    let mut seen: Vec<BTreeMap<(String, String), Vec<u128>>> = Vec::new();
    for b in &bots {
        let mut m: BTreeMap<(String, String), Vec<u128>> = BTreeMap::new();
        for l in b.lines().iter().filter(|l| l.starts_with("seen ")) {
            let w = words(l);
            m.entry((w[..3].join(" "), w[3].to_owned()))
                .or_default()
                .push(w[4].parse().unwrap_or(0));
        }
        seen.push(m);
    }
    let (mut delays, mut missing, mut edits) = (Vec::new(), 0, 0);
    for (i, b) in bots.iter().enumerate() {
        for l in b.lines().iter().filter(|l| l.starts_with("acked ")) {
            let w = words(l);
            let key = (w[1..4].join(" "), w[4].to_owned());
            let made: u128 = b
                .lines()
                .iter()
                .find(|m| m.starts_with(&format!("made {} ", w[0])))
                .and_then(|m| words(m).get(5).and_then(|t| t.parse().ok()))
                .unwrap_or(0);
            edits += 1;
            for (j, s) in seen.iter().enumerate() {
                if j == i {
                    continue;
                }
                match s.get(&key).and_then(|ts| ts.iter().find(|&&t| t >= made)) {
                    Some(t) => delays.push(Duration::from_micros((t - made) as u64)),
                    None => missing += 1,
                }
            }
        }
    }
    let stopped = server.process.lines().len();
    let mut server = server;
    server.process.send("stop");
    server
        .process
        .wait_for(stopped, WAIT, |l| l.starts_with("ticks: "))?;
    let _ = server.process.wait_exit(WAIT);
    let median = quantile(&mut rates.clone(), 0.5) as f64 / 1000.0;
    let most = rates.iter().max().copied().unwrap_or(0) as f64 / 1000.0;
    let water = if left_flowing {
        " with water left flowing in 100 places 1-3 km away"
    } else {
        ""
    };
    say!(
        "net: {players} players{water}, {seconds:.0} s: received per client {median:.1} kB/s median (max {most:.1}); edit seen by others p99 {} ms (median {} ms, {edits} edits, {} sightings, {missing} not seen); server tick {}",
        quantile(&mut delays.clone(), 0.99).as_millis(),
        quantile(&mut delays.clone(), 0.5).as_millis(),
        delays.len(),
        ticks(&server.process),
    );
    if !windows.is_empty() {
        say!("net: the long walk{windows}");
    }
    Ok(())
}

/// A hundred lakes held by walls 1 to 3 km from the spawn, each with a hole in its
/// wall and its water running out, woken: water left flowing where no player is.
fn flowing(world: &WorldConfig) -> Edits {
    let spawn = Generator::new(world)
        .ok()
        .and_then(|g| g.land_near_origin())
        .unwrap_or([0, 64, 0]);
    let mut e = Edits::new();
    for i in 0..100 {
        let (angle, reach) = (f64::from(i) * 2.4, 1000.0 + 20.0 * f64::from(i));
        let near = [
            spawn[0] + (reach * angle.cos()) as i32,
            spawn[1],
            spawn[2] + (reach * angle.sin()) as i32,
        ];
        let (lake, floor) = terravox_net::loopback::dam(world, near);
        for (p, b) in lake.iter() {
            e.set(p, b);
        }
        let hole = floor.offset([17, 1, 8]);
        e.set(hole, Block::Air);
        for q in std::iter::once(hole).chain(hole.neighbours()) {
            e.pending_mut().wake(q);
        }
    }
    e
}

/// A million edits of builds and digs around the spawn: blocks of the hotbar and
/// air, as a long-played world has them (each block a hash of its place).
fn million(world: &WorldConfig, centre: [i32; 2]) -> Edits {
    let mut e = Edits::new();
    let g = Generator::new(world).expect("a valid world");
    let side = 200;
    let mut n = 0;
    'done: for dz in 0..side {
        for dx in 0..side {
            let (x, z) = (centre[0] - side / 2 + dx, centre[1] - side / 2 + dz);
            let top = g.surface_height(x, z);
            for dy in -10..15 {
                let h = (x as u32).wrapping_mul(0x9e37_79b9)
                    ^ (z as u32).wrapping_mul(0x85eb_ca6b)
                    ^ (dy as u32).wrapping_mul(0xc2b2_ae35);
                let b = match h % 10 {
                    0..=2 => Block::Air,
                    k => {
                        terravox_authority::rules::PLACEABLE[(k as usize + (dy as usize / 4)) % 10]
                    }
                };
                e.set(BlockPos::new(x, top + dy, z), b);
                n += 1;
                if n == 1_000_000 {
                    break 'done;
                }
            }
        }
    }
    e
}

/// A join with a million edits: its bytes, and how long after the terrain under the
/// player it plays.
fn join_million(exe: &Path, base: &Path) -> Result<(), String> {
    let dir = fresh_dir(base, "million");
    let world = WorldConfig::default();
    let spawn = Generator::new(&world)
        .map_err(|e| e.to_string())?
        .land_near_origin()
        .unwrap_or([0, 0, 0]);
    let edits = million(&world, [spawn[0], spawn[2]]);
    SaveDir::new(&dir)
        .save(&world, &edits)
        .map_err(|e| e.to_string())?;
    let server = ServerProcess::start(exe, &dir, &[])?;
    let mut lines = Vec::new();
    for i in 0..3 {
        let b = server.bot(exe, &format!("joiner{i}"), &["--seconds", "1"], &[])?;
        let ready = b.wait_for(0, WAIT, |l| l.starts_with("ready "))?;
        let w = words(&ready);
        let (after, bytes): (u64, f64) = (w[0].parse().unwrap_or(0), w[1].parse().unwrap_or(0.0));
        lines.push(format!(
            "{:.2} MB, playable {:.2} s",
            bytes / 1e6,
            after as f64 / 1000.0
        ));
        drop(b);
    }
    server.stop()?;
    say!(
        "net: join with {} edits: {} after the terrain under the player (three joins)",
        edits.len(),
        lines.join("; ")
    );
    Ok(())
}

/// A dam break: a hole in the lake's wall; every client's water against the server's
/// once it settled.
fn dam_break(exe: &Path, base: &Path, players: usize) -> Result<(), String> {
    let dir = fresh_dir(base, "dam");
    let world = WorldConfig::default();
    let spawn = Generator::new(&world)
        .map_err(|e| e.to_string())?
        .land_near_origin()
        .unwrap_or([0, 0, 0]);
    let (edits, floor) = terravox_net::loopback::dam(&world, spawn);
    SaveDir::new(&dir)
        .save(&world, &edits)
        .map_err(|e| e.to_string())?;
    let server = ServerProcess::start(exe, &dir, LOAD)?;
    let mut bots = bots(exe, &server, players, &|_| Vec::new())?;
    for line in terravox_net::loopback::break_dam(floor) {
        bots[0].send(&line);
    }
    let started = Instant::now();
    // Settled: nothing new on any client for five seconds.
    let mut last = 0;
    loop {
        std::thread::sleep(Duration::from_secs(5));
        let n: usize = bots.iter().map(|b| b.lines().len()).sum();
        if n == last || started.elapsed() > Duration::from_secs(300) {
            break;
        }
        last = n;
    }
    let mut worlds = Vec::new();
    for (i, b) in bots.iter_mut().enumerate() {
        let file = dir.join(format!("bot{i}.txt"));
        let from = b.lines().len();
        b.send(&format!("dump {}", file.display()));
        b.wait_for(from, WAIT, |l| l.starts_with("dumped "))?;
        worlds.push(std::fs::read_to_string(&file).map_err(|e| e.to_string())?);
    }
    let flowed = bots[1]
        .lines()
        .iter()
        .filter(|l| l.starts_with("seen ") && l.contains("water"))
        .count();
    server.stop()?;
    let saved = SaveDir::new(&dir).load(&world).map_err(|e| e.to_string())?;
    let mut text = String::new();
    for (p, b) in saved.iter() {
        text.push_str(&format!("{} {} {} {}\n", p.x, p.y, p.z, word(b)));
    }
    let equal = worlds.iter().filter(|w| **w == text).count();
    say!(
        "net: dam break: water equal on {equal} of {players} clients after it settled ({flowed} changes of water seen by a client, {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The server killed with SIGKILL while players pave: every acknowledged edit is in
/// the world when it starts again.
fn sigkill(exe: &Path, base: &Path, players: usize) -> Result<(), String> {
    let dir = fresh_dir(base, "kill");
    let mut server = ServerProcess::start(exe, &dir, LOAD)?;
    let spread = |i: usize| vec!["--at".to_owned(), spot(i)];
    let mut bots = bots(exe, &server, players, &spread)?;
    let each = 5_000 / players + 100;
    for b in &mut bots {
        b.send(&format!("pave {each}"));
    }
    let count = |bots: &[Process]| -> usize {
        bots.iter()
            .map(|b| b.lines().iter().filter(|l| l.starts_with("acked ")).count())
            .sum()
    };
    let started = Instant::now();
    while count(&bots) < 5_000 && started.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(20));
    }
    server.process.kill();
    let mut acked = BTreeMap::new();
    for b in &bots {
        for l in b.lines().iter().filter(|l| l.starts_with("acked ")) {
            let w = words(l);
            acked.insert(w[1..4].join(" "), w[4].to_owned());
        }
    }
    drop(bots);
    let server = ServerProcess::start(exe, &dir, LOAD)?;
    let mut check = server.bot(exe, "after", &[], &[])?;
    check.wait_for(0, WAIT, |l| l.starts_with("ready "))?;
    let file = dir.join("after.txt");
    check.send(&format!("dump {}", file.display()));
    check.wait_for(0, WAIT, |l| l.starts_with("dumped "))?;
    let world: BTreeMap<String, String> = std::fs::read_to_string(&file)
        .map_err(|e| e.to_string())?
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[..3].join(" "), w[3].to_owned())
        })
        .collect();
    drop(check);
    server.stop()?;
    let kept = acked
        .iter()
        .filter(|(p, b)| world.get(*p) == Some(*b))
        .count();
    say!(
        "net: server killed (SIGKILL) while playing: {kept} of {} acknowledged edits kept",
        acked.len()
    );
    Ok(())
}

/// `terravox bench --net`; with `long`, only the long walk over water left flowing.
pub(crate) fn run(players: usize, seconds: f64, long: bool) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let base: PathBuf =
        std::env::temp_dir().join(format!("terravox-bench-net-{}", std::process::id()));
    say!(
        "net: a server and {players} bot processes of this terravox on loopback (2 cores: they share the machine)"
    );
    if long {
        walking(&exe, &base, players, seconds, Walk::Long)?;
        let _ = std::fs::remove_dir_all(&base);
        return Ok(());
    }
    walking(&exe, &base, players, seconds, Walk::Fresh)?;
    walking(&exe, &base, players, seconds, Walk::LeftFlowing)?;
    join_million(&exe, &base)?;
    dam_break(&exe, &base, players)?;
    sigkill(&exe, &base, players)?;
    let _ = std::fs::remove_dir_all(&base);
    Ok(())
}
