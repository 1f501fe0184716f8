//! The fog: above water it fades the world into the sky's colour at the horizon
//! before the world ends (the horizon, or the view distance without one); under
//! water it is a dense blue-green.

use bevy::pbr::{DistanceFog, FogFalloff};
use bevy::prelude::*;

use super::clock::TimeOfDay;
use super::horizon::horizon;
use super::kind::SkyKind;
use super::light::sky_at;
use super::underwater::Underwater;
use crate::config::{HorizonDistance, ViewDistance};
use crate::player::PlayerCamera;

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
        Some(SkyKind::Physical) => horizon(hours),
        _ => sky_at(hours).sky,
    }
}

/// Gives a new player camera a fog, which [`update_fog`] sets up.
pub(super) fn add_fog(cameras: Query<Entity, Added<PlayerCamera>>, mut commands: Commands) {
    for camera in &cameras {
        commands.entity(camera).insert(DistanceFog::default());
    }
}

/// Sets up new fogs and follows the view distance, the hour and the water line. A
/// fog added by this frame's commands is set up when it appears, whatever changed
/// meanwhile.
pub(super) fn update_fog(
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
            let far = horizon.reach(*view);
            let (color, falloff) = fog(far, time.hours, underwater.0, kind.as_deref());
            f.color = color;
            f.falloff = falloff;
        }
    }
}

#[cfg(test)]
mod tests {
    use terravox_voxel::CHUNK;

    use super::*;

    #[test]
    fn fog_fades_into_the_sky_above_water_and_closes_in_below() {
        let view = HorizonDistance(0).reach(ViewDistance(12));
        assert_eq!(view, 384.0);
        assert_eq!(HorizonDistance(4096).reach(ViewDistance(12)), 4096.0);
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
