//! A store of values made once per key and shared by threads: the land's heights,
//! basins, traces and regions (`hydrology`), what a column of coarse chunks shares
//! (`density::coarse`). Values are made outside the lock (two threads may
//! both make one, and get the same: every value is a pure function of its key), and
//! a full store starts again, so memory stays bounded and results never change.

use foldhash::{HashMap, HashMapExt};
use std::sync::{Arc, Mutex};

/// A store of values made once per key, shared by threads.
pub(crate) struct Store<K, V> {
    kept: Mutex<HashMap<K, Arc<V>>>,
    /// How many it keeps before it starts again.
    most: usize,
}

impl<K: std::hash::Hash + Eq + Copy, V> Store<K, V> {
    pub(crate) fn new(most: usize) -> Self {
        Self {
            kept: Mutex::new(HashMap::new()),
            most,
        }
    }

    /// The value of `k`, made by `make` if not kept (outside the lock: two threads
    /// may both make it, and get the same).
    pub(crate) fn get(&self, k: K, make: impl FnOnce() -> V) -> Arc<V> {
        match self.kept(k) {
            Some(v) => v,
            None => self.keep(k, make()),
        }
    }

    /// The value of `k`, if kept.
    pub(crate) fn kept(&self, k: K) -> Option<Arc<V>> {
        self.kept.lock().expect("never poisoned").get(&k).cloned()
    }

    /// Keeps `v` as the value of `k`, unless one is kept already; the kept one.
    pub(crate) fn keep(&self, k: K, v: V) -> Arc<V> {
        let mut kept = self.kept.lock().expect("never poisoned");
        if kept.len() >= self.most {
            kept.clear();
        }
        kept.entry(k).or_insert_with(|| Arc::new(v)).clone()
    }
}

impl<K, V> Store<K, V> {
    /// Forgets every value kept.
    #[cfg(feature = "test-support")]
    pub(crate) fn clear(&self) {
        self.kept.lock().expect("never poisoned").clear();
    }
}

impl<K, V> std::fmt::Debug for Store<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.lock().map_or(0, |k| k.len());
        write!(f, "Store {{ {kept} of at most {} kept }}", self.most)
    }
}
