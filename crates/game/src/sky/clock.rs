//! The time of day as the sky shows it: [`TimeOfDay`], the world authority's clock
//! (`terravox_authority::Clock`: a day lasts [`DAY_SECONDS`]; it runs or stands
//! still), copied once a frame when it changed, so the sky's systems redraw on a
//! change. The clock itself is the authority's: the panel sets it there, a server
//! sets a client's.

use bevy::prelude::*;
use terravox_authority::Clock;
pub use terravox_authority::{DAY_SECONDS, DEFAULT_HOUR};

use crate::config::AutoScreenshot;
use crate::schedule::GameSystems;
use crate::world::{WorldAuthority, advance_world};

/// The time of day the sky shows: hours `0.0..24.0` and whether the clock stands
/// still (the fields of `Clock`, through `Deref`).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Deref)]
pub struct TimeOfDay(Clock);

impl TimeOfDay {
    /// The time as `HH:MM`.
    pub fn clock(&self) -> String {
        self.0.hhmm()
    }
}

/// The clock plugin: the authority's clock from the start-up hour (standing still
/// for an automated screenshot), shown to the sky every frame.
pub(crate) fn plugin(hour: Option<f32>) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let start = Clock::at(hour.unwrap_or(DEFAULT_HOUR), false);
        app.insert_resource(TimeOfDay(start))
            .add_systems(
                Startup,
                move |plan: Res<AutoScreenshot>, mut world: ResMut<WorldAuthority>| {
                    world.set_clock(Clock::at(start.hours, plan.0.is_some()));
                },
            )
            .add_systems(
                Update,
                show_clock
                    .after(advance_world)
                    .in_set(GameSystems::Simulate),
            );
    }
}

/// Copies the authority's clock for the sky, when it changed.
fn show_clock(world: Res<WorldAuthority>, mut time: ResMut<TimeOfDay>) {
    time.set_if_neq(TimeOfDay(world.clock()));
}
