//! The time of day: a clock that runs (a day lasts [`DAY_SECONDS`]) or stands still.

use bevy::prelude::*;

use crate::config::AutoScreenshot;
use crate::schedule::GameSystems;

/// Real seconds in one game day.
pub const DAY_SECONDS: f32 = 1200.0;

/// The hour a game starts at unless told otherwise: a pleasant morning.
pub const DEFAULT_HOUR: f32 = 9.0;

/// The time of day, in hours `0.0..24.0`, and whether the clock runs.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct TimeOfDay {
    /// Hours since midnight.
    pub hours: f32,
    /// Whether the clock stands still.
    pub paused: bool,
}

impl TimeOfDay {
    /// `hours` wrapped into `0.0..24.0`.
    pub fn at(hours: f32, paused: bool) -> Self {
        Self {
            hours: hours.rem_euclid(24.0),
            paused,
        }
    }

    /// The time as `HH:MM`.
    pub fn clock(&self) -> String {
        let minutes = (self.hours * 60.0).round() as u32 % (24 * 60);
        format!("{:02}:{:02}", minutes / 60, minutes % 60)
    }
}

/// The clock plugin: [`TimeOfDay`] from the start-up hour, running unless paused.
pub(crate) fn plugin(hour: Option<f32>) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let start = hour.unwrap_or(DEFAULT_HOUR);
        app.insert_resource(TimeOfDay::at(start, false))
            .add_systems(Startup, hold_for_screenshot)
            .add_systems(Update, advance_clock.in_set(GameSystems::Simulate));
    }
}

/// An automated screenshot shows the hour asked for: the clock stands still.
fn hold_for_screenshot(plan: Res<AutoScreenshot>, mut time: ResMut<TimeOfDay>) {
    if plan.0.is_some() {
        time.paused = true;
    }
}

fn advance_clock(clock: Res<Time>, mut time: ResMut<TimeOfDay>) {
    if !time.paused {
        let hours = time.hours + clock.delta_secs() * 24.0 / DAY_SECONDS;
        time.hours = hours.rem_euclid(24.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_wraps_and_prints() {
        assert_eq!(TimeOfDay::at(25.5, false).hours, 1.5);
        assert_eq!(TimeOfDay::at(-1.0, false).clock(), "23:00");
        assert_eq!(TimeOfDay::at(9.25, true).clock(), "09:15");
    }
}
