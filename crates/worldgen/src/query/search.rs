//! The searches: a dry, open place to stand near a point ([`Generator::find_land`],
//! [`Generator::land_near_origin`]), for a new player one with relief in sight and the
//! way to look at it, never over a cave mouth ([`Generator::spawn`]), the same rating
//! of the view from any place ([`Generator::view_from`]), and a place in a cave
//! ([`Generator::find_cave`]). Both are pure functions of the config, bounded in work,
//! and never look outside the world.
//!
//! ```text
//! candidates: square rings around (x, z), every 8 blocks up to 512, sparser beyond
//! a view:     8 compass directions, the surface (water at sea level) sampled every
//!             128 blocks out to 1 km
//!
//!          .        .        .          relief of a direction: the highest sample
//!            .      .      .            less the lowest, the spawn's own included
//!              .    .    .
//!                .  .  .                facing: the direction of most relief whose
//!          . . . . .@. . . . .          first 32 blocks (every 2) stay below the eye
//!                .  .  .                with no tree
//!              .    .    .
//!            .      .      .            taken at once: relief >= SPAWN_RELIEF (120)
//!          .        .        .
//! ```

use terravox_voxel::{Block, CHUNK, ChunkPos};

use crate::bounds::WORLD_LIMIT;
use crate::density::column::SEA_CHECK_COST;
use crate::generator::Generator;

/// How far from the origin a new world's spawn is searched for, in blocks.
pub const SPAWN_RADIUS: i32 = 4096;

/// Where a new player starts ([`Generator::spawn`]): a dry place to stand and the
/// way to look from it, towards the most relief in sight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spawn {
    /// The column's `x`, the height to stand at (one above its top block) and its `z`,
    /// as [`Generator::find_land`] gives them.
    pub at: [i32; 3],
    /// The way to look: a horizontal unit vector `[x, z]`.
    pub facing: [f32; 2],
    /// How many blocks the surface (water at sea level) rises and falls along
    /// `facing` within [`Generator::SPAWN_VIEW`] blocks: its highest sample less its
    /// lowest, the spawn's own column included.
    pub relief: i32,
    /// Whether the first 32 blocks along `facing` stay below the eye with no tree in
    /// the way. Only where no direction does (in the woods, say) is it `false`: then
    /// `facing` is the direction that stays clear furthest.
    pub clear: bool,
}

/// The compass directions a spawn's view is rated along, as steps between samples:
/// whole blocks, so every sample lies exactly on the line from the spawn, 127 or 128
/// blocks long. East (`+x`) first, then turning towards `+z`; of equal views the
/// first wins.
const VIEW_STEPS: [(i32, i32); 8] = [
    (128, 0),
    (90, 90),
    (0, 128),
    (-90, 90),
    (-128, 0),
    (-90, -90),
    (0, -128),
    (90, -90),
];
/// How far along the facing the ground stays below the eye, with no tree in the way.
const CLEAR: i32 = 32;
/// How far apart those clear samples are.
const CLEAR_STEP: i32 = 2;
/// How close (in blocks along `x` and `z`) to a lookout whose view has been rated
/// another is not rated, on the rings up to 1024 blocks from the search's centre;
/// further out, a quarter of the ring's half-size: places a little apart see about
/// the same, and the work goes to places further out.
const RATED_GAP: i32 = 256;
/// Where no view shows [`Generator::SPAWN_RELIEF`], a lookout further out must show a
/// block more relief for every this many blocks, so that worlds of low relief spawn
/// near the centre rather than kilometres away for a few blocks more.
const WALK: i32 = 16;

/// The view from a spawn: where to look and how much relief is seen there.
#[derive(Clone, Copy, Debug)]
struct View {
    facing: [f32; 2],
    relief: i32,
    /// Whether the first [`CLEAR`] blocks along `facing` stay below the eye with no
    /// tree in the way.
    clear: bool,
}

impl View {
    /// How good the view is from a place `r` blocks out (along `x` or `z`) from the
    /// search's centre: a clear one beats any other, then the most relief, less a
    /// block for every [`WALK`] blocks out.
    fn score(&self, r: i32) -> (bool, i32) {
        (self.clear, self.relief - r / WALK)
    }

    /// A player standing at `at` with this view.
    fn spawn(self, at: [i32; 3]) -> Spawn {
        Spawn {
            at,
            facing: self.facing,
            relief: self.relief,
            clear: self.clear,
        }
    }
}

impl Generator {
    /// The most columns [`Generator::find_land`] and [`Generator::spawn`] consider.
    pub const SPAWN_SAMPLES: usize = 24_000;
    /// The most noise octaves [`Generator::find_land`] and [`Generator::spawn`]
    /// evaluate, give or take one place's (about 0.5 s on one core in the worst
    /// case).
    pub const SPAWN_WORK: usize = 8_000_000;
    /// How far [`Generator::spawn`] rates the view from a place, in blocks.
    pub const SPAWN_VIEW: i32 = 1024;
    /// The relief in sight (in blocks, [`Spawn::relief`]) at which [`Generator::spawn`]
    /// takes a place at once.
    pub const SPAWN_RELIEF: i32 = 120;

    /// A dry place to stand near `(x, z)`: the first column (searching outwards in
    /// square rings: every 8 blocks up to 512 blocks away, then sparser rings up to
    /// `max_radius`) whose top is above sea level and where no tree stands. Returns the
    /// column and the height to stand at, or `None` if all of it is sea. Open land
    /// not in a hollow (a lookout) is taken at once, else the first open land, else
    /// the first place in the woods, so whoever stands there sees the land around
    /// them. Looks at no more than [`Generator::SPAWN_SAMPLES`] columns, and at fewer
    /// where a column costs more (tall density worlds): the work stays within
    /// [`Generator::SPAWN_WORK`] noise octaves. Columns whose shape alone shows they
    /// lie under the sea cost little. Never looks outside the world. A new player
    /// starts at [`Generator::spawn`] instead, which also looks at the view.
    pub fn find_land(&self, x: i32, z: i32, max_radius: i32) -> Option<[i32; 3]> {
        self.search(x, z, max_radius, false).map(|s| s.at)
    }

    /// Where a new player starts near `(x, z)`, and which way they look. Of the
    /// lookouts [`Generator::find_land`] would take (open land not in a hollow,
    /// searched in the same order) that are not near a cave mouth (no column where
    /// caves may open to the surface within a cave cell), the first from which the surface (water at sea
    /// level) along one of 8 compass directions rises and falls by at least
    /// [`Generator::SPAWN_RELIEF`] blocks within [`Generator::SPAWN_VIEW`] blocks (a
    /// mountain range ahead, or a valley below), facing that direction. Where none
    /// does, the one with the most relief less a block for every 16 blocks it lies
    /// out from `(x, z)`. A direction counts only where its first 32 blocks stay
    /// below the eye with no tree in the way (a place with no such direction is taken
    /// only where no lookout has one, facing its most relief, [`Spawn::clear`]
    /// false). Samples the surface every 128 blocks along each direction, and does
    /// not rate a lookout within 256 blocks (a quarter of the ring's half-size beyond
    /// 1024) of one already rated. Without any lookout in reach, the place
    /// `find_land` gives, facing its best view. Within the same limits as `find_land`
    /// ([`Generator::SPAWN_SAMPLES`] columns, [`Generator::SPAWN_WORK`] noise
    /// octaves, the views' samples charged too, give or take one view); `None` if all
    /// of it is sea. A pure function of the config and `(x, z, max_radius)`.
    pub fn spawn(&self, x: i32, z: i32, max_radius: i32) -> Option<Spawn> {
        self.search(x, z, max_radius, true)
    }

    /// The spawn search, with (`rate`) or without the views rated; without, the
    /// [`Spawn`] carries only `at`.
    fn search(&self, x: i32, z: i32, max_radius: i32, rate: bool) -> Option<Spawn> {
        let limit = WORLD_LIMIT - 1;
        let (x, z) = (x.clamp(-limit, limit), z.clamp(-limit, limit));
        let (mut samples, mut work) = (0, 0);
        // The best place found that is not a lookout, and its rank: 1 open land in a
        // hollow, 2 woods.
        let mut fallback: Option<(u8, [i32; 3])> = None;
        // The lookout with the best view so far.
        let mut best: Option<((bool, i32), View, [i32; 3])> = None;
        // The lookouts whose view has been rated.
        let mut rated: Vec<(i32, i32)> = Vec::new();
        'search: for (r, spacing) in search_rings(max_radius.max(0)) {
            for (dx, dz) in ring(r, spacing) {
                let (cx, cz) = (
                    x.saturating_add(dx).clamp(-limit, limit),
                    z.saturating_add(dz).clamp(-limit, limit),
                );
                samples += 1;
                if samples > Self::SPAWN_SAMPLES || work > Self::SPAWN_WORK {
                    break 'search;
                }
                let gap = RATED_GAP.max(r / 4);
                if rate
                    && rated
                        .iter()
                        .any(|&(rx, rz)| rx.abs_diff(cx).max(rz.abs_diff(cz)) < gap.unsigned_abs())
                {
                    continue;
                }
                if self.terrain.surely_sea(cx, cz) {
                    work += SEA_CHECK_COST;
                    continue;
                }
                // A new player never starts over a cave mouth (`column_top` does not
                // see caves): a few 2D noise lookups.
                if rate && self.terrain.cave_mouth_near(cx, cz) {
                    work += SEA_CHECK_COST;
                    continue;
                }
                let open = self.config.nature.is_none() || {
                    // Open land all around, not just at the edge of a wood.
                    work += 5 * SEA_CHECK_COST;
                    [(0, 0), (-24, -24), (24, -24), (-24, 24), (24, 24)]
                        .iter()
                        .all(|&(dx, dz)| {
                            self.biome_at(cx.saturating_add(dx), cz.saturating_add(dz))
                                .is_some_and(|b| !b.is_wooded())
                        })
                };
                let rank = match (best, fallback) {
                    (Some(_), _) => 0,
                    (None, Some((rank, _))) => rank,
                    (None, None) => u8::MAX,
                };
                if !open && rank <= 2 {
                    continue;
                }
                work += self.column_cost().max(1);
                let top = self.column_top(cx, cz);
                if top.y < self.sea_level() || self.tree_near(cx, cz) {
                    continue;
                }
                let place = [cx, top.y + 1, cz];
                if !open {
                    if rank > 2 {
                        fallback = Some((2, place));
                    }
                    continue;
                }
                // Not in a hollow: no ground 8 blocks away in the four compass
                // directions rises above eye level.
                work += 4 * self.column_cost().max(1);
                let lookout = [(8, 0), (-8, 0), (0, 8), (0, -8)].iter().all(|&(dx, dz)| {
                    self.column_top(cx.saturating_add(dx), cz.saturating_add(dz))
                        .y
                        <= top.y + 1
                });
                if !lookout {
                    if rank > 1 {
                        fallback = Some((1, place));
                    }
                    continue;
                }
                if !rate {
                    return Some(unrated(place));
                }
                rated.push((cx, cz));
                let view = self.view(place, &mut work);
                if view.clear && view.relief >= Self::SPAWN_RELIEF {
                    return Some(view.spawn(place));
                }
                let score = view.score(r);
                if best.is_none_or(|(b, ..)| score > b) {
                    best = Some((score, view, place));
                }
            }
        }
        if let Some((_, view, at)) = best {
            return Some(view.spawn(at));
        }
        let (_, at) = fallback?;
        if !rate {
            return Some(unrated(at));
        }
        Some(self.view(at, &mut work).spawn(at))
    }

    /// The way to look from standing at `feet` (anywhere: on the ground, flying, over
    /// the sea): the rule [`Generator::spawn`] rates its places by, for a player
    /// placed elsewhere. Of the eight compass directions whose first 32 blocks stay
    /// below the eye with no tree in the way, the one with the most relief within
    /// [`Generator::SPAWN_VIEW`] blocks; if none is clear, the one that stays clear
    /// furthest. [`Spawn::at`] is `feet`.
    pub fn view_from(&self, feet: [i32; 3]) -> Spawn {
        self.view(feet, &mut 0).spawn(feet)
    }

    /// The view from standing at `feet`: of the directions in [`VIEW_STEPS`] whose
    /// first [`CLEAR`] blocks stay below the eye with no tree, the one with the most
    /// relief within [`Generator::SPAWN_VIEW`] blocks (if none is clear, the one that
    /// stays clear furthest, of equals the one with the most relief). Adds its noise work to `work`.
    fn view(&self, feet: [i32; 3], work: &mut usize) -> View {
        let [x, _, z] = feet;
        let own = feet[1] - 1;
        let reliefs = VIEW_STEPS.map(|(sx, sz)| {
            let steps = Self::SPAWN_VIEW / step_length(sx, sz).max(1);
            let (mut low, mut high) = (own.max(self.sea_level()), own.max(self.sea_level()));
            for k in 1..=steps {
                let h = self.view_height(x.saturating_add(sx * k), z.saturating_add(sz * k), work);
                (low, high) = (low.min(h), high.max(h));
            }
            high - low
        });
        // The directions by relief, most first (the first of equals first); the
        // first clear one wins.
        let mut order: Vec<usize> = (0..VIEW_STEPS.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(reliefs[i]));
        let view = |i: usize, clear| View {
            facing: unit(VIEW_STEPS[i]),
            relief: reliefs[i],
            clear,
        };
        // How far along each direction the ground stays below the eye with no tree,
        // in samples; the first clear one wins, else the one clear furthest (of
        // equals, the most relief): in the woods, the widest gap between the trunks.
        let mut furthest: Option<(usize, usize)> = None;
        for &i in &order {
            let [fx, fz] = unit(VIEW_STEPS[i]);
            let reach = (1..=CLEAR / CLEAR_STEP)
                .take_while(|&k| {
                    let d = (k * CLEAR_STEP) as f64;
                    let (px, pz) = (column(x, fx, d), column(z, fz, d));
                    *work += self.column_cost().max(1) + SEA_CHECK_COST;
                    self.column_top(px, pz).y <= own + 1 && !self.tree_near(px, pz)
                })
                .count();
            if reach == (CLEAR / CLEAR_STEP) as usize {
                return view(i, true);
            }
            if furthest.is_none_or(|(_, r)| reach > r) {
                furthest = Some((i, reach));
            }
        }
        view(furthest.map_or(order[0], |(i, _)| i), false)
    }

    /// A place to stand in a cave near column `(x, z)`, at least `min_depth` blocks
    /// under the surface: the feet on cave air with cave air for the eye above and a
    /// solid floor below. Searches the five chunk layers under the surface chunk of
    /// `(x, z)`'s chunk column and its four neighbours, top down; `None` if they hold
    /// no such cave (or the world has none). Generates up to 25 chunks.
    pub fn find_cave(&self, x: i32, z: i32, min_depth: i32) -> Option<[i32; 3]> {
        let limit = WORLD_LIMIT - 1;
        let (x, z) = (x.clamp(-limit, limit), z.clamp(-limit, limit));
        let top = ChunkPos::new(
            x.div_euclid(CHUNK),
            self.surface_height(x, z).div_euclid(CHUNK),
            z.div_euclid(CHUNK),
        );
        for y in (top.y - 5..top.y).rev() {
            for (dx, dz) in [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)] {
                let p = ChunkPos::new(top.x + dx, y, top.z + dz);
                let chunk = self.generate(p);
                if chunk.is_uniform() {
                    continue;
                }
                let o = p.origin();
                for i in 0..CHUNK * CHUNK * (CHUNK - 2) {
                    let (lx, ly, lz) = (i % CHUNK, i / (CHUNK * CHUNK), i / CHUNK % CHUNK);
                    let room = (0..3).all(|k| chunk.get(lx, ly + k, lz) == Block::CaveAir);
                    if room
                        && chunk.get(lx, ly - 1, lz).is_solid()
                        && o.y + ly + min_depth <= self.surface_height(o.x + lx, o.z + lz)
                    {
                        return Some([o.x + lx, o.y + ly, o.z + lz]);
                    }
                }
            }
        }
        None
    }

    /// A dry, open place to stand near the origin, the first a new world's spawn
    /// search would find ([`Generator::find_land`] within [`SPAWN_RADIUS`]): where
    /// tests and benchmarks start.
    pub fn land_near_origin(&self) -> Option<[i32; 3]> {
        self.find_land(0, 0, SPAWN_RADIUS)
    }

    /// The height of the surface seen at column `(x, z)` (water at sea level), a
    /// column inside the world; adds its noise work to `work`.
    fn view_height(&self, x: i32, z: i32, work: &mut usize) -> i32 {
        let limit = WORLD_LIMIT - 1;
        let (x, z) = (x.clamp(-limit, limit), z.clamp(-limit, limit));
        if self.terrain.surely_sea(x, z) {
            *work += SEA_CHECK_COST;
            return self.sea_level();
        }
        *work += self.column_cost().max(1);
        self.column_top(x, z).y.max(self.sea_level())
    }
}

/// A place found without rating its view (for [`Generator::find_land`]).
fn unrated(at: [i32; 3]) -> Spawn {
    Spawn {
        at,
        facing: [0.0, -1.0],
        relief: 0,
        clear: false,
    }
}

/// The horizontal unit vector along a view step.
fn unit((sx, sz): (i32, i32)) -> [f32; 2] {
    let (fx, fz) = (sx as f64, sz as f64);
    let len = fx.hypot(fz);
    [(fx / len) as f32, (fz / len) as f32]
}

/// The length of a view step, in whole blocks (rounded down).
fn step_length(sx: i32, sz: i32) -> i32 {
    (sx as f64).hypot(sz as f64) as i32
}

/// The column `d` blocks from the centre of column `c` along an axis whose share of
/// the facing is `f`, inside the world.
fn column(c: i32, f: f32, d: f64) -> i32 {
    let limit = (WORLD_LIMIT - 1) as f64;
    (c as f64 + 0.5 + f as f64 * d).floor().clamp(-limit, limit) as i32
}

/// The search rings of [`Generator::find_land`]: `(half-size, point spacing)`, every 8
/// blocks with points 8 apart up to 512, then a quarter wider each time with about
/// 128 points a ring.
fn search_rings(max_radius: i32) -> impl Iterator<Item = (i32, i32)> {
    let near = (0..=max_radius.min(512)).step_by(8).map(|r| (r, 8));
    let far = std::iter::successors(Some(640i64), |r| Some(r + r / 4))
        .take_while(move |&r| r <= max_radius as i64)
        .map(|r| (r as i32, ((r / 16) as i32).max(8)));
    near.chain(far)
}

/// The points of a square ring of half-size `r`, `spacing` blocks apart along it.
fn ring(r: i32, spacing: i32) -> Vec<(i32, i32)> {
    if r == 0 {
        return vec![(0, 0)];
    }
    let mut v = Vec::new();
    let mut t = -r;
    while t <= r {
        v.extend([(t, -r), (t, r), (-r, t), (r, t)]);
        t += spacing;
    }
    v
}
