//! The 3D density generator ("Cliffs", "Continents").
//!
//! `density = (n + cliff) * scale + offset - y`, `cliff = (n * 0.5 + 0.5) * cliff_scale`,
//! solid where `density > threshold`, with `n` an fBm in `[-1, 1]`. In version 2 a
//! `shape` makes `offset`, `scale` and `cliff_scale` functions of the column
//! (`climate`), and `nature` adds biomes and trees.
//!
//! Speed comes from three things, none of which breaks seams or determinism:
//! - the field is evaluated on a coarse lattice fixed in **world** space (every
//!   [`STEP_XZ`] blocks across, [`STEP_Y`] up) and interpolated trilinearly, so every
//!   block's value depends only on its world position; the column parameters are
//!   computed per lattice column;
//! - since `|n| <= 1` the density is bounded at each height of each column: chunks
//!   wholly above the highest possible surface are air, wholly below the lowest are
//!   stone, with no noise;
//! - a lattice segment whose two ends share a sign is filled without per-block work
//!   (linear interpolation between same-signed values keeps that sign).
//!
//! With trees on, a chunk computes solidity over a wider [`Region`](lattice::Region):
//! [`CROWN`](crate::nature::trees::CROWN) more
//! columns each side and [`TALLEST`] more blocks below, where the trunks of trees
//! reaching into it stand.
//!
//! One file a stage, lowest first: `lattice` (the region a chunk computes, its
//! lattice, the solidity bits octave by octave), `column` (the shapes and biomes of
//! lattice columns), `top` (a column's highest block, walked down without a chunk),
//! `wall` (version 7's gullies down the valley walls of rivers),
//! `carve` (caves cut into a chunk), `plant` (the trees reaching into a chunk and the
//! soil of their trunk columns), `blocks` (the chunk's blocks from the solidity bits
//! by biome look, then its trees), `flood` (version 5's rivers and lakes filled in)
//! and `coarse` (the horizon's coarse chunks). This
//! file holds the generator, its formula, and [`DensityGen::generate`], which runs
//! the stages in turn.

mod blocks;
mod carve;
mod coarse;
pub(crate) mod column;
pub(crate) mod flood;
mod lattice;
mod plant;
mod top;
mod wall;

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints};

use coarse::{Columns, Stack};
use lattice::{Field, Lattice, MAX_COLUMNS, PLAIN, Sign, TREED, WIDE};
use plant::trunk_columns;

use crate::config::versions::{Behaviour, Change};
use crate::config::world::{DensityConfig, NatureConfig};
use crate::hydrology::channel::{LocalWater, Wall};
use crate::hydrology::network::{Hydrology, Laying};
use crate::hydrology::shore::{self, ColumnWater};
use crate::nature::planting::TreeGrid;
use crate::nature::trees::TALLEST;
use crate::noise::fbm::Fbm;
use crate::shape::climate::{CoarseGrid, ColumnShape, FieldNoise, Lift};
use crate::shape::fields::{self, ColumnFields};
use crate::shape::relief::Relief;
use crate::store::Store;
use crate::surface::blocks::Surface;
use crate::surface::caves::Caves;

/// Lattice points whose noise a thread keeps for [`DensityGen::solid_at`]
/// (direct-mapped by a hash of the generator and the point).
const NOISE_SLOTS: usize = 1024;

thread_local! {
    /// The noise of lattice points [`DensityGen::solid_at`] read last on this thread:
    /// (generator id, point, noise).
    static LATTICE_NOISE: std::cell::RefCell<Vec<(u64, [i32; 3], f64)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Forgets the lattice noise this thread keeps (for benchmarks: see
/// `column::forget_recent_columns`).
#[cfg(feature = "test-support")]
pub(crate) fn forget_lattice_noise() {
    LATTICE_NOISE.with_borrow_mut(Vec::clear);
}

/// Lattice spacing across (x and z), in blocks.
const STEP_XZ: i32 = 4;
/// Lattice spacing up (y), in blocks.
const STEP_Y: i32 = 8;

/// Blocks above the padded chunk looked at to find the surface depth.
const LOOKAHEAD: i32 = 4;
/// Local `y` of the highest block whose solidity is computed.
const TOP: i32 = CHUNK + LOOKAHEAD;
/// Columns of coarse chunks whose [`Stack`] is kept (a few MiB at most).
const KEPT_STACKS: usize = 1 << 16;
/// Columns of coarse chunks whose [`Columns`] are kept (about 100 KiB each).
const KEPT_COLUMNS: usize = 64;

/// Interpolation `a + (b - a) * t`. With finite values it is exactly `a` when
/// `t == 0`, which is what lets a chunk's padding equal its neighbour's blocks bit for
/// bit, and it is monotonic in `t`.
#[inline]
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// The column fields around an area and the water that shapes it.
pub(super) struct Area {
    /// The fields, with the relief's masks.
    fields: CoarseGrid,
    /// The rivers and lakes that shape the area's columns (version 5), if any.
    water: Option<LocalWater>,
}

impl Area {
    /// The fields at column `(x, z)`.
    fn at(&self, x: i32, z: i32) -> crate::shape::climate::Fields {
        self.fields.at(x, z)
    }
}

/// The interpolation fraction of a local coordinate inside its lattice cell.
const fn frac(local: i32, step: i32) -> f64 {
    local.rem_euclid(step) as f64 / step as f64
}

/// The density generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct DensityGen {
    /// The noise `n`.
    fbm: Fbm,
    /// The generator's config.
    cfg: DensityConfig,
    /// Sea level and snow line.
    surface: Surface,
    /// The column fields, when the world has a shape or nature.
    fields: Option<FieldNoise>,
    /// The formula's parameters where there is no shape.
    flat: ColumnShape,
    /// Biomes and trees (version 2): the world seed, which biome looks are drawn
    /// with too, and the tree grid.
    nature: Option<TreeGrid>,
    /// Caves (version 3).
    caves: Option<Box<Caves>>,
    /// Mountain ranges (version 4).
    relief: Option<Box<Relief>>,
    /// Water that runs downhill (version 5), shared by clones: it keeps the rivers it
    /// traced.
    hydrology: Option<Arc<Hydrology>>,
    /// This generator's key among the columns a thread remembers.
    id: u64,
    /// Whether trees keep away from where caves open to the surface (version 4: in
    /// version 3 a tree there could stand on a lone soil block over a cave's mouth).
    trees_shun_cave_mouths: bool,
    /// Whether columns beside higher water keep it in (version 6: in version 5 water
    /// could stand beside open air at the foot of a fall; `hydrology::shore`).
    shores: bool,
    /// Whether the valley walls rivers cut through ranges carry the erosion filter's
    /// gullies down to the river (version 7: in version 6 a wall was a bare slope,
    /// and the ranges' gullies ended at its top).
    wall_gullies: bool,
    /// What each column of coarse chunks sampled so far shares (`coarse`), shared by
    /// clones: the chunks above and below it need not sample again to be uniform.
    stacks: Arc<Store<(u8, i32, i32), Stack>>,
    /// The columns of the coarse chunks sampled last, by the same key (a few MiB).
    columns: Arc<Store<(u8, i32, i32), Columns>>,
}

impl DensityGen {
    /// The generator of a density world with seed `seed`, sea level `sea_level`,
    /// generator version `version` and `nature` (version 2).
    pub(crate) fn new(
        cfg: &DensityConfig,
        seed: u64,
        sea_level: i32,
        version: u32,
        nature: Option<&NatureConfig>,
    ) -> Self {
        let behaviour = Behaviour::of(version);
        let n = &cfg.noise;
        let fbm = Fbm::new(
            n.kind,
            seed,
            0,
            n.frequency,
            n.octaves,
            n.persistence,
            n.lacunarity,
        );
        let fields = (cfg.shape.is_some() || nature.is_some())
            .then(|| FieldNoise::new(seed, cfg.shape.as_ref(), nature))
            .map(
                |f| match cfg.shape.as_ref().and_then(|s| s.relief.as_ref()) {
                    Some(_) => f.with_margin(),
                    None => f,
                },
            );
        Self {
            fbm,
            cfg: cfg.clone(),
            surface: Surface {
                sea_level,
                snow_line: cfg.snow_line,
            },
            fields,
            flat: ColumnShape::flat(cfg, sea_level),
            nature: nature.map(|n| TreeGrid::new(seed, n)),
            caves: cfg
                .caves
                .as_ref()
                .map(|c| Box::new(Caves::new(c, seed, sea_level))),
            id: column::new_id(),
            trees_shun_cave_mouths: behaviour.has(Change::TreesShunCaveMouths),
            shores: behaviour.has(Change::Shores),
            wall_gullies: behaviour.has(Change::WallGullies),
            relief: cfg
                .shape
                .as_ref()
                .and_then(|s| Relief::new(s, seed))
                .map(Box::new),
            hydrology: cfg
                .shape
                .as_ref()
                .and_then(|s| {
                    let laying = if behaviour.has(Change::RunningCourses) {
                        Laying::Running {
                            nearest: behaviour.has(Change::RunsByNearestPiece),
                        }
                    } else if behaviour.has(Change::WindingRivers) {
                        Laying::Winding
                    } else {
                        Laying::Straight
                    };
                    Hydrology::new(cfg, s, seed, sea_level, laying)
                })
                .map(Arc::new),
            stacks: Arc::new(Store::new(KEPT_STACKS)),
            columns: Arc::new(Store::new(KEPT_COLUMNS)),
        }
    }

    /// The drainage network (version 5).
    pub(crate) fn hydrology(&self) -> Option<&Hydrology> {
        self.hydrology.as_deref()
    }

    /// Whether chunks grow trees.
    fn trees(&self) -> bool {
        self.nature.as_ref().is_some_and(TreeGrid::grows)
    }

    /// The column fields over columns `x0..=x1` by `z0..=z1`, with the relief's
    /// masks; `None` without fields. Where `columns` are given, only for those
    /// ([`FieldNoise::grid_for`]).
    fn fields_grid(
        &self,
        x0: i32,
        z0: i32,
        x1: i32,
        z1: i32,
        columns: Option<[&[i32]; 2]>,
    ) -> Option<CoarseGrid> {
        let mut fields = self.fields.as_ref()?.grid_for(x0, z0, x1, z1, columns);
        if let Some(r) = &self.relief {
            r.fill_masks(&mut fields);
        }
        Some(fields)
    }

    /// [`DensityGen::fields_grid`] and the water that shapes those columns.
    fn grid(&self, x0: i32, z0: i32, x1: i32, z1: i32) -> Option<Area> {
        self.grid_for(x0, z0, x1, z1, None)
    }

    /// [`DensityGen::grid`], its fields only for `columns` where they are given.
    fn grid_for(
        &self,
        x0: i32,
        z0: i32,
        x1: i32,
        z1: i32,
        columns: Option<[&[i32]; 2]>,
    ) -> Option<Area> {
        let fields = self.fields_grid(x0, z0, x1, z1, columns)?;
        let water = self
            .hydrology
            .as_ref()
            .map(|h| h.near(x0, z0, x1, z1))
            .filter(|w| !w.is_empty());
        Some(Area { fields, water })
    }

    /// The water over the `w` x `h` columns from `(x0, z0)` (version 5), row by row:
    /// the world height of each column's river or lake above the sea, and from
    /// version 6 its shore beside higher water; `None` where no water above
    /// the sea comes near.
    pub(crate) fn water_tops(
        &self,
        x0: i32,
        z0: i32,
        w: usize,
        h: usize,
    ) -> Option<Vec<ColumnWater>> {
        // One column more each side (a shore looks at its four neighbours).
        let (xa, za) = (x0 - 1, z0 - 1);
        let (xb, zb) = (x0 + w as i32, z0 + h as i32);
        let water = self.hydrology.as_ref()?.near(xa, za, xb, zb);
        water.top().filter(|&t| t > 0)?;
        let sea = self.surface.sea_level;
        let wide = (xb - xa + 1) as usize;
        let columns: Vec<(Option<i32>, bool)> = (za..=zb)
            .flat_map(|z| (xa..=xb).map(move |x| (x, z)))
            .map(|(x, z)| {
                let (surface, _, bed) = water.column(x, z, sea);
                (surface, bed)
            })
            .collect();
        let column = |x: i32, z: i32| columns[(z - za) as usize * wide + (x - xa) as usize];
        let at = |x: i32, z: i32| column(x, z).0;
        // The shapes of the lattice columns a shore's verdict needs, made once each,
        // from the fields of the area and its columns' lattice corners (made once,
        // where a shore is asked for at all).
        let area = std::cell::OnceCell::new();
        let mut shapes: HashMap<[i32; 2], ColumnShape> = HashMap::new();
        let mut solid_at = |x: i32, y: i32, z: i32| {
            let (cx, cz) = (
                x.div_euclid(STEP_XZ) * STEP_XZ,
                z.div_euclid(STEP_XZ) * STEP_XZ,
            );
            let corners = [
                [cx, cz],
                [cx + STEP_XZ, cz],
                [cx, cz + STEP_XZ],
                [cx + STEP_XZ, cz + STEP_XZ],
            ];
            let area = area
                .get_or_init(|| self.grid(xa - STEP_XZ, za - STEP_XZ, xb + STEP_XZ, zb + STEP_XZ));
            for [x, z] in corners {
                shapes
                    .entry([x, z])
                    .or_insert_with(|| self.shape(area.as_ref(), x, z, true));
            }
            self.solid_at(corners.map(|c| &shapes[&c]), x, y, z)
        };
        Some(
            (0..w * h)
                .map(|i| {
                    let (x, z) = (x0 + (i % w) as i32, z0 + (i / w) as i32);
                    let surface = at(x, z);
                    let beside = shore::highest_beside(x, z, at);
                    let bed = column(x, z).1;
                    let shore = self
                        .shores
                        .then(|| shore::shore(surface, beside, sea, bed, |y| solid_at(x, y, z)))
                        .flatten();
                    ColumnWater { surface, shore }
                })
                .collect(),
        )
    }

    /// The fields at each of `columns` (see [`crate::shape::fields`]): the coarse fields
    /// interpolated as chunks use them, and the relief's layers.
    pub(crate) fn fields_along(&self, columns: &[[i32; 2]]) -> Vec<ColumnFields> {
        let Some(first) = columns.first() else {
            return Vec::new();
        };
        let (mut lo, mut hi) = (*first, *first);
        for c in columns {
            lo = [lo[0].min(c[0]), lo[1].min(c[1])];
            hi = [hi[0].max(c[0]), hi[1].max(c[1])];
        }
        let Some(grid) = self.fields_grid(lo[0], lo[1], hi[0], hi[1], None) else {
            return vec![ColumnFields::default(); columns.len()];
        };
        let shaped = self.cfg.shape.is_some();
        let climate = self.nature.is_some();
        columns
            .iter()
            .map(|&[x, z]| {
                let f = grid.at(x, z);
                let mut out = ColumnFields::default();
                if shaped {
                    out.set(fields::Field::Continentalness, f.c);
                    out.set(fields::Field::Erosion, f.e);
                    out.set(fields::Field::Weirdness, f.w);
                }
                if climate {
                    out.set(fields::Field::Temperature, f.t);
                    out.set(fields::Field::Humidity, f.h);
                }
                if let Some(r) = &self.relief {
                    let [ranges, ridges, jag, gully] = r.layers(x, z, &grid);
                    out.set(fields::Field::Ranges, ranges);
                    out.set(fields::Field::Ridges, ridges);
                    out.set(fields::Field::Jaggedness, jag);
                    out.set(fields::Field::ErosionStrength, gully);
                }
                out
            })
            .collect()
    }

    /// The formula's parameters at column `(x, z)`, which `grid` (from
    /// [`DensityGen::grid`]) covers; with `eroded` false, without the relief's
    /// erosion (see [`Relief::lift`]).
    #[inline]
    fn shape(&self, area: Option<&Area>, x: i32, z: i32, eroded: bool) -> ColumnShape {
        self.shape_walled(area, x, z, eroded).0
    }

    /// [`DensityGen::shape`], and the valley wall that cut the column down, if one
    /// did.
    #[inline]
    fn shape_walled(
        &self,
        area: Option<&Area>,
        x: i32,
        z: i32,
        eroded: bool,
    ) -> (ColumnShape, Option<Wall>) {
        match (&self.cfg.shape, area) {
            (Some(s), Some(a)) => {
                let g = &a.fields;
                let lift = self
                    .relief
                    .as_ref()
                    .map_or(Lift::default(), |r| r.lift(x, z, g, eroded));
                let mut shape =
                    ColumnShape::shaped(&self.cfg, s, self.surface.sea_level, &g.at(x, z), lift);
                let wall = a.water.as_ref().and_then(|w| w.shape(&mut shape, x, z));
                if let (Some(wall), Some(r), true) =
                    (wall, &self.relief, eroded && self.wall_gullies)
                {
                    wall::cut_gullies(r, g, &mut shape, x, z, wall);
                }
                (shape, wall)
            }
            _ => (self.flat, None),
        }
    }

    /// Whether the field is solid (caves and trees aside) at height `y` of block
    /// column `(x, z)`, whose lattice cell's corners are shaped `c` (`[north-west,
    /// north-east, south-west, south-east]`): fully evaluated corners interpolated as
    /// a chunk's lattice does it, so the same verdict as its blocks, bit for bit. A
    /// corner of zero weight is never evaluated, and a level pair beyond every
    /// corner's bounds needs no noise.
    fn solid_at(&self, c: [&ColumnShape; 4], x: i32, y: i32, z: i32) -> bool {
        let (highest, lowest) = ColumnShape::bounds(c.iter().copied(), self.cfg.threshold);
        let y0 = y.div_euclid(STEP_Y) * STEP_Y;
        if y0 as f64 >= highest {
            return false;
        }
        if ((y0 + STEP_Y) as f64) < lowest {
            return true;
        }
        let (x0, z0) = (
            x.div_euclid(STEP_XZ) * STEP_XZ,
            z.div_euclid(STEP_XZ) * STEP_XZ,
        );
        let (tx, tz, ty) = (frac(x, STEP_XZ), frac(z, STEP_XZ), frac(y, STEP_Y));
        let level = |ly: i32| {
            let yf = ly as f64;
            let v = |s: &ColumnShape, cx: i32, cz: i32, weight: f64| {
                if weight == 0.0 {
                    0.0
                } else {
                    self.value(s, self.lattice_noise(cx, ly, cz), yf)
                }
            };
            let (x1, z1) = (x0 + STEP_XZ, z0 + STEP_XZ);
            let north = lerp(v(c[0], x0, z0, 1.0), v(c[1], x1, z0, tx), tx);
            let south = lerp(v(c[2], x0, z1, tz), v(c[3], x1, z1, tx * tz), tx);
            lerp(north, south, tz)
        };
        let above = if ty == 0.0 { 0.0 } else { level(y0 + STEP_Y) };
        lerp(level(y0), above, ty) > 0.0
    }

    /// The noise at lattice point `(x, y, z)`, as [`DensityGen::solid_at`] reads it:
    /// kept a while by this thread ([`LATTICE_NOISE`]), since a walk up a column
    /// and the columns of one lattice cell ask the same points again; the same value,
    /// bit for bit, as evaluating it.
    fn lattice_noise(&self, x: i32, y: i32, z: i32) -> f64 {
        LATTICE_NOISE.with_borrow_mut(|kept| {
            if kept.is_empty() {
                kept.resize(NOISE_SLOTS, (u64::MAX, [0; 3], 0.0));
            }
            let key = [x, y, z];
            let slot = (crate::mix::mix64(
                self.id ^ (x as u32 as u64) << 40 ^ (y as u32 as u64) << 20 ^ z as u32 as u64,
            ) % NOISE_SLOTS as u64) as usize;
            match kept[slot] {
                (id, k, n) if id == self.id && k == key => n,
                _ => {
                    let n = self.fbm.get3(x as f64, y as f64, z as f64);
                    kept[slot] = (self.id, key, n);
                    n
                }
            }
        })
    }

    /// `density - threshold` for a noise value `n` at height `y` in a column.
    #[inline]
    fn value(&self, s: &ColumnShape, n: f64, y: f64) -> f64 {
        let cliff = (n * 0.5 + 0.5) * s.cliff;
        (n + cliff) * s.scale + s.offset - y - self.cfg.threshold
    }

    /// The octave sum at which the density at height `y` of a column shaped `s`
    /// crosses the threshold (`value` is increasing in `n`, and `n = sum / amp`, with
    /// `amp` the amplitude sum): a partial sum further from it than the octaves left
    /// can add decides the sign.
    #[inline]
    fn root(&self, s: &ColumnShape, y: f64, amp: f64) -> f64 {
        let slope = s.scale * (1.0 + 0.5 * s.cliff);
        (y + self.cfg.threshold - s.offset - 0.5 * s.cliff * s.scale) / slope * amp
    }

    /// One chunk, with padding, and the grass tints of its columns (with nature).
    ///
    /// Lattice points are evaluated octave by octave. After each octave the partial
    /// sum bounds the final value; a lattice cell whose eight corners are all provably
    /// solid (or all provably not) is decided, and a point stops as soon as every cell
    /// it belongs to is decided. Cells the surface really crosses get exact corner
    /// values and are interpolated block by block. The result equals interpolating
    /// fully evaluated corners everywhere, bit for bit.
    pub(crate) fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let lat = Lattice::new(if self.trees() { TREED } else { PLAIN });
        let o = pos.origin();
        let cols = self.columns_cached(o, &lat);
        // Without fields every column has the same shape: one is enough.
        let shapes: &[ColumnShape] = match &cols {
            Some(c) => &c.shapes,
            None => std::slice::from_ref(&self.flat),
        };
        let lattice_shapes = (0..shapes.len().min(lat.nxz * lat.nxz))
            .map(|c| &shapes[c / lat.nxz * WIDE + c % lat.nxz]);
        // Air from here up, solid below there, in every column of this chunk.
        let (highest, lowest) = ColumnShape::bounds(lattice_shapes, self.cfg.threshold);
        let (air_from, solid_below) = (highest + 1.0, lowest - 1.0);
        let oy = pos.y * CHUNK;
        let crowns = if self.trees() { TALLEST as f64 } else { 0.0 };
        let water = cols.as_ref().and_then(|c| c.water.clone());
        let wet_top = water
            .as_ref()
            .map_or(f64::NEG_INFINITY, |w| w.highest as f64);
        if (oy - 1) as f64 >= (air_from + crowns).max(wet_top) {
            return (self.surface.fluid_chunk(pos), None);
        }
        // Rock all through, unless a column is opened down to its water here.
        let opens = water
            .as_ref()
            .is_some_and(|w| w.opens_between(oy - 1, oy + CHUNK));
        if ((oy + TOP) as f64) < solid_below && !opens {
            let rock = Chunk::Uniform(Block::Stone);
            return match &self.caves {
                Some(c) if !c.below_floor((oy + TOP) as f64) => {
                    // Solid rock all through, but caves may run through it.
                    let field = Field::new(o, &lat, Sign::Solid);
                    let carved = self.carve(c, o, &lat, &field, shapes, true);
                    let wet = water.as_deref();
                    (
                        self.dig(c, rock, pos, &lat, None, None, carved.as_deref(), wet),
                        None,
                    )
                }
                _ => (rock, None),
            };
        }
        let looks = cols.as_ref().and_then(|c| self.looks(o, &lat, c));
        let mut field = Field::new(o, &lat, Sign::Unknown);
        let needed = looks.as_ref().map(|l| &*l.needed);
        let masks = self.masks_for(lat.region, shapes, needed, &mut field);
        let trunks = looks.as_ref().map(|l| trunk_columns(&l.trees, o));
        let (chunk, mut tints) = self.finish(pos, &lat, &masks, cols.as_ref(), looks);
        let chunk = match &self.caves {
            Some(c) => {
                let carved = self.carve(c, o, &lat, &field, shapes, false);
                let (masks, trunks) = (Some(&masks), trunks.as_deref());
                let (carved, wet) = (carved.as_deref(), water.as_deref());
                self.dig(c, chunk, pos, &lat, masks, trunks, carved, wet)
            }
            None => chunk,
        };
        match water {
            Some(w) => {
                if let Some(t) = tints.as_deref_mut() {
                    w.set_flows(t);
                }
                (flood::flood(chunk, pos, &w, self.surface.sea_level), tints)
            }
            None => (chunk, tints),
        }
    }

    /// The same chunk by evaluating the formula at every block (with each block
    /// column's own parameters), with no lattice and no early-outs: the yardstick for
    /// benchmarks and for checking the interpolation. Biomes and trees as in
    /// [`DensityGen::generate`].
    pub(crate) fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        let lat = Lattice::new(if self.trees() { TREED } else { PLAIN });
        let (o, r) = (pos.origin(), lat.region);
        let mut masks = [0u64; MAX_COLUMNS];
        for lz in r.lo..=r.hi {
            for lx in r.lo..=r.hi {
                let (x, z) = (o.x + lx, o.z + lz);
                let s = self.shape(self.grid(x, z, x, z).as_ref(), x, z, true);
                for ly in r.ylo..=TOP {
                    let y = (o.y + ly) as f64;
                    if self.value(&s, self.fbm.get3(x as f64, y, z as f64), y) > 0.0 {
                        masks[r.column(lx, lz)] |= 1 << (ly - r.ylo);
                    }
                }
            }
        }
        let cols = self.columns(o, &lat);
        let looks = cols.as_ref().and_then(|c| self.looks(o, &lat, c));
        let trunks = looks.as_ref().map(|l| trunk_columns(&l.trees, o));
        let chunk = self.finish(pos, &lat, &masks, cols.as_ref(), looks).0;
        let water = cols.as_ref().and_then(|c| c.water.as_deref());
        let chunk = match &self.caves {
            // The caves are defined on the lattice: the same carving.
            Some(c) => {
                let shapes = cols
                    .as_ref()
                    .map_or(std::slice::from_ref(&self.flat), |c| &c.shapes[..]);
                let field = Field::new(o, &lat, Sign::Unknown);
                let carved = self.carve(c, o, &lat, &field, shapes, false);
                let trunks = trunks.as_deref();
                let carved = carved.as_deref();
                self.dig(c, chunk, pos, &lat, Some(&masks), trunks, carved, water)
            }
            None => chunk,
        };
        match water {
            Some(w) => flood::flood(chunk, pos, w, self.surface.sea_level),
            None => chunk,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::DensityGen;
    use crate::config::world::{GeneratorConfig, WorldConfig};

    /// The density generator of `cfg` (a density world).
    pub(crate) fn generator(cfg: &WorldConfig) -> DensityGen {
        let GeneratorConfig::Density(d) = &cfg.generator else {
            panic!("a density world")
        };
        DensityGen::new(
            d,
            cfg.seed.value(),
            cfg.sea_level,
            cfg.version,
            cfg.nature.as_ref(),
        )
    }
}
