//! Full-detail chunks of the island world ([`IslandGen::generate`]): the padded
//! columns settled for what the chunk needs of them, whole chunks of water, air or
//! stone told early, blocks filled a row at a time, biomes and trees; and the same
//! chunk made the plain way ([`IslandGen::generate_reference`]), the yardstick.

use terravox_voxel::{
    Block, CHUNK, Chunk, ChunkPos, ColumnTints, PADDED, dense_array, padded_index,
};

use crate::islands::IslandGen;
use crate::islands::height::Shape;
use crate::islands::settle::{Needs, Settled};
use crate::nature::planting;
use crate::nature::trees::{CROWN, TALLEST};
use crate::surface::biome::{self, Kind};

impl IslandGen {
    /// The columns of the padded chunk with their trees' trunk columns (local
    /// coordinates `lo..=hi` on both axes), and the lattice point the chunk's biome
    /// grid starts from with the number of points along each side.
    fn extent(&self) -> ((i32, i32), i32, usize) {
        let (lo, hi) = if self.trees() {
            (-1 - CROWN, CHUNK + CROWN)
        } else {
            (-1, CHUNK)
        };
        let first = lo.div_euclid(biome::STEP) * biome::STEP;
        let points = (hi - first).div_euclid(biome::STEP) as usize + 2;
        ((lo, hi), first, points)
    }

    /// One chunk, with padding, and the grass tints of its columns (with nature).
    ///
    /// The chunk is water or air where every column of it and of the trunks reaching
    /// into it lies below it by more than the tallest tree, stone where every one
    /// lies 4 blocks or more above it (no tints either way), else its blocks by the
    /// columns' heights and looks, and its trees.
    pub(crate) fn generate(&self, pos: ChunkPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let o = pos.origin();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        let crowns = if self.trees() { TALLEST } else { 0 };
        if o.y - 1 > highest + crowns {
            return (self.surface.fluid_chunk(pos), None);
        }
        if o.y + CHUNK + 4 <= lowest {
            return (Chunk::Uniform(Block::Stone), None);
        }
        let ((lo, hi), first, points) = self.extent();
        let islands = self.near(o.x + lo, o.z + lo, o.x + hi, o.z + hi);
        // Columns below `sunk` leave the chunk to water and air even with a tree on
        // them, columns from `buried` on leave it stone; those between `open` and
        // `buried` are what the chunk's surface blocks come from.
        let (sunk, open, buried) = (o.y - 1 - crowns, o.y - 1, o.y + CHUNK + 4);
        let padded = self.plan(Needs {
            exact: [open, buried],
            cut: i32::MIN,
        });
        let at: Vec<(i32, i32)> = (0..PADDED * PADDED)
            .map(|i| (o.x + (i % PADDED) as i32 - 1, o.z + (i / PADDED) as i32 - 1))
            .collect();
        let columns = self.settle_all(&islands, &at, &padded);
        let column = |lx: i32, lz: i32| &columns[(lz + 1) as usize * PADDED + (lx + 1) as usize];
        let padding = |l: i32| (-1..=CHUNK).contains(&l);
        // The columns of the padded chunk and of the trunks reaching into it.
        let area = || (lo..=hi).flat_map(|lz| (lo..=hi).map(move |lx| (lx, lz)));
        let only = |cut: i32| {
            self.plan(Needs {
                exact: [i32::MIN; 2],
                cut,
            })
        };
        if columns.iter().all(|c| c.surface < open) {
            // Water and air unless a tree may reach in: settle columns for `sunk`
            // where not known, the highest first (usually one shows at once that
            // trees may reach in).
            let plan = only(sunk);
            let below = |(lx, lz): (i32, i32)| {
                let known = (padding(lx) && padding(lz))
                    .then(|| column(lx, lz))
                    .filter(|c| c.exact || c.surface < sunk);
                let s = known.map_or_else(
                    || self.settle(&islands, o.x + lx, o.z + lz, &plan).surface,
                    |c| c.surface,
                );
                s + crowns < o.y - 1
            };
            let highest = (0..PADDED * PADDED)
                .max_by_key(|&i| columns[i].surface)
                .map(|i| ((i % PADDED) as i32 - 1, (i / PADDED) as i32 - 1));
            if highest.is_none_or(below) && area().all(below) {
                return (self.surface.fluid_chunk(pos), None);
            }
        }
        if columns.iter().all(|c| c.surface >= buried) {
            let plan = only(buried);
            let stone = area().all(|(lx, lz)| {
                padding(lx) && padding(lz)
                    || self.settle(&islands, o.x + lx, o.z + lz, &plan).surface >= o.y + CHUNK + 4
            });
            if stone {
                return (Chunk::Uniform(Block::Stone), None);
            }
        }
        let lattice = self.lattice_biomes(o.x + first, o.z + first, points, |near, at| {
            // Exact heights (the biome table takes them as they are): from the sums of
            // the block columns where computed, else summed here.
            let shapes: Vec<Option<Shape>> = at
                .iter()
                .map(|&(x, z)| self.shape(near, x as f64, z as f64))
                .collect();
            let known = |(x, z): (i32, i32)| {
                let (lx, lz) = (x - o.x, z - o.z);
                (padding(lx) && padding(lz))
                    .then(|| column(lx, lz).sum)
                    .flatten()
            };
            let missing: Vec<(i32, i32)> = at
                .iter()
                .zip(&shapes)
                .filter(|&(&c, shape)| shape.is_some() && known(c).is_none())
                .map(|(&c, _)| c)
                .collect();
            let mut summed = self.sums(&missing).into_iter();
            at.iter()
                .zip(shapes)
                .map(|(&c, shape)| {
                    shape.map_or(0.0, |shape| {
                        let sum = known(c).or_else(|| summed.next());
                        self.height_of(shape, sum.expect("a sum for every missing column"))
                    })
                })
                .collect()
        });
        let mut kinds = vec![0; PADDED * PADDED];
        let tints = lattice.as_ref().map(|biomes| {
            biome::columns(
                self.seed,
                [o.x, o.z],
                (-1, CHUNK),
                first,
                biomes,
                &mut kinds,
            )
        });
        let blocks = self.fill(o.y, &columns, lattice.is_some().then_some(&kinds[..]));
        let mut chunk = Chunk::Dense(blocks);
        if let (Some(grid), Some(biomes)) = (self.tree_grid(), &lattice) {
            let area = [o.x + lo, o.z + lo, o.x + hi, o.z + hi];
            let trees = grid.trees(area, |t| {
                let (lx, lz) = (t.x - o.x, t.z - o.z);
                Some(if padding(lx) && padding(lz) {
                    kinds[(lz + 1) as usize * PADDED + (lx + 1) as usize]
                } else {
                    biome::lattice_kind(self.seed, [o.x, o.z], first, biomes, lx, lz)
                })
            });
            // A trunk column's one soil block is its surface; it matters from `sunk`
            // up to the top of the chunk.
            let trunk = self.plan(Needs {
                exact: [sunk, buried],
                cut: i32::MIN,
            });
            planting::plant(&mut chunk, o, self.surface, &trees, |t| {
                let (lx, lz) = (t.trunk.x - o.x, t.trunk.z - o.z);
                let known = (padding(lx) && padding(lz))
                    .then(|| column(lx, lz))
                    .filter(|c| c.exact || trunk.needs.settled(c.surface, c.surface));
                [known.map_or_else(
                    || self.settle(&islands, t.trunk.x, t.trunk.z, &trunk).surface,
                    |c| c.surface,
                )]
            });
        }
        (chunk, tints)
    }

    /// The padded blocks of the chunk whose lowest block is at `y0` from its
    /// settled columns (`[z][x]`) and, with nature, their looks.
    fn fill(
        &self,
        y0: i32,
        columns: &[Settled],
        kinds: Option<&[Kind]>,
    ) -> Box<[Block; terravox_voxel::PADDED_VOLUME]> {
        let mut blocks = dense_array(Block::Air);
        // Stone at and below each column's surface and the fluid above it, a row at a
        // time (where the row is not all one, by selects the compiler does several
        // at once)...
        for (lz, row) in (-1..=CHUNK).zip(columns.chunks_exact(PADDED)) {
            let surface: [i32; PADDED] = std::array::from_fn(|x| row[x].surface);
            let (low, high) = surface
                .iter()
                .fold((i32::MAX, i32::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
            for ly in -1..=CHUNK {
                let y = y0 + ly;
                let fluid = self.surface.fluid_block(y);
                let start = padded_index(-1, ly, lz);
                let out: &mut [Block; PADDED] = (&mut blocks[start..start + PADDED])
                    .try_into()
                    .expect("a row of blocks");
                // Whole rows by assignment of fixed size (stores, not `memset` calls).
                if high < y {
                    *out = [fluid; PADDED];
                } else if low >= y {
                    *out = [Block::Stone; PADDED];
                } else {
                    for (b, &s) in out.iter_mut().zip(&surface) {
                        *b = if s >= y { Block::Stone } else { fluid };
                    }
                }
            }
        }
        // ...then the four blocks from each surface down, where in the chunk.
        let layer = PADDED * PADDED;
        for (i, c) in columns.iter().enumerate() {
            let top = c.surface - y0;
            if !(-1..=CHUNK + 3).contains(&top) {
                continue;
            }
            let tops: [Block; 4] = match kinds {
                Some(kinds) => std::array::from_fn(|d| {
                    let d = d as i32;
                    self.surface.biome_block(c.surface - d, d, kinds[i])
                }),
                None => {
                    // The bands' look: every column in the chunk has its height.
                    let look = self.column_at(c.h.expect("a column in the chunk is computed"));
                    [look.top, look.under, look.under, look.under]
                }
            };
            for (ly, b) in (top - 3..=top).rev().zip(tops) {
                if (-1..=CHUNK).contains(&ly) {
                    blocks[(ly + 1) as usize * layer + i] = b;
                }
            }
        }
        blocks
    }

    /// The chunk computed naively: every column on its own (looking up its islands
    /// again, its fBm through the `noise` crate, every octave). Equals
    /// [`IslandGen::generate`].
    pub(crate) fn generate_reference(&self, pos: ChunkPos) -> Chunk {
        let o = pos.origin();
        let (lowest, highest) = (self.surface_y(0.0), self.surface_y(1.0));
        let crowns = if self.trees() { TALLEST } else { 0 };
        if o.y - 1 > highest + crowns {
            return self.surface.fluid_chunk(pos);
        }
        if o.y + CHUNK + 4 <= lowest {
            return Chunk::Uniform(Block::Stone);
        }
        let ((lo, hi), first, points) = self.extent();
        let width = (hi - lo + 1) as usize;
        let mut columns = Vec::with_capacity(width * width);
        for lz in lo..=hi {
            for lx in lo..=hi {
                let (x, z) = (o.x + lx, o.z + lz);
                columns.push(self.column_reference(&self.near(x, z, x, z), x, z));
            }
        }
        if columns.iter().all(|c| c.surface + crowns < o.y - 1) {
            return self.surface.fluid_chunk(pos);
        }
        if columns.iter().all(|c| c.surface >= o.y + CHUNK + 4) {
            return Chunk::Uniform(Block::Stone);
        }
        let lattice = self.lattice_biomes(o.x + first, o.z + first, points, |islands, at| {
            at.iter()
                .map(|&(x, z)| self.height01_reference(islands, x as f64, z as f64))
                .collect()
        });
        if let Some(biomes) = lattice {
            let mut kinds = vec![0; width * width];
            biome::columns(self.seed, [o.x, o.z], (lo, hi), first, &biomes, &mut kinds);
            for (c, k) in columns.iter_mut().zip(kinds) {
                c.kind = Some(k);
            }
        }
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
        chunk
    }
}
