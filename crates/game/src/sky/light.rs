//! The light model: what the sky looks like at each hour ([`sky_at`]: where the sun
//! or moon is, how bright it and the sky's ambient light are, the sky's colour, which
//! the fog follows). The sun, the fog and the dome apply it.

use bevy::prelude::*;

/// The sun's illuminance at its strongest, in lux.
pub(crate) const SUN_LUX: f32 = 9000.0;

/// The sky at one hour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkyLight {
    /// Direction the direct light travels (from the sun by day, the moon by night).
    pub direction: Vec3,
    /// Its illuminance in lux.
    pub illuminance: f32,
    /// Its colour.
    pub light: Color,
    /// Brightness of the sky's ambient light.
    pub ambient: f32,
    /// Colour of the ambient light.
    pub ambient_color: Color,
    /// The sky's colour towards the horizon; the fog fades into it.
    pub sky: Color,
    /// The sun's height: -1 straight down (midnight) .. 1 straight up.
    pub sun_height: f32,
    /// Unit vector towards the sun (the moon is opposite).
    pub sun: Vec3,
    /// How much of the night sky shows: 0 by day, 1 once the sun is well down (the
    /// stars' brightness).
    pub night: f32,
}

/// `3t^2 - 2t^3` of `t` clamped to `[0, 1]`.
fn smoothstep(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Mixes two sRGB colours.
fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
}

/// The sky at `hours` past midnight: the sun rises in the east at 6:00, stands
/// highest (tilted south) at noon and sets in the west at 18:00; by night the moon
/// gives a dim blue light from the opposite side, and the sky is a dark blue, never
/// black.
pub fn sky_at(hours: f32) -> SkyLight {
    let angle = (hours - 6.0) / 24.0 * std::f32::consts::TAU;
    // Where the sun is: east (+x) at dawn, overhead and a little south at noon.
    let sun = Vec3::new(angle.cos(), angle.sin(), 0.35 * angle.sin().abs() + 0.15).normalize();
    let height = sun.y;
    // Daylight lasts into twilight, until the sun is about 9 degrees down.
    let day = smoothstep((height + 0.15) / 0.4);
    // Reddened light and sky while the sun is near the horizon.
    let low = smoothstep(1.0 - ((height - 0.03).abs() / 0.2));
    let (direction, illuminance, light) = if height > 0.0 {
        let color = mix([1.0, 0.97, 0.92], [1.0, 0.62, 0.38], low);
        (-sun, SUN_LUX * smoothstep(height / 0.3), color)
    } else {
        // The moon, opposite the sun, rising as the sun sinks.
        (sun, 450.0 * smoothstep(-height / 0.15), [0.62, 0.72, 1.0])
    };
    let noon = [0.55, 0.73, 0.93];
    let night = [0.05, 0.08, 0.19];
    let dusk = [0.93, 0.58, 0.42];
    let sky = mix(mix(night, noon, day), dusk, low * 0.6);
    SkyLight {
        direction,
        illuminance,
        light: Color::srgb(light[0], light[1], light[2]),
        ambient: 70.0 + 330.0 * day,
        ambient_color: Color::srgb_from_array(mix([0.55, 0.65, 1.0], [1.0, 1.0, 1.0], day)),
        sky: Color::srgb(sky[0], sky[1], sky[2]),
        sun_height: height,
        sun,
        night: smoothstep((-height - 0.02) / 0.2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luminance(c: Color) -> f32 {
        let c = c.to_srgba();
        0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
    }

    #[test]
    fn noon_is_bright_midnight_dark_blue_and_dawn_in_between() {
        let (noon, midnight, dawn) = (sky_at(12.0), sky_at(0.0), sky_at(6.5));
        assert!(noon.sun_height > 0.85 && midnight.sun_height < -0.85);
        assert!(noon.illuminance > 8000.0 && midnight.illuminance < 1000.0);
        assert!(noon.ambient > 3.0 * midnight.ambient);
        // Light comes from above by day (the sun) and by night (the moon).
        assert!(noon.direction.y < -0.85 && midnight.direction.y < -0.85);
        // Night is dark blue, not black.
        let night = midnight.sky.to_srgba();
        assert!(night.blue > night.red && night.blue > 0.1, "{night:?}");
        assert!(luminance(midnight.sky) < 0.3 * luminance(noon.sky));
        // Dawn is between, and redder than noon.
        assert!(dawn.illuminance < noon.illuminance && dawn.illuminance > midnight.illuminance);
        let (d, n) = (dawn.sky.to_srgba(), noon.sky.to_srgba());
        assert!(d.red / d.blue > n.red / n.blue);
        // The sun rises in the east (+x) and sets in the west.
        assert!(sky_at(7.0).direction.x < 0.0 && sky_at(17.0).direction.x > 0.0);
        assert!(sky_at(7.0).sun.x > 0.0 && noon.sun.y > 0.85);
        // Stars by night only.
        assert_eq!(noon.night, 0.0);
        assert!(midnight.night > 0.99 && dawn.night == 0.0);
    }

    #[test]
    fn the_sky_changes_smoothly_through_the_day() {
        for minute in 0..24 * 60 {
            let (a, b) = (
                sky_at(minute as f32 / 60.0),
                sky_at((minute + 1) as f32 / 60.0),
            );
            assert!(
                (luminance(a.sky) - luminance(b.sky)).abs() < 0.02,
                "{minute}"
            );
            assert!((a.ambient - b.ambient).abs() < 10.0, "{minute}");
        }
    }
}
