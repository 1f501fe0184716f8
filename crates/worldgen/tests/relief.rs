//! Version 4's relief: the surface follows the shape (bare rock banded with slate on
//! steep ground, not on gentle ground) and trees thin out towards the snow line and
//! never stand on rock.

use crate::common;

use common::generator;
use terravox_voxel::{Block, CHUNK, ChunkPos};
use terravox_worldgen::{DensityConfig, Generator, GeneratorConfig};

/// The default world's snow line and sea level.
fn snow_and_sea(g: &Generator) -> (i32, i32) {
    let GeneratorConfig::Density(DensityConfig { snow_line, .. }) = g.config().generator else {
        panic!("continents is a density world")
    };
    (snow_line, g.config().sea_level)
}

/// Land columns every `step` blocks over a `size`-block square around the origin,
/// with their top and slope (height change over 8 blocks each way, by central
/// differences).
fn land(g: &Generator, size: i32, step: usize) -> Vec<(i32, i32, i32, Block, f64)> {
    let sea = g.config().sea_level;
    let mut out = Vec::new();
    for z in (-size / 2..size / 2).step_by(step) {
        for x in (-size / 2..size / 2).step_by(step) {
            let top = g.column_top(x, z);
            if top.y <= sea + 2 {
                continue;
            }
            let h = |dx: i32, dz: i32| g.surface_height(x + dx, z + dz) as f64;
            let (sx, sz) = ((h(8, 0) - h(-8, 0)) / 16.0, (h(0, 8) - h(0, -8)) / 16.0);
            out.push((x, z, top.y, top.block, (sx * sx + sz * sz).sqrt()));
        }
    }
    out
}

#[test]
fn steep_ground_is_bare_rock_in_slate_strata_and_gentle_ground_is_not() {
    for seed in ["terravox", "42"] {
        let g = generator("continents", seed);
        let (snow, sea) = snow_and_sea(&g);
        let columns = land(&g, 4096, 16);
        let rock = |b: Block| matches!(b, Block::Stone | Block::Slate);
        let share = |pick: &dyn Fn(f64, i32) -> bool, of: &dyn Fn(Block) -> bool| {
            let picked: Vec<_> = columns.iter().filter(|c| pick(c.4, c.2)).collect();
            let n = picked.iter().filter(|c| of(c.3)).count();
            (n as f64 / picked.len().max(1) as f64, picked.len())
        };
        let (steep, n_steep) = share(&|slope, _| slope > 2.0, &rock);
        let (gentle, n_gentle) = share(
            &|slope, y| slope < 0.3 && y > sea + 8 && y < snow - 20,
            &rock,
        );
        let (slate, _) = share(&|slope, _| slope > 2.0, &|b| b == Block::Slate);
        assert!(
            n_steep > 100 && n_gentle > 1000,
            "{seed}: {n_steep} steep, {n_gentle} gentle"
        );
        assert!(
            steep > 0.7,
            "{seed}: only {steep:.2} of steep ground is rock"
        );
        assert!(gentle < 0.1, "{seed}: {gentle:.2} of gentle ground is rock");
        assert!(
            slate > 0.15 && slate < 0.6,
            "{seed}: slate on {slate:.2} of steep ground"
        );
    }
}

#[test]
fn trees_grow_on_the_lower_slopes_and_never_on_rock_or_above_the_snow_line() {
    let g = generator("continents", "42");
    let (snow, sea) = snow_and_sea(&g);
    // The chunks around the highest of the land columns near the origin: a range,
    // its flanks and the land below.
    let columns = land(&g, 2048, 16);
    let &(px, pz, _, _, _) = columns.iter().max_by_key(|c| c.2).expect("land");
    let (cx, cz) = (px.div_euclid(CHUNK), pz.div_euclid(CHUNK));
    // Trees (a log on a solid non-log block) and land columns (every 4th), by band.
    let bands = [(sea + 4, sea + 60), (sea + 60, snow), (snow, i32::MAX)];
    let (mut trees, mut columns) = ([0usize; 3], [0usize; 3]);
    let log = |b: Block| {
        matches!(
            b,
            Block::OakLog | Block::BirchLog | Block::SpruceLog | Block::AcaciaLog
        )
    };
    for z in cz - 8..cz + 8 {
        for x in cx - 8..cx + 8 {
            for lz in (0..CHUNK).step_by(4) {
                for lx in (0..CHUNK).step_by(4) {
                    let y = g.surface_height(x * CHUNK + lx, z * CHUNK + lz);
                    if let Some(b) = bands.iter().position(|&(lo, hi)| (lo..hi).contains(&y)) {
                        columns[b] += 1;
                    }
                }
            }
            let top = g
                .surface_height(x * CHUNK + 16, z * CHUNK + 16)
                .div_euclid(CHUNK);
            let chunks: Vec<_> = (top - 2..=top + 2)
                .map(|y| (y, g.generate(ChunkPos::new(x, y, z))))
                .collect();
            for (cy, c) in &chunks {
                for (lx, ly, lz) in (0..CHUNK * CHUNK * CHUNK)
                    .map(|i| (i % CHUNK, i / CHUNK % CHUNK, i / (CHUNK * CHUNK)))
                {
                    if ly == 0 || !log(c.get(lx, ly, lz)) || log(c.get(lx, ly - 1, lz)) {
                        continue;
                    }
                    let soil = c.get(lx, ly - 1, lz);
                    let y = cy * CHUNK + ly - 1;
                    assert!(
                        !matches!(soil, Block::Stone | Block::Slate | Block::Gravel),
                        "a tree on {soil:?} at {:?}",
                        (x * CHUNK + lx, y, z * CHUNK + lz)
                    );
                    if let Some(b) = bands.iter().position(|&(lo, hi)| (lo..hi).contains(&y)) {
                        trees[b] += 1;
                    }
                }
            }
        }
    }
    assert!(
        columns.iter().all(|&n| n > 200),
        "land by band: {columns:?}"
    );
    assert!(trees[0] > 50, "trees by band: {trees:?}");
    assert_eq!(trees[2], 0, "trees above the snow line: {trees:?}");
}
