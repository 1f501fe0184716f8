//! The Minecraft export read back by `fastanvil`'s own region and chunk parser (code
//! nobody here wrote), block by block against terravox's generator and edits.

use std::fs;
use std::io::Read;
use std::path::Path;

mod common;

use fastanvil::{Chunk as _, JavaChunk, Region};
use terravox_edits::Edits;
use terravox_export::minecraft::release::{self, Release, SpawnForm};
use terravox_export::minecraft::{self, MAX_Y, MIN_Y, Options, SEA_TOP, Shard, names};
use terravox_export::{Area, ExportError, Source};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

/// The default world with a plank tower and a dug hole near the origin.
fn world() -> (Source, [i32; 3]) {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let (x, z) = (5, -3);
    let top = g.surface_height(x, z);
    let mut edits = Edits::new();
    for y in top + 1..=top + 12 {
        edits.set(BlockPos::new(x, y, z), Block::Planks);
    }
    edits.set(BlockPos::new(x + 2, top, z), Block::Air);
    (Source::new(g, edits), [x, top + 12, z])
}

/// What fastanvil's parser says a block state is: `name|prop=value,...`.
fn encoded(b: Block) -> String {
    let s = names::block_state(b);
    let props: Vec<String> = s
        .properties
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!("{}|{}", s.name, props.join(","))
}

/// `minecraft:birch_forest` as fastanvil's enum names it, `BirchForest`.
fn camel(name: &str) -> String {
    name.trim_start_matches("minecraft:")
        .split('_')
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect()
}

fn read_chunk(dir: &Path, cx: i32, cz: i32) -> Option<JavaChunk> {
    let path = dir.join(format!("region/r.{}.{}.mca", cx >> 5, cz >> 5));
    let mut region = Region::from_stream(fs::File::open(path).ok()?).unwrap();
    let data = region
        .read_chunk(cx.rem_euclid(32) as usize, cz.rem_euclid(32) as usize)
        .unwrap()?;
    Some(JavaChunk::from_bytes(&data).unwrap())
}

#[test]
fn every_block_reads_back_as_generated() {
    let (source, tower_top) = world();
    // Across chunk and region borders (x = 0, z = 0 and x = -512 are region edges),
    // not aligned to chunks.
    let area = Area::new([-530, -20], [-490, 30], minecraft::MAX_SIDE).unwrap();
    let near = Area::new([-10, -10], [12, 10], minecraft::MAX_SIDE).unwrap();
    let d = common::scratch("mc-blocks");
    let mut blocks = common::Blocks::new(&source);
    // Minecraft's sea level, and one far lower (room for mountains).
    let mut shift = 0;
    for (n, (area, sea)) in [(area, SEA_TOP), (near, -20)].into_iter().enumerate() {
        shift = sea - source.generator().sea_level();
        let out = d.join(format!("world{n}"));
        let report = minecraft::export(
            &source,
            area,
            &out,
            &Options {
                sea_top: sea,
                ..Options::default()
            },
            &(),
        )
        .unwrap();
        assert_eq!(report.shift, shift);
        let mut checked = 0u64;
        for cz in area.from[1].div_euclid(16)..=(area.to[1] - 1).div_euclid(16) {
            for cx in area.from[0].div_euclid(16)..=(area.to[0] - 1).div_euclid(16) {
                let chunk = read_chunk(&out, cx, cz).expect("every chunk of the area is written");
                assert_eq!(chunk.status(), "minecraft:full");
                assert_eq!(chunk.y_range(), MIN_Y as isize..MAX_Y as isize);
                for lz in 0..16 {
                    for lx in 0..16 {
                        let (x, z) = (cx * 16 + lx as i32, cz * 16 + lz as i32);
                        for y in MIN_Y..MAX_Y {
                            let want = if area.contains(x, z) {
                                encoded(blocks.get([x, y - shift, z]))
                            } else {
                                "minecraft:air|".to_string()
                            };
                            let got = chunk.block(lx, y as isize, lz).unwrap();
                            assert_eq!(got.encoded_description(), want, "block {x},{y},{z}");
                            checked += 1;
                        }
                        if area.contains(x, z) {
                            let b = chunk.biome(lx, 70, lz).expect("a biome");
                            let cell = |v: i32| v.div_euclid(4) * 4 + 2;
                            let want = names::biome_name(source.biome_at(cell(x), cell(z)));
                            assert_eq!(format!("{b:?}"), camel(want), "biome {x},{z}");
                        }
                    }
                }
            }
        }
        let [w, d] = area.size();
        assert!(checked >= (w * d) as u64 * 384, "{checked} blocks compared");
        // Nothing outside the area's chunks.
        let past = area.to[0].div_euclid(16) + 1;
        assert!(read_chunk(&out, past, area.from[1].div_euclid(16)).is_none());
    }
    // The tower is there, planks up to its top (heights of the last export).
    let c = read_chunk(&d.join("world1"), tower_top[0] >> 4, tower_top[2] >> 4).unwrap();
    let (lx, lz) = (
        tower_top[0].rem_euclid(16) as usize,
        tower_top[2].rem_euclid(16) as usize,
    );
    let y = (tower_top[1] + shift) as isize;
    assert_eq!(c.block(lx, y, lz).unwrap().name(), "minecraft:oak_planks");
    assert_eq!(c.block(lx, y + 1, lz).unwrap().name(), "minecraft:air");
}

#[test]
fn level_dat_names_the_world_and_its_spawn() {
    let (source, _) = world();
    let spawn = source
        .generator()
        .spawn(&terravox_worldgen::sequential)
        .unwrap()
        .at;
    let area = Area::new(
        [spawn[0] - 8, spawn[2] - 8],
        [spawn[0] + 8, spawn[2] + 8],
        minecraft::MAX_SIDE,
    )
    .unwrap();
    // The spawn's two forms: fields up to 1.21.8, a compound from 1.21.9.
    for name in ["1.20.5", "1.21.8", "1.21.9", release::NEWEST.name] {
        let release = Release::named(name).unwrap();
        let out = common::scratch(&format!("mc-level-{name}")).join("world");
        let options = Options {
            release,
            ..Options::default()
        };
        let r = minecraft::export(&source, area, &out, &options, &()).unwrap();
        assert_eq!(r.spawn_from, minecraft::SpawnFrom::Terravox);
        let mut nbt = Vec::new();
        flate2::read::GzDecoder::new(fs::File::open(out.join("level.dat")).unwrap())
            .read_to_end(&mut nbt)
            .unwrap();
        let v: fastnbt::Value = fastnbt::from_bytes(&nbt).unwrap();
        let data = at(&v, &["Data"]);
        let int = |k: &[&str]| match at(data, k) {
            fastnbt::Value::Int(i) => *i,
            other => panic!("{k:?}: {other:?}"),
        };
        assert_eq!(int(&["DataVersion"]), release.data_version, "{name}");
        assert_eq!(int(&["Version", "Id"]), release.data_version, "{name}");
        assert_eq!(*at(data, &["Version", "Name"]), name);
        assert_eq!(int(&["GameType"]), 1, "creative");
        let want = [spawn[0], spawn[1] + r.shift, spawn[2]];
        let fastnbt::Value::Compound(fields) = data else {
            panic!("{data:?}")
        };
        match release.spawn_form {
            SpawnForm::Fields => {
                assert_eq!([int(&["SpawnX"]), int(&["SpawnY"]), int(&["SpawnZ"])], want);
                assert!(!fields.contains_key("spawn"), "{name}");
            }
            SpawnForm::Compound => {
                assert_eq!(*at(data, &["spawn", "dimension"]), "minecraft:overworld");
                let fastnbt::Value::IntArray(pos) = at(data, &["spawn", "pos"]) else {
                    panic!("{name}: spawn.pos is not an int array");
                };
                assert_eq!(pos.iter().copied().collect::<Vec<_>>(), want, "{name}");
                assert_eq!(*at(data, &["spawn", "yaw"]), fastnbt::Value::Float(0.0));
                assert!(!fields.contains_key("SpawnX"), "{name}");
            }
        }
        let (cx, cz) = (spawn[0] >> 4, spawn[2] >> 4);
        let path = out.join(format!("region/r.{}.{}.mca", cx >> 5, cz >> 5));
        let mut region = Region::from_stream(fs::File::open(path).unwrap()).unwrap();
        let chunk = region
            .read_chunk(cx.rem_euclid(32) as usize, cz.rem_euclid(32) as usize)
            .unwrap()
            .unwrap();
        let chunk: fastnbt::Value = fastnbt::from_bytes(&chunk).unwrap();
        assert_eq!(
            *at(&chunk, &["DataVersion"]),
            fastnbt::Value::Int(release.data_version),
            "{name}: chunks"
        );
        let name = match at(data, &["LevelName"]) {
            fastnbt::Value::String(s) => s.clone(),
            other => panic!("{other:?}"),
        };
        assert!(
            name.contains(source.generator().config().seed.text()),
            "{name}"
        );
        let overworld = at(
            data,
            &[
                "WorldGenSettings",
                "dimensions",
                "minecraft:overworld",
                "generator",
            ],
        );
        assert_eq!(*at(overworld, &["type"]), "minecraft:flat");
        assert_eq!(*at(overworld, &["settings", "biome"]), "minecraft:the_void");
    }
}

/// The value at `path` in nested compounds.
fn at<'a>(mut v: &'a fastnbt::Value, path: &[&str]) -> &'a fastnbt::Value {
    for key in path {
        v = match v {
            fastnbt::Value::Compound(map) => map.get(*key).unwrap_or_else(|| panic!("no {key}")),
            other => panic!("{key}: not a compound: {other:?}"),
        };
    }
    v
}

#[test]
fn an_existing_world_is_kept_unless_forced() {
    let (source, _) = world();
    let area = Area::new([0, 0], [16, 16], minecraft::MAX_SIDE).unwrap();
    let d = common::scratch("mc-force");
    let out = d.join("world");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("level.dat"), b"an older export").unwrap();
    let e = minecraft::export(&source, area, &out, &Options::default(), &()).unwrap_err();
    assert!(matches!(e, ExportError::Exists(_)), "{e}");
    assert_eq!(fs::read(out.join("level.dat")).unwrap(), b"an older export");
    minecraft::export(
        &source,
        area,
        &out,
        &Options {
            force: true,
            ..Options::default()
        },
        &(),
    )
    .unwrap();
    assert!(read_chunk(&out, 0, 0).is_some());
    let names: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["world"], "no temporary folder left beside it");
}

/// Mountains taller than Minecraft's default world are not cut: the export raises the
/// world's top with a data pack, and every block of the peak reads back.
#[test]
fn a_peak_above_minecrafts_default_top_is_kept_whole() {
    let g = common::continents("-99");
    let (peak, x, z) = common::highest_peak(&g);
    let shift = SEA_TOP - g.sea_level();
    assert!(
        peak + shift >= MAX_Y,
        "the highest peak found, {peak} at {x},{z}, fits Minecraft's default height"
    );
    let source = Source::new(g, Edits::new());
    let area = Area::new([x - 8, z - 8], [x + 8, z + 8], minecraft::MAX_SIDE).unwrap();
    let out = common::scratch("mc-tall").join("world");
    let report = minecraft::export(&source, area, &out, &Options::default(), &()).unwrap();
    assert_eq!(report.cut_columns, 0);
    assert!(
        report.top > peak + shift,
        "{report:?} for a peak at {}",
        peak + shift
    );
    assert_eq!((report.top - MIN_Y) % 16, 0);

    // Every block of the peak's column, up to the world's top, reads back.
    let mut blocks = common::Blocks::new(&source);
    let chunk = read_chunk(&out, x >> 4, z >> 4).unwrap();
    let (lx, lz) = (x.rem_euclid(16) as usize, z.rem_euclid(16) as usize);
    for y in MIN_Y..report.top {
        let got = chunk
            .block(lx, y as isize, lz)
            .map(|b| b.encoded_description().to_string());
        let want = encoded(blocks.get([x, y - shift, z]));
        assert_eq!(got.as_deref(), Some(want.as_str()), "block {x},{y},{z}");
    }
    assert!(
        !chunk
            .block(lx, (peak + shift) as isize, lz)
            .unwrap()
            .name()
            .ends_with(":air")
    );

    // The data pack gives the overworld that height, and level.dat enables it.
    let pack = out.join("datapacks").join(minecraft::datapack::NAME);
    let dim: serde_json::Value = serde_json::from_slice(
        &fs::read(pack.join("data/minecraft/dimension_type/overworld.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(dim["min_y"], MIN_Y);
    assert_eq!(dim["height"], report.top - MIN_Y);
    assert_eq!(dim["logical_height"], report.top - MIN_Y);
    assert_eq!(
        dim,
        minecraft::datapack::overworld(report.top, &release::NEWEST)
    );
    assert_eq!(
        dim["cloud_height"], 192,
        "the newest release draws clouds from it"
    );
    let meta: serde_json::Value =
        serde_json::from_slice(&fs::read(pack.join("pack.mcmeta")).unwrap()).unwrap();
    let format = release::NEWEST.pack_format;
    assert_eq!(
        [&meta["pack"]["min_format"], &meta["pack"]["max_format"]],
        [format, format]
    );
    let mut nbt = Vec::new();
    flate2::read::GzDecoder::new(fs::File::open(out.join("level.dat")).unwrap())
        .read_to_end(&mut nbt)
        .unwrap();
    let v: fastnbt::Value = fastnbt::from_bytes(&nbt).unwrap();
    let enabled = at(&v, &["Data", "DataPacks", "Enabled"]);
    let fastnbt::Value::List(enabled) = enabled else {
        panic!("{enabled:?}");
    };
    assert!(enabled.contains(&fastnbt::Value::String(minecraft::datapack::ID.into())));
}

/// A world within Minecraft's default height gets no data pack.
#[test]
fn a_world_of_the_default_height_needs_no_data_pack() {
    let (source, _) = world();
    let area = Area::new([0, 0], [16, 16], minecraft::MAX_SIDE).unwrap();
    let out = common::scratch("mc-default-height").join("world");
    let report = minecraft::export(&source, area, &out, &Options::default(), &()).unwrap();
    assert_eq!(report.top, MAX_Y);
    assert!(!out.join("datapacks").exists());
}

/// A waterfall of seed `-7`'s rivers: a column with water above the sea and one beside
/// it whose water lies at least `drop` blocks lower; `(x, z, upper level)`.
fn waterfall(g: &Generator, drop: i32) -> (i32, i32, i32) {
    (-2048..2048)
        .step_by(8)
        .flat_map(|z| (-2048..2048).step_by(8).map(move |x| (x, z)))
        .find_map(|(x, z)| {
            let level = g.column_top(x, z).water?;
            // Look across the fall's lip: a few blocks each way.
            (1..=4).find_map(|d| {
                [(d, 0), (-d, 0), (0, d), (0, -d)]
                    .into_iter()
                    .find(|&(dx, dz)| {
                        g.column_top(x + dx, z + dz)
                            .water
                            .is_some_and(|l| l <= level - drop)
                    })
                    .map(|_| (x, z, level))
            })
        })
        .expect("a waterfall within 4 km")
}

/// Minecraft's water beside air spreads when anything disturbs it, and a terravox
/// waterfall is water standing beside the air over its foot: the export writes what
/// Minecraft would settle to, falling water down each fall, so no source block above
/// the sea stands beside air, and every other block is the generator's.
#[test]
fn waterfalls_are_written_as_falling_water_and_no_source_spreads() {
    let g = common::continents("-7");
    let (x, z, level) = waterfall(&g, 4);
    let source = Source::new(g, Edits::new());
    let area = Area::new([x - 24, z - 24], [x + 24, z + 24], minecraft::MAX_SIDE).unwrap();
    let out = common::scratch("mc-falls").join("world");
    minecraft::export(&source, area, &out, &Options::default(), &()).unwrap();
    let shift = SEA_TOP - source.generator().sea_level();
    let sea = source.generator().sea_level();
    let mut blocks = common::Blocks::new(&source);
    let mut chunks = std::collections::HashMap::new();
    let mut get = |x: i32, y: i32, z: i32| -> String {
        let c = chunks
            .entry((x >> 4, z >> 4))
            .or_insert_with(|| read_chunk(&out, x >> 4, z >> 4).expect("a chunk"));
        let b = c.block(
            x.rem_euclid(16) as usize,
            (y + shift) as isize,
            z.rem_euclid(16) as usize,
        );
        b.map_or("minecraft:air|".into(), |b| {
            b.encoded_description().to_string()
        })
    };
    let (mut falling, mut sources) = (0, 0);
    // The area's inside (its border columns stand beside the unwritten world).
    for bz in area.from[1] + 1..area.to[1] - 1 {
        for bx in area.from[0] + 1..area.to[0] - 1 {
            for y in sea + 1..=level + 1 {
                let got = get(bx, y, bz);
                let want = encoded(blocks.get([bx, y, bz]));
                if got == "minecraft:water|" {
                    sources += 1;
                    for (dx, dz) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let beside = get(bx + dx, y, bz + dz);
                        assert!(
                            !beside.starts_with("minecraft:air"),
                            "the source at {bx},{y},{bz} stands beside air at {},{y},{}",
                            bx + dx,
                            bz + dz
                        );
                    }
                } else if got.starts_with("minecraft:water|level=") {
                    // Flowing water only where terravox has air, falling under water.
                    assert_eq!(want, "minecraft:air|", "{got} at {bx},{y},{bz}");
                    if got == "minecraft:water|level=8" {
                        falling += 1;
                        let above = get(bx, y + 1, bz);
                        assert!(
                            above.starts_with("minecraft:water"),
                            "{above} over {bx},{y},{bz}"
                        );
                    }
                } else {
                    assert_eq!(got, want, "block {bx},{y},{bz}");
                }
            }
        }
    }
    assert!(sources > 100, "only {sources} source blocks above the sea");
    assert!(
        falling >= 3,
        "only {falling} falling water blocks at a fall of 4+"
    );
}

/// Exports four region files' worth of columns (2 x 2, the first region's corner cut
/// off) of `source` to `out`, shard `shard`.
fn four(source: &Source, out: &Path, shard: Shard) -> Result<minecraft::Report, ExportError> {
    let area = Area::new([-500, -512], [512, 512], minecraft::MAX_SIDE).unwrap();
    minecraft::export(
        source,
        area,
        out,
        &Options {
            shard,
            ..Options::default()
        },
        &(),
    )
}

/// Shards run apart into one folder make the world one run makes, byte for byte;
/// until the last region is written there is no world, only the work folder.
#[test]
fn shards_make_the_world_one_run_makes() {
    let (source, _) = world();
    let d = common::scratch("mc-shards");
    let (whole, sharded) = (d.join("whole"), d.join("sharded"));
    let one = four(&source, &whole, Shard::ALL).unwrap();
    assert!(
        one.finished && one.regions == 4 && one.regions_left == 0,
        "{one:?}"
    );
    let third = Shard::new(3, 3).unwrap();
    let r = four(&source, &sharded, third).unwrap();
    assert!(
        !r.finished && (r.regions, r.regions_left) == (1, 3),
        "{r:?}"
    );
    assert!(!sharded.exists(), "no world before every region is written");
    for k in [1, 2] {
        let shard = Shard::new(k, 3).unwrap();
        let r = four(&source, &sharded, shard).unwrap();
        assert_eq!(r.finished, k == 2, "{r:?}");
        // The last shard reports the whole world.
        if r.finished {
            assert_eq!((r.chunks, r.bytes, r.top), (one.chunks, one.bytes, one.top));
        }
    }
    assert_eq!(common::files::files(&sharded), common::files::files(&whole));
    let names: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no work folder left: {names:?}");
    assert!(Shard::new(0, 3).is_err() && Shard::new(4, 3).is_err());
}

/// A run stopped part way resumes: the regions found whole are kept, one cut short
/// or unmarked is written again, and the world is the one an uninterrupted run
/// makes. Another export's work in the folder is refused and kept.
#[test]
fn a_stopped_export_resumes_to_the_same_world() {
    let (source, _) = world();
    let d = common::scratch("mc-resume");
    let (whole, resumed) = (d.join("whole"), d.join("resumed"));
    four(&source, &whole, Shard::ALL).unwrap();
    // Two of four shards' regions written: as far as a stopped run got.
    for k in [1, 2] {
        let shard = Shard::new(k, 4).unwrap();
        four(&source, &resumed, shard).unwrap();
    }
    // ... but the work was 4 shards, and this run is one: refused, nothing touched.
    let work = d.join(".resumed.partial");
    let before = common::files::files(&work);
    let e = four(&source, &resumed, Shard::ALL).unwrap_err();
    assert!(e.to_string().contains("another export"), "{e}");
    assert_eq!(common::files::files(&work), before);
    // The same export resumes; a region file cut short is written again.
    let region = work.join("region/r.0.-1.mca");
    let bytes = fs::read(&region).unwrap();
    fs::write(&region, &bytes[..bytes.len() / 2]).unwrap();
    let mut r = None;
    for k in [3, 4, 2] {
        let shard = Shard::new(k, 4).unwrap();
        r = Some(four(&source, &resumed, shard).unwrap());
    }
    let r = r.unwrap();
    assert!(r.finished && r.resumed == 0, "{r:?}");
    assert_eq!(common::files::files(&resumed), common::files::files(&whole));
}

/// The highest block of column `(x, z)` that is not air in the world at `dir`, below
/// Minecraft height `top`.
fn highest_block(dir: &Path, x: i32, z: i32, top: i32) -> i32 {
    let chunk = read_chunk(dir, x >> 4, z >> 4).unwrap();
    let (lx, lz) = (x.rem_euclid(16) as usize, z.rem_euclid(16) as usize);
    (MIN_Y..top)
        .rev()
        .find(|&y| {
            chunk
                .block(lx, y as isize, lz)
                .is_some_and(|b| !b.name().ends_with(":air"))
        })
        .unwrap()
}

/// The tallest range of seed -99 fitted under Minecraft's standard top (`--height
/// fit`, for Paper): every column within -64..319, its highest block where the fold
/// puts the raised world's, no step between columns larger than the land had, no
/// data pack, and below the fold every block as in the raised world.
#[test]
fn a_range_fitted_under_the_standard_top_keeps_its_shape() {
    let g = common::continents("-99");
    let (_, x, z) = common::highest_peak(&g);
    let source = Source::new(g, Edits::new());
    let area = Area::new([x - 16, z - 16], [x + 16, z + 16], minecraft::MAX_SIDE).unwrap();
    let d = common::scratch("mc-fit");
    let (raised, fitted) = (d.join("raised"), d.join("fitted"));
    let high = minecraft::export(&source, area, &raised, &Options::default(), &()).unwrap();
    assert!(high.top > MAX_Y, "{high:?}");
    let fold = minecraft::fold::Fold::new(192).unwrap();
    let options = Options {
        fold: Some(fold),
        ..Options::default()
    };
    let fit = minecraft::export(&source, area, &fitted, &options, &()).unwrap();
    assert_eq!(fit.top, MAX_Y);
    assert!(!fitted.join("datapacks").exists());
    assert!(
        fit.folded_columns > 0 && fit.land_top == high.land_top,
        "{fit:?}"
    );
    // The spawn stands on the folded ground.
    assert_eq!(fit.spawn[1], fold.down(high.spawn[1] - 1) + 1);
    let columns: Vec<[i32; 2]> = (area.from[1]..area.to[1])
        .flat_map(|z| (area.from[0]..area.to[0]).map(move |x| [x, z]))
        .collect();
    let tops: std::collections::HashMap<[i32; 2], (i32, i32)> = columns
        .iter()
        .map(|&[x, z]| {
            let (h, f) = (
                highest_block(&raised, x, z, high.top),
                highest_block(&fitted, x, z, MAX_Y),
            );
            assert!(f < MAX_Y && f == fold.down(h), "{x},{z}: {h} folded to {f}");
            ([x, z], (h, f))
        })
        .collect();
    for (&[x, z], &(h, f)) in &tops {
        for n in [[x + 1, z], [x, z + 1]] {
            if let Some(&(hn, fn_)) = tops.get(&n) {
                assert!(
                    (f - fn_).abs() <= (h - hn).abs(),
                    "{x},{z}: {h}/{hn} -> {f}/{fn_}"
                );
            }
        }
    }
    // Below the fold, the two worlds are block for block the same.
    for &[x, z] in columns.iter().step_by(7) {
        let (r, f) = (
            read_chunk(&raised, x >> 4, z >> 4).unwrap(),
            read_chunk(&fitted, x >> 4, z >> 4).unwrap(),
        );
        let (lx, lz) = (x.rem_euclid(16) as usize, z.rem_euclid(16) as usize);
        let block = |c: &JavaChunk, y: i32| {
            c.block(lx, y as isize, lz)
                .map(|b| b.encoded_description().to_string())
        };
        for y in MIN_Y..=fold.at() {
            assert_eq!(block(&r, y), block(&f, y), "{x},{y},{z}");
        }
    }
}

/// The spawn: a column asked for (inside the area, else refused before anything is
/// written), or, where the area does not hold terravox's spawn, open land inside it
/// found by terravox's spawn rule.
#[test]
fn the_spawn_is_the_column_asked_for_or_open_land_inside_the_area() {
    let g = common::continents("-99");
    let (_, x, z) = common::highest_peak(&g);
    let source = Source::new(g, Edits::new());
    let sea = source.generator().sea_level();
    let area = Area::new([x - 256, z - 256], [x + 256, z + 256], minecraft::MAX_SIDE).unwrap();
    let d = common::scratch("mc-spawn");
    let shift = SEA_TOP - sea;
    let chosen = Options {
        spawn: Some([x + 3, z - 5]),
        ..Options::default()
    };
    let small = Area::new([x - 8, z - 8], [x + 8, z + 8], minecraft::MAX_SIDE).unwrap();
    let r = minecraft::export(&source, small, &d.join("chosen"), &chosen, &()).unwrap();
    let ground = source.surface_height(x + 3, z - 5).max(sea);
    assert_eq!(r.spawn_from, minecraft::SpawnFrom::Chosen);
    assert_eq!(r.spawn, [x + 3, ground + 1 + shift, z - 5]);
    let outside = Options {
        spawn: Some([x + 100, z]),
        ..Options::default()
    };
    let e = minecraft::export(&source, small, &d.join("refused"), &outside, &()).unwrap_err();
    assert!(e.to_string().contains("outside the area"), "{e}");
    assert_eq!(
        fs::read_dir(&d).unwrap().count(),
        1,
        "nothing written for it"
    );
    // terravox's spawn lies far from this range: open land in the area instead.
    let r = minecraft::export(&source, area, &d.join("open"), &Options::default(), &()).unwrap();
    assert_eq!(r.spawn_from, minecraft::SpawnFrom::OpenLand, "{r:?}");
    let [sx, sy, sz] = r.spawn;
    assert!(area.contains(sx, sz), "{r:?}");
    assert_eq!(sy - shift, source.surface_height(sx, sz).max(sea) + 1);
}

/// What an export reported of its progress.
#[derive(Default)]
struct Recorded {
    total: std::sync::atomic::AtomicU64,
    done: std::sync::atomic::AtomicU64,
    stages: std::sync::Mutex<Vec<String>>,
}

impl terravox_export::Progress for Recorded {
    fn start(&self, total: u64, _: &'static str) {
        self.total
            .store(total, std::sync::atomic::Ordering::Relaxed);
    }
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }
    fn stage(&self, what: &str) {
        self.stages.lock().unwrap().push(what.to_string());
    }
}

/// The progress names each region file as it comes, and its steps, resumed ones
/// included, add up to the total it announced.
#[test]
fn progress_counts_region_files_and_every_chunk() {
    let (source, _) = world();
    let area = Area::new([-500, -512], [512, 512], minecraft::MAX_SIDE).unwrap();
    let out = common::scratch("mc-progress").join("world");
    let half = Options {
        shard: Shard::new(1, 2).unwrap(),
        ..Options::default()
    };
    minecraft::export(&source, area, &out, &half, &()).unwrap();
    // Run again, the same shard: both its region files are found done.
    let seen = Recorded::default();
    let r = minecraft::export(&source, area, &out, &half, &seen).unwrap();
    assert_eq!((r.resumed, r.regions_left), (2, 2));
    let stages = seen.stages.lock().unwrap().clone();
    assert_eq!(stages, ["region file 1 of 2", "region file 2 of 2"]);
    let (total, done) = (seen.total.into_inner(), seen.done.into_inner());
    assert!(total > 0 && done == total, "{done} of {total}");
}
