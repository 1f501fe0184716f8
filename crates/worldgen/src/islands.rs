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

use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos, PADDED, dense_array, padded_index};

use crate::config::{IslandConfig, IslandLayout};
use crate::fbm::Fbm;
use crate::seed::mix64;
use crate::surface::Surface;

/// An island centre and how far its land can reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Island {
    /// Centre `[x, z]` in blocks.
    pub centre: [f64; 2],
    /// Distance at which the falloff reaches 1 (`island_size * radius`, varied per
    /// archipelago island).
    pub reach: f64,
}

/// One column of the island world.
#[derive(Clone, Copy, Debug)]
struct Column {
    surface: i32,
    top: Block,
    under: Block,
}

/// The island generator, ready to make chunks.
#[derive(Clone, Debug)]
pub(crate) struct IslandGen {
    fbm: Fbm,
    cfg: IslandConfig,
    seed: u64,
    surface: Surface,
    reach: f64,
}

impl IslandGen {
    pub fn new(cfg: &IslandConfig, seed: u64, sea_level: i32) -> Self {
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
        }
    }

    /// The S-curve falloff `g^a / (g^a + (b - b*g)^a)`.
    pub fn falloff(&self, g: f64) -> f64 {
        let (a, b) = (self.cfg.steepness, self.cfg.attenuation);
        let ga = g.powf(a);
        ga / (ga + (b - b * g).powf(a))
    }

    /// The island of archipelago cell `(i, j)`.
    fn cell_island(&self, i: i64, j: i64, cell: f64, jitter: f64) -> Island {
        let h = mix64(self.seed ^ mix64((i as u64) ^ mix64(j as u64 ^ 0x5157_4c41_4e44)));
        let unit = |bits: u64| (bits & 0xffff) as f64 / 65535.0;
        let size = 0.7 + 0.3 * unit(h >> 32);
        let reach = self.reach * size;
        let room = (cell * 0.5 - reach).max(0.0) * jitter;
        let [ox, oz] = self.cfg.centre_offset;
        Island {
            centre: [
                ox + i as f64 * cell + (unit(h) * 2.0 - 1.0) * room,
                oz + j as f64 * cell + (unit(h >> 16) * 2.0 - 1.0) * room,
            ],
            reach,
        }
    }

    /// The islands whose land may reach the rectangle `[x0, x1] x [z0, z1]`.
    pub fn islands_near(&self, x0: f64, z0: f64, x1: f64, z1: f64) -> Vec<Island> {
        let candidates = match self.cfg.layout {
            IslandLayout::Single => vec![Island {
                centre: self.cfg.centre_offset,
                reach: self.reach,
            }],
            IslandLayout::Archipelago { cell_size, jitter } => {
                let [ox, oz] = self.cfg.centre_offset;
                let ci = |v: f64, o: f64| ((v - o) / cell_size + 0.5).floor() as i64;
                let mut v = Vec::new();
                for j in ci(z0, oz) - 1..=ci(z1, oz) + 1 {
                    for i in ci(x0, ox) - 1..=ci(x1, ox) + 1 {
                        v.push(self.cell_island(i, j, cell_size, jitter));
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

    /// `g` at a column given the islands near it.
    fn g(islands: &[Island], x: f64, z: f64) -> f64 {
        islands
            .iter()
            .map(|isl| {
                let (dx, dz) = (x - isl.centre[0], z - isl.centre[1]);
                (dx * dx + dz * dz).sqrt() / isl.reach
            })
            .fold(1.0, f64::min)
    }

    /// Normalised height `0..=1` of a column.
    fn height01(&self, islands: &[Island], x: f64, z: f64) -> f64 {
        let g = Self::g(islands, x, z);
        if g >= 1.0 {
            // fall(1) = 1 and h01 <= 1, so the clamp gives 0 whatever the noise.
            return 0.0;
        }
        let h01 = (self.fbm.get2(x, z) + 1.0) * 0.5;
        (h01 - self.falloff(g)).clamp(0.0, 1.0)
    }

    /// Surface height in blocks of a normalised height: sea level at the top of the
    /// shallow-water band.
    fn surface_y(&self, h: f64) -> i32 {
        let s = self.surface.sea_level as f64
            + (h - self.cfg.bands.shallow_water) * self.cfg.height_scale;
        s.floor() as i32
    }

    fn column(&self, islands: &[Island], x: i32, z: i32) -> Column {
        let h = self.height01(islands, x as f64, z as f64);
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
        }
    }

    /// About the noise octaves [`IslandGen::column_top`] evaluates (plus finding the
    /// nearby islands).
    pub fn column_cost(&self) -> usize {
        self.fbm.octaves() + 9
    }

    /// The highest solid block of a column and its block type.
    pub fn column_top(&self, x: i32, z: i32) -> (i32, Block) {
        let (fx, fz) = (x as f64, z as f64);
        let c = self.column(&self.islands_near(fx, fz, fx, fz), x, z);
        (c.surface, c.top)
    }

    /// The block at height `y` of a column.
    #[inline]
    fn block_in(&self, c: &Column, y: i32) -> Block {
        match c.surface - y {
            d if d < 0 => self.surface.fluid_block(y),
            0 => c.top,
            1..=3 => c.under,
            _ => Block::Stone,
        }
    }

    /// The block at a world position, computed on its own (slow: the naive reference).
    pub fn block_at(&self, x: i32, y: i32, z: i32) -> Block {
        let (fx, fz) = (x as f64, z as f64);
        let c = self.column(&self.islands_near(fx, fz, fx, fz), x, z);
        self.block_in(&c, y)
    }

    /// One chunk, with padding.
    pub fn generate(&self, pos: ChunkPos) -> Chunk {
        let o = pos.origin();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        if o.y - 1 > highest {
            return self.surface.fluid_chunk(pos);
        }
        if o.y + CHUNK + 4 <= lowest {
            return Chunk::Uniform(Block::Stone);
        }
        let islands = self.islands_near(
            (o.x - 1) as f64,
            (o.z - 1) as f64,
            (o.x + CHUNK) as f64,
            (o.z + CHUNK) as f64,
        );
        let mut columns = Vec::with_capacity(PADDED * PADDED);
        for lz in -1..=CHUNK {
            for lx in -1..=CHUNK {
                columns.push(self.column(&islands, o.x + lx, o.z + lz));
            }
        }
        if columns.iter().all(|c| c.surface < o.y - 1) {
            return self.surface.fluid_chunk(pos);
        }
        if columns.iter().all(|c| c.surface >= o.y + CHUNK + 4) {
            return Chunk::Uniform(Block::Stone);
        }
        let mut blocks = dense_array(Block::Air);
        for (n, c) in columns.iter().enumerate() {
            let (lx, lz) = ((n % PADDED) as i32 - 1, (n / PADDED) as i32 - 1);
            for ly in -1..=CHUNK {
                blocks[padded_index(lx, ly, lz)] = self.block_in(c, o.y + ly);
            }
        }
        Chunk::Dense(blocks)
    }
}
