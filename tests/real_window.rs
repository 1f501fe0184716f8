//! The real-window test: the release binary under Xvfb with Mesa's software Vulkan
//! renders terrain and sky, different seeds give different pictures, `--panel` draws
//! the panel, edits saved in `--save-dir` are loaded and drawn with textured faces,
//! the sky is a gradient, night is darker than day, the physical sky draws the
//! atmosphere and its sun disk, the sea shows water, and water saved flowing into a
//! trench dug out of a lake flows on and is drawn there.
//! Ignored by default (it needs `xvfb-run` and takes minutes); `.ci/run` runs it with
//! `--ignored`.

mod common;

use bevy::math::DVec3;
use common::{dig, out_dir, pixels, screenshot, screenshot_and_log};
use terravox_edits::{Edits, SaveDir};
use terravox_game::body::Body;
use terravox_game::{Player, eye_ray};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, Seed, WorldConfig};

/// The mean colour of some pixels, and how many there were.
fn mean(pixels: impl Iterator<Item = [u8; 3]>) -> ([f64; 3], f64) {
    let (mut sum, mut n) = ([0.0; 3], 0.0);
    for p in pixels {
        (0..3).for_each(|c| sum[c] += p[c] as f64);
        n += 1.0;
    }
    (sum.map(|s| s / n), n)
}

/// Distinct colours (quantised) in a rectangle.
fn colours(img: &(u32, u32, Vec<u8>), x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
    pixels(img, x0, y0, x1, y1)
        .map(|p| p.map(|c| c >> 3))
        .collect::<std::collections::HashSet<_>>()
        .len()
}

fn is_sky(p: &[u8]) -> bool {
    // ClearColor srgb(0.55, 0.73, 0.93), possibly fogged.
    p[2] > 180 && p[2] > p[0] + 30
}

#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn game_renders_terrain_sky_and_panel() {
    let a = screenshot("seed_a", &["--seed", "alpha"], None);
    let (w, h, ref px) = a;
    assert!(
        colours(&a, 0, 0, w, h) > 50,
        "the screenshot is nearly one colour"
    );
    let sky = px.chunks(3).filter(|p| is_sky(p)).count();
    let total = (w * h) as usize;
    assert!(sky > total / 50, "no sky: {sky} of {total} pixels");
    assert!(
        sky < total * 95 / 100,
        "no terrain: {sky} of {total} pixels are sky"
    );

    let b = screenshot("seed_b", &["--seed", "beta", "--preset", "islands"], None);
    let differing =
        a.2.chunks(3)
            .zip(b.2.chunks(3))
            .filter(|(p, q)| p != q)
            .count();
    assert!(
        differing > total / 10,
        "two seeds gave nearly the same picture ({differing} pixels differ)"
    );

    // The panel is an egui window at the top left: many distinct colours (text on a
    // dark frame) where the no-panel run shows terrain or sky.
    let c = screenshot("panel", &["--seed", "alpha", "--panel"], None);
    let dark = |img: &(u32, u32, Vec<u8>)| {
        pixels(img, 20, 40, 340, 400)
            .filter(|p| p.iter().all(|&c| c < 60))
            .count()
    };
    assert!(
        dark(&c) > dark(&a) + 20_000,
        "no panel drawn: {} dark pixels vs {}",
        dark(&c),
        dark(&a)
    );

    // The panel with a field layer (its legend's blue-white-red ramp) and the spline
    // editor (its light-blue curve and yellow points) open.
    let d = screenshot(
        "panel_design",
        &[
            "--seed",
            "alpha",
            "--panel",
            "--show",
            "continentalness,splines",
        ],
        None,
    );
    let near = |p: [u8; 3], q: [u8; 3]| p.iter().zip(q).all(|(a, b)| a.abs_diff(b) <= 12);
    let count = |colour: [u8; 3]| {
        pixels(&d, 8, 40, 400, 700)
            .filter(|&p| near(p, colour))
            .count()
    };
    let (curve, points) = (count([120, 200, 255]), count([250, 210, 90]));
    let (blue, red) = (count([40, 70, 160]), count([180, 40, 40]));
    assert!(
        curve > 150 && points > 60,
        "no spline editor: {curve} curve and {points} point pixels"
    );
    assert!(
        blue > 10 && red > 10,
        "no legend: {blue} blue and {red} red pixels"
    );
}

/// Mean and standard deviation of the luminance (0..=255) in a rectangle, leaving
/// out pure white and near-black pixels (the crosshair, the block outline).
fn luminance_stats(img: &(u32, u32, Vec<u8>), x0: u32, y0: u32, x1: u32, y1: u32) -> (f64, f64) {
    let v: Vec<f64> = pixels(img, x0, y0, x1, y1)
        .map(|p| luminance(p.map(f64::from)))
        .filter(|l| (30.0..250.0).contains(l))
        .collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / v.len() as f64;
    (mean, var.sqrt())
}

/// Luminance of an RGB colour.
fn luminance(c: [f64; 3]) -> f64 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// Mean RGB of a rectangle.
fn mean_rgb(img: &(u32, u32, Vec<u8>), x0: u32, y0: u32, x1: u32, y1: u32) -> [f64; 3] {
    mean(pixels(img, x0, y0, x1, y1)).0
}

/// A spot on plains in the default world, looking a little above the horizon.
const PLAINS: [&str; 4] = ["--at", "-167,38,-1210", "--look", "0,8"];

#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn the_sky_is_a_gradient_and_night_is_darker_than_day() {
    let (day, log) = screenshot_and_log(
        "day",
        &[&PLAINS[..], &["--time", "09:00"][..]].concat(),
        None,
    );
    // A software renderer gets the gradient dome by default.
    assert!(log.contains("sky: gradient"), "no gradient sky:\n{log}");
    let (w, h) = (day.0, day.1);
    // High in the sky it is a deeper blue than just above the horizon (the distant
    // hills are a little below the middle of the screen; the stats overlay is at the
    // top right). Only blue pixels count, not the clouds.
    let sky_mean = |y0: u32, y1: u32| {
        let blue = pixels(&day, 40, y0, w / 2, y1).filter(|p| p[2] as f64 > p[0] as f64 + 30.0);
        let (sky, n) = mean(blue);
        assert!(n > 1000.0, "no sky between rows {y0} and {y1}");
        sky
    };
    let zenith = sky_mean(10, 60);
    let horizon = sky_mean(h / 2 + 40, h / 2 + 80);
    let blueness = |c: [f64; 3]| c[2] - c[0];
    assert!(
        blueness(zenith) > blueness(horizon) + 8.0,
        "the sky is one colour: {zenith:?} overhead, {horizon:?} at the horizon"
    );
    let night = screenshot(
        "night",
        &[&PLAINS[..], &["--time", "23:00"][..]].concat(),
        None,
    );
    let lum_day = luminance(mean_rgb(&day, 0, 0, w, h - 100));
    let lum_night = luminance(mean_rgb(&night, 0, 0, w, h - 100));
    assert!(
        lum_night < lum_day * 0.5,
        "night ({lum_night:.0}) is not darker than day ({lum_day:.0})"
    );
    // Dark blue, not black.
    let sky = mean_rgb(&night, 40, 10, w / 2, 60);
    assert!(sky[2] > sky[0] && sky[2] > 10.0, "night sky {sky:?}");
}

#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn the_physical_sky_draws_the_atmosphere_and_its_sun() {
    // From the plains, looking at the 09:00 sun: east, a little south, 40 degrees up.
    let (img, log) = screenshot_and_log(
        "physical",
        &[
            "--at",
            "-167,38,-1210",
            "--look",
            "-119,30",
            "--time",
            "09:00",
            "--sky",
            "physical",
        ],
        None,
    );
    assert!(
        log.contains("sky: physical"),
        "not the physical sky:\n{log}"
    );
    let (w, h) = (img.0, img.1);
    // The sun disk: a small patch of white near the middle (clouds are greyer).
    let sun = pixels(&img, w / 2 - 200, h / 2 - 250, w / 2 + 200, h / 2 + 50)
        .filter(|p| p.iter().all(|&c| c >= 245))
        .count();
    assert!((100..3000).contains(&sun), "{sun} sun pixels");
    // Scattered light: the sky overhead is blue, neither black nor white.
    let (sky, n) =
        mean(pixels(&img, 40, 10, w / 2, 60).filter(|p| p[2] as f64 > p[0] as f64 + 30.0));
    assert!(n > 1000.0 && sky[2] > 150.0, "sky {sky:?} over {n} pixels");
}

#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn the_sea_shows_water() {
    // Above the ocean at the world's centre, looking down at it.
    let img = screenshot("ocean", &["--at", "0,30,0", "--look", "0,-40"], None);
    let (w, h) = (img.0, img.1);
    let (y0, y1) = (h / 2, h - 100);
    let water = pixels(&img, 0, y0, w, y1)
        .filter(|p| {
            let [r, g, b] = p.map(i32::from);
            b > r + 25 && b >= g
        })
        .count();
    let area = (w * (y1 - y0)) as usize;
    assert!(
        water > area * 3 / 5,
        "no water in the ocean view: {water} of {area} pixels are water-blue"
    );
}

/// A trench dug out of the west bank of seed -7's mountain lake, saved just dug
/// (the water it woke pending): the game lets the water run in once the world is
/// loaded, and looking straight down at the trench the water shows there, in the
/// water's blue over the trench's rock. On version 7's land, whose lake shore there
/// meets the trench with one block of lake (version 8's lake sits on its nodes'
/// warped places: there two blocks of lake meet the trench's first, which the rules
/// make a source, as Minecraft's do).
#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn water_flows_into_a_dug_trench_and_is_drawn() {
    let v7 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/worldgen/tests/v7/continents.ron"
    );
    let world = WorldConfig::from_ron(&std::fs::read_to_string(v7).unwrap())
        .unwrap()
        .with_seed(Seed::new("-7"));
    let generator = Generator::new(&world).unwrap();
    let (lake, z) = (-2700, 952);
    let level = generator.column_top(lake, z).water.expect("the lake");
    let bank = (lake - 60..lake)
        .rev()
        .find(|&x| generator.column_top(x, z).water.is_none())
        .expect("a bank west of the lake");
    // The trench, 8 blocks from the bank at the water's level, open above.
    let mut edits = Edits::new();
    let mut dug = Vec::new();
    for x in bank - 7..=bank {
        let top = generator.surface_height(x, z).max(level);
        dug.extend((level..=top + 2).map(|y| BlockPos::new(x, y, z)));
    }
    for &p in &dug {
        dig(&mut edits, p);
    }
    let saves = out_dir().join("trench-world");
    let _ = std::fs::remove_dir_all(&saves);
    SaveDir::new(&saves).save(&world, &edits).unwrap();
    // Straight down over the trench's middle, 5 blocks above the water.
    let at = format!("{},{},{}", bank - 3, level + 5, z as f64 + 0.5);
    let img = screenshot(
        "trench",
        &[
            "--config",
            v7,
            "--seed=-7",
            "--at",
            &at,
            "--look",
            "0,-90",
            "--frames",
            "60",
            "--time",
            "10:00",
        ],
        Some(&saves),
    );
    // The trench runs across the middle of the screen, the lake to the right: its
    // seven blocks of water span about 70 pixels each from the crosshair's left to
    // the lake.
    let (w, h) = (img.0, img.1);
    let (x0, y0, x1, y1) = (w / 2 - 150, h / 2 - 20, w / 2 + 250, h / 2 + 20);
    let water = pixels(&img, x0, y0, x1, y1)
        .filter(|p| {
            let [r, g, b] = p.map(i32::from);
            b > r + 20 && b >= g - 10
        })
        .count();
    let area = ((x1 - x0) * (y1 - y0)) as usize;
    assert!(
        water > area * 3 / 4,
        "no water drawn in the trench: {water} of {area} pixels are water-blue"
    );
    // The water ran in and was saved on exit: the trench's blocks by the bank hold
    // water now, lower further out.
    let saved = SaveDir::new(&saves).load(&world).unwrap();
    let at_level = |x: i32| saved.get(BlockPos::new(x, level, z));
    assert_eq!(
        at_level(bank),
        Some(Block::FlowingWater1),
        "{:?}",
        (bank - 7..=bank).map(at_level).collect::<Vec<_>>()
    );
    assert!(at_level(bank - 3).is_some_and(|b| b.fluid().is_some_and(|f| f.amount() == 4)));
}

/// The far rings are lit by the same sun as the near land: from above a peak of the
/// default world looking 20 degrees down, the bottom left of the screen shows the
/// peak's full-detail chunks (the view distance here is 4 chunks) and the middle
/// coarse ones (a few hundred blocks away, before the fog), and at midnight the far
/// land keeps no more of its noon luminance than the near land does (far terrain
/// that stayed lit at night would keep most of it; measured here: 0.32 near, 0.24
/// far). And a seam does not show: the same land 170-340 blocks away, drawn at full
/// detail (a view distance of 12 chunks) and coarse (4), is as bright within 4%.
#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn the_far_rings_are_lit_like_the_near_land() {
    let view = [
        "--at",
        "4092,330,64",
        "--look",
        "90,-20",
        "--horizon",
        "2048",
    ];
    let noon = screenshot(
        "rings_noon",
        &[&view[..], &["--time", "12:00"][..]].concat(),
        None,
    );
    let night = screenshot(
        "rings_night",
        &[&view[..], &["--time", "00:00"][..]].concat(),
        None,
    );
    let (w, h) = (noon.0, noon.1);
    // Left of the hotbar and below the stats overlay.
    let band = |img: &(u32, u32, Vec<u8>), y0: u32, y1: u32| {
        luminance(mean_rgb(img, 0, y0, w * 3 / 10, y1))
    };
    let (near, far) = ((h * 4 / 5, h - 20), (h / 2 - 20, h / 2 + 20));
    let kept = |(y0, y1): (u32, u32)| band(&night, y0, y1) / band(&noon, y0, y1);
    let (near_kept, far_kept) = (kept(near), kept(far));
    eprintln!("night keeps {near_kept:.2} of noon near, {far_kept:.2} far");
    // The land between 170 and 340 blocks away again, at full detail: it lies in the
    // coarse rings with a view of 4 chunks (128 blocks) and in the full-detail view
    // with 12 (384). How much its brightness changes is the step a seam between the
    // levels shows.
    let full = screenshot(
        "rings_noon_full",
        &[&view[..], &["--time", "12:00", "--view-distance", "12"][..]].concat(),
        None,
    );
    let player = Player(Body {
        position: DVec3::new(4092.0, 330.0, 64.0),
        yaw: 90f32.to_radians(),
        pitch: (-20f32).to_radians(),
        ..Body::default()
    });
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let blocks = pixels_whose_ground_lies(&g, &player, (w, h), 170.0..340.0);
    let block_luminance = |img: &(u32, u32, Vec<u8>)| {
        blocks
            .iter()
            .map(|&(x, y)| luminance(mean_rgb(img, x, y, x + 8, y + 8)))
            .sum::<f64>()
            / blocks.len() as f64
    };
    let (coarse_l, full_l) = (block_luminance(&noon), block_luminance(&full));
    let step = (coarse_l - full_l).abs() / full_l;
    eprintln!(
        "the land 170-340 blocks away ({} blocks of 8 x 8 pixels): luminance {full_l:.1} at full detail, {coarse_l:.1} coarse, a {:.1}% step",
        blocks.len(),
        step * 100.0
    );
    assert!(
        blocks.len() > 200,
        "too little land at that distance on screen"
    );
    assert!(
        step < 0.04,
        "a seam shows: the same land is {:.1}% brighter or darker coarse ({coarse_l:.1}) than at full detail ({full_l:.1})",
        step * 100.0
    );
    assert!(
        near_kept < 0.5,
        "the near land is not dark at night: {near_kept:.2}"
    );
    assert!(
        far_kept < 0.5 && far_kept < near_kept * 1.5 + 0.05,
        "the far rings stay lit at night: {far_kept:.2} of noon kept, near {near_kept:.2}"
    );
}

/// The 8 x 8 pixel blocks (their top left corners) of a `w` x `h` frame seen by
/// `player` (the game's field of view: 75 degrees vertically) whose middle ray first
/// meets the ground at a horizontal distance in `range`, clear of the stats overlay
/// (top right) and the hotbar (bottom middle). The ground is each column's highest
/// block, walked in steps of half a block.
fn pixels_whose_ground_lies(
    g: &Generator,
    player: &Player,
    (w, h): (u32, u32),
    range: std::ops::Range<f64>,
) -> Vec<(u32, u32)> {
    use bevy::math::{EulerRot, Quat, Vec3};
    let rotation = Quat::from_euler(EulerRot::YXZ, player.yaw, player.pitch, 0.0);
    let (eye, _) = eye_ray(player);
    let tan = (75f32.to_radians() / 2.0).tan();
    let aspect = w as f32 / h as f32;
    let highest = g.highest_possible() as f64 + 1.0;
    let mut tops = std::collections::HashMap::new();
    let mut out = Vec::new();
    for y in (0..h - 8).step_by(8) {
        for x in (0..w - 8).step_by(8) {
            let overlay = x + 8 > w * 56 / 100 && y < 210;
            let hotbar = y + 8 > 630 * h / 720 && x + 8 > w * 3 / 10 && x < w * 7 / 10;
            if overlay || hotbar {
                continue;
            }
            let (nx, ny) = (
                (x as f32 + 4.0) / w as f32 * 2.0 - 1.0,
                1.0 - (y as f32 + 4.0) / h as f32 * 2.0,
            );
            let dir = (rotation * Vec3::new(nx * tan * aspect, ny * tan, -1.0))
                .normalize()
                .as_dvec3();
            // Rays reach twice the range (they fall steeply into valleys), and stop
            // above the highest land there can be.
            let hit = (1..4 * range.end as i32)
                .map(|i| eye + dir * (i as f64 * 0.5))
                .take_while(|p| p.y <= highest)
                .find(|p| {
                    let (bx, bz) = (p.x.floor() as i32, p.z.floor() as i32);
                    let top = *tops
                        .entry((bx, bz))
                        .or_insert_with(|| g.surface_height(bx, bz));
                    p.y < top as f64 + 1.0
                });
            if let Some(p) = hit {
                let d = ((p.x - eye.x).powi(2) + (p.z - eye.z).powi(2)).sqrt();
                if range.contains(&d) {
                    out.push((x, y));
                }
            }
        }
    }
    out
}

/// Reddish pixels (bricks: red well above green and blue) in a rectangle.
fn brick_pixels(img: &(u32, u32, Vec<u8>), x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
    pixels(img, x0, y0, x1, y1)
        .filter(|p| {
            let [r, g, b] = p.map(f32::from);
            r > 50.0 && r > 1.8 * g && r > 1.8 * b
        })
        .count()
}

#[test]
#[ignore = "needs xvfb-run and Mesa's software Vulkan; run by .ci/run"]
fn saved_edits_are_loaded_and_drawn() {
    // A 3-block cube of bricks right in front of the eye (clear of the body), saved
    // for the world; the view is framed with --at and --look, near the far edge of the
    // world, where only a floating origin draws blocks without jitter.
    let world = WorldConfig::default().with_seed(Seed::new("alpha"));
    let generator = Generator::new(&world).unwrap();
    let far = terravox_worldgen::WORLD_LIMIT - 4096;
    let [x, y, z] = generator
        .find_land(far, -far, 1024)
        .expect("land near the edge");
    let feet = DVec3::new(x as f64 + 0.5, y as f64, z as f64 + 0.5);
    let [yaw, pitch] = [30.0f32, -20.0];
    let player = Player(Body {
        position: feet,
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        ..Body::default()
    });
    let (eye, dir) = eye_ray(&player);
    let centre = BlockPos::containing_f64((eye + dir.as_dvec3() * 2.5).to_array());
    let mut edits = Edits::new();
    for y in -1..=1 {
        for z in -1..=1 {
            for x in -1..=1 {
                edits.set(centre.offset([x, y, z]), Block::Brick);
            }
        }
    }
    let saves = out_dir().join("edited-world");
    let _ = std::fs::remove_dir_all(&saves);
    SaveDir::new(&saves).save(&world, &edits).unwrap();

    let at = format!("{},{},{}", feet.x, feet.y, feet.z);
    let look = format!("{yaw},{pitch}");
    let img = screenshot(
        "bricks",
        &["--seed", "alpha", "--at", &at, "--look", &look],
        Some(&saves),
    );
    // The middle of the screen (around the crosshair) is bricks.
    let (w, h) = (img.0, img.1);
    let (x0, y0, x1, y1) = (w / 2 - 100, h / 2 - 80, w / 2 + 100, h / 2 + 80);
    let bricks = brick_pixels(&img, x0, y0, x1, y1);
    let area = ((x1 - x0) * (y1 - y0)) as usize;
    // Red bricks between lighter mortar lines.
    assert!(
        bricks > area / 2,
        "the saved bricks are not drawn: {bricks} of {area} pixels"
    );
    // Textured: the face around the crosshair varies (bricks, their speckles and
    // the mortar between them; a flat colour would have a shade or two), leaving out
    // the white crosshair and the black outline.
    let (mean, spread) = luminance_stats(&img, x0, y0, x1, y1);
    let shades = colours(&img, x0, y0, x1, y1);
    assert!(
        spread > 12.0 && shades >= 8,
        "the brick face is one flat colour: luminance {mean:.0} ± {spread:.1}, {shades} shades"
    );
    // The save was read, not replaced or moved aside.
    let loaded = SaveDir::new(&saves).load(&world).unwrap();
    assert_eq!(loaded, edits);
}
