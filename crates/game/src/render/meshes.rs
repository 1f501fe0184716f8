//! The meshes of chunks of every level: render owns their entities (a map from
//! [`LodPos`] to entities), spawning them from [`ChunkMeshed`] messages, removing them
//! on [`ChunkUnloaded`] and on a world switch, and showing each as streaming, cave
//! culling and the horizon decide. Headless games have none of this.
//!
//! The entities are static and tagged [`NoCpuCulling`]: where the renderer culls on
//! the GPU, Bevy no longer checks ~16,000 bounding boxes on the CPU every frame (the
//! mesh bounds still go to the GPU for its culling and for the shadow cascades).

use bevy::camera::visibility::NoCpuCulling;
use bevy::light::NotShadowCaster;
use bevy::math::DVec3;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use terravox_mesher::Surface;
use terravox_worldgen::LodPos;

use super::RenderSystems;
use super::material::{ChunkMaterials, surface_to_mesh};
use crate::horizon::Horizon;
use crate::streaming::{ChunkMeshed, ChunkUnloaded, Culling};
use crate::world::{RenderOrigin, WorldChanged};

/// Meshes of every level, in order.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MeshEntities>().add_systems(
        Update,
        (
            clear_on_world_change.run_if(on_message::<WorldChanged>),
            remove_unloaded,
            spawn_meshes,
            show_meshes,
            follow_render_origin.run_if(resource_changed::<RenderOrigin>),
        )
            .chain()
            .in_set(RenderSystems::Meshes),
    );
}

/// The mesh entities of every chunk drawn, of any level.
#[derive(Resource, Default)]
struct MeshEntities(HashMap<LodPos, Vec<Entity>>);

/// A chunk's mesh entity: placed at its chunk relative to the render origin, and
/// scaled by its level.
#[derive(Component, Clone, Copy, Debug)]
struct ChunkMesh(LodPos);

/// The transform of a chunk's mesh: its cells `2^L` blocks wide, drawn `2^L - 1`
/// blocks lower so that a cell's top is its sample block's top (see
/// [`terravox_worldgen::LodPos`]; level 0 is placed at its origin, unscaled).
fn transform(lod: LodPos, render_origin: &RenderOrigin) -> Transform {
    let [x, y, z] = lod.origin();
    let corner = render_origin.local(DVec3::new(x as f64, y as f64, z as f64));
    let cell = lod.cell() as f32;
    Transform::from_translation(corner - Vec3::Y * (cell - 1.0)).with_scale(Vec3::splat(cell))
}

/// A world switch removes every mesh.
fn clear_on_world_change(
    mut changed: MessageReader<WorldChanged>,
    mut entities: ResMut<MeshEntities>,
    mut commands: Commands,
) {
    changed.clear();
    for (_, list) in entities.0.drain() {
        for e in list {
            commands.entity(e).despawn();
        }
    }
}

/// Removes the meshes of chunks that unloaded.
fn remove_unloaded(
    mut unloaded: MessageReader<ChunkUnloaded>,
    mut entities: ResMut<MeshEntities>,
    mut commands: Commands,
) {
    for ChunkUnloaded(lod) in unloaded.read() {
        for e in entities.0.remove(lod).into_iter().flatten() {
            commands.entity(e).despawn();
        }
    }
}

/// Replaces a chunk's meshes with the new ones (a remesh or a reload replaces the
/// old; empty surfaces are never uploaded). Coarse chunks are far away and wider
/// than the shadow cascades: they cast no shadows, and start hidden until the
/// horizon draws them.
fn spawn_meshes(
    mut meshed: MessageReader<ChunkMeshed>,
    mut entities: ResMut<MeshEntities>,
    mut meshes: ResMut<Assets<Mesh>>,
    (materials, render_origin): (Res<ChunkMaterials>, Res<RenderOrigin>),
    mut commands: Commands,
) {
    for m in meshed.read() {
        let list = entities.0.entry(m.lod).or_default();
        for e in list.drain(..) {
            commands.entity(e).despawn();
        }
        let placed = (transform(m.lod, &render_origin), ChunkMesh(m.lod));
        let surfaces = [(&m.opaque, &materials.opaque), (&m.water, &materials.water)];
        for (surface, material) in surfaces {
            if surface.is_empty() {
                continue;
            }
            let e = spawn_surface(&mut commands, &mut meshes, surface, material.clone());
            let mut e = commands.entity(e);
            e.insert((placed, NoCpuCulling));
            // Water casts no shadow, nor does the horizon.
            if material == &materials.water || m.lod.level > 0 {
                e.insert(NotShadowCaster);
            }
            if m.lod.level > 0 {
                e.insert(Visibility::Hidden);
            }
            list.push(e.id());
        }
        if list.is_empty() {
            entities.0.remove(&m.lod);
        }
    }
}

/// Spawns one surface's mesh in `material`.
fn spawn_surface<M: Material>(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    surface: &Surface,
    material: Handle<M>,
) -> Entity {
    let (mesh, bounds) = surface_to_mesh(surface);
    commands
        .spawn((Mesh3d(meshes.add(mesh)), MeshMaterial3d(material), bounds))
        .id()
}

/// Shows what is drawn, when that changed or meshes were added: a full-detail chunk
/// unless cave culling hides it or a drawn coarse chunk covers it; a coarse chunk
/// where the horizon draws it.
fn show_meshes(
    culling: Res<Culling>,
    horizon: Res<Horizon>,
    added: Query<(), Added<ChunkMesh>>,
    mut meshes: Query<(&ChunkMesh, &mut Visibility)>,
) {
    if !culling.is_changed() && !horizon.is_changed() && added.is_empty() {
        return;
    }
    for (ChunkMesh(lod), mut visibility) in &mut meshes {
        let shown = if lod.level == 0 {
            !(culling.hides(lod.pos) || horizon.covers(lod.pos))
        } else {
            horizon.draws(*lod)
        };
        visibility.set_if_neq(if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}

/// Moves every chunk mesh when the render origin moved.
fn follow_render_origin(
    render_origin: Res<RenderOrigin>,
    mut meshes: Query<(&ChunkMesh, &mut Transform)>,
) {
    for (ChunkMesh(lod), mut t) in &mut meshes {
        *t = transform(*lod, &render_origin);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terravox_voxel::{BlockPos, ChunkPos};

    /// Level 0 sits at its chunk's corner unscaled; a coarse chunk is scaled by its
    /// cell and lowered so its cells' tops are their samples' tops.
    #[test]
    fn meshes_are_placed_by_level() {
        let origin = RenderOrigin(BlockPos::new(64, 0, -32));
        let full = transform(LodPos::new(0, ChunkPos::new(3, 1, -2)), &origin);
        assert_eq!(full.translation, Vec3::new(32.0, 32.0, -32.0));
        assert_eq!(full.scale, Vec3::ONE);
        let coarse = transform(LodPos::new(2, ChunkPos::new(1, 0, 0)), &origin);
        assert_eq!(coarse.translation, Vec3::new(64.0, -3.0, 32.0));
        assert_eq!(coarse.scale, Vec3::splat(4.0));
    }
}
