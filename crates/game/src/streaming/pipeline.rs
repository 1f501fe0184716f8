//! The chunk pipeline every level of detail runs on: which chunks are wanted, worker
//! tasks that make them off the main thread, and their results handed back under a
//! budget. Keyed by [`LodPos`] (level 0 is the full-detail chunk). It knows nothing of
//! what a task makes; the full-detail store ([`super::Chunks`]) and the horizon
//! (the horizon's `Horizon`) each own one and decide what to do with results.
//!
//! ```text
//! set_wanted ─▶ start (in order, up to a limit) ─▶ poll ─▶ drain (under a budget)
//!                         ▲ cancel / restart                  └─▶ the owner applies
//! ```
//!
//! A task carries the world epoch it was started for; results of another epoch are
//! dropped when drained. Dropping a task cancels it.

use std::future::Future;

use bevy::platform::collections::{HashMap, HashSet};
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use terravox_worldgen::LodPos;

/// Wanted chunks, tasks in flight and finished results, for one kind of result `R`.
pub(crate) struct Pipeline<R> {
    /// Wanted chunks, as given and as a set.
    wanted: Vec<LodPos>,
    wanted_set: HashSet<LodPos>,
    /// The order tasks start in (the wanted order unless changed).
    order: Vec<LodPos>,
    /// Every chunk of `order` before this index was started (or is loaded): starting goes
    /// on from here. Reset whenever work is dropped.
    started_up_to: usize,
    /// Tasks in flight and the epoch each was started for.
    in_flight: HashMap<LodPos, (u64, Task<R>)>,
    /// Finished results waiting to be drained.
    ready: Vec<(LodPos, u64, R)>,
}

impl<R> Default for Pipeline<R> {
    fn default() -> Self {
        Self {
            wanted: Vec::new(),
            wanted_set: HashSet::new(),
            order: Vec::new(),
            started_up_to: 0,
            in_flight: HashMap::new(),
            ready: Vec::new(),
        }
    }
}

impl<R: Send + 'static> Pipeline<R> {
    /// Makes `wanted` the wanted chunks, in the order tasks should start in; tasks
    /// and results for chunks no longer wanted are cancelled.
    pub(crate) fn set_wanted(&mut self, wanted: Vec<LodPos>) {
        self.wanted_set = wanted.iter().copied().collect();
        self.order.clone_from(&wanted);
        self.wanted = wanted;
        self.started_up_to = 0;
        let set = &self.wanted_set;
        self.in_flight.retain(|k, _| set.contains(k));
        self.ready.retain(|(k, _, _)| set.contains(k));
    }

    /// Starts over from the first wanted chunk (chunks loaded for an older world
    /// epoch are to be made again).
    pub(crate) fn rewind(&mut self) {
        self.started_up_to = 0;
    }

    /// Changes the order tasks start in, keeping the wanted set (`order` should hold
    /// only wanted chunks; others are skipped).
    pub(crate) fn set_order(&mut self, order: Vec<LodPos>) {
        self.order = order;
        self.started_up_to = 0;
    }

    /// The wanted chunks, in the order given.
    pub(crate) fn wanted(&self) -> &[LodPos] {
        &self.wanted
    }

    /// Whether `k` is wanted.
    pub(crate) fn is_wanted(&self, k: LodPos) -> bool {
        self.wanted_set.contains(&k)
    }

    /// Whether `k` has a task in flight or a result waiting.
    pub(crate) fn is_pending(&self, k: LodPos) -> bool {
        self.in_flight.contains_key(&k) || self.ready.iter().any(|(r, _, _)| *r == k)
    }

    /// Tasks in flight plus results waiting: work started and not drained.
    pub(crate) fn pending(&self) -> usize {
        self.in_flight.len() + self.ready.len()
    }

    /// Tasks in flight (finished or not).
    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether finished results wait to be drained.
    pub(crate) fn has_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    /// Tasks whose work has not finished yet.
    pub(crate) fn tasks_running(&self) -> usize {
        self.in_flight
            .values()
            .filter(|(_, t)| !t.is_finished())
            .count()
    }

    /// The chunks with a task in flight or a result waiting.
    pub(crate) fn pending_keys(&self) -> impl Iterator<Item = LodPos> + '_ {
        let ready = self.ready.iter().map(|(k, _, _)| *k);
        self.in_flight.keys().copied().chain(ready)
    }

    /// Whether every wanted chunk was started or is done.
    pub(crate) fn all_started(&self) -> bool {
        self.started_up_to >= self.order.len()
    }

    /// Starts a task for `k` now, whatever is pending for it (which is cancelled).
    pub(crate) fn restart<F>(&mut self, k: LodPos, epoch: u64, work: F)
    where
        F: Future<Output = R> + Send + 'static,
    {
        self.ready.retain(|(r, _, _)| *r != k);
        let task = AsyncComputeTaskPool::get().spawn(work);
        self.in_flight.insert(k, (epoch, task));
    }

    /// Cancels the task or result pending for `k`, if any, and returns whether there
    /// was one; then starting goes on from the first wanted chunk again (a chunk not
    /// loaded and not pending is either not reached yet or was dropped, which
    /// already sent starting back).
    pub(crate) fn cancel(&mut self, k: LodPos) -> bool {
        let ready = self.ready.len();
        self.ready.retain(|(r, _, _)| *r != k);
        let had = self.in_flight.remove(&k).is_some() | (self.ready.len() != ready);
        if had {
            self.started_up_to = 0;
        }
        had
    }

    /// Starts tasks for wanted chunks in start order, from the first not started, until
    /// `most` are pending: none for a chunk `done` says is loaded or one pending;
    /// chunks `defer` picks start only once all others have. `work` makes a chunk's
    /// task.
    pub(crate) fn start<F>(
        &mut self,
        most: usize,
        epoch: u64,
        done: impl Fn(LodPos) -> bool,
        defer: impl Fn(LodPos) -> bool,
        mut work: impl FnMut(LodPos) -> F,
    ) where
        F: Future<Output = R> + Send + 'static,
    {
        let pool = AsyncComputeTaskPool::get();
        let mut deferred = Vec::new();
        let mut i = self.started_up_to;
        while i < self.order.len() && self.pending() < most {
            let k = self.order[i];
            i += 1;
            if !self.wanted_set.contains(&k) || done(k) || self.is_pending(k) {
                continue;
            }
            if defer(k) {
                deferred.push((i - 1, k));
            } else {
                self.in_flight.insert(k, (epoch, pool.spawn(work(k))));
            }
        }
        // The next frame goes on from the first chunk not started.
        let mut resume = i;
        for (at, k) in deferred {
            if self.pending() >= most {
                resume = at;
                break;
            }
            self.in_flight.insert(k, (epoch, pool.spawn(work(k))));
        }
        self.started_up_to = resume;
    }

    /// Moves finished tasks' results to the waiting ones, without waiting on any.
    pub(crate) fn poll(&mut self) {
        let ready = &mut self.ready;
        self.in_flight
            .retain(|&k, (epoch, task)| match check_ready(task) {
                Some(r) => {
                    ready.push((k, *epoch, r));
                    false
                }
                None => true,
            });
    }

    /// Hands waiting results of epoch `epoch` to `apply`, smallest `priority` first,
    /// with whether each chunk is still wanted, until `budget` of them were
    /// [`Drained::Counted`]; results of another epoch are dropped. Returns how many
    /// were dropped (by epoch or by `apply`).
    pub(crate) fn drain<P: Ord>(
        &mut self,
        budget: usize,
        epoch: u64,
        priority: impl Fn(LodPos, &R) -> P,
        mut apply: impl FnMut(LodPos, R, bool) -> Drained,
    ) -> usize {
        // The most urgent last, to pop first.
        self.ready
            .sort_by_key(|(k, _, r)| std::cmp::Reverse(priority(*k, r)));
        let (mut counted, mut dropped) = (0, 0);
        while counted < budget {
            let Some((k, e, r)) = self.ready.pop() else {
                break;
            };
            let outcome = if e == epoch {
                apply(k, r, self.wanted_set.contains(&k))
            } else {
                Drained::Dropped
            };
            match outcome {
                Drained::Dropped => {
                    dropped += 1;
                    self.started_up_to = 0;
                }
                Drained::Applied => {}
                Drained::Counted => counted += 1,
            }
        }
        dropped
    }
}

/// What the owner did with a drained result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Drained {
    /// Dropped (not wanted any more): it may have to start again.
    Dropped,
    /// Applied, not counted against the budget (nothing to upload).
    Applied,
    /// Applied and counted against the budget.
    Counted,
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::tasks::TaskPool;
    use terravox_voxel::ChunkPos;

    fn at(x: i32) -> LodPos {
        LodPos::new(0, ChunkPos::new(x, 0, 0))
    }

    /// Polls until every task finished.
    fn settle(p: &mut Pipeline<i32>) {
        while p.in_flight() > 0 {
            p.poll();
            std::thread::yield_now();
        }
    }

    /// Tasks start in the wanted order up to the limit, deferred ones last, each
    /// once; results drain most urgent first under the budget; stale ones drop.
    #[test]
    fn starts_in_order_and_drains_under_a_budget() {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        let mut p = Pipeline::<i32>::default();
        p.set_wanted((0..6).map(at).collect());
        let (loaded, deferred) = ([at(1)], at(2));
        // Starts up to `most` pending, and gives what was started, in order.
        let start = |p: &mut Pipeline<i32>, most| {
            p.start(
                most,
                7,
                |k| loaded.contains(&k),
                |k| k == deferred,
                |k| async move { k.pos.x },
            );
            let mut started: Vec<i32> = p.pending_keys().map(|k| k.pos.x).collect();
            started.sort();
            started
        };
        assert_eq!(
            start(&mut p, 3),
            [0, 3, 4],
            "in order, skipping the loaded and deferred"
        );
        assert_eq!(
            start(&mut p, 6),
            [0, 2, 3, 4, 5],
            "the deferred one after all others"
        );
        assert!(p.all_started());
        settle(&mut p);
        // A chunk no longer wanted drops; an old epoch's result drops.
        p.set_wanted([0, 2, 3, 4].map(at).to_vec());
        p.restart(at(3), 6, async { 99 });
        settle(&mut p);
        let applied = std::cell::RefCell::new(Vec::new());
        let apply = |k: LodPos, r: i32, wanted: bool| {
            assert!(wanted, "{k:?} is wanted");
            applied.borrow_mut().push((k.pos.x, r));
            Drained::Counted
        };
        let dropped = p.drain(2, 7, |k, _| -k.pos.x, apply);
        assert_eq!(
            *applied.borrow(),
            [(4, 4), (2, 2)],
            "farthest first by this priority"
        );
        let dropped = dropped + p.drain(9, 7, |k, _| k.pos.x, apply);
        assert_eq!(applied.borrow()[2..], [(0, 0)]);
        assert_eq!(dropped, 1, "the restarted chunk's old epoch");
        assert_eq!(p.pending(), 0);
    }

    /// Cancelling drops what is pending and says so.
    #[test]
    fn cancel_drops_pending_work() {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        let mut p = Pipeline::<i32>::default();
        p.set_wanted(vec![at(0), at(1)]);
        p.start(9, 0, |_| false, |_| false, |k| async move { k.pos.x });
        assert!(p.cancel(at(0)));
        assert!(!p.cancel(at(0)));
        assert!(!p.is_pending(at(0)) && p.is_pending(at(1)));
    }
}
