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
    /// Which of several claims speaks for a column: the least [`Precedence`].
    pub(super) fn precedence(&self) -> Precedence {
        if self.out < 0.0 {
            let runs = if self.running { 500.0 } else { 0.0 };
            Precedence::Inside(-1e9 - self.level * 1e3 - runs + self.out)
        } else {
            Precedence::Outside(self.out)
        }
    }
}

/// The order in which claims speak for a column, the least first: every claim the
/// column lies inside before any it lies outside. Inside, the highest water, a
/// running course's counting half a block above a lake at its level (its bed runs
/// on through the lake's shallows), then the one the column lies deepest in (a lake
/// over the start of its outflow's fall wins over the fall's foot). Outside, the
/// nearest.
///
/// Inside, level and depth weigh in one sum, a block of level as a thousand of
/// depth, `-1e9 - level * 1e3 - runs + out`, as versions 5 to 9 laid it: a sum near
/// -1e9 is rounded to steps of 2^-23, and claims closer than that count as equal
/// (the first asked wins), as where two pieces of a course meet at a bend. Compared
/// more finely, or level before depth, some columns would take another piece's bed,
/// and worlds of those versions would change.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub(super) enum Precedence {
    /// Inside the water: the weighed sum.
    Inside(f64),
    /// Outside it: blocks beyond its edge.
    Outside(f64),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(level: f64, out: f64, running: bool) -> Claim {
        Claim {
            level,
            flow: [0.0; 2],
            away: [0.0; 2],
            bank: level,
            reach: INFLUENCE,
            walls: true,
            plain: 0.0,
            out,
            bed: 1.0,
            runs_on: false,
            running,
        }
    }

    #[test]
    fn inside_before_outside_then_higher_water_then_deeper_in() {
        let p = |level, out, running| claim(level, out, running).precedence();
        // Any water the column lies in speaks before water beside it, even higher.
        assert!(p(10.0, -0.5, false) < p(40.0, 0.5, false));
        // Inside: the higher water, then (at one level) the running course.
        assert!(p(12.0, -0.5, false) < p(11.0, -9.0, false));
        assert!(p(11.0, -0.5, true) < p(11.0, -9.0, false));
        // A running course counts half a block higher: a lake half a block higher
        // ties on level, and the one the column lies deeper in speaks.
        assert!(p(11.5, -3.0, false) < p(11.0, -2.0, true));
        assert!(p(11.0, -3.0, true) < p(11.5, -2.0, false));
        // At one level, the deeper in.
        assert!(p(11.0, -3.0, false) < p(11.0, -2.0, false));
        // Outside: the nearest.
        assert!(p(11.0, 2.0, false) < p(30.0, 3.0, true));
        // Closer than the sum's rounding: equal, so the first asked keeps it.
        assert_eq!(p(11.0, -2.0, false), p(11.0, -2.0 - 1e-9, false));
    }
}
