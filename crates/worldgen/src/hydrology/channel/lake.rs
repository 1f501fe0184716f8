//! A lake laid out in blocks: a disc around each of its nodes.

use super::claim::Claim;

/// Radius of a lake's disc around each of its nodes (nodes are 32 apart: discs
/// of 24 overlap, even across a cell's diagonal; version 8 widens them as its warp
/// moves the nodes apart).
pub(crate) const LAKE_RADIUS: f64 = 24.0;

/// Blocks beyond a lake's edge that it shapes: its shore, no valley walls (a lake
/// fills a hollow the land already has).
pub(super) const LAKE_INFLUENCE: f64 = 32.0;

/// A node of a lake, in blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Disc {
    pub at: [f64; 2],
    /// The lake's level, blocks above sea level.
    pub level: i32,
    /// Its radius, in blocks ([`LAKE_RADIUS`], wider in version 8).
    pub radius: f64,
}

impl Disc {
    pub(super) fn at(&self, p: [f64; 2]) -> Claim {
        let (dx, dz) = (p[0] - self.at[0], p[1] - self.at[1]);
        let d = (dx * dx + dz * dz).sqrt();
        let out = d - self.radius;
        Claim {
            // A lake is still.
            flow: [0.0; 2],
            away: if d > 0.0 { [dx / d, dz / d] } else { [0.0; 2] },
            level: self.level as f64,
            bank: self.level as f64,
            reach: LAKE_INFLUENCE,
            walls: false,
            plain: 0.0,
            out,
            // A lake keeps its hollow's own ground: its shores follow the land.
            bed: f64::NEG_INFINITY,
            runs_on: false,
            running: false,
        }
    }

    pub(super) fn bounds(&self) -> [f64; 4] {
        let r = self.radius + LAKE_INFLUENCE;
        [
            self.at[0] - r,
            self.at[1] - r,
            self.at[0] + r,
            self.at[1] + r,
        ]
    }
}
