//! The world's state, the lowest layer the systems share: the active world (config,
//! generator, epoch), its authority (the edits, the water, the clock), where things are (the stream
//! centre, the render origin) and on-screen notices. Switching worlds happens here
//! (in `Input`, on a [`SwitchWorld`] request); discarding edits too (in `Edit`).

mod authority;
mod draft;
mod frame;
mod notices;

use std::sync::Arc;

use bevy::prelude::*;
use terravox_authority::Role;
use terravox_worldgen::{ConfigError, Generator, WorldConfig};

use crate::schedule::GameSystems;

pub(crate) use authority::ReloadChunks;
pub use authority::{DiscardEdits, LOCAL_PLAYER, WorldAuthority};
pub use draft::{DEBOUNCE, Draft};
pub(crate) use frame::{Eye, RenderOrigin, StreamCenter};
pub use notices::Notices;

/// The world being played. `epoch` changes on every switch, so results computed for
/// an older world can be recognised and dropped.
#[derive(Resource, Clone)]
pub struct ActiveWorld {
    config: WorldConfig,
    generator: Arc<Generator>,
    epoch: u64,
    /// A live draft of the panel: regenerated in place, no save, no edits.
    draft: bool,
}

impl ActiveWorld {
    /// A world from a config, validated.
    pub fn new(config: WorldConfig) -> Result<Self, ConfigError> {
        let generator = Arc::new(Generator::new(&config)?);
        Ok(Self {
            config,
            generator,
            epoch: 0,
            draft: false,
        })
    }

    /// The config the world was made from.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Its generator, shared with worker tasks.
    pub fn generator(&self) -> &Arc<Generator> {
        &self.generator
    }

    /// Bumped by every switch.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Whether the world is a live draft (not saved; edits refused until Apply).
    pub fn is_draft(&self) -> bool {
        self.draft
    }

    /// Replaces the world (validating first), as a draft or not; on error nothing
    /// changes.
    fn replace(&mut self, config: WorldConfig, draft: bool) -> Result<(), ConfigError> {
        let generator = Arc::new(Generator::new(&config)?);
        self.config = config;
        self.generator = generator;
        self.epoch += 1;
        self.draft = draft;
        Ok(())
    }
}

/// Asks to play another world (the panel's Apply). Applied at the start of the next
/// frame; an invalid config is refused with a notice and changes nothing.
#[derive(Message, Clone, Debug)]
pub struct SwitchWorld(pub WorldConfig);

/// Sent when the world was replaced: saves switch, streaming clears, the player
/// respawns.
#[derive(Message, Clone, Copy, Debug)]
pub struct WorldChanged;

/// Asks to regenerate the world in place with another config (the panel's *Live*):
/// the player stays, every chunk is replaced as its new version is ready. A `draft`
/// writes no save and takes no edits; Apply makes it real (`draft: false`).
#[derive(Message, Clone, Debug)]
pub struct ReshapeWorld {
    /// The new config.
    pub config: WorldConfig,
    /// Whether it is a draft.
    pub draft: bool,
}

/// Sent when the world was regenerated in place: chunks of the old epoch are
/// replaced as new ones finish; saves follow the world (none for a draft).
#[derive(Message, Clone, Copy, Debug)]
pub struct WorldReshaped;

/// The world plugin, starting in `world` (validated by the caller).
pub(crate) fn plugin(world: WorldConfig) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let active = ActiveWorld::new(world.clone()).expect("the start world is validated first");
        app.insert_resource(WorldAuthority::new(world.clone()))
            .insert_resource(Draft::new(&world))
            .insert_resource(active)
            .init_resource::<StreamCenter>()
            .init_resource::<Eye>()
            .init_resource::<RenderOrigin>()
            .init_resource::<Notices>()
            .add_message::<SwitchWorld>()
            .add_message::<WorldChanged>()
            .add_message::<ReshapeWorld>()
            .add_message::<WorldReshaped>()
            .add_message::<DiscardEdits>()
            .add_message::<ReloadChunks>()
            .add_systems(
                Update,
                (
                    draft::reshape_when_due,
                    switch_world.run_if(on_message::<SwitchWorld>),
                    reshape_world.run_if(on_message::<ReshapeWorld>),
                )
                    .chain()
                    .in_set(GameSystems::Input),
            )
            .add_systems(Update, advance_world.in_set(GameSystems::Simulate))
            .add_systems(
                Update,
                discard_edits
                    .run_if(on_message::<DiscardEdits>)
                    .in_set(GameSystems::Edit),
            );
    }
}

/// Why the world cannot be switched or reshaped here: it is a server's.
const SERVERS: &str = "this world is the server's: it cannot be switched or reshaped here";

fn switch_world(
    mut asked: MessageReader<SwitchWorld>,
    mut world: ResMut<ActiveWorld>,
    authority: Res<WorldAuthority>,
    mut notices: ResMut<Notices>,
    mut changed: MessageWriter<WorldChanged>,
) {
    for SwitchWorld(config) in asked.read() {
        if authority.role() == Role::Client {
            notices.push(SERVERS.to_owned());
            continue;
        }
        match world.replace(config.clone(), false) {
            Ok(()) => {
                changed.write(WorldChanged);
            }
            Err(e) => {
                let msg = format!("cannot switch worlds: {e}");
                error!("{msg}");
                notices.push(msg);
            }
        }
    }
}

/// Regenerates the world in place (a live draft, or Apply of one).
fn reshape_world(
    mut asked: MessageReader<ReshapeWorld>,
    mut world: ResMut<ActiveWorld>,
    authority: Res<WorldAuthority>,
    mut notices: ResMut<Notices>,
    mut reshaped: MessageWriter<WorldReshaped>,
) {
    for ReshapeWorld { config, draft } in asked.read() {
        if authority.role() == Role::Client {
            notices.push(SERVERS.to_owned());
            continue;
        }
        match world.replace(config.clone(), *draft) {
            Ok(()) => {
                reshaped.write(WorldReshaped);
            }
            Err(e) => {
                let msg = format!("cannot reshape the world: {e}");
                error!("{msg}");
                notices.push(msg);
            }
        }
    }
}

/// Runs the world on by the frame's game time: its clock, the players' edits left,
/// the water's time to its next step.
pub(crate) fn advance_world(time: Res<Time>, mut world: ResMut<WorldAuthority>) {
    world.advance(time.delta_secs());
}

/// Forgets the overlay's edits and asks streaming to generate the chunks they touched
/// again (the save file is deleted by persistence, which reads the same message).
fn discard_edits(
    mut asked: MessageReader<DiscardEdits>,
    mut world: ResMut<WorldAuthority>,
    mut reload: MessageWriter<ReloadChunks>,
) {
    asked.clear();
    reload.write(ReloadChunks(world.clear()));
}
