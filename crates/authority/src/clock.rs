//! The time of day: a clock that runs (a day lasts [`DAY_SECONDS`]) or stands still.

/// Real seconds in one game day.
pub const DAY_SECONDS: f32 = 1200.0;

/// The hour a world starts at unless told otherwise: a pleasant morning.
pub const DEFAULT_HOUR: f32 = 9.0;

/// The time of day, in hours `0.0..24.0`, and whether the clock runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Hours since midnight.
    pub hours: f32,
    /// Whether the clock stands still.
    pub paused: bool,
}

impl Default for Clock {
    fn default() -> Self {
        Self::at(DEFAULT_HOUR, false)
    }
}

impl Clock {
    /// `hours` wrapped into `0.0..24.0`.
    pub fn at(hours: f32, paused: bool) -> Self {
        Self {
            hours: hours.rem_euclid(24.0),
            paused,
        }
    }

    /// Runs the clock on by `seconds` of game time, unless it stands still.
    pub fn advance(&mut self, seconds: f32) {
        if !self.paused {
            self.hours = (self.hours + seconds * 24.0 / DAY_SECONDS).rem_euclid(24.0);
        }
    }

    /// The time as `HH:MM`.
    pub fn hhmm(&self) -> String {
        let minutes = (self.hours * 60.0).round() as u32 % (24 * 60);
        format!("{:02}:{:02}", minutes / 60, minutes % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_wraps_runs_and_prints() {
        assert_eq!(Clock::at(25.5, false).hours, 1.5);
        assert_eq!(Clock::at(-1.0, false).hhmm(), "23:00");
        assert_eq!(Clock::at(9.25, true).hhmm(), "09:15");
        let mut c = Clock::at(23.0, false);
        c.advance(DAY_SECONDS / 12.0);
        assert!((c.hours - 1.0).abs() < 1e-4, "{}", c.hours);
        let mut still = Clock::at(12.0, true);
        still.advance(100.0);
        assert_eq!(still.hours, 12.0);
    }
}
