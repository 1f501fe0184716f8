//! `terravox bench`: chunk generation and meshing throughput on all cores, the
//! per-chunk medians on one core, streaming and editing in a headless game, and saves.

use std::time::{Duration, Instant};

use clap::Args;
use rayon::prelude::*;
use terravox_mesher::{MeshBuffers, mesh_chunk};
use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, presets};

/// Options of `terravox bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Preset to measure.
    #[arg(long, default_value = "continents")]
    preset: String,
    /// Measure only the horizon: loading it from a cold start (`--horizons`), and paced
    /// flights at the 8 km horizon.
    #[arg(long)]
    horizon: bool,
    /// Measure only the water: a dam break beside the spawn, its steps and the frames
    /// while it flows (60 FPS).
    #[arg(long, conflicts_with = "horizon")]
    water: bool,
    /// Measure playing together: a server and `--players` client processes on
    /// loopback walking and digging for `--seconds`, a join with a million edits, a
    /// dam break, the server killed with SIGKILL.
    #[arg(long, conflicts_with_all = ["horizon", "water"])]
    net: bool,
    /// With `--net`: only the players walking for `--seconds` (an hour, say) over a
    /// world whose save holds water left flowing in a hundred places, with the
    /// server's tick times in its first minutes and its last (from its metrics).
    #[arg(long, requires = "net")]
    long: bool,
    /// With `--net`: players. Up to 16 each a client process; more, one swarm
    /// (`bot --swarm`) spread out and then clustered, with a join among them and a
    /// lossy link.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(2..=1000))]
    players: u16,
    /// With `--horizon`: the horizons (blocks) loaded, one cold start each.
    #[arg(long, value_delimiter = ',', default_values_t = [4096, 8192, 16384, 65536], value_parser = clap::value_parser!(u32).range(1..=65536))]
    horizons: Vec<u32>,
    /// With `--horizon`: the speeds (blocks a second) flown, one flight each at every
    /// frame rate of `--fps`.
    #[arg(long, value_delimiter = ',', default_values_t = [SPRINT_FLYING], value_parser = parse_speed)]
    speed: Vec<f64>,
    /// With `--horizon`: seconds (of game time) each paced flight lasts; with `--net`,
    /// seconds the players walk.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    seconds: f64,
    /// With `--horizon`: the frame rates the flights are paced at, one flight each
    /// (game time and wall time advance `1 / fps` a frame).
    #[arg(long, value_delimiter = ',', default_values_t = [60, 30], value_parser = clap::value_parser!(u32).range(1..=1000))]
    fps: Vec<u32>,
    /// With `--horizon`: the mesh memory budget in MiB (the rings narrow past it).
    #[arg(long, default_value_t = terravox_game::DEFAULT_HORIZON_MEMORY, value_parser = clap::value_parser!(u32).range(64..=65536))]
    horizon_memory: u32,
    /// Horizontal radius in chunks of the area generated (like a view distance).
    #[arg(long, default_value_t = 12, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=64))]
    radius: u32,
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// A positive speed in blocks a second, at most 1000.
fn parse_speed(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1000.0 => Ok(v),
        _ => Err(format!(
            "`{s}` is not a speed in blocks a second (above 0, at most 1000)"
        )),
    }
}

/// Median, 10th and 90th percentile.
fn median(v: Vec<Duration>) -> (Duration, Duration, Duration) {
    let q = terravox_game::bench::quantiles(v);
    (q(0.5), q(0.1), q(0.9))
}

/// Runs the benchmark and prints its figures.
pub(crate) fn run(args: &BenchArgs) -> Result<(), String> {
    let cfg = presets::builtin(&args.preset).map_err(|e| e.to_string())?;
    if args.horizon {
        return horizon(&cfg, args);
    }
    if args.water {
        return dam_break(&cfg);
    }
    if args.net {
        return crate::bench_net::run(usize::from(args.players), args.seconds, args.long);
    }
    let g = Generator::new(&cfg).map_err(|e| e.to_string())?;
    // Around the spawn: the land a player starts on (the origin may be sea).
    let centre = match g.land_near_origin() {
        Some([x, y, z]) => terravox_voxel::BlockPos::new(x, y, z).to_chunk().0,
        None => ChunkPos::new(0, g.surface_height(0, 0).div_euclid(32), 0),
    };
    let r = args.radius as i32;
    let mut positions = Vec::new();
    for z in -r..=r {
        for x in -r..=r {
            if x * x + z * z <= r * r {
                for y in centre.y - 3..=centre.y + 3 {
                    positions.push(ChunkPos::new(centre.x + x, y, centre.z + z));
                }
            }
        }
    }
    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let (quads, bytes, dense) = positions
        .par_iter()
        .map_init(MeshBuffers::default, |b, &p| {
            let chunk = g.generate(p);
            mesh_chunk(&chunk, b);
            let (o, w) = (&b.opaque, &b.water);
            let dense = usize::from(!chunk.is_uniform());
            (
                o.quads.len() + w.quads.len(),
                o.gpu_bytes() + w.gpu_bytes(),
                dense,
            )
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let all = start.elapsed();
    say!(
        "{} chunks ({} preset, radius {}) generated and meshed in {:.2} s on {threads} threads: {:.0} chunks/s, {quads} quads; {dense} chunks ({:.0}%) not uniform",
        positions.len(),
        args.preset,
        args.radius,
        all.as_secs_f64(),
        positions.len() as f64 / all.as_secs_f64(),
        100.0 * dense as f64 / positions.len() as f64
    );
    // Until packed vertices, a quad took 4 vertices of 40 bytes (f32 position, normal
    // and RGBA colour) and 6 u32 indices.
    const UNPACKED_QUAD: usize = 4 * 40 + 6 * 4;
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    say!(
        "mesh memory of that view: {:.1} MiB on the GPU, {:.1} bytes per quad (8-byte packed vertices, u16 indices where they fit); unpacked it would be {:.1} MiB ({UNPACKED_QUAD} bytes per quad)",
        mib(bytes),
        bytes as f64 / quads.max(1) as f64,
        mib(quads * UNPACKED_QUAD),
    );
    // Per surface chunk, one core.
    let mut buffers = MeshBuffers::default();
    let (mut gen_t, mut mesh_t) = (Vec::new(), Vec::new());
    for &p in positions.iter().take(2000) {
        let t0 = Instant::now();
        let chunk = g.generate(p);
        let t1 = Instant::now();
        mesh_chunk(&chunk, &mut buffers);
        if !chunk.is_uniform() {
            gen_t.push(t1 - t0);
            mesh_t.push(t1.elapsed());
        }
    }
    if !gen_t.is_empty() {
        let (gm, g10, g90) = median(gen_t.clone());
        let (mm, m10, m90) = median(mesh_t);
        say!(
            "surface chunks ({}), one core: generate median {:?} (p10 {:?}, p90 {:?}); mesh median {:?} (p10 {:?}, p90 {:?})",
            gen_t.len(),
            gm,
            g10,
            g90,
            mm,
            m10,
            m90
        );
    }
    // The view alone (the horizon is measured by `--horizon`).
    let options = terravox_game::PlayOptions {
        horizon: 0,
        ..terravox_game::PlayOptions::new(cfg.clone())
    };
    let (f, mut app) = terravox_game::bench::measure_streaming(options, Duration::from_secs(600))?;
    say!(
        "headless game, view distance {}: fully loaded after {:.2} s ({} frames); main-thread time per frame while streaming: median {:?}, p90 {:?}",
        terravox_game::DEFAULT_VIEW_DISTANCE,
        f.time_to_load.as_secs_f64(),
        f.frames.count,
        f.frames.median,
        f.frames.p90
    );
    print_culling("standing at the spawn", &f);
    let spawn = centre.origin();
    if let Some([x, y, z]) = g.find_cave(spawn.x, spawn.z, 24) {
        let cave = [x as f64 + 0.5, y as f64, z as f64 + 0.5];
        let options = terravox_game::PlayOptions {
            at: Some(cave),
            horizon: 0,
            ..terravox_game::PlayOptions::new(cfg.clone())
        };
        let (f, _) = terravox_game::bench::measure_streaming(options, Duration::from_secs(600))?;
        say!(
            "in a cave at {cave:?}: fully loaded after {:.2} s; main-thread time per frame: median {:?}, p90 {:?}",
            f.time_to_load.as_secs_f64(),
            f.frames.median,
            f.frames.p90
        );
        print_culling("in that cave", &f);
    } else {
        say!("no cave near the spawn to measure culling in");
    }
    let e = terravox_game::bench::measure_editing(&mut app, 200)?;
    say!(
        "editing: {} blocks broken one at a time; remeshed (with border neighbours) after median {:?}, p90 {:?}, max {:?}",
        e.edits,
        e.median,
        e.p90,
        e.max
    );
    let r = terravox_game::bench::measure_live_reshaping(&mut app, Duration::from_secs(600))?;
    say!(
        "live reshaping (a new seed with Live on, view distance {}): every chunk replaced after {:.2} s ({} frames); main-thread time per frame meanwhile: median {:?}, p99 {:?}, max {:?}",
        terravox_game::DEFAULT_VIEW_DISTANCE,
        r.time.as_secs_f64(),
        r.frames.count,
        r.frames.median,
        r.frames.p99,
        r.frames.max
    );
    // The water in a game of its own (the reshaped one is a draft, which keeps no
    // edits), loaded at the spawn as the first one was.
    dam_break(&cfg)?;
    layer_maps(&g);
    save_figures(&cfg)
}

/// A dam break beside the spawn of a game of its own, loaded without a horizon.
fn dam_break(cfg: &terravox_worldgen::WorldConfig) -> Result<(), String> {
    let options = terravox_game::PlayOptions {
        horizon: 0,
        ..terravox_game::PlayOptions::new(cfg.clone())
    };
    let (_, mut water) =
        terravox_game::bench::measure_streaming(options, Duration::from_secs(600))?;
    print_dam_break(&terravox_game::bench::measure_dam_break(
        &mut water, 30.0, 4000,
    )?);
    Ok(())
}

/// Prints the water's figures: a dam break beside the spawn.
fn print_dam_break(d: &terravox_game::bench::DamBreakFigures) {
    let settled = d
        .settled_after
        .map_or("still flowing after".to_owned(), |s| {
            format!("settled after {s} steps of")
        });
    say!(
        "water: a 5 x 5 hole broken in the wall of a 16 x 16 x 6 lake whose floor is {} blocks above the land beside it (at {:?}): {settled} {} ({} blocks of water made); a step ticked median {}, p99 {}, most {} blocks and changed median {}, p99 {}, most {}; a step's worker time median {:?}, p99 {:?}, max {:?}",
        d.above,
        d.floor,
        d.steps,
        d.water,
        d.ticked[0],
        d.ticked[1],
        d.ticked[2],
        d.changed[0],
        d.changed[1],
        d.changed[2],
        d.step_cost[0],
        d.step_cost[1],
        d.step_cost[2],
    );
    say!(
        "  while it flowed, 60 FPS for {} frames: main-thread time per frame median {:?}, p99 {:?}, max {:?}; of it the water's own: median {:?}, p99 {:?}, max {:?}",
        d.frames.count,
        d.frames.median,
        d.frames.p99,
        d.frames.max,
        d.water_frames.median,
        d.water_frames.p99,
        d.water_frames.max,
    );
}

/// Times a 256 x 256 px map of each field layer on one core, at the preview's scale
/// (16 blocks a pixel): the median of three.
fn layer_maps(g: &terravox_worldgen::Generator) {
    use terravox_worldgen::map::{self, Layer, MapView};
    let view = MapView {
        center: [0, 0],
        size: [256, 256],
        blocks_per_pixel: 16,
    };
    let mut line = Vec::new();
    for layer in Layer::ALL {
        let Layer::Field(field) = layer else { continue };
        let mut t: Vec<Duration> = (0..3)
            .map(|_| {
                let start = Instant::now();
                let map = map::render_layer(g, &view, layer, &terravox_worldgen::sequential);
                std::hint::black_box(map);
                start.elapsed()
            })
            .collect();
        t.sort();
        line.push(format!(
            "{} {:.0} ms",
            field.name(),
            t[1].as_secs_f64() * 1e3
        ));
    }
    say!(
        "layer maps, 256 x 256 px at 16 blocks/px, one core: {}",
        line.join(", ")
    );
}

/// Prints what cave culling does in a loaded headless game.
fn print_culling(place: &str, f: &terravox_game::bench::StreamingFigures) {
    let c = f.culling;
    say!(
        "cave culling {place}: {} chunk meshes drawn of {} ({:.0}% skipped); {} chunks loaded without a mesh; last walk {:?}",
        c.drawn,
        c.with_faces,
        100.0 * (c.with_faces - c.drawn) as f64 / c.with_faces.max(1) as f64,
        c.unmeshed,
        f.walk
    );
}

/// Edits in the save benchmarks.
const SAVE_EDITS: i32 = 1_000_000;
/// Blocks of water due in the save benchmarks.
const WATER_DUE: i32 = 100_000;

/// Times atomic saves and loads of a million edits in a temporary folder, and the
/// frames of a game starting on that save.
fn save_figures(world: &terravox_worldgen::WorldConfig) -> Result<(), String> {
    use terravox_edits::{Edits, SaveDir};
    use terravox_voxel::{Block, BlockPos};
    let dir = std::env::temp_dir().join(format!("terravox-bench-{}", std::process::id()));
    let saves = SaveDir::new(&dir);
    // A 320 x 320 x 10 slab above the spawn: chunks a player sees.
    let mut edits = Edits::new();
    for i in 0..SAVE_EDITS {
        edits.set(
            BlockPos::new(i % 320 - 160, 60 + i / 102_400, (i / 320) % 320 - 160),
            Block::Brick,
        );
    }
    // And 100,000 blocks of water waiting to tick, as a big flow leaves them.
    for i in 0..WATER_DUE {
        edits
            .pending_mut()
            .wake(BlockPos::new(i % 320 - 160, 80, i / 320 - 160));
    }
    // What an autosave does on the main thread: take a snapshot of the overlay (and
    // its water) for the write on the I/O pool.
    let snapshots: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let snapshot = std::hint::black_box(edits.clone());
            let took = t.elapsed();
            drop(snapshot);
            took
        })
        .collect();
    let (snap, snap10, snap90) = median(snapshots);
    say!(
        "an autosave's snapshot of {SAVE_EDITS} edits and {WATER_DUE} blocks of water due on the main thread: median {snap:?} (p10 {snap10:?}, p90 {snap90:?})"
    );
    let (mut save_t, mut load_t) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        saves.save(world, &edits).map_err(|e| e.to_string())?;
        save_t.push(t.elapsed());
        let t = Instant::now();
        let loaded = saves.load(world).map_err(|e| e.to_string())?;
        load_t.push(t.elapsed());
        if loaded != edits {
            return Err("a saved world loaded differently".into());
        }
    }
    let size = std::fs::metadata(saves.path_for(world)).map_or(0, |m| m.len());
    let ((sm, s10, s90), (lm, l10, l90)) = (median(save_t), median(load_t));
    say!(
        "saves: {SAVE_EDITS} edits ({:.1} MB): atomic save median {sm:?} (p10 {s10:?}, p90 {s90:?}); load median {lm:?} (p10 {l10:?}, p90 {l90:?})",
        size as f64 / 1e6
    );
    let options = terravox_game::PlayOptions {
        save_dir: Some(dir.clone()),
        ..terravox_game::PlayOptions::new(world.clone())
    };
    let f = terravox_game::bench::measure_save_loading(options, Duration::from_secs(600));
    let _ = std::fs::remove_dir_all(&dir);
    let f = f?;
    say!(
        "starting on that save: edits in after {:.2} s ({} frames); main-thread time per frame meanwhile: median {:?}, p99 {:?}, max {:?}",
        f.loaded_after.as_secs_f64(),
        f.frames.count,
        f.frames.median,
        f.frames.p99,
        f.frames.max
    );
    say!(
        "autosaves of those {SAVE_EDITS} edits (and one more each time): main-thread time of the frame that started the write median {:?}, max {:?}; other frames median {:?}",
        f.autosaves.median,
        f.autosaves.max,
        f.other_frames.median
    );
    Ok(())
}

/// Sprint-flying speed, blocks a second: 16 blocks a second, 2.5 times.
const SPRINT_FLYING: f64 = 40.0;

/// `terravox bench --horizon`: the view plus the horizon loaded from a cold start at
/// each of `horizons`, figures per ring, and flights at the 8 km horizon for `seconds`
/// at each of `speeds` paced at each of `fps`, from a fresh load each, counting frames
/// with a hole and the longest time a spot stayed uncovered.
fn horizon(cfg: &terravox_worldgen::WorldConfig, args: &BenchArgs) -> Result<(), String> {
    let (seconds, fps, speeds) = (args.seconds, &args.fps, &args.speed);
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let options = |blocks| terravox_game::PlayOptions {
        horizon: blocks,
        horizon_memory: args.horizon_memory,
        ..terravox_game::PlayOptions::new(cfg.clone())
    };
    for &blocks in &args.horizons {
        let (f, _) =
            terravox_game::bench::measure_horizon(options(blocks), Duration::from_secs(600))?;
        say!(
            "horizon {blocks} blocks (view distance {}): loaded after {:.2} s ({} frames); main-thread time per frame: median {:?}, p99 {:?}, max {:?}; coarse chunk generate + mesh mean {:?}; walk over the levels {:?}",
            terravox_game::DEFAULT_VIEW_DISTANCE,
            f.time_to_load.as_secs_f64(),
            f.frames.count,
            f.frames.median,
            f.frames.p99,
            f.frames.max,
            f.per_chunk,
            f.resolve,
        );
        let total: usize = f.rings.iter().map(|r| r.bytes).sum::<usize>() + f.view_bytes;
        say!(
            "  level 0 (the view): {:.1} MiB of meshes, {} chunks drawn",
            mib(f.view_bytes),
            f.view_drawn
        );
        for (i, r) in f.rings.iter().enumerate().filter(|(_, r)| r.chunks > 0) {
            say!(
                "  level {} ({}-block cells): {} chunks loaded, {} drawn with faces, {} quads, {:.1} MiB of meshes, {} draw calls",
                i + 1,
                1 << (i + 1),
                r.chunks,
                r.drawn,
                r.quads,
                mib(r.bytes),
                r.draw_calls
            );
        }
        let (quads, calls) = f
            .rings
            .iter()
            .fold((0, 0), |(q, c), r| (q + r.quads, c + r.draw_calls));
        say!(
            "  all meshes on the GPU: {:.1} MiB (budget {} MiB; rings of levels 2+ at {:.3} of their full width); coarse quads drawn {quads}, coarse draw calls {calls}",
            mib(total),
            args.horizon_memory,
            f.detail
        );
    }
    let flights = speeds
        .iter()
        .flat_map(|&s| fps.iter().map(move |&r| (s, r)));
    for (speed, rate) in flights {
        let (_, mut app) =
            terravox_game::bench::measure_horizon(options(8192), Duration::from_secs(600))?;
        let fl = terravox_game::bench::measure_flight(&mut app, speed, rate as f64, seconds)?;
        let cpu = fl.cpu_cores.map_or(String::new(), |c| {
            let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
            format!("; CPU {c:.2} of {cores} cores busy")
        });
        say!(
            "flight at the 8192-block horizon, {speed} blocks/s for {seconds} s paced at {rate} FPS ({:.0} blocks): {} frames ({} late), {} with a hole ({} spots checked a frame), longest a spot stayed uncovered {:.2} s; main-thread time per frame: median {:?}, p99 {:?}; full-detail chunks loaded at most {} (kept for cover at most {}); worker threads: {}{cpu}",
            fl.distance,
            fl.frames.count,
            fl.late_frames,
            fl.hole_frames,
            fl.spots,
            fl.longest_uncovered.as_secs_f64(),
            fl.frames.median,
            fl.frames.p99,
            fl.max_loaded,
            fl.max_kept,
            fl.workers,
        );
    }
    Ok(())
}
