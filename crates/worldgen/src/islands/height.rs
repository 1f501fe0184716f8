//! A column's height: the island falloff (`g^a / (g^a + (b - b*g)^a)`, and products
//! enclosing it without `powf` where the steepness is a whole number), the shape it
//! gives a column ([`Shape`]), and the normalised height `0..=1` from the shape and
//! the octave sum, in blocks at last ([`IslandGen::surface_y`]).

use crate::islands::IslandGen;
use crate::islands::layout::Near;

/// What the islands make of a column the nearest one reaches: its falloff and how
/// much the island's mountains lift it (`boost * (1 - g)^2`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    fall: f64,
    lift: f64,
}

/// `v.floor() as i32`, without the library call `floor` is on baseline x86-64.
#[inline(always)]
fn floor_i32(v: f64) -> i32 {
    if (-2_147_483_647.0..=2_147_483_647.0).contains(&v) {
        // Truncation rounds up below zero.
        let t = v as i32;
        t - i32::from(f64::from(t) > v)
    } else {
        // Beyond the range (saturating) or not a number (0): rare.
        v.floor() as i32
    }
}

impl IslandGen {
    /// The S-curve falloff `g^a / (g^a + (b - b*g)^a)`.
    pub(crate) fn falloff(&self, g: f64) -> f64 {
        let (a, b) = (self.cfg.steepness, self.cfg.attenuation);
        let ga = g.powf(a);
        ga / (ga + (b - b * g).powf(a))
    }

    /// [`IslandGen::falloff`] enclosed without `powf` where the steepness is a whole
    /// number (else exactly): `[lo, hi]`, `None` where that cannot be done well.
    ///
    /// `powf` is the costliest step of a column after the noise, and what a chunk
    /// needs of a column rarely depends on the falloff's last bits: the enclosure
    /// decides it but where the surface lies within about `1e-10` blocks of a whole
    /// number (then the falloff itself is computed). The powers here are products,
    /// within a few rounding errors of the true powers, as `powf`'s results are (the
    /// common libraries' `pow` is accurate to about 1 ULP, glibc's to 0.52); the
    /// quotient's relative error is at most the sum of theirs and its own rounding,
    /// so `1e-12` either way (thousands of ULPs) holds what `falloff(g)` computes.
    /// Powers near the subnormal range lose relative precision and are not enclosed.
    #[inline(always)]
    pub(super) fn fall_bounds(&self, g: f64) -> Option<[f64; 2]> {
        let Some(k) = self.whole_steepness else {
            let fall = self.falloff(g);
            return Some([fall, fall]);
        };
        let b = self.cfg.attenuation;
        let (x, y) = (g, b - b * g);
        let (mut gx, mut gy) = (x, y);
        for _ in 1..k {
            gx *= x;
            gy *= y;
        }
        const REL: f64 = 1e-12;
        let fall = gx / (gx + gy);
        (gx > 1e-290 && gy > 1e-290 && fall.is_finite())
            .then_some([fall * (1.0 - REL), fall * (1.0 + REL)])
    }

    /// The shape of a column given the islands near it; `None` where no island
    /// reaches it (`g = 1`: `fall(1) = 1` and `h01 <= 1`, so the height is 0 whatever
    /// the noise).
    #[inline]
    pub(super) fn shape(&self, islands: &[Near], x: f64, z: f64) -> Option<Shape> {
        let (g, boost) = self.g(islands, x, z);
        (g < 1.0).then(|| Shape {
            fall: self.falloff(g),
            lift: boost * (1.0 - g) * (1.0 - g),
        })
    }

    /// The normalised height `0..=1` of a column of shape `shape` and octave sum `sum`.
    #[inline]
    pub(super) fn height_of(&self, shape: Shape, sum: f64) -> f64 {
        self.height_with(sum, shape.fall, shape.lift)
    }

    /// The normalised height `0..=1` of a column of octave sum `sum`, falloff `fall`
    /// and lift `lift`: non-decreasing in `sum`, non-increasing in `fall`.
    #[inline(always)]
    pub(super) fn height_with(&self, sum: f64, fall: f64, lift: f64) -> f64 {
        let h01 = (self.noise.finish(sum) + 1.0) * 0.5;
        (h01 - fall + lift).clamp(0.0, 1.0)
    }

    /// Normalised height `0..=1` of a column.
    pub(super) fn height01(&self, islands: &[Near], x: f64, z: f64) -> f64 {
        self.shape(islands, x, z)
            .map_or(0.0, |shape| self.height_of(shape, self.noise.sum(x, z)))
    }

    /// [`IslandGen::height01`] with the fBm evaluated through the `noise` crate, as
    /// the reference chunk does.
    pub(super) fn height01_reference(&self, islands: &[Near], x: f64, z: f64) -> f64 {
        self.shape(islands, x, z).map_or(0.0, |shape| {
            (((self.noise.fbm().get2(x, z) + 1.0) * 0.5) - shape.fall + shape.lift).clamp(0.0, 1.0)
        })
    }

    /// A height no column's terrain rises above: the surface at the highest
    /// normalised height.
    pub(crate) fn highest_possible(&self) -> i32 {
        self.surface_y(1.0)
    }

    /// Surface height in blocks of a normalised height: sea level at the top of the
    /// shallow-water band.
    #[inline]
    pub(super) fn surface_y(&self, h: f64) -> i32 {
        let s = self.surface.sea_level as f64
            + (h - self.cfg.bands.shallow_water) * self.cfg.height_scale;
        floor_i32(s)
    }

    /// The normalised height (before clamping) at which the surface reaches `y`.
    pub(super) fn height_at(&self, y: i32) -> f64 {
        self.cfg.bands.shallow_water
            + (y as f64 - self.surface.sea_level as f64) / self.cfg.height_scale
    }
}
