//! The active world: its config, generator and epoch, plus start-up options and
//! on-screen notices.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use terravox_worldgen::{ConfigError, Generator, WorldConfig};

use crate::{PlayOptions, ScreenshotPlan};

/// The world being played. `epoch` changes on every regenerate, so results computed
/// for an older world can be recognised and dropped.
#[derive(Resource, Clone)]
pub struct ActiveWorld {
    /// The config the world was made from.
    pub config: WorldConfig,
    /// Its generator, shared with worker tasks.
    pub generator: Arc<Generator>,
    /// Bumped by every regenerate.
    pub epoch: u64,
}

impl ActiveWorld {
    /// A world from a config, validated.
    pub fn new(config: WorldConfig) -> Result<Self, ConfigError> {
        let generator = Arc::new(Generator::new(&config)?);
        Ok(Self {
            config,
            generator,
            epoch: 0,
        })
    }

    /// Replaces the world (validating first); on error nothing changes.
    pub fn replace(&mut self, config: WorldConfig) -> Result<(), ConfigError> {
        let generator = Arc::new(Generator::new(&config)?);
        self.config = config;
        self.generator = generator;
        self.epoch += 1;
        Ok(())
    }
}

/// View distance in chunks (4..=32), changeable live.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewDistance(pub u32);

impl ViewDistance {
    /// Allowed range.
    pub const RANGE: std::ops::RangeInclusive<u32> = 4..=32;
}

/// The automated screenshot, if one was asked for.
#[derive(Resource, Clone, Debug, Default)]
pub struct AutoScreenshot(pub Option<ScreenshotPlan>);

/// Whether the panel starts open.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StartWithPanel(pub bool);

/// Sent when the world was replaced: streaming clears, the player respawns.
#[derive(Message, Clone, Copy, Debug)]
pub struct WorldChanged;

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
    pub fn to_show(&mut self) -> Vec<String> {
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

/// The config plugin, from the start-up options.
pub fn plugin(options: PlayOptions) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let world = ActiveWorld::new(options.world.clone()).expect("validated by run()");
        app.insert_resource(world)
            .insert_resource(ViewDistance(
                options
                    .view_distance
                    .clamp(*ViewDistance::RANGE.start(), *ViewDistance::RANGE.end()),
            ))
            .insert_resource(AutoScreenshot(options.screenshot.clone()))
            .insert_resource(StartWithPanel(options.panel_open))
            .init_resource::<Notices>()
            .add_message::<WorldChanged>();
    }
}
