//! Latest-wins background jobs: work on a worker whose result counts only for the
//! latest request (the panel's preview map, its cross-section and seed thumbnails,
//! the spawn search). A newer request supersedes the job under way: its stop flag is
//! set (long work checks it and gives up) and its task is dropped, which cancels it
//! where it has not run yet; either way its result is never seen.
//!
//! ```text
//! start(a) ── start(b) ── poll: None … poll: Some(b's result)
//!    └─ a: stop flag set, task dropped (its result never comes back)
//! ```

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

/// A job's stop flag: set once a newer request supersedes the job.
pub(crate) type Stop = Arc<AtomicBool>;

/// A background job on the async compute pool whose result counts only for the
/// latest request. `K` says what was asked (`()` where every request is new), so a
/// caller can tell whether a request is already the latest one.
pub(crate) struct Latest<T, K = ()> {
    /// The latest request, running or finished.
    asked: Option<K>,
    /// Its job while it runs, with its stop flag.
    running: Option<(Stop, Task<T>)>,
}

impl<T, K> Default for Latest<T, K> {
    fn default() -> Self {
        Self {
            asked: None,
            running: None,
        }
    }
}

impl<T: Send + 'static, K> Latest<T, K> {
    /// Starts the job for request `key`: `work` gets the new job's stop flag and gives
    /// the future to run. The job under way, if any, is superseded: told to stop and
    /// dropped.
    pub(crate) fn start<F>(&mut self, key: K, work: impl FnOnce(Stop) -> F)
    where
        F: Future<Output = T> + Send + 'static,
    {
        self.supersede();
        let stop = Stop::default();
        let task = AsyncComputeTaskPool::get().spawn(work(stop.clone()));
        self.asked = Some(key);
        self.running = Some((stop, task));
    }

    /// The latest request's result once its job has finished (taken: `None` after
    /// that until another job finishes). Never blocks.
    pub(crate) fn poll(&mut self) -> Option<T> {
        let (_, task) = self.running.as_mut()?;
        let done = check_ready(task)?;
        self.running = None;
        Some(done)
    }

    /// Whether the latest request's job is still running.
    pub(crate) fn running(&self) -> bool {
        self.running.is_some()
    }

    /// Whether `key` is the latest request (running or finished).
    pub(crate) fn is_latest(&self, key: &K) -> bool
    where
        K: PartialEq,
    {
        self.asked.as_ref() == Some(key)
    }

    /// Tells the job under way to stop and drops it.
    fn supersede(&mut self) {
        if let Some((stop, task)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            drop(task);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use bevy::tasks::TaskPool;

    use super::*;

    /// Polls until the job gives a result (or panics after a few seconds).
    fn wait<T: Send + 'static, K>(job: &mut Latest<T, K>) -> T {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(done) = job.poll() {
                return done;
            }
            assert!(Instant::now() < end, "the job never finished");
            std::thread::yield_now();
        }
    }

    /// A job's result comes back once, and the request stays the latest.
    #[test]
    fn a_result_comes_back_once() {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        let mut job = Latest::<u32, &str>::default();
        assert!(!job.running() && !job.is_latest(&"a"));
        assert_eq!(job.poll(), None, "nothing asked");
        job.start("a", |_| async { 7 });
        assert!(job.is_latest(&"a") && !job.is_latest(&"b"));
        assert_eq!(wait(&mut job), 7);
        assert!(!job.running());
        assert_eq!(job.poll(), None, "taken");
        assert!(job.is_latest(&"a"), "finished, still the latest request");
    }

    /// A superseded job is told to stop and its result never comes back, even when
    /// it finishes after the newer one.
    #[test]
    fn a_newer_request_wins() {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        let mut job = Latest::<&str, u32>::default();
        let (started, old_stop) = (Arc::new(AtomicBool::new(false)), Stop::default());
        let (seen_start, seen_stop) = (started.clone(), old_stop.clone());
        job.start(1, move |stop| {
            async move {
                seen_start.store(true, Ordering::Relaxed);
                // Runs until told to stop: only then would it give its result.
                let end = Instant::now() + Duration::from_secs(10);
                while !stop.load(Ordering::Relaxed) && Instant::now() < end {
                    std::thread::yield_now();
                }
                seen_stop.store(stop.load(Ordering::Relaxed), Ordering::Relaxed);
                "old"
            }
        });
        // Wait until the first job runs, so dropping it cannot just unschedule it.
        let end = Instant::now() + Duration::from_secs(10);
        while !started.load(Ordering::Relaxed) {
            assert!(Instant::now() < end, "the first job never started");
            std::thread::yield_now();
        }
        job.start(2, |_| async { "new" });
        assert!(job.is_latest(&2) && !job.is_latest(&1));
        assert_eq!(wait(&mut job), "new");
        let end = Instant::now() + Duration::from_secs(10);
        while !old_stop.load(Ordering::Relaxed) {
            assert!(
                Instant::now() < end,
                "the superseded job was never told to stop"
            );
            std::thread::yield_now();
        }
        assert_eq!(job.poll(), None, "the old result never comes back");
    }

    /// Keyless jobs: every start supersedes.
    #[test]
    fn keyless_jobs_supersede_each_other() {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        let mut job = Latest::<u32>::default();
        for i in 0..5 {
            job.start((), move |_| async move { i });
        }
        assert!(job.running() && job.is_latest(&()));
        assert_eq!(wait(&mut job), 4);
    }
}
