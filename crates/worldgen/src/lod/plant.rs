//! The trees of a coarse chunk's columns: a tree's crown over the column its trunk
//! stands in (levels 1 and 2), or the canopy of the woods (further out).

use terravox_voxel::PADDED;

use crate::lod::assemble::{CoarseColumn, Look, column};
use crate::lod::pos::LodPos;
use crate::nature::planting::TreeGrid;
use crate::surface::biome;

/// Marks the padded coarse columns of `lod` where trees stand with the crown block of
/// their species. At levels 1 and 2 a column takes the first tree of the grid
/// ([`TreeGrid::trees`], as full-detail chunks decide them) whose trunk stands in
/// its footprint, drawn by the column's own look; further out, where a cell is wider
/// than a tree, every wooded column takes its biome's canopy. `xs` and `zs` are the
/// sample columns of the padded cells.
///
/// Full-detail chunks also plant the grid's trees, but on the soil blocks of their
/// trunk columns and block by block; a coarse column has neither, only a look and a
/// top cell, which `assemble` turns into leaves.
pub(crate) fn plant(
    columns: &mut [CoarseColumn],
    grid: TreeGrid,
    lod: LodPos,
    xs: &[i32; PADDED],
    zs: &[i32; PADDED],
) {
    if lod.level >= 3 {
        for (i, c) in columns.iter_mut().enumerate() {
            if let Look::Biome(k) = c.look {
                c.tree = biome::biome_of(k).canopy(grid.seed, xs[i % PADDED], zs[i / PADDED]);
            }
        }
        return;
    }
    let cell = lod.cell();
    let last = |s: &[i32; PADDED]| s[PADDED - 1].saturating_add(cell - 1);
    // The padded column whose footprint holds world column `(x, z)`.
    let at = |x: i32, z: i32| column((x - xs[0]) / cell - 1, (z - zs[0]) / cell - 1);
    let area = [xs[0], zs[0], last(xs), last(zs)];
    let trees = grid.trees(area, |t| match columns[at(t.x, t.z)].look {
        Look::Biome(kind) => Some(kind),
        _ => None,
    });
    for t in trees {
        let c = &mut columns[at(t.trunk.x, t.trunk.z)];
        c.tree = c.tree.or(Some(t.species.crown()));
    }
}
