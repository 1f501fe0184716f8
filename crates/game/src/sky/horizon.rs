//! The colour of the physical sky at the horizon, hour by hour: a table measured from
//! screenshots, which the fog and the dome's skirt take so distant terrain fades into
//! the sky.

use bevy::prelude::*;

/// The atmosphere's colour just above the horizon (sRGB) by the hour, as Bevy draws
/// it for this game's sun and moon: measured from `--sky physical` screenshots over
/// the sea (black clear colour), half a degree to a degree and a half up. By day and
/// night it is the same in every direction to within a few levels; in the twilight
/// the side of the sun is up to twice as bright, and the table holds the side away
/// from it, so distant land is a dark silhouette against the sunset rather than a
/// glowing band under a darker sky. Around 5:40 and 18:20 the light switches between
/// the sun's twilight and the moon (`kind::TWILIGHT`). The fog and the skirt below the
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
