//! The 2D island generator ("Islands").
//!
//! ```text
//! h01    = (fbm2(x, z) + 1) / 2          normalised by the analytic amplitude sum
//! g      = clamp01(dist((x, z), nearest centre) / (island_size * radius))
//! fall   = g^a / (g^a + (b - b*g)^a)
//! height = clamp01(h01 - fall)
//! ```
//!
//! Everything is in world coordinates, so there is one island (or one per archipelago
//! cell) and the sea beyond it, never one island per chunk. Each column's height is
//! computed once per chunk; columns where `g = 1` are ocean floor without any noise.
//!
//! Version 2 varies the archipelago: some cells are empty, sizes range from islets to
//! big islands (whose middles rise into mountains: `+ boost * (1 - g)^2`), islands
//! are ellipses at any angle, and biomes come from the height band and the climate.

mod coarse;

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, ColumnTints, dense_array, padded_index};

use crate::biome::{self, Biome, Kind};
use crate::climate::{FieldNoise, Fields};
use crate::config::{IslandConfig, IslandLayout, NatureConfig};
use crate::fbm::Fbm;
use crate::seed::mix64;
use crate::surface::Surface;
use crate::trees::planting::{self, TreeGrid};
use crate::trees::{CROWN, TALLEST};

/// An island centre and how far its land can reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Island {
    /// Centre `[x, z]` in blocks.
    pub centre: [f64; 2],
    /// Distance at which the falloff reaches 1 (`island_size * radius`, varied per
    /// archipelago island) along the island's long axis.
    pub reach: f64,
    /// Direction of the long axis, radians (version 2; 0 before).
    pub angle: f64,
    /// Short axis over long axis, `(0, 1]` (version 2; 1 before).
    pub aspect: f64,
    /// How much the middle rises: big version-2 islands get mountains.
    pub boost: f64,
}

/// One column of the island world.
#[derive(Clone, Copy, Debug)]
struct Column {
    surface: i32,
    top: Block,
    under: Block,
    /// The biome look (version 2 with nature).
    kind: Option<Kind>,
}

/// The island generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct IslandGen {
    fbm: Fbm,
    cfg: IslandConfig,
    seed: u64,
    surface: Surface,
    reach: f64,
    /// Version 2 layout (varied islands).
    varied: bool,
    /// Climate noise and the tree grid (version 2 with nature).
    nature: Option<(FieldNoise, TreeGrid)>,
}

/// Normalised height bands to the biome table's height above sea level (blocks)
/// and continentalness: water, beach, land, rock, snow.
fn band_fields(b: &crate::config::Bands, h: f64) -> (f64, f64) {
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
    /// The generator of an island world with seed `seed`, sea level `sea_level`,
    /// generator version `version` and `nature` (version 2).
    pub fn new(
        cfg: &IslandConfig,
        seed: u64,
        sea_level: i32,
        version: u32,
        nature: Option<&NatureConfig>,
    ) -> Self {
        let fbm = Fbm::new(
            cfg.kind,
            seed,
            1,
            1.0 / cfg.noise_scale,
            cfg.octaves,
            cfg.persistence,
            cfg.lacunarity,
        );
        Self {
            fbm,
            cfg: cfg.clone(),
            seed,
            surface: Surface {
                sea_level,
                snow_line: i32::MAX,
            },
            reach: cfg.island_size * cfg.radius,
            varied: version >= 2,
            nature: nature.map(|n| (FieldNoise::new(seed, None, Some(n)), TreeGrid::new(seed, n))),
        }
    }

    /// Whether chunks grow trees.
    fn trees(&self) -> bool {
        self.tree_grid().is_some()
    }

    /// The tree grid, when chunks grow trees.
    fn tree_grid(&self) -> Option<TreeGrid> {
        self.nature
            .as_ref()
            .map(|&(_, grid)| grid)
            .filter(TreeGrid::grows)
    }

    /// The S-curve falloff `g^a / (g^a + (b - b*g)^a)`.
    pub fn falloff(&self, g: f64) -> f64 {
        let (a, b) = (self.cfg.steepness, self.cfg.attenuation);
        let ga = g.powf(a);
        ga / (ga + (b - b * g).powf(a))
    }

    /// The island of archipelago cell `(i, j)`, if it has one.
    fn cell_island(&self, i: i64, j: i64, cell: f64, jitter: f64) -> Option<Island> {
        let h = mix64(self.seed ^ mix64((i as u64) ^ mix64(j as u64 ^ 0x5157_4c41_4e44)));
        let unit = |bits: u64| (bits & 0xffff) as f64 / 65535.0;
        let (size, angle, aspect, boost) = if self.varied {
            // Some cells empty (never the one at the centre), many islets, a few big
            // islands with mountains, ellipses at any angle.
            if unit(h >> 48) < 0.25 && (i, j) != (0, 0) {
                return None;
            }
            let shape = mix64(h);
            let size = 0.5 + 1.3 * unit(h >> 32).powi(2);
            (
                size,
                unit(shape) * std::f64::consts::PI,
                0.55 + 0.45 * unit(shape >> 16),
                0.45 * (size - 1.0).max(0.0),
            )
        } else {
            (0.7 + 0.3 * unit(h >> 32), 0.0, 1.0, 0.0)
        };
        let reach = self.reach * size;
        // Version 2 lets a centre go anywhere in its cell (islands may merge), so the
        // grid does not show; version 1 kept every island inside its cell.
        let room = if self.varied {
            cell * 0.5
        } else {
            (cell * 0.5 - reach).max(0.0)
        } * jitter;
        let [ox, oz] = self.cfg.centre_offset;
        Some(Island {
            centre: [
                ox + i as f64 * cell + (unit(h) * 2.0 - 1.0) * room,
                oz + j as f64 * cell + (unit(h >> 16) * 2.0 - 1.0) * room,
            ],
            reach,
            angle,
            aspect,
            boost,
        })
    }

    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]`.
    pub fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        let candidates = match self.cfg.layout {
            IslandLayout::Single => vec![Island {
                centre: self.cfg.centre_offset,
                reach: self.reach,
                angle: 0.0,
                aspect: 1.0,
                boost: 0.0,
            }],
            IslandLayout::Archipelago { cell_size, jitter } => {
                let [ox, oz] = self.cfg.centre_offset;
                let ci = |v: f64, o: f64| ((v - o) / cell_size + 0.5).floor() as i64;
                let mut v = Vec::new();
                for j in ci(z0, oz) - 1..=ci(z1, oz) + 1 {
                    for i in ci(x0, ox) - 1..=ci(x1, ox) + 1 {
                        v.extend(self.cell_island(i, j, cell_size, jitter));
                    }
                }
                v
            }
        };
        candidates
            .into_iter()
            .filter(|isl| {
                let dx = isl.centre[0] - isl.centre[0].clamp(x0, x1);
                let dz = isl.centre[1] - isl.centre[1].clamp(z0, z1);
                (dx * dx + dz * dz).sqrt() < isl.reach
            })
            .collect()
    }

    /// `g` at a column given the islands near it, and the nearest island's boost.
    fn g(&self, islands: &[Island], x: f64, z: f64) -> (f64, f64) {
        islands
            .iter()
            .map(|isl| {
                let (dx, dz) = (x - isl.centre[0], z - isl.centre[1]);
                let d = if self.varied {
                    let (sin, cos) = isl.angle.sin_cos();
                    let (u, v) = (dx * cos + dz * sin, (dz * cos - dx * sin) / isl.aspect);
                    (u * u + v * v).sqrt()
                } else {
                    (dx * dx + dz * dz).sqrt()
                };
                (d / isl.reach, isl.boost)
            })
            .fold((1.0, 0.0), |a, b| if b.0 < a.0 { b } else { a })
    }

    /// Normalised height `0..=1` of a column.
    fn height01(&self, islands: &[Island], x: f64, z: f64) -> f64 {
        let (g, boost) = self.g(islands, x, z);
        if g >= 1.0 {
            // fall(1) = 1 and h01 <= 1, so the clamp gives 0 whatever the noise.
            return 0.0;
        }
        let h01 = (self.fbm.get2(x, z) + 1.0) * 0.5;
        (h01 - self.falloff(g) + boost * (1.0 - g) * (1.0 - g)).clamp(0.0, 1.0)
    }

    /// Surface height in blocks of a normalised height: sea level at the top of the
    /// shallow-water band.
    fn surface_y(&self, h: f64) -> i32 {
        let s = self.surface.sea_level as f64
            + (h - self.cfg.bands.shallow_water) * self.cfg.height_scale;
        s.floor() as i32
    }

    /// The biome of a lattice column from its normalised height and climate.
    fn biome(&self, h: f64, f: &Fields) -> Biome {
        let (height, c) = band_fields(&self.cfg.bands, h);
        biome::choose(&Fields { c, e: 0.0, ..*f }, height, 0.0)
    }

    /// Column `(x, z)` given the islands near it (with no biome look yet).
    fn column(&self, islands: &[Island], x: i32, z: i32) -> Column {
        self.column_at(self.height01(islands, x as f64, z as f64))
    }

    /// A column of normalised height `h` (with no biome look yet).
    fn column_at(&self, h: f64) -> Column {
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
    pub fn column_cost(&self) -> usize {
        self.fbm.octaves() + 9
    }

    /// The biomes of the `n` by `n` lattice columns every [`biome::STEP`] blocks from
    /// world column `(x0, z0)`, `[k][i]` (with nature).
    fn lattice_biomes(&self, x0: i32, z0: i32, n: usize) -> Option<Vec<Biome>> {
        let (noise, _) = self.nature.as_ref()?;
        let far = (n as i32 - 1) * biome::STEP;
        let coarse = noise.grid(x0, z0, x0 + far, z0 + far);
        let islands = self.islands_near(x0 as f64, z0 as f64, (x0 + far) as f64, (z0 + far) as f64);
        Some(
            (0..n * n)
                .map(|p| {
                    let x = x0 + (p % n) as i32 * biome::STEP;
                    let z = z0 + (p / n) as i32 * biome::STEP;
                    let h = self.height01(&islands, x as f64, z as f64);
                    self.biome(h, &coarse.at(x, z))
                })
                .collect(),
        )
    }

    /// The biome look of block column `(x, z)` (with nature).
    fn kind_at(&self, x: i32, z: i32) -> Option<Kind> {
        let (x0, z0) = (
            x.div_euclid(biome::STEP) * biome::STEP,
            z.div_euclid(biome::STEP) * biome::STEP,
        );
        let b = self.lattice_biomes(x0, z0, 2)?;
        Some(biome::column_kind(
            self.seed,
            x,
            z,
            [b[0], b[1], b[2], b[3]],
        ))
    }

    /// The biome of block column `(x, z)` (with nature).
    pub fn biome_at(&self, x: i32, z: i32) -> Option<Biome> {
        self.kind_at(x, z).map(biome::biome_of)
    }

    /// The highest solid block of a column (trees aside) and its block type.
    pub fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let (fx, fz) = (x as f64, z as f64);
        let mut c = self.column(&self.islands_near(fx, fz, fx, fz), x, z);
        c.kind = self.kind_at(x, z);
        (
            c.surface,
            self.block_in(&c, c.surface),
            c.kind.map(biome::biome_of),
        )
    }

    /// The block at height `y` of a column.
    #[inline]
    fn block_in(&self, c: &Column, y: i32) -> Block {
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

    /// One chunk, with padding, and the grass tints of its columns (with nature).
    pub fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        self.generate_with(pos, false)
    }

    /// The chunk computed naively: every column on its own (looking up its islands
    /// again). Equals [`IslandGen::generate`].
    pub fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        self.generate_with(pos, true).0
    }

    /// One chunk and its tints; `naive` looks up the islands of every column on its
    /// own.
    fn generate_with(&self, pos: ChunkPos, naive: bool) -> (Chunk, Option<Box<ColumnTints>>) {
        let o = pos.origin();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        let crowns = if self.trees() { TALLEST } else { 0 };
        if o.y - 1 > highest + crowns {
            return (self.surface.fluid_chunk(pos), None);
        }
        if o.y + CHUNK + 4 <= lowest {
            return (Chunk::Uniform(Block::Stone), None);
        }
        // The columns of the padded chunk, and those of the trunks of trees reaching
        // into it.
        let (lo, hi) = if self.trees() {
            (-1 - CROWN, CHUNK + CROWN)
        } else {
            (-1, CHUNK)
        };
        let width = (hi - lo + 1) as usize;
        let islands = self.islands_near(
            (o.x + lo) as f64,
            (o.z + lo) as f64,
            (o.x + hi) as f64,
            (o.z + hi) as f64,
        );
        let mut columns = Vec::with_capacity(width * width);
        for lz in lo..=hi {
            for lx in lo..=hi {
                let (x, z) = (o.x + lx, o.z + lz);
                columns.push(if naive {
                    let (fx, fz) = (x as f64, z as f64);
                    self.column(&self.islands_near(fx, fz, fx, fz), x, z)
                } else {
                    self.column(&islands, x, z)
                });
            }
        }
        if columns.iter().all(|c| c.surface + crowns < o.y - 1) {
            return (self.surface.fluid_chunk(pos), None);
        }
        if columns.iter().all(|c| c.surface >= o.y + CHUNK + 4) {
            return (Chunk::Uniform(Block::Stone), None);
        }
        let first = lo.div_euclid(biome::STEP) * biome::STEP;
        let points = (hi - first).div_euclid(biome::STEP) as usize + 2;
        let tints = self
            .lattice_biomes(o.x + first, o.z + first, points)
            .map(|biomes| {
                let mut kinds = vec![0; width * width];
                let tints =
                    biome::columns(self.seed, [o.x, o.z], (lo, hi), first, &biomes, &mut kinds);
                for (c, k) in columns.iter_mut().zip(kinds) {
                    c.kind = Some(k);
                }
                tints
            });
        let column = |lx: i32, lz: i32| &columns[(lz - lo) as usize * width + (lx - lo) as usize];
        let mut blocks = dense_array(Block::Air);
        for lz in -1..=CHUNK {
            for lx in -1..=CHUNK {
                let c = column(lx, lz);
                for ly in -1..=CHUNK {
                    blocks[padded_index(lx, ly, lz)] = self.block_in(c, o.y + ly);
                }
            }
        }
        let mut chunk = Chunk::Dense(blocks);
        if let Some(grid) = self.tree_grid() {
            // A trunk column's one soil block is its surface.
            let area = [o.x + lo, o.z + lo, o.x + hi, o.z + hi];
            let trees = grid.trees(area, |t| column(t.x - o.x, t.z - o.z).kind);
            planting::plant(&mut chunk, o, self.surface, &trees, |t| {
                [column(t.trunk.x - o.x, t.trunk.z - o.z).surface]
            });
        }
        (chunk, tints)
    }
}
