//! The trees of a coarse chunk's columns: a tree's crown over the column its trunk
//! stands in (levels 1 and 2), or the canopy of the woods (further out).

use terravox_voxel::PADDED;

use crate::lod::assemble::{CoarseColumn, Look, column};
use crate::lod::pos::LodPos;
use crate::nature::planting::TreeGrid;
use crate::nature::trees::Trunk;
use crate::surface::biome;

/// Marks the padded coarse columns of `lod` where trees stand with the crown block of
/// their species. At levels 1 and 2 a column takes the first tree of the grid
/// ([`TreeGrid::trees`], as full-detail chunks decide them) whose trunk stands in
/// its footprint, drawn by the column's own look, that `keep` keeps (the generator's
/// rules for the ground a tree stands on: the tree line, cave mouths); further out,
/// where a cell is wider than a tree, every wooded column takes its biome's canopy
/// where `keep` keeps a tree at its sample column (with the column's own random
/// bits), so the canopy thins out towards the tree line as the trees do. `xs` and
/// `zs` are the sample columns of the padded cells.
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
    keep: impl Fn(&Trunk) -> bool,
) {
    if lod.level >= 3 {
        for (i, c) in columns.iter_mut().enumerate() {
            if let Look::Biome(k) = c.look {
                let (x, z) = (xs[i % PADDED], zs[i / PADDED]);
                let here = Trunk {
                    x,
                    z,
                    hash: biome::column_hash(grid.seed, x, z),
                };
                if keep(&here) {
                    c.tree = biome::biome_of(k).canopy(grid.seed, x, z);
                }
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
    for t in trees.iter().filter(|t| keep(&t.trunk)) {
        let c = &mut columns[at(t.trunk.x, t.trunk.z)];
        c.tree = c.tree.or(Some(t.species.crown()));
    }
}
