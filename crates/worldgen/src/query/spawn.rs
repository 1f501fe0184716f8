//! Where a new player stands and looks ([`Generator::spawn`]), chosen as a
//! photographer would: a vantage on open ground (a shoulder, a hilltop, a headland)
//! looking over a valley, water or a range, rated by the first frame itself
//! ([`frame`](super::frame): the rays of the game's camera cast through the land).
//! The same rule gives the view from any place ([`Generator::view_from`]).
//!
//! ```text
//! survey:     the surface every 256 blocks within 1.5 km of the origin (every 512
//!             within 3 km where no vantage of the first meets the goals)
//! candidates: survey points on land whose ground falls away ahead, with relief along
//!             that way (8 compass ways, the survey's own samples), best first, 4 of
//!             them, 384 blocks apart at least
//! each:       its highest ground within 128 blocks (every 32); its 2 highest spots
//!             within 16 blocks with nothing rising within 3, each looking 3 ways
//!             around the candidate's, rated by a 96 x 54 frame; the best one's 5
//!             pitches, rated too
//! the frame:  the surface block by block within 48 blocks, every 32 to 512, every
//!             128 to 2 km, only where a ray asks
//! rating:     relief in view, some water, less for ground near the eye, a sky too
//!             small or too large, a tree ahead and the way from the origin
//! ```

use super::ForEach;
use super::collect;
use super::frame::{
    Camera, FINE, FRAME_HEIGHT, FRAME_WIDTH, FrameStats, Ground, REACH, Surface, Tally,
};
use crate::bounds::WORLD_LIMIT;
use crate::generator::{ColumnTop, Generator};

/// Where a new player starts ([`Generator::spawn`]): a dry place to stand, the way to
/// look, and what the first frame shows from there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spawn {
    /// The column's `x`, the height to stand at (one above its top block) and its `z`.
    pub at: [i32; 3],
    /// The way to look: a horizontal unit vector `[x, z]`.
    pub facing: [f32; 2],
    /// How far to look up (positive) or down, in radians.
    pub pitch: f32,
    /// The first frame from there ([`FRAME_WIDTH`] x [`FRAME_HEIGHT`]).
    pub frame: FrameStats,
}

impl FrameStats {
    /// Whether a first frame meets the goals of a spawn: the sky within
    /// [`SPAWN_SKY`], at most [`SPAWN_NEAR`] of it near, at least [`SPAWN_RELIEF`]
    /// blocks of relief in view.
    pub fn meets_goals(&self) -> bool {
        SPAWN_SKY.contains(&self.sky) && self.near <= SPAWN_NEAR && self.relief >= SPAWN_RELIEF
    }
}

/// The share of the first frame a spawn aims to give the sky.
pub const SPAWN_SKY: std::ops::RangeInclusive<f32> = 0.20..=0.65;
/// The most of the first frame a spawn lets ground nearer than
/// [`FRAME_NEAR`](super::frame::FRAME_NEAR) blocks fill.
pub const SPAWN_NEAR: f32 = 0.10;
/// The least relief in view (blocks) a spawn aims for.
pub const SPAWN_RELIEF: i32 = 60;

/// The first survey's reach from the origin and its spacing, in blocks.
const NEAR_SURVEY: (i32, i32) = (1536, 256);
/// The survey taken where none of the first's vantages meets the goals.
const FAR_SURVEY: (i32, i32) = (3072, 512);
/// How many candidates are looked at closely, and how far apart (along `x` or `z`).
const CANDIDATES: usize = 4;
const CANDIDATE_GAP: i32 = 384;
/// The compass ways a candidate is surveyed along, in survey cells: east first,
/// turning towards `+z`.
const WAYS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
/// How many survey samples along a way are read.
const WAY_SAMPLES: i32 = 4;
/// Around a candidate, its highest ground is looked for this far out, this often.
const SUMMIT_REACH: i32 = 128;
const SUMMIT_STEP: i32 = 32;
/// How many spots on a summit are rated, at most this far from its highest column,
/// at least this far apart.
const SPOTS: usize = 2;
const SPOT_REACH: i32 = 16;
const SPOT_GAP: i32 = 6;
/// How far around a spot no ground may rise above the block at its feet.
const SPOT_CLEAR: i32 = 3;
/// The yaws a spot is rated at, about the way chosen (radians).
const TURNS: [f32; 3] = [-0.5, 0.0, 0.5];
/// The yaws of a view from anywhere: 16 around.
const AROUND: usize = 16;
/// The pitches tried for the best spot and yaw (radians).
const PITCHES: [f32; 5] = [-0.25, -0.15, -0.05, 0.05, 0.15];
/// The frame the candidates are rated by: a small one, in the first frame's shape.
const RATING: (u32, u32) = (96, 54);
/// The frame cast before a whole first frame, so that its bands find the surface
/// their rays cross already made.
const WARMING: (u32, u32) = (320, 180);
/// The bands of columns a whole first frame is cast in.
const BANDS: u32 = 4;
/// The frame's surface: block by block within this many blocks of its centre, then
/// a sample every [`MID_SPACING`] blocks to [`MID_REACH`], then every
/// [`FAR_SPACING`].
const FINE_HALF: i32 = 48;
const MID_SPACING: i32 = 32;
const MID_REACH: f64 = 512.0;
const FAR_SPACING: i32 = 128;

impl Generator {
    /// Where a new player starts, and how they look: of the vantages near the origin,
    /// the one whose first frame (the game's camera, cast through the land:
    /// [`FrameStats`]) shows the most relief and some water, with the sky within
    /// [`SPAWN_SKY`], little ground near the eye ([`SPAWN_NEAR`]) and no tree ahead,
    /// the nearer the origin the better. The vantages are looked for within 1.5 km
    /// of the origin, and where none of those meets the goals
    /// ([`SPAWN_SKY`], [`SPAWN_NEAR`], [`SPAWN_RELIEF`]) within 3 km too. Where no survey point is land, the place
    /// [`Generator::find_land`] gives within [`SPAWN_RADIUS`](super::search::SPAWN_RADIUS)
    /// blocks, looking the way [`Generator::view_from`] rates best; `None` if that is
    /// all sea. A pure function of the config, bounded in work (a survey of 169
    /// columns or two, then 4 candidates each of a few thousand); `for_each` runs the
    /// survey's rows, the candidates and the bands of the first frame.
    pub fn spawn(&self, for_each: ForEach<'_>) -> Option<Spawn> {
        let mut best = self.best_vantage(NEAR_SURVEY, for_each);
        if !best.as_ref().is_some_and(|b| b.look.frame.meets_goals()) {
            let further = self.best_vantage(FAR_SURVEY, for_each);
            best = [best, further].into_iter().flatten().reduce(Rated::better);
        }
        match best {
            Some(Rated { look, mut heights }) => {
                Some(self.spawn_at(&mut heights, look.at, look.facing, look.pitch, for_each))
            }
            None => {
                let at = self.find_land(0, 0, super::search::SPAWN_RADIUS)?;
                Some(self.view_from(at, for_each))
            }
        }
    }

    /// The best look from the candidates of a survey of `(reach, spacing)`.
    fn best_vantage(
        &self,
        (reach, spacing): (i32, i32),
        for_each: ForEach<'_>,
    ) -> Option<Rated<'_>> {
        let survey = Survey::take(self, reach, spacing, for_each);
        let candidates = survey.candidates();
        let rated = collect(for_each, candidates.len(), |i| self.closer(candidates[i]));
        rated.into_iter().flatten().reduce(Rated::better)
    }

    /// The way to look from standing at `feet` (anywhere: on the ground, flying, over
    /// the sea), by the rule [`Generator::spawn`] rates its places by: of 16 yaws
    /// around (the origin's distance aside) and then a few pitches, the frame rated
    /// best. [`Spawn::at`] is `feet`.
    pub fn view_from(&self, feet: [i32; 3], for_each: ForEach<'_>) -> Spawn {
        let mut heights = Heights::around(self, [feet[0], feet[2]]);
        let yaws = (0..AROUND).map(|i| i as f32 * std::f32::consts::TAU / AROUND as f32);
        let looks = yaws.map(|yaw| (feet, [yaw.cos(), yaw.sin()]));
        let look = self
            .best_look(&mut heights, looks, 0)
            .expect("sixteen yaws to rate");
        self.spawn_at(&mut heights, feet, look.facing, look.pitch, for_each)
    }

    /// A player standing at `feet` looking along `facing` with `pitch`, and the first
    /// frame they see through `heights` (around them), cast whole: in [`BANDS`] bands
    /// of columns run by `for_each`, each over a copy of the surface a smaller frame
    /// has made.
    fn spawn_at(
        &self,
        heights: &mut Heights,
        feet: [i32; 3],
        facing: [f32; 2],
        pitch: f32,
        for_each: ForEach<'_>,
    ) -> Spawn {
        let camera = camera(feet, facing, pitch);
        Tally::of(heights, &camera, WARMING, 0..WARMING.0);
        let size = (FRAME_WIDTH, FRAME_HEIGHT);
        let band = FRAME_WIDTH.div_ceil(BANDS);
        let tallies = collect(for_each, BANDS as usize, |i| {
            let columns = i as u32 * band..((i as u32 + 1) * band).min(FRAME_WIDTH);
            Tally::of(&mut heights.clone(), &camera, size, columns)
        });
        let tally = tallies.into_iter().fold(Tally::default(), Tally::add);
        Spawn {
            at: feet,
            facing,
            pitch,
            frame: tally.stats(FRAME_WIDTH, FRAME_HEIGHT),
        }
    }

    /// A candidate looked at closely: its highest ground, the spots on it, each
    /// rated looking a few ways about the candidate's, then the best one's pitch.
    /// `None` where its ground holds no dry spot to stand on.
    fn closer(&self, candidate: Candidate) -> Option<Rated<'_>> {
        let summit = self.summit(candidate.at)?;
        let mut heights = Heights::around(self, summit);
        let from_origin = summit[0].unsigned_abs().max(summit[1].unsigned_abs());
        let spots = heights.spots(self, summit);
        let base = (candidate.way.1 as f32).atan2(candidate.way.0 as f32);
        let looks = spots.iter().flat_map(|&at| {
            TURNS.iter().map(move |turn| {
                let yaw = base + turn;
                (at, [yaw.cos(), yaw.sin()])
            })
        });
        let look = self.best_look(&mut heights, looks, from_origin)?;
        Some(Rated { look, heights })
    }

    /// Of `looks` (a place to stand and a way to face), the one whose small frame
    /// rates best looking level (the first of equals), then its best pitch of
    /// [`PITCHES`]; `None` for no looks. `from_origin` as [`rate`] takes it.
    fn best_look(
        &self,
        heights: &mut Heights,
        looks: impl Iterator<Item = ([i32; 3], [f32; 2])>,
        from_origin: u32,
    ) -> Option<Look> {
        let level = looks.map(|(at, facing)| {
            let trees = self.trees_ahead(at, facing);
            let (score, _) = rate(heights, at, facing, 0.0, trees, from_origin);
            ((at, facing, trees), score)
        });
        let ((at, facing, trees), _) = best_of(level)?;
        let pitched = PITCHES.iter().map(|&pitch| {
            let (score, frame) = rate(heights, at, facing, pitch, trees, from_origin);
            ((pitch, frame), score)
        });
        let ((pitch, frame), score) = best_of(pitched)?;
        Some(Look {
            at,
            facing,
            pitch,
            score,
            frame,
        })
    }

    /// The highest dry ground within [`SUMMIT_REACH`] of `at` (every
    /// [`SUMMIT_STEP`] blocks), as a column; `None` if all of it is water.
    fn summit(&self, [x, z]: [i32; 2]) -> Option<[i32; 2]> {
        let steps = -SUMMIT_REACH / SUMMIT_STEP..=SUMMIT_REACH / SUMMIT_STEP;
        let mut best: Option<(i32, [i32; 2])> = None;
        for dz in steps.clone() {
            for dx in steps.clone() {
                let c = [inside(x + dx * SUMMIT_STEP), inside(z + dz * SUMMIT_STEP)];
                let top = self.column_top(c[0], c[1]);
                if !dry(&top, self.sea_level()) {
                    continue;
                }
                if best.is_none_or(|(h, _)| top.y > h) {
                    best = Some((top.y, c));
                }
            }
        }
        best.map(|(_, c)| c)
    }

    /// How many of the points 2, 4, 8 and 12 blocks ahead of `at` (straight on and half
    /// a right angle to each side) have a tree within reach, those within 4 blocks
    /// (in the face) counting 5 times.
    fn trees_ahead(&self, at: [i32; 3], [fx, fz]: [f32; 2]) -> u32 {
        let mut trees = 0;
        for turn in [-0.5f32, 0.0, 0.5] {
            let (s, c) = turn.sin_cos();
            let (dx, dz) = (fx * c - fz * s, fx * s + fz * c);
            for (d, weight) in [(2.0f32, 5), (4.0, 5), (8.0, 1), (12.0, 1)] {
                let x = at[0] as f32 + 0.5 + dx * d;
                let z = at[2] as f32 + 0.5 + dz * d;
                trees += weight * u32::from(self.tree_near(x.floor() as i32, z.floor() as i32));
            }
        }
        trees
    }
}

/// A place worth a closer look, and the way its ground falls away.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    at: [i32; 2],
    way: (i32, i32),
}

/// A place to stand, the way to look from it, and how its small frame rates.
#[derive(Clone, Copy, Debug)]
struct Look {
    at: [i32; 3],
    facing: [f32; 2],
    pitch: f32,
    score: f64,
    /// The small frame ([`RATING`]'s size).
    frame: FrameStats,
}

/// A candidate's best look, and the surface around it.
struct Rated<'g> {
    look: Look,
    heights: Heights<'g>,
}

impl Rated<'_> {
    /// The one with the higher score (the first of equals).
    fn better(self, other: Self) -> Self {
        if other.look.score > self.look.score {
            other
        } else {
            self
        }
    }
}

/// The surface every `spacing` blocks within `reach` of the origin.
struct Survey {
    reach: i32,
    spacing: i32,
    /// Cells a side.
    side: i32,
    surfaces: Vec<Surface>,
}

impl Survey {
    fn take(g: &Generator, reach: i32, spacing: i32, for_each: ForEach<'_>) -> Self {
        let side = 2 * reach / spacing + 1;
        let rows = collect(for_each, side as usize, |row| {
            let z = -reach + row as i32 * spacing;
            (0..side)
                .map(|col| sample(g, -reach + col * spacing, z))
                .collect::<Vec<_>>()
        });
        Self {
            reach,
            spacing,
            side,
            surfaces: rows.into_iter().flatten().collect(),
        }
    }

    fn get(&self, col: i32, row: i32) -> Option<Surface> {
        let inside = (0..self.side).contains(&col) && (0..self.side).contains(&row);
        inside.then(|| self.surfaces[(row * self.side + col) as usize])
    }

    /// The survey points worth a closer look, best first: on land, rated by the
    /// relief along their best way (its samples and their own) and how far their
    /// ground falls away at the first, less a block for every 32 out from the origin;
    /// a way whose ground rises steeply ahead is never taken. At most
    /// [`CANDIDATES`], [`CANDIDATE_GAP`] apart.
    fn candidates(&self) -> Vec<Candidate> {
        let mut rated = Vec::new();
        for row in 0..self.side {
            for col in 0..self.side {
                let Some(here) = self.get(col, row).filter(|s| !s.water) else {
                    continue;
                };
                let at = [
                    -self.reach + col * self.spacing,
                    -self.reach + row * self.spacing,
                ];
                let out = at[0].abs().max(at[1].abs());
                let best = WAYS
                    .iter()
                    .filter_map(|&way| self.way_score(col, row, here, way).map(|s| (s, way)))
                    .max_by(|a, b| a.0.total_cmp(&b.0));
                if let Some((score, way)) = best {
                    rated.push((score - f64::from(out) / 32.0, Candidate { at, way }));
                }
            }
        }
        rated.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut chosen: Vec<Candidate> = Vec::new();
        for (_, c) in rated {
            let apart = |o: &Candidate| {
                (o.at[0] - c.at[0]).abs().max((o.at[1] - c.at[1]).abs()) >= CANDIDATE_GAP
            };
            if chosen.iter().all(apart) {
                chosen.push(c);
                if chosen.len() == CANDIDATES {
                    break;
                }
            }
        }
        chosen
    }

    /// How good the view from survey point `(col, row)` along `way` looks from the
    /// survey: the relief of its samples and its own (at most 300) and how far the
    /// ground falls at the first sample (-60 to 120); `None` where the ground ahead
    /// rises more than 2 blocks in 5 from it (a wall), or there is nothing ahead.
    fn way_score(&self, col: i32, row: i32, here: Surface, (dx, dz): (i32, i32)) -> Option<f64> {
        let step = f64::from(self.spacing) * f64::from(dx * dx + dz * dz).sqrt();
        let (mut low, mut high) = (here.height, here.height);
        let mut first = None;
        for k in 1..=WAY_SAMPLES {
            let Some(s) = self.get(col + dx * k, row + dz * k) else {
                break;
            };
            if s.height - here.height > 0.4 * step * f64::from(k) {
                return None;
            }
            first.get_or_insert(s.height);
            (low, high) = (low.min(s.height), high.max(s.height));
        }
        let drop = here.height - first?;
        Some((high - low).min(300.0) + drop.clamp(-60.0, 120.0))
    }
}

/// How a frame from `feet` along `facing` with `pitch` rates ([`RATING`]'s size):
/// the relief in view (up to 300 blocks: a point), some water (up to a quarter of
/// the frame: half a point), less for ground near the eye beyond 6% of the frame,
/// a sky outside 25-55% of it, relief under 70 blocks, `trees` ahead, and a point for
/// every 8 km from the origin (`from_origin`, in blocks along `x` or `z`).
fn rate(
    heights: &mut Heights,
    feet: [i32; 3],
    facing: [f32; 2],
    pitch: f32,
    trees: u32,
    from_origin: u32,
) -> (f64, FrameStats) {
    let s = Tally::of(heights, &camera(feet, facing, pitch), RATING, 0..RATING.0)
        .stats(RATING.0, RATING.1);
    let (sky, near, water) = (f64::from(s.sky), f64::from(s.near), f64::from(s.water));
    let mut score = f64::from(s.relief.min(300)) / 300.0 + 0.5 * water.min(0.25) / 0.25;
    score -= 10.0 * (near - 0.06).max(0.0);
    score -= 4.0 * ((0.25 - sky).max(0.0) + (sky - 0.55).max(0.0));
    if s.relief < 70 {
        score -= 1.0;
    }
    let score = score - 0.2 * f64::from(trees) - f64::from(from_origin) / 8192.0;
    (score, s)
}

/// The item of `options` with the highest score (the first of equals); `None` for
/// no options.
fn best_of<T>(options: impl Iterator<Item = (T, f64)>) -> Option<(T, f64)> {
    options.reduce(|a, b| if b.1 > a.1 { b } else { a })
}

/// The camera of a player standing at `feet`.
fn camera(feet: [i32; 3], facing: [f32; 2], pitch: f32) -> Camera {
    Camera {
        eye: [
            feet[0] as f64 + 0.5,
            feet[1] as f64 + super::frame::EYE_HEIGHT,
            feet[2] as f64 + 0.5,
        ],
        facing,
        pitch,
    }
}

/// Whether a column is dry ground to stand on: above the sea, no river or lake over it.
fn dry(top: &ColumnTop, sea: i32) -> bool {
    top.y >= sea && top.water.is_none()
}

/// The surface a column's top makes: the top face of its highest block, or of the
/// water over it (the sea's at `sea`).
fn surface_of(top: &ColumnTop, sea: i32) -> Surface {
    let level = top.water.unwrap_or(i32::MIN).max(sea);
    Surface {
        height: f64::from(top.y.max(level) + 1),
        water: top.y < level,
    }
}

/// The surface at column `(x, z)`, the open sea's found cheaply.
fn sample(g: &Generator, x: i32, z: i32) -> Surface {
    let (x, z) = (inside(x), inside(z));
    if g.terrain.surely_sea(x, z) {
        return Surface {
            height: f64::from(g.sea_level() + 1),
            water: true,
        };
    }
    surface_of(&g.column_top(x, z), g.sea_level())
}

/// The nearest column coordinate inside the world.
fn inside(v: i32) -> i32 {
    v.clamp(-WORLD_LIMIT + 1, WORLD_LIMIT - 2)
}

/// The surface around a centre, as a frame asks for it: column by column within
/// [`FINE_HALF`] blocks (made at once, sharing their work), then samples every
/// [`MID_SPACING`] and [`FAR_SPACING`] blocks made when a ray first needs them,
/// read between them linearly.
#[derive(Clone)]
struct Heights<'g> {
    generator: &'g Generator,
    centre: [i32; 2],
    tops: Vec<ColumnTop>,
    fine: Vec<Surface>,
    mid: Grid,
    far: Grid,
}

impl<'g> Heights<'g> {
    fn around(generator: &'g Generator, [x, z]: [i32; 2]) -> Self {
        let [x, z] = [x, z].map(|v| v.clamp(-WORLD_LIMIT + FINE_HALF, WORLD_LIMIT - FINE_HALF - 1));
        let side = (2 * FINE_HALF) as u32;
        let tops = generator.column_tops(x - FINE_HALF, z - FINE_HALF, side, side);
        let sea = generator.sea_level();
        let fine = tops.iter().map(|t| surface_of(t, sea)).collect();
        Self {
            generator,
            centre: [x, z],
            tops,
            fine,
            mid: Grid::new([x, z], MID_SPACING, MID_REACH as i32 + FINE_HALF),
            far: Grid::new([x, z], FAR_SPACING, REACH as i32 + 2 * FINE_HALF),
        }
    }

    /// The index in the fine square of column `(x, z)`, if it is in it.
    fn fine_index(&self, x: i32, z: i32) -> Option<usize> {
        let (lx, lz) = (
            x - self.centre[0] + FINE_HALF,
            z - self.centre[1] + FINE_HALF,
        );
        let side = 2 * FINE_HALF;
        ((0..side).contains(&lx) && (0..side).contains(&lz)).then(|| (lz * side + lx) as usize)
    }

    /// Up to [`SPOTS`] dry columns within [`SPOT_REACH`] of `summit` with no tree
    /// near nor a cave's mouth, and no ground within [`SPOT_CLEAR`] blocks rising
    /// above the lowest block a body there fills, highest first, [`SPOT_GAP`] apart,
    /// as the feet.
    fn spots(&self, g: &Generator, summit: [i32; 2]) -> Vec<[i32; 3]> {
        let mut columns: Vec<(i32, [i32; 2])> = Vec::new();
        for dz in -SPOT_REACH..=SPOT_REACH {
            for dx in -SPOT_REACH..=SPOT_REACH {
                let (x, z) = (summit[0] + dx, summit[1] + dz);
                if let Some(i) = self.fine_index(x, z)
                    && dry(&self.tops[i], g.sea_level())
                {
                    columns.push((self.tops[i].y, [x, z]));
                }
            }
        }
        columns.sort_by_key(|&(y, [x, z])| (std::cmp::Reverse(y), x, z));
        let mut spots: Vec<[i32; 3]> = Vec::new();
        for (y, [x, z]) in columns {
            let apart = spots
                .iter()
                .all(|s| (s[0] - x).abs().max((s[2] - z).abs()) >= SPOT_GAP);
            if apart
                && self.nothing_above(x, z, y + 1)
                && !g.tree_near(x, z)
                && !g.terrain.cave_mouth_near(x, z)
            {
                spots.push([x, y + 1, z]);
                if spots.len() == SPOTS {
                    break;
                }
            }
        }
        spots
    }
}

impl Heights<'_> {
    /// Whether no column within [`SPOT_CLEAR`] blocks of `(x, z)` (all in the fine
    /// square) has its top above `y`.
    fn nothing_above(&self, x: i32, z: i32, y: i32) -> bool {
        (-SPOT_CLEAR..=SPOT_CLEAR).all(|dz| {
            (-SPOT_CLEAR..=SPOT_CLEAR).all(|dx| {
                self.fine_index(x + dx, z + dz)
                    .is_some_and(|i| self.tops[i].y <= y)
            })
        })
    }
}

impl Ground for Heights<'_> {
    fn surface(&mut self, x: f64, z: f64, reach: f64) -> Surface {
        if reach < FINE
            && let Some(i) = self.fine_index(x.floor() as i32, z.floor() as i32)
        {
            return self.fine[i];
        }
        let g = self.generator;
        if reach < MID_REACH {
            self.mid.surface(g, x, z)
        } else {
            self.far.surface(g, x, z)
        }
    }
}

/// Samples of the surface every `spacing` blocks in a square around a centre, each
/// made when first read.
#[derive(Clone)]
struct Grid {
    origin: [i32; 2],
    spacing: i32,
    side: i32,
    cells: Vec<Option<Surface>>,
}

impl Grid {
    /// A grid reaching `reach` blocks from `centre` to each side.
    fn new(centre: [i32; 2], spacing: i32, reach: i32) -> Self {
        let half = reach / spacing + 1;
        let side = 2 * half + 1;
        Self {
            origin: centre.map(|c| c - half * spacing),
            spacing,
            side,
            cells: vec![None; (side * side) as usize],
        }
    }

    /// The sample at grid point `(i, j)` (clamped into the grid).
    fn at(&mut self, g: &Generator, i: i32, j: i32) -> Surface {
        let (i, j) = (i.clamp(0, self.side - 1), j.clamp(0, self.side - 1));
        let (x, z) = (
            self.origin[0] + i * self.spacing,
            self.origin[1] + j * self.spacing,
        );
        *self.cells[(j * self.side + i) as usize].get_or_insert_with(|| sample(g, x, z))
    }

    /// The surface at `(x, z)`: its height read linearly between the four samples
    /// around it, water where the nearest is.
    fn surface(&mut self, g: &Generator, x: f64, z: f64) -> Surface {
        let s = f64::from(self.spacing);
        let (u, v) = (
            (x - f64::from(self.origin[0])) / s,
            (z - f64::from(self.origin[1])) / s,
        );
        let (i, j) = (u.floor() as i32, v.floor() as i32);
        let (fu, fv) = (u - f64::from(i), v - f64::from(j));
        let corners = [
            self.at(g, i, j),
            self.at(g, i + 1, j),
            self.at(g, i, j + 1),
            self.at(g, i + 1, j + 1),
        ];
        let height = (corners[0].height * (1.0 - fu) + corners[1].height * fu) * (1.0 - fv)
            + (corners[2].height * (1.0 - fu) + corners[3].height * fu) * fv;
        let nearest = usize::from(fu >= 0.5) + 2 * usize::from(fv >= 0.5);
        Surface {
            height,
            water: corners[nearest].water,
        }
    }
}
