//! Real processes on this machine talking over loopback: a `terravox serve` and
//! `terravox bot`s started from a terravox executable, their standard input to write
//! commands to and their standard output read a line at a time; and the dam they
//! break. What `terravox bench --net` and the tests run.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

/// Lines a process wrote, shared with the thread reading them.
#[derive(Default)]
struct Lines {
    lines: Mutex<(Vec<String>, bool)>,
    grew: Condvar,
}

/// A running process and what it wrote.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Arc<Lines>,
    err: Arc<Lines>,
}

fn read_into(stream: impl std::io::Read + Send + 'static, into: Arc<Lines>) {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            let mut l = into.lines.lock().unwrap_or_else(|e| e.into_inner());
            l.0.push(line);
            into.grew.notify_all();
        }
        into.lines.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        into.grew.notify_all();
    });
}

impl Process {
    /// Starts `exe` with `args` (and `envs`).
    pub fn start(exe: &Path, args: &[String], envs: &[(&str, &str)]) -> std::io::Result<Self> {
        let mut child = Command::new(exe)
            .args(args)
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (out, err) = (Arc::new(Lines::default()), Arc::new(Lines::default()));
        if let Some(s) = child.stdout.take() {
            read_into(s, out.clone());
        }
        if let Some(s) = child.stderr.take() {
            read_into(s, err.clone());
        }
        Ok(Self {
            stdin: child.stdin.take(),
            child,
            out,
            err,
        })
    }

    /// Writes a line to its standard input.
    pub fn send(&mut self, line: &str) {
        if let Some(stdin) = &mut self.stdin {
            let _ = writeln!(stdin, "{line}");
            let _ = stdin.flush();
        }
    }

    /// Closes its standard input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Every line of its standard output so far.
    pub fn lines(&self) -> Vec<String> {
        self.lines_from(0)
    }

    /// The lines of its standard output so far from the `from`th on (what a reader
    /// that read `from` has not seen yet).
    pub fn lines_from(&self, from: usize) -> Vec<String> {
        let l = self.out.lines.lock().unwrap_or_else(|e| e.into_inner());
        l.0.get(from..).unwrap_or_default().to_vec()
    }

    /// Every line of its standard error so far.
    pub fn errors(&self) -> Vec<String> {
        self.err
            .lines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .clone()
    }

    /// Waits up to `wait` for a line of standard output that `wanted` picks (from the
    /// `from`th line on); the line, or what it wrote if none came.
    pub fn wait_for(
        &self,
        from: usize,
        wait: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let end = Instant::now() + wait;
        let mut l = self.out.lines.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(line) = l.0.iter().skip(from).find(|s| wanted(s)) {
                return Ok(line.clone());
            }
            let now = Instant::now();
            if now >= end || l.1 {
                let errors = self.errors().join("\n");
                return Err(format!(
                    "no such line within {wait:?}; it wrote:\n{}\nand to stderr:\n{errors}",
                    l.0.join("\n")
                ));
            }
            l = self
                .out
                .grew
                .wait_timeout(l, end - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Waits for it to end, up to `wait` (then kills it).
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + wait;
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
        None
    }

    /// Kills it with SIGKILL (no chance to save anything).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Its process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A `terravox serve` on a free port of loopback.
pub struct ServerProcess {
    /// The process.
    pub process: Process,
    /// Its port.
    pub port: u16,
    /// Its save folder.
    pub save_dir: PathBuf,
}

impl ServerProcess {
    /// Starts a server of `exe` on loopback, a free port, saving in `save_dir`, with
    /// `extra` arguments; waits until it listens.
    pub fn start(exe: &Path, save_dir: &Path, extra: &[&str]) -> Result<Self, String> {
        let mut args = vec!["--bind", "127.0.0.1"];
        args.extend(extra);
        Self::start_on(exe, save_dir, "0", &args)
    }

    /// Starts a server of `exe` on `port`, saving in `save_dir`, with `extra`
    /// arguments; waits until it listens (or says why it cannot).
    pub fn start_on(
        exe: &Path,
        save_dir: &Path,
        port: &str,
        extra: &[&str],
    ) -> Result<Self, String> {
        let mut args: Vec<String> = ["serve", "--port", port, "--save-dir"]
            .map(String::from)
            .to_vec();
        args.push(save_dir.display().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        let process = Process::start(exe, &args, &[]).map_err(|e| e.to_string())?;
        let line = process.wait_for(0, Duration::from_secs(60), |l| {
            l.starts_with("listening on ")
        })?;
        let port = line
            .split_whitespace()
            .nth(2)
            .and_then(|a| a.rsplit(':').next())
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("no port in {line:?}"))?;
        Ok(Self {
            process,
            port,
            save_dir: save_dir.to_owned(),
        })
    }

    /// The profile folder of the player `name` of this server's tests: beside its save
    /// folder ([`profiles`]), so a server started again on the same save meets the same
    /// players, and a fresh one new ones.
    pub fn profile(&self, name: &str) -> PathBuf {
        profiles(&self.save_dir).join(name)
    }

    /// A `terravox bot` of `exe` joined to it as `name` (with its own profile), with
    /// `extra` arguments.
    pub fn bot(
        &self,
        exe: &Path,
        name: &str,
        extra: &[&str],
        envs: &[(&str, &str)],
    ) -> Result<Process, String> {
        bot(exe, &self.address(), name, &self.profile(name), extra, envs)
    }

    /// The address clients join.
    pub fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Stops it from its console (it saves), waiting for it to end.
    pub fn stop(self) -> Result<(), String> {
        self.stop_within(Duration::from_secs(60))
    }

    /// Stops it from its console (it saves), waiting up to `wait` for it to end.
    pub fn stop_within(mut self, wait: Duration) -> Result<(), String> {
        self.process.send("stop");
        match self.process.wait_exit(wait) {
            Some(s) if s.success() => Ok(()),
            other => Err(format!(
                "the server ended with {other:?}: {}",
                self.process.errors().join("\n")
            )),
        }
    }
}

/// A `terravox bot` joined to `address` as `name` with the player profile `profile`,
/// with `extra` arguments.
pub fn bot(
    exe: &Path,
    address: &str,
    name: &str,
    profile: &Path,
    extra: &[&str],
    envs: &[(&str, &str)],
) -> Result<Process, String> {
    let mut args: Vec<String> = ["bot", "--join", address, "--name", name, "--profile"]
        .map(String::from)
        .to_vec();
    args.push(profile.display().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    Process::start(exe, &args, envs).map_err(|e| e.to_string())
}

/// The folder of the test players' profiles of the server saving in `save_dir`.
pub fn profiles(save_dir: &Path) -> PathBuf {
    let mut name = save_dir.as_os_str().to_owned();
    name.push(".players");
    PathBuf::from(name)
}

/// A fresh folder for a session's saves under `base` (and no players' profiles for
/// it yet).
pub fn fresh_dir(base: &Path, name: &str) -> PathBuf {
    let dir = base.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(profiles(&dir));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// A lake held by a stone wall 22 blocks over the land beside `near` (a 16 x 16 x 6
/// basin of sources in an 18 x 18 box), as edits a save can hold: what the bench and
/// the tests break ([`break_dam`]). The lake's floor corner.
pub fn dam(world: &WorldConfig, near: [i32; 3]) -> (Edits, BlockPos) {
    let g = Generator::new(world).expect("a valid world");
    let (x0, z0) = (near[0] + 6, near[2] - 9);
    let mut ground = i32::MIN;
    for x in x0..x0 + 60 {
        for z in z0..z0 + 18 {
            ground = ground.max(g.surface_height(x, z));
        }
    }
    let floor = BlockPos::new(x0, ground + 22, z0);
    let mut e = Edits::new();
    for dx in 0..18 {
        for dz in 0..18 {
            for dy in 0..=6 {
                let inside = dy > 0 && (1..=16).contains(&dx) && (1..=16).contains(&dz);
                let b = if inside { Block::Water } else { Block::Stone };
                e.set(floor.offset([dx, dy, dz]), b);
            }
        }
    }
    (e, floor)
}

/// A bot's commands that break a 5 x 5 hole in the wall of the lake at `floor`
/// ([`dam`]), flying in the air beside it.
pub fn break_dam(floor: BlockPos) -> Vec<String> {
    let wall = floor.offset([17, 0, 0]);
    let mut out = vec![
        // A body that has just joined needs a moment to go there (a server takes no
        // faster move).
        "wait 1500".to_owned(),
        format!("goto {} {} {}", wall.x + 2, wall.y + 1, wall.z + 8),
        // The chunks around it made (here and on the server) first.
        "wait 1500".to_owned(),
    ];
    for dy in 1..=5 {
        for dz in 0..5 {
            let p = wall.offset([0, dy, 6 + dz]);
            out.push(format!("break {} {} {}", p.x, p.y, p.z));
        }
    }
    out
}
