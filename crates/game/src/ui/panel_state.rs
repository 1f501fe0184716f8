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
    /// The main-thread time the panel took in each frame so far (for the exit log).
    times: Vec<std::time::Duration>,
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
            times: Vec::new(),
        }
    }

    /// Notes the main-thread time the panel took this frame.
    pub(super) fn note_frame(&mut self, took: std::time::Duration) {
        self.times.push(took);
    }

    /// The panel's main-thread time a frame: frames, median, 99th percentile, the
    /// longest and which frame that was; `None` before the panel was drawn.
    pub(super) fn timings(&self) -> Option<(usize, [std::time::Duration; 3], usize)> {
        let (at, &max) = self.times.iter().enumerate().max_by_key(|(_, t)| **t)?;
        let mut sorted = self.times.clone();
        sorted.sort();
        let q = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        Some((sorted.len(), [q(0.5), q(0.99), max], at))
    }
}
