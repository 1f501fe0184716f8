//! What is asked of a [`Generator`](crate::generator::Generator) on top of its chunks
//! and columns, each in the file named for it: places to stand ([`search`]), the
//! first frame a player sees, cast without a GPU ([`frame`]), where a new player
//! stands and looks, rated by that frame ([`spawn`]), the fields one at a time ([`fields`]), top-down maps ([`map`]), relief statistics
//! ([`stats`]), straight seams ([`seams`]), water figures ([`water_figures`], version 5; the network's as hydrologists
//! measure it, [`network`]) and side views along a line ([`section`]).
//!
//! The crate owns no threads. Work that can run in parallel (a map's rows, the rows
//! of samples a statistic takes) is handed to the caller's [`ForEach`], which runs the
//! jobs on whatever threads the caller has: the command line passes rayon's
//! (`&|n, job| (0..n).into_par_iter().for_each(job)`), the game runs them on its task
//! pool or one after another inside its worker task, tests pass [`sequential`]. The
//! results never depend on how the jobs were run.

pub(crate) mod fields;
pub(crate) mod frame;
pub mod map;
pub(crate) mod network;
pub mod seams;
pub(crate) mod search;
pub mod section;
pub(crate) mod spawn;
pub mod stats;
pub mod water_figures;

use std::sync::Mutex;

/// How the caller runs independent jobs: `for_each(n, job)` must call `job(i)` once
/// for every `i` in `0..n`, on any threads, in any order, and return once every call
/// has returned. The jobs write nothing the others read, so their order never shows
/// in the result.
pub type ForEach<'a> = &'a dyn Fn(usize, &(dyn Fn(usize) + Sync));

/// A [`ForEach`] running the jobs one after another on the calling thread.
pub fn sequential(n: usize, job: &(dyn Fn(usize) + Sync)) {
    (0..n).for_each(job);
}

/// `job(i)` for every `i` in `0..n`, run by `for_each`, in order of `i`.
pub(crate) fn collect<T: Send>(
    for_each: ForEach<'_>,
    n: usize,
    job: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let out: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    for_each(n, &|i| {
        let v = job(i);
        *out[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
    });
    out.into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("the ForEach ran every job")
        })
        .collect()
}
