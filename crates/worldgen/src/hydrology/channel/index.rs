//! [`LocalWater`]: the pieces of water that shape an area, filed by cell, so a column
//! asks only those near it.

use super::lake::{Disc, LAKE_INFLUENCE};
use super::piece::{INFLUENCE, Water};
use super::segment::Segment;

/// Blocks a side of the cells [`LocalWater`] files its pieces of water by.
const CELL: i32 = 64;

/// The water that shapes an area, filed by cells of [`CELL`] blocks.
#[derive(Clone, Debug, Default)]
pub(crate) struct LocalWater {
    segments: Vec<Segment>,
    discs: Vec<Disc>,
    /// The area's first cell, `[x, z]`, and cells a side.
    origin: [i32; 2],
    size: [usize; 2],
    /// For each cell, `[z][x]`, the pieces that shape a column in it: segments by
    /// index, discs by `segments.len()` plus theirs.
    cells: Vec<Vec<u32>>,
}

/// Whether `b` (`[x0, z0, x1, z1]`) overlaps columns `area`.
fn overlaps(b: [f64; 4], area: [i32; 4]) -> bool {
    b[0] <= area[2] as f64
        && b[2] >= area[0] as f64
        && b[1] <= area[3] as f64
        && b[3] >= area[1] as f64
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
        let cell = |v: i32| v.div_euclid(CELL);
        self.origin = [cell(area[0]), cell(area[1])];
        self.size = [
            (cell(area[2]) - self.origin[0] + 1) as usize,
            (cell(area[3]) - self.origin[1] + 1) as usize,
        ];
        self.cells = vec![Vec::new(); self.size[0] * self.size[1]];
        let bounds = self
            .segments
            .iter()
            .map(|s| s.bounds)
            .chain(self.discs.iter().map(Disc::bounds));
        for (i, b) in bounds.enumerate() {
            // The cells `b` overlaps along one axis, clipped to the area's.
            let span = |lo: f64, hi: f64, axis: usize| {
                let at = |v: f64| (v as i64).div_euclid(CELL as i64) - self.origin[axis] as i64;
                at(lo.floor()).max(0)..=at(hi.ceil()).min(self.size[axis] as i64 - 1)
            };
            let (xs, zs) = (span(b[0], b[2], 0), span(b[1], b[3], 1));
            for z in zs {
                for x in xs.clone() {
                    self.cells[z as usize * self.size[0] + x as usize].push(i as u32);
                }
            }
        }
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
    /// less than that far (their water may fill it within [`WET`](super::WET)).
    pub(super) fn around(
        &self,
        x: i32,
        z: i32,
        within: Option<f64>,
    ) -> impl Iterator<Item = Water> + '_ {
        let p = [x as f64, z as f64];
        let cell = |v: i32, axis: usize| {
            usize::try_from(v.div_euclid(CELL) as i64 - self.origin[axis] as i64)
                .ok()
                .filter(|&c| c < self.size[axis])
        };
        let list: &[u32] = match (cell(x, 0), cell(z, 1)) {
            (Some(cx), Some(cz)) => &self.cells[cz * self.size[0] + cx],
            _ => &[],
        };
        let n = self.segments.len();
        let inside =
            move |b: [f64; 4]| p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];
        // A piece's box, `[x0, z0, x1, z1]`, shrunk to `within` beyond its edge.
        let shrunk = move |b: [f64; 4], reach: f64| {
            let d = within.map_or(0.0, |w| (reach - w).max(0.0));
            [b[0] + d, b[1] + d, b[2] - d, b[3] - d]
        };
        list.iter()
            .filter_map(move |&i| match self.segments.get(i as usize) {
                Some(s) => inside(shrunk(s.bounds, INFLUENCE)).then(|| s.at(p)),
                None => {
                    let d = &self.discs[i as usize - n];
                    inside(shrunk(d.bounds(), LAKE_INFLUENCE)).then(|| d.at(p))
                }
            })
            .filter(move |w| w.out < within.unwrap_or(w.reach))
    }
}
