//! One dispatch for the two generators: both are a [`Terrain`], and `Generator` holds
//! one behind a shared pointer, as noise-rs puts every generator behind `NoiseFn`.
//! Calls are per chunk or per column, never per block, so the dispatch costs nothing
//! measurable.

use terravox_voxel::{Block, Chunk, ChunkPos, ColumnTints};

use crate::density::DensityGen;
use crate::hydrology::network::Hydrology;
use crate::hydrology::shore::ColumnWater;
use crate::islands::IslandGen;
use crate::islands::layout::Island;
use crate::lod::pos::LodPos;
use crate::shape::fields::ColumnFields;
use crate::surface::biome::Biome;

/// What a generator makes of a world: chunks at every level of detail, column tops
/// and biomes. Positions are inside the world's bounds (`Generator` clamps them).
pub(crate) trait Terrain: Send + Sync + std::fmt::Debug {
    /// The chunk at `pos` and its column tints.
    fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>);
    /// The coarse chunk `lod` (level at least 1) and its column tints.
    fn generate_coarse(&self, lod: LodPos) -> (Chunk, Option<Box<ColumnTints>>);
    /// The chunk at `pos`, evaluated naively (the benchmarks' yardstick).
    fn generate_reference(&self, pos: ChunkPos) -> Chunk;
    /// The biome of column `(x, z)`, in worlds with biomes.
    fn biome_at(&self, x: i32, z: i32) -> Option<Biome>;
    /// The highest solid block of column `(x, z)`, that block and the biome.
    fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>);
    /// `column_top` of the `w` x `h` columns from `(x0, z0)`, row by row (`z`, then
    /// `x`); a generator may share work between neighbouring columns.
    fn column_tops(
        &self,
        x0: i32,
        z0: i32,
        w: usize,
        h: usize,
    ) -> Vec<(i32, Block, Option<Biome>)> {
        (0..h as i32)
            .flat_map(|dz| (0..w as i32).map(move |dx| (dx, dz)))
            .map(|(dx, dz)| self.column_top(x0 + dx, z0 + dz))
            .collect()
    }
    /// The water over each of the `w` x `h` columns from `(x0, z0)`, row by row: the
    /// level of its river or lake above the sea, and its bank (version 6); `None`
    /// when no such water comes near (and for generators without it).
    fn water_tops(&self, _x0: i32, _z0: i32, _w: usize, _h: usize) -> Option<Vec<ColumnWater>> {
        None
    }
    /// About how many noise octaves `column_top` evaluates at most.
    fn column_cost(&self) -> usize;
    /// A height no column's terrain rises above (trees aside): a bound from the
    /// config, not the highest column found.
    fn highest_possible(&self) -> i32;
    /// Whether column `(x, z)` is surely open sea, decided cheaply (a search skips
    /// it); `false` when it cannot tell.
    fn surely_sea(&self, _x: i32, _z: i32) -> bool {
        false
    }
    /// Whether caves may open to the surface at or within a cave cell of column
    /// `(x, z)`, decided cheaply and never wrongly `false` (a spawn keeps away).
    fn cave_mouth_near(&self, _x: i32, _z: i32) -> bool {
        false
    }
    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]` (none
    /// for generators without islands).
    fn islands_near(&self, _x0: f64, _z0: f64, _x1: f64, _z1: f64) -> Vec<Island> {
        Vec::new()
    }
    /// The fields at each of `columns` (none for a generator without fields).
    fn fields_along(&self, columns: &[[i32; 2]]) -> Vec<ColumnFields> {
        vec![ColumnFields::default(); columns.len()]
    }
    /// The drainage network (version 5), in worlds with water that runs downhill.
    fn hydrology(&self) -> Option<&Hydrology> {
        None
    }
    /// Forgets what coarse chunks keep for the others of their column.
    #[cfg(feature = "test-support")]
    fn forget_kept_coarse(&self) {}
}

/// The methods both generators define as their own (in the modules of their stages),
/// handed to [`Terrain`] once: written here once for both.
macro_rules! shared_methods {
    ($generator:ident) => {
        fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
            $generator::generate(self, pos)
        }
        fn generate_coarse(&self, lod: LodPos) -> (Chunk, Option<Box<ColumnTints>>) {
            $generator::generate_coarse(self, lod)
        }
        fn generate_reference(&self, pos: ChunkPos) -> Chunk {
            $generator::generate_reference(self, pos)
        }
        fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
            $generator::biome_at(self, x, z)
        }
        fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
            $generator::column_top(self, x, z)
        }
        fn column_cost(&self) -> usize {
            $generator::column_cost(self)
        }
        fn highest_possible(&self) -> i32 {
            $generator::highest_possible(self)
        }
        fn fields_along(&self, columns: &[[i32; 2]]) -> Vec<ColumnFields> {
            $generator::fields_along(self, columns)
        }
    };
}

impl Terrain for DensityGen {
    shared_methods!(DensityGen);
    fn column_tops(
        &self,
        x0: i32,
        z0: i32,
        w: usize,
        h: usize,
    ) -> Vec<(i32, Block, Option<Biome>)> {
        DensityGen::column_tops(self, x0, z0, w, h)
    }
    fn water_tops(&self, x0: i32, z0: i32, w: usize, h: usize) -> Option<Vec<ColumnWater>> {
        DensityGen::water_tops(self, x0, z0, w, h)
    }
    fn surely_sea(&self, x: i32, z: i32) -> bool {
        DensityGen::surely_sea(self, x, z)
    }
    fn cave_mouth_near(&self, x: i32, z: i32) -> bool {
        DensityGen::cave_mouth_near(self, x, z)
    }
    fn hydrology(&self) -> Option<&Hydrology> {
        self.hydrology()
    }
    #[cfg(feature = "test-support")]
    fn forget_kept_coarse(&self) {
        DensityGen::forget_kept_coarse(self)
    }
}

impl Terrain for IslandGen {
    shared_methods!(IslandGen);
    fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        IslandGen::islands_near(self, x0, z0, x1, z1)
    }
}
