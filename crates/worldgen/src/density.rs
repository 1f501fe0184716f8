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
//! With trees on, a chunk computes solidity over a wider [`Region`]: [`CROWN`] more
//! columns each side and [`TALLEST`] more blocks below, where the trunks of trees
//! reaching into it stand.

mod coarse;

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints, PADDED, PADDED_VOLUME};

use crate::biome::{self, Biome, Kind};
use crate::caves::{self, Caves};
use crate::climate::{CoarseGrid, ColumnShape, FieldNoise, Fields};
use crate::config::{DensityConfig, NatureConfig};
use crate::fbm::Fbm;
use crate::surface::Surface;
use crate::trees::{self, CROWN, TALLEST};

/// Lattice spacing across (x and z), in blocks.
pub const STEP_XZ: i32 = 4;
/// Lattice spacing up (y), in blocks.
pub const STEP_Y: i32 = 8;
/// Cave lattice spacing, across and up: every other terrain lattice column, every
/// terrain level.
const CAVE_STEP: i32 = 8;
/// Local x and z of the cave lattice's first point (world-aligned: chunks are 32
/// wide); its points run to local 36, the last lattice column whose shape a chunk
/// with caves knows.
const CAVE_FIRST: i32 = -4;
/// Cave lattice points a side: local -4, 4, ..., 36.
const CAVE_POINTS: usize = 6;
/// Cave lattice levels: local -8, 0, ..., 40 (the terrain's).
const CAVE_LEVELS: usize = 7;
/// The corners of a cave cell, `(di, dk, dj)`, ordered like the terrain's.
const CORNERS: [(usize, usize, usize); 8] = [
    (0, 0, 0),
    (1, 0, 0),
    (0, 1, 0),
    (1, 1, 0),
    (0, 0, 1),
    (1, 0, 1),
    (0, 1, 1),
    (1, 1, 1),
];

/// Blocks above the padded chunk looked at to find the surface depth.
const LOOKAHEAD: i32 = 4;
/// Local `y` of the highest block whose solidity is computed.
const TOP: i32 = CHUNK + LOOKAHEAD;

/// The block columns (`lo..=hi` on x and z) and heights (`ylo..=TOP`) whose solidity
/// a chunk computes, in local coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Region {
    lo: i32,
    hi: i32,
    ylo: i32,
}

/// The padded chunk (and the look-ahead above it for the surface depth).
const PLAIN: Region = Region {
    lo: -1,
    hi: CHUNK,
    ylo: -1,
};
/// The padded chunk plus the columns on its low sides where the trunks of trees
/// reaching into it stand (they lie in the lattice cells the chunk evaluates anyway),
/// from the lowest height the chunk's lattice covers anyway. Trunks on the high
/// sides (up to [`REACH_HI`]) and soil further down (from [`LOWEST_SOIL`]) are
/// looked up for the trunks that need it ([`DensityGen::column_bits`]).
const TREED: Region = Region {
    lo: -1 - CROWN,
    hi: CHUNK,
    ylo: -STEP_Y,
};

/// The highest local column of a trunk of a tree reaching into the padded chunk.
const REACH_HI: i32 = CHUNK + CROWN;

/// The lowest local height of the soil of a tree reaching into the padded chunk.
const LOWEST_SOIL: i32 = -1 - TALLEST;

impl Region {
    /// Block columns across.
    const fn width(self) -> usize {
        (self.hi - self.lo + 1) as usize
    }

    /// Index of block column `(lx, lz)`.
    #[inline]
    const fn column(self, lx: i32, lz: i32) -> usize {
        (lz - self.lo) as usize * self.width() + (lx - self.lo) as usize
    }
}

/// The lattice points covering local `lo..=hi` at `step`: the first point's local
/// coordinate and how many points.
const fn axis(lo: i32, hi: i32, step: i32) -> (i32, usize) {
    let first = lo.div_euclid(step);
    let last = hi.div_euclid(step) + (hi.rem_euclid(step) != 0) as i32;
    (first * step, (last - first + 1) as usize)
}

const MAX_W: usize = TREED.width();
const MAX_COLUMNS: usize = MAX_W * MAX_W;
const MAX_NXZ: usize = axis(TREED.lo, TREED.hi, STEP_XZ).1;
/// Lattice columns a side whose shapes a chunk knows: one more than it evaluates,
/// for the trunks beyond its high sides.
const WIDE: usize = axis(TREED.lo, REACH_HI, STEP_XZ).1;
/// Lattice levels a trunk's column may need, from below [`LOWEST_SOIL`] up.
const LEVELS: usize = axis(LOWEST_SOIL, TOP, STEP_Y).1;
const MAX_NY: usize = axis(TREED.ylo, TOP, STEP_Y).1;
const MAX_NP: usize = MAX_NXZ * MAX_NXZ * MAX_NY;
const MAX_CELLS: usize = MAX_NXZ * MAX_NXZ * MAX_NY;

/// Interpolation `a + (b - a) * t`. With finite values it is exactly `a` when
/// `t == 0`, which is what lets a chunk's padding equal its neighbour's blocks bit for
/// bit, and it is monotonic in `t`.
#[inline]
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// The interpolation fraction of a local coordinate inside its lattice cell.
const fn frac(local: i32, step: i32) -> f64 {
    local.rem_euclid(step) as f64 / step as f64
}

/// [`frac`] across for local `TREED.lo..=TREED.hi`, indexed by `local - TREED.lo`.
const FRAC_XZ: [f64; MAX_W] = {
    let mut t = [0.0; MAX_W];
    let mut i = 0;
    while i < MAX_W {
        t[i] = frac(i as i32 + TREED.lo, STEP_XZ);
        i += 1;
    }
    t
};

const NY_BLOCKS: usize = (TOP - TREED.ylo + 1) as usize;
/// [`frac`] up for local `TREED.ylo..=TOP`, indexed by `local - TREED.ylo`.
const FRAC_Y: [f64; NY_BLOCKS] = {
    let mut t = [0.0; NY_BLOCKS];
    let mut i = 0;
    while i < NY_BLOCKS {
        t[i] = frac(i as i32 + TREED.ylo, STEP_Y);
        i += 1;
    }
    t
};

#[inline]
fn frac_xz(local: i32) -> f64 {
    FRAC_XZ[(local - TREED.lo) as usize]
}

#[inline]
fn frac_y(local: i32) -> f64 {
    FRAC_Y[(local - TREED.ylo) as usize]
}

/// About the noise octaves [`DensityGen::surely_sea`] evaluates: the column fields at
/// up to four coarse points.
pub(crate) const SEA_CHECK_COST: usize = 4 * 16;

/// Biomes and trees of a density world (version 2).
#[derive(Clone, Debug)]
struct Nature {
    seed: u64,
    tree_density: f64,
    tree_spacing: i32,
}

/// The density generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct DensityGen {
    fbm: Fbm,
    cfg: DensityConfig,
    pub surface: Surface,
    /// The column fields, when the world has a shape or nature.
    fields: Option<FieldNoise>,
    /// The formula's parameters where there is no shape.
    flat: ColumnShape,
    nature: Option<Nature>,
    caves: Option<Box<Caves>>,
}

/// A chunk's lattice: which points, where.
#[derive(Clone, Copy, Debug)]
struct Lattice {
    region: Region,
    /// Points across and up.
    nxz: usize,
    ny: usize,
    /// Local coordinates of the first point across and up.
    lx0: i32,
    ly0: i32,
}

impl Lattice {
    fn new(region: Region) -> Self {
        let (lx0, nxz) = axis(region.lo, region.hi, STEP_XZ);
        let (ly0, ny) = axis(region.ylo, TOP, STEP_Y);
        Self {
            region,
            nxz,
            ny,
            lx0,
            ly0,
        }
    }

    fn points(&self) -> usize {
        self.nxz * self.nxz * self.ny
    }

    /// The local coordinates (inclusive) covered by cell `c` across, clipped to the
    /// region; `None` when it covers none.
    #[inline]
    fn span_xz(&self, c: usize) -> Option<(i32, i32)> {
        let start = self.lx0 + c as i32 * STEP_XZ;
        let (a, b) = (
            start.max(self.region.lo),
            (start + STEP_XZ - 1).min(self.region.hi),
        );
        (a <= b).then_some((a, b))
    }

    /// The heights (inclusive) covered by cell `j` up.
    #[inline]
    fn span_y(&self, j: usize) -> (i32, i32) {
        let start = self.ly0 + j as i32 * STEP_Y;
        (start.max(self.region.ylo), (start + STEP_Y - 1).min(TOP))
    }

    /// Calls `f(corners, x span, z span, j)` for every lattice cell touching the
    /// region; `corners` are point indices ordered `[j][k][i]`, spans are the local
    /// coordinates the cell covers. Cells at the far edge across may be planes whose
    /// "far" corners repeat the near ones (their fraction is 0).
    fn for_each_cell(&self, mut f: impl FnMut([usize; 8], (i32, i32), (i32, i32), usize)) {
        let n = self.nxz;
        let idx = |i: usize, k: usize, j: usize| (j * n + k) * n + i;
        let mut cells = [(0, (0, 0)); MAX_NXZ];
        let mut count = 0;
        for c in 0..n {
            if let Some(span) = self.span_xz(c) {
                cells[count] = (c, span);
                count += 1;
            }
        }
        let cells = &cells[..count];
        for j in 0..self.ny - 1 {
            for &(ck, zspan) in cells {
                let k1 = (ck + 1).min(n - 1);
                for &(ci, xspan) in cells {
                    let i1 = (ci + 1).min(n - 1);
                    let corners = [
                        idx(ci, ck, j),
                        idx(i1, ck, j),
                        idx(ci, k1, j),
                        idx(i1, k1, j),
                        idx(ci, ck, j + 1),
                        idx(i1, ck, j + 1),
                        idx(ci, k1, j + 1),
                        idx(i1, k1, j + 1),
                    ];
                    f(corners, xspan, zspan, j);
                }
            }
        }
    }
}

/// What a chunk's evaluation knows of the field at its lattice points, `[j][k][i]`:
/// where they are, the octaves summed so far (and the first alone), the exact value
/// where all were summed, and the sign where it is known.
struct Field {
    world: [(f64, f64, f64); MAX_NP],
    sums: [f64; MAX_NP],
    /// The first octave alone.
    first: [f64; MAX_NP],
    done: [u8; MAX_NP],
    values: [f64; MAX_NP],
    sign: [Sign; MAX_NP],
}

impl Field {
    /// Nothing evaluated yet at the points of `lat`, whose signs are `sign`.
    fn new(o: terravox_voxel::BlockPos, lat: &Lattice, sign: Sign) -> Self {
        let n = lat.nxz;
        let mut world = [(0.0, 0.0, 0.0); MAX_NP];
        for (p, w) in world.iter_mut().enumerate().take(lat.points()) {
            let (i, k, j) = ((p % n) as i32, ((p / n) % n) as i32, (p / (n * n)) as i32);
            *w = (
                (o.x + lat.lx0 + i * STEP_XZ) as f64,
                (o.y + lat.ly0 + j * STEP_Y) as f64,
                (o.z + lat.lx0 + k * STEP_XZ) as f64,
            );
        }
        Self {
            world,
            sums: [0.0; MAX_NP],
            first: [0.0; MAX_NP],
            done: [0; MAX_NP],
            values: [0.0; MAX_NP],
            sign: [sign; MAX_NP],
        }
    }
}

/// The blocks caves carve out of a chunk, per padded column (`(lz + 1) * PADDED +
/// lx + 1`, bit `ly + 1` for local heights `-1..=CHUNK + 1`): cave air, and the rock
/// right next to a cave.
struct Carved {
    air: [u64; PADDED * PADDED],
    shell: [u64; PADDED * PADDED],
}

/// The biome looks of a chunk's columns and its trees.
struct Looks {
    /// The look of every padded column, `(lz + 1) * PADDED + lx + 1`.
    kinds: Box<[Kind; PADDED * PADDED]>,
    tints: Box<ColumnTints>,
    /// The region's columns where a tree's trunk stands.
    needed: Box<[bool; MAX_COLUMNS]>,
    /// Those trees: trunk, species, and the look of the trunk's column.
    trees: Vec<(trees::Trunk, trees::Species, Kind)>,
}

/// Local coordinate of the biome grid's first point: at or before every column of
/// the widest region.
const BIOME_FIRST: i32 = TREED.lo.div_euclid(biome::STEP) * biome::STEP;
/// Biome grid points a side, enough to hold every column of the widest region and
/// the next point.
const BIOME_POINTS: usize = ((TREED.hi - BIOME_FIRST) / biome::STEP + 2) as usize;

/// What a chunk knows about its lattice columns and block columns.
struct Columns {
    /// Formula parameters per lattice column, `[k][i]`.
    shapes: [ColumnShape; WIDE * WIDE],
    /// The biome of every lattice column, with nature.
    /// The biomes on the biome grid (every [`biome::STEP`] blocks from local
    /// [`BIOME_FIRST`], [`BIOME_POINTS`] a side), `[k][i]`, with nature.
    biomes: Option<[Biome; BIOME_POINTS * BIOME_POINTS]>,
}

impl DensityGen {
    pub fn new(
        cfg: &DensityConfig,
        seed: u64,
        sea_level: i32,
        nature: Option<&NatureConfig>,
    ) -> Self {
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
            .then(|| FieldNoise::new(seed, cfg.shape.as_ref(), nature));
        Self {
            fbm,
            cfg: cfg.clone(),
            surface: Surface {
                sea_level,
                snow_line: cfg.snow_line,
            },
            fields,
            flat: ColumnShape::flat(cfg, sea_level),
            nature: nature.map(|n| Nature {
                seed,
                tree_density: n.tree_density,
                tree_spacing: n.tree_spacing,
            }),
            caves: cfg
                .caves
                .as_ref()
                .map(|c| Box::new(Caves::new(c, seed, sea_level))),
        }
    }

    /// Whether chunks grow trees.
    fn trees(&self) -> bool {
        self.nature.as_ref().is_some_and(|n| n.tree_density > 0.0)
    }

    /// The formula's parameters at a column with fields `f`.
    #[inline]
    fn shape(&self, f: &Fields) -> ColumnShape {
        match &self.cfg.shape {
            Some(s) => ColumnShape::shaped(&self.cfg, s, self.surface.sea_level, f),
            None => ColumnShape::flat(&self.cfg, self.surface.sea_level),
        }
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

    /// Lattice node `(lx, ly, lz)` (lattice coordinates; in `f64`, so nodes next to
    /// the ends of the `i32` range do not overflow) of a column shaped `s`, with no
    /// octave summed yet; `amp` is the amplitude sum.
    fn walk_node(&self, s: &ColumnShape, [lx, ly, lz]: [i32; 3], amp: f64) -> WalkNode {
        let y = ly as f64 * STEP_Y as f64;
        WalkNode {
            at: (lx as f64 * STEP_XZ as f64, y, lz as f64 * STEP_XZ as f64),
            root: self.root(s, y, amp),
            sum: 0.0,
            done: 0,
            sign: Sign::Unknown,
            value: None,
        }
    }

    /// Sums node `n`'s next octave and updates what is known of its sign, with the
    /// bounds and margin `eps` of [`DensityGen::masks`]; after the last octave, its
    /// exact value.
    #[inline]
    fn walk_step(&self, s: &ColumnShape, n: &mut WalkNode, eps: f64) {
        let (x, y, z) = n.at;
        n.sum += self.fbm.octave3(n.done, x, y, z);
        n.done += 1;
        if n.done == self.fbm.octaves() {
            let v = self.value(s, self.fbm.finish(n.sum), y);
            n.value = Some(v);
            n.sign = if v > 0.0 { Sign::Solid } else { Sign::Empty };
        } else {
            let rest = self.fbm.rest(n.done);
            n.sign = if n.sum - rest > n.root + eps {
                Sign::Solid
            } else if n.sum + rest < n.root - eps {
                Sign::Empty
            } else {
                Sign::Unknown
            };
        }
    }

    /// The field at a lattice point (lattice coordinates) of a column shaped `s`, every
    /// octave summed: what [`DensityGen::column_top`] must agree with.
    #[cfg(test)]
    fn lattice(&self, s: &ColumnShape, lx: i32, ly: i32, lz: i32) -> f64 {
        let y = ly as f64 * STEP_Y as f64;
        let n = self
            .fbm
            .get3(lx as f64 * STEP_XZ as f64, y, lz as f64 * STEP_XZ as f64);
        self.value(s, n, y)
    }

    /// The shapes of a chunk's lattice columns and the biomes of its biome grid.
    /// `None` without fields (every column is shaped alike: `flat`).
    fn columns(&self, o: terravox_voxel::BlockPos, lat: &Lattice) -> Option<Columns> {
        let n = lat.nxz;
        let fields = self.fields.as_ref()?;
        let mut cols = Columns {
            shapes: [self.flat; WIDE * WIDE],
            biomes: None,
        };
        let far = (BIOME_FIRST + (BIOME_POINTS as i32 - 1) * biome::STEP)
            .max(lat.lx0 + (WIDE as i32 - 1) * STEP_XZ);
        let coarse = fields.grid(
            o.x + BIOME_FIRST.min(lat.lx0),
            o.z + BIOME_FIRST.min(lat.lx0),
            o.x + far,
            o.z + far,
        );
        // One lattice column more than the chunk evaluates when trees or caves need it.
        let n = if self.trees() || self.caves.is_some() {
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
                cols.shapes[k * WIDE + i] = self.shape(&coarse.at(x, z));
            }
        }
        if self.nature.is_some() {
            cols.biomes = Some(std::array::from_fn(|p| {
                let (i, k) = ((p % BIOME_POINTS) as i32, (p / BIOME_POINTS) as i32);
                let (x, z) = (
                    o.x + BIOME_FIRST + i * biome::STEP,
                    o.z + BIOME_FIRST + k * biome::STEP,
                );
                self.biome(&coarse.at(x, z))
            }));
        }
        Some(cols)
    }

    /// The biome of a biome grid point with fields `f`.
    fn biome(&self, f: &Fields) -> Biome {
        let s = self.shape(f);
        biome::choose(f, s.height, s.river)
    }

    /// One chunk, with padding, and the grass tints of its columns (with nature).
    ///
    /// Lattice points are evaluated octave by octave. After each octave the partial
    /// sum bounds the final value; a lattice cell whose eight corners are all provably
    /// solid (or all provably not) is decided, and a point stops as soon as every cell
    /// it belongs to is decided. Cells the surface really crosses get exact corner
    /// values and are interpolated block by block. The result equals interpolating
    /// fully evaluated corners everywhere, bit for bit.
    pub fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let lat = Lattice::new(if self.trees() { TREED } else { PLAIN });
        let o = pos.origin();
        let cols = self.columns(o, &lat);
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
        if (oy - 1) as f64 >= air_from + crowns {
            return (self.surface.fluid_chunk(pos), None);
        }
        if ((oy + TOP) as f64) < solid_below {
            let rock = Chunk::Uniform(Block::Stone);
            return match &self.caves {
                Some(c) if !c.below_floor((oy + TOP) as f64) => {
                    // Solid rock all through, but caves may run through it.
                    let field = Field::new(o, &lat, Sign::Solid);
                    let carved = self.carve(c, o, &lat, &field, shapes, true);
                    (
                        self.dig(c, rock, pos, &lat, None, None, carved.as_deref()),
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
        let (chunk, tints) = self.finish(pos, &lat, &masks, cols.as_ref(), looks);
        match &self.caves {
            Some(c) => {
                let carved = self.carve(c, o, &lat, &field, shapes, false);
                let (masks, trunks) = (Some(&masks), trunks.as_deref());
                let chunk = self.dig(c, chunk, pos, &lat, masks, trunks, carved.as_deref());
                (chunk, tints)
            }
            None => (chunk, tints),
        }
    }

    /// The lowest density the terrain can have at a lattice point (local `lx, ly,
    /// lz`) given its first octave: at most its depth below the surface, in blocks,
    /// and so a conservative depth for the caves' fades. `None` when it is at least
    /// `deep`. The first octave is the one the chunk summed first, when the point is
    /// on its lattice; one noise lookup otherwise.
    fn depth_at(
        &self,
        o: terravox_voxel::BlockPos,
        lat: &Lattice,
        shapes: &[ColumnShape],
        field: &Field,
        [lx, ly, lz]: [i32; 3],
        deep: f64,
    ) -> Option<f64> {
        let (i, k) = ((lx - lat.lx0) / STEP_XZ, (lz - lat.lx0) / STEP_XZ);
        let j = (ly - lat.ly0) / STEP_Y;
        let s = if shapes.len() == 1 {
            &shapes[0]
        } else {
            &shapes[k as usize * WIDE + i as usize]
        };
        let (x, y, z) = ((o.x + lx) as f64, (o.y + ly) as f64, (o.z + lz) as f64);
        let n = lat.nxz as i32;
        let first = match (i < n && k < n).then(|| ((j * n + k) * n + i) as usize) {
            Some(p) if field.done[p] > 0 => field.first[p],
            _ => self.fbm.octave3(0, x, y, z),
        };
        let n = self.fbm.finish(first - self.fbm.rest(1));
        Some(self.value(s, n, y)).filter(|&d| d < deep)
    }

    /// The cave air and the rock next to caves in the padded chunk (and one block
    /// above it): the carve values on the cave lattice (every [`CAVE_STEP`] blocks,
    /// world-aligned, every other lattice column of the terrain's) at the corners of
    /// every cave cell that is not all air, interpolated trilinearly. `None` when no
    /// cave comes near.
    fn carve(
        &self,
        caves: &Caves,
        o: terravox_voxel::BlockPos,
        lat: &Lattice,
        field: &Field,
        shapes: &[ColumnShape],
        all_solid: bool,
    ) -> Option<Box<Carved>> {
        const N: usize = CAVE_POINTS;
        const NY: usize = CAVE_LEVELS;
        let point = |i: usize, k: usize, j: usize| (j * N + k) * N + i;
        let local = |i: usize| CAVE_FIRST + i as i32 * CAVE_STEP;
        let level = |j: usize| lat.ly0 + j as i32 * CAVE_STEP;
        // Whether the terrain cell with low corner (ti, tk, tj) is surely all air.
        let n = lat.nxz;
        let empty = |ti: usize, tk: usize, tj: usize| {
            !all_solid && ti + 1 < n && tk + 1 < n && tj + 1 < lat.ny && {
                let corners = CORNERS.map(|(di, dk, dj)| ((tj + dj) * n + tk + dk) * n + ti + di);
                cell_sign(&field.sign, corners) == Some(Sign::Empty)
            }
        };
        let deep = caves.deep();
        let mut carve = [f64::NAN; N * N * NY];
        let mut near = false;
        for cj in 0..NY - 1 {
            for ck in 0..N - 1 {
                for ci in 0..N - 1 {
                    // The cave cell covers two by two terrain cells of one level.
                    let (ti, tk) = (
                        (local(ci) - lat.lx0) as usize / 4,
                        (local(ck) - lat.lx0) as usize / 4,
                    );
                    let tj = (level(cj) - lat.ly0) as usize / STEP_Y as usize;
                    if (0..2).all(|a| (0..2).all(|b| empty(ti + a, tk + b, tj))) {
                        continue;
                    }
                    for (di, dk, dj) in CORNERS {
                        let p = point(ci + di, ck + dk, cj + dj);
                        if carve[p].is_nan() {
                            let l = [local(ci + di), level(cj + dj), local(ck + dk)];
                            let depth = self.depth_at(o, lat, shapes, field, l, deep);
                            let w = [o.x + l[0], o.y + l[1], o.z + l[2]].map(|v| v as f64);
                            carve[p] = caves.carve(w[0], w[1], w[2], depth);
                            near |= carve[p] > -caves::SHELL;
                        }
                    }
                }
            }
        }
        if !near {
            return None;
        }
        let mut out = Box::new(Carved {
            air: [0; PADDED * PADDED],
            shell: [0; PADDED * PADDED],
        });
        let frac = |l: i32, start: i32| (l - start) as f64 / CAVE_STEP as f64;
        for cj in 0..NY - 1 {
            let y0 = level(cj);
            let (ys, ye) = (y0.max(-1), (y0 + CAVE_STEP - 1).min(CHUNK + 1));
            if ys > ye {
                continue;
            }
            for ck in 0..N - 1 {
                for ci in 0..N - 1 {
                    let c = CORNERS.map(|(di, dk, dj)| carve[point(ci + di, ck + dk, cj + dj)]);
                    if c.iter().any(|v| v.is_nan()) || c.iter().all(|&v| v <= -caves::SHELL) {
                        continue;
                    }
                    let (x0, z0) = (local(ci), local(ck));
                    for lz in z0.max(-1)..=(z0 + CAVE_STEP - 1).min(CHUNK) {
                        for lx in x0.max(-1)..=(x0 + CAVE_STEP - 1).min(CHUNK) {
                            let (tx, tz) = (frac(lx, x0), frac(lz, z0));
                            let lo = lerp(lerp(c[0], c[1], tx), lerp(c[2], c[3], tx), tz);
                            let hi = lerp(lerp(c[4], c[5], tx), lerp(c[6], c[7], tx), tz);
                            let col = (lz + 1) as usize * PADDED + (lx + 1) as usize;
                            for ly in ys..=ye {
                                let v = lerp(lo, hi, frac(ly, y0));
                                if v > 0.0 {
                                    out.air[col] |= 1 << (ly + 1);
                                } else if v > -caves::SHELL {
                                    out.shell[col] |= 1 << (ly + 1);
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// Carves `carved` out of a chunk whose terrain solidity is `masks` (all solid
    /// when `None`): solid blocks with a positive carve value become cave air, unless
    /// water lies right above them, or they are the surface of a column where a tree
    /// may stand (`trunks`); stone right under cave air or next to it may turn into
    /// gravel, clay or ore.
    #[allow(clippy::too_many_arguments)]
    fn dig(
        &self,
        caves: &Caves,
        chunk: Chunk,
        pos: ChunkPos,
        lat: &Lattice,
        masks: Option<&[u64; MAX_COLUMNS]>,
        trunks: Option<&[bool; PADDED * PADDED]>,
        carved: Option<&Carved>,
    ) -> Chunk {
        let Some(carved) = carved else { return chunk };
        let r = lat.region;
        let o = pos.origin();
        let sea = self.surface.sea_level;
        // Terrain solidity of a padded column, bit `ly + 1`.
        let solid = |lx: i32, lz: i32| match masks {
            Some(m) => m[r.column(lx, lz)] >> (-1 - r.ylo) as u32,
            None => u64::MAX,
        };
        let uniform = match chunk {
            Chunk::Uniform(b) if !b.is_solid() => return chunk,
            Chunk::Uniform(b) => Some(b),
            Chunk::Dense(_) => None,
        };
        let mut blocks = match chunk {
            Chunk::Dense(b) => b,
            Chunk::Uniform(b) => terravox_voxel::dense_array(b),
        };
        let mut changed = false;
        for lz in -1..=CHUNK {
            for lx in -1..=CHUNK {
                let col = (lz + 1) as usize * PADDED + (lx + 1) as usize;
                let (air, shell) = (carved.air[col], carved.shell[col]);
                if air | shell == 0 {
                    continue;
                }
                let t = solid(lx, lz);
                // Cave air: solid and carved, with no water right above, and no tree.
                let mut cave = air & t;
                if trunks.is_some_and(|columns| columns[col]) {
                    cave &= t >> 1;
                }
                for ly in -1..=CHUNK + 1 {
                    let bit = 1u64 << (ly + 1);
                    if cave & bit != 0 && t & (bit << 1) == 0 && o.y + ly < sea {
                        cave &= !bit;
                    }
                }
                // Only the padded chunk's own heights (bits 0..=PADDED - 1).
                let own = (1u64 << PADDED) - 1;
                let mut bits = cave & own;
                while bits != 0 {
                    let ly = bits.trailing_zeros() as i32 - 1;
                    bits &= bits - 1;
                    blocks[terravox_voxel::padded_index(lx, ly, lz)] = Block::CaveAir;
                    changed = true;
                }
                // Rock under cave air or next to a cave.
                let mut bits = (shell | cave >> 1) & t & !cave & own;
                while bits != 0 {
                    let ly = bits.trailing_zeros() as i32 - 1;
                    bits &= bits - 1;
                    let bit = 1u64 << (ly + 1);
                    let i = terravox_voxel::padded_index(lx, ly, lz);
                    let floor = cave & (bit << 1) != 0;
                    let p = [o.x + lx, o.y + ly, o.z + lz];
                    let b = caves.decorate(blocks[i], p, floor, shell & bit != 0);
                    changed |= b != blocks[i];
                    blocks[i] = b;
                }
            }
        }
        match uniform {
            Some(b) if !changed => Chunk::Uniform(b),
            _ => Chunk::Dense(blocks),
        }
    }

    /// The looks of the padded columns, their tints, and the trees whose trunks stand
    /// in the region (with nature).
    fn looks(&self, o: terravox_voxel::BlockPos, lat: &Lattice, cols: &Columns) -> Option<Looks> {
        let (nature, biomes) = (self.nature.as_ref()?, cols.biomes.as_ref()?);
        let mut kinds = Box::new([0; PADDED * PADDED]);
        let tints = biome::columns(
            nature.seed,
            [o.x, o.z],
            (-1, CHUNK),
            BIOME_FIRST,
            biomes,
            &mut kinds[..],
        );
        let r = lat.region;
        let mut needed = Box::new([false; MAX_COLUMNS]);
        let mut trees = Vec::new();
        if nature.tree_density > 0.0 {
            let (x0, x1) = (o.x + r.lo, o.x + REACH_HI);
            let (z0, z1) = (o.z + r.lo, o.z + REACH_HI);
            for t in trees::trunks(nature.seed, nature.tree_spacing, x0, z0, x1, z1) {
                let (lx, lz) = (t.x - o.x, t.z - o.z);
                let padded = (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz);
                let kind = if padded {
                    kinds[(lz + 1) as usize * PADDED + (lx + 1) as usize]
                } else {
                    biome::lattice_kind(nature.seed, [o.x, o.z], BIOME_FIRST, biomes, lx, lz)
                };
                if let Some(species) = biome::biome_of(kind).tree(&t, nature.tree_density) {
                    if lx <= r.hi && lz <= r.hi {
                        needed[r.column(lx, lz)] = true;
                    }
                    trees.push((t, species, kind));
                }
            }
        }
        Some(Looks {
            kinds,
            tints,
            needed,
            trees,
        })
    }

    /// Blocks, biomes and trees from the solidity of a chunk's region.
    fn finish(
        &self,
        pos: ChunkPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        cols: Option<&Columns>,
        looks: Option<Looks>,
    ) -> (Chunk, Option<Box<ColumnTints>>) {
        let (Some(looks), Some(cols)) = (looks, cols) else {
            return (self.blocks_from_masks(pos, lat, masks, None), None);
        };
        let mut chunk = self.blocks_from_masks(pos, lat, masks, Some(&looks.kinds));
        self.plant(
            &mut chunk,
            pos.origin(),
            lat,
            masks,
            &cols.shapes,
            &looks.trees,
        );
        (chunk, Some(looks.tints))
    }

    /// [`DensityGen::masks`] for the chunk's region and shape, each combination
    /// compiled on its own so the lattice's sizes are constants.
    fn masks_for(
        &self,
        region: Region,
        shapes: &[ColumnShape],
        needed: Option<&[bool; MAX_COLUMNS]>,
        field: &mut Field,
    ) -> [u64; MAX_COLUMNS] {
        const P: (i32, i32, i32) = (PLAIN.lo, PLAIN.hi, PLAIN.ylo);
        const T: (i32, i32, i32) = (TREED.lo, TREED.hi, TREED.ylo);
        let shaped = self.cfg.shape.is_some();
        let f = field;
        match ((region.lo, region.hi, region.ylo), shaped) {
            (P, false) => self.masks::<{ P.0 }, { P.1 }, { P.2 }, false>(shapes, None, f),
            (P, true) => self.masks::<{ P.0 }, { P.1 }, { P.2 }, true>(shapes, None, f),
            (T, false) => self.masks::<{ T.0 }, { T.1 }, { T.2 }, false>(shapes, needed, f),
            _ => self.masks::<{ T.0 }, { T.1 }, { T.2 }, true>(shapes, needed, f),
        }
    }

    /// The solidity of every block of the region `LO..=HI` (columns) by `YLO..=TOP`:
    /// per column (see [`Region::column`]) bit `ly - YLO`; of the columns outside the
    /// padded chunk, only the `needed` ones (all when `None`). Without a shape every
    /// lattice column has the same parameters (`shapes[0]`).
    fn masks<const LO: i32, const HI: i32, const YLO: i32, const SHAPED: bool>(
        &self,
        shapes: &[ColumnShape],
        needed: Option<&[bool; MAX_COLUMNS]>,
        field: &mut Field,
    ) -> [u64; MAX_COLUMNS] {
        let lat = &Lattice::new(Region {
            lo: LO,
            hi: HI,
            ylo: YLO,
        });
        let shape = |p: usize| {
            if SHAPED {
                &shapes[p / lat.nxz % lat.nxz * WIDE + p % lat.nxz]
            } else {
                &shapes[0]
            }
        };
        let np = lat.points();
        let Field {
            world,
            sums,
            first,
            done,
            values,
            sign,
        } = field;

        let octaves = self.fbm.octaves();
        // Per lattice point: the octave sum at which the density crosses the threshold.
        let amp = self.fbm.rest(0);
        let mut roots = [0.0f64; MAX_NP];
        for p in 0..np {
            roots[p] = self.root(shape(p), world[p].1, amp);
        }
        let eps = 1e-6 * amp;

        let mut active = [false; MAX_NP];
        active[..np].fill(true);
        let mut decided = [false; MAX_CELLS];
        for m in 0..octaves {
            let last = m + 1 == octaves;
            let rest = self.fbm.rest(m + 1);
            for p in (0..np).filter(|&p| active[p]) {
                let (x, y, z) = world[p];
                sums[p] += self.fbm.octave3(m, x, y, z);
                if m == 0 {
                    first[p] = sums[p];
                }
                done[p] = (m + 1) as u8;
                let r = roots[p];
                sign[p] = if last {
                    values[p] = self.value(shape(p), self.fbm.finish(sums[p]), y);
                    if values[p] > 0.0 {
                        Sign::Solid
                    } else {
                        Sign::Empty
                    }
                } else if sums[p] - rest > r + eps {
                    Sign::Solid
                } else if sums[p] + rest < r - eps {
                    Sign::Empty
                } else {
                    Sign::Unknown
                };
            }
            if last {
                break;
            }
            active = [false; MAX_NP];
            let mut any = false;
            let mut c = 0;
            lat.for_each_cell(|corners, _, _, _| {
                if !decided[c] {
                    if cell_sign(sign, corners).is_some() {
                        decided[c] = true;
                    } else {
                        for p in corners {
                            active[p] = true;
                        }
                        any = true;
                    }
                }
                c += 1;
            });
            if !any {
                break;
            }
        }

        let r = lat.region;
        let mut masks = [0u64; MAX_COLUMNS];
        lat.for_each_cell(|corners, (xs, xe), (zs, ze), j| {
            let (ys, ye) = lat.span_y(j);
            let bits = ((1u64 << (ye - ys + 1)) - 1) << (ys - r.ylo);
            let decided = cell_sign(sign, corners);
            if decided == Some(Sign::Empty) {
                return;
            }
            for lz in zs..=ze {
                for lx in xs..=xe {
                    let c = r.column(lx, lz);
                    let inside = (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz);
                    if !inside && needed.is_some_and(|n| !n[c]) {
                        continue;
                    }
                    let mask = &mut masks[c];
                    match decided {
                        Some(Sign::Solid) => *mask |= bits,
                        Some(_) => {}
                        None => {
                            let c = corners.map(|n| values[n]);
                            let (tx, tz) = (frac_xz(lx), frac_xz(lz));
                            let lo = lerp(lerp(c[0], c[1], tx), lerp(c[2], c[3], tx), tz);
                            let hi = lerp(lerp(c[4], c[5], tx), lerp(c[6], c[7], tx), tz);
                            if lo > 0.0 && hi > 0.0 {
                                *mask |= bits;
                            } else if lo > 0.0 {
                                // `lerp` is monotonic in t: the solid blocks are a
                                // run from the bottom of the segment...
                                for ly in ys..=ye {
                                    if lerp(lo, hi, frac_y(ly)) <= 0.0 {
                                        break;
                                    }
                                    *mask |= 1 << (ly - r.ylo);
                                }
                            } else if hi > 0.0 {
                                // ...or a run from the top.
                                for ly in (ys..=ye).rev() {
                                    if lerp(lo, hi, frac_y(ly)) <= 0.0 {
                                        break;
                                    }
                                    *mask |= 1 << (ly - r.ylo);
                                }
                            }
                        }
                    }
                }
            }
        });
        masks
    }

    /// Turns the region's solidity bits into the padded chunk's blocks, layer by
    /// layer, with each column's biome look when there are biomes.
    fn blocks_from_masks(
        &self,
        pos: ChunkPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        kinds: Option<&[Kind; PADDED * PADDED]>,
    ) -> Chunk {
        let r = lat.region;
        // The padded columns, shifted so bit 0 is local -1 (the plain region's masks
        // already are); their looks.
        let mut copy = [0u64; PADDED * PADDED];
        let cols: &[u64] = if r == PLAIN {
            &masks[..PADDED * PADDED]
        } else {
            let shift0 = (-1 - r.ylo) as u32;
            for lz in -1..=CHUNK {
                for lx in -1..=CHUNK {
                    copy[(lz + 1) as usize * PADDED + (lx + 1) as usize] =
                        masks[r.column(lx, lz)] >> shift0;
                }
            }
            &copy
        };
        let present = kinds.map_or(0u32, |k| k.iter().fold(0, |p, &k| p | 1 << k));
        let (all, any) = cols.iter().fold((u64::MAX, 0), |(a, o), &m| (a & m, o | m));
        if any == 0 {
            return self.surface.fluid_chunk(pos);
        }
        if all & FULL == FULL {
            return Chunk::Uniform(Block::Stone);
        }
        let oy = pos.y * CHUNK;
        // Every layer is written once, in order: no pre-filled array.
        let mut blocks: Vec<Block> = Vec::with_capacity(PADDED_VOLUME);
        let mut luts = [[Block::Air; 32]; 2 * Biome::ALL.len()];
        for ly in -1..=CHUNK {
            let (y, shift) = (oy + ly, ly + 1);
            let fluid = self.surface.fluid_block(y);
            if any >> shift & 1 == 0 {
                blocks.resize(blocks.len() + PADDED * PADDED, fluid);
            } else if all >> shift & 0b11111 == 0b11111 {
                blocks.resize(blocks.len() + PADDED * PADDED, Block::Stone);
            } else {
                // The block for each pattern of this block and the four above it
                // (bit 0: solid here; bits 1..=4: solid above).
                let lut = |solid: &dyn Fn(i32) -> Block| -> [Block; 32] {
                    std::array::from_fn(|bits| {
                        if bits & 1 == 0 {
                            fluid
                        } else {
                            solid(((!bits >> 1) | 16).trailing_zeros() as i32)
                        }
                    })
                };
                match kinds {
                    None => {
                        let lut = lut(&|depth| self.surface.solid_block(y, depth));
                        blocks.extend(cols.iter().map(|&m| lut[(m >> shift) as usize & 31]));
                    }
                    Some(looks) => {
                        for k in (0..luts.len()).filter(|k| present >> k & 1 == 1) {
                            luts[k] = lut(&|depth| self.surface.biome_block(y, depth, k as Kind));
                        }
                        blocks.extend(
                            cols.iter()
                                .zip(looks.iter())
                                .map(|(&m, &k)| luts[k as usize][(m >> shift) as usize & 31]),
                        );
                    }
                }
            }
        }
        let blocks: Box<[Block; PADDED_VOLUME]> = blocks
            .into_boxed_slice()
            .try_into()
            .expect("PADDED_VOLUME blocks were written");
        Chunk::Dense(blocks)
    }

    /// Stamps the trees reaching into the chunk: on every soil block of a trunk
    /// column with air above it, at or above sea level.
    fn plant(
        &self,
        chunk: &mut Chunk,
        o: terravox_voxel::BlockPos,
        lat: &Lattice,
        masks: &[u64; MAX_COLUMNS],
        shapes: &[ColumnShape; WIDE * WIDE],
        trees: &[(trees::Trunk, trees::Species, Kind)],
    ) {
        let r = lat.region;
        let mut planted = Vec::new();
        let mut cache = [[None; LEVELS]; WIDE * WIDE];
        for &(t, species, kind) in trees {
            let (lx, lz) = (t.x - o.x, t.z - o.z);
            // Solidity from LOWEST_SOIL up (bit 0): from the masks inside the region,
            // computed for columns beyond it, and below it only where the region's
            // lowest block is air and the species grows tall enough to reach the
            // chunk from there.
            let m = if lx <= r.hi && lz <= r.hi {
                let below = (r.ylo - LOWEST_SOIL) as u32;
                let m = masks[r.column(lx, lz)] << below;
                if m >> below & 1 == 0 && r.ylo - 1 + species.tallest() >= -1 {
                    m | self.column_bits(o, lat, shapes, lx, lz, r.ylo - 1, &mut cache)
                } else {
                    m
                }
            } else {
                self.column_bits(o, lat, shapes, lx, lz, CHUNK, &mut cache)
            };
            // Soil at most at local 31, so the trunk starts inside the padding.
            for ly in LOWEST_SOIL..CHUNK {
                let (bit, y) = ((ly - LOWEST_SOIL) as u32, o.y + ly);
                if m >> bit & 0b11 == 0b01
                    && y >= self.surface.sea_level
                    && species.grows_on(self.surface.biome_block(y, 0, kind))
                {
                    planted.push(trees::Planted {
                        soil: [t.x, y, t.z],
                        species,
                        variant: t.variant(),
                    });
                }
            }
        }
        trees::stamp(chunk, o, &planted);
    }

    /// The solidity of block column `(lx, lz)` (local) from [`LOWEST_SOIL`] up to
    /// local `to` (bit 0 is `LOWEST_SOIL`), as the chunk's lattice extended to it
    /// would give it: the four lattice corners' values at the levels that matter
    /// (fully evaluated, and kept in `cache`), interpolated exactly as
    /// [`DensityGen::masks`] does. Level pairs wholly above or below every corner's
    /// possible surface need no noise.
    #[allow(clippy::too_many_arguments)]
    fn column_bits(
        &self,
        o: terravox_voxel::BlockPos,
        lat: &Lattice,
        shapes: &[ColumnShape; WIDE * WIDE],
        lx: i32,
        lz: i32,
        to: i32,
        cache: &mut [[Option<f64>; LEVELS]; WIDE * WIDE],
    ) -> u64 {
        let cell = |l: i32| {
            let c = (l - lat.lx0).div_euclid(STEP_XZ) as usize;
            (c, c + 1)
        };
        let ((i, i1), (k, k1)) = (cell(lx), cell(lz));
        let corners = [(i, k), (i1, k), (i, k1), (i1, k1)];
        let (highest, lowest) = ColumnShape::bounds(
            corners.iter().map(|&(ci, ck)| &shapes[ck * WIDE + ci]),
            self.cfg.threshold,
        );
        let base = LOWEST_SOIL.div_euclid(STEP_Y) * STEP_Y;
        let mut level = |q: usize| {
            let v = corners.map(|(ci, ck)| {
                *cache[ck * WIDE + ci][q].get_or_insert_with(|| {
                    let (x, z) = (
                        (o.x + lat.lx0 + ci as i32 * STEP_XZ) as f64,
                        (o.z + lat.lx0 + ck as i32 * STEP_XZ) as f64,
                    );
                    let y = (o.y + base + q as i32 * STEP_Y) as f64;
                    self.value(&shapes[ck * WIDE + ci], self.fbm.get3(x, y, z), y)
                })
            });
            let (tx, tz) = (frac(lx, STEP_XZ), frac(lz, STEP_XZ));
            lerp(lerp(v[0], v[1], tx), lerp(v[2], v[3], tx), tz)
        };
        let mut bits = 0;
        let mut pair: Option<(usize, f64, f64)> = None;
        for ly in LOWEST_SOIL..=to {
            let q = (ly - base).div_euclid(STEP_Y) as usize;
            let (y0, y1) = (
                (o.y + base + q as i32 * STEP_Y) as f64,
                (o.y + base + (q as i32 + 1) * STEP_Y) as f64,
            );
            let solid = if y0 >= highest {
                false
            } else if y1 < lowest {
                true
            } else {
                let (lo, hi) = match pair {
                    Some((p, lo, hi)) if p == q => (lo, hi),
                    _ => {
                        let v = (level(q), level(q + 1));
                        pair = Some((q, v.0, v.1));
                        v
                    }
                };
                lerp(lo, hi, frac(ly, STEP_Y)) > 0.0
            };
            if solid {
                bits |= 1 << (ly - LOWEST_SOIL);
            }
        }
        bits
    }

    /// The shapes of the four lattice columns around block column `(x, z)`
    /// (`[north-west, north-east, south-west, south-east]`) and the column's look.
    fn column(&self, x: i32, z: i32) -> ([ColumnShape; 4], Option<Kind>) {
        let shapes = self.corners(x, z, STEP_XZ).map(|(_, s)| s);
        let kind = self.nature.as_ref().map(|n| {
            let biomes = self.corners(x, z, biome::STEP).map(|(f, _)| self.biome(&f));
            biome::column_kind(n.seed, x, z, biomes)
        });
        (shapes, kind)
    }

    /// The fields and shapes at the four corners of the cell of a `step`-block grid
    /// holding column `(x, z)`: `[north-west, north-east, south-west, south-east]`.
    fn corners(&self, x: i32, z: i32, step: i32) -> [(Fields, ColumnShape); 4] {
        let (x0, z0) = (x.div_euclid(step) * step, z.div_euclid(step) * step);
        let (x1, z1) = (x0.saturating_add(step), z0.saturating_add(step));
        let coarse: Option<CoarseGrid> = self.fields.as_ref().map(|f| f.grid(x0, z0, x1, z1));
        [(x0, z0), (x1, z0), (x0, z1), (x1, z1)].map(|(cx, cz)| {
            let f = coarse.as_ref().map_or(Fields::default(), |g| g.at(cx, cz));
            (f, self.shape(&f))
        })
    }

    /// Whether column `(x, z)` surely lies under the sea: its shape alone puts its
    /// highest possible surface below sea level (about [`SEA_CHECK_COST`] octaves).
    pub fn surely_sea(&self, x: i32, z: i32) -> bool {
        self.cfg.shape.is_some() && {
            // The shapes only: no biome needed.
            let thr = self.cfg.threshold;
            self.corners(x, z, STEP_XZ)
                .iter()
                .all(|(_, s)| s.highest(thr) < self.surface.sea_level as f64)
        }
    }

    /// The biome of block column `(x, z)`, with nature.
    pub fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        self.column(x, z).1.map(biome::biome_of)
    }

    /// The most noise octaves [`DensityGen::column_top`] evaluates: four lattice
    /// columns at every level between the highest and lowest possible surface.
    pub fn column_cost(&self) -> usize {
        let (lowest, highest) = crate::validate::surface_range(&self.cfg, self.surface.sea_level);
        let levels = ((highest - lowest + 2.0) / STEP_Y as f64).ceil() as usize + 2;
        let fields = if self.fields.is_some() { 9 * 16 } else { 0 };
        levels * 4 * self.fbm.octaves() + fields
    }

    /// The highest solid block of a column (trees aside) and its block type.
    ///
    /// The column's value at a lattice level is the bilinear interpolation of its four
    /// lattice corners, as in a chunk, and its surface is found walking down from the
    /// highest possible one, a pair of levels at a time. Corners are summed octave by
    /// octave with the bounds chunks use: a pair whose corners are all proven empty
    /// holds no solid block and is passed without its exact values, and a corner whose
    /// weight is zero (a column on a lattice line) is never evaluated (`lerp(a, b, 0)`
    /// is `a`). The result is the full evaluation's, bit for bit; the work per level
    /// is at most four nodes' octaves, and the levels walked about the column's relief
    /// over [`STEP_Y`] at most (see [`crate::params::relief_work`]).
    pub fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let (shapes, kind) = self.column(x, z);
        let biome = kind.map(biome::biome_of);
        let (highest, lowest) = ColumnShape::bounds(shapes.iter(), self.cfg.threshold);
        let (air_from, solid_below) = (highest + 1.0, lowest - 1.0);
        let block = |y: i32| match kind {
            Some(k) => self.surface.biome_block(y, 0, k),
            None => self.surface.solid_block(y, 0),
        };
        let (xi, tx) = (x.div_euclid(STEP_XZ), frac(x, STEP_XZ));
        let (zi, tz) = (z.div_euclid(STEP_XZ), frac(z, STEP_XZ));
        // Corners `[north-west, north-east, south-west, south-east]` that count.
        let used = [true, tx != 0.0, tz != 0.0, tx != 0.0 && tz != 0.0];
        let amp = self.fbm.rest(0);
        let eps = 1e-6 * amp;
        let level = |ly: i32| -> [WalkNode; 4] {
            std::array::from_fn(|c| {
                let (dx, dz) = ((c & 1) as i32, (c >> 1) as i32);
                self.walk_node(&shapes[c], [xi + dx, ly, zi + dz], amp)
            })
        };
        // Whether every corner that counts is proven empty (summing only as many
        // octaves as that takes; a solid corner stops the proof).
        let empty = |nodes: &mut [WalkNode; 4]| {
            (0..4).filter(|&c| used[c]).all(|c| {
                let n = &mut nodes[c];
                while n.sign == Sign::Unknown {
                    self.walk_step(&shapes[c], n, eps);
                }
                n.sign == Sign::Empty
            })
        };
        // The bilinear value of a level, every octave of the corners that count summed.
        let exact = |nodes: &mut [WalkNode; 4]| {
            let mut v = [0.0; 4];
            for c in (0..4).filter(|&c| used[c]) {
                let n = &mut nodes[c];
                v[c] = loop {
                    match n.value {
                        Some(value) => break value,
                        None => self.walk_step(&shapes[c], n, eps),
                    }
                };
            }
            let row = |a: usize| {
                if used[a + 1] {
                    lerp(v[a], v[a + 1], tx)
                } else {
                    v[a]
                }
            };
            if used[2] {
                lerp(row(0), row(2), tz)
            } else {
                row(0)
            }
        };
        let top = air_from.ceil() as i32;
        let mut ly = top.div_euclid(STEP_Y) + 1;
        let mut upper = level(ly);
        loop {
            let mut lower = level(ly - 1);
            // Interpolating negative values gives negative values: a pair of levels
            // whose corners are all empty holds no solid block.
            if !(empty(&mut upper) && empty(&mut lower)) {
                let (hi, lo) = (exact(&mut upper), exact(&mut lower));
                for step in (0..STEP_Y).rev() {
                    let y = (ly - 1) * STEP_Y + step;
                    let t = step as f64 / STEP_Y as f64;
                    if lerp(lo, hi, t) > 0.0 {
                        return (y, block(y), biome);
                    }
                }
            }
            if (((ly - 1) * STEP_Y) as f64) < solid_below {
                // Unreachable by the bound, but never loop forever.
                return ((ly - 1) * STEP_Y, Block::Stone, biome);
            }
            upper = lower;
            ly -= 1;
        }
    }

    /// The same chunk by evaluating the formula at every block (with each block
    /// column's own parameters), with no lattice and no early-outs: the yardstick for
    /// benchmarks and for checking the interpolation. Biomes and trees as in
    /// [`DensityGen::generate`].
    pub fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        let lat = Lattice::new(if self.trees() { TREED } else { PLAIN });
        let (o, r) = (pos.origin(), lat.region);
        let mut masks = [0u64; MAX_COLUMNS];
        for lz in r.lo..=r.hi {
            for lx in r.lo..=r.hi {
                let (x, z) = (o.x + lx, o.z + lz);
                let f = self
                    .fields
                    .as_ref()
                    .map_or(Fields::default(), |f| f.at(x, z));
                let s = self.shape(&f);
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
        match &self.caves {
            // The caves are defined on the lattice: the same carving.
            Some(c) => {
                let shapes = cols
                    .as_ref()
                    .map_or(std::slice::from_ref(&self.flat), |c| &c.shapes[..]);
                let field = Field::new(o, &lat, Sign::Unknown);
                let carved = self.carve(c, o, &lat, &field, shapes, false);
                let trunks = trunks.as_deref();
                self.dig(c, chunk, pos, &lat, Some(&masks), trunks, carved.as_deref())
            }
            None => chunk,
        }
    }
}

/// The padded columns (`(lz + 1) * PADDED + lx + 1`) where the trunk of a tree stands.
fn trunk_columns(
    trees: &[(trees::Trunk, trees::Species, Kind)],
    o: terravox_voxel::BlockPos,
) -> Box<[bool; PADDED * PADDED]> {
    let mut columns = Box::new([false; PADDED * PADDED]);
    for (t, _, _) in trees {
        let (lx, lz) = (t.x - o.x, t.z - o.z);
        if (-1..=CHUNK).contains(&lx) && (-1..=CHUNK).contains(&lz) {
            columns[(lz + 1) as usize * PADDED + (lx + 1) as usize] = true;
        }
    }
    columns
}

/// What is known of the field's sign at a lattice point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Solid,
    Empty,
    Unknown,
}

/// A lattice node of [`DensityGen::column_top`]'s walk, summed octave by octave: as
/// far as its sign needs, or to its exact value.
#[derive(Clone, Copy, Debug)]
struct WalkNode {
    /// World position.
    at: (f64, f64, f64),
    /// The octave sum at which the density crosses the threshold.
    root: f64,
    /// The octaves summed so far.
    sum: f64,
    /// How many octaves were summed.
    done: usize,
    sign: Sign,
    /// The exact value, once every octave is summed.
    value: Option<f64>,
}

/// The sign shared by all of a cell's corners, if they are known and agree.
#[inline]
fn cell_sign(sign: &[Sign; MAX_NP], corners: [usize; 8]) -> Option<Sign> {
    let first = sign[corners[0]];
    (first != Sign::Unknown && corners.iter().all(|&c| sign[c] == first)).then_some(first)
}

/// All `TOP + 2` solidity bits set.
const FULL: u64 = (1 << (TOP + 2)) - 1;

const _: () = assert!(
    PADDED == 34 && MAX_NXZ == 10 && WIDE == 11 && MAX_NY == 7 && MAX_W == 36 && LEVELS == 8
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{GeneratorConfig, WorldConfig};

    /// [`DensityGen::column_top`] as it was: every corner of every level walked fully
    /// evaluated.
    fn column_top_full(g: &DensityGen, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let (shapes, kind) = g.column(x, z);
        let biome = kind.map(biome::biome_of);
        let (highest, lowest) = ColumnShape::bounds(shapes.iter(), g.cfg.threshold);
        let (air_from, solid_below) = (highest + 1.0, lowest - 1.0);
        let block = |y: i32| match kind {
            Some(k) => g.surface.biome_block(y, 0, k),
            None => g.surface.solid_block(y, 0),
        };
        let (xi, tx) = (x.div_euclid(STEP_XZ), frac(x, STEP_XZ));
        let (zi, tz) = (z.div_euclid(STEP_XZ), frac(z, STEP_XZ));
        let level = |ly: i32| {
            let row = |a: usize, zz: i32| {
                lerp(
                    g.lattice(&shapes[a], xi, ly, zz),
                    g.lattice(&shapes[a + 1], xi + 1, ly, zz),
                    tx,
                )
            };
            lerp(row(0, zi), row(2, zi + 1), tz)
        };
        let top = air_from.ceil() as i32;
        let mut ly = top.div_euclid(STEP_Y) + 1;
        let mut upper = level(ly);
        loop {
            let lower = level(ly - 1);
            for step in (0..STEP_Y).rev() {
                let y = (ly - 1) * STEP_Y + step;
                if lerp(lower, upper, step as f64 / STEP_Y as f64) > 0.0 {
                    return (y, block(y), biome);
                }
            }
            if (((ly - 1) * STEP_Y) as f64) < solid_below {
                return ((ly - 1) * STEP_Y, Block::Stone, biome);
            }
            upper = lower;
            ly -= 1;
        }
    }

    fn generator(cfg: &WorldConfig) -> DensityGen {
        let GeneratorConfig::Density(d) = &cfg.generator else {
            panic!("a density world")
        };
        DensityGen::new(d, cfg.seed.value(), cfg.sea_level, cfg.nature.as_ref())
    }

    #[test]
    fn the_walk_by_octaves_finds_the_fully_evaluated_surface() {
        let mut worlds: Vec<WorldConfig> = ["continents", "cliffs", "amplified"]
            .map(|n| crate::presets::builtin(n).expect("preset"))
            .into();
        worlds.push(WorldConfig::from_ron(include_str!("../tests/v1/cliffs.ron")).expect("v1"));
        // Rough, tall and high-frequency worlds at the edge of what validation allows.
        for (octaves, persistence, frequency, lacunarity) in [
            (16, 1.0, 1.0, 8.0),
            (3, 1.0, 0.05, 3.0),
            (8, 0.3, 0.01, 2.0),
        ] {
            let mut cfg = crate::presets::builtin("amplified").expect("preset");
            let GeneratorConfig::Density(d) = &mut cfg.generator else {
                panic!("a density world")
            };
            d.noise.octaves = octaves;
            d.noise.persistence = persistence;
            d.noise.frequency = frequency;
            d.noise.lacunarity = lacunarity;
            d.scale = crate::params::MAX_RELIEF_WORK / octaves as f64 / (2.0 + d.cliff_scale);
            cfg.validate().expect("at the edge of the relief rule");
            worlds.push(cfg);
        }
        for cfg in &worlds {
            let g = generator(cfg);
            for i in 0..300 {
                // Columns on and off the lattice lines, near and far.
                let (x, z) = (i * 37 - 5000, (i * i * 13) % 9001 - 4500);
                for (x, z) in [(x, z), (x & !3, z), (x, z & !3), (x & !3, z & !3)] {
                    assert_eq!(
                        g.column_top(x, z),
                        column_top_full(&g, x, z),
                        "{x} {z} in {cfg:?}"
                    );
                }
            }
        }
    }
}
