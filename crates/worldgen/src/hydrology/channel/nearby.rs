//! [`LocalWater`]: the pieces of water that shape an area, filed by cell, so a column
//! asks only those near it (a run's pieces as one, by its nearest piece: version 9);
//! and [`FiledWater`]: a region's pieces, filed so an area gathers those near it.

use super::claim::{Claim, INFLUENCE, WET};
use super::lake::{Disc, LAKE_INFLUENCE};
use super::segment::{Run, Segment};

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
    /// Each segment's middle line.
    lines: Vec<Line>,
    /// Who speaks for the segments: each alone, or a run's together.
    speakers: Vec<Speaker>,
    discs: Vec<Disc>,
    /// Speakers, then discs, by every column each shapes, in cells of [`CELL`].
    shaping: Filing,
    /// Speakers, then discs, by the columns within [`WET_REACH`] of each one's
    /// edge, in cells of [`WET_CELL`].
    wetting: Filing,
}

/// Segments that speak for a column as one: a segment alone, or a run's (version 9)
/// by its piece nearest the column.
#[derive(Clone, Copy, Debug)]
struct Speaker {
    /// The first segment and one past the last.
    segments: [u32; 2],
    /// Every column its segments shape (`[x0, z0, x1, z1]`).
    bounds: [f64; 4],
}

/// A segment's middle line, apart from the rest of it, for the search of a run's
/// nearest piece (version 9): where it starts, the way to its end, and that way over
/// the square of its length.
#[derive(Clone, Copy, Debug)]
struct Line {
    a: [f64; 2],
    ab: [f64; 2],
    over: [f64; 2],
}

impl Line {
    /// Segment `s`'s middle line.
    fn of(s: &Segment) -> Self {
        let ab = [s.b[0] - s.a[0], s.b[1] - s.a[1]];
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        let over = if len2 > 0.0 {
            ab.map(|v| v / len2)
        } else {
            [0.0; 2]
        };
        Self { a: s.a, ab, over }
    }

    /// The square of the distance from column `p` to the line.
    fn distance2(&self, p: [f64; 2]) -> f64 {
        let (px, pz) = (p[0] - self.a[0], p[1] - self.a[1]);
        let t = (px * self.over[0] + pz * self.over[1]).clamp(0.0, 1.0);
        let (ex, ez) = (self.ab[0] * t - px, self.ab[1] * t - pz);
        ex * ex + ez * ez
    }
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
        let mut filing = Self {
            cell,
            origin,
            size,
            starts: Vec::new(),
            pieces: Vec::new(),
        };
        // The cells each box overlaps, clipped to the area's.
        let cells = |b: &[f64; 4]| filing.cells(columns(*b));
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
        (filing.starts, filing.pieces) = (starts, pieces);
        filing
    }

    /// The cells columns `area` (`[x0, z0, x1, z1]`) overlaps, clipped to the
    /// filing's area, row by row.
    fn cells(&self, area: [i64; 4]) -> impl Iterator<Item = usize> + use<> {
        let (cell, origin, size) = (self.cell as i64, self.origin, self.size);
        let span = move |lo: i64, hi: i64, axis: usize| {
            let at = |v: i64| v.div_euclid(cell) - origin[axis] as i64;
            at(lo).max(0)..=at(hi).min(size[axis] as i64 - 1)
        };
        let (xs, zs) = (span(area[0], area[2], 0), span(area[1], area[3], 1));
        zs.flat_map(move |z| xs.clone().map(move |x| z as usize * size[0] + x as usize))
    }

    /// The cell of column `(x, z)`, if it lies in the area.
    fn cell_of(&self, x: i32, z: i32) -> Option<usize> {
        let cell = |v: i32, axis: usize| {
            usize::try_from(v.div_euclid(self.cell) as i64 - self.origin[axis] as i64)
                .ok()
                .filter(|&c| c < self.size[axis])
        };
        Some(cell(z, 1)? * self.size[0] + cell(x, 0)?)
    }

    /// The pieces filed for the cell of column `(x, z)` (none outside the area).
    fn at(&self, x: i32, z: i32) -> &[u32] {
        self.cell_of(x, z).map_or(&[], |c| {
            &self.pieces[self.starts[c] as usize..self.starts[c + 1] as usize]
        })
    }

    /// The pieces filed for the cells columns `area` overlaps, with their cells.
    fn within(&self, area: [i32; 4]) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.cells(area.map(i64::from)).flat_map(move |c| {
            let list = &self.pieces[self.starts[c] as usize..self.starts[c + 1] as usize];
            list.iter().map(move |&i| (c, i as usize))
        })
    }
}

/// Blocks a side of the cells a region's pieces are filed by ([`FiledWater`]).
const REGION_CELL: i32 = 128;

/// The pieces of water of a region's reach, filed by cell, so an area gathers
/// ([`LocalWater::gather`]) those near it without looking at every piece.
#[derive(Clone, Debug)]
pub(crate) struct FiledWater {
    /// In [`order`], so a run's pieces lie together.
    segments: Vec<Segment>,
    /// Who speaks for the segments (see [`LocalWater`]): a run's filed as one.
    speakers: Vec<Speaker>,
    /// In [`disc_order`].
    discs: Vec<Disc>,
    /// Speakers, then discs, by the cells their boxes overlap, over the columns
    /// every box covers.
    filing: Filing,
}

impl FiledWater {
    /// `segments` and `discs`, filed.
    pub(crate) fn new(mut segments: Vec<Segment>, mut discs: Vec<Disc>) -> Self {
        // Keys made once: a segment is large to move.
        segments.sort_by_cached_key(order);
        discs.sort_by_key(disc_order);
        let speakers = speakers(&segments);
        let boxes: Vec<[f64; 4]> = speakers
            .iter()
            .map(|s| s.bounds)
            .chain(discs.iter().map(Disc::bounds))
            .collect();
        // Every column any box covers, so no box is clipped (no pieces: one empty
        // cell).
        let extent = boxes
            .iter()
            .copied()
            .reduce(union)
            .map_or([0; 4], |b| columns(b).map(|v| v as i32));
        Self {
            filing: Filing::new(REGION_CELL, extent, &boxes),
            segments,
            speakers,
            discs,
        }
    }

    /// Each speaker and disc whose box overlaps columns `area`, once (from the first
    /// cell of the area it is filed in), as its index among the speakers, then the
    /// discs.
    fn overlapping(&self, area: [i32; 4]) -> impl Iterator<Item = usize> + '_ {
        let n = self.speakers.len();
        let bounds = move |i: usize| match self.speakers.get(i) {
            Some(s) => s.bounds,
            None => self.discs[i - n].bounds(),
        };
        self.filing
            .within(area)
            .filter(move |&(cell, i)| {
                let b = bounds(i);
                overlaps(b, area)
                    && Some(cell)
                        == self.filing.cell_of(
                            (b[0].floor() as i32).max(area[0]),
                            (b[1].floor() as i32).max(area[1]),
                        )
            })
            .map(|(_, i)| i)
    }
}

/// The order [`LocalWater`] keeps its segments in: a run's together (version 9),
/// then by their ends.
fn order(s: &Segment) -> (Option<Run>, [[u64; 2]; 2]) {
    (s.run, [s.a, s.b].map(|p| p.map(f64::to_bits)))
}

/// The order [`LocalWater`] keeps its discs in.
fn disc_order(d: &Disc) -> ([u64; 2], i32) {
    (d.at.map(f64::to_bits), d.level)
}

/// The box (`[x0, z0, x1, z1]`) holding boxes `a` and `b`.
fn union(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// The columns box `b` (`[x0, z0, x1, z1]`) covers, outward to whole blocks.
fn columns(b: [f64; 4]) -> [i64; 4] {
    [b[0].floor(), b[1].floor(), b[2].ceil(), b[3].ceil()].map(|v| v as i64)
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
    /// Adds the pieces of water of `from` that shape columns `area` (`[x0, z0, x1,
    /// z1]`), in [`order`] and [`disc_order`].
    pub(crate) fn gather(&mut self, from: &FiledWater, area: [i32; 4]) {
        let n = from.speakers.len();
        let (mut segments, mut discs) = (Vec::new(), Vec::new());
        for i in from.overlapping(area) {
            match from.speakers.get(i) {
                Some(s) => segments.extend(
                    (s.segments[0]..s.segments[1])
                        .filter(|&k| overlaps(from.segments[k as usize].bounds, area)),
                ),
                None => discs.push(i - n),
            }
        }
        segments.sort_unstable();
        discs.sort_unstable();
        self.segments
            .extend(segments.iter().map(|&k| from.segments[k as usize]));
        self.discs.extend(discs.iter().map(|&k| from.discs[k]));
    }

    /// Files the pieces gathered for `area` by cell, for [`LocalWater::around`].
    pub(crate) fn index(&mut self, area: [i32; 4]) {
        // A piece near two regions came from both: once each, in a fixed order, the
        // pieces of a run together (version 9; [`LocalWater::around`]). Each
        // region's came in order: the sort merges them.
        self.segments.sort_by_key(order);
        self.segments.dedup_by_key(|s| order(s).1);
        self.lines = self.segments.iter().map(Line::of).collect();
        self.speakers = speakers(&self.segments);
        self.discs.sort_by_key(disc_order);
        self.discs.dedup_by_key(|d| disc_order(d));
        // Every speaker's box and how far beyond its edge it shapes: segments', then
        // discs (the index `around` reads).
        let boxes = || {
            let segments = self.speakers.iter().map(|s| (s.bounds, INFLUENCE));
            segments.chain(self.discs.iter().map(|d| (d.bounds(), LAKE_INFLUENCE)))
        };
        let shaping: Vec<[f64; 4]> = boxes().map(|(b, _)| b).collect();
        let wet: Vec<[f64; 4]> = boxes()
            .map(|(b, reach)| shrunk(b, reach, WET_REACH))
            .collect();
        self.shaping = Filing::new(CELL, area, &shaping);
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
    /// order. Of a run's pieces (version 9) only the one whose middle line is
    /// nearest the column (the first of equals) speaks for the run.
    pub(super) fn around(
        &self,
        x: i32,
        z: i32,
        within: Option<f64>,
    ) -> impl Iterator<Item = Claim> + '_ {
        let p = [x as f64, z as f64];
        let list = match within {
            Some(w) if w <= WET_REACH => self.wetting.at(x, z),
            _ => self.shaping.at(x, z),
        };
        let n = self.speakers.len();
        let inside =
            move |b: [f64; 4]| p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];
        let near = move |b: [f64; 4], reach: f64| inside(shrunk(b, reach, within.unwrap_or(reach)));
        list.iter()
            .filter_map(move |&i| match self.speakers.get(i as usize) {
                // Beyond every box of its segments, none comes near (within its
                // box, a piece beyond its own is out of reach: the filter drops it).
                Some(speaker) => near(speaker.bounds, INFLUENCE)
                    .then(|| self.segments[self.nearest(speaker, p)].at(p)),
                None => {
                    let d = &self.discs[i as usize - n];
                    near(d.bounds(), LAKE_INFLUENCE).then(|| d.at(p))
                }
            })
            .filter(move |w| w.out < within.unwrap_or(w.reach))
    }

    /// The index of the segment of `speaker` whose middle line is nearest column `p`
    /// (a run's pieces are one step's, one width: so is its edge), the first of
    /// equals.
    fn nearest(&self, speaker: &Speaker, p: [f64; 2]) -> usize {
        let [first, end] = speaker.segments.map(|i| i as usize);
        if end - first == 1 {
            return first;
        }
        let (mut best, mut d2) = (first, f64::INFINITY);
        for (k, line) in self.lines[first..end].iter().enumerate() {
            let d = line.distance2(p);
            if d < d2 {
                (best, d2) = (first + k, d);
            }
        }
        best
    }
}

/// Who speaks for `segments` (sorted, a run's together): each segment of no run
/// alone, each run's segments together.
fn speakers(segments: &[Segment]) -> Vec<Speaker> {
    let mut out: Vec<Speaker> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        match out.last_mut() {
            Some(last) if s.run.is_some() && segments[last.segments[0] as usize].run == s.run => {
                last.segments[1] = i as u32 + 1;
                last.bounds = union(last.bounds, s.bounds);
            }
            _ => out.push(Speaker {
                segments: [i as u32, i as u32 + 1],
                bounds: s.bounds,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The pieces of `steps` (`x, z, dx, dz, flow, run` each: straight pieces of no
    /// run where `run` is 0, else of that run, whose pieces are one step's and share
    /// its width) and lakes' discs at `lakes`.
    fn laid(
        steps: &[(f64, f64, f64, f64, u32, i32)],
        lakes: &[(f64, f64)],
    ) -> (Vec<Segment>, Vec<Disc>) {
        let segments = steps
            .iter()
            .map(|&(x, z, dx, dz, flow, run)| {
                let flow = if run > 0 { 10 * run as u32 } else { flow };
                Segment {
                    run: (run > 0).then_some(Run {
                        step: [[run, 0], [run, 1]],
                        below: false,
                    }),
                    ..Segment::straight([x, z], [x + dx, z + dz], [5, 4], flow, 1.0)
                }
            })
            .collect();
        let discs = lakes
            .iter()
            .map(|&(x, z)| Disc {
                at: [x, z],
                level: 6,
                radius: 24.0,
            })
            .collect();
        (segments, discs)
    }

    /// What a piece says of a column, as bits (to compare whole answers).
    fn said(w: &Claim) -> [u64; 3] {
        [w.out.to_bits(), w.level.to_bits(), w.bank.to_bits()]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// A region's filed pieces give an area every piece whose box overlaps it,
        /// each once, as asking every piece does, in order; a run's pieces too, filed
        /// as one (version 9), though its box overlaps the area where they do not.
        #[test]
        fn gathering_takes_every_piece_near_an_area_once(
            steps in prop::collection::vec(
                (-1500.0..1500.0f64, -1500.0..1500.0f64, -40.0..40.0f64, -40.0..40.0f64, 1u32..60, 0..4i32),
                0..40,
            ),
            lakes in prop::collection::vec((-1500.0..1500.0f64, -1500.0..1500.0f64), 0..6),
            corner in (-1700..1700i32, -1700..1700i32),
            side in (0..2000i32, 0..2000i32),
        ) {
            let (segments, discs) = laid(&steps, &lakes);
            let area = [corner.0, corner.1, corner.0 + side.0, corner.1 + side.1];
            let mut gathered = LocalWater::default();
            gathered.gather(&FiledWater::new(segments.clone(), discs.clone()), area);
            let every = LocalWater {
                segments: segments.iter().filter(|s| overlaps(s.bounds, area)).copied().collect(),
                discs: discs.iter().filter(|d| overlaps(d.bounds(), area)).copied().collect(),
                ..LocalWater::default()
            };
            prop_assert!(gathered.segments.is_sorted_by_key(order));
            prop_assert!(gathered.discs.is_sorted_by_key(disc_order));
            prop_assert_eq!(gathered.segments.len(), every.segments.len());
            prop_assert_eq!(gathered.discs.len(), every.discs.len());
            let ends = |w: &LocalWater| {
                let mut e: Vec<_> = w.segments.iter().map(|s| [s.a, s.b].map(|p| p.map(f64::to_bits))).collect();
                e.sort();
                e
            };
            let lakes = |w: &LocalWater| {
                let mut l: Vec<_> = w.discs.iter().map(|d| d.at.map(f64::to_bits)).collect();
                l.sort();
                l
            };
            prop_assert_eq!(ends(&gathered), ends(&every));
            prop_assert_eq!(lakes(&gathered), lakes(&every));
        }

        /// The pieces filed for a column are, in order, every piece whose edge lies
        /// within the asked distance, of a run (version 9) the nearest one: neither
        /// filing misses one, nor a run's nearest piece.
        #[test]
        fn the_wet_filing_misses_no_piece(
            steps in prop::collection::vec(
                (-120.0..120.0f64, -120.0..120.0f64, -20.0..20.0f64, -20.0..20.0f64, 1u32..60, 0..4i32),
                1..12,
            ),
            lakes in prop::collection::vec((-120.0..120.0f64, -120.0..120.0f64), 0..3),
        ) {
            let (segments, discs) = laid(&steps, &lakes);
            // A chunk's area, and a far coarse chunk's (coarser cells).
            for wide in [100, 3000] {
            let area = [-wide, -wide, wide, wide];
            let mut water = LocalWater::default();
            water.gather(&FiledWater::new(segments.clone(), discs.clone()), area);
            water.index(area);
            for z in (-100..=100).step_by(3) {
                for x in (-100..=100).step_by(3) {
                    let p = [x as f64, z as f64];
                    // Each piece of no run, and each run's nearest piece (the first
                    // of equals) where its first piece lies; then the discs.
                    let every = || {
                        let ss = &water.segments;
                        let first = |i: usize| ss[i].run.is_none() || ss[..i].iter().all(|t| t.run != ss[i].run);
                        let d2 = |i: usize| water.lines[i].distance2(p);
                        let speaker = move |i: usize| match ss[i].run {
                            None => ss[i].at(p),
                            Some(r) => (0..ss.len())
                                .filter(|&j| ss[j].run == Some(r))
                                .min_by(|&a, &b| d2(a).total_cmp(&d2(b)))
                                .map_or_else(|| ss[i].at(p), |j| ss[j].at(p)),
                        };
                        let segments = (0..ss.len()).filter(move |&i| first(i)).map(speaker);
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
