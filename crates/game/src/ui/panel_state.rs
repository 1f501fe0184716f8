//! The generator panel's state ([`PanelState`]): what the panel (`panel`) edits and
//! the preview (`preview`) draws, below both.

use bevy::prelude::*;
use terravox_worldgen::WorldConfig;

/// The config being edited, and the panel's text fields.
#[derive(Resource, Clone, Debug)]
pub(super) struct PanelState {
    /// The pending config (applied with Apply).
    pub pending: WorldConfig,
    /// The seed text box.
    pub seed: String,
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
}

impl PanelState {
    /// The panel for `world`.
    pub(super) fn new(world: &WorldConfig) -> Self {
        Self {
            pending: world.clone(),
            seed: world.seed.text().to_owned(),
            code: world.to_world_code(),
            save_folder: std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|_| ".".into()),
            save_file: "world.ron".into(),
            message: None,
            confirm_discard: false,
        }
    }
}
