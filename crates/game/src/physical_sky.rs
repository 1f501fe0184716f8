//! Which sky is drawn: Bevy's physical [`Atmosphere`] (Hillaire's scattering, with a
//! sun disk) wherever the renderer can draw it, or the gradient dome of `sky_dome`.
//!
//! | renderer | `auto` (default) | `physical` | `gradient` |
//! | --- | --- | --- | --- |
//! | a GPU passing the `AtmospherePlugin`'s checks | physical | physical | gradient |
//! | Mesa's llvmpipe 25 or later (software Vulkan) | gradient (cheaper) | physical | gradient |
//! | llvmpipe before 25, or no compute/storage textures | gradient | gradient, warned | gradient |
//!
//! Mesa 22.3's llvmpipe (Debian 12's) segfaults in the atmosphere's compute passes;
//! Mesa 25.0 (bookworm-backports, which CI installs) draws it, at about 80% of the
//! gradient sky's frame rate.
//!
//! The physical sky wants sunlight at its real strength (~130,000 lux) and an
//! exposure to match; [`SkyKind::light_scale`] scales the light of `sky::sky_at` so
//! that terrain looks the same under both skies.

use bevy::camera::Exposure;
use bevy::light::atmosphere::ScatteringMedium;
use bevy::light::{Atmosphere, SunDisk};
use bevy::pbr::AtmosphereSettings;
use bevy::prelude::*;
use bevy::render::render_resource::{TextureFormat, TextureUsages};
use bevy::render::renderer::{RenderAdapter, RenderAdapterInfo, RenderDevice};

use crate::GameSystems;
use crate::player::PlayerCamera;
use crate::sky::{SUN_LUX, SkyLight, Sun};

/// The sky a player asks for (`--sky`).
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

/// The sky being drawn, decided once the renderer is known.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkyKind {
    /// Bevy's atmosphere.
    Physical,
    /// The gradient dome.
    Gradient,
}

/// The camera's exposure under the physical sky.
const PHYSICAL_EV100: f32 = 13.5;

impl SkyKind {
    /// The factor on the sun's (or moon's) illuminance and the ambient light, so that
    /// terrain seen through the camera's exposure looks the same under both skies.
    pub(crate) fn light_scale(kind: Option<&Self>) -> f32 {
        match kind {
            Some(SkyKind::Physical) => 2f32.powf(PHYSICAL_EV100 - Exposure::EV100_BLENDER),
            _ => 1.0,
        }
    }

    /// The direct light (direction it travels, illuminance before
    /// [`SkyKind::light_scale`], colour) at the hour of `sky`. Under the physical sky
    /// the sun stays the light through twilight, until it is [`TWILIGHT`] below the
    /// horizon, at full strength and white: the atmosphere dims and reddens it on its
    /// way to the terrain, hides it below the horizon and lights the twilight sky
    /// from it (a sun switched off at the horizon left the sky black). Otherwise, and
    /// by night, `sky_at`'s sun or moon.
    pub(crate) fn direct_light(kind: Option<&Self>, sky: &SkyLight) -> (Vec3, f32, Color) {
        match kind {
            Some(SkyKind::Physical) if sky.sun_height > TWILIGHT => {
                (-sky.sun, SUN_LUX, Color::WHITE)
            }
            _ => (sky.direction, sky.illuminance, sky.light),
        }
    }
}

/// How far below the horizon (the sine of the angle: about 5 degrees) the sun keeps
/// lighting the physical sky: there its twilight glow is about as bright as the
/// moonlit sky that follows (measured on `--sky physical` screenshots), so the switch
/// to the moon does not flash.
const TWILIGHT: f32 = -0.085;

/// What the renderer offers, as far as the sky is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Renderer {
    /// The adapter renders on the CPU.
    pub(crate) software: bool,
    /// Why the atmosphere cannot be drawn, if it cannot (the checks of Bevy's
    /// `AtmospherePlugin`).
    pub(crate) unsupported: Option<&'static str>,
}

/// Picks the sky, and says why.
pub(crate) fn choose(choice: SkyChoice, renderer: &Renderer) -> (SkyKind, String) {
    match (choice, renderer.unsupported) {
        (SkyChoice::Gradient, _) => (SkyKind::Gradient, "asked for".into()),
        (_, Some(why)) => (
            SkyKind::Gradient,
            format!("the renderer cannot draw the physical sky: {why}"),
        ),
        (SkyChoice::Auto, None) if renderer.software => (
            SkyKind::Gradient,
            "a software renderer: the gradient is cheaper (--sky physical draws the \
             atmosphere)"
                .into(),
        ),
        (SkyChoice::Auto, None) => (SkyKind::Physical, "the renderer supports it".into()),
        (SkyChoice::Physical, None) => (SkyKind::Physical, "asked for".into()),
    }
}

/// The major version of Mesa in an adapter's driver description
/// (`"Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)"` gives 25).
fn mesa_major(driver_info: &str) -> Option<u32> {
    let rest = &driver_info[driver_info.find("Mesa ")? + 5..];
    rest.split('.').next()?.parse().ok()
}

/// The first Mesa whose llvmpipe draws the atmosphere (22.3 segfaults).
const LLVMPIPE_ATMOSPHERE: u32 = 25;

/// The sun as drawn: three times its real size, so that it reads as a disk on a
/// screen without bloom, as the gradient sky's sun does.
const SUN_DISK: SunDisk = SunDisk {
    angular_size: 3.0 * SunDisk::EARTH.angular_size,
    intensity: 1.0,
};

/// The atmosphere's colour just above the horizon (sRGB) by the hour, as Bevy draws
/// it for this game's sun and moon: measured from `--sky physical` screenshots over
/// the sea (black clear colour), half a degree to a degree and a half up. By day and
/// night it is the same in every direction to within a few levels; in the twilight
/// the side of the sun is up to twice as bright, and the table holds the side away
/// from it, so distant land is a dark silhouette against the sunset rather than a
/// glowing band under a darker sky. Around 5:40 and 18:20 the light switches between
/// the sun's twilight and the moon ([`TWILIGHT`]). The fog and the skirt below the
/// horizon take it, so distant terrain fades into the sky.
const HORIZON: [(f32, [u8; 3]); 25] = [
    (3.0, [34, 48, 73]),
    (5.0, [29, 38, 53]),
    (5.58, [20, 23, 27]),
    (5.67, [15, 13, 13]),
    (5.75, [15, 13, 13]),
    (5.833, [26, 22, 22]),
    (5.917, [47, 31, 32]),
    (6.0, [89, 54, 51]),
    (6.5, [160, 155, 134]),
    (7.0, [169, 179, 172]),
    (8.0, [180, 193, 188]),
    (10.0, [187, 201, 201]),
    (12.0, [188, 202, 203]),
    (15.0, [185, 198, 197]),
    (17.0, [169, 179, 172]),
    (17.5, [160, 155, 134]),
    (18.0, [89, 54, 51]),
    (18.083, [47, 31, 32]),
    (18.167, [26, 22, 22]),
    (18.25, [15, 13, 13]),
    (18.33, [15, 13, 13]),
    (18.42, [20, 23, 27]),
    (19.0, [29, 38, 53]),
    (20.0, [33, 45, 67]),
    (22.0, [36, 50, 76]),
];

/// The physical sky's colour at the horizon at `hours`, interpolated in linear light
/// between the measured hours (around midnight too).
pub(crate) fn horizon(hours: f32) -> Color {
    let h = hours.rem_euclid(24.0);
    let n = HORIZON.len();
    let next = HORIZON.iter().position(|&(t, _)| t > h).unwrap_or(n);
    let (t0, c0) = if next == 0 {
        (HORIZON[n - 1].0 - 24.0, HORIZON[n - 1].1)
    } else {
        HORIZON[next - 1]
    };
    let (t1, c1) = if next == n {
        (HORIZON[0].0 + 24.0, HORIZON[0].1)
    } else {
        HORIZON[next]
    };
    let f = ((h - t0) / (t1 - t0)).clamp(0.0, 1.0);
    let lin = |c: [u8; 3]| Color::srgb_u8(c[0], c[1], c[2]).to_linear();
    let (a, b) = (lin(c0), lin(c1));
    let c = a.mix(&b, f);
    Color::LinearRgba(c * tonemap_gain(c))
}

/// The table holds colours as shown on screen, after tonemapping; the fog and the
/// skirt are tonemapped again, which darkens bright colours (by about 1.85 in linear
/// light for the day's horizon) and leaves dark ones nearly alone.
fn tonemap_gain(c: LinearRgba) -> f32 {
    1.0 + 1.5 * c.luminance()
}

/// The sky asked for on the command line.
#[derive(Resource, Clone, Copy, Debug)]
struct Requested(SkyChoice);

/// The physical sky plugin: decides the sky at start-up and equips the camera and
/// the sun for the atmosphere.
pub(crate) fn plugin(choice: SkyChoice) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(Requested(choice))
            .add_systems(Startup, decide)
            .add_systems(Update, equip.in_set(GameSystems::Present));
    }
}

/// What the renderer offers: the checks of Bevy's `AtmospherePlugin`.
fn inspect(
    adapter: Option<&RenderAdapter>,
    device: Option<&RenderDevice>,
    info: Option<&RenderAdapterInfo>,
) -> Renderer {
    let (Some(adapter), Some(device), Some(info)) = (adapter, device, info) else {
        return Renderer {
            software: true,
            unsupported: Some("no renderer"),
        };
    };
    let unsupported = if !adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
    {
        Some("no compute shaders")
    } else if !adapter
        .get_texture_format_features(TextureFormat::Rgba16Float)
        .allowed_usages
        .contains(TextureUsages::STORAGE_BINDING)
    {
        Some("no Rgba16Float storage textures")
    } else if device.limits().max_storage_textures_per_shader_stage == 0 {
        Some("no storage textures")
    } else if info.driver == "llvmpipe"
        && mesa_major(&info.driver_info).is_none_or(|v| v < LLVMPIPE_ATMOSPHERE)
    {
        Some("Mesa's llvmpipe before 25.0 crashes in the atmosphere's compute passes")
    } else {
        None
    };
    Renderer {
        software: info.device_type == wgpu::DeviceType::Cpu,
        unsupported,
    }
}

/// Looks at the renderer, picks the sky and, for the physical one, places an
/// Earth-like atmosphere under the world (1 block = 1 m).
fn decide(
    requested: Res<Requested>,
    adapter: Option<Res<RenderAdapter>>,
    device: Option<Res<RenderDevice>>,
    info: Option<Res<RenderAdapterInfo>>,
    mut media: ResMut<Assets<ScatteringMedium>>,
    mut commands: Commands,
) {
    let renderer = inspect(adapter.as_deref(), device.as_deref(), info.as_deref());
    let (kind, why) = choose(requested.0, &renderer);
    match kind {
        SkyKind::Physical => {
            info!("sky: physical (Bevy's atmosphere): {why}");
            commands.spawn(Atmosphere::earth(media.add(ScatteringMedium::default())));
        }
        SkyKind::Gradient if requested.0 == SkyChoice::Physical => {
            warn!("sky: gradient: {why}");
        }
        SkyKind::Gradient => info!("sky: gradient: {why}"),
    }
    commands.insert_resource(kind);
}

/// Under the physical sky, gives the player camera the atmosphere and its exposure,
/// and the sun its disk.
fn equip(
    kind: Option<Res<SkyKind>>,
    cameras: Query<Entity, (With<PlayerCamera>, Without<AtmosphereSettings>)>,
    suns: Query<Entity, (With<Sun>, Without<SunDisk>)>,
    mut commands: Commands,
) {
    if kind.as_deref() != Some(&SkyKind::Physical) {
        return;
    }
    for camera in &cameras {
        commands.entity(camera).insert((
            AtmosphereSettings::default(),
            Exposure {
                ev100: PHYSICAL_EV100,
            },
        ));
    }
    for sun in &suns {
        commands.entity(sun).insert(SUN_DISK);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn under_the_physical_sky_the_sun_lights_the_twilight() {
        use crate::sky::sky_at;
        let physical = Some(&SkyKind::Physical);
        for hours in [5.75, 6.0, 12.0, 18.0, 18.25] {
            let sky = sky_at(hours);
            let (direction, lux, _) = SkyKind::direct_light(physical, &sky);
            assert_eq!((direction, lux), (-sky.sun, SUN_LUX), "{hours}");
        }
        // Deep in the night the moon takes over, as on the gradient sky all the time.
        for hours in [0.0, 4.5, 5.5, 18.5, 19.5] {
            let sky = sky_at(hours);
            let light = SkyKind::direct_light(physical, &sky);
            assert_eq!(
                light,
                (sky.direction, sky.illuminance, sky.light),
                "{hours}"
            );
        }
        let dawn = sky_at(6.0);
        let gradient = SkyKind::direct_light(Some(&SkyKind::Gradient), &dawn);
        assert_eq!(gradient, (dawn.direction, dawn.illuminance, dawn.light));
        assert_eq!(SkyKind::direct_light(None, &dawn).1, 0.0);
    }

    #[test]
    fn the_sky_follows_the_renderer_and_the_choice() {
        let gpu = Renderer {
            software: false,
            unsupported: None,
        };
        let cpu = Renderer {
            software: true,
            unsupported: None,
        };
        let old = Renderer {
            software: false,
            unsupported: Some("no compute shaders"),
        };
        assert_eq!(choose(SkyChoice::Auto, &gpu).0, SkyKind::Physical);
        assert_eq!(choose(SkyChoice::Auto, &cpu).0, SkyKind::Gradient);
        assert_eq!(choose(SkyChoice::Physical, &gpu).0, SkyKind::Physical);
        assert_eq!(choose(SkyChoice::Physical, &cpu).0, SkyKind::Physical);
        assert_eq!(choose(SkyChoice::Gradient, &gpu).0, SkyKind::Gradient);
        assert_eq!(choose(SkyChoice::Gradient, &cpu).0, SkyKind::Gradient);
        for choice in [SkyChoice::Auto, SkyChoice::Physical] {
            let (kind, why) = choose(choice, &old);
            assert_eq!(kind, SkyKind::Gradient);
            assert!(why.contains("no compute shaders"), "{why}");
        }
        assert_eq!("physical".parse(), Ok(SkyChoice::Physical));
        assert!(
            "purple"
                .parse::<SkyChoice>()
                .unwrap_err()
                .contains("auto, physical or gradient")
        );
    }

    #[test]
    fn the_horizon_follows_the_measured_hours_round_the_clock() {
        let srgb = |h: f32| {
            let c = horizon(h).to_linear();
            // Undo the gain: it is 1 + 1.5 l of the colour before it.
            let l = c.luminance();
            let before = (-1.0 + (1.0 + 6.0 * l).sqrt()) / 3.0;
            Color::LinearRgba(c * (before / l)).to_srgba().to_u8_array()
        };
        for (t, c) in HORIZON {
            let got = srgb(t);
            assert!(
                (0..3).all(|i| got[i].abs_diff(c[i]) <= 1),
                "{t}: {got:?} vs {c:?}"
            );
        }
        // Around midnight, between 22:00 and 3:00.
        let night = srgb(0.5);
        assert!(
            night[2] > night[0] && night[2] <= 76 && night[2] >= 73,
            "{night:?}"
        );
        assert_eq!(srgb(24.0 + 12.0), srgb(12.0));
        // Bright by day, dark by night.
        assert!(srgb(12.0)[1] > 150 && srgb(23.0)[1] < 60);
    }

    #[test]
    fn mesa_versions_are_read_from_the_driver_info() {
        assert_eq!(mesa_major("Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)"), Some(25));
        assert_eq!(mesa_major("Mesa 22.3.6 (LLVM 15.0.6)"), Some(22));
        assert_eq!(mesa_major("NVIDIA 550.54"), None);
        assert_eq!(mesa_major("Mesa x"), None);
    }

    #[test]
    fn terrain_light_is_the_same_through_either_exposure() {
        let physical = SkyKind::light_scale(Some(&SkyKind::Physical));
        assert_eq!(SkyKind::light_scale(Some(&SkyKind::Gradient)), 1.0);
        assert_eq!(SkyKind::light_scale(None), 1.0);
        // Exposure halves the light per EV: the scale undoes the extra EVs.
        let exposure = |ev: f32| 1.0 / 2f32.powf(ev);
        let seen = physical * exposure(PHYSICAL_EV100);
        assert!((seen / exposure(Exposure::EV100_BLENDER) - 1.0).abs() < 1e-4);
        // Morning sun at the physical sky's scale is about real sunlight.
        assert!((9000.0 * physical - 125_000.0).abs() < 10_000.0);
    }
}
