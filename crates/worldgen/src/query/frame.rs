//! The first frame a player sees, without a GPU: the frame's rays (one a pixel, the
//! game's camera and field of view) cast through the surface of the land, and what
//! they meet ([`FrameStats`]: the sky, ground nearer than [`FRAME_NEAR`] blocks, water, the
//! relief in view). The spawn search rates places by it (`spawn`), and the command
//! line prints it (`terravox spawn --stats`).
//!
//! ```text
//!   eye ------------------------------------- a row's ray, marched along the ground
//!    |  \ ---___                              (finely near the eye, then steps that
//!    |   \      ---___    sky                 grow with the distance) until it is
//!    |    \            ---___                 under the surface; the ray of the row
//!  ##|     \                 ---___           above starts where it met it
//!  ####___  \  near: met within 16 blocks
//!  ########\_\___________________ water
//! ```
//!
//! The land is a [`Ground`]: the surface height and whether it is water at any point,
//! as the caller samples it (the spawn's samples the generator's column tops more
//! sparsely the further from the eye; tests hand-make walls, slopes and seas).

/// The first frame's width in pixels, as the game opens its window.
pub const FRAME_WIDTH: u32 = 1280;
/// The first frame's height in pixels.
pub const FRAME_HEIGHT: u32 = 720;
/// The camera's vertical field of view in radians (the game's camera has it).
pub const FIELD_OF_VIEW: f32 = 75.0 * std::f32::consts::PI / 180.0;
/// How high a player's eyes are above the feet, in blocks (the body's, in the
/// authority).
pub const EYE_HEIGHT: f64 = 1.62;
/// Ground met nearer than this many blocks fills the frame ([`FrameStats::near`]).
pub const FRAME_NEAR: f64 = 16.0;
/// How far a ray is followed along the ground, in blocks: the relief in view is
/// that of the ground met within it; a ray rising that meets nothing is sky.
pub(crate) const REACH: f64 = 2048.0;
/// How finely a ray is marched within [`FINE`] blocks of the eye (a quarter block, so
/// no block's top is stepped over), and beyond, as a share of the distance gone.
const FINE_STEP: f64 = 0.25;
/// How far from the eye the ray is marched by [`FINE_STEP`].
pub(crate) const FINE: f64 = 24.0;
/// Beyond [`FINE`], the step is the distance gone divided by this.
const STEP_SHARE: f64 = 48.0;

/// The yaw in radians that looks along the horizontal direction `[x, z]`, as the
/// game's camera turns (yaw 0 looks towards `-z`, a quarter turn towards `-x`).
pub fn yaw_towards([x, z]: [f32; 2]) -> f32 {
    (-x).atan2(-z)
}

/// The surface at a point: its height (the top face of the highest solid block, or of
/// the water over it) and whether that is water.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Surface {
    /// The height of the surface's top face.
    pub(crate) height: f64,
    /// Whether the surface is water (the sea, a lake, a river).
    pub(crate) water: bool,
}

/// The land a frame is cast through: the surface at `(x, z)`, `reach` blocks along the
/// ground from the eye (a caller may sample more sparsely further out).
pub(crate) trait Ground {
    /// The surface at `(x, z)`.
    fn surface(&mut self, x: f64, z: f64, reach: f64) -> Surface;
}

/// Where the camera is and how it looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Camera {
    /// The eye, in blocks.
    pub(crate) eye: [f64; 3],
    /// The horizontal way it faces: a unit vector `[x, z]`.
    pub(crate) facing: [f32; 2],
    /// How far it looks up (positive) or down, in radians.
    pub(crate) pitch: f32,
}

/// What a frame's rays meet, as shares of its pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Rays that rise into the sky, meeting nothing within 2 km.
    pub sky: f32,
    /// Rays that meet the ground (or water) nearer than [`FRAME_NEAR`] blocks from the eye.
    pub near: f32,
    /// Rays that meet water.
    pub water: f32,
    /// The highest surface met within 2 km less the lowest, in blocks (water
    /// counts at its surface).
    pub relief: i32,
}

/// Casts the rays of a `width` x `height` frame from `camera` through `ground`: one a
/// pixel, through its centre.
#[cfg(test)]
pub(crate) fn cast(
    ground: &mut impl Ground,
    camera: &Camera,
    width: u32,
    height: u32,
) -> FrameStats {
    Tally::of(ground, camera, (width, height), 0..width).stats(width, height)
}

/// What the rays of some columns of a frame met, to be added to the others'.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tally {
    sky: u32,
    near: u32,
    water: u32,
    low: f64,
    high: f64,
}

impl Default for Tally {
    fn default() -> Self {
        Self {
            sky: 0,
            near: 0,
            water: 0,
            low: f64::INFINITY,
            high: f64::NEG_INFINITY,
        }
    }
}

impl Tally {
    /// Casts the rays of `columns` of a frame of `(width, height)` pixels from
    /// `camera` through `ground`. The rays of a column of pixels are marched from the
    /// bottom up, each from where the one below met the ground (a ray above another
    /// rises above it all the way out), so a column costs about one ray's march plus
    /// a step a pixel.
    pub(crate) fn of(
        ground: &mut impl Ground,
        camera: &Camera,
        (width, height): (u32, u32),
        columns: std::ops::Range<u32>,
    ) -> Self {
        let basis = Basis::of(camera, width, height);
        let mut tally = Self::default();
        let v_of = |row: u32| (1.0 - 2.0 * (row as f64 + 0.5) / height as f64) * basis.tan_y;
        for column in columns {
            let u = (2.0 * (column as f64 + 0.5) / width as f64 - 1.0) * basis.tan_x;
            let mut from = 0.0;
            for row in (0..height).rev() {
                let ray = basis.ray(u, v_of(row));
                let Some((t, surface)) = march(ground, camera.eye, ray, from) else {
                    // This ray meets nothing within reach, nor does any above it: those
                    // rising are the sky.
                    tally.sky += (0..=row)
                        .filter(|&r| basis.ray(u, v_of(r))[1] >= 0.0)
                        .count() as u32;
                    break;
                };
                from = t;
                let flat = ray[0].hypot(ray[2]);
                let distance = t / flat * (ray[0].powi(2) + ray[1].powi(2) + ray[2].powi(2)).sqrt();
                tally.near += u32::from(distance < FRAME_NEAR);
                tally.water += u32::from(surface.water);
                tally.low = tally.low.min(surface.height);
                tally.high = tally.high.max(surface.height);
            }
        }
        tally
    }

    /// Both tallies together.
    pub(crate) fn add(self, o: Self) -> Self {
        Self {
            sky: self.sky + o.sky,
            near: self.near + o.near,
            water: self.water + o.water,
            low: self.low.min(o.low),
            high: self.high.max(o.high),
        }
    }

    /// The shares of a whole frame of `width` x `height` pixels.
    pub(crate) fn stats(self, width: u32, height: u32) -> FrameStats {
        let pixels = (width * height).max(1) as f32;
        FrameStats {
            sky: self.sky as f32 / pixels,
            near: self.near as f32 / pixels,
            water: self.water as f32 / pixels,
            relief: if self.high >= self.low {
                (self.high - self.low).round() as i32
            } else {
                0
            },
        }
    }
}

/// Marches `ray` from `eye`, from `from` blocks along the ground out to [`REACH`]:
/// where it first is at or under the surface, as the distance along the ground and
/// the surface there; `None` if it never is.
fn march(
    ground: &mut impl Ground,
    eye: [f64; 3],
    ray: [f64; 3],
    from: f64,
) -> Option<(f64, Surface)> {
    let flat = ray[0].hypot(ray[2]);
    if flat < 1e-9 {
        return None;
    }
    let (dx, dy, dz) = (ray[0] / flat, ray[1] / flat, ray[2] / flat);
    let mut t = from;
    while t <= REACH {
        let (x, y, z) = (eye[0] + dx * t, eye[1] + dy * t, eye[2] + dz * t);
        let surface = ground.surface(x, z, t);
        if y <= surface.height {
            return Some((t, surface));
        }
        t += if t < FINE { FINE_STEP } else { t / STEP_SHARE };
    }
    None
}

/// The camera's axes, with the frame's half-extents as tangents.
struct Basis {
    forward: [f64; 3],
    right: [f64; 3],
    up: [f64; 3],
    tan_x: f64,
    tan_y: f64,
}

impl Basis {
    fn of(camera: &Camera, width: u32, height: u32) -> Self {
        let [fx, fz] = camera.facing.map(f64::from);
        let (sin, cos) = f64::from(camera.pitch).sin_cos();
        let tan_y = (f64::from(FIELD_OF_VIEW) / 2.0).tan();
        Self {
            forward: [fx * cos, sin, fz * cos],
            right: [-fz, 0.0, fx],
            up: [-fx * sin, cos, -fz * sin],
            tan_x: tan_y * width as f64 / height.max(1) as f64,
            tan_y,
        }
    }

    /// The ray through the point `(u, v)` of the image plane one block ahead.
    fn ray(&self, u: f64, v: f64) -> [f64; 3] {
        std::array::from_fn(|i| self.forward[i] + u * self.right[i] + v * self.up[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flat land at `level`, water below `sea`, and a wall of `wall` blocks high
    /// from `wall_at` blocks along `-z` on.
    struct Land {
        level: f64,
        sea: f64,
        wall: Option<(f64, f64)>,
    }

    impl Ground for Land {
        fn surface(&mut self, _x: f64, z: f64, _reach: f64) -> Surface {
            if let Some((at, high)) = self.wall
                && -z >= at
            {
                return Surface {
                    height: high,
                    water: false,
                };
            }
            Surface {
                height: self.level.max(self.sea),
                water: self.level < self.sea,
            }
        }
    }

    fn camera(eye_y: f64, pitch: f32) -> Camera {
        Camera {
            eye: [0.5, eye_y, 0.5],
            facing: [0.0, -1.0],
            pitch,
        }
    }

    #[test]
    fn level_eyes_over_a_calm_sea_see_half_sky_half_water() {
        let mut sea = Land {
            level: 0.0,
            sea: 10.0,
            wall: None,
        };
        let s = cast(&mut sea, &camera(10.0 + 50.0, 0.0), 128, 72);
        // The horizon is a little below the middle row (the sea lies 50 blocks down
        // and is followed to 2 km); every ray below it meets water.
        assert!((0.45..=0.5).contains(&s.sky), "{s:?}");
        assert!((s.sky + s.water - 1.0).abs() < 0.02, "{s:?}");
        assert_eq!(s.relief, 0);
        assert_eq!(s.near, 0.0);
    }

    #[test]
    fn standing_on_flat_ground_the_bottom_of_the_frame_is_near() {
        let mut flat = Land {
            level: 10.0,
            sea: 0.0,
            wall: None,
        };
        let eye = 10.0 + EYE_HEIGHT;
        let level = cast(&mut flat, &camera(eye, 0.0), 128, 72);
        // A ray through the image plane at (u, v), v < 0, meets the ground
        // 1.62 * |(u, v, 1)| / |v| blocks away: the share of pixels for which that is
        // under 16, worked out without marching.
        let tan_y = (FIELD_OF_VIEW as f64 / 2.0).tan();
        let (w, h) = (128, 72);
        let expected = (0..w * h)
            .filter(|i| {
                let u = (2.0 * ((i % w) as f64 + 0.5) / w as f64 - 1.0) * tan_y * 16.0 / 9.0;
                let v = (1.0 - 2.0 * ((i / w) as f64 + 0.5) / h as f64) * tan_y;
                v < 0.0 && EYE_HEIGHT * (1.0 + u * u + v * v).sqrt() / -v < FRAME_NEAR
            })
            .count() as f64
            / (w * h) as f64;
        assert!(
            (level.near as f64 - expected).abs() < 0.01,
            "{level:?} vs {expected}"
        );
        assert!(expected > 0.3, "most of the lower half: {expected}");
        // Looking down brings more of it into the frame.
        let down = cast(&mut flat, &camera(eye, -0.3), 128, 72);
        assert!(down.near > level.near + 0.1, "{down:?}");
        assert!(down.sky < level.sky, "{down:?}");
    }

    #[test]
    fn a_wall_ahead_hides_the_sky_and_a_higher_eye_sees_over_it() {
        let mut walled = Land {
            level: 0.0,
            sea: -1.0,
            wall: Some((8.0, 400.0)),
        };
        let s = cast(&mut walled, &camera(EYE_HEIGHT, 0.0), 128, 72);
        assert!(s.sky < 0.05, "{s:?}");
        assert!(s.near > 0.9, "{s:?}");
        assert_eq!(s.relief, 400);
        let mut low = Land {
            level: 0.0,
            sea: -1.0,
            wall: Some((100.0, 20.0)),
        };
        let over = cast(&mut low, &camera(60.0, 0.0), 128, 72);
        assert!(over.sky > 0.4, "{over:?}");
        assert_eq!(over.near, 0.0, "{over:?}");
    }

    #[test]
    fn the_frame_turns_with_the_camera() {
        // A wall to the -z side only: facing away from it, the frame is open.
        let mut walled = Land {
            level: 0.0,
            sea: -1.0,
            wall: Some((8.0, 400.0)),
        };
        let mut away = camera(EYE_HEIGHT, 0.0);
        away.facing = [0.0, 1.0];
        let s = cast(&mut walled, &away, 128, 72);
        assert!(s.sky > 0.4, "{s:?}");
    }
}
