//! Fractal Brownian motion over the `noise` crate's base noises, with per-octave
//! seeds and offsets drawn from the world seed.
//!
//! Every octave evaluated is counted per thread (`octaves_evaluated`): the count is
//! the generators' measure of work, which tests hold maps and coarse chunks to
//! (performance is measured in benchmarks, never timed in tests).

use std::cell::Cell;

use noise::{NoiseFn, OpenSimplex, Perlin, Seedable, SuperSimplex};
use serde::{Deserialize, Serialize};

use super::open_simplex::lanes::{self, LANES, SimplexOctave};
use super::perlin::perlin3;
use super::table::{Table, fold};

use crate::mix::SplitMix64;

/// The base noise an fBm sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoiseKind {
    /// Classic gradient noise.
    Perlin,
    /// OpenSimplex: fewer directional artefacts than Perlin.
    OpenSimplex,
    /// SuperSimplex: smooth OpenSimplex variant.
    SuperSimplex,
}

impl NoiseKind {
    /// Every noise kind.
    pub const ALL: [NoiseKind; 3] = [
        NoiseKind::Perlin,
        NoiseKind::OpenSimplex,
        NoiseKind::SuperSimplex,
    ];
}

/// Per-octave offsets are drawn from this range, so octaves never share a lattice.
pub(crate) const OFFSET_RANGE: f64 = 100_000.0;

/// One seeded base noise: the `noise` crate's, and for 3D Perlin (the terrain's) the
/// same computed here from its table, faster and bit for bit. (2D OpenSimplex, the
/// fields', goes through [`Fbm`]'s [`SimplexOctave`]s.)
#[derive(Clone, Debug)]
enum Base {
    /// The crate's (for 2D) and its table (for 3D), boxed: as big as the others.
    Perlin(Perlin, Box<Table>),
    OpenSimplex(OpenSimplex),
    SuperSimplex(SuperSimplex),
}

impl Base {
    fn new(kind: NoiseKind, seed: u32) -> Self {
        match kind {
            NoiseKind::Perlin => Base::Perlin(Perlin::new(seed), Box::new(Table::new(seed))),
            NoiseKind::OpenSimplex => Base::OpenSimplex(OpenSimplex::new(seed)),
            NoiseKind::SuperSimplex => Base::SuperSimplex(SuperSimplex::new(seed)),
        }
    }

    #[inline]
    fn get3(&self, p: [f64; 3]) -> f64 {
        let p = p.map(fold);
        match self {
            Base::Perlin(_, t) => perlin3(t, p),
            Base::OpenSimplex(n) => n.get(p),
            Base::SuperSimplex(n) => n.get(p),
        }
    }

    #[inline]
    fn get2(&self, p: [f64; 2]) -> f64 {
        let p = p.map(fold);
        match self {
            Base::Perlin(n, _) => n.get(p),
            Base::OpenSimplex(n) => n.get(p),
            Base::SuperSimplex(n) => n.get(p),
        }
    }
}

#[derive(Clone, Debug)]
struct Octave {
    base: Base,
    frequency: f64,
    amplitude: f64,
    offset: [f64; 3],
}

/// A seeded fBm: `sum_i noise_i(p * frequency * lacunarity^i + offset_i) * persistence^i`,
/// divided by the analytic amplitude sum `sum_i persistence^i`. Each octave's noise is
/// clamped to `[-1, 1]` first, so the result is in `[-1, 1]` and a partial sum bounds
/// the final value (see [`Fbm::rest`]).
#[derive(Clone, Debug)]
pub(crate) struct Fbm {
    octaves: Vec<Octave>,
    /// The octaves in 2D, when they are OpenSimplex: what [`Fbm::get2_lanes`] sums.
    simplex: Option<Vec<SimplexOctave>>,
    /// [`Fbm::rest`] for every first octave, `0..=octaves`.
    rests: Vec<f64>,
    inv_amplitude_sum: f64,
}

impl Fbm {
    /// A field of `scale` blocks per cycle, halving in amplitude and doubling in
    /// frequency per octave: the internal fields' (climate, shape, caves) fBm.
    pub(crate) fn of_scale(
        kind: NoiseKind,
        seed: u64,
        salt: u64,
        scale: f64,
        octaves: u32,
    ) -> Self {
        Self::new(kind, seed, salt, 1.0 / scale, octaves, 0.5, 2.0)
    }

    /// An fBm with `octaves` octaves; `salt` separates independent fields of one seed.
    pub(crate) fn new(
        kind: NoiseKind,
        seed: u64,
        salt: u64,
        frequency: f64,
        octaves: u32,
        persistence: f64,
        lacunarity: f64,
    ) -> Self {
        let mut rng = SplitMix64::new(seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut amp_sum = 0.0;
        let octaves = (0..octaves as i32)
            .map(|i| {
                let amplitude = persistence.powi(i);
                amp_sum += amplitude;
                Octave {
                    base: Base::new(kind, rng.next_u64() as u32),
                    frequency: frequency * lacunarity.powi(i),
                    amplitude,
                    offset: [
                        rng.range_f64(-OFFSET_RANGE, OFFSET_RANGE),
                        rng.range_f64(-OFFSET_RANGE, OFFSET_RANGE),
                        rng.range_f64(-OFFSET_RANGE, OFFSET_RANGE),
                    ],
                }
            })
            .collect::<Vec<_>>();
        let rests = (0..=octaves.len())
            .map(|from| octaves[from..].iter().map(|o| o.amplitude).sum::<f64>())
            .collect();
        let simplex = octaves
            .iter()
            .map(|o| match &o.base {
                Base::OpenSimplex(n) => Some(SimplexOctave::new(
                    Table::new(n.seed()),
                    o.frequency,
                    o.amplitude,
                    [o.offset[0], o.offset[2]],
                )),
                _ => None,
            })
            .collect();
        Self {
            octaves,
            simplex,
            rests,
            inv_amplitude_sum: 1.0 / amp_sum,
        }
    }

    /// Number of octaves.
    pub(crate) fn octaves(&self) -> usize {
        self.octaves.len()
    }

    /// The weighted, clamped contribution of octave `i` at a 3D point. Summing these
    /// for every octave in order and passing the sum to [`Fbm::finish`] is [`Fbm::get3`].
    #[inline]
    pub(crate) fn octave3(&self, i: usize, x: f64, y: f64, z: f64) -> f64 {
        count(1);
        let o = &self.octaves[i];
        let p = [
            x * o.frequency + o.offset[0],
            y * o.frequency + o.offset[1],
            z * o.frequency + o.offset[2],
        ];
        unit(o.base.get3(p)) * o.amplitude
    }

    /// The largest absolute sum octaves `from..` can still add.
    #[inline]
    pub(crate) fn rest(&self, from: usize) -> f64 {
        self.rests[from.min(self.octaves.len())]
    }

    /// The field value of a full octave sum, in `[-1, 1]`.
    #[inline]
    pub(crate) fn finish(&self, sum: f64) -> f64 {
        unit(sum * self.inv_amplitude_sum)
    }

    /// The 3D field at a world position, in `[-1, 1]`.
    #[inline]
    pub(crate) fn get3(&self, x: f64, y: f64, z: f64) -> f64 {
        let mut sum = 0.0;
        for i in 0..self.octaves.len() {
            sum += self.octave3(i, x, y, z);
        }
        self.finish(sum)
    }

    /// The weighted, clamped contribution of octave `i` at a 2D column. Summing these
    /// for every octave in order and passing the sum to [`Fbm::finish`] is [`Fbm::get2`].
    #[inline]
    pub(crate) fn octave2(&self, i: usize, x: f64, z: f64) -> f64 {
        count(1);
        self.term2(i, x, z)
    }

    /// [`Fbm::octave2`] uncounted: OpenSimplex octaves through their
    /// [`SimplexOctave`], the others through the crate.
    #[inline]
    fn term2(&self, i: usize, x: f64, z: f64) -> f64 {
        if let Some(simplex) = &self.simplex {
            return simplex[i].term(x, z);
        }
        let o = &self.octaves[i];
        let p = [x * o.frequency + o.offset[0], z * o.frequency + o.offset[2]];
        unit(o.base.get2(p)) * o.amplitude
    }

    /// The octaves in 2D where the base noise is OpenSimplex (else `None`), for
    /// code that evaluates them itself as [`Fbm::octave2`] does.
    pub(crate) fn simplex(&self) -> Option<&[SimplexOctave]> {
        self.simplex.as_deref()
    }

    /// [`Fbm::get2`] at [`LANES`] columns, bit for bit; `cells` each octave's
    /// [`Cell`](lanes::Cell) that columns last fell in (OpenSimplex octaves go through lanes),
    /// kept up to date.
    pub(crate) fn get2_lanes(
        &self,
        x: &[f64; LANES],
        z: &[f64; LANES],
        cells: &mut [lanes::Cell],
    ) -> [f64; LANES] {
        let Some(simplex) = &self.simplex else {
            return std::array::from_fn(|l| self.get2(x[l], z[l]));
        };
        count(LANES * simplex.len());
        let mut sums = [0.0; LANES];
        for (k, octave) in simplex.iter().enumerate() {
            let terms = octave.terms(x, z, false, &mut cells[k]);
            for (sum, t) in sums.iter_mut().zip(terms) {
                *sum += t;
            }
        }
        sums.map(|sum| self.finish(sum))
    }

    /// The 2D field at a world column, in `[-1, 1]`.
    #[inline]
    pub(crate) fn get2(&self, x: f64, z: f64) -> f64 {
        count(self.octaves.len());
        let mut sum = 0.0;
        for i in 0..self.octaves.len() {
            sum += self.term2(i, x, z);
        }
        self.finish(sum)
    }
}

thread_local! {
    /// Noise octaves evaluated on this thread so far (wrapping).
    static OCTAVES: Cell<u64> = const { Cell::new(0) };
}

/// Counts `n` octaves evaluated on this thread.
#[inline(always)]
pub(crate) fn count(n: usize) {
    OCTAVES.with(|c| c.set(c.get().wrapping_add(n as u64)));
}

/// Noise octaves (2D or 3D, of any field) evaluated on this thread so far, wrapping:
/// the difference of two readings is the work done in between.
#[cfg(any(test, feature = "test-support"))]
pub(crate) fn octaves_evaluated() -> u64 {
    OCTAVES.with(Cell::get)
}

/// Runs `f` and returns its result with the noise octaves it evaluated on this thread
/// (of every field, 2D or 3D): the measure of work that tests hold coarse chunks and
/// maps to, since performance is measured in benchmarks, never timed in tests. Work
/// that `f` hands to other threads (a map's rows, where its [`ForEach`](crate::ForEach)
/// runs them elsewhere) is counted there: run them with
/// [`sequential`](crate::sequential) to count it all.
#[cfg(feature = "test-support")]
pub fn noise_work<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = octaves_evaluated();
    let r = f();
    (r, octaves_evaluated().wrapping_sub(before))
}

/// Clamps a value to `[-1, 1]`.
#[inline(always)]
fn unit(v: f64) -> f64 {
    v.clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_in_range_and_is_deterministic() {
        for kind in NoiseKind::ALL {
            let a = Fbm::new(kind, 7, 0, 0.05, 6, 0.6, 2.0);
            let b = Fbm::new(kind, 7, 0, 0.05, 6, 0.6, 2.0);
            for i in 0..500 {
                let p = (i as f64 * 3.7, i as f64 * -1.3, i as f64 * 0.9);
                let v = a.get3(p.0, p.1, p.2);
                assert!((-1.0..=1.0).contains(&v));
                assert_eq!(v.to_bits(), b.get3(p.0, p.1, p.2).to_bits());
                assert!((-1.0..=1.0).contains(&a.get2(p.0, p.2)));
            }
        }
    }

    #[test]
    fn every_octave_evaluated_is_counted() {
        let f = Fbm::new(NoiseKind::Perlin, 1, 0, 0.01, 5, 0.5, 2.0);
        let before = octaves_evaluated();
        f.get3(1.0, 2.0, 3.0);
        f.get2(1.0, 2.0);
        f.octave3(2, 1.0, 2.0, 3.0);
        assert_eq!(octaves_evaluated() - before, 11);
    }

    #[test]
    fn octave_offsets_are_in_range_and_differ_by_seed() {
        let a = Fbm::new(NoiseKind::Perlin, 1, 0, 0.01, 4, 0.5, 2.0);
        let b = Fbm::new(NoiseKind::Perlin, 2, 0, 0.01, 4, 0.5, 2.0);
        for o in &a.octaves {
            assert!(o.offset.iter().all(|v| v.abs() <= OFFSET_RANGE));
        }
        assert_ne!(a.octaves[0].offset, a.octaves[1].offset);
        assert_ne!(a.octaves[0].offset, b.octaves[0].offset);
    }
}
