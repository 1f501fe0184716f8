//! What a density world says per column before any block: the formula's parameters
//! of every lattice column (`climate`'s splines, or the flat config without a shape)
//! and the biomes of the biome grid, for a chunk ([`Columns`]) or around one block
//! column ([`DensityGen::column`]), and what the shapes tell alone (a column surely
//! under the sea, a column's biome).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use std::sync::Arc;

use terravox_voxel::BlockPos;

use super::Area;
use super::carve::{CAVE_FIRST, CAVE_STEP};
use super::flood::WaterTops;
use super::lattice::{Lattice, PLAIN, TREED, WIDE};
use super::{DensityGen, STEP_XZ, frac};
use crate::nature::trees::Trunk;
use crate::shape::climate::ColumnShape;
use crate::shape::relief::Ground;
use crate::surface::biome::{self, Biome, Kind};
use crate::surface::face::Face;

/// About the noise octaves [`DensityGen::surely_sea`] evaluates: the column fields at
/// up to four coarse points.
pub(crate) const SEA_CHECK_COST: usize = 4 * 16;

/// Local coordinate of the biome grid's first point: at or before every column of
/// the widest region.
pub(super) const BIOME_FIRST: i32 = TREED.lo.div_euclid(biome::STEP) * biome::STEP;
/// Biome grid points a side, enough to hold every column of the widest region and
/// the next point.
const BIOME_POINTS: usize = ((TREED.hi - BIOME_FIRST) / biome::STEP + 2) as usize;

/// Blocks beyond a river's or lake's edge within which no tree grows (measured at the
/// trunk's lattice corners, up to 4 blocks away).
const TREE_GAP: f64 = 5.0;

/// Chunk columns a thread remembers the [`Columns`] of (see
/// [`DensityGen::columns_cached`]).
const REMEMBERED: usize = 24;

/// The key of a chunk column's [`Columns`]: the generator's id, the chunk's origin `x`
/// and `z`, whether its lattice has the trees' margin.
type ColumnsKey = (u64, i32, i32, bool);

thread_local! {
    /// The [`Columns`] of the chunk columns this thread computed last.
    static RECENT: RefCell<Vec<(ColumnsKey, Columns)>> = const { RefCell::new(Vec::new()) };
}

/// Forgets the columns this thread remembers, and the coarse points of the fields
/// (see [`climate`](crate::shape::climate)), so that the next chunk of every column
/// computes them: for benchmarks, which generate the same chunks over and over where a
/// game generates each once.
#[cfg(feature = "test-support")]
pub fn forget_recent_columns() {
    RECENT.with_borrow_mut(Vec::clear);
    crate::shape::climate::forget_points();
    super::forget_lattice_noise();
}

/// A fresh id for a [`DensityGen`]: the key of its columns in [`RECENT`].
pub(super) fn new_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What a chunk knows about its lattice columns and block columns.
#[derive(Clone)]
pub(super) struct Columns {
    /// Formula parameters per lattice column, `[k][i]`.
    pub(super) shapes: [ColumnShape; WIDE * WIDE],
    /// The biomes on the biome grid (every [`biome::STEP`] blocks from local
    /// [`BIOME_FIRST`], [`BIOME_POINTS`] a side), `[k][i]`, with nature.
    pub(super) biomes: Option<[Biome; BIOME_POINTS * BIOME_POINTS]>,
    /// The rivers and lakes over the padded columns, where water above the sea comes
    /// near (version 5).
    pub(super) water: Option<Arc<WaterTops>>,
}

impl Columns {
    /// The shapes of the lattice corners around local block column `(lx, lz)` of a
    /// chunk with lattice `lat`: `[north-west, north-east, south-west, south-east]`
    /// (a column on a lattice line repeats the last ones, which weigh nothing).
    pub(super) fn corners(&self, lat: &Lattice, lx: i32, lz: i32) -> [&ColumnShape; 4] {
        let cell = |l: i32| (((l - lat.lx0).div_euclid(STEP_XZ)) as usize).min(WIDE - 1);
        let (i, k) = (cell(lx), cell(lz));
        let (i1, k1) = ((i + 1).min(WIDE - 1), (k + 1).min(WIDE - 1));
        let s = &self.shapes;
        [
            &s[k * WIDE + i],
            &s[k * WIDE + i1],
            &s[k1 * WIDE + i],
            &s[k1 * WIDE + i1],
        ]
    }
}

impl DensityGen {
    /// The ground at block column `(x, z)` between lattice corners `c`.
    fn ground(c: [&ColumnShape; 4], x: i32, z: i32) -> Ground {
        let (tx, tz) = (frac(x, STEP_XZ), frac(z, STEP_XZ));
        Ground::between(c, tx, tz, STEP_XZ as f64)
    }

    /// The face of block column `(x, z)` between lattice corners `c` (version 4, with
    /// relief and nature; soil otherwise).
    pub(super) fn face(&self, c: [&ColumnShape; 4], x: i32, z: i32) -> Face {
        match (&self.relief, &self.nature) {
            (Some(r), Some(_)) => r.face(&Self::ground(c, x, z), x, z),
            _ => Face::Soil,
        }
    }

    /// Whether the tree grid's `trunk`, between lattice corners `c`, may grow: in
    /// version 4 not where caves may open to the surface, and with relief not on rock
    /// or scree, thinning towards the snow line; in version 5 not in or right next to
    /// a river or lake.
    pub(super) fn keeps_tree(&self, c: [&ColumnShape; 4], trunk: &Trunk) -> bool {
        if c.iter().any(|s| s.wet < TREE_GAP) {
            return false;
        }
        let mouth = self.trees_shun_cave_mouths
            && self
                .caves
                .as_ref()
                .is_some_and(|caves| caves.may_open_at(trunk.x, trunk.z, CAVE_STEP, CAVE_FIRST));
        !mouth
            && self.relief.as_ref().is_none_or(|r| {
                let g = Self::ground(c, trunk.x, trunk.z);
                let snow = (self.surface.snow_line - self.surface.sea_level) as f64;
                r.keeps_tree(&g, r.face(&g, trunk.x, trunk.z), trunk.hash, snow)
            })
    }

    /// [`DensityGen::columns`], remembered for the last [`REMEMBERED`] chunk columns
    /// of this thread: every chunk of a column has the same, and in mountains a
    /// column has many surface chunks, whose relief (the erosion filter at every
    /// lattice column) is the costliest part of them. The same value either way, so
    /// chunks stay a pure function of their position.
    pub(super) fn columns_cached(&self, o: BlockPos, lat: &Lattice) -> Option<Columns> {
        if self.relief.is_none() {
            return self.columns(o, lat);
        }
        let key = (self.id, o.x, o.z, lat.region != PLAIN);
        let hit = RECENT.with_borrow(|r| r.iter().find(|(k, _)| *k == key).map(|(_, c)| c.clone()));
        if hit.is_some() {
            return hit;
        }
        let cols = self.columns(o, lat)?;
        RECENT.with_borrow_mut(|r| {
            if r.len() == REMEMBERED {
                r.remove(0);
            }
            r.push((key, cols.clone()));
        });
        Some(cols)
    }

    /// The shapes of a chunk's lattice columns and the biomes of its biome grid.
    /// `None` without fields (every column is shaped alike: `flat`).
    pub(super) fn columns(&self, o: BlockPos, lat: &Lattice) -> Option<Columns> {
        let n = lat.nxz;
        let far = (BIOME_FIRST + (BIOME_POINTS as i32 - 1) * biome::STEP)
            .max(lat.lx0 + (WIDE as i32 - 1) * STEP_XZ);
        let coarse = self.grid(
            o.x + BIOME_FIRST.min(lat.lx0),
            o.z + BIOME_FIRST.min(lat.lx0),
            o.x + far,
            o.z + far,
        )?;
        let sea = self.surface.sea_level;
        let wet = coarse
            .water
            .as_ref()
            .filter(|w| w.top().is_some_and(|t| t > 0));
        let mut cols = Columns {
            shapes: [self.flat; WIDE * WIDE],
            biomes: None,
            water: None,
        };
        // One lattice column more than the chunk evaluates when trees, caves or shores
        // need it.
        let n = if self.trees() || self.caves.is_some() || wet.is_some() && self.shores {
            WIDE
        } else {
            n
        };
        for k in 0..n {
            for i in 0..n {
                let (x, z) = (
                    o.x + lat.lx0 + i as i32 * STEP_XZ,
                    o.z + lat.lx0 + k as i32 * STEP_XZ,
                );
                cols.shapes[k * WIDE + i] = self.shape(Some(&coarse), x, z, true);
            }
        }
        let solid_at = |lx: i32, lz: i32, y: i32| {
            self.solid_at(cols.corners(lat, lx, lz), o.x + lx, y, o.z + lz)
        };
        let shores = self
            .shores
            .then_some(&solid_at as &dyn Fn(i32, i32, i32) -> bool);
        cols.water = wet
            .and_then(|w| WaterTops::new(o.x, o.z, |x, z| w.column(x, z, sea), sea, shores))
            .map(Arc::new);
        if self.nature.is_some() {
            cols.biomes = Some(std::array::from_fn(|p| {
                let (i, k) = ((p % BIOME_POINTS) as i32, (p / BIOME_POINTS) as i32);
                let (x, z) = (
                    o.x + BIOME_FIRST + i * biome::STEP,
                    o.z + BIOME_FIRST + k * biome::STEP,
                );
                self.biome(&coarse, x, z)
            }));
        }
        Some(cols)
    }

    /// The biome of biome grid point `(x, z)`, which `grid` covers (its altitude
    /// without the relief's erosion).
    pub(super) fn biome(&self, area: &Area, x: i32, z: i32) -> Biome {
        let s = self.shape(Some(area), x, z, false);
        biome::choose(&area.at(x, z), s.height, s.river)
    }

    /// The shapes of the four lattice columns around block column `(x, z)`
    /// (`[north-west, north-east, south-west, south-east]`), the column's look and its
    /// face.
    pub(super) fn column(&self, x: i32, z: i32) -> ([ColumnShape; 4], Option<Kind>, Face) {
        let shapes = self.corner_shapes(x, z);
        let (kind, face) = self.look(&shapes, self.biome_corners(x, z), x, z);
        (shapes, kind, face)
    }

    /// The shapes of the four lattice corners of column `(x, z)`'s cell (the same for
    /// the cell's 16 columns).
    pub(super) fn corner_shapes(&self, x: i32, z: i32) -> [ColumnShape; 4] {
        self.corners(x, z, STEP_XZ, |g, cx, cz| self.shape(g, cx, cz, true))
    }

    /// The biomes of the four corners of column `(x, z)`'s biome cell (the same for
    /// every column of a lattice cell: the biome grid's step is a multiple of the
    /// lattice's), in worlds with nature.
    pub(super) fn biome_corners(&self, x: i32, z: i32) -> Option<[Biome; 4]> {
        self.nature.as_ref().map(|_| {
            self.corners(x, z, biome::STEP, |g, cx, cz| match g {
                Some(g) => self.biome(g, cx, cz),
                None => biome::choose(&Default::default(), self.flat.height, 0.0),
            })
        })
    }

    /// The look of column `(x, z)` in the cell whose corners are `shapes` and whose
    /// biome corners are `biomes` ([`DensityGen::biome_corners`]): its kind (with
    /// nature) and its face.
    pub(super) fn look(
        &self,
        shapes: &[ColumnShape; 4],
        biomes: Option<[Biome; 4]>,
        x: i32,
        z: i32,
    ) -> (Option<Kind>, Face) {
        let face = self.face(shapes.each_ref(), x, z);
        let kind = self
            .nature
            .as_ref()
            .zip(biomes)
            .map(|(n, corners)| biome::column_kind(n.seed, x, z, corners));
        (kind, face)
    }

    /// `at` of the four corners of the cell of a `step`-block grid holding column
    /// `(x, z)`, given the fields around them: `[north-west, north-east, south-west,
    /// south-east]`.
    fn corners<T>(
        &self,
        x: i32,
        z: i32,
        step: i32,
        at: impl Fn(Option<&Area>, i32, i32) -> T,
    ) -> [T; 4] {
        let (x0, z0) = (x.div_euclid(step) * step, z.div_euclid(step) * step);
        let (x1, z1) = (x0.saturating_add(step), z0.saturating_add(step));
        let grid = self.grid(x0, z0, x1, z1);
        [(x0, z0), (x1, z0), (x0, z1), (x1, z1)].map(|(cx, cz)| at(grid.as_ref(), cx, cz))
    }

    /// Whether column `(x, z)` surely lies under the sea: its shape alone puts its
    /// highest possible surface below sea level (about [`SEA_CHECK_COST`] octaves).
    pub(crate) fn surely_sea(&self, x: i32, z: i32) -> bool {
        self.cfg.shape.is_some() && {
            // The shapes only: no biome needed.
            let thr = self.cfg.threshold;
            self.corners(x, z, STEP_XZ, |g, cx, cz| self.shape(g, cx, cz, true))
                .iter()
                .all(|s| s.highest(thr) < self.surface.sea_level as f64)
        }
    }

    /// The biome of block column `(x, z)`, with nature.
    pub(crate) fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        self.column(x, z).1.map(biome::biome_of)
    }
}
