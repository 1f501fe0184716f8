//! Drawing: chunk meshes from mesher surfaces (in the chunk material), the sun (or
//! moon), sky and fog of the time of day (the water's fog when the eye is under
//! water), the outline of the targeted block, and the automated screenshot.

use bevy::light::{CascadeShadowConfigBuilder, GlobalAmbientLight};
use bevy::pbr::{DistanceFog, FogFalloff};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use terravox_mesher::Surface;
use terravox_voxel::{Block, CHUNK, ChunkPos};
use terravox_worldgen::LodPos;

use crate::GameSystems;
use crate::chunk_material::{ChunkMaterials, surface_to_mesh};
use crate::config::{AutoScreenshot, HorizonDistance, ViewDistance};
use crate::editing::{Target, eye_block};
use crate::horizon::{CoarseMeshed, Horizon};
use crate::persistence::Saves;
use crate::physical_sky::SkyKind;
use crate::player::{Player, PlayerCamera, Spawn};
use crate::sky::{SUN_LUX, Sun, TimeOfDay, sky_at};
use crate::streaming::{ChunkMeshed, Culling};
use crate::world::{Chunks, RenderOrigin};

/// The render plugin.
pub(crate) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::BLACK))
        .insert_resource(GlobalAmbientLight::default())
        .init_resource::<ScreenshotState>()
        .init_resource::<Underwater>()
        .add_systems(Startup, (spawn_sun, spawn_outline))
        .add_systems(
            Update,
            (
                spawn_chunk_meshes,
                spawn_coarse_meshes.run_if(on_message::<CoarseMeshed>),
                cull_chunk_meshes,
                show_coarse_meshes,
                follow_render_origin.run_if(resource_changed::<RenderOrigin>),
                add_fog,
                add_lantern,
                detect_underwater,
                light_lantern,
                update_fog,
                hide_under_water,
                apply_sky,
                update_outline,
                take_auto_screenshot,
            )
                .in_set(GameSystems::Present),
        );
}

fn spawn_sun(mut commands: Commands) {
    commands.spawn((
        Sun,
        DirectionalLight {
            illuminance: SUN_LUX,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 0.0).looking_to(Vec3::new(-0.45, -1.0, -0.3), Vec3::Y),
        CascadeShadowConfigBuilder {
            num_cascades: 2,
            maximum_distance: 160.0,
            ..default()
        }
        .build(),
    ));
}

/// A chunk's mesh entity: placed at its chunk relative to the render origin.
#[derive(Component, Clone, Copy, Debug)]
struct ChunkMesh(ChunkPos);

fn spawn_chunk_meshes(
    mut meshed: MessageReader<ChunkMeshed>,
    mut chunks: ResMut<Chunks>,
    mut meshes: ResMut<Assets<Mesh>>,
    (materials, render_origin): (Res<ChunkMaterials>, Res<RenderOrigin>),
    mut commands: Commands,
) {
    for m in meshed.read() {
        let Some(loaded) = chunks.loaded.get_mut(&m.pos) else {
            continue;
        };
        let origin = render_origin.block(m.pos.origin());
        // A remesh or reload replaces the chunk's previous meshes.
        for e in loaded.entities.drain(..) {
            commands.entity(e).despawn();
        }
        loaded.entities.extend(spawn_surfaces(
            &mut commands,
            &mut meshes,
            &materials,
            [&m.opaque, &m.water],
            (Transform::from_translation(origin), ChunkMesh(m.pos)),
        ));
    }
}

/// Spawns an entity for each non-empty surface of a chunk mesh (empty ones are never
/// uploaded), each with `extra`; water casts no shadow.
fn spawn_surfaces(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &ChunkMaterials,
    [opaque, water]: [&Surface; 2],
    extra: impl Bundle + Clone,
) -> Vec<Entity> {
    let mut spawned = Vec::new();
    for (surface, material) in [(opaque, &materials.opaque), (water, &materials.water)] {
        if surface.is_empty() {
            continue;
        }
        let (mesh, bounds) = surface_to_mesh(surface);
        let mut e = commands.spawn((
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(material.clone()),
            bounds,
            extra.clone(),
        ));
        if material == &materials.water {
            e.insert(bevy::light::NotShadowCaster);
        }
        spawned.push(e.id());
    }
    spawned
}

/// A coarse chunk's mesh entity: placed and scaled by its level.
#[derive(Component, Clone, Copy, Debug)]
struct CoarseMesh(LodPos);

/// The transform of a coarse chunk's mesh: its cells `2^L` blocks wide, drawn
/// `2^L - 1` blocks lower so that a cell's top is its sample block's top (see
/// [`terravox_worldgen::lod`]).
fn coarse_transform(lod: LodPos, render_origin: &RenderOrigin) -> Transform {
    let [x, y, z] = lod.origin();
    let corner = render_origin.local(bevy::math::DVec3::new(x as f64, y as f64, z as f64));
    let cell = lod.cell() as f32;
    Transform::from_translation(corner - Vec3::Y * (cell - 1.0)).with_scale(Vec3::splat(cell))
}

fn spawn_coarse_meshes(
    mut meshed: MessageReader<CoarseMeshed>,
    mut horizon: ResMut<Horizon>,
    mut meshes: ResMut<Assets<Mesh>>,
    (materials, render_origin): (Res<ChunkMaterials>, Res<RenderOrigin>),
    mut commands: Commands,
) {
    for m in meshed.read() {
        let Some(loaded) = horizon.loaded.get_mut(&m.lod) else {
            continue;
        };
        // Far away and wider than the shadow cascades: no shadows. Shown once the
        // horizon draws it.
        loaded.entities.extend(spawn_surfaces(
            &mut commands,
            &mut meshes,
            &materials,
            [&m.opaque, &m.water],
            (
                coarse_transform(m.lod, &render_origin),
                CoarseMesh(m.lod),
                bevy::light::NotShadowCaster,
                Visibility::Hidden,
            ),
        ));
    }
}

/// Shows the coarse meshes the horizon draws, when what it draws changed or meshes
/// were added.
fn show_coarse_meshes(
    horizon: Res<Horizon>,
    added: Query<(), Added<CoarseMesh>>,
    mut meshes: Query<(&CoarseMesh, &mut Visibility)>,
) {
    if !horizon.is_changed() && added.is_empty() {
        return;
    }
    for (CoarseMesh(lod), mut visibility) in &mut meshes {
        let wanted = if horizon.draws(*lod) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(wanted);
    }
}

/// Hides the meshes of chunks that cave culling hides or a drawn coarse chunk
/// covers, when either changed or meshes were added.
fn cull_chunk_meshes(
    culling: Res<Culling>,
    horizon: Res<Horizon>,
    added: Query<(), Added<ChunkMesh>>,
    mut meshes: Query<(&ChunkMesh, &mut Visibility)>,
) {
    if !culling.is_changed() && !horizon.is_changed() && added.is_empty() {
        return;
    }
    for (ChunkMesh(pos), mut visibility) in &mut meshes {
        let wanted = if culling.hides(*pos) || horizon.covers(*pos) {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        visibility.set_if_neq(wanted);
    }
}

/// Moves every chunk mesh when the render origin moved.
fn follow_render_origin(
    render_origin: Res<RenderOrigin>,
    mut meshes: Query<(&ChunkMesh, &mut Transform), Without<CoarseMesh>>,
    mut coarse: Query<(&CoarseMesh, &mut Transform), Without<ChunkMesh>>,
) {
    for (ChunkMesh(pos), mut t) in &mut meshes {
        t.translation = render_origin.block(pos.origin());
    }
    for (CoarseMesh(lod), mut t) in &mut coarse {
        *t = coarse_transform(*lod, &render_origin);
    }
}

/// Marks the outline drawn around the targeted block.
#[derive(Component, Debug)]
struct TargetOutline;

/// The twelve edges of a unit cube as thin boxes (centre, size), a hair larger than
/// the block so they are never hidden in its faces.
fn outline_edges(thickness: f32) -> Vec<(Vec3, Vec3)> {
    let (lo, hi) = (-0.002, 1.002);
    let mid = 0.5;
    let long = hi - lo + thickness;
    let mut edges = Vec::new();
    for a in [lo, hi] {
        for b in [lo, hi] {
            edges.push((Vec3::new(mid, a, b), Vec3::new(long, thickness, thickness)));
            edges.push((Vec3::new(a, mid, b), Vec3::new(thickness, long, thickness)));
            edges.push((Vec3::new(a, b, mid), Vec3::new(thickness, thickness, long)));
        }
    }
    edges
}

fn spawn_outline(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let material = materials.add(StandardMaterial {
        base_color: Color::srgb(0.05, 0.05, 0.05),
        unlit: true,
        ..default()
    });
    commands
        .spawn((
            TargetOutline,
            Transform::default(),
            Visibility::Hidden,
            bevy::light::NotShadowCaster,
        ))
        .with_children(|parent| {
            for (centre, size) in outline_edges(0.025) {
                parent.spawn((
                    Mesh3d(meshes.add(Cuboid::from_size(size))),
                    MeshMaterial3d(material.clone()),
                    Transform::from_translation(centre),
                    bevy::light::NotShadowCaster,
                ));
            }
        });
}

fn update_outline(
    target: Res<Target>,
    render_origin: Res<RenderOrigin>,
    mut outline: Query<(&mut Transform, &mut Visibility), With<TargetOutline>>,
) {
    for (mut t, mut v) in &mut outline {
        match target.0 {
            Some(hit) => {
                t.translation = render_origin.block(hit.pos);
                *v = Visibility::Visible;
            }
            None => *v = Visibility::Hidden,
        }
    }
}

/// Whether the camera's eye is in water: then the fog is the water's.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Underwater(pub(crate) bool);

/// How far the world reaches, in blocks: the horizon, or the view distance without
/// one.
fn world_reach(view: ViewDistance, horizon: HorizonDistance) -> f32 {
    (view.0 * CHUNK as u32).max(horizon.0) as f32
}

/// The fog of the world's reach (`far`, blocks), the hour and whether the eye is
/// under water: above water it fades the world into the sky's horizon colour before
/// the world ends; under water it is a dense blue-green, dimmed at night.
fn fog(far: f32, hours: f32, underwater: bool, kind: Option<&SkyKind>) -> (Color, FogFalloff) {
    let sky = sky_at(hours);
    if underwater {
        let light = 0.25 + 0.75 * (1.0 - sky.night);
        let c = Color::srgb(0.06 * light, 0.24 * light, 0.32 * light);
        return (c, FogFalloff::Exponential { density: 0.08 });
    }
    (
        fog_colour(hours, kind),
        FogFalloff::Linear {
            start: far * 0.55,
            end: far * 0.95,
        },
    )
}

/// The fog's colour above water: the sky's at the horizon, which under the physical
/// sky is the atmosphere's as drawn.
pub(crate) fn fog_colour(hours: f32, kind: Option<&SkyKind>) -> Color {
    match kind {
        Some(SkyKind::Physical) => crate::physical_sky::horizon(hours),
        _ => sky_at(hours).sky,
    }
}

/// Gives a new player camera a fog, which [`update_fog`] sets up.
fn add_fog(cameras: Query<Entity, Added<PlayerCamera>>, mut commands: Commands) {
    for camera in &cameras {
        commands.entity(camera).insert(DistanceFog::default());
    }
}

/// Sets up new fogs and follows the view distance, the hour and the water line. A
/// fog added by this frame's commands is set up when it appears, whatever changed
/// meanwhile.
fn update_fog(
    (view, horizon): (Res<ViewDistance>, Res<HorizonDistance>),
    time: Res<TimeOfDay>,
    underwater: Res<Underwater>,
    kind: Option<Res<SkyKind>>,
    mut fogs: Query<&mut DistanceFog>,
) {
    let changed = view.is_changed()
        || horizon.is_changed()
        || time.is_changed()
        || underwater.is_changed()
        || kind.as_ref().is_some_and(|k| k.is_changed());
    for mut f in &mut fogs {
        if changed || f.is_added() {
            let far = world_reach(*view, *horizon);
            let (color, falloff) = fog(far, time.hours, underwater.0, kind.as_deref());
            f.color = color;
            f.falloff = falloff;
        }
    }
}

/// Notes whether the player's eye is in a water block.
fn detect_underwater(
    player: Query<&Player>,
    chunks: Res<Chunks>,
    mut underwater: ResMut<Underwater>,
) {
    let Ok(player) = player.single() else { return };
    underwater.set_if_neq(Underwater(
        chunks.block(eye_block(player)) == Some(Block::Water),
    ));
}

/// The player's lantern: a warm point light at the eye, lit while the eye is in a
/// cave's air, so caves (out of the sky's light) can be seen.
#[derive(Component)]
struct Lantern;

/// The lantern's brightness in lumens (at the gradient sky's exposure).
const LANTERN: f32 = 250_000.0;

fn add_lantern(cameras: Query<Entity, Added<PlayerCamera>>, mut commands: Commands) {
    for camera in &cameras {
        commands.entity(camera).with_child((
            Lantern,
            PointLight {
                intensity: 0.0,
                range: 28.0,
                color: Color::srgb(1.0, 0.82, 0.6),
                shadow_maps_enabled: false,
                ..default()
            },
            Transform::default(),
        ));
    }
}

/// Lights the lantern while the eye is in a cave's air.
fn light_lantern(
    player: Query<&Player>,
    chunks: Res<Chunks>,
    kind: Option<Res<SkyKind>>,
    mut lanterns: Query<&mut PointLight, With<Lantern>>,
) {
    let Ok(player) = player.single() else { return };
    let lit = chunks.block(eye_block(player)) == Some(Block::CaveAir);
    let intensity = if lit {
        LANTERN * SkyKind::light_scale(kind.as_deref())
    } else {
        0.0
    };
    for mut light in &mut lanterns {
        if light.intensity != intensity {
            light.intensity = intensity;
        }
    }
}

/// Sky things (the dome, sun, moon, stars, clouds) that the water hides when the eye
/// is under it: there the world ends in the water's fog.
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct HiddenUnderwater;

fn hide_under_water(
    underwater: Res<Underwater>,
    mut things: Query<(Ref<HiddenUnderwater>, &mut Visibility)>,
) {
    for (marker, mut v) in &mut things {
        if underwater.is_changed() || marker.is_added() {
            *v = if underwater.0 {
                Visibility::Hidden
            } else {
                Visibility::Inherited
            };
        }
    }
}

/// Lights and colours the world for the time of day: the sun or moon's direction,
/// brightness and colour, the ambient light and the clear colour (the sky's, or
/// the water's fog under water).
fn apply_sky(
    time: Res<TimeOfDay>,
    (underwater, kind): (Res<Underwater>, Option<Res<SkyKind>>),
    mut sun: Query<(&mut DirectionalLight, &mut Transform), With<Sun>>,
    mut ambient: ResMut<GlobalAmbientLight>,
    mut clear: ResMut<ClearColor>,
) {
    let kind_changed = kind.as_ref().is_some_and(|k| k.is_changed());
    if !time.is_changed() && !underwater.is_changed() && !kind_changed {
        return;
    }
    let sky = sky_at(time.hours);
    let scale = SkyKind::light_scale(kind.as_deref());
    let (direction, illuminance, color) = SkyKind::direct_light(kind.as_deref(), &sky);
    for (mut light, mut transform) in &mut sun {
        light.illuminance = illuminance * scale;
        light.color = color;
        *transform = Transform::default().looking_to(direction, Vec3::Y);
    }
    ambient.brightness = sky.ambient * scale;
    ambient.color = sky.ambient_color;
    // The atmosphere adds its light to the clear colour: there it must be black.
    clear.0 = match kind.as_deref() {
        Some(SkyKind::Physical) if !underwater.0 => Color::BLACK,
        _ => fog_colour(time.hours, kind.as_deref()),
    };
}

/// Progress of the automated screenshot.
#[derive(Resource, Default, Debug)]
struct ScreenshotState {
    loaded_at: Option<(u32, f32)>,
    taken_at: Option<u32>,
    frame: u32,
}

fn take_auto_screenshot(
    plan: Res<AutoScreenshot>,
    (chunks, saves, spawn, horizon): (Res<Chunks>, Res<Saves>, Res<Spawn>, Res<Horizon>),
    time: Res<Time>,
    mut state: ResMut<ScreenshotState>,
    camera: Query<(), With<PlayerCamera>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(plan) = &plan.0 else { return };
    state.frame += 1;
    let now = time.elapsed_secs();
    if camera.is_empty() {
        return;
    }
    let settled = spawn.placed() && chunks.fully_loaded() && !saves.loading() && horizon.complete();
    if state.loaded_at.is_none() && settled {
        info!(
            "view distance loaded after {:.2} s ({} frames)",
            now, state.frame
        );
        state.loaded_at = Some((state.frame, now));
    }
    let Some((f0, t0)) = state.loaded_at else {
        return;
    };
    // Pipelines compile after the first frames that use them; wait for at least 10
    // frames and one second after loading even if the plan asks for less.
    let ready = state.frame >= f0 + plan.frames.max(10) && now >= t0 + plan.seconds.max(1.0);
    match state.taken_at {
        None if ready => {
            info!("taking screenshot {}", plan.path.display());
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(plan.path.clone()));
            state.taken_at = Some(state.frame);
        }
        // Give the capture a few frames to be read back and written.
        Some(t) if state.frame >= t + 10 && plan.path.exists() => {
            exit.write(AppExit::Success);
        }
        Some(t) if state.frame >= t + 600 => {
            error!("the screenshot was never written");
            exit.write(AppExit::error());
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fog_fades_into_the_sky_above_water_and_closes_in_below() {
        let view = world_reach(ViewDistance(12), HorizonDistance(0));
        assert_eq!(view, 384.0);
        assert_eq!(world_reach(ViewDistance(12), HorizonDistance(4096)), 4096.0);
        let (color, falloff) = fog(view, 9.0, false, None);
        assert_eq!(color, sky_at(9.0).sky);
        let FogFalloff::Linear { start, end } = falloff else {
            panic!("linear fog above water: {falloff:?}")
        };
        // Fully fogged before the last loaded chunks.
        assert!(start < end && end < 12.0 * CHUNK as f32);
        let (day, under) = fog(view, 9.0, true, None);
        let FogFalloff::Exponential { density } = under else {
            panic!("exponential fog under water: {under:?}")
        };
        // Half the light is gone within ten blocks.
        assert!((-density * 10.0f32).exp() < 0.5);
        let (day, night) = (day.to_srgba(), fog(view, 0.0, true, None).0.to_srgba());
        assert!(
            day.blue > day.red && day.green > day.red,
            "blue-green: {day:?}"
        );
        assert!(night.blue < day.blue, "darker at night");
    }
}
