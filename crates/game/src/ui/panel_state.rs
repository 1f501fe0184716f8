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
    /// The height of the "Your edits" window at the bottom right, as last drawn: the
    /// "Playing together" window stands above it.
    pub edits_window_height: f32,
    /// The main-thread time the panel took in each frame so far (for the exit log):
    /// the thread's CPU time and the wall clock.
    times: Vec<[std::time::Duration; 2]>,
    /// Frames since the panel opened, up to [`PanelState::PARTS`].
    opened: u8,
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
            edits_window_height: 0.0,
            times: Vec::new(),
            opened: 0,
        }
    }

    /// The parts of the panel laid out a frame while it opens: the first frame
    /// lays out the top, each next frame one more part, until all
    /// [`PanelState::PARTS`] show (about 70 ms at 60 FPS). egui lays out every
    /// label for the first time when a panel opens (about 3.7 ms for the whole panel
    /// on a software renderer's machine, against 0.5 ms a frame after); a part a
    /// frame keeps each frame's share under the panel's 2 ms budget.
    pub(super) const PARTS: u8 = 4;

    /// How many parts beyond the top to lay out this frame (see
    /// [`PanelState::PARTS`]); counts the frame.
    pub(super) fn opening(&mut self) -> u8 {
        let parts = self.opened;
        self.opened = (self.opened + 1).min(Self::PARTS);
        parts
    }

    /// The panel closed: the next opening starts from the top again.
    pub(super) fn closed(&mut self) {
        self.opened = 0;
    }

    /// Notes the main-thread time the panel took this frame: `cpu`, the thread's
    /// CPU time (the panel's own work), and `wall`, which also counts the time the
    /// system gave the core to other threads meanwhile.
    pub(super) fn note_frame(&mut self, cpu: std::time::Duration, wall: std::time::Duration) {
        self.times.push([cpu, wall]);
    }

    /// The panel's main-thread time a frame, CPU time (`0`) or wall clock (`1`):
    /// frames, median, 99th percentile, the longest and which frame that was; `None`
    /// before the panel was drawn.
    pub(super) fn timings(&self, clock: usize) -> Option<(usize, [std::time::Duration; 3], usize)> {
        let times: Vec<_> = self.times.iter().map(|t| t[clock]).collect();
        let (at, &max) = times.iter().enumerate().max_by_key(|(_, t)| **t)?;
        let mut sorted = times.clone();
        sorted.sort();
        let q = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        Some((sorted.len(), [q(0.5), q(0.99), max], at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_panel_adds_a_part_a_frame_and_starts_over_when_closed() {
        let mut state = PanelState::new(&WorldConfig::default());
        let first: Vec<u8> = (0..7).map(|_| state.opening()).collect();
        assert_eq!(first, [0, 1, 2, 3, 4, 4, 4]);
        state.closed();
        assert_eq!(state.opening(), 0);
    }
}
