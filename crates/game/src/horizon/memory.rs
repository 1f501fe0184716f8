//! The horizon's memory budget: how many mesh bytes the view and the rings will
//! hold once every wanted chunk is loaded, extrapolated from the chunks loaded so
//! far, and how much narrower the rings must be drawn ([`Detail`]) to fit the
//! budget ([`crate::config::HorizonMemory`]).
//!
//! A preset's surface decides what a ring costs: `continents` holds ~18 MiB a level,
//! `amplified`'s overhanging relief ~100 MiB at levels 1-3. The rings of levels 2 and
//! up are scale-alike (each twice as wide as the one inside it, in cells twice as
//! big), so narrowing them by a factor `f` takes each level's chunks, and bytes, by
//! about `f^2`. The detail only narrows while a world, view distance, horizon and
//! budget stay the same; any change of those starts again at full width.

use terravox_worldgen::MAX_LEVEL;

use super::rings::Detail;

/// Wanted chunks of a level that must be loaded before its bytes are extrapolated
/// to the whole level (all of them where the level wants fewer).
const SAMPLE: usize = 24;

/// What one level's wanted chunks hold so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct LevelLoad {
    /// Chunks of the level wanted.
    pub(super) wanted: usize,
    /// Of those, loaded.
    pub(super) loaded: usize,
    /// The mesh bytes of the loaded ones.
    pub(super) bytes: usize,
}

/// Per level `1..=MAX_LEVEL` (index 0 is level 1).
pub(super) type Levels = [LevelLoad; MAX_LEVEL as usize];

/// The mesh bytes the view (`view_bytes`, as loaded now) and the rings will hold once
/// every wanted chunk is loaded: each level's loaded bytes scaled to all its wanted
/// chunks, for the levels with [`SAMPLE`] chunks loaded (the others count what they
/// hold so far).
pub(super) fn expected_bytes(view_bytes: usize, levels: &Levels) -> usize {
    let rings: f64 = levels
        .iter()
        .map(|l| {
            if l.loaded > 0 && l.loaded >= SAMPLE.min(l.wanted) {
                l.bytes as f64 * l.wanted as f64 / l.loaded as f64
            } else {
                l.bytes as f64
            }
        })
        .sum();
    view_bytes + rings as usize
}

/// The detail that brings `expected` bytes within `budget`, when they exceed it and
/// the rings can still narrow: the rings' part scaled by the square root of the
/// share that fits, less 5% (the innermost ring and the outermost do not scale
/// fully), and never above `now`'s or below [`Detail::MIN`].
pub(super) fn narrowed(
    now: Detail,
    view_bytes: usize,
    expected: usize,
    budget: usize,
) -> Option<Detail> {
    if expected <= budget || now == Detail::MIN {
        return None;
    }
    let rings = expected.saturating_sub(view_bytes).max(1) as f64;
    let room = budget.saturating_sub(view_bytes) as f64;
    let f = (room / rings).sqrt() * 0.95;
    let now = now.thousandths();
    // At least a step narrower.
    Some(Detail::new(((now as f64 * f) as u16).min(now - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(wanted: usize, loaded: usize, bytes: usize) -> LevelLoad {
        LevelLoad {
            wanted,
            loaded,
            bytes,
        }
    }

    /// A level with enough chunks loaded counts for all its wanted ones; one with
    /// too few counts what it holds.
    #[test]
    fn loaded_levels_are_extrapolated_to_their_wanted_chunks() {
        let mut levels = Levels::default();
        levels[0] = level(1000, 100, 1_000_000); // 10 kB a chunk: 10 MB in all
        levels[1] = level(1000, 10, 500_000); // too few: as it is
        levels[2] = level(5, 5, 70_000); // all of a small level
        assert_eq!(
            expected_bytes(2_000_000, &levels),
            2_000_000 + 10_000_000 + 500_000 + 70_000
        );
        assert_eq!(expected_bytes(7, &Levels::default()), 7);
    }

    /// Within the budget nothing narrows; beyond it the rings narrow by about the
    /// square root of the share of the rings' bytes that fits, and at least a step.
    #[test]
    fn the_rings_narrow_to_fit_the_budget() {
        let mib = 1 << 20;
        assert_eq!(narrowed(Detail::FULL, 50 * mib, 400 * mib, 400 * mib), None);
        // Rings expect 550 MiB beside a 50 MiB view; 350 fit: sqrt(350/550) * 0.95.
        let d = narrowed(Detail::FULL, 50 * mib, 600 * mib, 400 * mib).unwrap();
        assert_eq!(d, Detail::new(757));
        // Barely over: a step narrower all the same.
        let d = narrowed(d, 50 * mib, 400 * mib + 1, 400 * mib).unwrap();
        assert!(d < Detail::new(757) && d > Detail::new(700), "{d:?}");
        // The view alone over the budget: as narrow as the rings go, then no further.
        assert_eq!(
            narrowed(Detail::FULL, 500 * mib, 600 * mib, 400 * mib),
            Some(Detail::MIN)
        );
        assert_eq!(narrowed(Detail::MIN, 500 * mib, 600 * mib, 400 * mib), None);
    }
}
