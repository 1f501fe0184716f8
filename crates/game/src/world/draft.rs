//! The world being designed: the pending config the panel edits, its history (undo,
//! redo, reset to what was loaded) and *Live*: with it on, the world around the player
//! regenerates in place [`DEBOUNCE`] after the last change, as a draft that writes no
//! save ([`ReshapeWorld`]). An edit of a world of an older generator version moves it
//! to the current one (a world code loaded, or reset to, keeps its version until it
//! is edited). Plain state and functions; the panel drives them, and so can tests.
//!
//! ```text
//! panel edit ─▶ Draft::set ─▶ (undo step; coalesced within COALESCE)
//!                    └─ Live on, DEBOUNCE later, valid, not the active world ─▶
//!                       ReshapeWorld { draft: true } ─▶ chunks regenerate in place
//! Apply ─▶ Live on: ReshapeWorld { draft: false } (the world becomes real: its save
//!          is read, edits allowed) · Live off: SwitchWorld (rebuilt, player respawns)
//! ```

use std::time::Duration;

use bevy::prelude::*;
use terravox_worldgen::{GENERATOR_VERSION, WorldConfig};

use super::{ActiveWorld, ReshapeWorld};

/// How long after the last change a live draft regenerates.
pub const DEBOUNCE: Duration = Duration::from_millis(300);
/// Changes closer together than this are one undo step (a slider being dragged).
const COALESCE: Duration = Duration::from_millis(500);

/// The pending config, its history and whether it is live.
#[derive(Resource, Debug)]
pub struct Draft {
    pending: WorldConfig,
    /// Configs before the pending one (the last is the one before), and after it
    /// (undone; the last is the next redo).
    undo: Vec<WorldConfig>,
    redo: Vec<WorldConfig>,
    /// What Reset goes back to: the config last loaded (the start world, a preset, a
    /// world code).
    base: WorldConfig,
    live: bool,
    /// When the last change came that a live draft has not regenerated yet.
    changed_at: Option<Duration>,
    /// When the last undo step was taken (for coalescing).
    step_at: Option<Duration>,
}

impl Draft {
    /// Editing starts from `world`.
    pub(crate) fn new(world: &WorldConfig) -> Self {
        Self {
            pending: world.clone(),
            undo: Vec::new(),
            redo: Vec::new(),
            base: world.clone(),
            live: false,
            changed_at: None,
            step_at: None,
        }
    }

    /// The config being edited.
    pub fn pending(&self) -> &WorldConfig {
        &self.pending
    }

    /// The config last loaded (what Reset goes back to).
    pub fn base(&self) -> &WorldConfig {
        &self.base
    }

    /// Whether the world follows the edits live.
    pub fn live(&self) -> bool {
        self.live
    }

    /// Turns *Live* on or off; turning it on regenerates after [`DEBOUNCE`] if the
    /// pending config is not the active world's.
    pub fn set_live(&mut self, live: bool, now: Duration) {
        if live && !self.live {
            self.changed_at = Some(now);
        }
        self.live = live;
    }

    /// Whether there is something to undo, and to redo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// An edit of the pending config at `now`: one undo step, unless it follows the
    /// last one within [`COALESCE`] (a drag). A world of an older generator version
    /// moves to the current one ([`GENERATOR_VERSION`]): an edited world is a new
    /// world, made as terravox makes worlds now (never the oldest version that has
    /// the feature just turned on). Returns whether anything changed.
    pub fn set(&mut self, mut config: WorldConfig, now: Duration) -> bool {
        if config == self.pending {
            return false;
        }
        config.version = config.version.max(GENERATOR_VERSION);
        self.push(config, now)
    }

    /// Makes `config` the pending one at `now`, as it is (one undo step, unless
    /// within [`COALESCE`] of the last).
    fn push(&mut self, config: WorldConfig, now: Duration) -> bool {
        if config == self.pending {
            return false;
        }
        let coalesce = self
            .step_at
            .is_some_and(|t| now.saturating_sub(t) < COALESCE && !self.undo.is_empty());
        let old = std::mem::replace(&mut self.pending, config);
        if !coalesce {
            self.undo.push(old);
        }
        self.redo.clear();
        self.step_at = Some(now);
        self.changed_at = Some(now);
        true
    }

    /// Loads a whole config (a preset, a world code): its own undo step, and what
    /// Reset goes back to from now on.
    pub fn load(&mut self, config: WorldConfig, now: Duration) {
        self.base = config.clone();
        self.step_at = None;
        self.push(config, now);
        self.step_at = None;
    }

    /// Goes back to the config last loaded (an undo step of its own).
    pub fn reset(&mut self, now: Duration) {
        self.step_at = None;
        self.push(self.base.clone(), now);
        self.step_at = None;
    }

    /// Undoes the last step; returns whether there was one.
    pub fn undo(&mut self, now: Duration) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.pending, before));
        self.step_at = None;
        self.changed_at = Some(now);
        true
    }

    /// Redoes the last undone step; returns whether there was one.
    pub fn redo(&mut self, now: Duration) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.pending, after));
        self.step_at = None;
        self.changed_at = Some(now);
        true
    }

    /// The config a live draft should regenerate to at `now`, if it is due: live,
    /// [`DEBOUNCE`] after the last change, valid, and not the `active` world's.
    /// Taking it clears the change.
    fn due(&mut self, now: Duration, active: &WorldConfig) -> Option<WorldConfig> {
        let since = self.changed_at?;
        if !self.live || now.saturating_sub(since) < DEBOUNCE {
            return None;
        }
        self.changed_at = None;
        (self.pending != *active && self.pending.problems().is_empty())
            .then(|| self.pending.clone())
    }
}

/// Regenerates a live draft once its last change is [`DEBOUNCE`] old.
pub(super) fn reshape_when_due(
    time: Res<Time<Real>>,
    world: Res<ActiveWorld>,
    mut draft: ResMut<Draft>,
    mut reshape: MessageWriter<ReshapeWorld>,
) {
    if let Some(config) = draft
        .bypass_change_detection()
        .due(time.elapsed(), world.config())
    {
        reshape.write(ReshapeWorld {
            config,
            draft: true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_worldgen::{Seed, presets};

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    /// Undo and redo walk the steps exactly; a drag is one step; a new edit drops
    /// what was undone; Reset goes back to what was loaded.
    #[test]
    fn history_walks_the_steps_exactly() {
        let start = presets::builtin("continents").unwrap();
        let mut d = Draft::new(&start);
        let seeded = |s: &str| start.clone().with_seed(Seed::new(s));
        assert!(d.set(seeded("a"), ms(0)));
        // A drag: three changes within the coalescing window, one step.
        d.set(seeded("b"), ms(1000));
        d.set(seeded("c"), ms(1100));
        d.set(seeded("d"), ms(1200));
        assert!(d.undo(ms(2000)));
        assert_eq!(d.pending().to_world_code(), seeded("a").to_world_code());
        assert!(d.undo(ms(2001)));
        assert_eq!(d.pending(), &start);
        assert!(!d.undo(ms(2002)) && d.can_redo());
        assert!(d.redo(ms(2003)));
        assert_eq!(d.pending(), &seeded("a"));
        d.set(seeded("e"), ms(3000));
        assert!(!d.can_redo(), "a new edit drops what was undone");
        let islands = presets::builtin("islands").unwrap();
        d.load(islands.clone(), ms(4000));
        d.set(seeded("f"), ms(4100));
        d.reset(ms(4200));
        assert_eq!(d.pending(), &islands, "reset goes to what was loaded");
        assert!(d.undo(ms(4300)));
        assert_eq!(d.pending(), &seeded("f"));
    }

    /// A live draft is due once, DEBOUNCE after the last change, and only when it is
    /// valid and not the active world.
    #[test]
    fn a_live_draft_is_due_once_after_the_debounce() {
        let start = presets::builtin("continents").unwrap();
        let mut d = Draft::new(&start);
        let other = start.clone().with_seed(Seed::new("x"));
        d.set(other.clone(), ms(0));
        assert_eq!(d.due(ms(1000), &start), None, "not live");
        d.set_live(true, ms(1000));
        assert_eq!(d.due(ms(1200), &start), None, "too soon");
        assert_eq!(d.due(ms(1300), &start), Some(other.clone()));
        assert_eq!(d.due(ms(2000), &start), None, "once");
        d.set(start.clone(), ms(2000));
        assert_eq!(d.due(ms(3000), &start), None, "the active world already");
        let mut broken = start.clone();
        broken.sea_level = i32::MAX;
        d.set(broken, ms(4000));
        assert_eq!(d.due(ms(5000), &start), None, "invalid");
    }

    /// A world code of an older version keeps its version while it is only looked
    /// at (loaded, reset to, undone to); an edit moves it to the current version.
    #[test]
    fn an_edit_moves_an_older_world_to_the_current_version() {
        let v5 = presets::load_file(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../worldgen/tests/v5/continents.ron"
        )))
        .unwrap();
        assert_eq!(v5.version, 5);
        let mut d = Draft::new(&presets::builtin("continents").unwrap());
        d.load(v5.clone(), ms(0));
        assert_eq!(d.pending(), &v5, "loaded as it is");
        let mut edited = v5.clone();
        edited.seed = Seed::new("edited");
        assert!(d.set(edited.clone(), ms(1000)));
        assert_eq!(d.pending().version, GENERATOR_VERSION);
        assert_eq!(d.pending().seed, edited.seed);
        assert_eq!(d.base().version, 5, "what was loaded");
        d.reset(ms(2000));
        assert_eq!(d.pending(), &v5, "reset to the world as loaded");
        assert!(d.undo(ms(3000)));
        assert_eq!(d.pending().version, GENERATOR_VERSION);
        assert!(d.undo(ms(4000)));
        assert_eq!(d.pending(), &v5);
    }
}
