//! Where an export reports how far it got.

/// Where an export reports how far it got: the command line draws a progress bar.
/// Called from worker threads.
pub trait Progress: Sync {
    /// The work ahead: `total` steps of `unit` (e.g. "chunks").
    fn start(&self, total: u64, unit: &'static str);
    /// `n` more steps are done.
    fn advance(&self, n: u64);
    /// Where the work stands in larger units (e.g. "region 3 of 16"); shown beside
    /// the steps.
    fn stage(&self, _what: &str) {}
}

/// No progress to report.
impl Progress for () {
    fn start(&self, _: u64, _: &'static str) {}
    fn advance(&self, _: u64) {}
}
