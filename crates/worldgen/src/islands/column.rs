//! Columns of the island world: the bands' look of a normalised height, the biome
//! of lattice columns from the height band and the climate, and what is asked of one
//! column (its top, its biome, its fields).

use terravox_voxel::Block;

use crate::config::world::Bands;
use crate::islands::IslandGen;
use crate::islands::layout::Near;
use crate::shape::climate::Fields;
use crate::shape::fields::{ColumnFields, Field};
use crate::surface::biome::{self, Biome, Kind};

/// One column of the island world.
#[derive(Clone, Copy, Debug)]
pub(super) struct Column {
    pub(super) surface: i32,
    pub(super) top: Block,
    pub(super) under: Block,
    /// The biome look (version 2 with nature).
    pub(super) kind: Option<Kind>,
}

/// Normalised height bands to the biome table's height above sea level (blocks)
/// and continentalness: water, beach, land, rock, snow.
fn band_fields(b: &Bands, h: f64) -> (f64, f64) {
    if h < b.shallow_water {
        (-30.0, -0.5)
    } else if h < b.sand {
        (0.0, -0.2)
    } else if h < b.rock {
        (8.0 + 50.0 * (h - b.sand) / (b.rock - b.sand), 0.3)
    } else if h < b.rock + (1.0 - b.rock) * 0.4 {
        (80.0, 0.3)
    } else {
        (130.0, 0.3)
    }
}

impl IslandGen {
    /// The biome of a lattice column from its normalised height and climate.
    pub(super) fn biome(&self, h: f64, f: &Fields) -> Biome {
        let (height, c) = band_fields(&self.cfg.bands, h);
        biome::choose(&Fields { c, e: 0.0, ..*f }, height, 0.0)
    }

    /// Column `(x, z)` given the islands near it (with no biome look yet), evaluated
    /// as the reference chunk does.
    pub(super) fn column_reference(&self, islands: &[Near], x: i32, z: i32) -> Column {
        self.column_at(self.height01_reference(islands, x as f64, z as f64))
    }

    /// A column of normalised height `h` (with no biome look yet).
    pub(super) fn column_at(&self, h: f64) -> Column {
        let b = &self.cfg.bands;
        let top = if h < b.deep_water {
            Block::Gravel
        } else if h < b.sand {
            Block::Sand
        } else if h < b.grass {
            Block::Grass
        } else if h < b.forest {
            Block::ForestFloor
        } else if h < b.rock {
            Block::Stone
        } else {
            Block::Snow
        };
        let under = match top {
            Block::Gravel | Block::Sand => Block::Sand,
            Block::Grass | Block::ForestFloor => Block::Dirt,
            _ => Block::Stone,
        };
        Column {
            surface: self.surface_y(h),
            top,
            under,
            kind: None,
        }
    }

    /// About the noise octaves [`IslandGen::column_top`] evaluates (plus finding the
    /// nearby islands).
    pub(crate) fn column_cost(&self) -> usize {
        self.noise.octaves() + 9
    }

    /// The biomes of the `n` by `n` lattice columns every [`biome::STEP`] blocks from
    /// world column `(x0, z0)`, `[k][i]` (with nature), given the normalised heights
    /// of columns from the islands near the lattice.
    pub(super) fn lattice_biomes(
        &self,
        x0: i32,
        z0: i32,
        n: usize,
        heights: impl FnOnce(&[Near], &[(i32, i32)]) -> Vec<f64>,
    ) -> Option<Vec<Biome>> {
        let (noise, _) = self.nature.as_ref()?;
        let far = (n as i32 - 1) * biome::STEP;
        let coarse = noise.grid(x0, z0, x0 + far, z0 + far);
        let islands = self.near(x0, z0, x0 + far, z0 + far);
        let at: Vec<(i32, i32)> = (0..n * n)
            .map(|p| {
                let x = x0 + (p % n) as i32 * biome::STEP;
                (x, z0 + (p / n) as i32 * biome::STEP)
            })
            .collect();
        let h = heights(&islands, &at);
        Some(
            at.iter()
                .zip(h)
                .map(|(&(x, z), h)| self.biome(h, &coarse.at(x, z)))
                .collect(),
        )
    }

    /// The biome look of block column `(x, z)` (with nature).
    fn kind_at(&self, x: i32, z: i32) -> Option<Kind> {
        let (x0, z0) = (
            x.div_euclid(biome::STEP) * biome::STEP,
            z.div_euclid(biome::STEP) * biome::STEP,
        );
        let b = self.lattice_biomes(x0, z0, 2, |islands, at| {
            at.iter()
                .map(|&(x, z)| self.height01(islands, x as f64, z as f64))
                .collect()
        })?;
        Some(biome::column_kind(
            self.seed,
            x,
            z,
            [b[0], b[1], b[2], b[3]],
        ))
    }

    /// The fields at each of `columns`: the climate, in worlds with nature.
    pub(crate) fn fields_along(&self, columns: &[[i32; 2]]) -> Vec<ColumnFields> {
        columns
            .iter()
            .map(|&[x, z]| {
                let mut out = ColumnFields::default();
                if let Some((noise, _)) = &self.nature {
                    let f = noise.at(x, z);
                    out.set(Field::Temperature, f.t);
                    out.set(Field::Humidity, f.h);
                }
                out
            })
            .collect()
    }

    /// The biome of block column `(x, z)` (with nature).
    pub(crate) fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        self.kind_at(x, z).map(biome::biome_of)
    }

    /// The highest solid block of a column (trees aside) and its block type.
    pub(crate) fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let h = self.height01(&self.near(x, z, x, z), x as f64, z as f64);
        let mut c = self.column_at(h);
        c.kind = self.kind_at(x, z);
        (
            c.surface,
            self.block_in(&c, c.surface),
            c.kind.map(biome::biome_of),
        )
    }

    /// The block at height `y` of a column.
    #[inline]
    pub(super) fn block_in(&self, c: &Column, y: i32) -> Block {
        let depth = c.surface - y;
        if depth < 0 {
            return self.surface.fluid_block(y);
        }
        match c.kind {
            Some(k) => self.surface.biome_block(y, depth.min(4), k),
            None => match depth {
                0 => c.top,
                1..=3 => c.under,
                _ => Block::Stone,
            },
        }
    }
}
