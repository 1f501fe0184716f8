//! `terravox`: the command line. `play` (the default) opens the game; `map` writes a
//! top-down PNG of a world; `config` prints a world's full config as RON; `bench`
//! measures chunk generation, meshing, streaming, editing and saves; `spawn` prints
//! where a new player stands and what the first frame shows; `textures` draws
//! the block textures; `export` writes a world for Minecraft, Blender or a terrain
//! tool. The architecture
//! is in `docs/design.md`.

/// `println!` that stops printing quietly once standard output is closed (as in
/// `terravox config | head -3`) instead of panicking; the command runs on.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` as [`say!`] does `println!`.
macro_rules! say_part {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

mod bench;
mod bench_net;
mod export;
mod net;
mod parse;
mod spawn;
mod world;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use parse::{parse_at, parse_numbers};
use terravox_worldgen::{Generator, map, seams, stats, water_figures};
use world::{WorldArgs, rayon_rows};

/// A Minecraft-like voxel terrain playground.
#[derive(Parser, Debug)]
#[command(name = "terravox", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the game (the default).
    Play(PlayArgs),
    /// Write a top-down colour map of a world to a PNG file.
    Map(MapArgs),
    /// Print a world's full config as RON.
    Config(WorldArgs),
    /// Write a world for another program: a Minecraft world folder, a glTF binary or a
    /// heightmap (with the player's saved edits).
    #[command(subcommand)]
    Export(export::ExportCommand),
    /// Measure chunk generation and meshing throughput on all cores.
    Bench(bench::BenchArgs),
    /// Print where a new player stands and looks; with --stats, what the first
    /// frame shows (cast without a GPU) and how long the search took.
    Spawn(spawn::SpawnArgs),
    /// Run a dedicated server: no window and no GPU; players join with
    /// `play --join`. It prints the address it listens on and its identity; its
    /// console (standard input) takes `list`, `kick`, `ban`, `pardon`, `op`, `deop`,
    /// `allow`, `disallow`, `allowlist on|off`, `say` and `stop` (saves, then exits).
    Serve(net::ServeArgs),
    /// Ask a server about itself: its name, message of the day, players, whether
    /// it wants a password, its protocol and generator version, its identity.
    Ping(net::PingArgs),
    /// A headless client that joins a server and walks, digs or does what its
    /// standard input says (for `bench --net` and the tests).
    #[command(hide = true)]
    Bot(net::BotArgs),
    /// Draw the block textures (original pixel art, generated from seeded hashes) to a
    /// PNG strip, one 16x16 tile per texture array layer; the game embeds the
    /// committed `assets/textures/blocks.png`.
    Textures(TexturesArgs),
}

#[derive(Args, Debug)]
struct TexturesArgs {
    /// Output PNG file.
    #[arg(long, default_value = "assets/textures/blocks.png")]
    out: PathBuf,
}

#[derive(Args, Debug, Clone, Default)]
struct PlayArgs {
    #[command(flatten)]
    world: WorldArgs,
    #[arg(long, allow_negative_numbers = true, value_parser = within(terravox_game::ViewDistance::RANGE),
        help = format!("View distance in chunks ({})", shown(terravox_game::ViewDistance::RANGE)))]
    view_distance: Option<u32>,
    #[arg(long, allow_negative_numbers = true, value_parser = within(terravox_game::HorizonDistance::RANGE),
        help = format!(
            "How far coarse chunks reach, in blocks ({}; default {}; 0 or anything within \
             the view distance: full-detail chunks only)",
            shown(terravox_game::HorizonDistance::RANGE),
            terravox_game::DEFAULT_HORIZON
        ))]
    horizon: Option<u32>,
    #[arg(long, allow_negative_numbers = true, value_parser = within(terravox_game::HorizonMemory::RANGE),
        help = format!(
            "Mesh memory the view and the horizon hold at most, in MiB ({}; default {}): \
             past it the rings of the horizon are drawn narrower",
            shown(terravox_game::HorizonMemory::RANGE),
            terravox_game::DEFAULT_HORIZON_MEMORY
        ))]
    horizon_memory: Option<u32>,
    /// Take a screenshot once the view distance and the horizon are loaded, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// With --screenshot: wait at least this many frames after loading.
    #[arg(long, allow_negative_numbers = true)]
    frames: Option<u32>,
    /// With --screenshot: wait at least this many seconds after loading.
    #[arg(long, allow_negative_numbers = true)]
    seconds: Option<f32>,
    /// Folder for saved edits (default: the platform's data folder, e.g.
    /// ~/.local/share/terravox).
    #[arg(long)]
    save_dir: Option<PathBuf>,
    #[arg(long, default_value = "", help = format!(
        "Parts of the panel to open, comma-separated (with --panel): a map layer for the \
         preview, or the spline editor, the cross-section, the seed browser: {}",
        terravox_game::PanelView::parts().collect::<Vec<_>>().join(", ")))]
    show: terravox_game::PanelView,
    /// Start with the generator panel open.
    #[arg(long)]
    panel: bool,
    /// Start with the feet at X,Y,Z (flying, so the view stays put), e.g. 120,80,-40.
    #[arg(long, value_parser = parse_at, allow_hyphen_values = true)]
    at: Option<[f64; 3]>,
    /// Start looking towards YAW,PITCH in degrees (yaw 0 looks towards -z, 90 towards
    /// -x; pitch -90..=90, up is positive), e.g. 45,-10.
    #[arg(long, value_parser = parse_look, allow_hyphen_values = true)]
    look: Option<[f32; 2]>,
    /// Start at this time of day, HH:MM (default 09:00); with --screenshot the clock
    /// stands still there, e.g. 21:30.
    #[arg(long, value_parser = parse_time)]
    time: Option<f32>,
    /// The sky: auto (Bevy's atmosphere on a GPU, the gradient on a software
    /// renderer), physical (the atmosphere wherever the renderer can draw it) or
    /// gradient (a gradient dome with sun, moon and stars).
    #[arg(long, default_value = "auto")]
    sky: terravox_game::SkyChoice,
    /// Turn cave culling off: draw (and mesh) every loaded chunk, to compare.
    #[arg(long)]
    no_culling: bool,
    /// Play on a server, HOST[:PORT] (port 27050 unless given): its world, made here
    /// from its world code; nothing of it is saved here.
    #[arg(long, conflicts_with_all = ["seed", "preset", "config", "save_dir"])]
    join: Option<String>,
    /// With --join: the name the others see (1 to 16 letters, digits, _ or -; default
    /// your user name).
    #[arg(long, requires = "join")]
    name: Option<String>,
    /// With --join: the server's password.
    #[arg(long, requires = "join")]
    password: Option<String>,
    #[command(flatten)]
    profile: net::ProfileArgs,
}

#[derive(Args, Debug)]
struct MapArgs {
    #[command(flatten)]
    world: WorldArgs,
    /// Image width and height in pixels.
    #[arg(long, default_value_t = 512, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=8192))]
    size: u32,
    /// World column at the centre of the image, as X,Z.
    #[arg(long, default_value = "0,0", value_parser = parse_center, allow_hyphen_values = true)]
    center: [i32; 2],
    /// World blocks per pixel.
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=4096))]
    blocks_per_pixel: u32,
    /// What the map shows: terrain (surface blocks, water by depth), biomes (legend
    /// colours), height, water (rivers and lakes above the sea by depth; version 5),
    /// or one of the generator's fields (coloured by value, with a legend).
    #[arg(long, default_value = "terrain", value_parser = layer_parser())]
    layer: map::Layer,
    /// Output PNG file (optional with --stats).
    #[arg(long, required_unless_present = "stats")]
    out: Option<PathBuf>,
    /// Print the relief figures of the map's area (size x blocks-per-pixel blocks
    /// wide, heights every 8 blocks): land heights, mountain areas and their shape,
    /// steep land, local relief, lowlands, each with its target.
    #[arg(long)]
    stats: bool,
    /// The world's saved edits, laid over the map (the fields aside).
    #[command(flatten)]
    edits: export::SavedEdits,
}

/// A field layer's legend: what its colours mean.
fn print_legend(field: terravox_worldgen::fields::Field) {
    let ([lo, hi], [low, high]) = (field.range(), field.ends());
    let mid = (lo + hi) / 2.0;
    let rgb = |v| map::field_color(field, Some(v));
    say!(
        "  legend: {lo} {low} rgb{:?} .. {mid} rgb{:?} .. {hi} {high} rgb{:?}; grey: no such field",
        rgb(lo),
        rgb(mid),
        rgb(hi)
    );
}

/// A parser of whole numbers within `range` (the game's own constant, so the command
/// line and the game agree).
fn within(range: std::ops::RangeInclusive<u32>) -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(i64::from(*range.start())..=i64::from(*range.end()))
}

/// `range` as the help shows it: `4..=32`.
fn shown(range: std::ops::RangeInclusive<u32>) -> String {
    format!("{}..={}", range.start(), range.end())
}

/// The map layers by name: `--help` lists every one ([`map::Layer::ALL`]), and a
/// misspelt name is refused with that list.
fn layer_parser() -> impl clap::builder::TypedValueParser<Value = map::Layer> {
    use clap::builder::{PossibleValuesParser, TypedValueParser as _};
    PossibleValuesParser::new(map::Layer::ALL.map(|l| l.name())).map(|name| {
        map::Layer::ALL
            .into_iter()
            .find(|l| l.name() == name)
            .expect("a possible value names a layer")
    })
}

fn parse_center(s: &str) -> Result<[i32; 2], String> {
    parse_numbers(s, "X,Z in whole blocks (for example 100,-250)")
}

fn parse_look(s: &str) -> Result<[f32; 2], String> {
    let [yaw, pitch]: [f32; 2] = parse_numbers(s, "YAW,PITCH in degrees (for example 45,-10)")?;
    if !yaw.is_finite() {
        return Err(format!("`{s}`: the yaw must be a finite number of degrees"));
    }
    if !(-90.0..=90.0).contains(&pitch) {
        return Err(format!("`{s}`: the pitch must be within -90..=90 degrees"));
    }
    Ok([yaw, pitch])
}

/// A time of day `HH:MM` (00:00 to 23:59) as hours past midnight.
fn parse_time(s: &str) -> Result<f32, String> {
    let bad =
        || format!("`{s}` is not a time of day HH:MM from 00:00 to 23:59 (for example 21:30)");
    let (h, m) = s.split_once(':').ok_or_else(bad)?;
    let (h, m): (u32, u32) = (
        h.trim().parse().map_err(|_| bad())?,
        m.trim().parse().map_err(|_| bad())?,
    );
    if h > 23 || m > 59 {
        return Err(bad());
    }
    Ok(h as f32 + m as f32 / 60.0)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => play(cli.play),
        Some(Command::Play(args)) => play(args),
        Some(Command::Map(args)) => write_map(&args),
        Some(Command::Config(args)) => args.resolve().map(|cfg| {
            say!(
                "// {} world, generator version {}{}",
                cfg.generator_name(),
                cfg.version,
                if cfg.version < terravox_worldgen::GENERATOR_VERSION {
                    " (an older world code: generated exactly as it was then)"
                } else {
                    ""
                }
            );
            say_part!("{}", cfg.to_ron_pretty())
        }),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Spawn(args)) => spawn::run(&args),
        Some(Command::Export(format)) => export::run(format),
        Some(Command::Textures(args)) => write_textures(&args.out),
        Some(Command::Serve(args)) => net::serve(&args),
        Some(Command::Ping(args)) => net::ping(&args),
        Some(Command::Bot(args)) => net::bot(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("terravox: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn play(args: PlayArgs) -> Result<(), String> {
    let (world, remote, at) = match &args.join {
        Some(address) => {
            let (remote, world, at) = net::join_for_play(
                address,
                args.name.clone(),
                args.password.clone(),
                &args.profile,
            )?;
            (world, Some(remote), args.at.or(at))
        }
        None => (args.world.resolve()?, None, args.at),
    };
    if args.screenshot.is_none() && (args.frames.is_some() || args.seconds.is_some()) {
        return Err("--frames and --seconds only make sense with --screenshot".into());
    }
    if let Some(s) = args.seconds
        && !(s.is_finite() && s >= 0.0)
    {
        return Err(format!("--seconds {s} must be a non-negative number"));
    }
    let options = terravox_game::PlayOptions {
        view_distance: args
            .view_distance
            .unwrap_or(terravox_game::DEFAULT_VIEW_DISTANCE),
        screenshot: args.screenshot.map(|path| terravox_game::ScreenshotPlan {
            path,
            frames: args.frames.unwrap_or(0),
            seconds: args.seconds.unwrap_or(0.0),
        }),
        panel_open: args.panel,
        panel_view: args.show.clone(),
        save_dir: match remote {
            Some(_) => None,
            None => args.save_dir.or_else(|| {
                let dir = terravox_edits::default_save_dir();
                if dir.is_none() {
                    eprintln!("terravox: no data folder on this platform; edits will not be saved (use --save-dir)");
                }
                dir
            }),
        },
        at,
        look: args.look,
        time: args.time,
        sky: args.sky,
        culling: !args.no_culling,
        horizon: args.horizon.unwrap_or(terravox_game::DEFAULT_HORIZON),
        horizon_memory: args
            .horizon_memory
            .unwrap_or(terravox_game::DEFAULT_HORIZON_MEMORY),
        remote,
        ..terravox_game::PlayOptions::new(world)
    };
    terravox_game::run(options)
}

fn write_map(args: &MapArgs) -> Result<(), String> {
    let cfg = args.world.resolve()?;
    let generator = Generator::new(&cfg).map_err(|e| e.to_string())?;
    let view = map::MapView {
        center: args.center,
        size: [args.size, args.size],
        blocks_per_pixel: args.blocks_per_pixel,
    };
    view.check()?;
    if args.stats {
        // Checked before the map is drawn, so a refused area writes nothing.
        stats_view(args)?.check()?;
    }
    if let Some(out) = &args.out {
        let map = match args.layer {
            map::Layer::Field(_) => map::render_layer(&generator, &view, args.layer, &rayon_rows),
            _ => {
                let source = args.edits.source(&cfg)?;
                let over = |x, z, top| source.column_top(x, z, top);
                map::render_layer_over(&generator, &view, args.layer, &rayon_rows, &over)
            }
        };
        let img = &map.image;
        write_png(out, img.width, img.height, png::ColorType::Rgb, &img.rgb)?;
        say!(
            "wrote {} ({}x{} px, {} blocks/px, {} layer, {} world version {}, seed {:?})",
            out.display(),
            img.width,
            img.height,
            args.blocks_per_pixel,
            args.layer.name(),
            cfg.generator_name(),
            cfg.version,
            cfg.seed.text()
        );
        if let map::Layer::Field(field) = args.layer {
            print_legend(field);
            let [x, z] = args.center;
            match generator.fields_at(x, z).get(field) {
                Some(v) => say!("  at the centre ({x}, {z}): {v:.3}"),
                None => say!("  this world has no {} field (grey)", field.name()),
            }
        } else {
            let shares = map.biome_shares();
            if shares.is_empty() {
                say!("no biomes in this world (version 1, or no `nature`)");
            }
            for (biome, share) in shares {
                say!("  {:<13} {:5.1}%", biome.name(), share * 100.0);
            }
        }
    }
    if args.stats {
        let s = stats::relief_stats(
            &generator,
            args.center,
            args.size * args.blocks_per_pixel,
            stats::STEP,
            &rayon_rows,
        );
        say!(
            "{} world version {}, seed {:?}, around {},{}",
            cfg.generator_name(),
            cfg.version,
            cfg.seed.text(),
            args.center[0],
            args.center[1]
        );
        say_part!("{s}");
        say_part!(
            "{}",
            seams::seams(
                &generator,
                args.center,
                args.size * args.blocks_per_pixel,
                &rayon_rows
            )
        );
        if let Some(w) = water_figures::water_stats(
            &generator,
            args.center,
            stats::samples_per_side(args.size * args.blocks_per_pixel, stats::STEP),
            stats::STEP,
            &rayon_rows,
        ) {
            say_part!("{w}");
        }
    }
    Ok(())
}

/// The samples `map --stats` takes, as a map view (one pixel a sample, its border
/// included by [`map::MapView::check`]); refused past [`stats::MAX_SAMPLES`] a side.
fn stats_view(args: &MapArgs) -> Result<map::MapView, String> {
    let blocks = args.size * args.blocks_per_pixel;
    let n = stats::samples_per_side(blocks, stats::STEP);
    if n > stats::MAX_SAMPLES {
        return Err(format!(
            "--stats measures at most {} blocks a side (heights every {} blocks); \
             --size {} x --blocks-per-pixel {} is {blocks}",
            stats::MAX_SAMPLES * stats::STEP,
            stats::STEP,
            args.size,
            args.blocks_per_pixel
        ));
    }
    Ok(map::MapView {
        center: args.center,
        size: [n, n],
        blocks_per_pixel: stats::STEP,
    })
}

fn write_png(
    path: &std::path::Path,
    width: u32,
    height: u32,
    color: png::ColorType,
    data: &[u8],
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    enc.set_color(color);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| fail(&e))?;
    w.write_image_data(data).map_err(|e| fail(&e))?;
    w.finish().map_err(|e| fail(&e))
}

/// `terravox textures`: the block textures as a vertical strip of RGBA tiles (the
/// alpha channel is the tint mask, see `terravox_voxel::textures`).
fn write_textures(out: &std::path::Path) -> Result<(), String> {
    use terravox_voxel::textures::{self, SIZE};
    let layers = textures::generate();
    let data: Vec<u8> = layers.iter().flatten().flatten().copied().collect();
    let height = (SIZE * layers.len()) as u32;
    write_png(out, SIZE as u32, height, png::ColorType::Rgba, &data)?;
    say!("{} textures written to {}", layers.len(), out.display());
    Ok(())
}
