//! The per-column rule: a column's formula parameters shaped to the water around it
//! (beds, banks, floodplains, valley walls, calm ground) and the water over it.

use terravox_voxel::Flow;

use super::claim::{CLOSE, Claim, WET};
use super::nearby::{LocalWater, WET_REACH};
use crate::shape::climate::{ColumnShape, smoothstep};

/// Blocks over which a bank rises from the water's edge to its top, 2 above the level.
const BANK: f64 = 3.0;

/// Blocks beyond the edge the embankment stays at its top before falling away at one
/// block a block.
const FLAT: f64 = 24.0;

/// Blocks beyond the edge where the terrain noise is calmed to a block.
const CALM: f64 = 8.0;

/// The noise's scale in and beside a running course (version 8): half a block.
const STILL: f64 = 0.5;

/// The most a water beside a running course's bed may stand above it and still
/// hold its banks there (version 8): a bank two blocks over it buries the bed no
/// deeper than the shore rule opens ([`crate::hydrology::shore`]); higher water
/// (a tarn on a fall's lip) is kept in by the shore rule's banks, block by block.
const HOLD: f64 = 6.0;

/// The steepest a valley wall stands, blocks up a block out.
pub(crate) const WALL: f64 = 2.0;

/// A river's valley wall that cut a column down (see [`LocalWater::shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Wall {
    /// The way the wall rises: a unit vector away from its river.
    pub rises: [f64; 2],
    /// Blocks from where the wall starts rising (past the bank and the floodplain).
    pub up: f64,
    /// The lowest the column may be cut to: its bank's top, or an embankment's.
    pub floor: f64,
}

impl LocalWater {
    /// Shapes column `(x, z)`'s formula parameters `s` to the water around it;
    /// returns the valley wall that cut the column down, if one did (outside any
    /// water's bed).
    pub(crate) fn shape(&self, s: &mut ColumnShape, x: i32, z: i32) -> Option<Wall> {
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        // The wall that stands lowest here, and how it rises.
        let mut wall: Option<Wall> = None;
        // The water the column lies in that speaks for it (`Claim::precedence`).
        let mut bed: Option<Claim> = None;
        let mut nearest = f64::INFINITY;
        // Whether the nearest water is a running piece (version 8).
        let mut running = false;
        // Banks kept even in another water's bed: (level, bank top, a running
        // piece's), right by a water whose surface fills the air within WET of its
        // edge.
        let mut close: Vec<(f64, f64, bool)> = Vec::new();
        // The lowest bed of a running course the column lies in (version 8): a
        // course through a higher lake's shallows keeps its channel.
        let mut channel = f64::INFINITY;
        for w in self.around(x, z, None) {
            if w.out < 0.0 {
                if bed.is_none_or(|b: Claim| w.precedence() < b.precedence()) {
                    bed = Some(w);
                }
                if w.running {
                    channel = channel.min(w.level - 1.0 - w.bed);
                }
            } else {
                // Rises to nothing at its reach, so shaping ends without a seam.
                let fade = 1.0 / (1.0 - (w.out / w.reach).powi(2));
                let top = w.bank - 1.0 + 3.0 * smoothstep(w.out / BANK);
                if w.walls {
                    let up = w.out - BANK - w.plain;
                    let cap = top + WALL * up.max(0.0) * fade;
                    if cap < hi {
                        hi = cap;
                        wall = Some(Wall {
                            rises: w.away,
                            up,
                            floor: top,
                        });
                    }
                }
                if w.bank > 0.0 {
                    lo = lo.max(top - (w.out - FLAT).max(0.0) * fade);
                    if w.out < CLOSE && !w.runs_on {
                        close.push((w.bank, top, w.running));
                    }
                }
            }
            if w.out < nearest {
                (nearest, running) = (w.out, w.running);
            }
        }
        if nearest == f64::INFINITY {
            return None;
        }
        let in_bed = bed.is_some();
        if let Some(Claim {
            level,
            bed,
            running,
            ..
        }) = bed
        {
            let b = (level - 1.0 - bed).min(channel);
            // In the water: its bed, and no bank of the water next to it (at a bend
            // or a junction the next piece's bank would fill the channel), but for
            // the banks of higher water right beside it: they keep that water in,
            // where the lattice would otherwise slope from one bed to the other. A
            // running course's bed keeps no running water's banks (version 8): its
            // own course's upper pieces lie beside it, and a higher course beside
            // falls into it; nor those of water more than HOLD above it.
            hi = hi.min(b);
            lo = close
                .iter()
                .filter(|&&(l, _, r)| l > level && !(running && (r || l > level + HOLD)))
                .map(|&(_, top, _)| top)
                .fold(f64::NEG_INFINITY, f64::max);
        }
        let cut = s.height > hi && hi >= lo && !in_bed;
        let height = s.height.min(hi).max(lo);
        s.offset += height - s.height;
        s.height = height;
        // The river biome (version 2's rule) in and right by the water.
        let river = if nearest < 0.0 {
            1.0
        } else {
            1.0 - smoothstep(nearest / 4.0)
        };
        s.river = s.river.max(river);
        let calm = smoothstep((nearest - CALM) / (2.0 * CALM));
        s.scale += (s.scale.min(1.0) - s.scale) * (1.0 - calm);
        if running {
            // The ground of a running course and its banks as shaped: no cliff lifts
            // it (half the cliff scale stands on the expected height), and the noise
            // moves it half a block at most, fading out by CALM beyond the banks.
            let keep = smoothstep((nearest - BANK) / CALM);
            s.cliff *= keep;
            s.scale += (s.scale.min(STILL) - s.scale) * (1.0 - keep);
        }
        s.wet = nearest;
        wall.filter(|_| cut).map(|w| Wall {
            floor: w.floor.max(lo),
            ..w
        })
    }

    /// The height of the water over column `(x, z)` in a world whose sea stands at
    /// `sea`, where a river or lake above the sea fills the air below it.
    pub(crate) fn surface(&self, x: i32, z: i32, sea: i32) -> Option<i32> {
        self.filling(x, z).map(|w| sea + w.level as i32)
    }

    /// The water above the sea that fills the air of column `(x, z)`, if any.
    fn filling(&self, x: i32, z: i32) -> Option<Claim> {
        self.look(x, z).0
    }

    /// One look at the pieces whose water may fill column `(x, z)`: the one that
    /// fills it, if any water above the sea does, and whether the column lies in a
    /// running course's bed (version 8; its channel is cut, whichever water fills
    /// it).
    fn look(&self, x: i32, z: i32) -> (Option<Claim>, bool) {
        let (mut fill, mut bed): (Option<Claim>, bool) = (None, false);
        for w in self.around(x, z, Some(WET)) {
            bed |= w.running && w.out < 0.0;
            if fill.is_none_or(|f| w.precedence() < f.precedence()) {
                fill = Some(w);
            }
        }
        (fill.filter(|w| w.level > 0.0), bed)
    }

    /// Whether water above the sea may fill a column beside `(x, z)` (a cheap test
    /// before asking [`LocalWater::surface`] of its four neighbours).
    pub(crate) fn wets_beside(&self, x: i32, z: i32) -> bool {
        self.around(x, z, Some(WET_REACH)).any(|w| w.level > 0.0)
    }

    /// [`LocalWater::surface`], the way that water flows (still for a lake; still
    /// where there is none) and whether the column lies in a running course's bed
    /// (version 8; its channel is cut, whichever water fills it: its buried water is
    /// opened up to its ground, [`crate::hydrology::shore::shore`]); not where no
    /// water above the sea fills it.
    pub(crate) fn column(&self, x: i32, z: i32, sea: i32) -> (Option<i32>, Flow, bool) {
        let (fill, bed) = self.look(x, z);
        fill.map_or((None, Flow::STILL, false), |w| {
            (
                Some(sea + w.level as i32),
                Flow::toward(w.flow[0], w.flow[1]),
                bed,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::config::world::GeneratorConfig;
    use crate::hydrology::channel::{FiledWater, Segment};

    /// The ground `out` blocks beyond a river's edge, on land 100 blocks up.
    fn ground_beside(segment: Segment, out: f64) -> f64 {
        let GeneratorConfig::Density(d) = presets::builtin("continents").unwrap().generator else {
            panic!("continents is a density world")
        };
        let mut s = ColumnShape::flat(&d, 0);
        (s.offset, s.height) = (100.0, 100.0);
        let mut water = LocalWater::default();
        let area = [-200, -200, 200, 200];
        water.gather(&FiledWater::new(vec![segment], Vec::new()), area);
        water.index(area);
        let z = (segment.half + out).round() as i32;
        water.shape(&mut s, 16, z);
        s.height
    }

    #[test]
    fn a_big_river_lies_in_a_floodplain_and_a_creek_in_a_gorge() {
        let (a, b) = ([-64.0, 0.0], [64.0, 0.0]);
        let big = Segment::course(a, b, [10, 10], 30, 1.0, 1.0)[0];
        let big = Segment::new(a, b, [10, 10], big.half, big.plain);
        let creek = Segment::straight(a, b, [10, 10], 1, 1.0);
        // The floodplain stands at the banks' top, two blocks above the water, out
        // to its edge.
        let out = (BANK + big.plain).floor() - 1.0;
        assert!(out > 8.0, "a floodplain {} wide", big.plain);
        let plain = ground_beside(big, out);
        assert!((plain - 12.0).abs() < 1.0, "{plain}");
        // A creek's valley wall rises two blocks a block from its bank.
        let gorge = ground_beside(creek, out);
        assert!(gorge > 12.0 + out, "{gorge}");
    }
}
