//! The other players drawn: a blocky figure each (a body and a head, in a colour of
//! its own), where `net::Others` says it is now (moving smoothly between updates),
//! turned the way it looks; added when a player shows up, removed when it leaves.

use std::collections::BTreeMap;

use bevy::math::DVec3;
use bevy::prelude::*;
use terravox_authority::PlayerId;
use terravox_authority::body::{HALF_WIDTH, HEIGHT};

use crate::net::Others;
use crate::world::RenderOrigin;

/// The head's side; the body is the rest of the height.
const HEAD: f32 = 0.5;

/// A figure's entities by player.
#[derive(Resource, Default)]
struct Figures {
    drawn: BTreeMap<PlayerId, (Entity, Entity)>,
    body: Option<Handle<Mesh>>,
    head: Option<Handle<Mesh>>,
}

/// A figure's head (it tilts with the look).
#[derive(Component)]
struct Head;

/// A player's own colour: a hue from its number.
fn colour(id: PlayerId) -> Color {
    let hue = (id.wrapping_mul(0x9e37_79b9) % 360) as f32;
    Color::hsl(hue, 0.55, 0.5)
}

/// The figures plugin.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Figures>()
        .add_systems(Update, draw_figures.in_set(super::RenderSystems::Meshes));
}

/// Adds, places and removes the figures.
#[allow(clippy::too_many_arguments)]
fn draw_figures(
    mut commands: Commands,
    time: Res<Time>,
    others: Res<Others>,
    origin: Res<RenderOrigin>,
    mut figures: ResMut<Figures>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut placed: Query<&mut Transform, Without<Head>>,
    mut heads: Query<&mut Transform, With<Head>>,
) {
    let now = time.elapsed_secs_f64();
    let gone: Vec<PlayerId> = figures
        .drawn
        .keys()
        .copied()
        .filter(|id| {
            !others
                .iter()
                .any(|(o, other)| o == *id && other.pose_at(now).is_some())
        })
        .collect();
    for id in gone {
        if let Some((e, _)) = figures.drawn.remove(&id) {
            commands.entity(e).despawn();
        }
    }
    let w = 2.0 * HALF_WIDTH;
    let body = figures
        .body
        .get_or_insert_with(|| meshes.add(Cuboid::new(w, HEIGHT - HEAD, w * 0.6)))
        .clone();
    let head = figures
        .head
        .get_or_insert_with(|| meshes.add(Cuboid::new(HEAD, HEAD, HEAD)))
        .clone();
    for (id, other) in others.iter() {
        let Some(pose) = other.pose_at(now) else {
            continue;
        };
        let at = origin.local(DVec3::from_array(pose.feet));
        let turn = Quat::from_rotation_y(pose.yaw);
        let tilt = Quat::from_rotation_x(pose.pitch);
        if let Some(&(e, h)) = figures.drawn.get(&id) {
            if let Ok(mut t) = placed.get_mut(e) {
                t.translation = at;
                t.rotation = turn;
            }
            if let Ok(mut t) = heads.get_mut(h) {
                t.rotation = tilt;
            }
            continue;
        }
        let material = materials.add(StandardMaterial {
            base_color: colour(id),
            perceptual_roughness: 0.9,
            ..default()
        });
        let skin = materials.add(StandardMaterial {
            base_color: Color::srgb(0.86, 0.72, 0.58),
            perceptual_roughness: 0.9,
            ..default()
        });
        let h = commands
            .spawn((
                Head,
                Mesh3d(head.clone()),
                MeshMaterial3d(skin),
                Transform::from_xyz(0.0, HEIGHT - HEAD / 2.0, 0.0).with_rotation(tilt),
            ))
            .id();
        let e = commands
            .spawn((
                Transform::from_translation(at).with_rotation(turn),
                Visibility::default(),
            ))
            .with_children(|parent| {
                parent.spawn((
                    Mesh3d(body.clone()),
                    MeshMaterial3d(material),
                    Transform::from_xyz(0.0, (HEIGHT - HEAD) / 2.0, 0.0),
                ));
            })
            .add_child(h)
            .id();
        figures.drawn.insert(id, (e, h));
    }
}
