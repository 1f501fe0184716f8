//! Coarse chunks of the density field (`lod`): the verdict of the field at
//! each cell's sample point, from the same lattice nodes a full-detail chunk uses.

use terravox_voxel::{Block, CHUNK, Chunk, ColumnTints, PADDED};

use super::{Area, DensityGen, STEP_XZ, STEP_Y, lerp};
use crate::config::validate::surface_range;
use crate::hydrology::channel::WET;
use crate::hydrology::shore::{self, ColumnWater};
use crate::lod::assemble::{CoarseColumn, Look, assemble, tints};
use crate::lod::plant::plant;
use crate::lod::pos::LodPos;
use crate::nature::trees::Trunk;
use crate::shape::climate::ColumnShape;
use crate::shape::relief::Ground;
use crate::surface::biome;
use crate::surface::face::Face;

/// Margin (in blocks) kept by the bounds that decide a node without noise.
const MARGIN: f64 = 1e-3;

/// The lattice coordinates one axis of a coarse chunk needs, and for each padded
/// cell its two nodes (indices into `nodes`) and the interpolation fraction.
struct Axis {
    nodes: Vec<i32>,
    cells: [(usize, usize, f64); PADDED],
}

impl Axis {
    /// The nodes every `step` blocks that padded cells sampled at `samples` need.
    fn new(samples: &[i32; PADDED], step: i32) -> Self {
        let mut nodes: Vec<i32> = samples
            .iter()
            .flat_map(|&v| {
                let base = v.div_euclid(step) * step;
                [
                    base,
                    if v == base {
                        base
                    } else {
                        base.saturating_add(step)
                    },
                ]
            })
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        let at = |v: i32| nodes.binary_search(&v).unwrap_or(0);
        let cells = std::array::from_fn(|i| {
            let v = samples[i];
            let base = v.div_euclid(step) * step;
            let t = v.rem_euclid(step) as f64 / step as f64;
            let far = if t == 0.0 {
                base
            } else {
                base.saturating_add(step)
            };
            (at(base), at(far), t)
        });
        Self { nodes, cells }
    }
}

/// What the coarse chunks of one column of them (a level, `x` and `z`) share, all of
/// it: the sample axes across, the shapes at their lattice nodes, each padded
/// column's look, water and shore (`x` fastest), and their [`Stack`].
pub(super) struct Columns {
    ax: Axis,
    az: Axis,
    shapes: Vec<ColumnShape>,
    /// Whether the world has fields (biome looks and trees need them).
    fields: bool,
    each: Vec<(Look, ColumnWater)>,
    stack: Stack,
}

/// What the coarse chunks of one column of them (a level, `x` and `z`) share: their
/// columns, so the bounds of their surfaces and their water. A chunk beyond them is
/// uniform ([`Stack::uniform`]); most chunks above and below the land are, and they
/// need not sample a column once one chunk of their column did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Stack {
    /// The highest and lowest surface any column can have ([`ColumnShape::bounds`]).
    highest: f64,
    lowest: f64,
    /// The lowest water over a column whose bed a shore opens (its cells from the
    /// water up may be dug out); `i32::MAX` if none.
    opened_from: i32,
    /// The highest water over a column or bank beside one; `i32::MIN` if none.
    raised_to: i32,
}

impl Stack {
    /// Counts a column's water and shore.
    fn add(&mut self, water: &ColumnWater, sea: i32) {
        if let Some(l) = water.surface {
            self.raised_to = self.raised_to.max(l);
        }
        let (opened, banked) = (water.opened(), water.banked(sea));
        if !opened.is_empty() {
            self.opened_from = self.opened_from.min(*opened.start());
        }
        if !banked.is_empty() {
            self.raised_to = self.raised_to.max(*banked.end());
        }
    }

    /// The block of a chunk of this stack whose samples lie from `bottom` to `top`,
    /// if it is uniform for want of a surface (as sampling would find it): stone below
    /// every surface and opened bed, the sea's water or air above every surface,
    /// water and bank.
    fn uniform(&self, bottom: i32, top: i32, sea: i32) -> Option<Block> {
        if (top as f64) < self.lowest - 1.0 && top < self.opened_from {
            return Some(Block::Stone);
        }
        if bottom as f64 > self.highest + 1.0 && bottom > self.raised_to {
            if top <= sea {
                return Some(Block::Water);
            }
            if bottom > sea {
                return Some(Block::Air);
            }
        }
        None
    }
}

/// What is known of a lattice node: its sign proven by bounds, or its exact value.
#[derive(Clone, Copy, PartialEq)]
enum Node {
    Unknown,
    Solid,
    Empty,
    Value(f64),
}

impl DensityGen {
    /// The face of padded coarse column `(i, k)`, sampled at world column `(x, z)`
    /// (version 4, with relief): its ground
    /// interpolated between its nodes, the slope taken across the nodes either side
    /// where the column stands on a node (so it is the slope over the column's width
    /// at least, as seen from afar).
    fn coarse_face(
        &self,
        ax: &Axis,
        az: &Axis,
        shapes: &[ColumnShape],
        [i, k]: [usize; 2],
        [x, z]: [i32; 2],
    ) -> Face {
        let Some(relief) = &self.relief else {
            return Face::Soil;
        };
        let nx = ax.nodes.len();
        let ((xa, xb, tx), (za, zb, tz)) = (ax.cells[i], az.cells[k]);
        let s = |x: usize, z: usize| &shapes[z * nx + x];
        let mut ground = Ground::between([s(xa, za), s(xb, za), s(xa, zb), s(xb, zb)], tx, tz, 1.0);
        // Two nodes either side along each axis, and the slope between them.
        let span = |a: &Axis, lo: usize, hi: usize| {
            let (l, h) = if lo == hi {
                (lo.saturating_sub(1), (hi + 1).min(a.nodes.len() - 1))
            } else {
                (lo, hi)
            };
            (l, h, (a.nodes[h] - a.nodes[l]).max(1) as f64)
        };
        let ((xl, xh, wx), (zl, zh, wz)) = (span(ax, xa, xb), span(az, za, zb));
        let dx = (s(xh, za).offset - s(xl, za).offset) / wx;
        let dz = (s(xa, zh).offset - s(xa, zl).offset) / wz;
        ground.slope = (dx * dx + dz * dz).sqrt();
        relief.face(&ground, x, z)
    }

    /// The water over padded sample column `(i, k)` at world column `(x, z)`, which
    /// `grid` covers (and the neighbours of every column but the skirts', whose
    /// shores no cell shows): its river or lake's surface,
    /// and its shore ([`shore::shore`], version 6), the field's verdict taken from the
    /// column's lattice corners among `shapes` (the nodes of `ax` by `az`).
    #[allow(clippy::too_many_arguments)]
    fn coarse_water(
        &self,
        grid: Option<&Area>,
        ax: &Axis,
        az: &Axis,
        shapes: &[ColumnShape],
        [i, k]: [usize; 2],
        [x, z]: [i32; 2],
    ) -> ColumnWater {
        let Some(w) = grid.and_then(|g| g.water.as_ref()) else {
            return ColumnWater::default();
        };
        let sea = self.surface.sea_level;
        let (surface, _, bed) = w.column(x, z, sea);
        let nx = ax.nodes.len();
        let ((xa, xb, _), (za, zb, _)) = (ax.cells[i], az.cells[k]);
        let s = |x: usize, z: usize| &shapes[z * nx + x];
        let corners = [s(xa, za), s(xb, za), s(xa, zb), s(xb, zb)];
        // The distance to the water's edge changes by at most a block a block: no
        // neighbour is wet where every corner lies further than a cell's diagonal
        // beyond the reach of water that fills a column (cheap: most columns).
        let reach = WET + 1.0 + STEP_XZ as f64 * std::f64::consts::SQRT_2;
        let near = corners.iter().any(|c| c.wet < reach);
        if !self.shores || !near || !w.wets_beside(x, z) {
            return ColumnWater {
                surface,
                shore: None,
            };
        }
        let beside = shore::highest_beside(x, z, |x, z| w.surface(x, z, sea));
        let shore = shore::shore(surface, beside, sea, bed, |y| {
            self.solid_at(corners, x, y, z)
        });
        ColumnWater { surface, shore }
    }

    /// The coarse chunk `lod` (level at least 1) and its tints: uniform without a
    /// look at its columns where it lies beyond every surface the world can have, or
    /// beyond those of its own columns when a chunk above or below it was sampled
    /// (its [`Stack`] is kept), else sampled cell by cell.
    pub(crate) fn generate_coarse(&self, lod: LodPos) -> (Chunk, Option<Box<ColumnTints>>) {
        let ys = lod.samples()[1];
        let (bottom, top) = (ys[0], ys[PADDED - 1]);
        let key = (lod.level, lod.pos.x, lod.pos.z);
        let uniform = self.beyond_every_surface(bottom, top).or_else(|| {
            let stack = self.stacks.kept(key)?;
            stack.uniform(bottom, top, self.surface.sea_level)
        });
        if let Some(block) = uniform {
            return (Chunk::Uniform(block), None);
        }
        // Kept a while too: the chunks of a far column are asked for one after the
        // other (they lie as far from the player), and its columns cost the most.
        let columns = self.columns.get(key, || self.coarse_columns(lod));
        self.stacks.keep(key, columns.stack);
        self.sample_with(lod, &columns)
    }

    /// Forgets the stacks and columns kept.
    #[cfg(feature = "test-support")]
    pub(crate) fn forget_kept_coarse(&self) {
        self.stacks.clear();
        self.columns.clear();
    }

    /// The coarse chunk `lod` sampled cell by cell from its columns, and what the
    /// chunks above and below it share ([`Stack`]).
    #[cfg(test)]
    fn sample_coarse(&self, lod: LodPos) -> (Chunk, Option<Box<ColumnTints>>, Stack) {
        let columns = self.coarse_columns(lod);
        let (chunk, tints) = self.sample_with(lod, &columns);
        (chunk, tints, columns.stack)
    }

    /// What the coarse chunks of `lod`'s column share ([`Columns`]): the shapes at
    /// their lattice nodes, and each padded column's look, water and shore.
    fn coarse_columns(&self, lod: LodPos) -> Columns {
        let [xs, _, zs] = lod.samples();
        let (ax, az) = (Axis::new(&xs, STEP_XZ), Axis::new(&zs, STEP_XZ));
        let (nx, nz) = (ax.nodes.len(), az.nodes.len());
        // The column fields over the chunk (and the biome points of its columns).
        let (x0, x1) = (ax.nodes[0].min(xs[0]), ax.nodes[nx - 1].max(xs[PADDED - 1]));
        let (z0, z1) = (az.nodes[0].min(zs[0]), az.nodes[nz - 1].max(zs[PADDED - 1]));
        // The fields only where the chunk's columns and nodes read them.
        let (cx, cz) = ([&xs[..], &ax.nodes].concat(), [&zs[..], &az.nodes].concat());
        let grid = self.grid_for(x0, z0, x1, z1, Some([&cx, &cz]));
        let shapes: Vec<ColumnShape> = match &grid {
            Some(g) => (0..nx * nz)
                .map(|p| self.shape(Some(g), ax.nodes[p % nx], az.nodes[p / nx], true))
                .collect(),
            None => vec![self.flat; nx * nz],
        };
        let (highest, lowest) = ColumnShape::bounds(shapes.iter(), self.cfg.threshold);
        let mut stack = Stack {
            highest,
            lowest,
            opened_from: i32::MAX,
            raised_to: i32::MIN,
        };
        let nature = self.nature.as_ref().filter(|_| grid.is_some());
        let mut each = Vec::with_capacity(PADDED * PADDED);
        for (k, &z) in zs.iter().enumerate() {
            for (i, &x) in xs.iter().enumerate() {
                let look = match (nature, &grid) {
                    (Some(n), Some(g)) => {
                        let b = self.biome(g, x, z);
                        let kind = biome::kind(b, biome::column_hash(n.seed, x, z));
                        match self.coarse_face(&ax, &az, &shapes, [i, k], [x, z]) {
                            Face::Soil => Look::Biome(kind),
                            face => Look::Face(kind, face),
                        }
                    }
                    _ => Look::Plain,
                };
                let water = self.coarse_water(grid.as_ref(), &ax, &az, &shapes, [i, k], [x, z]);
                stack.add(&water, self.surface.sea_level);
                each.push((look, water));
            }
        }
        Columns {
            ax,
            az,
            shapes,
            fields: grid.is_some(),
            each,
            stack,
        }
    }

    /// The coarse chunk `lod` sampled cell by cell from its column's `columns`.
    fn sample_with(&self, lod: LodPos, columns: &Columns) -> (Chunk, Option<Box<ColumnTints>>) {
        let [xs, ys, zs] = lod.samples();
        let Columns { ax, az, shapes, .. } = columns;
        let ay = Axis::new(&ys, STEP_Y);
        let (nx, nz) = (ax.nodes.len(), az.nodes.len());
        let (highest, lowest) = (columns.stack.highest, columns.stack.lowest);
        let (bottom, top) = (ys[0] as f64, ys[PADDED - 1] as f64);
        let solid_all = top < lowest - 1.0;
        let empty_all = bottom > highest + 1.0;
        let mut nodes = vec![Node::Unknown; nx * nz * ay.nodes.len()];
        let mut cells = Vec::with_capacity(PADDED * PADDED);
        let sea = self.surface.sea_level;
        for (c, &(look, water)) in columns.each.iter().enumerate() {
            let (i, k) = (c % PADDED, c / PADDED);
            let solid = if solid_all {
                (1 << PADDED) - 1
            } else if empty_all {
                0
            } else {
                let mut bits = 0u64;
                for j in 0..PADDED {
                    let v = self.coarse_verdict(ax, &ay, az, [i, j, k], shapes, &mut nodes);
                    bits |= (v as u64) << j;
                }
                bits
            };
            // The shore (version 6) laid as in full detail: its banked heights solid,
            // its opened ones open.
            let (banked, opened) = (water.banked(sea), water.opened());
            let solid = ys.iter().enumerate().fold(solid, |bits, (j, y)| {
                if banked.contains(y) {
                    bits | 1 << j
                } else if opened.contains(y) {
                    bits & !(1 << j)
                } else {
                    bits
                }
            });
            cells.push(CoarseColumn {
                solid,
                look,
                tree: None,
                water: water.surface,
            });
        }
        let nature = self.nature.as_ref().filter(|_| columns.fields);
        if let Some(&trees) = nature.filter(|n| n.grows()) {
            // The lattice corners of a trunk's cell, where this chunk knows them (a
            // trunk in the padding's far cells may lie past them: kept there, as
            // before; the padding only closes faces).
            let node = |v: i32, axis: &Axis| axis.nodes.binary_search(&v).ok();
            let corners = |x: i32, z: i32| -> Option<[&ColumnShape; 4]> {
                let (x0, z0) = (
                    x.div_euclid(STEP_XZ) * STEP_XZ,
                    z.div_euclid(STEP_XZ) * STEP_XZ,
                );
                let (i0, i1) = (node(x0, ax)?, node(x0 + STEP_XZ, ax)?);
                let (k0, k1) = (node(z0, az)?, node(z0 + STEP_XZ, az)?);
                Some([
                    &shapes[k0 * nx + i0],
                    &shapes[k0 * nx + i1],
                    &shapes[k1 * nx + i0],
                    &shapes[k1 * nx + i1],
                ])
            };
            let keep = |t: &Trunk| corners(t.x, t.z).is_none_or(|c| self.keeps_tree(c, t));
            plant(&mut cells, trees, lod, &xs, &zs, keep);
        }
        let tints = tints(&cells);
        assemble(lod, self.surface, &cells, tints)
    }

    /// The block of a coarse chunk whose samples lie from `bottom` to `top`, when the
    /// world's surface range (`validate::surface_range`, which bounds every column's
    /// [`ColumnShape::bounds`]) decides it without a column: stone wholly below the
    /// lowest surface (no river's water, which stands above the sea, opens a cell
    /// there), air wholly above the highest one and the sea (no water, bank or tree
    /// rises above the land). Most chunks of the far levels lie there; the full path
    /// gives the same chunk for them (the tests below).
    fn beyond_every_surface(&self, bottom: i32, top: i32) -> Option<Block> {
        let sea = self.surface.sea_level;
        let (lowest, highest) = surface_range(&self.cfg, sea);
        if (top as f64) < lowest - 1.0 {
            Some(Block::Stone)
        } else if bottom as f64 > highest + 1.0 && bottom > sea {
            Some(Block::Air)
        } else {
            None
        }
    }

    /// Whether padded cell `[i, j, k]` is solid: the field at its sample point, as a
    /// full-detail chunk finds it (bounds, then octave by octave, then the exact
    /// trilinear interpolation of the lattice nodes around it).
    fn coarse_verdict(
        &self,
        ax: &Axis,
        ay: &Axis,
        az: &Axis,
        [i, j, k]: [usize; 3],
        shapes: &[ColumnShape],
        nodes: &mut [Node],
    ) -> bool {
        let (nx, nz) = (ax.nodes.len(), az.nodes.len());
        let ((xa, xb, tx), (ya, yb, ty), (za, zb, tz)) = (ax.cells[i], ay.cells[j], az.cells[k]);
        let index = |x: usize, y: usize, z: usize| (y * nz + z) * nx + x;
        let corners = [
            (xa, za, ya),
            (xb, za, ya),
            (xa, zb, ya),
            (xb, zb, ya),
            (xa, za, yb),
            (xb, za, yb),
            (xa, zb, yb),
            (xb, zb, yb),
        ];
        let exact = tx != 0.0 || ty != 0.0 || tz != 0.0;
        // Bounds alone first.
        let mut known = [Node::Unknown; 8];
        for (c, &(x, z, y)) in corners.iter().enumerate() {
            let p = index(x, y, z);
            if nodes[p] == Node::Unknown {
                nodes[p] = self.bound(&shapes[z * nx + x], ay.nodes[y] as f64);
            }
            known[c] = nodes[p];
        }
        if known.iter().all(|&n| n == Node::Solid) {
            return true;
        }
        if known.iter().all(|&n| n == Node::Empty) {
            return false;
        }
        if !exact {
            // A lattice node: its sign, octave by octave.
            let (x, z, y) = corners[0];
            let p = index(x, y, z);
            let world = (ax.nodes[x] as f64, ay.nodes[y] as f64, az.nodes[z] as f64);
            let s = &shapes[z * nx + x];
            return match nodes[p] {
                Node::Solid => true,
                Node::Empty => false,
                Node::Value(v) => v > 0.0,
                Node::Unknown => {
                    let n = self.node_sign(s, world);
                    nodes[p] = n;
                    n == Node::Solid || matches!(n, Node::Value(v) if v > 0.0)
                }
            };
        }
        let mut c = [0.0; 8];
        for (v, &(x, z, y)) in c.iter_mut().zip(&corners) {
            let p = index(x, y, z);
            *v = match nodes[p] {
                Node::Value(v) => v,
                _ => {
                    let world = (ax.nodes[x] as f64, ay.nodes[y] as f64, az.nodes[z] as f64);
                    let v = self.node_value(&shapes[z * nx + x], world);
                    nodes[p] = Node::Value(v);
                    v
                }
            };
        }
        let lo = lerp(lerp(c[0], c[1], tx), lerp(c[2], c[3], tx), tz);
        let hi = lerp(lerp(c[4], c[5], tx), lerp(c[6], c[7], tx), tz);
        if lo > 0.0 && hi > 0.0 {
            true
        } else if lo > 0.0 || hi > 0.0 {
            lerp(lo, hi, ty) > 0.0
        } else {
            false
        }
    }

    /// A node's sign from its column's bounds alone (`|n| <= 1`), if they decide it.
    fn bound(&self, s: &ColumnShape, y: f64) -> Node {
        let thr = self.cfg.threshold;
        if s.lowest(thr) - y > MARGIN {
            Node::Solid
        } else if s.highest(thr) - y < -MARGIN {
            Node::Empty
        } else {
            Node::Unknown
        }
    }

    /// `density - threshold` at a lattice node: every octave summed in order, as a
    /// full-detail chunk sums them.
    fn node_value(&self, s: &ColumnShape, (x, y, z): (f64, f64, f64)) -> f64 {
        let mut sum = 0.0;
        for m in 0..self.fbm.octaves() {
            sum += self.fbm.octave3(m, x, y, z);
        }
        self.value(s, self.fbm.finish(sum), y)
    }

    /// A node's sign, octave by octave with the bounds full-detail chunks use (the
    /// octave sum at which the density crosses the threshold, with the same margin),
    /// or its exact value when every octave was needed.
    fn node_sign(&self, s: &ColumnShape, (x, y, z): (f64, f64, f64)) -> Node {
        let amp = self.fbm.rest(0);
        let root = self.root(s, y, amp);
        let eps = 1e-6 * amp;
        let octaves = self.fbm.octaves();
        let mut sum = 0.0;
        for m in 0..octaves {
            sum += self.fbm.octave3(m, x, y, z);
            if m + 1 == octaves {
                break;
            }
            let rest = self.fbm.rest(m + 1);
            if sum - rest > root + eps {
                return Node::Solid;
            }
            if sum + rest < root - eps {
                return Node::Empty;
            }
        }
        Node::Value(self.value(s, self.fbm.finish(sum), y))
    }
}

const _: () = assert!(CHUNK + 2 == PADDED as i32);

#[cfg(test)]
mod tests {
    use terravox_voxel::{Block, ChunkPos, PADDED};

    use crate::config::presets;
    use crate::density::tests::generator;
    use crate::lod::pos::LodPos;

    /// Chunks decided from the surface range alone are the chunks sampling gives,
    /// at every level, over sea, coast and mountains: checked on the decided chunks
    /// nearest the land (the highest stone and the lowest air of each column), and
    /// the shortcut decides most chunks of a column from the deep rock to the sky.
    #[test]
    fn chunks_beyond_every_surface_are_the_sampled_ones() {
        let (mut decided, mut tried) = (0, 0);
        for name in ["continents", "amplified", "cliffs"] {
            let mut config = presets::builtin(name).expect("a preset");
            config.seed = "terravox".into();
            let d = generator(&config);
            for level in 1..=8u8 {
                for (x, z) in [(0, 0), (3, -2), (-1, 1)] {
                    let reach = (1 << 12 >> level).max(2);
                    let verdicts: Vec<_> = (-reach..=reach)
                        .map(|y| {
                            let lod = LodPos::new(level, ChunkPos::new(x, y, z));
                            let ys = lod.samples()[1];
                            (lod, d.beyond_every_surface(ys[0], ys[PADDED - 1]))
                        })
                        .collect();
                    tried += verdicts.len();
                    decided += verdicts.iter().filter(|(_, v)| v.is_some()).count();
                    let stone = verdicts
                        .iter()
                        .rev()
                        .find(|(_, v)| *v == Some(Block::Stone));
                    let air = verdicts.iter().find(|(_, v)| *v == Some(Block::Air));
                    for &(lod, block) in stone.into_iter().chain(air) {
                        let (sampled, tints, _) = d.sample_coarse(lod);
                        assert!(
                            sampled.is_uniform() && Some(sampled.get(0, 0, 0)) == block,
                            "{name} {lod:?}: {block:?} decided, sampled otherwise"
                        );
                        assert!(tints.is_none());
                    }
                }
            }
        }
        assert!(decided * 2 > tried, "{decided} of {tried} chunks decided");
    }

    /// Every chunk of a column of coarse chunks finds the same [`Stack`], and the
    /// chunks it calls uniform are the ones sampling gives, over sea, coast, rivers
    /// and mountains of three seeds; it decides most chunks the world's bounds leave.
    #[test]
    fn a_stack_decides_the_chunks_above_and_below_as_sampling_does() {
        let (mut decided, mut left) = (0, 0);
        for seed in ["terravox", "42", "-7"] {
            let mut config = presets::builtin("continents").expect("a preset");
            config.seed = seed.into();
            let d = generator(&config);
            // Around the origin, and along the river at (-403, 1976) of seed -7, whose
            // banks and opened beds stand above the land's bounds in places.
            let river = (-8..-4).flat_map(|x| (29..33).map(move |z| (1, x, z)));
            let around =
                (1..=5u8).flat_map(|l| [(0, 0), (3, -2), (-5, 7), (-1, 1)].map(|(x, z)| (l, x, z)));
            for (level, x, z) in around.chain(river) {
                {
                    let reach = (1 << 10 >> level).max(2);
                    let chunks: Vec<_> = (-reach..=reach)
                        .map(|y| LodPos::new(level, ChunkPos::new(x, y, z)))
                        .filter(|lod| {
                            let ys = lod.samples()[1];
                            d.beyond_every_surface(ys[0], ys[PADDED - 1]).is_none()
                        })
                        .map(|lod| (lod, d.sample_coarse(lod)))
                        .collect();
                    let stack = chunks[0].1.2;
                    for (lod, (chunk, tints, s)) in &chunks {
                        assert_eq!(*s, stack, "{seed} {lod:?}");
                        left += 1;
                        let ys = lod.samples()[1];
                        let sea = config.sea_level;
                        let Some(block) = stack.uniform(ys[0], ys[PADDED - 1], sea) else {
                            continue;
                        };
                        decided += 1;
                        assert!(
                            chunk.is_uniform() && chunk.get(0, 0, 0) == block && tints.is_none(),
                            "{seed} {lod:?}: {block:?} decided, sampled otherwise"
                        );
                    }
                }
            }
        }
        assert!(decided * 2 > left, "{decided} of {left} chunks decided");
    }
}
