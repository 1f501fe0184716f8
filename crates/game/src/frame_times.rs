//! The figures of a run of frames (how many, median, p90, p99, the longest): what the
//! benchmarks report and what an automated screenshot logs of the view it draws.

use std::time::Duration;

/// The `q`-quantile (0 to 1, nearest rank, rounded) of `samples`, after sorting them.
pub fn quantiles(mut samples: Vec<Duration>) -> impl Fn(f64) -> Duration {
    samples.sort();
    move |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize]
}

/// Main-thread time of a run's frames (all game systems): how many, and the
/// quantiles of one frame's time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameTimes {
    /// Frames run.
    pub count: u32,
    /// The median frame.
    pub median: Duration,
    /// The 90th percentile.
    pub p90: Duration,
    /// The 99th percentile.
    pub p99: Duration,
    /// The longest frame.
    pub max: Duration,
}

impl FrameTimes {
    /// The figures of `frames`, each frame's main-thread time (all zero for none).
    pub fn of(frames: Vec<Duration>) -> Self {
        if frames.is_empty() {
            return Self::default();
        }
        let count = frames.len() as u32;
        let q = quantiles(frames);
        Self {
            count,
            median: q(0.5),
            p90: q(0.9),
            p99: q(0.99),
            max: q(1.0),
        }
    }
}
