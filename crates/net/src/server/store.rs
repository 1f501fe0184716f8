//! The server's save: the world's lock, its save file and its journal. An edit is
//! appended to the journal and synced before it is acknowledged; every minute (or
//! once the journal grows) the edits are saved whole on a thread of their own and the
//! journals the save holds are deleted. At start the save is read and the journals
//! laid over it, then saved whole at once.

use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use terravox_authority::Authority;
use terravox_edits::{Edits, Journal, SaveDir, SaveError, WorldLock};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::WorldConfig;

/// Time between saves while the edits change.
const SAVE_EVERY: Duration = Duration::from_secs(60);
/// A journal this large is saved whole at once.
const JOURNAL_BYTES: u64 = 16 << 20;

/// A save under way: the journal generation it makes old, the revision it holds.
struct Saving {
    generation: u64,
    revision: u64,
    task: JoinHandle<Result<(), SaveError>>,
}

/// The server's save (see the module docs).
pub(crate) struct Store {
    dir: SaveDir,
    world: WorldConfig,
    /// Held while the server runs.
    _lock: Option<WorldLock>,
    journal: Journal,
    saving: Option<Saving>,
    saved: u64,
    /// When the last save began (the first tick's time before any).
    last: Option<Instant>,
}

/// What opening the save found.
pub(crate) struct Opened {
    pub(crate) store: Store,
    pub(crate) edits: Edits,
    /// Lines for the console.
    pub(crate) notes: Vec<String>,
}

impl Store {
    /// Opens `world`'s save in `dir`: locked, read, the journals laid over it and
    /// saved whole. Refused (nothing touched) where the world is open in another
    /// terravox or its save cannot be read.
    pub(crate) fn open(dir: &Path, world: &WorldConfig) -> Result<Opened, String> {
        let saves = SaveDir::new(dir);
        let opened = saves.open(world);
        let mut notes = Vec::new();
        if let Some(holder) = &opened.held_by {
            return Err(format!(
                "the world is open in another terravox ({holder}): a server needs its save \
                 to itself (close that game, or open the world to others from it)"
            ));
        }
        if opened.keep_off {
            return Err(opened
                .problem
                .unwrap_or_else(|| "the world's save cannot be used".to_owned()));
        }
        notes.extend(opened.problem);
        notes.extend(opened.lock_warning);
        let mut edits = opened.edits;
        let (journal, replay) = Journal::open(&saves, world)
            .map_err(|e| format!("cannot open the world's journal in {}: {e}", dir.display()))?;
        for path in &replay.damaged {
            notes.push(format!(
                "{} ends with a record cut short (never acknowledged): read up to there",
                path.display()
            ));
        }
        if !replay.edits.is_empty() {
            notes.push(format!(
                "{} edits from the journal laid over the save",
                replay.edits.len()
            ));
            lay_over(&mut edits, &replay.edits);
        }
        let generation = journal.generation();
        saves
            .save(world, &edits)
            .map_err(|e| format!("cannot save the world: {e}"))?;
        journal
            .retire(generation)
            .map_err(|e| format!("cannot tidy the world's journal: {e}"))?;
        Ok(Opened {
            store: Self {
                dir: saves,
                world: world.clone(),
                _lock: opened.lock,
                journal,
                saving: None,
                saved: 0,
                last: None,
            },
            edits,
            notes,
        })
    }

    /// The journal's bytes since the last save.
    pub(crate) fn journal_bytes(&self) -> u64 {
        self.journal.bytes()
    }

    /// Makes `changes` durable: when this returns `Ok`, they survive the process.
    pub(crate) fn append(&mut self, changes: &[(BlockPos, Block)]) -> std::io::Result<()> {
        self.journal.append(changes)
    }

    /// Saves the edits whole on a thread when due; takes in a save that finished.
    /// A line for the console when something went wrong.
    pub(crate) fn tick(&mut self, authority: &Authority, now: Instant) -> Option<String> {
        let mut note = None;
        if self.saving.as_ref().is_some_and(|s| s.task.is_finished())
            && let Some(done) = self.saving.take()
        {
            note = self.finished(done);
        }
        let last = *self.last.get_or_insert(now);
        let due = now.duration_since(last) >= SAVE_EVERY && authority.revision() != self.saved
            || self.journal.bytes() >= JOURNAL_BYTES;
        if due && self.saving.is_none() {
            self.last = Some(now);
            match self.journal.rotate() {
                Ok(generation) => {
                    let (dir, world, edits) = (
                        self.dir.clone(),
                        self.world.clone(),
                        authority.edits().clone(),
                    );
                    self.saving = Some(Saving {
                        generation,
                        revision: authority.revision(),
                        task: std::thread::spawn(move || dir.save(&world, &edits)),
                    });
                }
                Err(e) => note = Some(format!("cannot start a new journal file: {e}")),
            }
        }
        note
    }

    /// Takes in a finished save.
    fn finished(&mut self, done: Saving) -> Option<String> {
        match done.task.join() {
            Ok(Ok(())) => {
                self.saved = self.saved.max(done.revision);
                self.journal
                    .retire(done.generation)
                    .err()
                    .map(|e| format!("cannot tidy the journal: {e}"))
            }
            Ok(Err(e)) => Some(format!(
                "{e}; the journal keeps every edit, saving is retried"
            )),
            Err(_) => Some("the save's thread failed; the journal keeps every edit".to_owned()),
        }
    }

    /// The last save, at stop: the edits saved whole (or a rescue copy beside the
    /// save where that fails; the journal keeps them either way).
    pub(crate) fn finish(mut self, authority: &Authority) -> Result<String, String> {
        if let Some(done) = self.saving.take()
            && let Some(note) = self.finished(done)
        {
            eprintln!("{note}");
        }
        let generation = self
            .journal
            .rotate()
            .map_err(|e| format!("cannot start a new journal file: {e}"))?;
        match self.dir.save(&self.world, authority.edits()) {
            Ok(()) => {
                let _ = self.journal.retire(generation);
                Ok(format!(
                    "saved {} edits to {}",
                    authority.edits().len(),
                    self.dir.path_for(&self.world).display()
                ))
            }
            Err(e) => match self.dir.save_rescue(&self.world, authority.edits()) {
                Ok(path) => Err(format!(
                    "{e}; a rescue copy is in {} and the journal keeps every edit",
                    path.display()
                )),
                Err(r) => Err(format!(
                    "{e}; no rescue copy either ({r}); the journal keeps every edit"
                )),
            },
        }
    }
}

/// Lays edits from the journal over `edits`: each block set again, and the water
/// around it woken (whatever it holds since flows again).
fn lay_over(edits: &mut Edits, journal: &[(BlockPos, Block)]) {
    for &(p, b) in journal {
        edits.set(p, b);
        let pending = edits.pending_mut();
        for q in std::iter::once(p).chain(p.neighbours()) {
            pending.wake(q);
        }
    }
}
