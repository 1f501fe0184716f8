//! Save files of the edit overlay, I/O only: the start world's edits are loaded at
//! start-up and a switched-to world's when the world changes (the old world's are saved
//! first); unsaved edits are written every few seconds on an I/O task (off the main
//! thread), and at once on exit; a discarded world's save is deleted. An unreadable save
//! is moved aside with a notice; one that cannot even be moved turns saving off for
//! that world, so it is never overwritten.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, block_on, futures::check_ready};
use terravox_edits::{SaveDir, SaveError};

use crate::GameSystems;
use crate::world::{ActiveWorld, DiscardEdits, Notices, WorldChanged, WorldEdits};

/// Seconds between autosaves while there are unsaved edits.
const AUTOSAVE_SECONDS: f32 = 5.0;

/// Where the active world's edits are saved, and how saving goes.
#[derive(Resource, Debug)]
pub struct Saves {
    /// The save folder from the options; `None` keeps edits in memory only.
    setting: Option<SaveDir>,
    /// The folder for the active world: the setting, unless saving is off for it.
    dir: Option<SaveDir>,
    /// The outcome of the last load or save, for the panel.
    status: String,
    /// The overlay revision on disk.
    saved: u64,
    /// Seconds (app time) of the last save attempt.
    last_save: f32,
    /// A background write and the revision it writes.
    writing: Option<Task<(u64, Result<(), SaveError>)>>,
}

impl Saves {
    fn new(setting: Option<SaveDir>) -> Self {
        Self {
            dir: setting.clone(),
            setting,
            status: String::new(),
            saved: 0,
            last_save: 0.0,
            writing: None,
        }
    }

    /// Whether some of `edits` are not on disk yet.
    pub fn dirty(&self, edits: &WorldEdits) -> bool {
        edits.revision() != self.saved
    }

    /// Whether a background write is under way.
    pub fn writing(&self) -> bool {
        self.writing.is_some()
    }

    /// The save file of the world `edits` belong to, if saving is on for it.
    pub fn path(&self, edits: &WorldEdits) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.path_for(edits.world()))
    }

    /// The outcome of the last load, save or discard.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Loads the save of `world` into `edits`: an unreadable save is moved aside and
    /// reported; if it cannot even be moved aside, saving is off for this world.
    fn open(
        &mut self,
        world: &terravox_worldgen::WorldConfig,
        edits: &mut WorldEdits,
        notices: &mut Notices,
    ) {
        self.dir = self.setting.clone();
        let loaded = match &self.setting {
            None => {
                self.status = "edits are not saved (no save folder)".to_owned();
                terravox_edits::Edits::new()
            }
            Some(dir) => {
                let opened = dir.open(world);
                self.status = match opened.problem {
                    Some(problem) => {
                        error!("{problem}");
                        notices.push(problem.clone());
                        if opened.keep_off {
                            self.dir = None;
                        }
                        problem
                    }
                    None if opened.edits.is_empty() => "no edits yet".to_owned(),
                    None => format!("loaded {} edited blocks", opened.edits.len()),
                };
                opened.edits
            }
        };
        edits.replace(world.clone(), loaded);
        self.saved = edits.revision();
    }

    /// Takes in the outcome of a write of `revision`. Errors go to the status, the log
    /// and `notices`; the edits stay dirty so the next autosave retries.
    fn finished(&mut self, revision: u64, result: Result<(), SaveError>, notices: &mut Notices) {
        match result {
            Ok(()) => {
                self.saved = self.saved.max(revision);
                self.status = "saved".to_owned();
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

    /// Writes `edits` now, on this thread, if some are not on disk (after any
    /// background write): for switching worlds and exiting.
    fn save_now(&mut self, edits: &WorldEdits, now: f32, notices: &mut Notices) {
        self.finish_writing(notices);
        self.last_save = now;
        let Some(dir) = &self.dir else { return };
        if !self.dirty(edits) {
            return;
        }
        let result = dir.save(edits.world(), edits.edits());
        self.finished(edits.revision(), result, notices);
    }

    /// Starts writing `edits` on an I/O task if some are not on disk and no write is
    /// under way: the autosave, which must not stall a frame.
    fn save_in_background(&mut self, edits: &WorldEdits, now: f32) {
        if self.writing.is_some() || !self.dirty(edits) {
            return;
        }
        let Some(dir) = self.dir.clone() else { return };
        self.last_save = now;
        let (world, copy, revision) = (
            edits.world().clone(),
            edits.edits().clone(),
            edits.revision(),
        );
        self.writing =
            Some(IoTaskPool::get().spawn(async move { (revision, dir.save(&world, &copy)) }));
    }
}

/// The persistence plugin, saving under `save_dir`; `None` keeps edits in memory only.
pub(crate) fn plugin(save_dir: Option<PathBuf>) -> impl Fn(&mut App) {
    let setting = save_dir.map(SaveDir::new);
    move |app: &mut App| {
        app.insert_resource(Saves::new(setting.clone()))
            .add_systems(Startup, open_start_world)
            .add_systems(
                Update,
                (
                    switch_saves.run_if(on_message::<WorldChanged>),
                    delete_discarded.run_if(on_message::<DiscardEdits>),
                    autosave,
                )
                    .chain()
                    .in_set(GameSystems::Persist),
            )
            // After the window plugin's exit check, which runs in `Last` too.
            .add_systems(Last, save_on_exit.after(bevy::window::ExitSystems));
    }
}

fn open_start_world(
    world: Res<ActiveWorld>,
    mut saves: ResMut<Saves>,
    mut edits: ResMut<WorldEdits>,
    mut notices: ResMut<Notices>,
) {
    saves.open(world.config(), &mut edits, &mut notices);
}

/// On a world switch: saves the old world's edits, then loads the new world's.
fn switch_saves(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    time: Res<Time>,
    mut saves: ResMut<Saves>,
    mut edits: ResMut<WorldEdits>,
    mut notices: ResMut<Notices>,
) {
    if changed.read().count() == 0 || edits.world() == world.config() {
        return;
    }
    saves.save_now(&edits, time.elapsed_secs(), &mut notices);
    saves.open(world.config(), &mut edits, &mut notices);
}

/// Deletes the save of a world whose edits were discarded (after any write under
/// way, which would bring the file back).
fn delete_discarded(
    mut asked: MessageReader<DiscardEdits>,
    edits: Res<WorldEdits>,
    mut saves: ResMut<Saves>,
    mut notices: ResMut<Notices>,
) {
    if asked.read().count() == 0 {
        return;
    }
    saves.finish_writing(&mut notices);
    saves.saved = edits.revision();
    saves.status = "edits discarded".to_owned();
    if let Some(dir) = &saves.dir
        && let Err(e) = dir.delete(edits.world())
    {
        error!("{e}");
        notices.push(e.to_string());
        saves.status = e.to_string();
    }
}

fn autosave(
    time: Res<Time>,
    edits: Res<WorldEdits>,
    mut saves: ResMut<Saves>,
    mut notices: ResMut<Notices>,
) {
    saves.poll_writing(&mut notices);
    let now = time.elapsed_secs();
    if saves.dirty(&edits) && now - saves.last_save >= AUTOSAVE_SECONDS {
        saves.save_in_background(&edits, now);
    }
}

fn save_on_exit(
    mut exit: MessageReader<AppExit>,
    time: Res<Time>,
    edits: Res<WorldEdits>,
    mut saves: ResMut<Saves>,
    mut notices: ResMut<Notices>,
) {
    if exit.read().count() > 0 {
        saves.save_now(&edits, time.elapsed_secs(), &mut notices);
    }
}
