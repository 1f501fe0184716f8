//! Which sky is drawn: Bevy's physical atmosphere (Hillaire's scattering, with a
//! sun disk: `atmosphere`) wherever the renderer can draw it, or the gradient dome
//! (`dome`), decided at start-up from what the player asks for ([`SkyChoice`], one
//! of the start-up options in `config`) and the renderer:
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
//! exposure to match; [`SkyKind::light_scale`] scales the light of [`super::light::sky_at`] so
//! that terrain looks the same under both skies.

use bevy::camera::Exposure;
use bevy::prelude::*;

use super::light::{SUN_LUX, SkyLight};
use crate::config::SkyChoice;

/// The sky being drawn, decided once the renderer is known.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkyKind {
    /// Bevy's atmosphere.
    Physical,
    /// The gradient dome.
    Gradient,
}

/// The camera's exposure under the physical sky.
pub(super) const PHYSICAL_EV100: f32 = 13.5;

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
pub(super) fn mesa_major(driver_info: &str) -> Option<u32> {
    let rest = &driver_info[driver_info.find("Mesa ")? + 5..];
    rest.split('.').next()?.parse().ok()
}

/// The first Mesa whose llvmpipe draws the atmosphere (22.3 segfaults).
pub(super) const LLVMPIPE_ATMOSPHERE: u32 = 25;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn under_the_physical_sky_the_sun_lights_the_twilight() {
        use super::super::light::sky_at;
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
