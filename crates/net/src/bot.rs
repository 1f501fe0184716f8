//! A headless client: joins a server, makes the terrain around itself as a game does,
//! follows the server's edits and water, walks and digs on its own or does what it
//! is told a line at a time (`break X Y Z`, `place X Y Z BLOCK`, `take X Y Z`,
//! `goto X Y Z`, `find-water`, `pave N` (N tiles of blocks on the land around it, at
//! the rate the rules allow), `say TEXT`, `others`, `link`, `dump FILE`, `wait MS`, `quit`; with the
//! feature `test-tools` also `flood N` (lines of chat at once) and `garbage N`
//! (messages that are no message)), and
//! writes what happens
//! as lines: what `terravox bench --net` and the tests read, from real processes on
//! loopback.
//!
//! ```text
//! joined ID BACKLOG MS        the welcome, after MS
//! at X Y Z                    where it stands (its feet)
//! bucket full|empty           its bucket as the server kept it
//! ready MS BYTES US           the terrain under it made and the backlog laid; MS
//!                             after the terrain was made (0 if the backlog came
//!                             first), BYTES received so far, at US
//! made SEQ X Y Z BLOCK US     an edit sent (shown at once), at US (µs since 1970)
//! acked SEQ X Y Z BLOCK US    the server made it durable
//! not-made COMMAND: WHY       an edit this bot's rules refused (not sent)
//! refused SEQ REASON          the server refused it (put back)
//! seen X Y Z BLOCK US         another's change arrived
//! corrected X Y Z WHY         the server did not take a move: back at X Y Z
//! chat NAME TEXT | say TEXT | player-joined NAME | player-left TEXT
//! others NAME...              the players whose poses came within 3 s, by name
//! link RTT_MS RESEND_MS       the link's smoothed round trip, and the time after
//!                             which an unacknowledged message is sent again
//! bytes RECEIVED SECONDS US   UDP payload bytes received, over the seconds played;
//!                             at US it leaves
//! ended WHY                   the connection ended (with --rejoin: joining again)
//! rejoin-failed WHY | joined-again ID BACKLOG   (with --rejoin)
//! offered N                   the N unanswered edits asked for again, once the
//!                             world's edits are in after joining again
//! ```

use std::io::Write;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant, SystemTime};

use terravox_authority::{Action, Authority, PlayerId, Role, rules::PLACEABLE};
use terravox_edits::fluid::Cells;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::Generator;

use crate::around::Around;
use crate::client::{Event, JoinOptions, Worlds, join_among};
use crate::protocol::{Pose, ToClient, ToServer};
use crate::unanswered::Unanswered;

/// The bot's own player in its copy of the world.
const ME: u64 = 0;
/// Time between moves sent.
const MOVE_EVERY: Duration = Duration::from_millis(100);
/// `others` names the players whose poses came within this long (as a game draws
/// them).
const HEARD_WITHIN: Duration = Duration::from_secs(3);

/// How a bot plays.
#[derive(Clone, Debug)]
pub struct BotOptions {
    /// Whom to join, as whom.
    pub join: JoinOptions,
    /// Walk a circle and dig and build on its own.
    pub walk: bool,
    /// Edits a second while walking.
    pub edits_per_second: f32,
    /// Leave after this long (else at `quit` or the end of the commands).
    pub seconds: Option<f64>,
    /// Stand here (else where its name last stood, else near the origin).
    pub at: Option<[f64; 3]>,
    /// Where its name never stood and no `at` says: stand this far (x, z) from the
    /// land near the origin, on the ground (a swarm's bots spread out).
    pub offset: [i32; 2],
    /// Join again every 3 s when the connection is lost (as a game does), and offer
    /// the edits the server had not answered again once the world's edits are in.
    pub rejoin: bool,
    /// Time between two looks at what arrived, two moves of a walk ([`PACE`]; a
    /// swarm's bots look as often as a game's frames come, [`FRAME`]).
    pub pace: Duration,
}

/// A lone bot's time between looks at what arrived.
pub const PACE: Duration = Duration::from_millis(5);
/// A game's frame at 60 FPS: how often a swarm's bots look.
pub const FRAME: Duration = Duration::from_micros(16_667);

/// Columns whose ground a walking bot keeps (its circle has about 160).
const GROUND_KEPT: usize = 4096;

/// Time between tries to join again.
const REJOIN_EVERY: Duration = Duration::from_secs(3);

/// Microseconds since 1970: the same clock in every process of a machine (the
/// clock of the lines' `US`).
pub fn wall_us() -> u128 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_micros()
}

/// A block's name as one word (`flowing_water_(level_3)`), as the lines write it.
pub fn word(b: Block) -> String {
    b.name().replace(' ', "_")
}

/// The block a word names.
fn block_named(name: &str) -> Option<Block> {
    Block::ALL.iter().copied().find(|&b| word(b) == name)
}

/// A bot's state.
struct Bot<'a> {
    /// Tiles still to pave (`pave N`), in order, and until when each may wait for
    /// its chunk.
    paving: std::collections::VecDeque<BlockPos>,
    /// The next command waits until then (`wait MS`).
    resume: Instant,
    authority: Authority,
    around: Around,
    generator: std::sync::Arc<Generator>,
    feet: [f64; 3],
    /// Edits sent and not answered.
    sent: Unanswered,
    /// The server's corrections taken.
    corrections: u32,
    /// The other players' names, and when a pose of each last came.
    names: std::collections::HashMap<PlayerId, String>,
    heard: std::collections::HashMap<PlayerId, Instant>,
    /// The ground's top of the columns walked, as the generator made it.
    grounds: std::collections::HashMap<(i32, i32), f64>,
    out: &'a mut dyn Write,
}

impl Bot<'_> {
    fn line(&mut self, text: std::fmt::Arguments) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    /// Tries an edit here first (as a game shows it at once); sends it if made.
    /// Stands at `feet` (here; the server is told by the next move).
    fn stand(&mut self, feet: [f64; 3]) {
        self.feet = feet;
        self.authority.players_mut().place(ME, feet);
        self.around.player_at(ME, feet);
    }

    /// Tells the server where it stands.
    fn send_move(&self, connection: &crate::client::Connection) {
        let pose = Pose {
            feet: self.feet,
            yaw: 0.0,
            pitch: 0.0,
        };
        connection.send(ToServer::Move(pose, self.corrections));
    }

    /// [`Bot::act`] for a command `line`: a line saying why, if it was not made.
    fn try_act(&mut self, action: Action, connection: &crate::client::Connection, line: &str) {
        if let Err(why) = self.act(action, connection) {
            self.line(format_args!("not-made {line}: {why}"));
        }
    }

    fn act(
        &mut self,
        action: Action,
        connection: &crate::client::Connection,
    ) -> Result<(), terravox_authority::Refusal> {
        let before = self.around.block(action.pos());
        match self.authority.act(ME, action, &mut self.around) {
            Ok((p, b)) => {
                let (seq, message) = self.sent.send(action, before.unwrap_or(Block::Air));
                connection.send(message);
                self.line(format_args!(
                    "made {seq} {} {} {} {} {}",
                    p.x,
                    p.y,
                    p.z,
                    word(b),
                    wall_us()
                ));
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Takes in a message from the server.
    fn message(&mut self, m: ToClient, ready: &mut (bool, Option<Instant>)) {
        match m {
            ToClient::Blocks { backlog, changes } => {
                let t = wall_us();
                for (p, b) in changes {
                    self.authority.lay(p, b, &mut self.around);
                    if !backlog {
                        self.line(format_args!("seen {} {} {} {} {t}", p.x, p.y, p.z, word(b)));
                    }
                }
            }
            ToClient::BacklogDone => ready.0 = true,
            ToClient::Answer(a) => {
                let shown = self.sent.answer(&a);
                if let Some((p, b)) = shown {
                    self.authority.lay(p, b, &mut self.around);
                }
                match a.refused {
                    None => {
                        let (p, b) = shown.unwrap_or((a.pos, Block::Air));
                        self.line(format_args!(
                            "acked {} {} {} {} {} {}",
                            a.seq,
                            p.x,
                            p.y,
                            p.z,
                            word(b),
                            wall_us()
                        ));
                    }
                    Some(why) => self.line(format_args!("refused {} {why}", a.seq)),
                }
                self.authority.players_mut().set_bucket(ME, a.bucket_full);
            }
            ToClient::Joined(id, name) => {
                self.line(format_args!("player-joined {name}"));
                self.names.insert(id, name);
            }
            ToClient::Left(id, text) => {
                self.line(format_args!("player-left {text}"));
                self.names.remove(&id);
                self.heard.remove(&id);
            }
            ToClient::Players(poses) => {
                let now = Instant::now();
                for (id, _) in poses {
                    self.heard.insert(id, now);
                }
            }
            ToClient::Chat(id, text) => self.line(format_args!("chat {id} {text}")),
            ToClient::Say(text) => self.line(format_args!("say {text}")),
            ToClient::Refused(why) => self.line(format_args!("refused-player {why}")),
            ToClient::Correct {
                feet,
                corrections,
                why,
            } => {
                self.corrections = corrections;
                self.stand(feet);
                self.line(format_args!(
                    "corrected {} {} {} {why}",
                    feet[0], feet[1], feet[2]
                ));
            }
            ToClient::Clock(..) | ToClient::Welcome(_) => {}
        }
    }

    /// The ground's top at column (x, z), from the world's generator (the edits
    /// aside: a bot walks over the land as made), kept for the next round.
    fn ground(&mut self, x: f64, z: f64) -> f64 {
        let column = (x.floor() as i32, z.floor() as i32);
        if let Some(&y) = self.grounds.get(&column) {
            return y;
        }
        if self.grounds.len() >= GROUND_KEPT {
            self.grounds.clear();
        }
        let y = f64::from(self.generator.surface_height(column.0, column.1) + 1);
        self.grounds.insert(column, y);
        y
    }
}

/// Runs a bot (see the module docs) until it quits, its time is up, or the
/// connection ends; its world's generator comes from `worlds` (a swarm's bots share
/// theirs).
pub fn run(
    options: &BotOptions,
    worlds: &Worlds,
    commands: Receiver<String>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let started = Instant::now();
    let joined = join_among(&options.join, worlds).map_err(|e| e.to_string())?;
    let mut connection = joined.connection;
    let generator = joined.generator;
    let mut authority = Authority::new(joined.world.clone(), Role::Client);
    let feet = options
        .at
        .or(joined.welcome.at.map(|p| p.feet))
        .or_else(|| {
            let [x, y, z] = generator.land_near_origin()?;
            if options.offset == [0, 0] {
                return Some([f64::from(x) + 0.5, f64::from(y), f64::from(z) + 0.5]);
            }
            let [x, z] = [x + options.offset[0], z + options.offset[1]];
            let y = generator.surface_height(x, z) + 1;
            Some([f64::from(x) + 0.5, f64::from(y), f64::from(z) + 0.5])
        })
        .unwrap_or([0.5, 100.0, 0.5]);
    authority.players_mut().place(ME, feet);
    authority
        .players_mut()
        .set_bucket(ME, joined.welcome.bucket_full);
    let mut bot = Bot {
        paving: std::collections::VecDeque::new(),
        resume: Instant::now(),
        authority,
        around: Around::new(generator.clone()),
        generator,
        feet,
        sent: Unanswered::default(),
        corrections: 0,
        names: joined.welcome.players.iter().cloned().collect(),
        heard: Default::default(),
        grounds: Default::default(),
        out,
    };
    bot.around.player_at(ME, feet);
    bot.line(format_args!(
        "joined {} {} {}",
        joined.welcome.you,
        joined.welcome.backlog,
        started.elapsed().as_millis()
    ));
    bot.line(format_args!("at {} {} {}", feet[0], feet[1], feet[2]));
    bot.line(format_args!(
        "bucket {}",
        if joined.welcome.bucket_full {
            "full"
        } else {
            "empty"
        }
    ));
    // The walk's circle (12 blocks from its centre) starts where the bot stands: a
    // server takes no jump onto it.
    let centre = [feet[0] - 12.0, feet[1], feet[2]];
    let (mut backlog, mut terrain_at): ((bool, Option<Instant>), Option<Instant>) =
        ((false, None), None);
    let mut told_ready = false;
    let mut last_move = Instant::now() - MOVE_EVERY;
    let mut last_edit = Instant::now();
    let mut edit_turn = 0u32;
    let playing = Instant::now();
    let mut tick = Instant::now();
    // The edits to offer again once the world's edits are in after joining again.
    let mut offer: Option<Vec<ToServer>> = None;
    loop {
        while let Some(event) = connection.try_recv() {
            match event {
                Event::Message(m) => bot.message(m, &mut backlog),
                Event::Ended(why) => {
                    bot.line(format_args!("ended {why}"));
                    if !options.rejoin {
                        return Err(why);
                    }
                    connection = join_again(&mut bot, &options.join, worlds);
                    backlog.0 = false;
                    offer = Some(bot.sent.offer_again());
                }
            }
        }
        if backlog.0
            && let Some(again) = offer.take()
        {
            bot.line(format_args!("offered {}", again.len()));
            for m in again {
                connection.send(m);
            }
        }
        bot.around.receive(bot.authority.edits());
        if terrain_at.is_none() && bot.around.ready_around(ME) {
            terrain_at = Some(Instant::now());
        }
        if !told_ready
            && backlog.0
            && let Some(t) = terrain_at
        {
            told_ready = true;
            let after = Instant::now().saturating_duration_since(t).as_millis();
            let bytes = connection.received_bytes();
            bot.line(format_args!("ready {after} {bytes} {}", wall_us()));
        }
        let secs = playing.elapsed().as_secs_f64();
        if options.walk && told_ready {
            // A circle of 12 blocks at 3 blocks a second.
            let a = secs * 3.0 / 12.0;
            let (x, z) = (centre[0] + 12.0 * a.cos(), centre[2] + 12.0 * a.sin());
            let y = bot.ground(x, z);
            bot.feet = [x, y, z];
            bot.authority.players_mut().place(ME, bot.feet);
            bot.around.player_at(ME, bot.feet);
            let every = Duration::from_secs_f32(1.0 / options.edits_per_second.max(0.01));
            if last_edit.elapsed() >= every {
                last_edit = Instant::now();
                edit_turn += 1;
                let ground =
                    BlockPos::containing_f64(bot.feet).offset([2, -1, (edit_turn % 3) as i32 - 1]);
                let action = if edit_turn % 2 == 1 {
                    Action::Break(ground)
                } else {
                    Action::Place(
                        ground,
                        PLACEABLE[(edit_turn as usize / 2) % PLACEABLE.len()],
                    )
                };
                let _ = bot.act(action, &connection);
            }
        }
        let dt = tick.elapsed().as_secs_f64();
        tick = Instant::now();
        // Its edits refill at the rules' rate, as the server's count of them does.
        bot.authority.advance(dt as f32);
        pave(&mut bot, &connection, dt);
        if last_move.elapsed() >= MOVE_EVERY {
            last_move = Instant::now();
            bot.send_move(&connection);
        }
        // Commands in order; `wait` holds the rest back while the bot plays on.
        while Instant::now() >= bot.resume
            && let Ok(line) = commands.try_recv()
        {
            if !command(&mut bot, &line, &connection)? {
                return finish(&mut bot, &connection, playing);
            }
        }
        if options.seconds.is_some_and(|s| secs >= s) {
            return finish(&mut bot, &connection, playing);
        }
        std::thread::sleep(options.pace);
    }
}

/// Joins again until it can, every [`REJOIN_EVERY`]: the new connection.
fn join_again(bot: &mut Bot, options: &JoinOptions, worlds: &Worlds) -> crate::client::Connection {
    loop {
        std::thread::sleep(REJOIN_EVERY);
        match join_among(options, worlds) {
            Ok(joined) => {
                bot.line(format_args!(
                    "joined-again {} {}",
                    joined.welcome.you, joined.welcome.backlog
                ));
                bot.names = joined.welcome.players.iter().cloned().collect();
                bot.heard.clear();
                return joined.connection;
            }
            Err(e) => bot.line(format_args!("rejoin-failed {e}")),
        }
    }
}

/// The land tiles around `feet` to pave: `n` columns of dry land (the top above the
/// sea, no river or lake over it) in the nearest square that has them, in rows back
/// and forth; the block goes on the top.
fn tiles(generator: &Generator, feet: [f64; 3], n: usize) -> std::collections::VecDeque<BlockPos> {
    let sea = generator.config().sea_level;
    let (cx, cz) = (feet[0].floor() as i32, feet[2].floor() as i32);
    let mut side = (n as f64).sqrt().ceil() as i32 + 2;
    loop {
        let mut out = std::collections::VecDeque::new();
        for row in 0..side {
            for i in 0..side {
                let x = cx - side / 2 + if row % 2 == 0 { i } else { side - 1 - i };
                let z = cz - side / 2 + row;
                let top = generator.column_top(x, z);
                if top.y >= sea && top.water.is_none() && top.block.is_solid() {
                    out.push_back(BlockPos::new(x, top.y + 1, z));
                    if out.len() == n {
                        return out;
                    }
                }
            }
        }
        if side > 512 {
            return out;
        }
        side *= 2;
    }
}

/// How fast a paving bot flies from tile to tile, blocks a second.
const PAVING_SPEED: f64 = 25.0;

/// Flies towards the next tile and paves it when over it, as fast as the rules allow
/// (every move sent).
fn pave(bot: &mut Bot, connection: &crate::client::Connection, dt: f64) {
    let Some(&p) = bot.paving.front() else {
        return;
    };
    let over = [
        f64::from(p.x) + 0.5,
        f64::from(p.y) + 1.0,
        f64::from(p.z) + 0.5,
    ];
    let d: Vec<f64> = (0..3).map(|i| over[i] - bot.feet[i]).collect();
    let far = d.iter().map(|v| v * v).sum::<f64>().sqrt();
    if far > 1e-9 {
        let step = (PAVING_SPEED * dt / far).min(1.0);
        bot.stand([0, 1, 2].map(|i| bot.feet[i] + d[i] * step));
        bot.send_move(connection);
        // Over the tile first: a body beside or below it may be in its way.
        if step < 1.0 {
            return;
        }
    }
    let block = PLACEABLE[(p.x + p.z).rem_euclid(PLACEABLE.len() as i32) as usize];
    // Its chunk is still being made here: wait.
    let Some(here) = bot.around.block(p) else {
        return;
    };
    // Taken already: on to the next; too fast: the same tile again later.
    if here.is_solid()
        || bot.act(Action::Place(p, block), connection) != Err(terravox_authority::Refusal::TooFast)
    {
        bot.paving.pop_front();
    }
}

/// The last lines: bytes received.
fn finish(
    bot: &mut Bot,
    connection: &crate::client::Connection,
    playing: Instant,
) -> Result<(), String> {
    let bytes = connection.received_bytes();
    bot.line(format_args!(
        "bytes {bytes} {:.3} {}",
        playing.elapsed().as_secs_f64(),
        wall_us()
    ));
    Ok(())
}

/// Does one command; whether to go on.
fn command(
    bot: &mut Bot,
    line: &str,
    connection: &crate::client::Connection,
) -> Result<bool, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let pos = |i: usize| -> Result<BlockPos, String> {
        let n = |j: usize| {
            words
                .get(j)
                .and_then(|w| w.parse::<i32>().ok())
                .ok_or_else(|| format!("bad command {line:?}"))
        };
        Ok(BlockPos::new(n(i)?, n(i + 1)?, n(i + 2)?))
    };
    match words.first().copied() {
        Some("quit") | None => return Ok(false),
        Some("break") => bot.try_act(Action::Break(pos(1)?), connection, line),
        Some("take") => bot.try_act(Action::Take(pos(1)?), connection, line),
        Some("place") => {
            let b = words
                .get(4)
                .and_then(|n| block_named(n))
                .ok_or_else(|| format!("bad block in {line:?}"))?;
            bot.try_act(Action::Place(pos(1)?, b), connection, line);
        }
        Some("goto") => {
            let p = pos(1)?;
            bot.stand([f64::from(p.x) + 0.5, f64::from(p.y), f64::from(p.z) + 0.5]);
            bot.send_move(connection);
        }
        Some("say") => connection.send(ToServer::Chat(words[1..].join(" "))),
        Some("link") => {
            let (rtt, resend) = connection.round_trip();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            bot.line(format_args!("link {:.1} {:.1}", ms(rtt), ms(resend)));
        }
        Some("others") => {
            let mut near: Vec<&str> = (bot.heard.iter())
                .filter(|(_, t)| t.elapsed() < HEARD_WITHIN)
                .filter_map(|(id, _)| bot.names.get(id).map(String::as_str))
                .collect();
            near.sort_unstable();
            let near = near.join(" ");
            bot.line(format_args!("others {near}"));
        }
        Some("pave") => {
            let n: usize = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(100);
            bot.paving = tiles(&bot.generator, bot.feet, n);
        }
        #[cfg(feature = "test-tools")]
        Some("flood") => {
            let n: usize = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(1000);
            for i in 0..n {
                connection.send(ToServer::Chat(format!("flood {i}")));
            }
        }
        Some("dump") => {
            let path = words.get(1).ok_or("dump needs a file")?;
            dump(bot, Path::new(path))?;
            bot.line(format_args!("dumped {path}"));
        }
        Some("find-water") => {
            // A source of water within reach of the eyes, the nearest first.
            let eye = BlockPos::containing_f64([bot.feet[0], bot.feet[1] + 1.6, bot.feet[2]]);
            let mut found = None;
            'search: for r in 0..=7i32 {
                for dy in -r..=r {
                    for dz in -r..=r {
                        for dx in -r..=r {
                            if dx.abs().max(dy.abs()).max(dz.abs()) != r {
                                continue;
                            }
                            let p = eye.offset([dx, dy, dz]);
                            if bot.around.block(p) == Some(Block::Water) {
                                found = Some(p);
                                break 'search;
                            }
                        }
                    }
                }
            }
            match found {
                Some(p) => bot.line(format_args!("water {} {} {}", p.x, p.y, p.z)),
                None => bot.line(format_args!("no-water")),
            }
        }
        #[cfg(feature = "test-tools")]
        Some("garbage") => {
            // Bytes that are no message (a test of the server, which must drop this
            // client alone).
            let n: usize = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(1);
            for i in 0..n {
                connection.send_bytes(vec![0xee, (i % 251) as u8, 0x13, 0x37]);
            }
        }
        Some("wait") => {
            let ms: u64 = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(1000);
            bot.resume = Instant::now() + Duration::from_millis(ms);
        }
        Some(other) => bot.line(format_args!("unknown {other}")),
    }
    Ok(true)
}

/// Writes the bot's copy of the world's edits, one `X Y Z BLOCK` a line (the block
/// as a [`word`]), in order.
fn dump(bot: &Bot, path: &Path) -> Result<(), String> {
    let mut text = String::new();
    for (p, b) in bot.authority.edits().iter() {
        text.push_str(&format!("{} {} {} {}\n", p.x, p.y, p.z, word(b)));
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
