//! The active world's edits and their save file: loaded when a world starts (and when
//! the panel switches worlds), saved every few seconds when something changed (written
//! on an I/O task, off the main thread), and saved at once when switching worlds and on
//! exit. An unreadable save is moved aside with a message.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, block_on, futures::check_ready};
use terravox_edits::{Edits, SaveDir, SaveError};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::WorldConfig;

use crate::config::{ActiveWorld, Notices, WorldChanged};
use crate::streaming::{Chunks, StreamingSystems};

/// Seconds between autosaves while there are unsaved edits.
pub const AUTOSAVE_SECONDS: f32 = 5.0;

/// The edits of the world being played, and where they are saved.
#[derive(Resource, Debug)]
pub struct WorldEdits {
    /// The world they belong to.
    pub world: WorldConfig,
    /// The edited blocks.
    pub edits: Edits,
    /// Where saves go; `None` keeps edits in memory only (tests, benchmarks).
    pub saves: Option<SaveDir>,
    /// The outcome of the last load or save, for the panel.
    pub status: String,
    /// Bumped by every change of the edits.
    revision: u64,
    /// The revision on disk.
    saved: u64,
    /// Seconds (app time) of the last save attempt.
    last_save: f32,
    /// A background write and the revision it writes.
    writing: Option<Task<(u64, Result<(), SaveError>)>>,
}

impl WorldEdits {
    /// Opens `world`'s edits from `saves`: an unreadable save is moved aside and
    /// reported in `notices`. If it cannot even be moved aside, saving is off for this
    /// world, so the file is never overwritten.
    pub fn open(world: &WorldConfig, mut saves: Option<SaveDir>, notices: &mut Notices) -> Self {
        let (edits, status) = match &saves {
            None => (
                Edits::new(),
                "edits are not saved (no save folder)".to_owned(),
            ),
            Some(dir) => {
                let opened = dir.open(world);
                let status = match opened.problem {
                    Some(problem) => {
                        error!("{problem}");
                        notices.push(problem.clone());
                        if opened.moved_to.is_none() {
                            saves = None;
                        }
                        problem
                    }
                    None if opened.edits.is_empty() => "no edits yet".to_owned(),
                    None => format!("loaded {} edited blocks", opened.edits.len()),
                };
                (opened.edits, status)
            }
        };
        Self {
            world: world.clone(),
            edits,
            saves,
            status,
            revision: 0,
            saved: 0,
            last_save: 0.0,
            writing: None,
        }
    }

    /// Whether some edits are not on disk yet.
    pub fn dirty(&self) -> bool {
        self.revision != self.saved
    }

    /// Whether a background write is under way.
    pub fn writing(&self) -> bool {
        self.writing.is_some()
    }

    /// The save file of this world, if saving is on.
    pub fn path(&self) -> Option<PathBuf> {
        self.saves.as_ref().map(|d| d.path_for(&self.world))
    }

    /// Records an edit (call after [`Chunks::set_block`] accepted it).
    pub fn record(&mut self, pos: BlockPos, block: Block) {
        if self.edits.set(pos, block) {
            self.revision += 1;
        }
    }

    /// Takes in the outcome of a write of `revision`. Errors go to the status, the log
    /// and `notices`; the edits stay dirty so the next autosave retries.
    fn finished(&mut self, revision: u64, result: Result<(), SaveError>, notices: &mut Notices) {
        match result {
            Ok(()) => {
                self.saved = self.saved.max(revision);
                self.status = format!("saved {} edited blocks", self.edits.len());
            }
            Err(e) => {
                let msg = e.to_string();
                error!("{msg}");
                if self.status != msg {
                    notices.push(msg.clone());
                }
                self.status = msg;
            }
        }
    }

    /// Waits for a background write, if one is under way.
    fn finish_writing(&mut self, notices: &mut Notices) {
        if let Some(task) = self.writing.take() {
            let (revision, result) = block_on(task);
            self.finished(revision, result, notices);
        }
    }

    /// Takes in a finished background write without waiting.
    fn poll_writing(&mut self, notices: &mut Notices) {
        if let Some(task) = &mut self.writing
            && let Some((revision, result)) = check_ready(task)
        {
            self.writing = None;
            self.finished(revision, result, notices);
        }
    }

    /// Writes the edits now, on this thread, if some are not on disk (after any
    /// background write): for switching worlds and exiting.
    pub fn save(&mut self, now: f32, notices: &mut Notices) {
        self.finish_writing(notices);
        self.last_save = now;
        let Some(dir) = &self.saves else { return };
        if !self.dirty() {
            return;
        }
        let result = dir.save(&self.world, &self.edits);
        self.finished(self.revision, result, notices);
    }

    /// Starts writing the edits on an I/O task if some are not on disk and no write
    /// is under way: the autosave, which must not stall a frame.
    pub fn save_in_background(&mut self, now: f32) {
        if self.writing.is_some() || !self.dirty() {
            return;
        }
        let Some(dir) = self.saves.clone() else {
            return;
        };
        self.last_save = now;
        let (world, edits, revision) = (self.world.clone(), self.edits.clone(), self.revision);
        self.writing =
            Some(IoTaskPool::get().spawn(async move { (revision, dir.save(&world, &edits)) }));
    }

    /// Forgets every edit of this world and deletes its save; the chunks they touched
    /// are generated again.
    pub fn discard(&mut self, chunks: &mut Chunks, notices: &mut Notices) {
        // A write under way would bring the file back after the delete.
        self.finish_writing(notices);
        let touched = self.edits.touched_chunks();
        let count = self.edits.len();
        self.edits = Edits::new();
        self.revision += 1;
        self.saved = self.revision;
        if let Some(dir) = &self.saves
            && let Err(e) = dir.delete(&self.world)
        {
            error!("{e}");
            notices.push(e.to_string());
        }
        self.status = format!("discarded {count} edited blocks");
        chunks.reload(touched);
    }
}

/// Where saves go, from the start-up options.
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveSetting(pub Option<SaveDir>);

/// Asks to discard the active world's edits (the panel has confirmed it).
#[derive(Message, Clone, Copy, Debug)]
pub struct DiscardEdits;

/// Persistence systems: switching, discarding and saving edits (before streaming
/// plans, so new tasks see the right edits).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PersistenceSystems;

/// The persistence plugin, saving under `save_dir`; `None` keeps edits in memory only.
pub fn plugin(save_dir: Option<PathBuf>) -> impl Fn(&mut App) {
    let saves = save_dir.map(SaveDir::new);
    move |app: &mut App| {
        app.insert_resource(SaveSetting(saves.clone()))
            .add_message::<DiscardEdits>()
            .add_systems(PreStartup, open_edits)
            .add_systems(
                Update,
                (switch_world_edits, discard_edits, autosave)
                    .chain()
                    .in_set(PersistenceSystems)
                    .before(StreamingSystems::Plan),
            )
            // After the window plugin's exit check, which runs in `Last` too.
            .add_systems(Last, save_on_exit.after(bevy::window::ExitSystems));
    }
}

fn open_edits(
    mut commands: Commands,
    world: Res<ActiveWorld>,
    setting: Res<SaveSetting>,
    mut notices: ResMut<Notices>,
) {
    commands.insert_resource(WorldEdits::open(
        &world.config,
        setting.0.clone(),
        &mut notices,
    ));
}

fn switch_world_edits(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    time: Res<Time>,
    mut edits: ResMut<WorldEdits>,
    mut notices: ResMut<Notices>,
) {
    if changed.read().count() == 0 || edits.world == world.config {
        return;
    }
    edits.save(time.elapsed_secs(), &mut notices);
    let saves = edits.saves.clone();
    *edits = WorldEdits::open(&world.config, saves, &mut notices);
}

fn discard_edits(
    mut asked: MessageReader<DiscardEdits>,
    mut edits: ResMut<WorldEdits>,
    mut chunks: ResMut<Chunks>,
    mut notices: ResMut<Notices>,
) {
    if asked.read().count() > 0 {
        edits.discard(&mut chunks, &mut notices);
    }
}

fn autosave(time: Res<Time>, mut edits: ResMut<WorldEdits>, mut notices: ResMut<Notices>) {
    edits.poll_writing(&mut notices);
    let now = time.elapsed_secs();
    if edits.dirty() && now - edits.last_save >= AUTOSAVE_SECONDS {
        edits.save_in_background(now);
    }
}

fn save_on_exit(
    mut exit: MessageReader<AppExit>,
    time: Res<Time>,
    mut edits: ResMut<WorldEdits>,
    mut notices: ResMut<Notices>,
) {
    if exit.read().count() > 0 {
        edits.save(time.elapsed_secs(), &mut notices);
    }
}
