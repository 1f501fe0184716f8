//! The README's water pictures, made again: each scene is built as a player would
//! make it (blocks dug or built and saved, the water they woke pending), the game is
//! opened on it under Xvfb and lets the water run, and its screenshot is written to
//! `assets/gallery/`. Not part of the test command or CI (each takes a minute or
//! two on a software renderer): `cargo test --release --test gallery -- --ignored`.

mod common;

use common::{dig, pixels, screenshot};
use terravox_edits::{Edits, SaveDir};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, Seed, WorldConfig};

/// Where the pictures go.
fn gallery(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/gallery")
        .join(format!("{name}.png"))
}

/// `--look` towards `to` from an eye at `from`: yaw (0 towards -z, 90 towards -x)
/// and pitch, in degrees.
fn look(from: [f64; 3], to: [f64; 3]) -> String {
    let d = [to[0] - from[0], to[1] - from[1], to[2] - from[2]];
    let yaw = (-d[0]).atan2(-d[2]).to_degrees().rem_euclid(360.0);
    let pitch = d[1].atan2(d[0].hypot(d[2])).to_degrees();
    format!("{yaw:.1},{pitch:.1}")
}

/// Saves `edits` for `world` in a fresh folder named `name`.
fn save(world: &WorldConfig, edits: &Edits, name: &str) -> std::path::PathBuf {
    let saves = common::out_dir().join(format!("gallery-{name}"));
    let _ = std::fs::remove_dir_all(&saves);
    SaveDir::new(&saves).save(world, edits).unwrap();
    saves
}

/// Screenshots `world` with its saves in `saves` from feet at `at` looking at `to`,
/// `frames` frames after it loaded; copies the picture to the gallery as `name` and
/// returns its pixels.
fn shoot(
    world: &str,
    saves: &std::path::Path,
    at: [f64; 3],
    to: [f64; 3],
    frames: u32,
    name: &str,
) -> (u32, u32, Vec<u8>) {
    let eye = [at[0], at[1] + 1.62, at[2]];
    let (at_arg, look_arg, frames) = (
        format!("{},{},{}", at[0], at[1], at[2]),
        look(eye, to),
        frames.to_string(),
    );
    let img = screenshot(
        name,
        &[
            world,
            "--view-distance",
            "8",
            "--horizon",
            "1024",
            "--at",
            &at_arg,
            "--look",
            &look_arg,
            "--time",
            "10:00",
            "--frames",
            &frames,
        ],
        Some(saves),
    );
    std::fs::copy(common::out_dir().join(format!("{name}.png")), gallery(name)).unwrap();
    img
}

/// Pixels of `img` in the water's blue.
fn water_pixels(img: &(u32, u32, Vec<u8>)) -> usize {
    pixels(img, 0, 0, img.0, img.1)
        .filter(|p| {
            let [r, g, b] = p.map(i32::from);
            b > r + 20 && b >= g - 10
        })
        .count()
}

/// A lake or river above the sea near `(x0, z0)` with a low bank beside it, at most
/// 4 blocks above the water for 9 columns out: the water's level, the first dry
/// column (the bank) and the way away from the water.
fn flat_bank(g: &Generator, x0: i32, z0: i32) -> (i32, [i32; 2], [i32; 2]) {
    let dry = |x: i32, z: i32| g.column_top(x, z).water.is_none();
    for r in (0..3000).step_by(3) {
        for t in (-r..=r).step_by(3) {
            for [x, z] in [
                [x0 + t, z0 - r],
                [x0 + r, z0 + t],
                [x0 - t, z0 + r],
                [x0 - r, z0 - t],
            ] {
                let Some(level) = g.column_top(x, z).water else {
                    continue;
                };
                if level < g.sea_level() + 4 {
                    continue;
                }
                for [dx, dz] in [[1, 0], [-1, 0], [0, 1], [0, -1]] {
                    let Some(out) = (1..8).find(|k| dry(x + k * dx, z + k * dz)) else {
                        continue;
                    };
                    let [bx, bz] = [x + out * dx, z + out * dz];
                    let low = (0..9).all(|k| {
                        let top = g.column_top(bx + k * dx, bz + k * dz);
                        top.water.is_none() && (level..=level + 4).contains(&top.y)
                    });
                    if low {
                        return (level, [bx, bz], [dx, dz]);
                    }
                }
            }
        }
    }
    panic!("no low bank near {x0}, {z0}");
}

/// Water running along a channel dug out of a river's bank and pouring into a pit
/// at its end (seed terravox).
#[test]
#[ignore = "writes the README's pictures; needs xvfb-run and Mesa's software Vulkan"]
fn water_pouring_into_a_dug_channel() {
    let world = WorldConfig::default().with_seed(Seed::new("terravox"));
    let g = Generator::new(&world).unwrap();
    let (level, [bx, bz], [dx, dz]) = flat_bank(&g, -1500, 1300);
    println!("channel: bank {bx}, {bz} at {level}, towards {dx}, {dz}");
    let side = [-dz, dx];
    let at = |k: i32, s: i32, y: i32| {
        BlockPos::new(bx + k * dx + s * side[0], y, bz + k * dz + s * side[1])
    };
    let mut edits = Edits::new();
    // The pit first (4 x 5, 4 deep), then the channel (3 wide) from it to the
    // water.
    for y in (level - 3..=level + 4).rev() {
        for k in 6..10 {
            for s in -2..=2 {
                dig(&mut edits, at(k, s, y));
            }
        }
    }
    for k in (0..6).rev() {
        for s in -1..=1 {
            for y in (level..=level + 4).rev() {
                dig(&mut edits, at(k, s, y));
            }
        }
    }
    let saves = save(&world, &edits, "channel");
    // From over the river, a little to one side, looking along the channel into
    // the pit it pours into.
    let target = [
        at(7, 0, 0).x as f64 + 0.5,
        level as f64 - 2.0,
        at(7, 0, 0).z as f64 + 0.5,
    ];
    let from = [
        at(-6, 3, 0).x as f64 + 0.5,
        level as f64 + 9.0,
        at(-6, 3, 0).z as f64 + 0.5,
    ];
    let img = shoot("--seed=terravox", &saves, from, target, 90, "water_channel");
    assert!(water_pixels(&img) > 5000, "no water in the picture");
}

/// A hillside above a valley: its drop of at least `fall` blocks within 24 columns
/// along `[dx, dz]`, and the highest ground of the 18 x 18 columns behind it.
fn hillside(g: &Generator, x0: i32, z0: i32, fall: i32) -> ([i32; 2], [i32; 2], i32) {
    for r in (0..2000).step_by(8) {
        for t in (-r..=r).step_by(8) {
            for [x, z] in [
                [x0 + t, z0 - r],
                [x0 + r, z0 + t],
                [x0 - t, z0 + r],
                [x0 - r, z0 - t],
            ] {
                let top = g.column_top(x, z);
                if top.water.is_some() || top.y < g.sea_level() + 10 {
                    continue;
                }
                for [dx, dz] in [[1, 0], [-1, 0], [0, 1], [0, -1]] {
                    if g.surface_height(x + 24 * dx, z + 24 * dz) > top.y - fall {
                        continue;
                    }
                    let behind: Vec<i32> = (0..18)
                        .flat_map(|a| (-9..9).map(move |b| (a, b)))
                        .map(|(a, b)| g.surface_height(x - a * dx - b * dz, z - a * dz + b * dx))
                        .collect();
                    let (lo, hi) = (behind.iter().min().unwrap(), behind.iter().max().unwrap());
                    if hi - lo <= 6 {
                        return ([x, z], [dx, dz], *hi);
                    }
                }
            }
        }
    }
    panic!("no hillside near {x0}, {z0}");
}

/// A dam break: a 16 x 16 x 5 lake built on a hillside above a valley (seed -7), a
/// 5 x 5 hole broken in its wall over the slope, the water pouring out and down.
#[test]
#[ignore = "writes the README's pictures; needs xvfb-run and Mesa's software Vulkan"]
fn a_dam_break_down_a_valley() {
    let world = WorldConfig::default().with_seed(Seed::new("-7"));
    let g = Generator::new(&world).unwrap();
    let ([x, z], [dx, dz], ground) = hillside(&g, -2300, 300, 30);
    let floor = ground + 1;
    // The lake's blocks by (a: back from the wall, b: across), its wall at a = 0.
    let at = |a: i32, b: i32, y: i32| BlockPos::new(x - a * dx - b * dz, y, z - a * dz + b * dx);
    let mut edits = Edits::new();
    for a in 0..18 {
        for b in -9..9 {
            let wall = a == 0 || a == 17 || b == -9 || b == 8;
            for y in g.surface_height(x - a * dx - b * dz, z - a * dz + b * dx) + 1..=floor + 5 {
                let block = if y <= floor || wall {
                    Block::Stone
                } else {
                    Block::Water
                };
                edits.set(at(a, b, y), block);
            }
        }
    }
    // Built as still water; then the hole, dug as the game digs.
    for y in floor + 1..floor + 6 {
        for b in -2..=2 {
            dig(&mut edits, at(0, b, y));
        }
    }
    let saves = save(&world, &edits, "dam");
    let target = [
        (x + 12 * dx) as f64 + 0.5,
        (floor - 14) as f64,
        (z + 12 * dz) as f64 + 0.5,
    ];
    let (fx, fz) = (
        target[0] - 34.0 * dz as f64 + 20.0 * dx as f64,
        target[2] + 34.0 * dx as f64 + 20.0 * dz as f64,
    );
    let over = g.surface_height(fx.floor() as i32, fz.floor() as i32) + 3;
    let from = [fx, (floor + 8).max(over) as f64, fz];
    let img = shoot("--seed=-7", &saves, from, target, 60, "water_dam_break");
    assert!(water_pixels(&img) > 5000, "no water in the picture");
}

/// Inside seed -7's mountain lake, looking up at its surface.
#[test]
#[ignore = "writes the README's pictures; needs xvfb-run and Mesa's software Vulkan"]
fn inside_a_lake_looking_up() {
    let world = WorldConfig::default().with_seed(Seed::new("-7"));
    let g = Generator::new(&world).unwrap();
    let (x, z) = (-2700, 952);
    let top = g.column_top(x, z);
    let level = top.water.expect("the lake");
    // Floating (flying) with the eyes 2.5 blocks under the surface (8/9 up its
    // block), looking up across the lake.
    let eye = level as f64 + 8.0 / 9.0 - 2.5;
    assert!(
        eye - 1.62 > (top.y + 1) as f64,
        "the lake is too shallow here"
    );
    let feet = [x as f64 + 0.5, eye - 1.62, z as f64 + 0.5];
    let to = [feet[0] + 12.0, eye + 4.0, feet[2] + 6.0];
    let saves = save(&world, &Edits::new(), "lake");
    let img = shoot("--seed=-7", &saves, feet, to, 10, "water_from_below");
    assert!(water_pixels(&img) > 20_000, "no water in the picture");
}
