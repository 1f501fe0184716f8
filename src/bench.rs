//! `terravox bench`: chunk generation and meshing throughput on all cores, and the
//! per-chunk medians on one core.

use std::time::{Duration, Instant};

use clap::Args;
use rayon::prelude::*;
use terravox_mesher::{MeshBuffers, mesh_chunk};
use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, presets};

/// Options of `terravox bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Preset to measure.
    #[arg(long, default_value = "cliffs")]
    preset: String,
    /// Horizontal radius in chunks of the area generated (like a view distance).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=64))]
    radius: u32,
}

fn median(mut v: Vec<Duration>) -> (Duration, Duration, Duration) {
    v.sort();
    let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
    (q(0.5), q(0.1), q(0.9))
}

/// Runs the benchmark and prints its figures.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let cfg = presets::builtin(&args.preset).map_err(|e| e.to_string())?;
    let g = Generator::new(&cfg).map_err(|e| e.to_string())?;
    let cy = g.surface_height(0, 0).div_euclid(32);
    let r = args.radius as i32;
    let mut positions = Vec::new();
    for z in -r..=r {
        for x in -r..=r {
            if x * x + z * z <= r * r {
                for y in cy - 3..=cy + 3 {
                    positions.push(ChunkPos::new(x, y, z));
                }
            }
        }
    }
    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let quads: usize = positions
        .par_iter()
        .map_init(MeshBuffers::default, |b, &p| {
            mesh_chunk(&g.generate(p), b);
            b.opaque.quads.len() + b.water.quads.len()
        })
        .sum();
    let all = start.elapsed();
    println!(
        "{} chunks ({} preset, radius {}) generated and meshed in {:.2} s on {threads} threads: {:.0} chunks/s, {quads} quads",
        positions.len(),
        args.preset,
        args.radius,
        all.as_secs_f64(),
        positions.len() as f64 / all.as_secs_f64()
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
        println!(
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
    let options = terravox_game::PlayOptions {
        world: cfg,
        view_distance: terravox_game::DEFAULT_VIEW_DISTANCE,
        screenshot: None,
        panel_open: false,
        save_dir: None,
    };
    let f = terravox_game::measure_streaming(options, Duration::from_secs(600))?;
    println!(
        "headless game, view distance {}: fully loaded after {:.2} s ({} frames); main-thread time per frame while streaming: median {:?}, p90 {:?}",
        terravox_game::DEFAULT_VIEW_DISTANCE,
        f.time_to_load.as_secs_f64(),
        f.frames,
        f.frame_median,
        f.frame_p90
    );
    Ok(())
}
