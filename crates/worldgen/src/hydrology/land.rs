//! The land the water runs over: the expected ground (the shape and the ranges, as a
//! density world's `offset`, without the erosion filter's gullies) at the nodes of a
//! grid every [`NODE`] blocks, on the shape's own coarse points. Heights are made a
//! tile of [`TILE`] x [`TILE`] nodes at a time and kept; a [`View`] keeps the tiles one
//! job fetched so that it locks the store once a tile.

use foldhash::{HashMap, HashMapExt};
use std::cmp::Ordering;
use std::sync::Arc;

use crate::store::Store;

use crate::config::world::{DensityConfig, ShapeConfig};
use crate::mix::mix64;
use crate::noise::open_simplex::lanes::LANES;
use crate::shape::climate::{COARSE, ColumnShape, FieldNoise, Lift};
use crate::shape::relief::Relief;

/// Blocks between nodes: the shape's coarse grid, so a node's fields are a coarse
/// point's, exactly.
pub(crate) const NODE: i32 = COARSE;

/// Nodes a side of a tile of heights.
const TILE: i32 = 16;
const _: () = assert!(
    TILE % LANES as i32 == 0,
    "a tile's rows go in whole groups of lanes"
);

/// Tiles of heights kept before the store starts again (1 KiB each): the 16 km
/// horizon's area and the springs around it, several times over.
const KEPT: usize = 1 << 16;

/// A node of the grid: world column `node * NODE`.
pub(crate) type Node = [i32; 2];

/// 64 random bits of node `n` for world seed `seed` and a use's `salt`.
pub(crate) fn node_hash(seed: u64, salt: u64, [i, j]: Node) -> u64 {
    let key = (i as u32 as u64) << 32 | j as u32 as u64;
    mix64(seed ^ salt ^ mix64(key))
}

/// A uniform draw in `[0, 1)` for node `n` (see [`node_hash`]).
pub(crate) fn node_roll(seed: u64, salt: u64, n: Node) -> f64 {
    (node_hash(seed, salt, n) >> 11) as f64 / (1u64 << 53) as f64
}

/// The eight neighbours of a node, in a fixed order.
pub(crate) const AROUND: [[i32; 2]; 8] = [
    [-1, -1],
    [0, -1],
    [1, -1],
    [-1, 0],
    [1, 0],
    [-1, 1],
    [0, 1],
    [1, 1],
];

/// A node's place in the total order water runs down: its height, then its
/// coordinates (so flat ground still has one way down, the same from every side).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key {
    pub h: f32,
    pub node: Node,
}

impl PartialEq for Key {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Key {}

impl Ord for Key {
    fn cmp(&self, o: &Self) -> Ordering {
        self.h
            .total_cmp(&o.h)
            .then(self.node[1].cmp(&o.node[1]))
            .then(self.node[0].cmp(&o.node[0]))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The expected ground of a density world with a shape, node by node.
pub(crate) struct Land {
    density: DensityConfig,
    shape: ShapeConfig,
    sea_level: i32,
    fields: FieldNoise,
    relief: Option<Relief>,
    tiles: Store<[i32; 2], Vec<f32>>,
}

impl std::fmt::Debug for Land {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Land").finish_non_exhaustive()
    }
}

impl Land {
    /// The land of density config `d` (which has `shape`) for world seed `seed`.
    pub(crate) fn new(d: &DensityConfig, shape: &ShapeConfig, seed: u64, sea_level: i32) -> Self {
        Self {
            density: d.clone(),
            shape: shape.clone(),
            sea_level,
            fields: FieldNoise::new(seed, Some(shape), None).with_margin(),
            relief: Relief::new(shape, seed),
            tiles: Store::new(KEPT),
        }
    }

    /// The heights of tile `t`, above sea level, `[j][i]`.
    fn make(&self, [ti, tj]: [i32; 2]) -> Vec<f32> {
        let (x0, z0) = (ti * TILE * NODE, tj * TILE * NODE);
        let span = (TILE - 1) * NODE;
        let mut grid = self.fields.grid(x0, z0, x0 + span, z0 + span);
        if let Some(r) = &self.relief {
            r.fill_masks(&mut grid);
        }
        // The relief's noises a row's nodes at a time.
        let mut heights = Vec::with_capacity((TILE * TILE) as usize);
        for z in (0..TILE).map(|j| z0 + j * NODE) {
            for i in (0..TILE).step_by(LANES) {
                let x: [i32; LANES] = std::array::from_fn(|l| x0 + (i + l as i32) * NODE);
                let lifts = self
                    .relief
                    .as_ref()
                    .map_or([Lift::default(); LANES], |r| r.lifts_uneroded(x, z, &grid));
                heights.extend(x.iter().zip(lifts).map(|(&x, lift)| {
                    let f = grid.at(x, z);
                    let s =
                        ColumnShape::shaped(&self.density, &self.shape, self.sea_level, &f, lift);
                    s.height as f32
                }));
            }
        }
        heights
    }

    /// Tile `t`'s heights, made once.
    fn tile(&self, t: [i32; 2]) -> Arc<Vec<f32>> {
        self.tiles.get(t, || self.make(t))
    }
}

/// The heights water runs over, node by node: all that basins ([`super::basin`]),
/// rivers ([`super::trace`]) and the network read of the land. A world's land gives
/// them through a [`View`]; tests make land by hand.
pub(crate) trait Heights {
    /// The expected ground at node `n`, in blocks above sea level.
    fn h(&mut self, n: Node) -> f32;

    /// Node `n`'s key.
    fn key(&mut self, n: Node) -> Key {
        Key {
            h: self.h(n),
            node: n,
        }
    }

    /// The neighbour water runs to from `n`: the lowest of its eight, if lower than it.
    fn lowest_neighbour(&mut self, n: Node) -> Option<Node> {
        let here = self.key(n);
        AROUND
            .iter()
            .map(|d| self.key([n[0].saturating_add(d[0]), n[1].saturating_add(d[1])]))
            .min()
            .filter(|k| *k < here)
            .map(|k| k.node)
    }
}

/// Land shared by threads, each job looking at it through [`Heights`] of its own (a
/// look keeps what it fetched).
pub(crate) trait Ground: Send + Sync {
    /// One job's look at the land.
    type Look<'a>: Heights
    where
        Self: 'a;

    /// A look for a new job.
    fn look(&self) -> Self::Look<'_>;
}

impl Ground for Land {
    type Look<'a> = View<'a>;

    fn look(&self) -> View<'_> {
        View::new(self)
    }
}

/// One job's look at the land: the tiles it fetched, and the last one asked for.
pub(crate) struct View<'a> {
    land: &'a Land,
    tiles: HashMap<[i32; 2], Arc<Vec<f32>>>,
    last: Option<([i32; 2], Arc<Vec<f32>>)>,
}

impl<'a> View<'a> {
    fn new(land: &'a Land) -> Self {
        Self {
            land,
            tiles: HashMap::new(),
            last: None,
        }
    }
}

impl Heights for View<'_> {
    fn h(&mut self, [i, j]: Node) -> f32 {
        let t = [i.div_euclid(TILE), j.div_euclid(TILE)];
        let at = (j.rem_euclid(TILE) * TILE + i.rem_euclid(TILE)) as usize;
        if let Some((last, tile)) = &self.last
            && *last == t
        {
            return tile[at];
        }
        let land = self.land;
        let tile = self.tiles.entry(t).or_insert_with(|| land.tile(t)).clone();
        let h = tile[at];
        self.last = Some((t, tile));
        h
    }
}
