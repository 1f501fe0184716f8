//! [`LocalWater`]: the pieces of water that shape an area, filed by cell, so a column
//! asks only those near it.

use super::lake::{Disc, LAKE_INFLUENCE};
use super::piece::{INFLUENCE, WET, Water};
use super::segment::Segment;

/// Blocks a side of the cells [`LocalWater`] files its pieces by for the shaping of
/// the ground (every column a piece shapes).
const CELL: i32 = 64;

/// Blocks a side of the cells [`LocalWater`] files its pieces by for the water over
/// a column (the columns within [`WET_REACH`] of a piece's edge), at the finest: a
/// few pieces come that near, so a column looks at those alone.
const WET_CELL: i32 = 8;

/// The farthest beyond a piece's edge a column asks of its water
/// ([`LocalWater::wets_beside`]: the wet band and the column beside it).
pub(super) const WET_REACH: f64 = WET + 1.0;

/// The water that shapes an area: its pieces filed by cell twice, by the columns
/// they shape and by those their water may fill.
#[derive(Clone, Debug, Default)]
pub(crate) struct LocalWater {
    segments: Vec<Segment>,
    discs: Vec<Disc>,
    /// By every column each piece shapes, in cells of [`CELL`].
    shaping: Filing,
    /// By the columns within [`WET_REACH`] of each piece's edge, in cells of
    /// [`WET_CELL`].
    wetting: Filing,
}

/// Pieces of water filed by the square cells of an area their boxes overlap.
#[derive(Clone, Debug, Default)]
struct Filing {
    /// Blocks a side of a cell.
    cell: i32,
    /// The area's first cell, `[x, z]`, and cells a side.
    origin: [i32; 2],
    size: [usize; 2],
    /// Where each cell's pieces start in `pieces` (`[z][x]`, and one past the last).
    starts: Vec<u32>,
    /// Each cell's pieces whose box overlaps it, by index in the order they were
    /// given, cell after cell.
    pieces: Vec<u32>,
}

impl Filing {
    /// Files `boxes` (`[x0, z0, x1, z1]` each) by the cells of `cell` blocks of
    /// columns `area` (`[x0, z0, x1, z1]`) they overlap.
    fn new(cell: i32, area: [i32; 4], boxes: &[[f64; 4]]) -> Self {
        let at = |v: i32| v.div_euclid(cell);
        let origin = [at(area[0]), at(area[1])];
        let size = [
            (at(area[2]) - origin[0] + 1) as usize,
            (at(area[3]) - origin[1] + 1) as usize,
        ];
        // The cells each box overlaps, clipped to the area's.
        let cells = |b: &[f64; 4]| {
            let span = |lo: f64, hi: f64, axis: usize| {
                let at = |v: f64| (v as i64).div_euclid(cell as i64) - origin[axis] as i64;
                at(lo.floor()).max(0)..=at(hi.ceil()).min(size[axis] as i64 - 1)
            };
            let (xs, zs) = (span(b[0], b[2], 0), span(b[1], b[3], 1));
            zs.flat_map(move |z| xs.clone().map(move |x| z as usize * size[0] + x as usize))
        };
        // Counted, then filed in place.
        let mut starts = vec![0u32; size[0] * size[1] + 1];
        for c in boxes.iter().flat_map(cells) {
            starts[c + 1] += 1;
        }
        for c in 1..starts.len() {
            starts[c] += starts[c - 1];
        }
        let mut next = starts.clone();
        let mut pieces = vec![0; starts[starts.len() - 1] as usize];
        for (i, b) in boxes.iter().enumerate() {
            for c in cells(b) {
                pieces[next[c] as usize] = i as u32;
                next[c] += 1;
            }
        }
        Self {
            cell,
            origin,
            size,
            starts,
            pieces,
        }
    }

    /// The pieces filed for the cell of column `(x, z)` (none outside the area).
    fn at(&self, x: i32, z: i32) -> &[u32] {
        let cell = |v: i32, axis: usize| {
            usize::try_from(v.div_euclid(self.cell) as i64 - self.origin[axis] as i64)
                .ok()
                .filter(|&c| c < self.size[axis])
        };
        match (cell(x, 0), cell(z, 1)) {
            (Some(cx), Some(cz)) => {
                let c = cz * self.size[0] + cx;
                &self.pieces[self.starts[c] as usize..self.starts[c + 1] as usize]
            }
            _ => &[],
        }
    }
}

/// Whether `b` (`[x0, z0, x1, z1]`) overlaps columns `area`.
fn overlaps(b: [f64; 4], area: [i32; 4]) -> bool {
    b[0] <= area[2] as f64
        && b[2] >= area[0] as f64
        && b[1] <= area[3] as f64
        && b[3] >= area[1] as f64
}

/// Box `b` (`[x0, z0, x1, z1]`) of a piece that shapes `reach` blocks beyond its
/// edge, shrunk to `within` blocks beyond it.
fn shrunk(b: [f64; 4], reach: f64, within: f64) -> [f64; 4] {
    let d = (reach - within).max(0.0);
    [b[0] + d, b[1] + d, b[2] - d, b[3] - d]
}

impl LocalWater {
    /// Adds the pieces of water among `segments` and `discs` that shape columns
    /// `area` (`[x0, z0, x1, z1]`).
    pub(crate) fn gather(&mut self, segments: &[Segment], discs: &[Disc], area: [i32; 4]) {
        self.segments
            .extend(segments.iter().filter(|s| overlaps(s.bounds, area)));
        self.discs
            .extend(discs.iter().filter(|d| overlaps(d.bounds(), area)));
    }

    /// Files the pieces gathered for `area` by cell, for [`LocalWater::around`].
    pub(crate) fn index(&mut self, area: [i32; 4]) {
        // A piece near two regions came from both: once each, in a fixed order.
        let bits = |p: [f64; 2]| p.map(f64::to_bits);
        self.segments.sort_by_key(|s| (bits(s.a), bits(s.b)));
        self.segments.dedup_by_key(|s| (bits(s.a), bits(s.b)));
        self.discs.sort_by_key(|d| (bits(d.at), d.level));
        self.discs.dedup_by_key(|d| (bits(d.at), d.level));
        // Every piece's box and how far beyond its edge it shapes: segments, then
        // discs (the index `around` reads).
        let segments = self.segments.iter().map(|s| (s.bounds, INFLUENCE));
        let boxes: Vec<([f64; 4], f64)> = segments
            .chain(self.discs.iter().map(|d| (d.bounds(), LAKE_INFLUENCE)))
            .collect();
        let shaping: Vec<[f64; 4]> = boxes.iter().map(|&(b, _)| b).collect();
        self.shaping = Filing::new(CELL, area, &shaping);
        let wet: Vec<[f64; 4]> = boxes
            .iter()
            .map(|&(b, reach)| shrunk(b, reach, WET_REACH))
            .collect();
        // A wide area (a far coarse chunk's) in cells no finer than 1/64 of it.
        let side = (area[2] - area[0]).max(area[3] - area[1]) + 1;
        self.wetting = Filing::new(WET_CELL.max(side / 64), area, &wet);
    }

    /// Whether no water comes near.
    pub(crate) fn is_empty(&self) -> bool {
        self.segments.is_empty() && self.discs.is_empty()
    }

    /// The highest water level of the area, blocks above sea level.
    pub(crate) fn top(&self) -> Option<i32> {
        let rivers = self.segments.iter().map(|s| s.levels[0].max(s.levels[1]));
        let lakes = self.discs.iter().map(|d| d.level as f64);
        rivers.chain(lakes).reduce(f64::max).map(|l| l as i32)
    }

    /// Every piece of water that shapes column `(x, z)`, which lies in the area
    /// [`LocalWater::index`] filed them for; with `within`, only those whose edge is
    /// less than that far (their water may fill it within [`WET`]), in the same
    /// order.
    pub(super) fn around(
        &self,
        x: i32,
        z: i32,
        within: Option<f64>,
    ) -> impl Iterator<Item = Water> + '_ {
        let p = [x as f64, z as f64];
        let list = match within {
            Some(w) if w <= WET_REACH => self.wetting.at(x, z),
            _ => self.shaping.at(x, z),
        };
        let n = self.segments.len();
        let inside =
            move |b: [f64; 4]| p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];
        let near = move |b: [f64; 4], reach: f64| inside(shrunk(b, reach, within.unwrap_or(reach)));
        list.iter()
            .filter_map(move |&i| match self.segments.get(i as usize) {
                Some(s) => near(s.bounds, INFLUENCE).then(|| s.at(p)),
                None => {
                    let d = &self.discs[i as usize - n];
                    near(d.bounds(), LAKE_INFLUENCE).then(|| d.at(p))
                }
            })
            .filter(move |w| w.out < within.unwrap_or(w.reach))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a piece says of a column, as bits (to compare whole answers).
    fn said(w: &Water) -> [u64; 3] {
        [w.out.to_bits(), w.level.to_bits(), w.bank.to_bits()]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// The pieces filed for a column's water are, in order, every piece whose
        /// edge lies within the asked distance: the fine filing misses none.
        #[test]
        fn the_wet_filing_misses_no_piece(
            steps in prop::collection::vec(
                (-120.0..120.0f64, -120.0..120.0f64, -20.0..20.0f64, -20.0..20.0f64, 1u32..60),
                1..12,
            ),
            lakes in prop::collection::vec((-120.0..120.0f64, -120.0..120.0f64), 0..3),
        ) {
            let segments: Vec<Segment> = steps
                .iter()
                .map(|&(x, z, dx, dz, flow)| {
                    Segment::straight([x, z], [x + dx, z + dz], [5, 4], flow, 1.0)
                })
                .collect();
            let discs: Vec<Disc> = lakes
                .iter()
                .map(|&(x, z)| Disc { at: [x, z], level: 6, radius: 24.0 })
                .collect();
            // A chunk's area, and a far coarse chunk's (coarser cells).
            for wide in [100, 3000] {
            let area = [-wide, -wide, wide, wide];
            let mut water = LocalWater::default();
            water.gather(&segments, &discs, area);
            water.index(area);
            for z in (-100..=100).step_by(3) {
                for x in (-100..=100).step_by(3) {
                    let p = [x as f64, z as f64];
                    let every = || {
                        let segments = water.segments.iter().map(|s| s.at(p));
                        segments.chain(water.discs.iter().map(|d| d.at(p)))
                    };
                    for within in [WET, WET_REACH] {
                        let filed: Vec<_> = water.around(x, z, Some(within)).map(|w| said(&w)).collect();
                        let all: Vec<_> = every().filter(|w| w.out < within).map(|w| said(&w)).collect();
                        prop_assert_eq!(filed, all, "column {:?} within {}", p, within);
                    }
                    let filed: Vec<_> = water.around(x, z, None).map(|w| said(&w)).collect();
                    let all: Vec<_> = every().filter(|w| w.out < w.reach).map(|w| said(&w)).collect();
                    prop_assert_eq!(filed, all, "column {:?}", p);
                }
            }
            }
        }
    }
}
