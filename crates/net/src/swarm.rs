//! Many headless clients in one process (`terravox bot --swarm N`): each a
//! [`bot`](crate::bot) with its own connection, keys and stream over the real
//! protocol, on a thread of its own, writing the bot's lines each after its name. A
//! command line `NAME COMMAND` goes to that bot, `* COMMAND` to every one.
//!
//! ```text
//! NAME LINE                   a bot's line (see the bot's module)
//! NAME failed WHY             a bot ended with an error (the others play on)
//! ```

use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::bot::{self, BotOptions};
use crate::client::Worlds;

/// Time between two bots' starts: a hundred joins (handshakes, the terrain made
/// around each) spread over five seconds rather than all at once.
const STAGGER: Duration = Duration::from_millis(50);

/// How often the swarm's output is flushed while its bots play: a hundred bots
/// write thousands of lines a second, and a buffered output hands them on in a few
/// writes a second (the reader is woken as often) rather than one a line.
const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// The swarm's output, shared by its bots: a line at a time, flushed every
/// [`FLUSH_EVERY`] and at the end (it may be buffered).
pub type Out = Arc<Mutex<dyn Write + Send>>;

/// A bot's output: its lines, each after its name, onto the swarm's.
struct Named {
    name: String,
    line: Vec<u8>,
    out: Out,
}

impl Write for Named {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
                out.write_all(self.name.as_bytes())?;
                out.write_all(b" ")?;
                out.write_all(&self.line)?;
                out.write_all(b"\n")?;
                self.line.clear();
            } else {
                self.line.push(b);
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.lock().unwrap_or_else(|e| e.into_inner()).flush()
    }
}

/// Which bots a command line is for, and the command: `NAME COMMAND` or
/// `* COMMAND`; `None` for a line that names nobody.
pub fn address(line: &str) -> Option<(&str, &str)> {
    let (to, command) = line.trim().split_once(' ')?;
    let command = command.trim();
    (!to.is_empty() && !command.is_empty()).then_some((to, command))
}

/// Runs the bots of `members` (their names are their join's), each on a thread of
/// its own, until every one has ended; the command lines from `commands` go to the
/// bots they name (a line naming nobody there is answered on `out`).
pub fn run(members: Vec<BotOptions>, commands: Receiver<String>, out: Out) {
    let (played, flusher) = flushing(out.clone());
    // One generator for the world they all join, and one check of it.
    let worlds = Arc::new(Worlds::default());
    let mut inboxes: Vec<(String, Sender<String>)> = Vec::new();
    let mut threads = Vec::new();
    for (i, options) in members.into_iter().enumerate() {
        if i > 0 {
            std::thread::sleep(STAGGER);
        }
        let name = options.join.name.clone();
        let (tx, rx) = channel();
        inboxes.push((name.clone(), tx));
        let (label, lines, worlds) = (name.clone(), out.clone(), worlds.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("bot {name}"))
            .spawn(move || {
                let mut named = Named {
                    name: label,
                    line: Vec::new(),
                    out: lines,
                };
                if let Err(why) = bot::run(&options, &worlds, rx, &mut named) {
                    let _ = writeln!(named, "failed {why}");
                }
            });
        match spawned {
            Ok(t) => threads.push(t),
            Err(e) => {
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                let _ = writeln!(out, "{name} failed no thread for it ({e})");
            }
        }
    }
    let dispatcher = std::thread::spawn(move || {
        for line in commands {
            let Some((to, command)) = address(&line) else {
                continue;
            };
            for (name, inbox) in &inboxes {
                if to == "*" || to == name {
                    let _ = inbox.send(command.to_owned());
                }
            }
        }
    });
    for t in threads {
        let _ = t.join();
    }
    drop(played);
    let _ = flusher.join();
    // The dispatcher ends with the commands (standard input); it is not waited for.
    drop(dispatcher);
}

/// A thread flushing `out` every [`FLUSH_EVERY`] until the sender it returns is
/// dropped, then once more.
fn flushing(out: Out) -> (Sender<()>, std::thread::JoinHandle<()>) {
    let (played, done) = channel::<()>();
    let flusher = std::thread::spawn(move || {
        let flush = || {
            let _ = out.lock().unwrap_or_else(|e| e.into_inner()).flush();
        };
        while done.recv_timeout(FLUSH_EVERY) == Err(RecvTimeoutError::Timeout) {
            flush();
        }
        flush();
    });
    (played, flusher)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_names_one_bot_or_every_one() {
        assert_eq!(address("bot3 goto 1 2 3"), Some(("bot3", "goto 1 2 3")));
        assert_eq!(address("  *   quit "), Some(("*", "quit")));
        assert_eq!(address("quit"), None);
        assert_eq!(address(""), None);
    }

    #[test]
    fn each_bots_lines_come_whole_after_its_name() {
        let out: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
        let shared: Out = out.clone();
        let mut a = Named {
            name: "a".into(),
            line: Vec::new(),
            out: shared.clone(),
        };
        let mut b = Named {
            name: "b".into(),
            line: Vec::new(),
            out: shared,
        };
        write!(a, "joined 1").unwrap();
        writeln!(b, "at 0 1 2").unwrap();
        writeln!(a, " 0 5").unwrap();
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "b at 0 1 2\na joined 1 0 5\n");
    }
}
