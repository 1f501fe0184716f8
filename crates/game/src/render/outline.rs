//! The outline drawn around the targeted block: twelve thin boxes, unlit.

use bevy::prelude::*;

use super::RenderSystems;
use crate::editing::Target;
use crate::world::RenderOrigin;

/// The outline: spawned hidden, placed on the target each frame.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_outline)
        .add_systems(Update, update_outline.in_set(RenderSystems::Outline));
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
