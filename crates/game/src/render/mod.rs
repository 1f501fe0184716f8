//! Drawing the world: the chunk material (`material`), the meshes of chunks of every
//! level (`meshes`), the other players' figures on a server (`figures`), the outline of the targeted block (`outline`), the player's
//! lantern in caves (`lantern`) and the automated screenshot (`screenshot`), in that
//! order each frame ([`RenderSystems`]). The sky, the light of the hour and the fog
//! are [`crate::sky`]'s.

mod figures;
mod lantern;
pub(crate) mod material;
mod meshes;
mod outline;
mod screenshot;

use bevy::prelude::*;

use crate::schedule::GameSystems;

/// The parts of `Present` the render plugin owns, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum RenderSystems {
    /// Meshes of every level: removed, spawned, shown, placed.
    Meshes,
    /// The target's outline.
    Outline,
    /// The lantern.
    Lantern,
    /// The automated screenshot, once everything else is drawn.
    Screenshot,
}

/// The render plugin.
pub(crate) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            RenderSystems::Meshes,
            RenderSystems::Outline,
            RenderSystems::Lantern,
            RenderSystems::Screenshot,
        )
            .chain()
            .in_set(GameSystems::Present),
    )
    .add_plugins((
        meshes::plugin,
        figures::plugin,
        outline::plugin,
        lantern::plugin,
        screenshot::plugin,
    ));
}
