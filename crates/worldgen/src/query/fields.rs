//! The fields that drive a world, asked of a [`Generator`] column by column
//! ([`Generator::fields_at`]) or along many columns at once
//! ([`Generator::fields_along`]): what a map row, a cross-section or the panel's
//! readout asks for. The fields themselves are
//! [`Field`](crate::shape::fields::Field) and [`ColumnFields`].

use crate::generator::{Generator, inside};
use crate::shape::fields::ColumnFields;

impl Generator {
    /// The fields at column `(x, z)`.
    pub fn fields_at(&self, x: i32, z: i32) -> ColumnFields {
        self.fields_along(&[[x, z]])[0]
    }

    /// The fields at each of `columns`, computed together (one grid of the coarse
    /// fields around them all): what a map row or a cross-section asks for.
    pub fn fields_along(&self, columns: &[[i32; 2]]) -> Vec<ColumnFields> {
        let columns: Vec<[i32; 2]> = columns.iter().map(|c| c.map(inside)).collect();
        self.terrain.fields_along(&columns)
    }
}
