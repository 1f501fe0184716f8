//! [`Authority`]: one world's edits, their rules, the water, the clock and the players.

use terravox_edits::Edits;
use terravox_edits::fluid::{self, MAX_TICKS, Pending, STEP_SECONDS, Step, Write};
use terravox_voxel::{Block, BlockPos, ChunkPos};
use terravox_worldgen::WorldConfig;

use crate::blocks::Blocks;
use crate::changed::Changed;
use crate::clock::Clock;
use crate::flow_steps::{Laid, Laying, Picture, StepJob};
use crate::players::{PlayerId, Players};
use crate::rules::{self, Action, Refusal};

/// Edits a client keeps in hand below the rules' rate (see [`Authority::act`]).
const CLIENT_RESERVE: f32 = 3.0;

/// What an authority decides for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Role {
    /// The world's own authority (single-player, a server): it decides every edit,
    /// steps the water, and its edits are saved by whoever drives it.
    #[default]
    Local,
    /// A live draft of the panel: no edits, no water.
    Draft,
    /// A client of a server: it decides its player's edits at once so they show, but
    /// the server's word is final; the water is the server's and nothing is saved.
    Client,
}

/// The authority over one world (see the crate docs).
#[derive(Clone, Debug)]
pub struct Authority {
    world: WorldConfig,
    role: Role,
    edits: Edits,
    /// Bumped by every change of the edits or their water, never reset (also not by
    /// a switch to another world), so a saved revision names one state of the edits.
    revision: u64,
    /// Bumped when the edits are replaced or cleared: a step of the water taken from
    /// the edits before belongs to other edits.
    lineage: u64,
    changed: Changed,
    clock: Clock,
    players: Players,
    /// Game time since the water's last step was due.
    water_clock: f32,
}

impl Authority {
    /// The authority over `world`, with no edits yet.
    pub fn new(world: WorldConfig, role: Role) -> Self {
        Self {
            world,
            role,
            edits: Edits::new(),
            revision: 0,
            lineage: 0,
            changed: Changed::Nothing,
            clock: Clock::default(),
            players: Players::default(),
            water_clock: 0.0,
        }
    }

    /// The world these edits belong to.
    pub fn world(&self) -> &WorldConfig {
        &self.world
    }

    /// What this authority decides for.
    pub fn role(&self) -> Role {
        self.role
    }

    /// The edited blocks, with the water they woke.
    pub fn edits(&self) -> &Edits {
        &self.edits
    }

    /// The water waiting to tick.
    pub fn pending(&self) -> &Pending {
        self.edits.pending()
    }

    /// The revision of the edits: it changes with every change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Which edits these are: bumped when they are replaced or cleared.
    pub fn lineage(&self) -> u64 {
        self.lineage
    }

    /// Whether the edits changed since [`Authority::take_changed`] was last called.
    pub fn has_changed(&self) -> bool {
        self.changed != Changed::Nothing
    }

    /// Where the edits changed since this was last called.
    pub fn take_changed(&mut self) -> Changed {
        std::mem::take(&mut self.changed)
    }

    /// The time of day.
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Sets the time of day (a start-up hour, or a client following its server).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The players in the world.
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// The players, to place, move or remove.
    pub fn players_mut(&mut self) -> &mut Players {
        &mut self.players
    }

    /// Decides for `role` from now on.
    pub fn set_role(&mut self, role: Role) {
        self.role = role;
    }

    /// Takes another world's edits, or this world's as read from its save: a step
    /// of the water of the edits before is dropped.
    pub fn replace(&mut self, world: WorldConfig, edits: Edits) {
        let any = !(self.edits.is_empty() && edits.is_empty());
        self.world = world;
        self.edits = edits;
        self.revision += 1;
        self.lineage += 1;
        self.water_clock = 0.0;
        if any {
            self.changed = Changed::Everything;
        }
    }

    /// Forgets every edit; returns the chunks they touched (padding holders included).
    pub fn clear(&mut self) -> Vec<ChunkPos> {
        let touched: Vec<ChunkPos> = self.edits.touched_chunks().into_iter().collect();
        self.edits = Edits::new();
        self.revision += 1;
        self.lineage += 1;
        self.changed.note(touched.iter().copied());
        touched
    }

    /// Runs the world on by `seconds` of game time: the clock, the players' edits
    /// left, and the water's time to its next step.
    pub fn advance(&mut self, seconds: f32) {
        self.clock.advance(seconds);
        self.players.refill(seconds);
        if self.role == Role::Local {
            self.water_clock += seconds;
        }
    }

    /// Player `id` asks for `action` over the loaded world `blocks`: the block it
    /// changed, with what it holds now, or why not. A change wakes the water around
    /// it; taking and pouring water fill and empty the player's bucket.
    pub fn act(
        &mut self,
        id: PlayerId,
        action: Action,
        blocks: &mut (impl Blocks + ?Sized),
    ) -> Result<(BlockPos, Block), Refusal> {
        if self.role == Role::Draft {
            return Err(Refusal::Draft);
        }
        let player = *self.players.get_mut(id).ok_or(Refusal::UnknownPlayer)?;
        // A client keeps a few edits in hand: its edits reach the server bunched
        // (the network's jitter), and what it shows must not be refused for speed.
        let reserve = if self.role == Role::Client {
            CLIENT_RESERVE
        } else {
            0.0
        };
        if player.tokens < 1.0 + reserve {
            return Err(Refusal::TooFast);
        }
        let made = self.decide_and_make(id, player, action, blocks);
        // An edit costs one of the player's edits, made or refused, unless its chunk
        // was not there to look at (asked again once it is, it costs then).
        if made != Err(Refusal::NotLoaded)
            && let Some(p) = self.players.get_mut(id)
        {
            p.tokens -= 1.0;
        }
        made
    }

    /// [`Authority::act`] once the player may edit.
    fn decide_and_make(
        &mut self,
        id: PlayerId,
        player: crate::players::Player,
        action: Action,
        blocks: &mut (impl Blocks + ?Sized),
    ) -> Result<(BlockPos, Block), Refusal> {
        let others: Vec<[f64; 3]> = self
            .players
            .iter()
            .filter(|(other, _)| *other != id)
            .map(|(_, feet)| feet)
            .collect();
        let asker = rules::Asker {
            feet: player.feet,
            bucket_full: player.bucket_full,
        };
        let block = rules::decide(action, &asker, &others, &*blocks, self.edits.pending())?;
        let p = action.pos();
        if !self.set_block(p, block, blocks) {
            return Err(Refusal::NotLoaded);
        }
        match action {
            Action::Take(_) => self.players.set_bucket(id, true),
            Action::Place(_, Block::Water) => self.players.set_bucket(id, false),
            _ => {}
        }
        Ok((p, block))
    }

    /// Sets the block at `p` (in a loaded chunk) and records it, waking the water
    /// around it: a change no player's rules decide (a benchmark's lake, a test's
    /// land). Whether the chunk was loaded.
    pub fn set_block(
        &mut self,
        p: BlockPos,
        b: Block,
        blocks: &mut (impl Blocks + ?Sized),
    ) -> bool {
        if !blocks.set(p, b) {
            return false;
        }
        self.record(p, b);
        let before = self.edits.pending().len();
        self.edits.pending_mut().wake_around(p, &*blocks);
        if self.edits.pending().len() != before {
            self.revision += 1;
        }
        true
    }

    /// Lays the block at `p` still, as a generator lays blocks: recorded, laid into
    /// the loaded chunks, nothing woken (a client taking its server's word, whose
    /// water is the server's; a benchmark's lake before its wall breaks).
    pub fn lay(&mut self, p: BlockPos, b: Block, blocks: &mut (impl Blocks + ?Sized)) {
        blocks.set(p, b);
        self.record(p, b);
    }

    /// Records an edit (after the loaded chunks took it).
    fn record(&mut self, p: BlockPos, b: Block) {
        if self.edits.set(p, b) {
            self.revision += 1;
            self.changed.note([p.to_chunk().0]);
        }
    }

    /// Whether a step of the water is due (only where this authority steps it).
    pub fn water_due(&self) -> bool {
        self.role == Role::Local && self.water_clock >= STEP_SECONDS
    }

    /// Holds the water still (its world is not complete yet): the time to the next
    /// step starts again.
    pub fn hold_water(&mut self) {
        self.water_clock = 0.0;
    }

    /// Wakes the water waiting for chunks that `loaded` says are loaded now; how
    /// many blocks woke (the edits changed only then).
    pub fn resume_water(&mut self, loaded: impl Fn(ChunkPos) -> bool) -> usize {
        if self.edits.pending().waiting().len() == 0 {
            return 0;
        }
        let woken = self.edits.pending_mut().resume(loaded);
        if woken > 0 {
            self.revision += 1;
        }
        woken
    }

    /// Takes the next step of the water, once one is due: the step under way when
    /// a save was read in the middle of one, else the next [`MAX_TICKS`] blocks due
    /// (`None` when nothing is). Its time is spent either way, at most one step
    /// behind: a long frame does not make the water race.
    pub fn take_step(&mut self, blocks: &(impl Blocks + ?Sized)) -> Option<StepJob> {
        if !self.water_due() {
            return None;
        }
        self.water_clock = (self.water_clock - STEP_SECONDS).min(STEP_SECONDS);
        let pending = self.edits.pending();
        let due = if pending.is_running() {
            pending.running().collect()
        } else if pending.due_count() == 0 {
            return None;
        } else {
            self.revision += 1;
            self.edits.pending_mut().take(MAX_TICKS)
        };
        Some(StepJob {
            picture: Picture::around(blocks, &due),
            due,
            lineage: self.lineage,
        })
    }

    /// Lays a finished `step` of the edits of `lineage` into the world:
    /// [`Authority::lay_writes`] of all its writes, then [`Authority::settle_step`].
    /// `None` when the edits were replaced since (it is not this world's water).
    pub fn lay_step(
        &mut self,
        lineage: u64,
        step: &Step,
        blocks: &mut (impl Blocks + ?Sized),
    ) -> Option<Laid> {
        let changes = self.lay_writes(lineage, &step.writes, blocks)?;
        self.settle_step(lineage, step, blocks);
        Some(Laid {
            changes,
            ticked: step.ticked,
        })
    }

    /// Lays some writes of a finished step of the edits of `lineage` (a part at a
    /// time, so no frame lays a whole flood): every write whose block is still what
    /// the step read (an edit made since wins). The blocks changed, or `None` when
    /// the edits were replaced since. The next step may be taken once the step is
    /// settled ([`Authority::settle_step`]).
    pub fn lay_writes(
        &mut self,
        lineage: u64,
        writes: &[Write],
        blocks: &mut (impl Blocks + ?Sized),
    ) -> Option<Vec<(BlockPos, Block)>> {
        if lineage != self.lineage {
            return None;
        }
        let mut laying = Laying {
            blocks,
            edits: &mut self.edits,
            changed: &mut self.changed,
            out: Vec::new(),
        };
        fluid::lay(writes, &mut laying);
        let changes = laying.out;
        if !changes.is_empty() {
            self.revision += 1;
        }
        Some(changes)
    }

    /// Ends a step of the edits of `lineage` whose writes are all laid: the water
    /// around what it changed wakes for the next step. Whether it was this world's.
    pub fn settle_step(
        &mut self,
        lineage: u64,
        step: &Step,
        blocks: &mut (impl Blocks + ?Sized),
    ) -> bool {
        if lineage != self.lineage {
            return false;
        }
        let mut laying = Laying {
            blocks,
            edits: &mut self.edits,
            changed: &mut self.changed,
            out: Vec::new(),
        };
        fluid::settle(step, &mut laying);
        self.revision += 1;
        true
    }
}
