//! The six face directions and their axes.

/// One of the six face directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Facing +x.
    PosX,
    /// Facing -x.
    NegX,
    /// Facing +y (up).
    PosY,
    /// Facing -y (down).
    NegY,
    /// Facing +z.
    PosZ,
    /// Facing -z.
    NegZ,
}

impl Face {
    /// All six faces.
    pub const ALL: [Face; 6] = [
        Face::PosX,
        Face::NegX,
        Face::PosY,
        Face::NegY,
        Face::PosZ,
        Face::NegZ,
    ];

    /// The outward unit normal.
    pub const fn normal(self) -> [i32; 3] {
        match self {
            Face::PosX => [1, 0, 0],
            Face::NegX => [-1, 0, 0],
            Face::PosY => [0, 1, 0],
            Face::NegY => [0, -1, 0],
            Face::PosZ => [0, 0, 1],
            Face::NegZ => [0, 0, -1],
        }
    }

    /// Axes as indices: (normal axis, row axis, column axis) of this face's planes.
    pub(crate) const fn axes(self) -> (usize, usize, usize) {
        match self {
            Face::PosX | Face::NegX => (0, 1, 2),
            Face::PosY | Face::NegY => (1, 2, 0),
            Face::PosZ | Face::NegZ => (2, 1, 0),
        }
    }

    pub(crate) const fn positive(self) -> bool {
        matches!(self, Face::PosX | Face::PosY | Face::PosZ)
    }

    /// Whether A, B, C, D (B along the column axis from A, D along the row axis) is
    /// clockwise from outside and must be emitted reversed.
    pub(crate) const fn reversed(self) -> bool {
        matches!(self, Face::PosX | Face::PosY | Face::NegZ)
    }
}
