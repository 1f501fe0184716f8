//! Invalid configs are rejected with their field named; valid random configs never
//! panic and never produce NaN.

use crate::common;

use common::{PICKS, any_preset, extreme_config, pick};
use proptest::prelude::*;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{
    ConfigError, Generator, GeneratorConfig, HEIGHT_LIMIT, IslandLayout, NoiseKind, ShapeConfig,
    WORLD_FLOOR, WorldConfig, map, params, presets, sequential,
};

fn density() -> WorldConfig {
    presets::builtin("cliffs").unwrap()
}
fn islands() -> WorldConfig {
    presets::builtin("archipelago").unwrap()
}

type Edit = fn(&mut WorldConfig);

fn d(cfg: &mut WorldConfig) -> &mut terravox_worldgen::DensityConfig {
    match &mut cfg.generator {
        GeneratorConfig::Density(d) => d,
        _ => unreachable!(),
    }
}
fn i(cfg: &mut WorldConfig) -> &mut terravox_worldgen::IslandConfig {
    match &mut cfg.generator {
        GeneratorConfig::Islands(i) => i,
        _ => unreachable!(),
    }
}

#[test]
fn every_invalid_field_is_named() {
    let density_cases: [(Edit, &str); 14] = [
        (
            |c| d(c).noise.frequency = f64::NAN,
            "generator.noise.frequency",
        ),
        (|c| d(c).noise.frequency = 0.0, "generator.noise.frequency"),
        (|c| d(c).noise.octaves = 0, "generator.noise.octaves"),
        (|c| d(c).noise.octaves = 17, "generator.noise.octaves"),
        (
            |c| d(c).noise.persistence = -0.5,
            "generator.noise.persistence",
        ),
        (
            |c| d(c).noise.lacunarity = f64::INFINITY,
            "generator.noise.lacunarity",
        ),
        (|c| d(c).scale = 0.0, "generator.scale"),
        (|c| d(c).scale = -3.0, "generator.scale"),
        (|c| d(c).offset = f64::NEG_INFINITY, "generator.offset"),
        (|c| d(c).cliff_scale = -1.0, "generator.cliff_scale"),
        (|c| d(c).threshold = f64::NAN, "generator.threshold"),
        (|c| c.version = 99, "version"),
        (|c| c.sea_level = i32::MAX, "sea_level"),
        (|c| d(c).snow_line = i32::MIN, "generator.snow_line"),
    ];
    let island_cases: [(Edit, &str); 14] = [
        (|c| i(c).noise_scale = 0.0, "generator.noise_scale"),
        (|c| i(c).octaves = 40, "generator.octaves"),
        (|c| i(c).persistence = f64::NAN, "generator.persistence"),
        (|c| i(c).lacunarity = 0.5, "generator.lacunarity"),
        (|c| i(c).island_size = -10.0, "generator.island_size"),
        (|c| i(c).radius = 0.0, "generator.radius"),
        (|c| i(c).steepness = 0.5, "generator.steepness"),
        (|c| i(c).steepness = 6.0, "generator.steepness"),
        (|c| i(c).attenuation = 0.0, "generator.attenuation"),
        (|c| i(c).attenuation = 1.5, "generator.attenuation"),
        (
            |c| i(c).centre_offset[1] = f64::NAN,
            "generator.centre_offset[1]",
        ),
        (|c| i(c).height_scale = 0.0, "generator.height_scale"),
        (|c| i(c).bands.grass = 0.2, "generator.bands.grass"),
        (
            |c| {
                i(c).layout = IslandLayout::Archipelago {
                    cell_size: 10.0,
                    jitter: 0.5,
                }
            },
            "generator.layout.cell_size",
        ),
    ];
    let cases = density_cases
        .iter()
        .map(|c| (density(), c))
        .chain(island_cases.iter().map(|c| (islands(), c)));
    for (mut cfg, (edit, field)) in cases {
        edit(&mut cfg);
        let err = Generator::new(&cfg).expect_err(field);
        assert_eq!(err.field(), Some(*field), "{err}");
        let msg = err.to_string();
        assert!(msg.contains(field) && msg.contains("expected"), "{msg}");
    }
}

#[test]
fn broken_ron_reports_line_and_column() {
    let text = "(\n    version: 1,\n    seed: \"x\",\n    sea_level: oops,\n)";
    match WorldConfig::from_ron(text) {
        Err(ConfigError::Parse { line, column, .. }) => {
            assert_eq!(line, 4);
            assert!(column > 1);
        }
        other => panic!("{other:?}"),
    }
    let e = WorldConfig::from_ron("(version: 1,")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("line 1, column"), "{e}");
    // A well-formed file with an out-of-range value names the field.
    let bad = presets::BUILTIN[0].1.replace("octaves: 3", "octaves: 99");
    assert_eq!(
        WorldConfig::from_ron(&bad).unwrap_err().field(),
        Some("generator.noise.octaves")
    );
}

fn kind() -> impl Strategy<Value = NoiseKind> {
    prop_oneof![
        Just(NoiseKind::Perlin),
        Just(NoiseKind::OpenSimplex),
        Just(NoiseKind::SuperSimplex)
    ]
}

prop_compose! {
    fn density_config()(
        k in kind(), seed in any::<u64>(), frequency in 0.0001f64..=1.0, octaves in 1u32..=16,
        persistence in 0.01f64..=1.0, lacunarity in 1.0f64..=8.0, scale in 0.01f64..=1024.0,
        offset in -4096.0f64..=4096.0, cliff in 0.0f64..=16.0, threshold in -1024.0f64..=1024.0,
        sea in -300i32..300, snow in -300i32..300,
    ) -> WorldConfig {
        let mut c = density();
        c.seed = seed.to_string().as_str().into();
        c.sea_level = sea;
        let g = d(&mut c);
        g.noise.kind = k;
        g.noise.frequency = frequency;
        g.noise.octaves = octaves;
        g.noise.persistence = persistence;
        g.noise.lacunarity = lacunarity;
        g.scale = scale;
        g.offset = offset;
        g.cliff_scale = cliff;
        g.threshold = threshold;
        g.snow_line = snow;
        c
    }
}

prop_compose! {
    fn island_config()(
        k in kind(), seed in any::<u64>(), noise_scale in 1.0f64..=5000.0, octaves in 1u32..=16,
        persistence in 0.01f64..=1.0, lacunarity in 1.0f64..=8.0, size in 1.0f64..=5000.0,
        radius in 0.01f64..=4.0, a in 1.0f64..=5.0, b in 0.001f64..=1.0,
        ox in -1000.0f64..1000.0, oz in -1000.0f64..1000.0, hs in 1.0f64..=512.0,
        archipelago in any::<bool>(), jitter in 0.0f64..=1.0, extra in 0.0f64..1000.0,
    ) -> WorldConfig {
        let mut c = islands();
        c.seed = seed.to_string().as_str().into();
        let g = i(&mut c);
        g.kind = k;
        g.noise_scale = noise_scale;
        g.octaves = octaves;
        g.persistence = persistence;
        g.lacunarity = lacunarity;
        g.island_size = size;
        g.radius = radius;
        g.steepness = a;
        g.attenuation = b;
        g.centre_offset = [ox, oz];
        g.height_scale = hs;
        g.layout = if archipelago {
            IslandLayout::Archipelago { cell_size: 2.0 * size * radius + extra, jitter }
        } else {
            IslandLayout::Single
        };
        c
    }
}

/// Generates around a few columns of a valid `cfg` and checks what a NaN anywhere in
/// the fields would break: the column top lies inside the world's heights, the
/// generated chunk has ground there (a NaN density is never solid: its chunks would be
/// all air), nothing solid floats far above it, and the map shows the same surface.
fn exercise(cfg: &WorldConfig) {
    let g = Generator::new(cfg).expect("valid config");
    for (x, z) in [(0, 0), (-77, 13), (1000, -2000)] {
        let top = g.column_top(x, z);
        assert!(
            (WORLD_FLOOR..HEIGHT_LIMIT).contains(&top.y),
            "column ({x}, {z}) tops at {}",
            top.y
        );
        let at = |y: i32| {
            let (c, l) = BlockPos::new(x, y, z).to_chunk();
            g.generate(c).get(l[0], l[1], l[2])
        };
        let ground = at(top.y);
        assert!(
            ground != Block::Air && ground != Block::Water,
            "column ({x}, {z}): {ground:?} at its top {}",
            top.y
        );
        // Trees grow at most a few dozen blocks; nothing solid far above the top.
        assert!(
            !at(top.y + 64).is_solid(),
            "column ({x}, {z}): ground above its top"
        );
    }
    let view = map::MapView {
        center: [0, 0],
        size: [8, 8],
        blocks_per_pixel: 16,
    };
    let img = map::render(&g, &view, &sequential);
    assert_eq!(img.rgb.len(), 8 * 8 * 3);
    let ([x, z], [nx, nz]) = (view.column_at(4, 4), view.column_at(3, 3));
    let (top, nw) = (g.column_top(x, z), g.column_top(nx, nz));
    let slope = (top.y - nw.y) as f64 / view.blocks_per_pixel as f64;
    let pixel = &img.rgb[(4 * 8 + 4) * 3..][..3];
    assert_eq!(
        pixel,
        map::column_color(top, g.sea_level(), slope),
        "the map's pixel at ({x}, {z})"
    );
}

proptest! {
    // Most random density configs have more relief than validation allows: many rejects.
    #![proptest_config(ProptestConfig { cases: 48, max_global_rejects: 4096, ..ProptestConfig::default() })]

    #[test]
    fn valid_density_configs_never_panic(cfg in density_config()) {
        // Random ranges can sink the surface below the floor: only playable worlds are valid.
        prop_assume!(cfg.validate().is_ok());
        exercise(&cfg);
    }

    #[test]
    fn valid_island_configs_never_panic(cfg in island_config()) {
        // Random ranges can sink the surface below the floor: only playable worlds are valid.
        prop_assume!(cfg.validate().is_ok());
        exercise(&cfg);
    }

    #[test]
    fn valid_configs_with_parameters_at_their_ends_never_panic(
        preset in any_preset(),
        seed in any::<u64>(),
        picks in prop::collection::vec(pick(), PICKS),
        fewer_octaves in any::<bool>(),
    ) {
        // Every numeric parameter of every section (relief, erosion, water and caves
        // among them) at either end of its range a third of the time each.
        let cfg = extreme_config(preset, seed, &picks, fewer_octaves);
        prop_assume!(cfg.validate().is_ok());
        exercise(&cfg);
    }

    #[test]
    fn non_finite_numbers_are_always_rejected(which in 0usize..6, bad in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY)]) {
        let mut c = density();
        let g = d(&mut c);
        *[&mut g.noise.frequency, &mut g.noise.persistence, &mut g.noise.lacunarity, &mut g.scale, &mut g.offset, &mut g.cliff_scale][which] = bad;
        prop_assert!(Generator::new(&c).is_err());
    }
}

#[test]
fn the_parameter_reference_matches_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/parameters.md");
    let want = terravox_worldgen::reference::markdown_table();
    if std::env::var_os("TERRAVOX_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        have, want,
        "docs/parameters.md is stale: run TERRAVOX_BLESS=1 cargo test -p terravox-worldgen --test worldgen validation::"
    );
}

#[test]
fn accessors_read_and_write_their_own_field() {
    let mut cfg = presets::builtin("cliffs").unwrap();
    let GeneratorConfig::Density(d) = &mut cfg.generator else {
        panic!("cliffs is a density world");
    };
    for (i, p) in params::DENSITY.iter().enumerate() {
        let mut copy = d.clone();
        let v = (p.get)(&copy) + 1.0;
        (p.set)(&mut copy, v);
        assert_eq!((p.get)(&copy), v, "{}", p.field);
        // No other parameter moved.
        let others = params::DENSITY.iter().enumerate().filter(|&(j, _)| j != i);
        for (_, q) in others {
            assert_eq!((q.get)(&copy), (q.get)(d), "{} moved {}", p.field, q.field);
        }
    }
}

#[test]
fn version_2_fields_are_validated_with_their_field_named() {
    // Version 4's continents: version 2's rivers on (version 5 turns them off).
    let base = WorldConfig::from_ron(include_str!("v4/continents.ron")).unwrap();
    let check = |edit: &dyn Fn(&mut WorldConfig), field: &str| {
        let mut cfg = base.clone();
        edit(&mut cfg);
        let e = cfg.validate().unwrap_err();
        assert_eq!(e.field(), Some(field), "{e}");
        // A broken config never makes a generator.
        assert!(terravox_worldgen::Generator::new(&cfg).is_err());
    };
    fn shape(c: &mut WorldConfig) -> &mut terravox_worldgen::ShapeConfig {
        let terravox_worldgen::GeneratorConfig::Density(d) = &mut c.generator else {
            panic!("continents is a density world")
        };
        d.shape.as_mut().expect("continents has a shape")
    }
    check(
        &|c| shape(c).continent_scale = 10.0,
        "generator.shape.continent_scale",
    );
    check(
        &|c| shape(c).rivers.width = 0.5,
        "generator.shape.rivers.width",
    );
    check(
        &|c| shape(c).rivers.depth = f64::NAN,
        "generator.shape.rivers.depth",
    );
    check(
        &|c| shape(c).height.0[1][0] = -2.0,
        "generator.shape.height[1].0",
    );
    check(
        &|c| shape(c).peaks.0[0][1] = 99.0,
        "generator.shape.peaks[0].1",
    );
    check(&|c| shape(c).crags.0.truncate(1), "generator.shape.crags");
    check(
        &|c| c.nature.as_mut().unwrap().tree_spacing = 100,
        "nature.tree_spacing",
    );
    check(
        &|c| c.nature.as_mut().unwrap().humidity_scale = -1.0,
        "nature.humidity_scale",
    );
    // A spline's points must ascend.
    check(
        &|c| shape(c).mountains.0.swap(0, 1),
        "generator.shape.mountains[1].0",
    );
    // Version-1 world codes cannot carry version-2 parts, and unknown versions are
    // refused rather than generated differently.
    check(&|c| c.version = 1, "nature");
    check(
        &|c| c.version = terravox_worldgen::GENERATOR_VERSION + 1,
        "version",
    );
    // Caves (version 3) are validated too, and refused in older worlds.
    fn caves(c: &mut WorldConfig) -> &mut terravox_worldgen::CaveConfig {
        let terravox_worldgen::GeneratorConfig::Density(d) = &mut c.generator else {
            panic!("continents is a density world")
        };
        d.caves.as_mut().expect("continents has caves")
    }
    check(
        &|c| caves(c).cavern_size = 1.5,
        "generator.caves.cavern_size",
    );
    check(
        &|c| caves(c).tunnel_scale = f64::INFINITY,
        "generator.caves.tunnel_scale",
    );
    check(&|c| c.sea_level = -900, "generator.caves.depth");
    check(
        &|c| {
            c.version = 2;
            shape(c).relief = None;
        },
        "generator.caves",
    );
    let mut old = presets::builtin("cliffs").unwrap();
    old.version = 1;
    old.nature = None;
    if let terravox_worldgen::GeneratorConfig::Density(d) = &mut old.generator {
        d.caves = None;
    }
    assert!(old.validate().is_ok(), "a version-1 cliffs world is fine");
    // Splines round-trip through RON as lists of pairs.
    let text = base.to_ron_pretty();
    assert!(text.contains("(-1.0, -70.0),"), "{text}");
    assert_eq!(WorldConfig::from_ron(&text).unwrap(), base);
}

/// `base` (a density world with a shape) made version `version` and its shape
/// edited by `edit` is refused, naming `field`, and makes no generator.
fn refused_in_shape(
    base: &WorldConfig,
    version: u32,
    edit: &dyn Fn(&mut ShapeConfig),
    field: &str,
) {
    let mut cfg = base.clone();
    cfg.version = version;
    let GeneratorConfig::Density(d) = &mut cfg.generator else {
        panic!("a density world")
    };
    edit(d.shape.as_mut().expect("a world with a shape"));
    let e = cfg.validate().unwrap_err();
    assert_eq!(e.field(), Some(field), "{e}");
    assert!(Generator::new(&cfg).is_err());
}

#[test]
fn version_4_relief_is_validated_with_its_field_named() {
    let base = WorldConfig::from_ron(include_str!("v4/continents.ron")).unwrap();
    let check = |edit: &dyn Fn(&mut terravox_worldgen::ReliefConfig), version: u32, field: &str| {
        let relief = |s: &mut ShapeConfig| edit(s.relief.as_mut().expect("continents has relief"));
        refused_in_shape(&base, version, &relief, field);
    };
    check(
        &|r| r.range_height = 401.0,
        4,
        "generator.shape.relief.range_height",
    );
    check(
        &|r| r.elongation = 0.5,
        4,
        "generator.shape.relief.elongation",
    );
    check(
        &|r| r.jag_scale = f64::NAN,
        4,
        "generator.shape.relief.jag_scale",
    );
    check(
        &|r| r.ranges.0[0][1] = 1.5,
        4,
        "generator.shape.relief.ranges[0].1",
    );
    check(
        &|r| r.erosion.as_mut().unwrap().strength = 0.9,
        4,
        "generator.shape.relief.erosion.strength",
    );
    // Gullies finer than 8 blocks would alias on the 4-block lattice.
    check(
        &|r| r.erosion.as_mut().unwrap().octaves = 6,
        4,
        "generator.shape.relief.erosion.octaves",
    );
    // Ranges are refused before version 4.
    check(&|_| {}, 3, "generator.shape.relief");
    // The preset's relief is valid, with erosion and without.
    let mut no_erosion = base.clone();
    if let GeneratorConfig::Density(d) = &mut no_erosion.generator {
        d.shape.as_mut().unwrap().relief.as_mut().unwrap().erosion = None;
    }
    assert!(no_erosion.validate().is_ok());
    assert!(Generator::new(&base).is_ok());
}

/// `text` with `from` replaced once by `to` (the text must hold it).
fn misspelt(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from} in {text}");
    text.replacen(from, to, 1)
}

#[test]
fn a_misspelt_section_is_refused_with_the_name_meant() {
    let continents = presets::BUILTIN[0].1;
    let code = presets::builtin("continents").unwrap().to_world_code();
    for (from, to, field, meant) in [
        ("nature:", "natur:", "natur", "nature"),
        ("caves:", "cavez:", "generator.cavez", "generator.caves"),
        ("shape:", "shapex:", "generator.shapex", "generator.shape"),
    ] {
        // In a config file and in a one-line world code alike.
        for text in [misspelt(continents, from, to), misspelt(&code, from, to)] {
            let e = WorldConfig::from_ron(&text).unwrap_err();
            assert_eq!(e.field(), Some(field), "{e}");
            let msg = e.to_string();
            assert!(
                msg.contains(&format!("unknown field `{field}`"))
                    && msg.contains(&format!("did you mean `{meant}`?")),
                "{msg}"
            );
        }
    }
    let e = WorldConfig::from_ron(&misspelt(continents, "nature:", "natur:")).unwrap_err();
    let line = continents
        .lines()
        .position(|l| l.contains("nature:"))
        .unwrap()
        + 1;
    assert!(
        matches!(e, ConfigError::UnknownField { line: l, column, .. } if l == line && column > 1),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with(&format!("line {line}, column")),
        "{e}"
    );
}

#[test]
fn a_misspelt_field_in_any_section_is_named_with_its_path() {
    let continents = presets::BUILTIN[0].1;
    let archipelago = presets::BUILTIN[4].1;
    for (text, from, to, field, meant) in [
        (continents, "seed:", "sed:", "sed", "seed"),
        (
            continents,
            "octaves:",
            "octavs:",
            "generator.noise.octavs",
            "generator.noise.octaves",
        ),
        (
            continents,
            "snow_line:",
            "snowline:",
            "generator.snowline",
            "generator.snow_line",
        ),
        (
            continents,
            "ridge_scale:",
            "ridge_scal:",
            "generator.shape.ridge_scal",
            "generator.shape.ridge_scale",
        ),
        (
            continents,
            "width: 0.",
            "widht: 0.",
            "generator.shape.rivers.widht",
            "generator.shape.rivers.width",
        ),
        (
            continents,
            "openings:",
            "opennings:",
            "generator.caves.opennings",
            "generator.caves.openings",
        ),
        (
            continents,
            "tree_spacing:",
            "tree_spaceing:",
            "nature.tree_spaceing",
            "nature.tree_spacing",
        ),
        (
            archipelago,
            "height_scale:",
            "hieght_scale:",
            "generator.hieght_scale",
            "generator.height_scale",
        ),
        (
            archipelago,
            "forest:",
            "forests:",
            "generator.bands.forests",
            "generator.bands.forest",
        ),
        (
            archipelago,
            "jitter:",
            "jiter:",
            "generator.layout.jiter",
            "generator.layout.jitter",
        ),
    ] {
        let e = WorldConfig::from_ron(&misspelt(text, from, to)).unwrap_err();
        assert_eq!(e.field(), Some(field), "{e}");
        assert!(
            e.to_string().contains(&format!("did you mean `{meant}`?")),
            "{e}"
        );
    }
    // Nothing close: the message lists the section's fields instead.
    let e = WorldConfig::from_ron(&misspelt(continents, "seed:", "colour: 3, seed:")).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("unknown field `colour`") && msg.contains("`version`, `seed`, `sea_level`"),
        "{msg}"
    );
    assert!(!msg.contains("did you mean"), "{msg}");
}

#[test]
fn the_sea_level_keeps_the_spawn_and_the_sea_in_the_playable_heights() {
    use terravox_worldgen::SURFACE_HEIGHTS;
    let (low, high) = (*SURFACE_HEIGHTS.start(), *SURFACE_HEIGHTS.end());
    let range = format!("{low}..={high}");
    for sea in [1_048_576, high + 1, low - 1, -1_048_576, i32::MIN] {
        let mut cfg = density();
        cfg.sea_level = sea;
        let e = cfg.validate().unwrap_err();
        assert_eq!(e.field(), Some("sea_level"), "{sea}: {e}");
        assert!(e.to_string().contains(&range), "{sea}: {e}");
    }
    // A world code says the same.
    let mut cfg = density();
    cfg.sea_level = 1_048_576;
    let e = WorldConfig::from_ron(&cfg.to_world_code()).unwrap_err();
    assert_eq!(e.field(), Some("sea_level"), "{e}");
    // The edges themselves are fine for a world without caves, whose surface stays
    // inside (the sea above it or below it).
    for sea in [low, high] {
        let mut cfg = density();
        cfg.sea_level = sea;
        d(&mut cfg).caves = None;
        assert_eq!(cfg.validate(), Ok(()), "{sea}");
    }
    // Islands rise above the sea: the highest sea is the one their peaks stay under.
    let mut cfg = islands();
    let peak = i(&mut cfg).height_scale;
    cfg.sea_level = high - peak as i32;
    assert_eq!(cfg.validate(), Ok(()));
    cfg.sea_level += 1;
    let e = cfg.validate().unwrap_err();
    assert_eq!(e.field(), Some("sea_level"), "{e}");
    assert!(e.to_string().contains(&range), "{e}");
}

#[test]
fn version_5_water_is_validated_with_its_field_named() {
    let base = presets::builtin("continents").unwrap();
    let check = |edit: &dyn Fn(&mut terravox_worldgen::WaterConfig), version: u32, field: &str| {
        let water = |s: &mut ShapeConfig| edit(s.water.as_mut().expect("continents has water"));
        refused_in_shape(&base, version, &water, field);
    };
    check(&|w| w.springs = -1.0, 5, "generator.shape.water.springs");
    check(
        &|w| w.spring_height = 2.0,
        5,
        "generator.shape.water.spring_height",
    );
    check(&|w| w.width = f64::NAN, 5, "generator.shape.water.width");
    check(
        &|w| w.lake_depth = 65.0,
        5,
        "generator.shape.water.lake_depth",
    );
    check(&|w| w.tarns = 1.5, 5, "generator.shape.water.tarns");
    // Water that runs downhill needs version 5.
    check(&|_| {}, 4, "generator.shape.water");
    // A misspelt field is refused, naming it.
    let text = base
        .to_ron_pretty()
        .replace("spring_height", "spring_heigth");
    let e = WorldConfig::from_ron(&text).unwrap_err().to_string();
    assert!(e.contains("spring_heigth"), "{e}");
}
