//! The command line: bad values are refused with a message naming the flag, and the
//! commands that need no window work.

use std::process::{Command, Output};

#[path = "../crates/export/tests/common/files.rs"]
mod files;
use files::files;

fn terravox(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_terravox"))
        .args(args)
        .output()
        .expect("the terravox binary runs")
}

/// Runs a command that must fail, and returns what it said.
fn refused(args: &[&str]) -> String {
    let out = terravox(args);
    assert!(!out.status.success(), "{args:?} was accepted");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_negative_number_is_a_bad_value_of_its_flag() {
    let dir = std::env::temp_dir();
    let png = dir.join("terravox-cli-neg.png");
    let png = png.to_str().unwrap();
    for (args, flag) in [
        (vec!["map", "--size", "-5", "--out", png], "--size"),
        (
            vec!["map", "--blocks-per-pixel", "-2", "--out", png],
            "--blocks-per-pixel",
        ),
        (vec!["play", "--view-distance", "-4"], "--view-distance"),
        (vec!["play", "--frames", "-1"], "--frames"),
        (vec!["bench", "--radius", "-3"], "--radius"),
    ] {
        let err = refused(&args);
        assert!(
            err.contains("invalid value '-") && err.contains(flag),
            "{args:?}: {err}"
        );
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

#[test]
fn at_look_time_and_sky_are_checked() {
    for (args, says) in [
        (vec!["--at", "1,2"], "X,Y,Z"),
        (vec!["--at", "1,x,3"], "`x`"),
        (vec!["--at", "0,5000000,0"], "outside the world"),
        (vec!["--at", "2000000000,60,0"], "outside the world"),
        (vec!["--at", "5,-1048576,5"], "Y within -1024..1048576"),
        (vec!["--at", "5,-1025,5"], "playable heights"),
        (vec!["--at", "5,1048576,5"], "playable heights"),
        (vec!["--look", "10"], "YAW,PITCH"),
        (vec!["--look", "-30,95"], "pitch"),
        (vec!["--look", "inf,0"], "yaw"),
        (vec!["--time", "25:00"], "HH:MM"),
        (vec!["--time", "noon"], "HH:MM"),
        (vec!["--time", "12:60"], "HH:MM"),
        (vec!["--sky", "purple"], "auto, physical or gradient"),
    ] {
        let err = refused(&args);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(err.contains(args[0]), "{args:?} names its flag: {err}");
    }
}

#[test]
fn map_and_config_work_without_a_window() {
    let png = std::env::temp_dir().join(format!("terravox-cli-{}.png", std::process::id()));
    let out = terravox(&[
        "map",
        "--preset",
        "islands",
        "--size",
        "32",
        "--center",
        "-100,40",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let bytes = std::fs::read(&png).expect("the map was written");
    assert_eq!(&bytes[1..4], b"PNG");
    let _ = std::fs::remove_file(&png);

    let out = terravox(&["config", "--seed", "42"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("seed: \"42\"") && text.contains("Density"),
        "{text}"
    );

    let err = refused(&["config", "--preset", "moon"]);
    assert!(err.contains("unknown preset `moon`"), "{err}");
}

#[test]
fn without_a_graphics_driver_play_says_what_to_install() {
    let out = Command::new(env!("CARGO_BIN_EXE_terravox"))
        .args(["play", "--seed", "1"])
        .env("DISPLAY", ":99")
        .env("WGPU_BACKEND", "vulkan")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .expect("the terravox binary runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no GPU or graphics driver"), "{err}");
    assert!(
        err.contains("mesa-vulkan-drivers") && err.contains("terravox map"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn without_a_display_play_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_terravox"))
        .args(["play", "--seed", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("the terravox binary runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no display") && err.contains("xvfb-run"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_map_past_the_worlds_edge_is_refused() {
    let png = std::env::temp_dir().join(format!("terravox-cli-edge-{}.png", std::process::id()));
    let png = png.to_str().unwrap();
    let err = refused(&["map", "--center", "2147483647,2147483647", "--out", png]);
    assert!(err.contains("outside the world"), "{err}");
    let err = refused(&[
        "map",
        "--center",
        "1073741000,0",
        "--blocks-per-pixel",
        "16",
        "--out",
        png,
    ]);
    assert!(err.contains("outside the world"), "{err}");
    assert!(!std::path::Path::new(png).exists(), "nothing written");
}

#[test]
fn config_files_that_are_not_configs_are_refused_quickly() {
    let err = refused(&["config", "--config", "/dev/zero"]);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn the_playable_heights_themselves_are_accepted_by_at() {
    // Accepted, `play` gets as far as looking for a display.
    for at in ["5,-1024,5", "5,1048575.5,5"] {
        let out = Command::new(env!("CARGO_BIN_EXE_terravox"))
            .args(["play", "--at", at])
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .output()
            .expect("the terravox binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no display") && !err.contains("--at"),
            "{at}: {err}"
        );
    }
}

#[test]
fn a_config_file_with_a_misspelt_section_is_refused() {
    let path = std::env::temp_dir().join(format!("terravox-cli-natur-{}.ron", std::process::id()));
    let out = terravox(&["config", "--preset", "continents"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("nature:"), "{text}");
    std::fs::write(&path, text.replacen("nature:", "natur:", 1)).unwrap();
    let err = refused(&["config", "--config", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(
        err.contains("unknown field `natur`") && err.contains("did you mean `nature`?"),
        "{err}"
    );
}

#[test]
fn map_stats_prints_the_relief_figures() {
    let out = terravox(&[
        "map",
        "--stats",
        "--preset",
        "continents",
        "--size",
        "64",
        "--blocks-per-pixel",
        "8",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    for label in [
        "512 x 512 blocks, heights every 8 blocks (64 x 64 samples)",
        "land:",
        "land height above sea level:",
        "64+ blocks above the sea:",
        "mountain areas (64+, 16+ samples):",
        "mountain elongation (area-weighted):",
        "land steeper than 45 degrees:",
        "local relief (128-block squares):",
        "land within 16 blocks of sea level:",
        "water of 512 x 512 blocks:",
        "streams by Strahler order",
        "Hack's exponent",
        "sinuosity over 256 blocks",
        "longest run of a course along one grid direction",
        "columns along the courses above the sea without water",
    ] {
        assert!(text.contains(label), "no `{label}` in:\n{text}");
    }
    assert!(text.contains("(target highest >= 200: "), "{text}");
    assert!(!text.contains("wrote "), "no map without --out: {text}");

    let err = refused(&["map", "--preset", "continents"]);
    assert!(err.contains("--out"), "{err}");
    let err = refused(&[
        "map",
        "--stats",
        "--size",
        "8192",
        "--blocks-per-pixel",
        "8",
    ]);
    assert!(err.contains("--stats measures at most"), "{err}");
}

#[test]
fn the_paced_flights_refuse_a_flight_of_no_time_or_no_frames() {
    for (args, says) in [
        (
            vec!["bench", "--horizon", "--seconds", "0"],
            "not a positive number of seconds",
        ),
        (
            vec!["bench", "--horizon", "--seconds", "nan"],
            "not a positive number of seconds",
        ),
        (vec!["bench", "--horizon", "--fps", "60,0"], "--fps"),
    ] {
        let err = refused(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn export_refuses_bad_areas_formats_and_taken_names() {
    let dir = std::env::temp_dir().join(format!("terravox-cli-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let world = out("world");
    let mc = |from: &str, to: &str, extra: &[&str]| {
        let mut args = vec![
            "export",
            "minecraft",
            "--no-edits",
            "--from",
            from,
            "--to",
            to,
        ];
        args.extend_from_slice(&["--out", &world]);
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>| terravox(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let refuse = |args: Vec<String>| {
        let o = run(args.clone());
        assert!(!o.status.success(), "{args:?} was accepted");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(refuse(mc("0,0", "0,16", &[])).contains("empty or inverted"));
    assert!(refuse(mc("16,0", "0,16", &[])).contains("empty or inverted"));
    assert!(refuse(mc("0,0", "60000000,16", &[])).contains("at most 59999968"));
    let e = refuse(mc("0,0", "16,16", &["--height", "fit", "--fold", "300"]));
    assert!(e.contains("--fold 300 is out of range"), "{e}");
    let e = refuse(mc("0,0", "16,16", &["--height", "fit", "--fold", "40"]));
    assert!(e.contains("at or below the sea"), "{e}");
    assert!(refuse(mc("0,0", "16,16", &["--height", "tall"])).contains("--height"));
    for shard in ["0/2", "3/2", "1", "a/b"] {
        let e = refuse(mc("0,0", "16,16", &["--shard", shard]));
        assert!(e.contains("--shard") && e.contains("K/N"), "{shard}: {e}");
    }
    assert!(refuse(mc("0,0", "16,16", &["--sea-level", "400"])).contains("out of range"));
    for version in ["1.19.4", "1.21.11", "newest"] {
        let e = refuse(mc("0,0", "16,16", &["--minecraft", version]));
        assert!(
            e.contains("--minecraft") && e.contains("1.20.5") && e.contains("1.21.10"),
            "{version}: {e}"
        );
    }
    let e = refuse(vec![
        "export".into(),
        "gltf".into(),
        "--from".into(),
        "0,-5000,0".into(),
        "--to".into(),
        "16,10,16".into(),
        "--out".into(),
        out("a.glb"),
    ]);
    assert!(e.contains("heights out of range"), "{e}");
    let hm = |tile: &str| {
        [
            "export",
            "heightmap",
            "--no-edits",
            "--from",
            "0,0",
            "--to",
            "12,16",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(["--tile".into(), tile.into(), "--out".into(), out("hm.png")])
        .collect::<Vec<_>>()
    };
    assert!(refuse(hm("0")).contains("a tile is 1 to 8192 columns a side"));
    let tiled = run(hm("8"));
    assert!(tiled.status.success(), "{tiled:?}");
    let said = String::from_utf8_lossy(&tiled.stdout);
    assert!(said.contains("in 2 x 2 tiles"), "{said}");
    assert!(dir.join("hm_x1_y1.water.png").is_file());
    let e = refuse(vec!["export".into(), "obj".into()]);
    assert!(e.contains("unrecognized subcommand 'obj'"), "{e}");
    let e = refuse(
        mc("0,0", "16,16", &[])
            .into_iter()
            .map(|a| {
                if a == world {
                    dir.join("no/such/folder").to_str().unwrap().to_string()
                } else {
                    a
                }
            })
            .collect(),
    );
    assert!(e.contains("does not exist"), "{e}");
    assert!(
        !dir.join("world").exists(),
        "nothing written by a refused export"
    );

    let ok = run(mc("-8,-8", "24,24", &["--minecraft", "1.21.4"]));
    assert!(ok.status.success(), "{ok:?}");
    let said = String::from_utf8_lossy(&ok.stdout);
    assert!(said.contains("9 chunks in 4 region files"), "{said}");
    assert!(said.contains("Minecraft 1.21.4 world"), "{said}");
    assert!(dir.join("world/region/r.0.0.mca").is_file());
    assert!(dir.join("world/region/r.-1.-1.mca").is_file());
    assert!(refuse(mc("0,0", "16,16", &[])).contains("add --force"));
    assert!(run(mc("0,0", "16,16", &["--force"])).status.success());
    assert!(
        !dir.join("world/region/r.-1.-1.mca").exists(),
        "replaced whole"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_pipe_ends_the_output_not_the_program() {
    use std::process::Stdio;
    // `terravox config | head -1`: the reader goes away before the config is printed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_terravox"))
        .args(["config", "--preset", "amplified"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the terravox binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}

/// Minecraft players share negative seeds: `--seed -7` (not only `--seed=-7`) works
/// wherever a seed is taken, and gives the same world as `--seed=-7`.
#[test]
fn negative_seeds_work_everywhere_a_seed_is_taken() {
    let spaced = terravox(&["config", "--seed", "-7"]);
    assert!(spaced.status.success(), "{spaced:?}");
    let text = String::from_utf8(spaced.stdout.clone()).unwrap();
    assert!(text.contains("seed: \"-7\""), "{text}");
    let joined = terravox(&["config", "--seed=-7"]);
    assert_eq!(spaced.stdout, joined.stdout);

    let dir = std::env::temp_dir().join(format!("terravox-cli-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("map.png");
    let out = terravox(&[
        "map",
        "--seed",
        "-7",
        "--size",
        "8",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("seed \"-7\""));
    let height = dir.join("height.png");
    let out = terravox(&[
        "export",
        "heightmap",
        "--seed",
        "-7",
        "--from",
        "0,0",
        "--to",
        "16,16",
        "--out",
        height.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(height.exists());
    // `play` reads the seed and then refuses the view distance: the seed parsed.
    let err = refused(&["play", "--seed", "-7", "--view-distance", "99"]);
    assert!(
        err.contains("--view-distance") && !err.contains("unexpected argument"),
        "{err}"
    );
    let err = refused(&["--seed", "-7", "--view-distance", "99"]);
    assert!(
        err.contains("--view-distance") && !err.contains("unexpected argument"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `map --help` names every layer the map draws, and a misspelt layer is refused with
/// the list.
#[test]
fn map_help_names_every_layer() {
    let out = terravox(&["map", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for layer in terravox_worldgen::map::Layer::ALL {
        assert!(
            help.contains(layer.name()),
            "`{}` missing from:\n{help}",
            layer.name()
        );
    }
    let err = refused(&["map", "--layer", "heigth", "--out", "x.png"]);
    for layer in terravox_worldgen::map::Layer::ALL {
        assert!(err.contains(layer.name()), "{err}");
    }
}

/// `terravox spawn --stats` prints where a new player stands and looks (as `play`'s
/// `--at` and `--look` take them) and the first frame's figures against the goals.
#[test]
fn spawn_stats_prints_the_first_frames_figures() {
    let out = terravox(&["spawn", "--seed", "terravox", "--stats"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "spawn: feet at ",
        "play --at ",
        "spawn: first frame 1280x720, sky ",
        "spawn: nearer than 16 blocks ",
        "spawn: relief in view ",
        "spawn: water ",
        "spawn: search ",
        "goals met",
    ] {
        assert!(text.contains(line), "`{line}` missing from:\n{text}");
    }
    let refused = refused(&["spawn", "--preset", "moon"]);
    assert!(refused.contains("moon"), "{refused}");
}

/// `play --help` names every part `--show` opens (each map layer the preview draws,
/// `water` among them), and a misspelt part is refused with the list.
#[test]
fn play_help_names_every_part_show_opens() {
    let out = terravox(&["play", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let err = refused(&["play", "--panel", "--show", "watr"]);
    for layer in terravox_worldgen::map::Layer::ALL {
        assert!(
            help.contains(layer.name()),
            "`{}` missing from:\n{help}",
            layer.name()
        );
        assert!(err.contains(layer.name()), "{err}");
    }
    for part in ["splines", "section", "seeds"] {
        assert!(
            help.contains(part) && err.contains(part),
            "{part}: {help}\n{err}"
        );
    }
}

/// The README's test command after its run command compiles only our own crates:
/// every package outside the workspace has the same features in the game's build
/// (`cargo build --release`) as in the tests' (`cargo test --release --workspace`),
/// so Cargo reuses what the run command built. A test-only dependency that turns on
/// another feature of something Bevy uses (as proptest did with `rand`) fails here.
#[test]
fn the_test_command_reuses_the_run_commands_dependencies() {
    let features = |args: &[&str]| -> std::collections::BTreeSet<String> {
        let out = Command::new(env!("CARGO"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "tree",
                "--offline",
                "--prefix",
                "none",
                "--format",
                "{p} [{f}]",
            ])
            .args(args)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            // Our own crates are built again for their tests; everything else must not be.
            .filter(|l| !l.contains(env!("CARGO_MANIFEST_DIR")) && !l.is_empty())
            .map(|l| l.trim_end_matches(" (*)").to_string())
            .collect()
    };
    let run = features(&["-p", "terravox", "-e", "normal,build"]);
    let test = features(&["--workspace", "-e", "normal,build,dev"]);
    let changed: Vec<&String> = run.iter().filter(|p| !test.contains(*p)).collect();
    assert!(
        changed.is_empty(),
        "the tests build these packages with other features than the game: {changed:?}"
    );
    assert!(run.iter().any(|p| p.starts_with("bevy_math ")), "{run:?}");
}

/// The command line takes the game's own ranges: what `--help` shows and what it
/// refuses come from the game's constants, not a copy.
#[test]
fn view_distance_and_horizon_take_the_games_ranges() {
    use terravox_game::{HorizonDistance, ViewDistance};
    let out = terravox(&["play", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for range in [ViewDistance::RANGE, HorizonDistance::RANGE] {
        let shown = format!("{}..={}", range.start(), range.end());
        assert!(help.contains(&shown), "{shown} not in:\n{help}");
    }
    let past = (ViewDistance::RANGE.end() + 1).to_string();
    let err = refused(&["play", "--view-distance", &past]);
    assert!(
        err.contains("--view-distance") && err.contains(&past),
        "{err}"
    );
    let past = (HorizonDistance::RANGE.end() + 1).to_string();
    let err = refused(&["play", "--horizon", &past]);
    assert!(err.contains("--horizon") && err.contains(&past), "{err}");
}

#[test]
fn the_water_map_shows_water_the_player_set_flowing() {
    use terravox_edits::{Edits, SaveDir};
    use terravox_voxel::{Block, BlockPos};
    use terravox_worldgen::{Generator, Seed, WorldConfig};
    let world = WorldConfig::default().with_seed(Seed::new("cli-water"));
    let g = Generator::new(&world).unwrap();
    let [x, _, z] = g.land_near_origin().expect("land");
    // Water flowing over the ground of 8 x 8 columns around (x, z), saved.
    let mut edits = Edits::new();
    for dz in -4..4 {
        for dx in -4..4 {
            let y = g.surface_height(x + dx, z + dz);
            edits.set(BlockPos::new(x + dx, y + 1, z + dz), Block::FlowingWater2);
        }
    }
    let tmp = std::env::temp_dir().join(format!("terravox-cli-water-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    SaveDir::new(&tmp).save(&world, &edits).unwrap();
    let png = tmp.join("water.png");
    let centre = format!("{x},{z}");
    let map = |edits: &[&str]| {
        let mut args = vec![
            "map",
            "--seed",
            "cli-water",
            "--layer",
            "water",
            "--size",
            "16",
        ];
        args.extend(["--blocks-per-pixel", "1", "--center", &centre]);
        args.extend(["--out", png.to_str().unwrap()]);
        args.extend(edits);
        let out = terravox(&args);
        assert!(out.status.success(), "{out:?}");
        let mut reader =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()))
                .read_info()
                .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        // The middle pixel: column (x, z).
        let i = (8 * 16 + 8) * 3;
        [buf[i], buf[i + 1], buf[i + 2]].map(i32::from)
    };
    let [r, _, b] = map(&["--save-dir", tmp.to_str().unwrap()]);
    assert!(b > r + 60, "no water drawn where it flows: {r}, {b}");
    let [r, _, b] = map(&["--no-edits"]);
    assert!(
        (b - r).abs() < 30,
        "water drawn without the edits: {r}, {b}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The long sweeps: `cargo test --release --workspace -- --ignored sweep::` (as
/// `.ci/run` does) runs them.
mod sweep {
    use super::*;

    /// A Minecraft export killed part way (a real process, killed) and run again
    /// resumes: the world is the one an uninterrupted export writes, byte for byte, and
    /// until then no world stands at --out.
    #[test]
    #[ignore = "long sweep: .ci/run runs it"]
    fn a_killed_minecraft_export_resumes_to_the_uninterrupted_world() {
        let dir = std::env::temp_dir().join(format!("terravox-cli-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (whole, killed) = (dir.join("whole"), dir.join("killed"));
        let args = |out: &std::path::Path| {
            let out = out.to_str().unwrap().to_string();
            let area = ["export", "minecraft", "--no-edits", "--from", "-1024,-1024"];
            let mut v: Vec<String> = area.iter().map(|s| s.to_string()).collect();
            v.extend(["--to", "1024,1024", "--out", &out].map(String::from));
            v
        };
        let run = |out: &std::path::Path| {
            let o = terravox(&args(out).iter().map(String::as_str).collect::<Vec<_>>());
            assert!(o.status.success(), "{o:?}");
            String::from_utf8_lossy(&o.stdout).into_owned()
        };
        run(&whole);
        // 16 region files: killed once two are marked done.
        let mut child = Command::new(env!("CARGO_BIN_EXE_terravox"))
            .args(args(&killed))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the terravox binary runs");
        let marks = dir.join(".killed.partial/terravox-job");
        loop {
            let done = std::fs::read_dir(&marks)
                .map(|d| {
                    d.filter(|e| {
                        let name = e.as_ref().unwrap().file_name();
                        let name = name.to_string_lossy();
                        name.starts_with("r.") && !name.contains(".tmp")
                    })
                    .count()
                })
                .unwrap_or(0);
            if done >= 2 {
                break;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "it ended before it was killed"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!killed.exists(), "no world at --out until it is whole");
        let said = run(&killed);
        assert!(
            said.contains("resumed: ") && said.contains("already complete"),
            "{said}"
        );
        assert_eq!(files(&killed), files(&whole));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
