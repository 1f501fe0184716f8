//! A column's highest solid block without a chunk ([`DensityGen::column_top`], for
//! maps, the spawn and surface heights): the lattice levels of the column's four
//! corner columns walked down from the highest possible surface, each corner summed
//! octave by octave only as far as its sign needs.

use terravox_voxel::Block;

use super::lattice::Sign;
use super::{DensityGen, STEP_XZ, STEP_Y, frac, lerp};
use crate::shape::climate::ColumnShape;
use crate::surface::biome::{self, Biome, Kind};
use crate::surface::face::Face;

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
    /// What is known of its sign.
    sign: Sign,
    /// The exact value, once every octave is summed.
    value: Option<f64>,
}

impl DensityGen {
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

    /// The block of a column's highest solid at height `y`, in a column of look
    /// `kind` (with nature) and face `face`.
    fn top_block(&self, y: i32, kind: Option<Kind>, face: Face) -> Block {
        match kind {
            Some(k) => self
                .surface
                .face_block(y, 0, face)
                .unwrap_or_else(|| self.surface.biome_block(y, 0, k)),
            None => self.surface.solid_block(y, 0),
        }
    }

    /// A height no column's terrain rises above: the highest surface the config
    /// allows.
    pub(crate) fn highest_possible(&self) -> i32 {
        let (_, highest) =
            crate::config::validate::surface_range(&self.cfg, self.surface.sea_level);
        highest.ceil().min(i32::MAX as f64) as i32
    }

    /// The most noise octaves [`DensityGen::column_top`] evaluates: four lattice
    /// columns at every level between the highest and lowest possible surface.
    pub(crate) fn column_cost(&self) -> usize {
        let (lowest, highest) =
            crate::config::validate::surface_range(&self.cfg, self.surface.sea_level);
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
    /// over [`STEP_Y`] at most (see [`crate::config::params::relief_work`]).
    pub(crate) fn column_top(&self, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let shapes = self.corner_shapes(x, z);
        let mut walker = [self.walker(&shapes, self.biome_corners(x, z), x, z)];
        self.walk(
            &shapes,
            [x.div_euclid(STEP_XZ), z.div_euclid(STEP_XZ)],
            &mut walker,
        );
        walker[0].top()
    }

    /// [`DensityGen::column_top`] of the 16 columns of lattice cell `(xi, zi)`
    /// (columns `xi * 4 ..` and `zi * 4 ..`), `[dz][dx]`: the same results bit for
    /// bit, with the cell's corner shapes made once and its lattice nodes walked once
    /// for all of them.
    pub(crate) fn cell_tops(&self, xi: i32, zi: i32) -> [[(i32, Block, Option<Biome>); 4]; 4] {
        let (x0, z0) = (xi * STEP_XZ, zi * STEP_XZ);
        let (shapes, biomes) = (self.corner_shapes(x0, z0), self.biome_corners(x0, z0));
        let mut walkers: [Walker; 16] = std::array::from_fn(|i| {
            self.walker(&shapes, biomes, x0 + (i % 4) as i32, z0 + (i / 4) as i32)
        });
        self.walk(&shapes, [xi, zi], &mut walkers);
        std::array::from_fn(|dz| std::array::from_fn(|dx| walkers[dz * 4 + dx].top()))
    }

    /// [`DensityGen::column_top`] of the `w` x `h` columns from `(x0, z0)`, row by
    /// row, lattice cell by lattice cell ([`DensityGen::cell_tops`]).
    pub(crate) fn column_tops(
        &self,
        x0: i32,
        z0: i32,
        w: usize,
        h: usize,
    ) -> Vec<(i32, Block, Option<Biome>)> {
        let mut out = vec![(0, Block::Air, None); w * h];
        if w == 0 || h == 0 {
            return out;
        }
        let (x1, z1) = (x0 + w as i32 - 1, z0 + h as i32 - 1);
        for zi in z0.div_euclid(STEP_XZ)..=z1.div_euclid(STEP_XZ) {
            for xi in x0.div_euclid(STEP_XZ)..=x1.div_euclid(STEP_XZ) {
                let tops = self.cell_tops(xi, zi);
                for (dz, row) in tops.iter().enumerate() {
                    for (dx, top) in row.iter().enumerate() {
                        let (x, z) = (xi * STEP_XZ + dx as i32, zi * STEP_XZ + dz as i32);
                        if (x0..=x1).contains(&x) && (z0..=z1).contains(&z) {
                            out[(z - z0) as usize * w + (x - x0) as usize] = *top;
                        }
                    }
                }
            }
        }
        out
    }

    /// What the walk needs of column `(x, z)` in the cell whose corners are `shapes`
    /// and whose biome corners are `biomes`.
    fn walker(
        &self,
        shapes: &[ColumnShape; 4],
        biomes: Option<[Biome; 4]>,
        x: i32,
        z: i32,
    ) -> Walker {
        let (kind, face) = self.look(shapes, biomes, x, z);
        let (tx, tz) = (frac(x, STEP_XZ), frac(z, STEP_XZ));
        Walker {
            tx,
            tz,
            used: [true, tx != 0.0, tz != 0.0, tx != 0.0 && tz != 0.0],
            kind,
            face,
            found: None,
            block: Block::Stone,
        }
    }

    /// Walks the columns of lattice cell `[xi, zi]` (corners `shapes`) down to their
    /// highest solid block, sharing the cell's lattice nodes (see
    /// [`DensityGen::column_top`]).
    fn walk(&self, shapes: &[ColumnShape; 4], [xi, zi]: [i32; 2], columns: &mut [Walker]) {
        let (highest, lowest) = ColumnShape::bounds(shapes.iter(), self.cfg.threshold);
        let (air_from, solid_below) = (highest + 1.0, lowest - 1.0);
        let amp = self.fbm.rest(0);
        let eps = 1e-6 * amp;
        let level = |ly: i32| -> [WalkNode; 4] {
            std::array::from_fn(|c| {
                let (dx, dz) = ((c & 1) as i32, (c >> 1) as i32);
                self.walk_node(&shapes[c], [xi + dx, ly, zi + dz], amp)
            })
        };
        // Whether every corner that counts is proven empty (summing only as many
        // octaves as that takes; a solid corner stops the proof). A node another
        // column summed further tells the same: its sign, once known, is its value's.
        let empty = |used: &[bool; 4], nodes: &mut [WalkNode; 4]| {
            (0..4).filter(|&c| used[c]).all(|c| {
                let n = &mut nodes[c];
                while n.sign == Sign::Unknown {
                    self.walk_step(&shapes[c], n, eps);
                }
                n.sign == Sign::Empty
            })
        };
        // The bilinear value of a level, every octave of the corners that count summed.
        let exact = |w: &Walker, nodes: &mut [WalkNode; 4]| {
            let mut v = [0.0; 4];
            for c in (0..4).filter(|&c| w.used[c]) {
                let n = &mut nodes[c];
                v[c] = loop {
                    match n.value {
                        Some(value) => break value,
                        None => self.walk_step(&shapes[c], n, eps),
                    }
                };
            }
            let row = |a: usize| {
                if w.used[a + 1] {
                    lerp(v[a], v[a + 1], w.tx)
                } else {
                    v[a]
                }
            };
            if w.used[2] {
                lerp(row(0), row(2), w.tz)
            } else {
                row(0)
            }
        };
        let top = air_from.ceil() as i32;
        let mut ly = top.div_euclid(STEP_Y) + 1;
        let mut upper = level(ly);
        loop {
            let mut lower = level(ly - 1);
            for w in columns.iter_mut().filter(|w| w.found.is_none()) {
                // Interpolating negative values gives negative values: a pair of
                // levels whose corners are all empty holds no solid block.
                if empty(&w.used, &mut upper) && empty(&w.used, &mut lower) {
                    continue;
                }
                let (hi, lo) = (exact(w, &mut upper), exact(w, &mut lower));
                for step in (0..STEP_Y).rev() {
                    let y = (ly - 1) * STEP_Y + step;
                    let t = step as f64 / STEP_Y as f64;
                    if lerp(lo, hi, t) > 0.0 {
                        w.found = Some(y);
                        w.block = self.top_block(y, w.kind, w.face);
                        break;
                    }
                }
            }
            if columns.iter().all(|w| w.found.is_some()) {
                return;
            }
            if (((ly - 1) * STEP_Y) as f64) < solid_below {
                // Unreachable by the bound, but never loop forever.
                for w in columns.iter_mut().filter(|w| w.found.is_none()) {
                    w.found = Some((ly - 1) * STEP_Y);
                }
                return;
            }
            upper = lower;
            ly -= 1;
        }
    }
}

// A lattice cell lies inside one biome cell, so its columns share biome corners.
const _: () = assert!(biome::STEP % STEP_XZ == 0);

/// One column of a walk down its lattice cell.
struct Walker {
    /// Its place in the cell along x and z (`0..1`).
    tx: f64,
    tz: f64,
    /// Corners `[north-west, north-east, south-west, south-east]` that count.
    used: [bool; 4],
    /// Its look, for its top block.
    kind: Option<Kind>,
    face: Face,
    /// Its highest solid block, once found.
    found: Option<i32>,
    /// That block (stone where the bound's fallback ended the walk).
    block: Block,
}

impl Walker {
    /// The column's top, block and biome.
    fn top(&self) -> (i32, Block, Option<Biome>) {
        (
            self.found.expect("every walked column ends"),
            self.block,
            self.kind.map(biome::biome_of),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::world::{GeneratorConfig, WorldConfig};
    use crate::density::tests::generator;

    /// [`DensityGen::column_top`] as it was: every corner of every level walked fully
    /// evaluated.
    fn column_top_full(g: &DensityGen, x: i32, z: i32) -> (i32, Block, Option<Biome>) {
        let (shapes, kind, face) = g.column(x, z);
        let biome = kind.map(biome::biome_of);
        let (highest, lowest) = ColumnShape::bounds(shapes.iter(), g.cfg.threshold);
        let (air_from, solid_below) = (highest + 1.0, lowest - 1.0);
        let block = |y: i32| g.top_block(y, kind, face);
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

    #[test]
    fn columns_walked_together_find_what_each_finds_alone() {
        for name in ["continents", "cliffs", "amplified"] {
            let g = generator(&crate::config::presets::builtin(name).expect("preset"));
            for (x0, z0, w, h) in [(-7, 13, 11, 9), (1021, -2050, 6, 5), (0, 0, 4, 4)] {
                let tops = g.column_tops(x0, z0, w, h);
                for (i, top) in tops.iter().enumerate() {
                    let (x, z) = (x0 + (i % w) as i32, z0 + (i / w) as i32);
                    assert_eq!(*top, g.column_top(x, z), "{name} column {x},{z}");
                }
            }
        }
    }

    #[test]
    fn the_walk_by_octaves_finds_the_fully_evaluated_surface() {
        let mut worlds: Vec<WorldConfig> = ["continents", "cliffs", "amplified"]
            .map(|n| crate::config::presets::builtin(n).expect("preset"))
            .into();
        worlds.push(WorldConfig::from_ron(include_str!("../../tests/v1/cliffs.ron")).expect("v1"));
        // Rough, tall and high-frequency worlds at the edge of what validation allows.
        for (octaves, persistence, frequency, lacunarity) in [
            (16, 1.0, 1.0, 8.0),
            (3, 1.0, 0.05, 3.0),
            (8, 0.3, 0.01, 2.0),
        ] {
            let mut cfg = crate::config::presets::builtin("amplified").expect("preset");
            let GeneratorConfig::Density(d) = &mut cfg.generator else {
                panic!("a density world")
            };
            d.noise.octaves = octaves;
            d.noise.persistence = persistence;
            d.noise.frequency = frequency;
            d.noise.lacunarity = lacunarity;
            d.scale =
                crate::config::params::MAX_RELIEF_WORK / octaves as f64 / (2.0 + d.cliff_scale);
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
