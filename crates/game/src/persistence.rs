//! Save files of the edit overlay, I/O only, never on the main thread while playing:
//!
//! - a world's edits are read on the I/O pool when it starts or is switched to; it
//!   shows as generated meanwhile (the HUD says the edits are loading) and its chunks
//!   are generated again with the edits once they are in; edits made meanwhile stay;
//! - unsaved edits are written every few seconds on the I/O pool; a failed write is
//!   retried, and the edits stay in memory until one succeeds — also those of a world
//!   switched away from (switching back finds them);
//! - on exit (window close, SIGTERM, SIGINT) everything unsaved is written; what
//!   cannot be written goes to a rescue copy beside the save (or in the temporary
//!   folder), never replacing a file;
//! - a discarded world's save is deleted;
//! - a world is held by one game at a time: its lock (`terravox_edits::lock`) is
//!   taken when its save is read and kept until its edits are written after a switch
//!   away, or the game ends. A second game on the same world and folder opens it
//!   read-only, with a notice naming the first; its edits go to a rescue copy at exit.
//!
//! Every write gets a snapshot of the overlay that costs the same at any size
//! (`Edits` is a persistent map), so an autosave never stalls a frame.
//!
//! Unreadable saves are handled by `terravox_edits::SaveDir::open`: damaged ones are
//! moved aside, unreadable ones stay and turn saving off for that world.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, block_on, futures::check_ready};
use terravox_authority::Role;
use terravox_edits::{Edits, Opened, SaveDir, SaveError, WorldLock};
use terravox_voxel::ChunkPos;
use terravox_worldgen::WorldConfig;

use crate::schedule::GameSystems;
use crate::world::{
    ActiveWorld, DiscardEdits, Notices, ReloadChunks, WorldAuthority, WorldChanged, WorldReshaped,
};

/// Seconds between autosaves (and retries) while there are unsaved edits.
const AUTOSAVE_SECONDS: f32 = 5.0;

/// A write on the I/O pool and the overlay revision it writes.
type Write = Task<(u64, Result<(), SaveError>)>;

/// Another world's edits that are not on disk yet.
struct Pending {
    world: WorldConfig,
    edits: Edits,
    /// Where to save them; `None` when saving is off for that world.
    dir: Option<SaveDir>,
    /// That world's lock, released once they are written.
    lock: Option<WorldLock>,
    /// The write under way, if any.
    task: Option<Task<Result<(), SaveError>>>,
    /// Seconds (app time) of the last attempt.
    tried: f32,
}

/// Where the active world's edits are saved, and how saving goes.
#[derive(Resource)]
pub struct Saves {
    /// The save folder from the options; `None` keeps edits in memory only.
    setting: Option<SaveDir>,
    /// The folder for the active world: the setting, unless saving is off for it.
    dir: Option<SaveDir>,
    /// The outcome of the last load or save, for the panel.
    status: String,
    /// The last save error, while saving fails.
    failing: Option<String>,
    /// The overlay revision on disk; `None` while none of the active world's current
    /// edits are (kept in memory after failed saves).
    saved: Option<u64>,
    /// Seconds (app time) of the last save attempt.
    last_save: f32,
    /// The active world's edits being read, and the chunks they touch.
    loading: Option<Task<(Opened, Vec<ChunkPos>)>>,
    /// The active world's write under way.
    writing: Option<Write>,
    /// The active world's lock, while this game holds it.
    lock: Option<WorldLock>,
    /// Other worlds' unsaved edits.
    others: Vec<Pending>,
    /// The active world is a draft of the panel: no save, no edits.
    draft: bool,
}

impl Saves {
    fn new(setting: Option<SaveDir>) -> Self {
        Self {
            dir: setting.clone(),
            setting,
            status: String::new(),
            failing: None,
            saved: Some(0),
            last_save: 0.0,
            loading: None,
            writing: None,
            lock: None,
            others: Vec::new(),
            draft: false,
        }
    }

    /// Whether some of `edits` are not on disk yet.
    pub fn dirty(&self, edits: &WorldAuthority) -> bool {
        Some(edits.revision()) != self.saved
    }

    /// Whether a background write of the active world is under way.
    pub fn writing(&self) -> bool {
        self.writing.is_some()
    }

    /// Whether the active world's edits are still being read.
    pub fn loading(&self) -> bool {
        self.loading.is_some()
    }

    /// The save file of the world `edits` belong to, if saving is on for it.
    pub fn path(&self, edits: &WorldAuthority) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.path_for(edits.world()))
    }

    /// The outcome of the last load, save or discard.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Why saving fails, while it does (the edits are kept and retried).
    pub fn failing(&self) -> Option<&str> {
        self.failing.as_deref()
    }

    /// How many other worlds have edits that are not on disk yet.
    pub fn unsaved_worlds(&self) -> usize {
        self.others.len()
    }

    /// Follows the active world after a switch or reshape: the old world's edits
    /// (unless it was a draft, which has none) are kept until written; the new
    /// world's are read (or taken from memory), or, for a draft, there are none and
    /// nothing is saved.
    fn follow(
        &mut self,
        world: &ActiveWorld,
        now: f32,
        edits: &mut WorldAuthority,
        notices: &mut Notices,
    ) {
        if edits.world() == world.config() && self.draft == world.is_draft() {
            return;
        }
        if !self.draft {
            // A read under way must be merged first, or saving would drop what it holds.
            self.finish_loading(edits, notices);
            self.keep_unsaved(edits, now);
        }
        if world.is_draft() {
            self.open_draft(world.config(), edits);
        } else {
            self.open(world.config(), edits);
        }
    }

    /// Starts on a draft: no edits, no save, no lock.
    fn open_draft(&mut self, world: &WorldConfig, edits: &mut WorldAuthority) {
        edits.replace(world.clone(), Edits::new());
        edits.set_role(Role::Draft);
        self.draft = true;
        self.dir = None;
        self.lock = None;
        self.loading = None;
        self.failing = None;
        self.saved = Some(edits.revision());
        self.status = "a draft: nothing is saved until you Apply it".to_owned();
    }

    /// Starts on `world`: its unsaved edits from memory if it has some, else no edits
    /// while its save is read on the I/O pool.
    fn open(&mut self, world: &WorldConfig, edits: &mut WorldAuthority) {
        self.draft = false;
        if edits.role() != Role::Client {
            edits.set_role(Role::Local);
        }
        self.dir = self.setting.clone();
        self.failing = None;
        let canonical = world.canonical();
        if let Some(i) = self
            .others
            .iter()
            .position(|p| p.world.canonical() == canonical)
        {
            let mut pending = self.others.swap_remove(i);
            let written = pending.task.take().map(block_on);
            self.dir = pending.dir;
            self.lock = pending.lock;
            edits.replace(world.clone(), pending.edits);
            // Not on disk unless the write finished: then dirty, and the autosave writes it.
            self.saved = matches!(written, Some(Ok(()))).then(|| edits.revision());
            self.status = format!("{} edited blocks kept in memory", edits.edits().len());
            return;
        }
        edits.replace(world.clone(), Edits::new());
        self.saved = Some(edits.revision());
        match self.setting.clone() {
            None => self.status = "edits are not saved (no save folder)".to_owned(),
            Some(dir) => {
                self.status = "loading your edits…".to_owned();
                let world = world.clone();
                self.loading = Some(IoTaskPool::get().spawn(async move {
                    let opened = dir.open(&world);
                    let touched = opened.edits.touched_chunks().into_iter().collect();
                    (opened, touched)
                }));
            }
        }
    }

    /// Takes in a finished read: the loaded edits with the ones made meanwhile on top.
    /// Returns the chunks to generate again (`touched`, found on the I/O pool).
    fn loaded(
        &mut self,
        (opened, touched): (Opened, Vec<ChunkPos>),
        edits: &mut WorldAuthority,
        notices: &mut Notices,
    ) -> Vec<ChunkPos> {
        self.loading = None;
        if let Some(problem) = &opened.problem {
            error!("{problem}");
            notices.push(problem.clone());
            self.status = problem.clone();
        } else if opened.edits.is_empty() {
            self.status = "no edits yet".to_owned();
        } else {
            self.status = format!("loaded {} edited blocks", opened.edits.len());
        }
        if let Some(warning) = &opened.lock_warning {
            warn!("{warning}");
        }
        if opened.keep_off {
            self.dir = None;
        }
        self.lock = opened.lock;
        let meanwhile = edits.edits().clone();
        let mut merged = opened.edits;
        merged.lay_over(&meanwhile);
        let world = edits.world().clone();
        edits.replace(world, merged);
        if meanwhile.is_empty() {
            self.saved = Some(edits.revision());
        }
        touched
    }

    /// Finishes a read under way at once (before the edits are saved or switched).
    fn finish_loading(
        &mut self,
        edits: &mut WorldAuthority,
        notices: &mut Notices,
    ) -> Vec<ChunkPos> {
        match self.loading.take() {
            Some(task) => self.loaded(block_on(task), edits, notices),
            None => Vec::new(),
        }
    }

    /// Takes in the outcome of a write of `revision`. Errors go to the status, the log
    /// and `notices` (once while they last); the edits stay dirty and are retried.
    fn finished(&mut self, revision: u64, result: Result<(), SaveError>, notices: &mut Notices) {
        match result {
            Ok(()) => {
                self.saved = Some(self.saved.map_or(revision, |s| s.max(revision)));
                self.status = "saved".to_owned();
                self.failing = None;
            }
            Err(e) => {
                let msg = format!("{e}. Your edits are kept and saving is retried.");
                error!("{msg}");
                if self.failing.is_none() {
                    notices.push(msg.clone());
                }
                self.status = msg.clone();
                self.failing = Some(msg);
            }
        }
    }

    /// Starts writing the active world's edits on the I/O pool (after any write under
    /// way, so writes land in order).
    fn start_write(&mut self, edits: &WorldAuthority, now: f32) {
        let Some(dir) = self.dir.clone() else { return };
        self.last_save = now;
        let previous = self.writing.take();
        let (world, copy, revision) = (
            edits.world().clone(),
            edits.edits().clone(),
            edits.revision(),
        );
        self.writing = Some(IoTaskPool::get().spawn(async move {
            if let Some(p) = previous {
                // Superseded by this write, which reports its own outcome.
                let _superseded = p.await;
            }
            (revision, dir.save(&world, &copy))
        }));
    }

    /// Hands the active world's unsaved edits over to the other worlds' list (a
    /// switch away from it), writing them on the I/O pool.
    fn keep_unsaved(&mut self, edits: &WorldAuthority, now: f32) {
        let previous = self.writing.take();
        let lock = self.lock.take();
        if !self.dirty(edits) {
            if let Some(p) = previous {
                // The write in flight holds the newest edits: let it finish, and keep
                // the world locked until it has.
                IoTaskPool::get()
                    .spawn(async move {
                        let _written = p.await;
                        drop(lock);
                    })
                    .detach();
            }
            return;
        }
        let dir = self.dir.clone();
        let (world, copy) = (edits.world().clone(), edits.edits().clone());
        let task = dir.clone().map(|d| {
            let (world, copy) = (world.clone(), copy.clone());
            IoTaskPool::get().spawn(async move {
                if let Some(p) = previous {
                    // Superseded by this write, which reports its own outcome.
                    let _superseded = p.await;
                }
                d.save(&world, &copy)
            })
        });
        self.others.push(Pending {
            world,
            edits: copy,
            dir,
            lock,
            task,
            tried: now,
        });
    }

    /// Takes in the other worlds' finished writes and retries failed ones.
    fn poll_others(&mut self, now: f32, notices: &mut Notices) {
        let mut i = 0;
        while i < self.others.len() {
            let p = &mut self.others[i];
            let done = p.task.as_mut().and_then(check_ready);
            match done {
                Some(Ok(())) => {
                    self.others.swap_remove(i);
                    continue;
                }
                Some(Err(e)) => {
                    p.task = None;
                    let msg = format!("{e}. Those edits are kept and saving is retried.");
                    error!("{msg}");
                    if self.failing.is_none() {
                        notices.push(msg.clone());
                    }
                    self.failing = Some(msg);
                }
                None => {}
            }
            if p.task.is_none()
                && now - p.tried >= AUTOSAVE_SECONDS
                && let Some(dir) = p.dir.clone()
            {
                p.tried = now;
                let (world, copy) = (p.world.clone(), p.edits.clone());
                p.task = Some(IoTaskPool::get().spawn(async move { dir.save(&world, &copy) }));
            }
            i += 1;
        }
    }

    /// Writes everything unsaved now, on this thread (the game is ending); what cannot
    /// be written goes to a rescue copy.
    fn save_everything(&mut self, edits: &mut WorldAuthority, notices: &mut Notices) {
        // No chunk needs generating again: the game is ending.
        self.finish_loading(edits, notices);
        if let Some(task) = self.writing.take() {
            let (revision, result) = block_on(task);
            self.finished(revision, result, notices);
        }
        // A server's world is the server's to save.
        if self.dirty(edits) && edits.role() != Role::Client {
            let result = match &self.dir {
                Some(dir) => dir.save(edits.world(), edits.edits()),
                None => Err(SaveError {
                    path: PathBuf::new(),
                    source: std::io::Error::other("saving is off for this world"),
                }),
            };
            match result {
                Ok(()) => self.saved = Some(edits.revision()),
                Err(e) => self.rescue(edits.world(), edits.edits(), &e.to_string()),
            }
        }
        for mut p in std::mem::take(&mut self.others) {
            let first = p.task.take().map(block_on);
            let result = match (first, &p.dir) {
                (Some(Ok(())), _) => Ok(()),
                (_, Some(dir)) => dir.save(&p.world, &p.edits).map_err(|e| e.to_string()),
                (_, None) => Err("saving is off for that world".to_owned()),
            };
            if let Err(e) = result {
                self.rescue(&p.world, &p.edits, &e);
            }
        }
    }

    /// Hands the active world's save over to a server about to open it ("Open to
    /// others"): everything written now, on this thread, and the world's lock
    /// released; from here the game writes nothing of it. The save folder, or why not.
    pub(crate) fn hand_over(
        &mut self,
        edits: &mut WorldAuthority,
        notices: &mut Notices,
    ) -> Result<SaveDir, String> {
        if self.draft {
            return Err("this is a draft of the world: Apply it first".to_owned());
        }
        let dir = self
            .dir
            .clone()
            .ok_or("saving is off for this world (no save folder, or another game holds it)")?;
        self.finish_loading(edits, notices);
        if let Some(task) = self.writing.take() {
            let (revision, result) = block_on(task);
            self.finished(revision, result, notices);
        }
        if self.dirty(edits) {
            dir.save(edits.world(), edits.edits())
                .map_err(|e| e.to_string())?;
            self.saved = Some(edits.revision());
        }
        self.lock = None;
        self.dir = None;
        self.status = "the world is a server's now: it saves it".to_owned();
        Ok(dir)
    }

    /// Writes a rescue copy of edits that could not be saved: beside the save, else in
    /// the temporary folder. Says where in the log and on stderr.
    fn rescue(&self, world: &WorldConfig, edits: &Edits, why: &str) {
        let Some(setting) = &self.setting else { return };
        let fallback = SaveDir::new(std::env::temp_dir().join("terravox-rescue"));
        let written = setting
            .save_rescue(world, edits)
            .or_else(|_| fallback.save_rescue(world, edits));
        let msg = match written {
            Ok(path) => format!(
                "{} edited blocks could not be saved ({why}); a rescue copy is at {}",
                edits.len(),
                path.display()
            ),
            Err(e) => format!(
                "{} edited blocks could not be saved ({why}), nor a rescue copy ({e})",
                edits.len()
            ),
        };
        error!("{msg}");
        eprintln!("terravox: {msg}");
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
                    switch_saves_in_place.run_if(on_message::<WorldReshaped>),
                    take_in_loaded.run_if(|s: Res<Saves>| s.loading()),
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
    mut edits: ResMut<WorldAuthority>,
) {
    saves.open(world.config(), &mut edits);
}

/// On a world switch: the old world's edits are kept until written, the new world's
/// are read (or taken from memory).
fn switch_saves(
    mut changed: MessageReader<WorldChanged>,
    world: Res<ActiveWorld>,
    time: Res<Time>,
    mut saves: ResMut<Saves>,
    mut edits: ResMut<WorldAuthority>,
    mut notices: ResMut<Notices>,
) {
    changed.clear();
    saves.follow(&world, time.elapsed_secs(), &mut edits, &mut notices);
}

/// On a reshape in place, the same: a draft has no save and no edits; Apply of a
/// draft reads the world's save.
fn switch_saves_in_place(
    mut reshaped: MessageReader<WorldReshaped>,
    world: Res<ActiveWorld>,
    time: Res<Time>,
    mut saves: ResMut<Saves>,
    mut edits: ResMut<WorldAuthority>,
    mut notices: ResMut<Notices>,
) {
    reshaped.clear();
    saves.follow(&world, time.elapsed_secs(), &mut edits, &mut notices);
}

/// Takes in the active world's edits once read, and has their chunks generated again.
fn take_in_loaded(
    mut saves: ResMut<Saves>,
    mut edits: ResMut<WorldAuthority>,
    mut notices: ResMut<Notices>,
    mut reload: MessageWriter<ReloadChunks>,
) {
    let Some(read) = saves.loading.as_mut().and_then(check_ready) else {
        return;
    };
    let touched = saves.loaded(read, &mut edits, &mut notices);
    if !touched.is_empty() {
        reload.write(ReloadChunks(touched));
    }
}

/// Deletes the save of a world whose edits were discarded (after any write under
/// way, which would bring the file back).
fn delete_discarded(
    mut asked: MessageReader<DiscardEdits>,
    edits: Res<WorldAuthority>,
    mut saves: ResMut<Saves>,
    mut notices: ResMut<Notices>,
) {
    asked.clear();
    if let Some(task) = saves.writing.take() {
        let (revision, result) = block_on(task);
        saves.finished(revision, result, &mut notices);
    }
    saves.saved = Some(edits.revision());
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
    edits: Res<WorldAuthority>,
    mut saves: ResMut<Saves>,
    mut notices: ResMut<Notices>,
) {
    let now = time.elapsed_secs();
    if let Some(task) = &mut saves.writing
        && let Some((revision, result)) = check_ready(task)
    {
        saves.writing = None;
        saves.finished(revision, result, &mut notices);
    }
    if !saves.others.is_empty() {
        saves.poll_others(now, &mut notices);
    }
    let due = now - saves.last_save >= AUTOSAVE_SECONDS;
    if due && saves.writing.is_none() && !saves.loading() && saves.dirty(&edits) {
        saves.start_write(&edits, now);
    }
}

fn save_on_exit(
    mut exit: MessageReader<AppExit>,
    mut edits: ResMut<WorldAuthority>,
    mut saves: ResMut<Saves>,
    mut notices: ResMut<Notices>,
) {
    if exit.read().count() > 0 {
        saves.save_everything(&mut edits, &mut notices);
    }
}

#[cfg(test)]
mod tests {
    use terravox_voxel::{Block, BlockPos};

    use super::*;

    #[test]
    fn a_save_read_after_edits_were_made_keeps_both_and_stays_dirty() {
        let world = terravox_worldgen::presets::builtin("cliffs").unwrap();
        let mut edits = WorldAuthority::new(world.clone());
        let mut saves = Saves::new(None);
        let mut notices = Notices::default();
        let (mine, theirs, both) = (
            BlockPos::new(1, 2, 3),
            BlockPos::new(40, 2, 3),
            BlockPos::new(5, 5, 5),
        );
        let mut unloaded = terravox_authority::Terrain::new();
        edits.lay(mine, Block::Brick, &mut unloaded);
        edits.lay(both, Block::Air, &mut unloaded);
        let mut stored = Edits::new();
        stored.set(theirs, Block::Snow);
        stored.set(both, Block::Stone);
        let touched = stored.touched_chunks().into_iter().collect();
        let opened = Opened {
            edits: stored,
            ..Opened::default()
        };
        let touched = saves.loaded((opened, touched), &mut edits, &mut notices);
        let e = edits.edits();
        assert_eq!(e.get(mine), Some(Block::Brick));
        assert_eq!(e.get(theirs), Some(Block::Snow));
        assert_eq!(e.get(both), Some(Block::Air), "the newer edit wins");
        assert!(
            saves.dirty(&edits),
            "the edits made meanwhile are not on disk"
        );
        assert!(touched.contains(&theirs.to_chunk().0));
        // Without edits meanwhile, what was read is what is on disk.
        let mut fresh = WorldAuthority::new(world);
        let mut stored = Edits::new();
        stored.set(theirs, Block::Snow);
        let opened = Opened {
            edits: stored,
            ..Opened::default()
        };
        saves.loaded((opened, Vec::new()), &mut fresh, &mut notices);
        assert!(!saves.dirty(&fresh));
    }
}
