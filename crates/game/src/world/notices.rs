//! Messages the player must see without opening the panel.

use std::time::{Duration, Instant};

use bevy::prelude::*;

/// Messages the player must see without opening the panel (an unreadable save, a
/// failed write), shown on screen for [`Notices::SHOW_FOR`] and at least
/// [`Notices::SHOW_FRAMES`] frames from when they are first drawn (so a slow start
/// cannot hide them), and written to the log by whoever pushes them.
#[derive(Resource, Debug, Default)]
pub struct Notices {
    /// Each message, when it was first shown and in how many frames.
    items: Vec<(String, Option<Instant>, u32)>,
}

impl Notices {
    /// How long a notice stays on screen once shown.
    pub const SHOW_FOR: Duration = Duration::from_secs(30);
    /// Frames a notice stays on screen at least.
    pub const SHOW_FRAMES: u32 = 300;

    /// Adds a notice.
    pub fn push(&mut self, message: impl Into<String>) {
        self.items.push((message.into(), None, 0));
    }

    /// Every notice ever pushed, oldest first.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(|(m, ..)| m.as_str())
    }

    /// The notices to draw this frame; the clock of each starts the first time it is
    /// drawn.
    pub(crate) fn shown_now(&mut self) -> Vec<String> {
        let now = Instant::now();
        self.items
            .iter_mut()
            .filter_map(|(m, shown, frames)| {
                let since = *shown.get_or_insert(now);
                *frames = frames.saturating_add(1);
                (now - since < Self::SHOW_FOR || *frames <= Self::SHOW_FRAMES).then(|| m.clone())
            })
            .collect()
    }
}
