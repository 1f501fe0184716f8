//! Coarse chunks of the island heightmap (`lod`): each coarse column takes
//! the height of its sample column.

use terravox_voxel::{Block, Chunk, ColumnTints, PADDED};

use crate::islands::IslandGen;
use crate::islands::height::Shape;
use crate::lod::assemble::{CoarseColumn, Look, assemble, tints};
use crate::lod::plant::plant;
use crate::lod::pos::LodPos;
use crate::nature::trees::TALLEST;
use crate::surface::biome;

impl IslandGen {
    /// The coarse chunk `lod` (level at least 1) and its tints.
    pub(crate) fn generate_coarse(&self, lod: LodPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let cell = lod.cell();
        let [xs, ys, zs] = lod.samples();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        let crowns = if self.trees() { TALLEST } else { 0 };
        if ys[0] > highest + crowns {
            return assemble(
                lod,
                self.surface,
                &[CoarseColumn::OPEN; PADDED * PADDED],
                None,
            );
        }
        if ys[PADDED - 1] < lowest {
            return (Chunk::Uniform(Block::Stone), None);
        }
        let last = |s: &[i32; PADDED]| s[PADDED - 1].saturating_add(cell - 1);
        let islands = self.near(xs[0], zs[0], last(&xs), last(&zs));
        let climate = self
            .nature
            .as_ref()
            .map(|(noise, _)| noise.grid(xs[0], zs[0], xs[PADDED - 1], zs[PADDED - 1]));
        // Every sample column's height, the octaves of those the islands reach summed
        // `LANES` columns at a time.
        let at: Vec<(i32, i32)> = zs
            .iter()
            .flat_map(|&z| xs.iter().map(move |&x| (x, z)))
            .collect();
        let shapes: Vec<Option<Shape>> = at
            .iter()
            .map(|&(x, z)| self.shape(&islands, x as f64, z as f64))
            .collect();
        let reached: Vec<(i32, i32)> = at
            .iter()
            .zip(&shapes)
            .filter_map(|(&c, shape)| shape.map(|_| c))
            .collect();
        let mut sums = self.sums(&reached).into_iter();
        let mut columns = Vec::with_capacity(PADDED * PADDED);
        for (&(x, z), shape) in at.iter().zip(shapes) {
            let h = shape.map_or(0.0, |shape| {
                self.height_of(shape, sums.next().expect("a sum for every reached column"))
            });
            let c = self.column_at(h);
            let solid = ys
                .iter()
                .enumerate()
                .fold(0u64, |bits, (j, &y)| bits | ((y <= c.surface) as u64) << j);
            let look = match &climate {
                Some(g) => {
                    let b = self.biome(h, &g.at(x, z));
                    Look::Biome(biome::kind(b, biome::column_hash(self.seed, x, z)))
                }
                None => Look::Bands {
                    top: c.top,
                    under: c.under,
                },
            };
            columns.push(CoarseColumn {
                solid,
                look,
                tree: None,
                water: None,
            });
        }
        if let Some(grid) = self.tree_grid() {
            plant(&mut columns, grid, lod, &xs, &zs, |_| true);
        }
        let tints = tints(&columns);
        assemble(lod, self.surface, &columns, tints)
    }
}
