//! How an area too large for one image is cut into tiles, and what each tile's
//! files are called.

use std::path::{Path, PathBuf};

use crate::area::Area;

/// One image of a heightmap: its columns, and where it is in the grid of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// The tile's columns.
    pub area: Area,
    /// Its column (along +x) and row (along +z) in the grid, from 0.
    pub index: [u32; 2],
}

/// The tiles of at most `side` columns a side that cover `area`, row by row (north
/// first), west to east in each row: whole tiles from the area's first column, the
/// last of each row and column cut at the area's edge.
pub fn plan(area: Area, side: u32) -> Vec<Tile> {
    let side = side.max(1) as i64;
    let starts = |from: i32, to: i32| {
        (from as i64..to as i64)
            .step_by(side as usize)
            .map(move |s| (s as i32, (s + side).min(to as i64) as i32))
    };
    let mut tiles = Vec::new();
    for (row, (z0, z1)) in starts(area.from[1], area.to[1]).enumerate() {
        for (col, (x0, x1)) in starts(area.from[0], area.to[0]).enumerate() {
            tiles.push(Tile {
                area: Area {
                    from: [x0, z0],
                    to: [x1, z1],
                },
                index: [col as u32, row as u32],
            });
        }
    }
    tiles
}

/// The heightmap PNG of tile `index` of an export to `out`: `out` itself when the
/// export is one tile, else `NAME_xC_yR.png` beside it (column C, row R: the naming
/// Unreal's tiled landscape import and World Machine read).
pub fn tile_png(out: &Path, index: [u32; 2], single: bool) -> PathBuf {
    if single {
        return out.to_path_buf();
    }
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    let ext = out
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    out.with_file_name(format!("{stem}_x{}_y{}{ext}", index[0], index[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_area_once_row_by_row() {
        let area = Area {
            from: [-10, 5],
            to: [15, 12],
        };
        let tiles = plan(area, 10);
        let spans: Vec<_> = tiles
            .iter()
            .map(|t| (t.index, t.area.from, t.area.to))
            .collect();
        assert_eq!(
            spans,
            [
                ([0, 0], [-10, 5], [0, 12]),
                ([1, 0], [0, 5], [10, 12]),
                ([2, 0], [10, 5], [15, 12]),
            ]
        );
        let area = Area {
            from: [0, 0],
            to: [4, 9],
        };
        let rows: Vec<_> = plan(area, 4)
            .iter()
            .map(|t| (t.index, t.area.size()))
            .collect();
        assert_eq!(rows, [([0, 0], [4, 4]), ([0, 1], [4, 4]), ([0, 2], [4, 1])]);
        let columns: u64 = plan(area, 3)
            .iter()
            .map(|t| t.area.size().iter().map(|&s| s as u64).product::<u64>())
            .sum();
        assert_eq!(columns, 36, "every column in exactly one tile");
    }

    #[test]
    fn tiles_are_named_by_column_and_row() {
        let out = Path::new("maps/island.png");
        assert_eq!(tile_png(out, [0, 0], true), out);
        assert_eq!(
            tile_png(out, [3, 12], false),
            Path::new("maps/island_x3_y12.png")
        );
    }
}
