//! The Minecraft export read by amulet-core, the library of the Amulet world
//! editor (Python, written by nobody here), compared block by block with
//! terravox's generator in sampled columns. Needs a Python with `amulet-core`:
//! `.ci/run` makes one and runs this test with
//! `TERRAVOX_AMULET_PYTHON=... cargo test --release -p terravox-export --test amulet -- --ignored`.

mod common;

use std::fs;
use std::process::Command;

use terravox_edits::Edits;
use terravox_export::minecraft::{self, Options, SEA_TOP, names, release};
use terravox_export::{Area, Source};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

#[test]
#[ignore = "needs Python with amulet-core in TERRAVOX_AMULET_PYTHON (.ci/run sets it up)"]
fn amulet_reads_every_block_of_sampled_columns() {
    let python = python();
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let tower = (12, 9);
    let top = g.surface_height(tower.0, tower.1);
    let mut edits = Edits::new();
    for y in top + 1..=top + 8 {
        edits.set(BlockPos::new(tower.0, y, tower.1), Block::Cobblestone);
    }
    let source = Source::new(g, edits);
    let area = Area::new([-40, -24], [40, 40], minecraft::MAX_SIDE).unwrap();

    // Columns across chunk borders, both signs, the tower, and one past the area.
    let columns = [
        (-40, -24),
        (-17, 3),
        (-1, -1),
        (0, 0),
        (15, 16),
        tower,
        (39, 39),
        (40, 0),
    ];
    let options = Options::default();
    let (_, compared) = export_and_compare(&python, &source, area, ("amulet", &options), &columns);
    assert_eq!(
        compared,
        columns.len() * 384,
        "every block of every column read"
    );
}

/// A world taller than Minecraft's default (its highest peak raised by the export's
/// data pack) reads back whole: amulet takes the height from the data pack, and
/// every block up to the raised top matches.
#[test]
#[ignore = "needs Python with amulet-core in TERRAVOX_AMULET_PYTHON (.ci/run sets it up)"]
fn amulet_reads_a_raised_world_to_its_top() {
    let python = python();
    let g = common::continents("-99");
    let (peak, x, z) = common::highest_peak(&g);
    let source = Source::new(g, Edits::new());
    let area = Area::new([x - 4, z - 4], [x + 4, z + 4], minecraft::MAX_SIDE).unwrap();
    let columns = [(x, z), (x - 3, z + 2)];
    let options = Options::default();
    let (report, compared) =
        export_and_compare(&python, &source, area, ("amulet-tall", &options), &columns);
    let shift = SEA_TOP - source.generator().sea_level();
    assert!(
        report.top > minecraft::MAX_Y && report.top > peak + shift,
        "{report:?}"
    );
    assert_eq!(
        compared,
        columns.len() * (report.top - minecraft::MIN_Y) as usize,
        "every block of every column read, up to the raised top"
    );
}

/// The same peak fitted under Minecraft's standard top (`--height fit`): amulet reads
/// every block of its columns where the fold puts them, within -64..319.
#[test]
#[ignore = "needs Python with amulet-core in TERRAVOX_AMULET_PYTHON (.ci/run sets it up)"]
fn amulet_reads_a_fitted_world_under_the_standard_top() {
    let python = python();
    let g = common::continents("-99");
    let (_, x, z) = common::highest_peak(&g);
    let source = Source::new(g, Edits::new());
    let area = Area::new([x - 4, z - 4], [x + 4, z + 4], minecraft::MAX_SIDE).unwrap();
    let columns = [(x, z), (x - 3, z + 2)];
    let options = Options {
        fold: Some(minecraft::fold::Fold::new(192).unwrap()),
        ..Options::default()
    };
    let (report, compared) =
        export_and_compare(&python, &source, area, ("amulet-fit", &options), &columns);
    assert!(
        report.top == minecraft::MAX_Y && report.folded_columns > 0,
        "{report:?}"
    );
    assert_eq!(
        compared,
        columns.len() * (minecraft::MAX_Y - minecraft::MIN_Y) as usize,
        "every block of every column read, up to the standard top"
    );
}

/// A lake 149 blocks above the sea (version 5, seed -7) and its shore read back
/// whole: amulet finds its water where terravox has it, block for block.
#[test]
#[ignore = "needs Python with amulet-core in TERRAVOX_AMULET_PYTHON (.ci/run sets it up)"]
fn amulet_reads_a_mountain_lake() {
    let python = python();
    let (g, lake, shore, _) = mountain_lake();
    let source = Source::new(g, Edits::new());
    let area = Area::new([-2740, 936], [-2688, 968], minecraft::MAX_SIDE).unwrap();
    let columns = [lake, shore, (-2715, 940)];
    let options = Options::default();
    let (report, compared) =
        export_and_compare(&python, &source, area, ("amulet-lake", &options), &columns);
    assert_eq!(
        compared,
        columns.len() * (report.top - minecraft::MIN_Y) as usize,
        "every block of every column read"
    );
}

/// A channel dug 10 blocks out of that lake's bank (seed -7) and the water let
/// settle in it: amulet reads its flowing water back with its levels, 1 to 7, block
/// for block as terravox has it.
#[test]
#[ignore = "needs Python with amulet-core in TERRAVOX_AMULET_PYTHON (.ci/run sets it up)"]
fn amulet_reads_the_levels_of_water_flowing_down_a_dug_channel() {
    let python = python();
    let (g, lake, shore, level) = mountain_lake();
    // The first dry column west of the lake's middle, at the lake's level: the bank.
    let bank = (shore.0..lake.0)
        .rev()
        .find(|&x| g.column_top(x, lake.1).water.is_none())
        .expect("a bank west of the lake");
    // A trench 10 blocks long out of the bank at the water's level, open above.
    let mut dig = Vec::new();
    for x in (bank - 9..=bank).rev() {
        let top = g.surface_height(x, lake.1).max(level);
        dig.extend((level..=top).rev().map(|y| BlockPos::new(x, y, lake.1)));
    }
    let mut world = common::Flowing::new(&g);
    let steps = world.dig_and_settle(&dig);
    let levels: Vec<Block> = (bank - 9..=bank)
        .map(|x| {
            world
                .edits
                .get(BlockPos::new(x, level, lake.1))
                .unwrap_or(Block::Air)
        })
        .collect();
    assert!(
        levels.contains(&Block::FlowingWater1)
            && levels
                .iter()
                .any(|b| b.fluid().is_some_and(|f| f.amount() < 5)),
        "the channel after {steps} steps: {levels:?}"
    );
    let edits = world.edits;
    let source = Source::new(g, edits);
    let area = Area::new([bank - 12, 940], [bank + 4, 964], minecraft::MAX_SIDE).unwrap();
    let columns: Vec<(i32, i32)> = (bank - 9..=bank).map(|x| (x, lake.1)).collect();
    let options = Options::default();
    let (report, compared) = export_and_compare(
        &python,
        &source,
        area,
        ("amulet-channel", &options),
        &columns,
    );
    assert_eq!(
        compared,
        columns.len() * (report.top - minecraft::MIN_Y) as usize,
        "every block of every column read"
    );
}

/// The Python with amulet-core the tests read with.
/// Every release terravox writes for is read back by amulet as that release, block
/// for block up to the raised top its data pack gives (where amulet knows the
/// release; it knows every one in the table).
#[test]
#[ignore = "needs Python with amulet-core in TERRAVOX_AMULET_PYTHON (.ci/run sets it up)"]
fn amulet_reads_the_world_of_every_release() {
    let python = python();
    let g = common::continents("-99");
    let (_, x, z) = common::highest_peak(&g);
    let source = Source::new(g, Edits::new());
    let area = Area::new([x - 2, z - 2], [x + 2, z + 2], minecraft::MAX_SIDE).unwrap();
    for release in release::RELEASES {
        let dir = common::scratch(&format!("amulet-{}", release.name));
        let out = dir.join("world");
        let options = Options {
            release,
            ..Options::default()
        };
        let report = minecraft::export(&source, area, &out, &options, &()).unwrap();
        let compared = compare(&python, &source, &area, &out, &[(x, z)], None);
        assert_eq!(
            compared,
            (report.top - minecraft::MIN_Y) as usize,
            "{}: every block up to the raised top",
            release.name
        );
        assert_eq!(
            amulet_version(&python, &out),
            release.data_version,
            "{}: amulet reads the release's data version",
            release.name
        );
        let _ = fs::remove_dir_all(&dir);
    }
}

/// The data version amulet finds the world at `out` written for.
fn amulet_version(python: &str, out: &std::path::Path) -> i32 {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/amulet_read.py");
    let run = Command::new(python).arg(script).arg(out).output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).unwrap();
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("version ")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("amulet printed {line:?}"))
}

fn python() -> String {
    std::env::var("TERRAVOX_AMULET_PYTHON")
        .expect("TERRAVOX_AMULET_PYTHON names a Python with amulet-core installed")
}

/// Seed -7's world, a column of its lake 149 blocks above the sea, a column of the
/// shore west of it, and the lake's level.
fn mountain_lake() -> (Generator, (i32, i32), (i32, i32), i32) {
    let g = common::continents("-7");
    let (lake, shore) = ((-2700, 952), (-2730, 952));
    let level = g
        .column_top(lake.0, lake.1)
        .water
        .expect("the lake covers it");
    assert!(
        level > g.sea_level() + 100,
        "a lake high above the sea: {level}"
    );
    (g, lake, shore, level)
}

/// Exports `area` of `source` as `options` say to a scratch folder `name`, reads
/// `columns` back with amulet and compares them (see [`compare`]); the export's
/// report and how many blocks were compared. The folder is removed afterwards.
fn export_and_compare(
    python: &str,
    source: &Source,
    area: Area,
    (name, options): (&str, &Options),
    columns: &[(i32, i32)],
) -> (minecraft::Report, usize) {
    let dir = common::scratch(name);
    let out = dir.join("world");
    let report = minecraft::export(source, area, &out, options, &()).unwrap();
    let compared = compare(python, source, &area, &out, columns, options.fold);
    let _ = fs::remove_dir_all(&dir);
    (report, compared)
}

/// Reads `columns` of the world at `out` with amulet and compares every block with
/// `source`'s (air outside `area`; above a `fold`, the highest block that is not air
/// of the heights it brings to the row); returns how many blocks were compared.
fn compare(
    python: &str,
    source: &Source,
    area: &Area,
    out: &std::path::Path,
    columns: &[(i32, i32)],
    fold: Option<minecraft::fold::Fold>,
) -> usize {
    let args: Vec<String> = columns.iter().map(|(x, z)| format!("{x},{z}")).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/amulet_read.py");
    let run = Command::new(python)
        .arg(script)
        .arg(out)
        .args(&args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        run.status.success(),
        "amulet failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let shift = SEA_TOP - source.generator().sea_level();
    let mut compared = 0;
    let mut blocks = common::Blocks::new(source);
    for line in String::from_utf8(run.stdout).unwrap().lines().skip(1) {
        let parts: Vec<&str> = line.split(' ').collect();
        let [x, y, z]: [i32; 3] = [0, 1, 2].map(|i| parts[i].parse().unwrap());
        let want = if area.contains(x, z) {
            // The top row takes every height above it: those of the land and its
            // trees count.
            let land = source.highest_possible() + shift + 64;
            let block = match fold {
                Some(f) if y > f.at() => (*f.sources(y).start()..=(*f.sources(y).end()).min(land))
                    .rev()
                    .map(|h| blocks.get([x, h - shift, z]))
                    .find(|b| !b.is_air())
                    .unwrap_or(Block::Air),
                _ => blocks.get([x, y - shift, z]),
            };
            let s = names::block_state(block);
            match s.properties {
                [] => s.name.to_string(),
                props => format!("{}|{}={}", s.name, props[0].0, props[0].1),
            }
        } else {
            "minecraft:air".to_string()
        };
        assert_eq!(parts[3], want, "block {x},{y},{z}");
        compared += 1;
    }
    compared
}
