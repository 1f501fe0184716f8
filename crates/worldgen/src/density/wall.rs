//! Gullies down the valley walls rivers cut through the ranges (version 7).
//!
//! A river's valley wall caps the ground beside it (`hydrology::channel`): where a
//! range stood higher, the wall cut it down to a bare slope, and the erosion
//! filter's gullies, which run down the range's own slopes, ended at the wall's top.
//! Version 7 runs the filter again along the wall's slope ([`WALL`] blocks a block,
//! rising away from the river), so its gullies run down the wall to the river where
//! they meet it, deepening from nothing over [`FADE`] blocks from where the wall
//! starts rising, never cutting below the top of the river's bank (the water stays in
//! its bed) and never raising the wall (it lets the river through).
//!
//! ```text
//!     range  ____                        ____   range
//!                \\  gullies down the   //
//!        wall     \\   wall to the     //     wall
//!                  \\___ river ______//
//!                       ~~~~~~~~~~~
//! ```

use crate::hydrology::channel::{WALL, Wall};
use crate::shape::climate::{CoarseGrid, ColumnShape, smoothstep};
use crate::shape::relief::Relief;

/// Blocks up a valley wall over which the gullies cut into it deepen from nothing to
/// the erosion filter's full depth.
const FADE: f64 = 12.0;

/// Cuts the erosion filter's gullies into `wall`, which cut column `(x, z)` down
/// (its shape `s`), as much as the ranges of `relief` stand there (`grid`'s masks).
pub(super) fn cut_gullies(
    relief: &Relief,
    grid: &CoarseGrid,
    s: &mut ColumnShape,
    x: i32,
    z: i32,
    wall: Wall,
) {
    let fade = smoothstep(wall.up / FADE);
    if fade <= 0.0 {
        return;
    }
    let Some((cut, ridge)) = relief.gullies_down(x, z, grid, wall.rises, WALL) else {
        return;
    };
    let height = (s.height + fade * cut).max(wall.floor).min(s.height);
    s.offset += height - s.height;
    s.height = height;
    s.gully += (ridge - s.gully) * fade;
}

#[cfg(test)]
mod tests {
    use super::{FADE, cut_gullies};
    use crate::config::presets;
    use crate::config::seed::Seed;
    use crate::density::DensityGen;
    use crate::density::tests::generator;
    use crate::hydrology::channel::Wall;

    /// Over 4 km x 4 km of seed -7's ranges (its mountain lake and waterfall), column
    /// by column every 4 blocks: version 7 differs from version 6 only on valley
    /// walls, there only lower and never below the bank's top; many walls get gullies
    /// 3 blocks deep or more; and they run down the wall to the river: their depth
    /// changes less a step up the wall than a step along it, and the other way round
    /// for the same filter steered along the wall instead.
    #[test]
    fn gullies_run_down_the_valley_walls_to_the_river() {
        let mut cfg = presets::builtin("continents")
            .unwrap()
            .with_seed(Seed::new("-7"));
        // Version 7 (version 8 lays its rivers otherwise).
        cfg.version = 7;
        let mut old = cfg.clone();
        old.version = 6;
        let (v7, v6) = (generator(&cfg), generator(&old));
        let relief = v7.relief.as_deref().expect("ranges");
        let (x0, z0, side) = (-4096, -1536, 4096);
        let area = |g: &DensityGen| {
            g.grid(x0 - 16, z0 - 16, x0 + side + 16, z0 + side + 16)
                .expect("a shaped world")
        };
        let (a7, a6) = (area(&v7), area(&v6));
        // The depth of the gullies `wall` steered `rises` cuts at column (x, z), and
        // the wall there if it is one rising the same way, at least FADE up.
        let depth = |x: i32, z: i32, rises: [f64; 2]| {
            let (_, wall) = v7.shape_walled(Some(&a7), x, z, true);
            let wall = wall.filter(|w| w.up >= FADE)?;
            let s6 = v6.shape(Some(&a6), x, z, true);
            let mut s = s6;
            cut_gullies(relief, &a7.fields, &mut s, x, z, Wall { rises, ..wall });
            Some((s6.height - s.height, wall))
        };
        let (mut walls, mut cut, mut deep) = (0, 0, 0);
        // Summed depth changes a step up and along the wall, steered down the wall
        // and along it.
        let (mut down, mut along) = ([0.0; 2], [0.0; 2]);
        for z in (z0..z0 + side).step_by(4) {
            for x in (x0..x0 + side).step_by(4) {
                let (s7, wall) = v7.shape_walled(Some(&a7), x, z, true);
                let s6 = v6.shape(Some(&a6), x, z, true);
                let Some(wall) = wall else {
                    assert_eq!(s7, s6, "({x}, {z}): no wall, and yet changed");
                    continue;
                };
                walls += 1;
                assert!(
                    s7.height <= s6.height && s7.height >= wall.floor.min(s6.height),
                    "({x}, {z}): {} in version 7, {} in version 6, the bank's top {}",
                    s7.height,
                    s6.height,
                    wall.floor
                );
                if s7.height < s6.height {
                    cut += 1;
                    deep += usize::from(s6.height - s7.height >= 3.0);
                }
                if wall.up < FADE || s7.height == s6.height {
                    continue;
                }
                let [rx, rz] = wall.rises;
                for (k, steer) in [[rx, rz], [-rz, rx]].into_iter().enumerate() {
                    let at = |dx: f64, dz: f64| {
                        let (sx, sz) =
                            (x + (4.0 * dx).round() as i32, z + (4.0 * dz).round() as i32);
                        depth(sx, sz, steer)
                            .filter(|(_, w)| w.rises[0] * rx + w.rises[1] * rz > 0.9)
                            .map(|(d, _)| d)
                    };
                    let (here, _) = depth(x, z, steer).expect("a wall column");
                    if k == 0 {
                        assert_eq!(here, s6.height - s7.height, "({x}, {z})");
                    }
                    let steps = [at(rx, rz), at(-rx, -rz), at(-rz, rx), at(rz, -rx)];
                    if let [Some(u0), Some(u1), Some(a0), Some(a1)] = steps {
                        down[k] += (u0 - here).abs() + (u1 - here).abs();
                        along[k] += (a0 - here).abs() + (a1 - here).abs();
                    }
                }
            }
        }
        let ratio = [down[0] / along[0], down[1] / along[1]];
        println!(
            "{walls} wall columns, {cut} cut, {deep} by 3 blocks or more; gullies' depth change a step up the wall over one along it: {:.2} steered down the wall, {:.2} steered along it",
            ratio[0], ratio[1]
        );
        assert!(
            cut > 2000 && deep > 500,
            "{walls} wall columns, {cut} cut, {deep} deep"
        );
        assert!(
            ratio[0] < 0.85 && ratio[1] > 1.0 / 0.85,
            "the gullies do not run down the wall: {ratio:?}"
        );
    }
}
