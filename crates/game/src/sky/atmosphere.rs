//! The physical sky: Bevy's [`Atmosphere`] (Hillaire's scattering, with a sun disk)
//! placed under the world and given to the camera, where [`SkyKind`] says so.

use bevy::light::atmosphere::ScatteringMedium;
use bevy::light::{Atmosphere, SunDisk};
use bevy::pbr::AtmosphereSettings;
use bevy::prelude::*;
use bevy::render::render_resource::{TextureFormat, TextureUsages};
use bevy::render::renderer::{RenderAdapter, RenderAdapterInfo, RenderDevice};

use bevy::camera::Exposure;

use super::kind::{LLVMPIPE_ATMOSPHERE, PHYSICAL_EV100, Renderer, SkyKind, choose, mesa_major};
use super::sun::Sun;
use crate::config::{HorizonDistance, SkyChoice, ViewDistance};
use crate::player::PlayerCamera;
use crate::schedule::GameSystems;

/// The sun as drawn: three times its real size, so that it reads as a disk on a
/// screen without bloom, as the gradient sky's sun does.
const SUN_DISK: SunDisk = SunDisk {
    angular_size: 3.0 * SunDisk::EARTH.angular_size,
    intensity: 1.0,
};

/// The sky asked for on the command line.
#[derive(Resource, Clone, Copy, Debug)]
struct Requested(SkyChoice);

/// The physical sky plugin: decides the sky at start-up and equips the camera and
/// the sun for the atmosphere.
pub(crate) fn plugin(choice: SkyChoice) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(Requested(choice))
            .add_systems(Startup, decide)
            .add_systems(
                Update,
                (equip, follow_reach).chain().in_set(GameSystems::Present),
            );
    }
}

/// How far the atmosphere's aerial perspective (the haze over far land) reaches for
/// a world drawn out to `reach` blocks: Bevy's 32 km, or further for a wider horizon,
/// so the far rings fade into the sky as the near ones do.
fn aerial_reach(reach: f32) -> f32 {
    reach.max(AtmosphereSettings::default().aerial_view_lut_max_distance)
}

/// Follows the view distance and the horizon with the aerial perspective's reach.
fn follow_reach(
    (view, horizon): (Res<ViewDistance>, Res<HorizonDistance>),
    mut cameras: Query<&mut AtmosphereSettings>,
) {
    for mut settings in &mut cameras {
        if settings.is_added() || view.is_changed() || horizon.is_changed() {
            let far = aerial_reach(horizon.reach(*view));
            settings.aerial_view_lut_max_distance = far;
        }
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
