//! Where the islands are: one around the origin, or one per cell of an archipelago's
//! grid, jittered in its cell and (version 2) varied in size, angle and shape, some
//! cells empty ([`IslandGen::islands_near`]); and how far along its way to the edge of
//! the nearest island a column lies (`g`, [`IslandGen::g`]), four columns at a time.

use crate::config::world::IslandLayout;
use crate::islands::IslandGen;
use crate::mix::mix64;

/// An island centre and how far its land can reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Island {
    /// Centre `[x, z]` in blocks.
    pub centre: [f64; 2],
    /// Distance at which the falloff reaches 1 (`island_size * radius`, varied per
    /// archipelago island) along the island's long axis.
    pub reach: f64,
    /// Direction of the long axis, radians (version 2; 0 before).
    pub angle: f64,
    /// Short axis over long axis, `(0, 1]` (version 2; 1 before).
    pub aspect: f64,
    /// How much the middle rises: big version-2 islands get mountains.
    pub boost: f64,
}

/// An island near the columns at hand, with the sine and cosine of its angle worked
/// out once for all of them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Near {
    island: Island,
    sin: f64,
    cos: f64,
}

impl IslandGen {
    /// The island of archipelago cell `(i, j)`, if it has one.
    fn cell_island(&self, i: i64, j: i64, cell: f64, jitter: f64) -> Option<Island> {
        let h = mix64(self.seed ^ mix64((i as u64) ^ mix64(j as u64 ^ 0x5157_4c41_4e44)));
        let unit = |bits: u64| (bits & 0xffff) as f64 / 65535.0;
        let (size, angle, aspect, boost) = if self.varied {
            // Some cells empty (never the one at the centre), many islets, a few big
            // islands with mountains, ellipses at any angle.
            if unit(h >> 48) < 0.25 && (i, j) != (0, 0) {
                return None;
            }
            let shape = mix64(h);
            let size = 0.5 + 1.3 * unit(h >> 32).powi(2);
            (
                size,
                unit(shape) * std::f64::consts::PI,
                0.55 + 0.45 * unit(shape >> 16),
                0.45 * (size - 1.0).max(0.0),
            )
        } else {
            (0.7 + 0.3 * unit(h >> 32), 0.0, 1.0, 0.0)
        };
        let reach = self.reach * size;
        // Version 2 lets a centre go anywhere in its cell (islands may merge), so the
        // grid does not show; version 1 kept every island inside its cell.
        let room = if self.varied {
            cell * 0.5
        } else {
            (cell * 0.5 - reach).max(0.0)
        } * jitter;
        let [ox, oz] = self.cfg.centre_offset;
        Some(Island {
            centre: [
                ox + i as f64 * cell + (unit(h) * 2.0 - 1.0) * room,
                oz + j as f64 * cell + (unit(h >> 16) * 2.0 - 1.0) * room,
            ],
            reach,
            angle,
            aspect,
            boost,
        })
    }

    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]`.
    pub(crate) fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        let candidates = match self.cfg.layout {
            IslandLayout::Single => vec![Island {
                centre: self.cfg.centre_offset,
                reach: self.reach,
                angle: 0.0,
                aspect: 1.0,
                boost: 0.0,
            }],
            IslandLayout::Archipelago { cell_size, jitter } => {
                let [ox, oz] = self.cfg.centre_offset;
                let ci = |v: f64, o: f64| ((v - o) / cell_size + 0.5).floor() as i64;
                let mut v = Vec::new();
                for j in ci(z0, oz) - 1..=ci(z1, oz) + 1 {
                    for i in ci(x0, ox) - 1..=ci(x1, ox) + 1 {
                        v.extend(self.cell_island(i, j, cell_size, jitter));
                    }
                }
                v
            }
        };
        candidates
            .into_iter()
            .filter(|isl| {
                let dx = isl.centre[0] - isl.centre[0].clamp(x0, x1);
                let dz = isl.centre[1] - isl.centre[1].clamp(z0, z1);
                (dx * dx + dz * dz).sqrt() < isl.reach
            })
            .collect()
    }

    /// [`IslandGen::islands_near`] the columns `x0..=x1` by `z0..=z1`, ready for
    /// [`IslandGen::g`].
    pub(super) fn near(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> Vec<Near> {
        self.islands_near(x0 as f64, z0 as f64, x1 as f64, z1 as f64)
            .into_iter()
            .map(|island| {
                let (sin, cos) = island.angle.sin_cos();
                Near { island, sin, cos }
            })
            .collect()
    }

    /// `g` at a column given the islands near it, and the nearest island's boost.
    #[inline]
    pub(super) fn g(&self, islands: &[Near], x: f64, z: f64) -> (f64, f64) {
        let ([g], [boost]) = self.g_lanes(islands, [x], [z]);
        (g, boost)
    }

    /// [`IslandGen::g`] at `N` columns.
    #[inline(always)]
    pub(super) fn g_lanes<const N: usize>(
        &self,
        islands: &[Near],
        x: [f64; N],
        z: [f64; N],
    ) -> ([f64; N], [f64; N]) {
        // The first nearest island, as a fold from (1, 0) taking strictly nearer ones.
        let (mut g, mut boost) = ([1.0; N], [0.0; N]);
        for &Near {
            island: isl,
            sin,
            cos,
        } in islands
        {
            for l in 0..N {
                let (dx, dz) = (x[l] - isl.centre[0], z[l] - isl.centre[1]);
                let d = if self.varied {
                    let (u, v) = (dx * cos + dz * sin, (dz * cos - dx * sin) / isl.aspect);
                    (u * u + v * v).sqrt()
                } else {
                    (dx * dx + dz * dz).sqrt()
                };
                let here = d / isl.reach;
                if here < g[l] {
                    (g[l], boost[l]) = (here, isl.boost);
                }
            }
        }
        (g, boost)
    }
}
