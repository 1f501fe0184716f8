//! The island heightmap's fBm an octave at a time, so that a column can stop as soon
//! as the octaves left cannot change what a chunk needs of it (see
//! [`IslandGen::settle`](crate::islands::IslandGen::settle)).
//!
//! OpenSimplex octaves (every built-in island preset) go through `open_simplex::lanes`, bit for
//! bit as the `noise` crate computes them, [`LANES`] columns at a time; other kinds go
//! through [`Fbm::octave2`].

use std::ops::Range;

use crate::noise::fbm::{self, Fbm};
use crate::noise::open_simplex::lanes::{Cell, LANES, SIMPLEX_BOUND, SimplexOctave};

/// The island heightmap's fBm, evaluated an octave at a time.
#[derive(Clone, Debug)]
pub(super) struct HeightNoise {
    fbm: Fbm,
    /// How far from the origin columns are near enough for every octave's lanes
    /// ([`SimplexOctave::reach`]; not a number without lanes).
    reach: f64,
}

impl HeightNoise {
    /// The fBm `fbm` an octave at a time.
    pub(super) fn new(fbm: Fbm) -> Self {
        let reach = fbm.simplex().map_or(f64::NAN, |octaves| {
            octaves
                .iter()
                .map(SimplexOctave::reach)
                .fold(f64::INFINITY, f64::min)
        });
        Self { fbm, reach }
    }

    /// Number of octaves.
    #[inline]
    pub(super) fn octaves(&self) -> usize {
        self.fbm.octaves()
    }

    /// The contribution of octave `i` at column `(x, z)` ([`Fbm::octave2`]).
    #[inline(always)]
    pub(super) fn term(&self, i: usize, x: f64, z: f64) -> f64 {
        self.fbm.octave2(i, x, z)
    }

    /// Whether columns no farther than `far` from the origin on either axis are
    /// near enough for lanes without testing each octave's coordinates (see
    /// [`HeightNoise::add_terms`]).
    pub(super) fn near(&self, far: f64) -> bool {
        far <= self.reach
    }

    /// Adds octaves `octaves` (in order) at [`LANES`] columns to `sums`, as
    /// [`HeightNoise::term`] does them, `near` where the columns are
    /// ([`HeightNoise::near`]; where not, each octave's coordinates are tested);
    /// `cells` each octave's [`Cell`] that columns last fell in, kept up to date.
    #[inline]
    pub(super) fn add_terms(
        &self,
        octaves: Range<usize>,
        x: &[f64; LANES],
        z: &[f64; LANES],
        near: bool,
        cells: &mut [Cell],
        sums: &mut [f64; LANES],
    ) {
        for i in octaves {
            let t = match self.fbm.simplex() {
                Some(simplex) => {
                    fbm::count(LANES);
                    simplex[i].terms(x, z, near, &mut cells[i])
                }
                None => std::array::from_fn(|l| self.fbm.octave2(i, x[l], z[l])),
            };
            for (sum, t) in sums.iter_mut().zip(t) {
                *sum += t;
            }
        }
    }

    /// The sum of every octave's contribution at column `(x, z)`, in order.
    #[inline]
    pub(super) fn sum(&self, x: f64, z: f64) -> f64 {
        let mut sum = 0.0;
        for i in 0..self.octaves() {
            sum += self.term(i, x, z);
        }
        sum
    }

    /// The field of a full octave sum ([`Fbm::finish`]).
    #[inline]
    pub(super) fn finish(&self, sum: f64) -> f64 {
        self.fbm.finish(sum)
    }

    /// The fBm itself.
    pub(super) fn fbm(&self) -> &Fbm {
        &self.fbm
    }

    /// The largest magnitude of an octave's noise before its amplitude: at most
    /// [`SIMPLEX_BOUND`] for OpenSimplex octaves, else 1 (the fBm's clamp).
    pub(super) fn bound(&self) -> f64 {
        if self.fbm.simplex().is_some() {
            SIMPLEX_BOUND
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::mix64;
    use crate::noise::fbm::NoiseKind;
    use crate::noise::open_simplex::SQUISH;

    /// A point from hash bits: near the origin, far out, whole or fractional, on
    /// either side of zero.
    fn point(bits: u64) -> (f64, f64) {
        let unit = |b: u64| (b & 0xffff_ffff) as f64 / 4_294_967_296.0 - 0.5;
        let scale = [1.0, 64.0, 4096.0, 3.0e7][(bits >> 62) as usize];
        let (x, z) = (unit(bits) * scale, unit(bits >> 32) * scale);
        if bits & 1 == 0 {
            (x.round(), z.round())
        } else {
            (x, z)
        }
    }

    #[test]
    fn octave_sums_are_bit_identical_to_the_fbm() {
        // Island presets' settings, and extremes (high frequency and lacunarity fold
        // the coordinates).
        let settings = [
            (180.0, 6, 0.5, 2.0),
            (120.0, 5, 0.5, 2.0),
            (1.0, 16, 1.0, 8.0),
            (7.3, 9, 0.8, 3.7),
        ];
        for (n, &(scale, octaves, persistence, lacunarity)) in settings.iter().enumerate() {
            for seed in [1u64, 0x7e44_a7f0, u64::MAX] {
                let fbm = Fbm::new(
                    NoiseKind::OpenSimplex,
                    seed,
                    1,
                    1.0 / scale,
                    octaves,
                    persistence,
                    lacunarity,
                );
                let noise = HeightNoise::new(fbm.clone());
                assert!(noise.fbm.simplex().is_some());
                for i in 0..20_000u64 {
                    let (x, z) = point(mix64(i ^ (n as u64) << 40 ^ seed));
                    let fast = noise.finish(noise.sum(x, z));
                    assert_eq!(fast.to_bits(), fbm.get2(x, z).to_bits(), "({x}, {z})");
                }
                // Lanes: neighbouring columns (mostly in the last cell), and points
                // far apart.
                let mut cells = vec![Cell::NONE; noise.octaves()];
                for i in 0..5_000u64 {
                    let bits = mix64(i ^ (n as u64) << 40 ^ !seed);
                    let (x0, z0) = point(bits);
                    let (x, z): ([f64; LANES], [f64; LANES]) = if bits & 2 == 0 {
                        let (x0, z0) = (i as f64 * 0.5 + x0 * 1e-6, z0 * 1e-6);
                        (std::array::from_fn(|l| x0 + l as f64), [z0; LANES])
                    } else {
                        let p: [(f64, f64); LANES] =
                            std::array::from_fn(|l| point(mix64(bits ^ l as u64)));
                        (p.map(|p| p.0), p.map(|p| p.1))
                    };
                    let mut sums = [0.0; LANES];
                    let far = x.iter().chain(&z).fold(0.0f64, |m, c| m.max(c.abs()));
                    // Octaves all at once, then one at a time: the same sums.
                    let n = noise.octaves();
                    noise.add_terms(0..n / 2, &x, &z, noise.near(far), &mut cells, &mut sums);
                    for o in n / 2..n {
                        noise.add_terms(o..o + 1, &x, &z, noise.near(far), &mut cells, &mut sums);
                    }
                    for l in 0..LANES {
                        let want = fbm.get2(x[l], z[l]).to_bits();
                        assert_eq!(
                            noise.finish(sums[l]).to_bits(),
                            want,
                            "({}, {})",
                            x[l],
                            z[l]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn open_simplex_stays_within_its_bound() {
        // The upper bound `sum t^4 |d| / 14` over a grid of the cell on the stretched
        // grid (both triangles), plus its slope times the farthest any point lies
        // from the grid: `f(r) = (2 - r^2)^4 r` has `|f'| <= 16` (at r = 0), three
        // vertices, and a stretched cell of side `h` is at most `h sqrt(2) (1 + 2
        // SQUISH) / 2` from its nearest corner in noise coordinates.
        let n = 1000;
        let f = |dx: f64, dy: f64| {
            let r2 = dx * dx + dy * dy;
            (2.0 - r2).max(0.0).powi(4) * r2.sqrt()
        };
        let mut peak = 0.0f64;
        for a in 0..=n {
            for b in 0..=n {
                let (u, v) = (a as f64 / n as f64, b as f64 / n as f64);
                let far = if u + v > 1.0 { 1.0 } else { 0.0 };
                let sum: f64 = [(1.0, 0.0), (0.0, 1.0), (far, far)]
                    .iter()
                    .map(|&(i, j)| {
                        let k = (u + v) - (i + j);
                        f(u - i + k * SQUISH, v - j + k * SQUISH)
                    })
                    .sum();
                peak = peak.max(sum / 14.0);
            }
        }
        let slope = 3.0 * 16.0 / 14.0;
        let reach = std::f64::consts::SQRT_2 * (1.0 + 2.0 * SQUISH) / 2.0 / n as f64;
        assert!(peak + slope * reach + 1e-9 < SIMPLEX_BOUND, "{peak}");
        // And the noise itself stays within it.
        let noise = HeightNoise::new(Fbm::new(NoiseKind::OpenSimplex, 3, 1, 1.0, 1, 0.5, 2.0));
        for i in 0..100_000u64 {
            let (x, z) = point(mix64(i));
            assert!(noise.term(0, x, z).abs() <= SIMPLEX_BOUND, "({x}, {z})");
        }
    }

    #[test]
    fn other_kinds_go_through_the_fbm() {
        for kind in [NoiseKind::Perlin, NoiseKind::SuperSimplex] {
            let fbm = Fbm::new(kind, 5, 1, 0.01, 4, 0.5, 2.0);
            let noise = HeightNoise::new(fbm.clone());
            assert!(noise.fbm.simplex().is_none());
            for i in 0..100 {
                let (x, z) = point(mix64(i));
                let fast = noise.finish(noise.sum(x, z));
                assert_eq!(fast.to_bits(), fbm.get2(x, z).to_bits());
            }
        }
    }
}
