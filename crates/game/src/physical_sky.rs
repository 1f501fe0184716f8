//! Which sky is drawn: the gradient dome of `sky_dome` (the default, everywhere), or
//! with `--sky physical` Bevy's physical [`Atmosphere`] (Hillaire's scattering, with a
//! sun disk) on a GPU that supports it. Software renderers never get the atmosphere:
//! Mesa's llvmpipe (the Vulkan used in CI) crashes in its compute passes, so there
//! `--sky physical` falls back to the gradient with a warning, as it does where the
//! renderer lacks what the atmosphere needs. The atmosphere stays opt-in until it has
//! been checked on a GPU (none was available while it was written).
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
use crate::render::Sun;

/// The sky a player asks for (`--sky`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkyChoice {
    /// The default: the gradient dome.
    #[default]
    Auto,
    /// Bevy's atmosphere on a GPU that supports it (else the gradient).
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
}

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
        (SkyChoice::Auto, _) => (
            SkyKind::Gradient,
            "the default (--sky physical draws Bevy's atmosphere on a GPU)".into(),
        ),
        (SkyChoice::Physical, Some(why)) => (
            SkyKind::Gradient,
            format!("the renderer cannot draw the physical sky: {why}"),
        ),
        (SkyChoice::Physical, None) if renderer.software => (
            SkyKind::Gradient,
            "software renderers crash or crawl in the atmosphere's compute passes".into(),
        ),
        (SkyChoice::Physical, None) => (SkyKind::Physical, "asked for".into()),
    }
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
        commands.entity(sun).insert(SunDisk::EARTH);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(choose(SkyChoice::Auto, &gpu).0, SkyKind::Gradient);
        assert_eq!(choose(SkyChoice::Auto, &cpu).0, SkyKind::Gradient);
        assert_eq!(choose(SkyChoice::Physical, &gpu).0, SkyKind::Physical);
        assert_eq!(choose(SkyChoice::Physical, &cpu).0, SkyKind::Gradient);
        assert_eq!(choose(SkyChoice::Gradient, &gpu).0, SkyKind::Gradient);
        let (kind, why) = choose(SkyChoice::Physical, &old);
        assert_eq!(kind, SkyKind::Gradient);
        assert!(why.contains("no compute shaders"), "{why}");
        assert_eq!("physical".parse(), Ok(SkyChoice::Physical));
        assert!(
            "purple"
                .parse::<SkyChoice>()
                .unwrap_err()
                .contains("auto, physical or gradient")
        );
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
