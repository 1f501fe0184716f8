//! [`Claim`]: what one piece of water (a river's segment or a lake's disc) claims of
//! a column, and which of several claims wins; and the bands beyond its edge every
//! piece shapes.

/// Blocks beyond a river's edge that it shapes (walls and embankments end here).
pub(crate) const INFLUENCE: f64 = 64.0;

/// Blocks beyond the water's edge where air below its level is filled with water: the
/// lattice interpolates the ground across 4 blocks (6 on a diagonal), and past that
/// every column stands on banks at least a block above the level.
pub(crate) const WET: f64 = 6.0;

/// Blocks beyond a water's edge within which its banks stand even in the bed of
/// lower water: every lattice corner of a block column right beside its wet
/// columns (the wet band, a block, and a lattice cell's diagonal).
pub(super) const CLOSE: f64 = WET + 1.0 + 6.0;

/// What a piece of water claims of a column.
#[derive(Clone, Copy, Debug)]
pub(super) struct Claim {
    /// Its level, blocks above sea level.
    pub(super) level: f64,
    /// The way it flows, a unit vector (zero for still water).
    pub(super) flow: [f64; 2],
    /// The way from it to the column, a unit vector (zero on its middle line).
    pub(super) away: [f64; 2],
    /// The level its banks hold in here (the upper one just past a waterfall).
    pub(super) bank: f64,
    /// Blocks beyond its edge that it shapes.
    pub(super) reach: f64,
    /// Whether it cuts valley walls (rivers do, lakes do not).
    pub(super) walls: bool,
    /// Blocks of floodplain beyond its banks before its valley walls rise.
    pub(super) plain: f64,
    /// Blocks beyond its edge (negative inside).
    pub(super) out: f64,
    /// How far below its level, less a block, its bed lies here (inside); a lake's
    /// is minus infinity: it keeps the ground of its hollow.
    pub(super) bed: f64,
    /// Whether the column lies past an end of a running piece (version 8), where its
    /// water runs on in the next piece (or falls to it): the next piece's bed is no
    /// shore of it.
    pub(super) runs_on: bool,
    /// Whether it is a running piece (version 8): its bed and banks are kept block by
    /// block, the field's cliffs and most of its noise calmed there.
    pub(super) running: bool,
}

impl Claim {
    /// Which of several pieces speaks for a column, the least first: the highest
    /// water it lies in (a running course's before a lake's at the same level: its
    /// bed runs on through the lake's shallows), then the nearest (a lake over the
    /// start of its outflow's fall wins over the fall's foot).
    pub(super) fn precedence(&self) -> f64 {
        if self.out < 0.0 {
            let runs = if self.running { 500.0 } else { 0.0 };
            -1e9 - self.level * 1e3 - runs + self.out
        } else {
            self.out
        }
    }
}
