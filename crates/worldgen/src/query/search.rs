//! The searches: a dry, open place to stand near a point ([`Generator::find_land`],
//! [`Generator::land_near_origin`]) and a place in a cave ([`Generator::find_cave`]).
//! Both are pure functions of the config, bounded in work, and never look outside the
//! world. Where a new player stands and looks is `spawn`'s.
//!
//! ```text
//! candidates: square rings around (x, z), every 8 blocks up to 512, sparser beyond
//! taken:      the first open land not in a hollow (a lookout), else the first open
//!             land, else the first place in the woods
//! ```

use terravox_voxel::{Block, CHUNK, ChunkPos};

use crate::bounds::WORLD_LIMIT;
use crate::density::column::SEA_CHECK_COST;
use crate::generator::Generator;

/// How far from the origin land is looked for, in blocks ([`Generator::land_near_origin`],
/// and a spawn where no vantage near the origin is land).
pub const SPAWN_RADIUS: i32 = 4096;

impl Generator {
    /// The most columns [`Generator::find_land`] considers.
    pub const SPAWN_SAMPLES: usize = 24_000;
    /// The most noise octaves [`Generator::find_land`] evaluates, give or take one
    /// place's (about 0.5 s on one core in the worst case).
    pub const SPAWN_WORK: usize = 8_000_000;

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
    /// starts at [`Generator::spawn`] instead, which looks at the view.
    pub fn find_land(&self, x: i32, z: i32, max_radius: i32) -> Option<[i32; 3]> {
        let limit = WORLD_LIMIT - 1;
        let (x, z) = (x.clamp(-limit, limit), z.clamp(-limit, limit));
        let (mut samples, mut work) = (0, 0);
        // The best place found that is not a lookout, and its rank: 1 open land in a
        // hollow, 2 woods.
        let mut fallback: Option<(u8, [i32; 3])> = None;
        for (r, spacing) in search_rings(max_radius.max(0)) {
            for (dx, dz) in ring(r, spacing) {
                let (cx, cz) = (
                    x.saturating_add(dx).clamp(-limit, limit),
                    z.saturating_add(dz).clamp(-limit, limit),
                );
                samples += 1;
                if samples > Self::SPAWN_SAMPLES || work > Self::SPAWN_WORK {
                    return fallback.map(|(_, at)| at);
                }
                if self.terrain.surely_sea(cx, cz) {
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
                let rank = fallback.map_or(u8::MAX, |(rank, _)| rank);
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
                if lookout {
                    return Some(place);
                }
                if rank > 1 {
                    fallback = Some((1, place));
                }
            }
        }
        fallback.map(|(_, at)| at)
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
