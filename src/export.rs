//! `terravox export`: a world for other programs (the work is in `terravox-export`).

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use terravox_edits::{Edits, SaveDir};
use terravox_export::{Area, Progress, Source, Volume, gltf, heightmap, minecraft};
use terravox_worldgen::Generator;

use crate::parse::parse_numbers;
use crate::world::WorldArgs;

/// The formats.
#[derive(Subcommand, Debug)]
pub(crate) enum ExportCommand {
    /// A Minecraft Java Edition world folder (1.20.5 and later; --minecraft): level.dat
    /// and region files of the area, an empty void around it, creative mode.
    Minecraft {
        #[command(flatten)]
        area: Columns,
        /// The Minecraft height terravox's sea level (its top water block) goes to;
        /// the default puts the water's surface at 63, Minecraft's own. Land above y 319
        /// raises the world's top (a data pack); lower this only for land above 2031.
        #[arg(long, default_value_t = minecraft::SEA_TOP, allow_negative_numbers = true)]
        sea_level: i32,
        /// Write only shard K of N (every N-th region file), for running N processes,
        /// on one machine or many sharing the folder: the one that completes the last
        /// region writes level.dat. Each runs the same command but for K.
        #[arg(long, value_parser = parse_shard, default_value = "1/1")]
        shard: minecraft::Shard,
        /// Land above Minecraft's standard top (y 319): `raise` keeps it whole in a
        /// world made taller by a data pack (vanilla servers, single player); `fit`
        /// brings it down smoothly under y 320 from --fold (Paper, and any server that
        /// takes no data pack).
        #[arg(long, value_enum, default_value = "raise")]
        height: Height,
        /// With --height fit: the highest Minecraft height that stays where it is.
        #[arg(long, default_value_t = 192, allow_negative_numbers = true)]
        fold: i32,
        /// The column a new player appears on, X,Z (inside the area); by default
        /// terravox's own spawn if the area holds it, else open land with a view near
        /// the area's middle, found by terravox's spawn rule.
        #[arg(long, value_parser = parse_xz, allow_hyphen_values = true)]
        spawn: Option<[i32; 2]>,
        /// The Minecraft release the server or game runs, 1.20.5 to 1.21.10: its data
        /// version, data pack format and spawn's form (later releases open the
        /// newest and upgrade it).
        #[arg(long = "minecraft", value_name = "VERSION", value_parser = parse_release,
              default_value = minecraft::release::NEWEST.name)]
        release: minecraft::release::Release,
        #[command(flatten)]
        common: Common,
    },
    /// A binary glTF (.glb) of a box of blocks: the game's meshes with one atlas
    /// texture, one unit a block, y up; for Blender and other 3D tools.
    Gltf {
        /// The box's first block, X,Y,Z.
        #[arg(long, value_parser = parse_xyz, allow_hyphen_values = true)]
        from: [i32; 3],
        /// The first block past the box, X,Y,Z (at most 1024 blocks a side).
        #[arg(long, value_parser = parse_xyz, allow_hyphen_values = true)]
        to: [i32; 3],
        /// The .glb file to write.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// A 16-bit greyscale PNG of surface heights (the range in its text chunks),
    /// and beside it a biome PNG (NAME.biomes.png), the water surface in the same
    /// encoding (NAME.water.png) and a river mask (NAME.rivers.png; version 5).
    Heightmap {
        #[command(flatten)]
        area: Columns,
        /// Also write RAW16 (little-endian, NAME.raw) for Unity and Unreal.
        #[arg(long)]
        raw: bool,
        /// The most columns a side of one image (at most 8192): a larger area is
        /// written as tiles NAME_xC_yR.png (column C, row R from the north-west, as
        /// Unreal's tiled landscape import reads them), all in one encoding.
        #[arg(long, default_value_t = heightmap::MAX_TILE)]
        tile: u32,
        #[command(flatten)]
        common: Common,
    },
}

/// Where land above Minecraft's standard top goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Height {
    /// A data pack raises the world's top.
    Raise,
    /// The land is brought down under it.
    Fit,
}

/// A rectangle of columns and where to write it (any size within Minecraft's world
/// border; a heightmap in tiles beyond 8192 columns a side).
#[derive(Args, Debug)]
pub(crate) struct Columns {
    /// The area's first column, X,Z.
    #[arg(long, value_parser = parse_xz, allow_hyphen_values = true)]
    from: [i32; 2],
    /// The first column past the area, X,Z.
    #[arg(long, value_parser = parse_xz, allow_hyphen_values = true)]
    to: [i32; 2],
    /// Where to write: the world folder (for Minecraft, e.g. in its `saves` folder)
    /// or the PNG file (heightmap).
    #[arg(long)]
    out: PathBuf,
}

/// What every format takes: the world, its edits, replacing.
#[derive(Args, Debug)]
pub(crate) struct Common {
    #[command(flatten)]
    world: WorldArgs,
    #[command(flatten)]
    edits: SavedEdits,
    /// Replace an existing export at --out.
    #[arg(long)]
    force: bool,
}

fn parse_xz(s: &str) -> Result<[i32; 2], String> {
    parse_numbers(s, "X,Z in whole blocks (for example -512,256)")
}

fn parse_shard(s: &str) -> Result<minecraft::Shard, String> {
    let bad = || format!("`{s}` is not K/N, shard K of N (for example 2/8)");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let number = |v: &str| v.trim().parse::<u32>().map_err(|_| bad());
    minecraft::Shard::new(number(k)?, number(n)?).map_err(|e| e.to_string())
}

fn parse_release(s: &str) -> Result<minecraft::release::Release, String> {
    minecraft::release::Release::named(s).map_err(|e| e.to_string())
}

fn parse_xyz(s: &str) -> Result<[i32; 3], String> {
    parse_numbers(s, "X,Y,Z in whole blocks (for example -256,0,128)")
}

/// Runs `terravox export FORMAT`.
pub(crate) fn run(command: ExportCommand) -> Result<(), String> {
    let started = Instant::now();
    let bar = Bar::new();
    match command {
        ExportCommand::Minecraft {
            area: columns,
            sea_level,
            shard,
            height,
            fold,
            spawn,
            release,
            common,
        } => {
            let area = Area::new(columns.from, columns.to, minecraft::MAX_SIDE)
                .map_err(|e| e.to_string())?;
            let fold = match height {
                Height::Fit => Some(minecraft::fold::Fold::new(fold).map_err(|e| e.to_string())?),
                Height::Raise => None,
            };
            let source = common.source()?;
            let options = minecraft::Options {
                sea_top: sea_level,
                force: common.force,
                shard,
                fold,
                spawn,
                release,
            };
            let r = minecraft::export(&source, area, &columns.out, &options, &bar)
                .map_err(|e| e.to_string())?;
            bar.done();
            if !say_minecraft(&r, &columns, &options) {
                return Ok(());
            }
        }
        ExportCommand::Gltf {
            from,
            to,
            out,
            common,
        } => {
            let volume = Volume::new(from, to, gltf::MAX_SIDE).map_err(|e| e.to_string())?;
            let source = common.source()?;
            let r = gltf::export(&source, volume, &out, common.force, &bar)
                .map_err(|e| e.to_string())?;
            bar.done();
            say!(
                "wrote {} ({:.1} MiB): terrain {} vertices, {} triangles; water {} vertices, \
                 {} triangles",
                r.path.display(),
                r.bytes as f64 / (1 << 20) as f64,
                r.vertices[0],
                r.triangles[0],
                r.vertices[1],
                r.triangles[1]
            );
            say!(
                "  one unit a block, y up, {from:?} at the origin; terrain bounds {:?}..{:?}",
                r.bounds.0,
                r.bounds.1
            );
        }
        ExportCommand::Heightmap {
            area: Columns { from, to, out },
            raw,
            tile,
            common,
        } => {
            let area = Area::new(from, to, heightmap::MAX_SIDE).map_err(|e| e.to_string())?;
            let source = common.source()?;
            let options = heightmap::Options {
                raw,
                force: common.force,
                tile,
            };
            let r = heightmap::export(&source, area, &out, &options, &bar)
                .map_err(|e| e.to_string())?;
            bar.done();
            say_heightmap(&r);
        }
    }
    say!(
        "  took {:.1} s, peak memory {}",
        started.elapsed().as_secs_f64(),
        peak_memory().map_or("unknown".into(), |kib| format!(
            "{:.0} MiB",
            kib as f64 / 1024.0
        ))
    );
    Ok(())
}

impl Common {
    /// The world and its saved edits (read only: a game playing it is not disturbed).
    fn source(&self) -> Result<Source, String> {
        self.edits.source(&self.world.resolve()?)
    }
}

/// What a Minecraft export (or its shard) did; false for a shard that left the world
/// to the others.
fn say_minecraft(r: &minecraft::Report, columns: &Columns, options: &minecraft::Options) -> bool {
    let Columns { from, to, out } = columns;
    let minecraft::Options {
        sea_top: sea_level,
        shard,
        fold,
        release,
        ..
    } = options;
    if r.resumed > 0 {
        say!(
            "resumed: {} already complete (checked whole)",
            region_files(r.resumed)
        );
    }
    if !r.finished {
        say!(
            "shard {}/{} done; {} of {} still to write (the other \
             shards: run the same command with their --shard; the one that \
             completes the last writes level.dat and moves the world to {})",
            shard.index,
            shard.count,
            r.regions_left,
            region_files(r.regions + r.regions_left),
            out.display()
        );
        if r.regions_left == 0 {
            say!(
                "  every region is written and another run is finishing the world; \
                 if none is, remove the claim {} and run again",
                r.work
                    .join(minecraft::job::JOB_DIR)
                    .join(minecraft::job::CLAIM)
                    .display()
            );
        }
        return false;
    }
    say!(
        "wrote the Minecraft {} world {} ({} chunks in {}, {:.1} MiB) \
         from {from:?} to {to:?}",
        release.name,
        r.path.display(),
        r.chunks,
        region_files(r.regions),
        r.bytes as f64 / (1 << 20) as f64
    );
    say!(
        "  heights: terravox y {:+} = Minecraft y (the sea's top block on {sea_level}); \
         the ground below y -64 is left out",
        r.shift
    );
    if let Some(f) = fold
        && r.folded_columns > 0
    {
        say!(
            "  the land above y {} is brought down under y {}: {} columns, the \
             highest from y {} to y {}",
            f.at(),
            minecraft::MAX_Y,
            r.folded_columns,
            r.land_top,
            f.down(r.land_top)
        );
    }
    if r.top > minecraft::MAX_Y {
        say!(
            "  the land rises above Minecraft's default top (y {}): the world is raised \
             to y {} by the data pack datapacks/{}",
            minecraft::MAX_Y - 1,
            r.top - 1,
            minecraft::datapack::NAME
        );
    }
    if r.cut_columns > 0 {
        say!(
            "  {} columns reach above y {} (Minecraft's limit) and are cut there (a \
             lower --sea-level makes room for them)",
            r.cut_columns,
            minecraft::HIGHEST_TOP - 1
        );
    }
    say!(
        "  spawn at {:?} ({}); creative mode, a void around the area",
        r.spawn,
        match r.spawn_from {
            minecraft::SpawnFrom::Chosen => "as asked",
            minecraft::SpawnFrom::Terravox => "terravox's spawn",
            minecraft::SpawnFrom::OpenLand =>
                "terravox's spawn is outside the area: open land near its middle",
            minecraft::SpawnFrom::Middle =>
                "terravox's spawn is outside the area, and no open land in it: its middle",
        }
    );
    true
}

/// What a heightmap export wrote, for the one who asked.
fn say_heightmap(r: &heightmap::Report) {
    let [w, h] = r.size;
    let range = format!(
        "value 0 is y {}, 65535 is y {} (linear; {} blocks from lowest to highest)",
        r.low,
        r.high,
        r.high - r.low
    );
    if let [one] = r.tiles.as_slice() {
        say!(
            "wrote {} ({w} x {h} px, 16-bit): {range}",
            one.png.display()
        );
        if let Some(raw) = &one.raw {
            say!(
                "  RAW16 (little-endian, {w} x {h}, rows along +z): {}",
                raw.display()
            );
        }
        say!("  biomes: {}", one.biomes.display());
        say!("  water surface: {}", one.water.display());
        say!("  river mask: {}", one.rivers.display());
        return;
    }
    let [first, .., last] = r.tiles.as_slice() else {
        return;
    };
    say!(
        "wrote {w} x {h} px in {} x {} tiles ({} to {}), each 16-bit with one encoding: {range}",
        r.grid[0],
        r.grid[1],
        first.png.display(),
        last.png.display()
    );
    say!(
        "  each tile's biomes, water surface and river mask beside it (NAME_xC_yR.biomes.png, \
         .water.png, .rivers.png{}); column C, row R from the north-west, {} columns a side",
        if first.raw.is_some() { ", .raw" } else { "" },
        first.tile.area.size()[0].max(first.tile.area.size()[1])
    );
}

/// Which of the player's edits a command lays over the generated world.
#[derive(Args, Debug)]
pub(crate) struct SavedEdits {
    /// The folder the game saves edits in (default: the platform's data folder); the
    /// world's edits (your builds and the water you set flowing) are read from it.
    #[arg(long, conflicts_with = "no_edits")]
    save_dir: Option<PathBuf>,
    /// The generated world alone, without the player's edits.
    #[arg(long)]
    no_edits: bool,
}

impl SavedEdits {
    /// World `cfg` with its saved edits (read only: a game playing it is not
    /// disturbed).
    pub(crate) fn source(&self, cfg: &terravox_worldgen::WorldConfig) -> Result<Source, String> {
        let generator = Generator::new(cfg).map_err(|e| e.to_string())?;
        let dir = match (&self.save_dir, self.no_edits) {
            (_, true) => None,
            (Some(d), false) => Some(SaveDir::new(d)),
            (None, false) => terravox_edits::default_save_dir().map(SaveDir::new),
        };
        let edits = match dir {
            Some(dir) => dir.load(cfg).map_err(|e| {
                format!(
                    "cannot read this world's saved edits: {e}; add --no-edits to leave them out"
                )
            })?,
            None => Edits::new(),
        };
        if !edits.is_empty() {
            say!("with the player's {} edited blocks", edits.len());
        }
        Ok(Source::new(generator, edits))
    }
}

/// A progress bar on the terminal (drawn only when stderr is one).
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Self {
        let bar = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} {wide_bar} {pos}/{len} {msg} ({per_sec}, {eta} left)",
        ) {
            bar.set_style(style);
        }
        Self(bar)
    }

    fn done(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, unit: &'static str) {
        self.0.set_length(total);
        self.0.set_message(unit);
    }

    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn stage(&self, what: &str) {
        self.0.set_message(format!("chunks, {what}"));
    }
}

/// This process's peak resident memory in KiB (Linux), for the export's figures.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `n` region files, in words ("1 region file", "4 region files").
fn region_files(n: u64) -> String {
    format!("{n} region file{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_region_file_is_said_in_the_singular() {
        assert_eq!(region_files(1), "1 region file");
        assert_eq!(region_files(0), "0 region files");
        assert_eq!(region_files(4), "4 region files");
    }
}
