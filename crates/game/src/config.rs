//! Start-up options and the settings every plugin reads: the lowest layer, no systems.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_net::client::{JoinOptions, Joined};
use terravox_worldgen::WorldConfig;

/// Default view distance in chunks.
pub const DEFAULT_VIEW_DISTANCE: u32 = 12;

/// The camera's far plane, in blocks: beyond the corners of the chunks at the widest
/// horizon (65,536 blocks, the top level's chunks reaching 8192 blocks further: about
/// 104,000 along a diagonal).
pub(crate) const FAR_PLANE: f32 = 110_000.0;

/// Default horizon distance in blocks.
pub const DEFAULT_HORIZON: u32 = 4096;

/// How far coarse chunks reach, in blocks, changeable live: the edge of the
/// coarsest ring of detail. 0 (or anything within the view) draws full-detail chunks
/// only.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HorizonDistance(pub u32);

impl HorizonDistance {
    /// Allowed range.
    pub const RANGE: std::ops::RangeInclusive<u32> = 0..=65536;

    /// How far the world reaches, in blocks: the horizon, or the view distance
    /// without one (what the fog and the atmosphere scale with).
    pub(crate) fn reach(self, view: ViewDistance) -> f32 {
        (view.0 * terravox_voxel::CHUNK as u32).max(self.0) as f32
    }
}

/// The most mesh memory the view and the horizon together hold, in MiB: past it the
/// horizon draws its rings narrower ([`crate::horizon::Detail`]), down to a
/// limit. Set at start-up (`--horizon-memory`).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HorizonMemory(pub u32);

impl HorizonMemory {
    /// Allowed range.
    pub const RANGE: std::ops::RangeInclusive<u32> = 64..=65536;

    /// The budget in bytes.
    pub(crate) fn bytes(self) -> usize {
        self.0 as usize * (1 << 20)
    }
}

/// The default mesh memory budget, in MiB.
pub const DEFAULT_HORIZON_MEMORY: u32 = 384;

/// An automated screenshot: taken once the view distance is loaded and at least
/// `frames` frames and `seconds` seconds have passed after that; then the app exits.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotPlan {
    /// Where to write the PNG.
    pub path: PathBuf,
    /// Frames to wait after loading.
    pub frames: u32,
    /// Seconds to wait after loading.
    pub seconds: f32,
}

/// A joined server, handed from the command line to the game (once).
#[derive(Clone)]
pub struct Remote {
    joined: Arc<Mutex<Option<Joined>>>,
    options: JoinOptions,
}

impl Remote {
    /// The game plays `joined`, joined with `options` (to join again with).
    pub fn new(joined: Joined, options: JoinOptions) -> Self {
        Self {
            joined: Arc::new(Mutex::new(Some(joined))),
            options,
        }
    }

    /// The joined server and how it was joined, the first time (the session takes it).
    pub(crate) fn take(&self) -> Option<(Joined, JoinOptions)> {
        let joined = self.joined.lock().ok()?.take()?;
        Some((joined, self.options.clone()))
    }
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Remote({} as {})",
            self.options.address, self.options.name
        )
    }
}

/// Everything the command line decides about a game session.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The world to start in.
    pub world: WorldConfig,
    /// View distance in chunks ([`ViewDistance::RANGE`]).
    pub view_distance: u32,
    /// Take a screenshot and exit.
    pub screenshot: Option<ScreenshotPlan>,
    /// Start with the panel open.
    pub panel_open: bool,
    /// Parts of the panel to start open (`--show`).
    pub panel_view: PanelView,
    /// Folder for each world's saved edits; `None` keeps edits in memory only.
    pub save_dir: Option<PathBuf>,
    /// Start with the feet at this `[x, y, z]` (flying, so the view stays put)
    /// instead of on the surface.
    pub at: Option<[f64; 3]>,
    /// Start looking this way: yaw and pitch in degrees (yaw 0 looks towards -z, 90
    /// towards -x; pitch up is positive) instead of the spawn's (towards its relief).
    pub look: Option<[f32; 2]>,
    /// Start at this time of day, hours past midnight, instead of the morning; with a
    /// screenshot the clock stands still there.
    pub time: Option<f32>,
    /// Which sky to draw.
    pub sky: SkyChoice,
    /// Cave culling on (the default); off draws and meshes every loaded chunk, to
    /// compare.
    pub culling: bool,
    /// Horizon distance in blocks ([`HorizonDistance::RANGE`]; 0: none).
    pub horizon: u32,
    /// Mesh memory budget in MiB ([`HorizonMemory::RANGE`]).
    pub horizon_memory: u32,
    /// A server joined (`--join`): the world is its, and nothing is saved here.
    pub remote: Option<Remote>,
    /// The terravox executable "Open to others" starts a server of (`None`: the
    /// running one).
    pub server_exe: Option<PathBuf>,
}

impl PlayOptions {
    /// Options for `world` with everything else at its default: view distance 12, no
    /// screenshot, panel closed, edits kept in memory, the default spawn and view, a
    /// morning, the sky the renderer suits, cave culling on, a 4 km horizon within
    /// 384 MiB of meshes.
    pub fn new(world: WorldConfig) -> Self {
        Self {
            world,
            view_distance: DEFAULT_VIEW_DISTANCE,
            screenshot: None,
            panel_open: false,
            panel_view: PanelView::default(),
            save_dir: None,
            at: None,
            look: None,
            time: None,
            sky: SkyChoice::Auto,
            culling: true,
            horizon: DEFAULT_HORIZON,
            horizon_memory: DEFAULT_HORIZON_MEMORY,
            remote: None,
            server_exe: None,
        }
    }
}

/// The sky a player asks for (`--sky`); `sky` decides which is drawn from it and
/// the renderer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkyChoice {
    /// The default: the atmosphere on a GPU that supports it, else the gradient.
    #[default]
    Auto,
    /// The atmosphere wherever the renderer can draw it, software included.
    Physical,
    /// The gradient dome.
    Gradient,
}

impl std::str::FromStr for SkyChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Self::Auto),
            "physical" => Ok(Self::Physical),
            "gradient" => Ok(Self::Gradient),
            _ => Err(format!("`{s}` is not a sky: auto, physical or gradient")),
        }
    }
}

/// Which parts of the panel start open, and the preview's layer (`--show`).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PanelView {
    /// The preview map's layer; `None`: terrain.
    pub layer: Option<terravox_worldgen::map::Layer>,
    /// The spline editor.
    pub splines: bool,
    /// The cross-section.
    pub section: bool,
    /// The seed browser.
    pub seeds: bool,
}

impl PanelView {
    /// Every part `--show` takes: each map layer the preview can draw, then
    /// `splines`, `section` and `seeds`.
    pub fn parts() -> impl Iterator<Item = &'static str> {
        terravox_worldgen::map::Layer::ALL
            .into_iter()
            .map(|l| l.name())
            .chain(["splines", "section", "seeds"])
    }
}

impl std::str::FromStr for PanelView {
    type Err = String;

    /// A comma-separated list: a map layer's name, `splines`, `section`, `seeds`.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut v = PanelView::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "splines" => v.splines = true,
                "section" => v.section = true,
                "seeds" => v.seeds = true,
                name => {
                    let layer = terravox_worldgen::map::Layer::ALL
                        .into_iter()
                        .find(|l| l.name() == name)
                        .ok_or_else(|| {
                            let parts: Vec<_> = PanelView::parts().collect();
                            format!("`{name}` is not a panel part: {}", parts.join(", "))
                        })?;
                    v.layer = Some(layer);
                }
            }
        }
        Ok(v)
    }
}

/// View distance in chunks, changeable live.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewDistance(pub u32);

impl ViewDistance {
    /// Allowed range.
    pub const RANGE: std::ops::RangeInclusive<u32> = 4..=32;
}

/// How much streaming work a frame may take on. A played game spreads uploads over
/// frames so no frame stalls, and keeps about a frame and a half of coarse work
/// queued per worker, so the workers stay busy until the next frame refills them
/// (whatever the frame rate) without holding back the full-detail chunks started
/// next frame for long. An automated screenshot, which nobody watches frame by
/// frame, lifts both: on a software renderer drawing one or two frames a second,
/// the horizon would otherwise take many minutes to appear.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub(crate) struct StreamBudget {
    /// Chunk meshes uploaded per frame at most, full-detail and coarse each.
    pub uploads: usize,
    /// Frames of coarse work kept in flight per worker once every full-detail chunk
    /// has started (at the mean time of a coarse chunk).
    pub coarse_frames: f32,
    /// Coarse tasks in flight per worker at most.
    pub coarse_per_worker: usize,
}

impl StreamBudget {
    /// The budget of a played game.
    pub(crate) const PLAYED: Self = Self {
        uploads: 12,
        coarse_frames: 1.5,
        coarse_per_worker: 256,
    };
    /// The budget of an automated screenshot.
    pub(crate) const AUTOMATED: Self = Self {
        uploads: usize::MAX,
        coarse_frames: 4.0,
        coarse_per_worker: 1024,
    };
}

/// The automated screenshot, if one was asked for.
#[derive(Resource, Clone, Debug, Default)]
pub(crate) struct AutoScreenshot(pub Option<ScreenshotPlan>);

/// Where and how the first view is framed (`--at`, `--look`).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct StartView {
    /// Feet position.
    pub at: Option<DVec3>,
    /// Yaw and pitch in degrees.
    pub look: Option<[f32; 2]>,
}

/// The config plugin, from the start-up options.
pub(crate) fn plugin(options: PlayOptions) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(ViewDistance(
            options
                .view_distance
                .clamp(*ViewDistance::RANGE.start(), *ViewDistance::RANGE.end()),
        ))
        .insert_resource(HorizonDistance(
            options.horizon.min(*HorizonDistance::RANGE.end()),
        ))
        .insert_resource(HorizonMemory(
            options
                .horizon_memory
                .clamp(*HorizonMemory::RANGE.start(), *HorizonMemory::RANGE.end()),
        ))
        .insert_resource(if options.screenshot.is_some() {
            StreamBudget::AUTOMATED
        } else {
            StreamBudget::PLAYED
        })
        .insert_resource(AutoScreenshot(options.screenshot.clone()))
        .insert_resource(options.panel_view.clone())
        .insert_resource(StartView {
            at: options.at.map(DVec3::from_array),
            look: options.look,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(options: PlayOptions) -> StreamBudget {
        let mut app = App::new();
        plugin(options)(&mut app);
        *app.world().resource::<StreamBudget>()
    }

    #[test]
    fn only_an_automated_screenshot_lifts_the_stream_budget() {
        let played = PlayOptions::new(WorldConfig::default());
        assert_eq!(budget(played.clone()), StreamBudget::PLAYED);
        let automated = PlayOptions {
            screenshot: Some(ScreenshotPlan {
                path: "shot.png".into(),
                frames: 0,
                seconds: 0.0,
            }),
            ..played
        };
        assert_eq!(budget(automated), StreamBudget::AUTOMATED);
    }

    #[test]
    fn sky_choices_parse_by_name() {
        assert_eq!("physical".parse(), Ok(SkyChoice::Physical));
        assert_eq!("gradient".parse(), Ok(SkyChoice::Gradient));
        assert_eq!("auto".parse(), Ok(SkyChoice::Auto));
        assert!(
            "purple"
                .parse::<SkyChoice>()
                .unwrap_err()
                .contains("auto, physical or gradient")
        );
    }
}
