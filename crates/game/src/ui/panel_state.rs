//! The generator panel's own state ([`PanelState`]): its text fields and messages.
//! The config being edited is the world's [`crate::world::Draft`].

use bevy::prelude::*;
use terravox_worldgen::WorldConfig;

/// The panel's text fields and messages.
#[derive(Resource, Clone, Debug)]
pub(super) struct PanelState {
    /// The world code box.
    pub code: String,
    /// Folder for Save RON (shown and editable).
    pub save_folder: String,
    /// File name for Save RON.
    pub save_file: String,
    /// Last status or error message.
    pub message: Option<(bool, String)>,
    /// The discard button was pressed once; a second button confirms.
    pub confirm_discard: bool,
    /// The spline editor's choice.
    pub splines: super::splines::SplineEditor,
}

impl PanelState {
    /// The panel for `world`.
    pub(super) fn new(world: &WorldConfig) -> Self {
        Self {
            code: world.to_world_code(),
            save_folder: std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|_| ".".into()),
            save_file: "world.ron".into(),
            message: None,
            confirm_discard: false,
            splines: Default::default(),
        }
    }
}
