//! `terravox bench --net`: a real server and headless clients (`terravox bot`), each
//! a process of this executable, on loopback: players walking and digging, a join
//! with a million edits, a dam break, and the server killed with SIGKILL.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use terravox_edits::{Edits, SaveDir};
use terravox_net::bot::word;
use terravox_net::loopback::{Process, ServerProcess, fresh_dir, profiles};
use terravox_net::relay::{Link, Relay};
use terravox_net::server::Reaches;
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

/// What players wrote while they walked and dug, each its own lines.
struct Walked {
    /// Bytes received a second, each.
    rates: Vec<f64>,
    /// From an edit made to another seeing it, each time one did.
    delays: Vec<Duration>,
    /// Edits made.
    edits: usize,
    /// Edits another should have seen and did not.
    missing: usize,
}

/// A timestamp's word (µs since 1970).
fn us(word: Option<&&str>) -> Option<u128> {
    word.and_then(|w| w.parse().ok())
}

impl Walked {
    /// From each player's lines: an edit acknowledged by the server should be seen by
    /// every other player that was ready when it was made, did not leave within a
    /// second after, and stood within `reach` of it (less two chunks: a chunk is sent
    /// by its middle, and players walk a circle).
    fn read(players: &[Vec<String>], reach: f64) -> Self {
        let mut rates = Vec::new();
        // (where it stood, from when until when it was sent the others' edits), each.
        let mut stood = Vec::new();
        for lines in players {
            let first = |what: &str| lines.iter().find(|l| l.starts_with(what)).map(|l| words(l));
            let left = first("bytes ");
            if let Some(w) = &left {
                let (bytes, secs): (f64, f64) =
                    (w[0].parse().unwrap_or(0.0), w[1].parse().unwrap_or(1.0));
                rates.push(bytes / secs);
            }
            let at: Vec<f64> = (first("at ").unwrap_or_default().iter())
                .filter_map(|w| w.parse().ok())
                .collect();
            let ready = first("ready ").and_then(|w| us(w.get(2)));
            let until = left
                .and_then(|w| us(w.get(2)))
                .map(|t| t.saturating_sub(1_000_000));
            stood.push((at, ready.zip(until)));
        }
        let seen: Vec<BTreeMap<(String, String), Vec<u128>>> = players
            .iter()
            .map(|lines| {
                let mut m: BTreeMap<_, Vec<u128>> = BTreeMap::new();
                for w in lines
                    .iter()
                    .filter(|l| l.starts_with("seen "))
                    .map(|l| words(l))
                {
                    m.entry((w[..3].join(" "), w[3].to_owned()))
                        .or_default()
                        .extend(us(w.get(4)));
                }
                m
            })
            .collect();
        let near = |at: &[f64], p: &[&str]| match (at, p) {
            ([x, _, z], [px, _, pz, ..]) => {
                let (px, pz): (f64, f64) = (px.parse().unwrap_or(0.0), pz.parse().unwrap_or(0.0));
                (px - x).hypot(pz - z) <= reach - 2.0 * f64::from(terravox_voxel::CHUNK)
            }
            _ => false,
        };
        let (mut delays, mut missing, mut edits) = (Vec::new(), 0, 0);
        for (i, lines) in players.iter().enumerate() {
            let made: BTreeMap<&str, u128> = (lines.iter())
                .filter(|l| l.starts_with("made "))
                .filter_map(|l| {
                    let w = words(l);
                    Some((*w.first()?, us(w.get(5))?))
                })
                .collect();
            for l in lines.iter().filter(|l| l.starts_with("acked ")) {
                let w = words(l);
                let key = (w[1..4].join(" "), w[4].to_owned());
                let made = made.get(w[0]).copied().unwrap_or(0);
                edits += 1;
                for (j, s) in seen.iter().enumerate() {
                    let (at, there) = &stood[j];
                    let away = there.is_none_or(|(from, until)| made < from || made > until);
                    if j == i || away || !near(at, &w[1..4]) {
                        continue;
                    }
                    match s.get(&key).and_then(|ts| ts.iter().find(|&&t| t >= made)) {
                        Some(t) => delays.push(Duration::from_micros((t - made) as u64)),
                        None => missing += 1,
                    }
                }
            }
        }
        Self {
            rates,
            delays,
            edits,
            missing,
        }
    }

    /// `received per client ...; edit seen by ... p99 ...`.
    fn figures(&self) -> String {
        let mut rates: Vec<u64> = self.rates.iter().map(|r| *r as u64).collect();
        let mut delays = self.delays.clone();
        format!(
            "received per client {:.1} kB/s median (max {:.1}); edit seen by the others within its reach p99 {} ms (median {} ms, {} edits, {} sightings, {} not seen)",
            quantile(&mut rates, 0.5) as f64 / 1000.0,
            rates.iter().max().copied().unwrap_or(0) as f64 / 1000.0,
            quantile(&mut delays, 0.99).as_millis(),
            quantile(&mut delays, 0.5).as_millis(),
            self.edits,
            self.delays.len(),
            self.missing,
        )
    }
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

/// Stops `server` from its console, and waits for it to print its ticks and end.
fn stopped(server: ServerProcess) -> Result<Process, String> {
    let mut process = server.process;
    let from = process.lines().len();
    process.send("stop");
    process.wait_for(from, WAIT, |l| l.starts_with("ticks: "))?;
    let _ = process.wait_exit(WAIT);
    Ok(process)
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

/// The quantile `q` (`0.5`, `0.99` or `1`) of the server's tick times over the last
/// 30 s, in ms, from its metrics at `addr`.
fn tick_quantile(addr: &str, q: &str) -> Option<f64> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.write_all(b"GET /metrics HTTP/1.0\r\n\r\n").ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let label = format!("terravox_tick_seconds{{quantile=\"{q}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(label.as_str()))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v * 1000.0)
}

/// `v` ms, or `?` for a figure the metrics did not give.
fn ms_or_unknown(v: Option<f64>) -> String {
    v.map_or("?".to_owned(), |v| format!("{v:.1} ms"))
}

/// A free port of loopback for a server's metrics.
fn metrics_address() -> String {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "127.0.0.1:27099".to_owned())
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
    let metrics = metrics_address();
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
        let first = tick_quantile(&metrics, "0.99");
        let last_at = Duration::from_secs_f64((seconds - 10.0).max(100.0));
        std::thread::sleep(last_at.saturating_sub(started.elapsed()));
        let last = tick_quantile(&metrics, "0.99");
        windows = format!(
            "; tick p99 over 30 s in its second minute {}, in its last {}",
            ms_or_unknown(first),
            ms_or_unknown(last)
        );
    }
    for b in &bots {
        b.wait_for(0, Duration::from_secs_f64(seconds) + WAIT, |l| {
            l.starts_with("bytes ")
        })?;
    }
    let lines: Vec<Vec<String>> = bots.iter().map(Process::lines).collect();
    let walked = Walked::read(&lines, Reaches::default().edits);
    let server = stopped(server)?;
    let water = if left_flowing {
        " with water left flowing in 100 places 1-3 km away"
    } else {
        ""
    };
    say!(
        "net: {players} players{water}, {seconds:.0} s: {}; server tick {}",
        walked.figures(),
        ticks(&server),
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

/// More players than this are one swarm (`bot --swarm`) rather than a process each.
const MOST_PROCESSES: usize = 16;

/// Blocks between swarm neighbours spread out, and clustered (a hundred within 64
/// blocks).
const SPREAD_OUT: u32 = 500;
const CLUSTERED: u32 = 6;

/// The lossy link: 3% of datagrams lost, each way, the rest held 40 ± 20 ms.
const LOSSY: Link = Link {
    delay: Duration::from_millis(40),
    jitter: Duration::from_millis(20),
    loss: 0.03,
};

/// A process's peak resident memory (`VmHWM`), in MiB, while it runs (Linux).
fn peak_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// A swarm's lines by bot, each without the bot's name.
fn by_bot(lines: &[String]) -> BTreeMap<&str, Vec<String>> {
    let mut out: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for l in lines {
        if let Some((name, line)) = l.split_once(' ') {
            out.entry(name).or_default().push(line.to_owned());
        }
    }
    out
}

/// Waits until `n` of the swarm's bots wrote a line starting `what`, sampling the
/// peak memory of `pids` meanwhile (the most seen, each). It reads each line once:
/// a hundred bots write hundreds of thousands, on the machine the server measures.
fn wait_swarm(
    swarm: &Process,
    n: usize,
    what: &str,
    wait: Duration,
    pids: &[u32],
    peaks: &mut [f64],
) -> Result<(), String> {
    let until = Instant::now() + wait;
    let (mut read, mut done) = (0, std::collections::BTreeSet::new());
    loop {
        for (peak, &pid) in peaks.iter_mut().zip(pids) {
            *peak = peak.max(peak_mib(pid).unwrap_or(0.0));
        }
        let fresh = swarm.lines_from(read);
        read += fresh.len();
        for (name, lines) in by_bot(&fresh) {
            if lines.iter().any(|l| l.starts_with(what)) {
                done.insert(name.to_owned());
            }
            if let Some(failed) = lines.iter().find(|l| l.starts_with("failed ")) {
                return Err(format!("a swarm bot failed: {name} {failed}"));
            }
        }
        if done.len() >= n {
            return Ok(());
        }
        if Instant::now() > until {
            return Err(format!(
                "{} of {n} swarm bots wrote {what:?} within {wait:?}: {}",
                done.len(),
                swarm.errors().join("\n")
            ));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// `players` bots of one swarm walking and digging `spread` blocks apart for
/// `seconds`, through `link` (a relay) if it is given; with `join`, one more
/// player joins among them halfway. Its lines.
fn swarm_walk(
    exe: &Path,
    base: &Path,
    players: usize,
    seconds: f64,
    spread: u32,
    link: Option<Link>,
    join: bool,
) -> Result<Vec<String>, String> {
    let dir = fresh_dir(base, &format!("swarm-{spread}"));
    // Room for the swarm and the one who joins among it.
    let most = (players + 1).to_string();
    let metrics = metrics_address();
    let mut args = LOAD.to_vec();
    args.extend([
        "--max-players",
        most.as_str(),
        "--metrics",
        metrics.as_str(),
    ]);
    let server = ServerProcess::start(exe, &dir, &args)?;
    let relay = match link {
        Some(link) => {
            let to = server.address().parse().map_err(|e| format!("{e}"))?;
            let r = Relay::start(([127, 0, 0, 1], 0).into(), to, link, 1)
                .map_err(|e| format!("no relay: {e}"))?;
            Some(r)
        }
        None => None,
    };
    let address = match &relay {
        Some(r) => r.address().map_err(|e| e.to_string())?.to_string(),
        None => server.address(),
    };
    // The swarm stands for a hundred players' machines: it runs at the idle
    // priority (`chrt --idle`), so that the server's ticks measure the server rather
    // than how the kernel shares two cores among a hundred bots' two hundred threads
    // (at nice 10 they still outweighed the server's one: README, "A hundred players").
    let exe_name = exe.display().to_string();
    let args: Vec<String> = [
        "--idle",
        "0",
        &exe_name,
        "bot",
        "--join",
        &address,
        "--name",
        "bot",
        "--profile",
        &profiles(&dir).display().to_string(),
        "--swarm",
        &players.to_string(),
        "--spread",
        &spread.to_string(),
        "--walk",
        "--edits-per-second",
        "1",
        "--seconds",
        &seconds.to_string(),
    ]
    .map(String::from)
    .to_vec();
    let swarm = Process::start(Path::new("chrt"), &args, &[])
        .map_err(|e| format!("cannot start the swarm under chrt (util-linux): {e}"))?;
    let pids = [server.process.id(), swarm.id()];
    let mut peaks = [0.0; 2];
    let starting = WAIT + Duration::from_millis(50 * players as u64);
    wait_swarm(&swarm, players, "ready ", starting, &pids, &mut peaks)?;
    let mut lines = Vec::new();
    if join {
        std::thread::sleep(Duration::from_secs_f64(seconds / 2.0));
        let joiner = server.bot(exe, "joiner", &["--seconds", "5"], &[])?;
        let ready = joiner.wait_for(0, WAIT, |l| l.starts_with("ready "))?;
        let w = words(&ready);
        let (after, bytes): (u64, f64) = (w[0].parse().unwrap_or(0), w[1].parse().unwrap_or(0.0));
        lines.push(format!(
            "net: a join with {players} players online (within {} blocks): playable {:.2} s after the terrain under the player, {:.0} kB received",
            spread * (players as f64).sqrt().ceil() as u32,
            after as f64 / 1000.0,
            bytes / 1000.0
        ));
    }
    // The ticks of the last 30 s all played (the metrics' window), just before the
    // first bot to be ready leaves.
    let now_us = terravox_net::bot::wall_us();
    let so_far = swarm.lines();
    let first_ready = (by_bot(&so_far).values())
        .filter_map(|l| l.iter().find(|l| l.starts_with("ready ")))
        .filter_map(|l| us(words(l).get(2)))
        .min()
        .unwrap_or(now_us);
    let leaves_in = Duration::from_micros(
        (first_ready + Duration::from_secs_f64(seconds).as_micros()).saturating_sub(now_us) as u64,
    );
    std::thread::sleep(leaves_in.saturating_sub(Duration::from_secs(2)));
    let ms = |q| ms_or_unknown(tick_quantile(&metrics, q));
    let playing = format!(
        "; over the last 30 s before the first left: tick p99 {}, median {}, longest {}",
        ms("0.99"),
        ms("0.5"),
        ms("1")
    );
    wait_swarm(
        &swarm,
        players,
        "bytes ",
        Duration::from_secs_f64(seconds) + starting,
        &pids,
        &mut peaks,
    )?;
    let out = swarm.lines();
    let played: Vec<Vec<String>> = by_bot(&out).into_values().collect();
    let walked = Walked::read(&played, Reaches::default().edits);
    let server = stopped(server)?;
    let how = if spread >= SPREAD_OUT {
        format!("spread out ({spread} blocks apart)")
    } else {
        format!(
            "clustered (within {} blocks)",
            spread * (players as f64).sqrt().ceil() as u32
        )
    };
    let through = link.map_or(String::new(), |l| {
        format!(
            " through a relay losing {:.0}% each way and holding the rest {} ± {} ms",
            l.loss * 100.0,
            l.delay.as_millis(),
            l.jitter.as_millis()
        )
    });
    lines.insert(
        0,
        format!(
            "net: {players} players of one swarm {how}{through}, {seconds:.0} s: {}; server tick {}{playing}; resident memory at most: the server {:.0} MiB, the swarm {:.0} MiB",
            walked.figures(),
            ticks(&server),
            peaks[0],
            peaks[1],
        ),
    );
    Ok(lines)
}

/// `bench --net` with more players than [`MOST_PROCESSES`]: one swarm spread out,
/// then clustered with a join among them, then clustered through a lossy link.
fn swarm_runs(exe: &Path, base: &Path, players: usize, seconds: f64) -> Result<(), String> {
    say!(
        "net: a server and a swarm of {players} bots (one process) of this terravox on loopback (2 cores: they share the machine)"
    );
    for (spread, link, join) in [
        (SPREAD_OUT, None, false),
        (CLUSTERED, None, true),
        (CLUSTERED, Some(LOSSY), false),
    ] {
        for line in swarm_walk(exe, base, players, seconds, spread, link, join)? {
            say!("{line}");
        }
    }
    Ok(())
}

/// `terravox bench --net`; with `long`, only the long walk over water left flowing.
pub(crate) fn run(players: usize, seconds: f64, long: bool) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let base: PathBuf =
        std::env::temp_dir().join(format!("terravox-bench-net-{}", std::process::id()));
    if players > MOST_PROCESSES && !long {
        swarm_runs(&exe, &base, players, seconds)?;
        let _ = std::fs::remove_dir_all(&base);
        return Ok(());
    }
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
