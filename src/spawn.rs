//! `terravox spawn`: where a new player of a world stands and looks, and with
//! `--stats` what the first frame shows from there (cast without a GPU) and how long
//! the search took.

use std::time::Instant;

use clap::Args;
use terravox_worldgen::{
    FRAME_HEIGHT, FRAME_NEAR, FRAME_WIDTH, Generator, SPAWN_NEAR, SPAWN_RELIEF, SPAWN_SKY,
};

use crate::world::{WorldArgs, rayon_rows};

/// `terravox spawn`'s arguments.
#[derive(Args, Debug)]
pub(crate) struct SpawnArgs {
    #[command(flatten)]
    world: WorldArgs,
    /// Also print what the first frame shows (sky, ground nearer than 16 blocks,
    /// relief in view, water) against the goals, and how long the search took.
    #[arg(long)]
    stats: bool,
}

/// Finds the spawn on rayon's threads and prints it.
pub(crate) fn run(args: &SpawnArgs) -> Result<(), String> {
    let cfg = args.world.resolve()?;
    let generator = Generator::new(&cfg).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let spawn = generator.spawn(&rayon_rows);
    let took = started.elapsed();
    let Some(spawn) = spawn else {
        say!("spawn: no land within reach of the origin: a new player flies over the sea");
        return Ok(());
    };
    let [x, y, z] = spawn.at;
    let yaw = terravox_worldgen::yaw_towards(spawn.facing).to_degrees();
    let pitch = spawn.pitch.to_degrees();
    say!(
        "spawn: feet at {x},{y},{z}, looking yaw {yaw:.0}° pitch {pitch:.0}° \
         (play --at {},{y},{} --look {yaw:.0},{pitch:.0})",
        f64::from(x) + 0.5,
        f64::from(z) + 0.5
    );
    if args.stats {
        let f = spawn.frame;
        let pct = |v: f32| v * 100.0;
        say!(
            "spawn: first frame {FRAME_WIDTH}x{FRAME_HEIGHT}, sky {:.1}% (goal {:.0}-{:.0}%)",
            pct(f.sky),
            pct(*SPAWN_SKY.start()),
            pct(*SPAWN_SKY.end())
        );
        say!(
            "spawn: nearer than {FRAME_NEAR} blocks {:.1}% (goal at most {:.0}%)",
            pct(f.near),
            pct(SPAWN_NEAR)
        );
        say!(
            "spawn: relief in view {} blocks within 2 km (goal at least {SPAWN_RELIEF})",
            f.relief
        );
        say!("spawn: water {:.1}% of the frame", pct(f.water));
        say!(
            "spawn: search {} ms on {} threads; goals {}",
            took.as_millis(),
            rayon::current_num_threads(),
            if f.meets_goals() { "met" } else { "missed" }
        );
    }
    Ok(())
}
