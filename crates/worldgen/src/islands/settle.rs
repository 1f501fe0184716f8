//! Settling columns: what a chunk needs of a column's height ([`Needs`]), found by
//! summing its octaves in order until those left cannot change that
//! ([`IslandGen::settle`]), [`LANES`] columns at a time ([`IslandGen::settle_all`]),
//! every octave where the surface blocks depend on the height. See the module docs of
//! `islands` for why and how.

use crate::islands::IslandGen;
use crate::islands::layout::Near;
use crate::noise::open_simplex::lanes::{Cell, LANES};

/// What a chunk needs to know of a column's surface height: the height itself where
/// it lies in `exact` (half-open), elsewhere only on which side of `cut` it lies (the
/// blocks of a column wholly below or above the chunk do not depend on its height).
/// No cut is `i32::MIN`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Needs {
    pub(super) exact: [i32; 2],
    pub(super) cut: i32,
}

impl Needs {
    /// Whether every surface height in `lo..=hi` tells the chunk the same.
    #[inline]
    pub(super) fn settled(&self, lo: i32, hi: i32) -> bool {
        (hi < self.exact[0] || lo >= self.exact[1]) && (hi < self.cut || lo >= self.cut)
    }
}

/// [`Needs`] in normalised heights before clamping, for guessing cheaply whether a
/// column is settled (only the exact test on surface heights decides).
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    pub(super) needs: Needs,
    /// Heights below the first and from the second look outside the exact range (or
    /// clamped to an end).
    outside: [f64; 2],
    /// The height at which the surface reaches the cut.
    cut: f64,
    /// Heights between these are well inside the exact range, and not clamped.
    inside: [f64; 2],
}

impl Plan {
    /// Whether normalised heights (before clamping) `guess - spread ..= guess +
    /// spread` look settled: on one side of the cut and all outside the exact range,
    /// or clamped to an end; and whether they are surely in it (then every octave is
    /// needed). `|` and `&`, not `||` and `&&`: no branches.
    #[inline(always)]
    fn looks(&self, guess: f64, spread: f64) -> (bool, bool) {
        let (lo, hi) = (guess - spread, guess + spread);
        let outside = (hi < self.outside[0]) | (lo >= self.outside[1]);
        let cut = (hi < self.cut) | (lo >= self.cut);
        let inside = (lo > self.inside[0]) & (hi < self.inside[1]);
        (outside & cut, inside)
    }
}

/// What [`IslandGen::settle_lanes`] keeps from one group of columns to the next.
struct Pass<'a> {
    plan: &'a Plan,
    /// Whether [`HeightNoise::near`](crate::islands::noise::HeightNoise::near) holds for every column.
    near: bool,
    /// Each octave's [`Cell`] that columns last fell in.
    cells: Vec<Cell>,
    /// The octave after which the next group is first tested.
    first: usize,
}

/// What a chunk learnt of one column.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settled {
    /// The surface height where `exact`, else the highest it may be: the surface is
    /// at most this, and on the same side as this of every threshold of the
    /// [`Needs`] it was settled for (outside its exact range).
    pub(super) surface: i32,
    pub(super) exact: bool,
    /// The normalised height where known, or one with the same surface and band
    /// (within the falloff's enclosure).
    pub(super) h: Option<f64>,
    /// The sum of every octave, where computed.
    pub(super) sum: Option<f64>,
}

/// What the islands make of a column the nearest one reaches, for settling it: `g`
/// and the lift as in [`Shape`](crate::islands::height::Shape), and the falloff enclosed
/// ([`IslandGen::fall_bounds`]).
#[derive(Clone, Copy, Debug)]
struct Rough {
    g: f64,
    lift: f64,
    fall: [f64; 2],
}

/// Whether any of `flags` is set, found without a branch for each flag (as
/// `Iterator::any` takes, whose way lanes of columns make hard to guess).
#[inline(always)]
fn any<const N: usize>(flags: [bool; N]) -> bool {
    flags.iter().fold(false, |a, &f| a | f)
}

impl IslandGen {
    /// `needs` with its thresholds in normalised heights.
    pub(super) fn plan(&self, needs: Needs) -> Plan {
        let at = |y: i32| {
            if y == i32::MIN {
                f64::NEG_INFINITY
            } else {
                self.height_at(y)
            }
        };
        let exact = needs.exact.map(at);
        // Room for the guess's error, which is far smaller.
        const WIDE: f64 = 1e-6;
        Plan {
            needs,
            outside: [exact[0].max(0.0), exact[1].min(1.0)],
            cut: at(needs.cut),
            inside: [(exact[0] + WIDE).max(0.0), (exact[1] - WIDE).min(1.0)],
        }
    }

    /// A column of the open sea: height 0, without noise.
    fn open_sea(&self) -> Settled {
        Settled {
            surface: self.surface_y(0.0),
            exact: true,
            h: Some(0.0),
            sum: None,
        }
    }

    /// The rough shape of a column `g` of the way to the edge of an island of boost
    /// `boost` (`g < 1`).
    #[inline]
    fn rough(&self, g: f64, boost: f64) -> Rough {
        let fall = self.fall_bounds(g).unwrap_or_else(|| {
            let fall = self.falloff(g);
            [fall, fall]
        });
        Rough {
            g,
            lift: boost * (1.0 - g) * (1.0 - g),
            fall,
        }
    }

    /// About the height of a column of shape `rough` before clamping, less
    /// `self.slope` times its octave sum.
    #[inline]
    fn base(rough: &Rough) -> f64 {
        0.5 - rough.fall[0] + rough.lift
    }

    /// The normalised heights at the ends of octave sums `sums` (low, high) of a
    /// column roughly `rough`: the column's height lies between them.
    #[inline(always)]
    fn heights(&self, rough: &Rough, sums: [f64; 2]) -> [f64; 2] {
        [
            self.height_with(sums[0], rough.fall[1], rough.lift),
            self.height_with(sums[1], rough.fall[0], rough.lift),
        ]
    }

    /// What `plan` needs of a column of shape `rough` whose octave sum lies within
    /// `r` of `sum`, if that settles it.
    #[inline]
    fn try_settle(&self, rough: &Rough, sum: f64, r: f64, plan: &Plan) -> Option<Settled> {
        let [h0, h1] = self.heights(rough, [sum - r, sum + r]);
        if h0 == h1 {
            // Clamped: the height is known.
            return Some(Settled {
                surface: self.surface_y(h1),
                exact: true,
                h: Some(h1),
                sum: None,
            });
        }
        let (s0, s1) = (self.surface_y(h0), self.surface_y(h1));
        let (lo, hi) = (s0.min(s1), s0.max(s1));
        (plan.needs.settled(lo, hi) || (lo == hi && self.nature.is_some())).then_some(Settled {
            surface: hi,
            exact: lo == hi,
            h: None,
            sum: None,
        })
    }

    /// A column of shape `rough` and octave sum `sum` (every octave): the height is
    /// known but for the falloff's enclosure, which nearly always decides what
    /// matters; where not, the falloff itself.
    #[inline(always)]
    fn settle_sum(&self, rough: &Rough, sum: f64) -> Settled {
        let [h0, h1] = self.heights(rough, [sum, sum]);
        let (s0, s1) = (self.surface_y(h0), self.surface_y(h1));
        let alike =
            s0 == s1 && (self.nature.is_some() || self.column_at(h0).top == self.column_at(h1).top);
        let (h, surface) = if alike {
            (h0, s0)
        } else {
            let h = self.height_with(sum, self.falloff(rough.g), rough.lift);
            (h, self.surface_y(h))
        };
        Settled {
            surface,
            exact: true,
            h: Some(h),
            sum: Some(sum),
        }
    }

    /// Whether the octaves from `from` on may pin a surface (see
    /// [`IslandGen::pin_from`]) that alone matters (with nature), and the surface
    /// heights the guess `guess` give or take `spread` spans are one.
    #[inline]
    fn pinned(&self, from: usize, guess: f64, spread: f64) -> bool {
        self.nature.is_some()
            && from >= self.pin_from
            && self.surface_y(guess - spread) == self.surface_y(guess + spread)
    }

    /// What `plan` needs of column `(x, z)` given the islands near it: its octaves
    /// summed in order until those left cannot change that (the sum stays within
    /// [`IslandGen::rests`] of the partial sum, and the surface between the heights
    /// at the two ends, the height being monotonic in the sum and the falloff), else
    /// all of them.
    pub(super) fn settle(&self, islands: &[Near], x: i32, z: i32, plan: &Plan) -> Settled {
        let (fx, fz) = (x as f64, z as f64);
        let (g, boost) = self.g(islands, fx, fz);
        if g >= 1.0 {
            return self.open_sea();
        }
        let rough = self.rough(g, boost);
        let n = self.noise.octaves();
        let mut sum = 0.0;
        for i in 0..n - 1 {
            sum += self.noise.term(i, fx, fz);
            let (r, guess) = (self.rests[i + 1], Self::base(&rough) + self.slope * sum);
            let (settled, _) = plan.looks(guess, self.slope * r);
            if (settled || self.pinned(i + 1, guess, self.slope * r))
                && let Some(settled) = self.try_settle(&rough, sum, r, plan)
            {
                return settled;
            }
        }
        sum += self.noise.term(n - 1, fx, fz);
        self.settle_sum(&rough, sum)
    }

    /// [`IslandGen::settle`] for many columns, their octaves evaluated [`LANES`]
    /// columns at a time.
    pub(super) fn settle_all(
        &self,
        islands: &[Near],
        columns: &[(i32, i32)],
        plan: &Plan,
    ) -> Vec<Settled> {
        let mut out = vec![self.open_sea(); columns.len()];
        // Every column's shape first: its divisions and roots then overlap.
        let mut shapes = Vec::with_capacity(columns.len());
        for group in columns.chunks(LANES) {
            let at = |l: usize| group[l.min(group.len() - 1)];
            let (g, boost) = self.g_lanes::<LANES>(
                islands,
                std::array::from_fn(|l| at(l).0 as f64),
                std::array::from_fn(|l| at(l).1 as f64),
            );
            for l in 0..group.len() {
                shapes.push((g[l] < 1.0).then(|| self.rough(g[l], boost[l])));
            }
        }
        // The coordinates in memory written well before the noise reads them (read
        // right after being written a few at a time, they would wait for the writes).
        let x: Vec<f64> = columns.iter().map(|c| c.0 as f64).collect();
        let z: Vec<f64> = columns.iter().map(|c| c.1 as f64).collect();
        let far = x.iter().chain(&z).fold(0.0f64, |m, c| m.max(c.abs()));
        let mut pass = Pass {
            plan,
            near: self.noise.near(far),
            cells: vec![Cell::NONE; self.noise.octaves()],
            first: 1,
        };
        let mut groups = x
            .chunks_exact(LANES)
            .zip(z.chunks_exact(LANES))
            .zip(shapes.chunks_exact(LANES));
        let mut settled = out.chunks_exact_mut(LANES);
        for (((x, z), shapes), out) in (&mut groups).zip(&mut settled) {
            let xz = [x, z].map(|v| v.try_into().expect("a group"));
            let shapes: [Option<Rough>; LANES] = std::array::from_fn(|l| shapes[l]);
            let out: &mut [Settled; LANES] = out.try_into().expect("a group");
            self.settle_lanes(&mut pass, xz, shapes, out);
        }
        let rest = columns.len() / LANES * LANES;
        for (&(x, z), out) in columns[rest..].iter().zip(settled.into_remainder()) {
            *out = self.settle(islands, x, z, plan);
        }
        out
    }

    /// [`IslandGen::settle`] for [`LANES`] columns `[x, z]` of shapes `shapes`
    /// (`None`: open sea) into `out`, their octaves evaluated together, tested from
    /// octave `pass.first` on (as soon as any is, where the octaves left may pin a
    /// surface). Neighbouring columns settle alike: the next group is first tested
    /// one octave before this group's columns first settled, and one octave later if
    /// none did (so that in a chunk whose surface blocks need every octave of every
    /// column, columns are soon not tested at all). Once no column is tested, the
    /// octaves left (up to those that may pin a surface) are summed in one go.
    #[inline]
    fn settle_lanes(
        &self,
        pass: &mut Pass<'_>,
        [x, z]: [&[f64; LANES]; 2],
        shapes: [Option<Rough>; LANES],
        out: &mut [Settled; LANES],
    ) {
        *out = [self.open_sea(); LANES];
        // The columns still summed (open sea needs no noise), and those tested.
        let mut active = shapes.map(|s| s.is_some());
        let mut testing = active;
        let rough = shapes.map(|s| {
            s.unwrap_or(Rough {
                g: 1.0,
                lift: 0.0,
                fall: [1.0; 2],
            })
        });
        let base = rough.map(|r| Self::base(&r));
        let first = pass.first;
        let mut settled_at = None;
        let mut sums = [0.0; LANES];
        let n = self.noise.octaves();
        // Octaves that may pin a surface (where only the surface matters) are tested.
        let pin_from = if self.nature.is_some() {
            self.pin_from
        } else {
            n
        };
        let mut i = 0;
        while i < n && any(active) {
            // Without columns to test, the octaves up to those that may pin go at once
            // (and those before the first tested).
            let end = if any(testing) {
                first.max(i + 1).min(n)
            } else {
                pin_from.clamp(i + 1, n)
            };
            self.noise
                .add_terms(i..end, x, z, pass.near, &mut pass.cells, &mut sums);
            i = end;
            let pins = i >= pin_from;
            if i == n || !(pins || any(testing)) {
                continue;
            }
            let (r, spread) = (self.rests[i], self.slope * self.rests[i]);
            for l in 0..LANES {
                if !(testing[l] || pins && active[l]) {
                    continue;
                }
                let guess = base[l] + self.slope * sums[l];
                let (settled, inside) = pass.plan.looks(guess, spread);
                testing[l] &= !inside;
                if !(settled || self.pinned(i, guess, spread)) {
                    continue;
                }
                if let Some(settled) = self.try_settle(&rough[l], sums[l], r, pass.plan) {
                    out[l] = settled;
                    (active[l], testing[l]) = (false, false);
                    settled_at = settled_at.or(Some(i));
                }
            }
        }
        for l in 0..LANES {
            if active[l] {
                out[l] = self.settle_sum(&rough[l], sums[l]);
            }
        }
        pass.first = settled_at.map_or(first + 1, |at| at - 1).max(1);
    }

    /// The sums of every octave at columns `at`, [`LANES`] columns at a time.
    pub(super) fn sums(&self, at: &[(i32, i32)]) -> Vec<f64> {
        let octaves = self.noise.octaves();
        let mut cells = vec![Cell::NONE; octaves];
        let far = at.iter().fold(0.0f64, |m, &(x, z)| {
            m.max((x as f64).abs()).max((z as f64).abs())
        });
        let near = self.noise.near(far);
        let mut out = Vec::with_capacity(at.len());
        for group in at.chunks(LANES) {
            // A short group repeats its last column.
            let pick = |l: usize| group[l.min(group.len() - 1)];
            let mut sums = [0.0; LANES];
            self.noise.add_terms(
                0..octaves,
                &std::array::from_fn(|l| pick(l).0 as f64),
                &std::array::from_fn(|l| pick(l).1 as f64),
                near,
                &mut cells,
                &mut sums,
            );
            out.extend_from_slice(&sums[..group.len()]);
        }
        out
    }
}
