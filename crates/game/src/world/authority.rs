//! The world's authority as the game holds it ([`WorldAuthority`]): the one owner of
//! the active world's edits, their rules, the water, the time of day and the
//! players' bodies (`terravox_authority`, outside Bevy). World state only; reading and
//! writing save files is the persistence plugin's job, stepping the water the water
//! plugin's, and both drive this.

use bevy::prelude::*;
use terravox_authority::{Authority, PlayerId, Role};
use terravox_voxel::ChunkPos;
use terravox_worldgen::WorldConfig;

/// The player of this game: single-player's own, and a client's own body in its
/// copy of the server's world.
pub const LOCAL_PLAYER: PlayerId = 0;

/// The authority over the world being played (see the module docs): a Bevy
/// resource holding `terravox_authority::Authority`, whose methods it derefs to.
#[derive(Resource, Debug, Deref, DerefMut)]
pub struct WorldAuthority(Authority);

impl WorldAuthority {
    /// No edits yet for `world`, with the local player in it.
    pub(crate) fn new(world: WorldConfig) -> Self {
        let mut authority = Authority::new(world, Role::Local);
        authority.players_mut().place(LOCAL_PLAYER, [0.0; 3]);
        Self(authority)
    }
}

/// Asks to discard the active world's edits and delete its save (the panel has
/// confirmed it).
#[derive(Message, Clone, Copy, Debug)]
pub struct DiscardEdits;

/// Asks streaming to generate these loaded chunks again (their edits were discarded).
#[derive(Message, Clone, Debug)]
pub(crate) struct ReloadChunks(pub Vec<ChunkPos>);
