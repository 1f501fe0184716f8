//! A Minecraft Java Edition world folder for a release from 1.20.5 to 1.21.10
//! ([`release`]: its data version, data pack format and spawn's form; later
//! releases upgrade it when they open it): `level.dat` and `region/r.X.Z.mca`
//! files of 1.18+ chunks, written with `fastnbt` (NBT by serde) and `fastanvil`
//! (region files).
//!
//! **Heights.** Minecraft's world runs from y -64 to 319. A terravox height `y`
//! becomes `y + shift` with `shift = sea_top - sea_level`: terravox's top water
//! block lands on `sea_top`, by default [`SEA_TOP`] (62, so the water's surface is
//! at 63, Minecraft's sea level). Where the land (with its trees and the player's
//! edits) reaches above 319, the export raises the world's top, as terrain mods do:
//! each chunk gets the 16-block sections its columns need, and a data pack
//! (`datapacks/terravox_height`, enabled in `level.dat`) gives the overworld the
//! height of the tallest ([`datapack`]), up to Minecraft's limit of 2031
//! ([`HIGHEST_TOP`]). Only land above that is cut (the export counts the columns),
//! and the ground below -64.
//!
//! **Borders.** Only the area's columns are written (the rest of each chunk on the
//! edge is air), and the overworld's generator is an empty superflat, so nothing
//! appears around the area when a player walks out of it.
//!
//! **Streaming.** The area is written one region file (512 x 512 columns) at a time,
//! its chunks built and compressed on all cores: memory stays bounded whatever
//! the area's size (any, up to Minecraft's world border).
//!
//! **Resuming and shards.** The region file is the unit of work ([`job`]): each is
//! written beside its place and renamed when complete, then marked done, in the
//! world's work folder (`.NAME.partial`, kept when an export stops). Running the
//! same export again skips the regions done (checked whole) and finishes the rest;
//! shards ([`Shard`]: `--shard K/N`) each write every N-th region into the same
//! folder, and whichever completes the last region writes `level.dat` (and the data
//! pack) and renames the world into place. A world without `level.dat` is never
//! mistaken for a finished one, and the bytes never depend on how the work was split
//! or resumed.

mod bounds;
mod chunk;
pub mod datapack;
pub mod fold;
pub mod job;
mod level;
pub mod names;
pub mod release;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use fastanvil::{CompressionScheme, Region};
use flate2::Compression;
use flate2::write::ZlibEncoder;
use rayon::prelude::*;
use terravox_voxel::{Block, CHUNK, Chunk, ChunkPos};
use terravox_worldgen::SPAWN_RADIUS;

use crate::area::Area;
use crate::error::ExportError;
use crate::progress::Progress;
use crate::source::Source;
use crate::target::Target;
pub use bounds::{HIGHEST_TOP, MAX_SIDE, MAX_Y, MIN_Y, SEA_TOP};
use chunk::Column;
use fold::Fold;
use job::{Job, Written, write_atomic};
use release::Release;

/// Room above a column's ground for its trees, in blocks.
const TREE_ROOM: i32 = 32;

/// Columns along a side of a Minecraft chunk and of a region.
const MC_CHUNK: i32 = 16;
const REGION: i32 = 32 * MC_CHUNK;

/// What an export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The world folder.
    pub path: PathBuf,
    /// Chunks written.
    pub chunks: u64,
    /// Region files written.
    pub regions: u64,
    /// Added to a terravox height to give Minecraft's.
    pub shift: i32,
    /// One above the world's highest block: [`MAX_Y`], or higher where the land
    /// needs it (the data pack then raises the overworld to it).
    pub top: i32,
    /// Columns whose land reaches above [`HIGHEST_TOP`] and is cut there.
    pub cut_columns: u64,
    /// Where a new player appears, in Minecraft's coordinates.
    pub spawn: [i32; 3],
    /// Where that spawn came from.
    pub spawn_from: SpawnFrom,
    /// Bytes written.
    pub bytes: u64,
    /// Columns whose land was brought down from above the fold (`--height fit`).
    pub folded_columns: u64,
    /// The highest land's Minecraft height before any fold (with trees and edits).
    pub land_top: i32,
    /// Region files this run found complete (an earlier run's, another shard's).
    pub resumed: u64,
    /// Region files not yet complete (another shard's to write): the world is
    /// finished when none are, by the run that completes the last.
    pub regions_left: u64,
    /// Whether this run finished the world (wrote `level.dat` and moved it in place).
    pub finished: bool,
    /// The folder the world is written in until finished.
    pub work: PathBuf,
}

/// How an export is written, besides its area and folder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Where terravox's sea level (its top water block) goes: within -63..=318;
    /// [`SEA_TOP`] (the default) is Minecraft's own.
    pub sea_top: i32,
    /// Replace an existing world (an empty folder or a Minecraft world only).
    pub force: bool,
    /// The regions this run writes.
    pub shard: Shard,
    /// Land above Minecraft's standard top: brought down under it from a fold
    /// ([`Fold`], `--height fit`), or, without one (the default), kept whole in a
    /// world raised by a data pack.
    pub fold: Option<Fold>,
    /// The column a new player appears on (`--spawn X,Z`, inside the area); without
    /// one, terravox's spawn or its spawn rule ([`SpawnFrom`]).
    pub spawn: Option<[i32; 2]>,
    /// The Minecraft release the world is written for (`--minecraft`); by default
    /// the newest terravox knows, [`release::NEWEST`].
    pub release: Release,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sea_top: SEA_TOP,
            force: false,
            shard: Shard::ALL,
            fold: None,
            spawn: None,
            release: release::NEWEST,
        }
    }
}

/// Which regions a run writes: shard `index` of `count` (1-based) writes every
/// `count`-th region of the area, in rows from its first, starting at the
/// `index`-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u32,
    /// Of how many.
    pub count: u32,
}

impl Shard {
    /// The whole export in one run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`; refused unless `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ExportError> {
        if !(1..=count).contains(&index) {
            return Err(ExportError::Area(format!(
                "--shard {index}/{count}: expected K/N with 1 <= K <= N"
            )));
        }
        Ok(Shard { index, count })
    }

    /// Whether the `i`-th region of the area (in rows) is this shard's.
    fn takes(self, i: u64) -> bool {
        i % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// Writes the Minecraft world of `area` of `source` to the folder `out` (refused if
/// it exists and is not empty, unless `options.force` and it is an empty folder or a
/// Minecraft world), as `options` say: the shard's regions only, resuming the work
/// of an earlier run of the same export (see the module docs). `area` is at most
/// [`MAX_SIDE`] columns a side ([`Area::new`] checks it).
pub fn export(
    source: &Source,
    area: Area,
    out: &Path,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Report, ExportError> {
    check(&area, options)?;
    let Options {
        sea_top,
        force,
        shard,
        fold,
        release,
        ..
    } = *options;
    let target = Target::resumable(out, force)?;
    let job = Job::open(target.partial(), &what(source, &area, options))?;
    let shift = sea_top - source.generator().sea_level();
    let reach = reach(source, shift, fold);
    let layout = Layout::of(&area);
    let mine = layout.regions().filter(|&(i, _)| shard.takes(i));
    progress.start(
        mine.clone().map(|(_, r)| layout.in_region(r)).sum(),
        "chunks",
    );
    let total = mine.clone().count();
    let mut report = Report {
        path: target.path().to_path_buf(),
        chunks: 0,
        regions: 0,
        shift,
        top: MAX_Y,
        cut_columns: 0,
        spawn: [0; 3],
        spawn_from: SpawnFrom::Middle,
        bytes: 0,
        folded_columns: 0,
        land_top: MIN_Y,
        resumed: 0,
        regions_left: 0,
        finished: false,
        work: target.partial().to_path_buf(),
    };
    for (k, (_, r)) in mine.enumerate() {
        progress.stage(&format!("region file {} of {total}", k + 1));
        if job.done(r, true).is_some() {
            progress.advance(layout.in_region(r));
            report.resumed += 1;
            continue;
        }
        let form = Form {
            shift,
            reach,
            fold,
            data_version: release.data_version,
        };
        let written = write_region(source, &area, r, form, &job, progress)?;
        job.mark_done(r, written)?;
    }
    // The world's figures, from every region's mark: the same however the work was
    // split.
    for (_, r) in layout.regions() {
        match job.done(r, false) {
            Some(w) => report.add(&w),
            None => report.regions_left += 1,
        }
    }
    if report.regions_left > 0 || !job.claim_finish()? {
        return Ok(report);
    }
    finish(source, &area, options, target, &mut report)?;
    Ok(report)
}

/// The area and options an export can take, else why not.
fn check(area: &Area, options: &Options) -> Result<(), ExportError> {
    let Options {
        sea_top,
        fold,
        spawn: chosen,
        ..
    } = *options;
    if area.size().iter().any(|&s| s > MAX_SIDE) {
        return Err(ExportError::Area(format!(
            "a Minecraft export takes at most {MAX_SIDE} columns a side; {:?} is {:?}",
            area,
            area.size()
        )));
    }
    if let Some([x, z]) = chosen
        && !area.contains(x, z)
    {
        return Err(ExportError::Area(format!(
            "--spawn {x},{z} lies outside the area {:?}..{:?}",
            area.from, area.to
        )));
    }
    if let Some(f) = fold
        && f.at() <= sea_top
    {
        return Err(ExportError::Area(format!(
            "--fold {} is at or below the sea (on {sea_top}): the fold must lie above it",
            f.at()
        )));
    }
    if !(MIN_Y + 1..MAX_Y - 1).contains(&sea_top) {
        return Err(ExportError::Area(format!(
            "--sea-level {sea_top} is out of range: within {}..={} (Minecraft's heights \
             are {MIN_Y}..{MAX_Y})",
            MIN_Y + 1,
            MAX_Y - 2
        )));
    }
    Ok(())
}

/// How far up the chunks are read, in Minecraft's heights (terravox's shifted by
/// `shift`): as high as this world's land, trees and edits can reach (chunks above
/// the land cost little to generate), within Minecraft's limits; each chunk then
/// keeps the sections its blocks use. Folded, the land fits the standard height;
/// raised, up to Minecraft's limit.
fn reach(source: &Source, shift: i32, fold: Option<Fold>) -> i32 {
    let reach = source
        .highest_possible()
        .saturating_add(shift + TREE_ROOM + 1)
        .max(MAX_Y);
    match fold {
        Some(_) => reach,
        None => reach.min(HIGHEST_TOP),
    }
}

/// The Minecraft chunks and region files an area's columns lie in.
struct Layout {
    /// The chunks along x and along z.
    chunks: [std::ops::RangeInclusive<i32>; 2],
    /// The region files along x and along z.
    regions: [std::ops::RangeInclusive<i32>; 2],
}

impl Layout {
    fn of(area: &Area) -> Self {
        let chunks = |axis: usize| {
            area.from[axis].div_euclid(MC_CHUNK)..=(area.to[axis] - 1).div_euclid(MC_CHUNK)
        };
        let chunks = [chunks(0), chunks(1)];
        let regions = chunks.clone().map(|c| c.start() >> 5..=c.end() >> 5);
        Layout { chunks, regions }
    }

    /// Every region file, row by row, numbered.
    fn regions(&self) -> impl Iterator<Item = (u64, [i32; 2])> + Clone + '_ {
        let [rxs, rzs] = &self.regions;
        rzs.clone()
            .flat_map(move |rz| rxs.clone().map(move |rx| [rx, rz]))
            .enumerate()
            .map(|(i, r)| (i as u64, r))
    }

    /// A region's Minecraft chunks holding columns of the area.
    fn in_region(&self, [rx, rz]: [i32; 2]) -> u64 {
        let along = |c: &std::ops::RangeInclusive<i32>, r: i32| {
            (c.end().min(&(r * 32 + 31)) - c.start().max(&(r * 32)) + 1) as u64
        };
        along(&self.chunks[0], rx) * along(&self.chunks[1], rz)
    }
}

impl Report {
    /// Counts a written region in.
    fn add(&mut self, w: &Written) {
        self.chunks += w.chunks;
        self.cut_columns += w.cut_columns;
        self.top = self.top.max(w.top);
        self.bytes += w.bytes;
        self.folded_columns += w.folded_columns;
        self.land_top = self.land_top.max(w.land_top);
        self.regions += 1;
    }
}

/// Makes the world whole once every region is written: the spawn, `level.dat`, the
/// data pack of a raised world, and the world moved to its place.
fn finish(
    source: &Source,
    area: &Area,
    options: &Options,
    target: Target,
    report: &mut Report,
) -> Result<(), ExportError> {
    let Options {
        fold,
        spawn: chosen,
        release,
        ..
    } = *options;
    let shift = report.shift;
    let (spawn, from) = spawn(source, area, chosen);
    // The feet stand on the ground's block, wherever a fold put it.
    let feet = fold.map_or(spawn[1] + shift, |f| f.down(spawn[1] + shift - 1) + 1);
    report.spawn = [spawn[0], feet.clamp(MIN_Y + 1, report.top - 2), spawn[2]];
    report.spawn_from = from;
    let config = source.generator().config();
    let level = level::Level {
        name: format!(
            "terravox {} world, seed {}",
            config.generator_name(),
            config.seed.text()
        ),
        seed: config.seed.value() as i64,
        spawn: report.spawn,
        raised: report.top > MAX_Y,
        release,
    };
    if report.top > MAX_Y {
        report.bytes += datapack::write_pack(target.partial(), report.top, &release)?;
    }
    let bytes = level.to_bytes().map_err(ExportError::encode("level.dat"))?;
    write_atomic(&target.partial().join("level.dat"), &bytes)?;
    report.bytes += bytes.len() as u64;
    let world = target.finish()?;
    job::forget(&world)?;
    report.finished = true;
    Ok(())
}

/// What an export is, as its work folder records it: a run of another export there
/// is refused.
fn what(source: &Source, area: &Area, options: &Options) -> String {
    format!(
        "terravox Minecraft export: area {:?}..{:?}, sea on {}, fold {:?}, spawn {:?}, {} shards, Minecraft {}, edits {:016x}, world {}\n",
        area.from,
        area.to,
        options.sea_top,
        options.fold.map(|f| f.at()),
        options.spawn,
        options.shard.count,
        options.release.name,
        source.edits_fingerprint(),
        source.generator().config().to_world_code()
    )
}

/// Where a new player's spawn came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnFrom {
    /// The column asked for ([`Options::spawn`]).
    Chosen,
    /// terravox's own spawn, inside the area.
    Terravox,
    /// The open land nearest the area's middle
    /// ([`terravox_worldgen::Generator::find_land`]), inside the area.
    OpenLand,
    /// The area's middle, on its ground (no open land found inside the area).
    Middle,
}

/// Where a new player appears (feet, terravox's heights): on the ground of the
/// column asked for (inside the area: [`export`] checks it); else terravox's spawn
/// where it lies inside the area; else the open land nearest the area's middle
/// ([`Generator::find_land`](terravox_worldgen::Generator::find_land)) where that is
/// inside it; else the ground in the area's middle.
fn spawn(source: &Source, area: &Area, chosen: Option<[i32; 2]>) -> ([i32; 3], SpawnFrom) {
    let g = source.generator();
    let on_ground = |x: i32, z: i32| [x, source.surface_height(x, z).max(g.sea_level()) + 1, z];
    if let Some([x, z]) = chosen {
        return (on_ground(x, z), SpawnFrom::Chosen);
    }
    let inside = |at: &[i32; 3]| area.contains(at[0], at[2]);
    if let Some(at) = g
        .spawn(&terravox_worldgen::sequential)
        .map(|s| s.at)
        .filter(inside)
    {
        return (at, SpawnFrom::Terravox);
    }
    let x = area.from[0] + (area.to[0] - area.from[0]) / 2;
    let z = area.from[1] + (area.to[1] - area.from[1]) / 2;
    let half = area.size()[0].min(area.size()[1]) as i32 / 2;
    match g.find_land(x, z, half.min(SPAWN_RADIUS)).filter(inside) {
        Some(at) => (at, SpawnFrom::OpenLand),
        None => (on_ground(x, z), SpawnFrom::Middle),
    }
}

/// Builds, compresses (on all cores) and writes the chunks of region `r` that hold
/// columns of `area`: into a file beside its place (a stale one of an earlier run
/// replaced), renamed into place once complete and flushed.
fn write_region(
    source: &Source,
    area: &Area,
    [rx, rz]: [i32; 2],
    form: Form,
    job: &Job,
    progress: &dyn Progress,
) -> Result<Written, ExportError> {
    // The terravox chunk columns (32 x 32) of the region inside the area: each holds
    // 2 x 2 Minecraft chunks of this region.
    let lo = |axis: usize, r: i32| (r * REGION).max(area.from[axis]).div_euclid(CHUNK);
    let hi = |axis: usize, r: i32| (((r + 1) * REGION).min(area.to[axis]) - 1).div_euclid(CHUNK);
    let columns: Vec<[i32; 2]> = (lo(1, rz)..=hi(1, rz))
        .flat_map(|tz| (lo(0, rx)..=hi(0, rx)).map(move |tx| [tx, tz]))
        .collect();
    let built: Vec<Built> = columns
        .par_iter()
        .map(|&col| {
            let out = tv_column(source, area, col, form);
            progress.advance(out.as_ref().map_or(0, |o| o.chunks.len() as u64));
            out
        })
        .collect::<Result<_, _>>()?;

    let place = job.region_file([rx, rz]);
    let path = place.with_extension("mca.part");
    let file = fs::File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .map_err(ExportError::io(&path))?;
    let anvil = |e: fastanvil::Error| ExportError::Encode {
        what: "a region file",
        message: e.to_string(),
    };
    let mut region = Region::create(file).map_err(anvil)?;
    let mut written = Written {
        chunks: 0,
        top: MAX_Y,
        cut_columns: 0,
        bytes: 0,
        folded_columns: 0,
        land_top: MIN_Y,
    };
    for built in built {
        written.cut_columns += built.cut_columns;
        written.folded_columns += built.folded_columns;
        written.land_top = written.land_top.max(built.land_top);
        written.top = written.top.max(built.top);
        for ([cx, cz], bytes) in built.chunks {
            let (x, z) = (cx.rem_euclid(32) as usize, cz.rem_euclid(32) as usize);
            region
                .write_compressed_chunk(x, z, CompressionScheme::Zlib, &bytes)
                .map_err(anvil)?;
            written.chunks += 1;
        }
    }
    let file = region.into_inner().map_err(ExportError::io(&path))?;
    file.sync_all().map_err(ExportError::io(&path))?;
    written.bytes = file.metadata().map_err(ExportError::io(&path))?.len();
    fs::rename(&path, &place).map_err(ExportError::io(&place))?;
    Ok(written)
}

/// How the chunks are written: where terravox's heights go in Minecraft, and for
/// which release.
#[derive(Clone, Copy, Debug)]
struct Form {
    /// Added to a terravox height to give Minecraft's.
    shift: i32,
    /// One above the highest Minecraft height the chunks are read to.
    reach: i32,
    /// Where land above the standard top is brought down from, if it is.
    fold: Option<Fold>,
    /// The release's data version, in every chunk.
    data_version: i32,
}

/// Minecraft chunks: each one's position and zlib-compressed NBT.
type Compressed = Vec<([i32; 2], Vec<u8>)>;

/// The Minecraft chunks of one terravox chunk column.
struct Built {
    chunks: Compressed,
    /// One above their highest section.
    top: i32,
    /// Columns of the area whose land reaches above [`HIGHEST_TOP`].
    cut_columns: u64,
    /// Columns of the area whose land was brought down from above a fold.
    folded_columns: u64,
    /// The highest Minecraft height of a block that is not air, before any fold.
    land_top: i32,
}

/// Lays the water Minecraft would let flow from terravox's waterfalls, as it would
/// settle, over rows `rows` (above the sea, counted from [`MIN_Y`]) of the columns
/// of `column` that are `inside` the area: air beside terravox water (`water_beside`
/// of a column and row) becomes water flowing from it (`level` 1), and the air below
/// that, down to the first block that is not air, falling water (`level` 8). So a
/// waterfall is drawn as falling water, and Minecraft finds the water it would make
/// already there.
fn pour(
    column: &mut Column,
    rows: std::ops::RangeInclusive<i32>,
    inside: &dyn Fn(i32, i32) -> bool,
    water_beside: impl Fn(i32, i32, i32) -> bool,
) {
    for z in 0..MC_CHUNK {
        for x in 0..MC_CHUNK {
            if !inside(x, z) {
                continue;
            }
            let mut falling = false;
            for row in rows.clone().rev() {
                let (ux, uy, uz) = (x as usize, row as usize, z as usize);
                if column.get(ux, uy, uz) != Block::Air {
                    falling = false;
                } else if falling {
                    column.set(ux, uy, uz, Block::FallingWater);
                } else if water_beside(x, row, z) {
                    column.set(ux, uy, uz, Block::FlowingWater1);
                    falling = true;
                }
            }
        }
    }
}

/// One above `highest` (a block's height counted from [`MIN_Y`], if any) in whole
/// sections, at least [`MAX_Y`].
fn sections_for(highest: Option<i32>) -> usize {
    let blocks = highest.map_or(0, |h| h + 1).max(MAX_Y - MIN_Y);
    (blocks as usize).div_ceil(16)
}

/// The Minecraft chunks of terravox chunk column `[tx, tz]` that hold columns of
/// `area`, read up to Minecraft height `form.reach` (folded, if `form.fold`
/// says so); how high they reach and how many of its columns are cut at the top.
fn tv_column(
    source: &Source,
    area: &Area,
    [tx, tz]: [i32; 2],
    form: Form,
) -> Result<Built, ExportError> {
    let low = (MIN_Y - form.shift).div_euclid(CHUNK);
    let high = (form.reach - 1 - form.shift).div_euclid(CHUNK);
    let chunks = TvChunks {
        low,
        chunks: (low..=high)
            .map(|ty| source.chunk(ChunkPos::new(tx, ty, tz)))
            .collect(),
    };
    let sea = source.generator().sea_level();
    let wet_top = chunks.wet_top(sea);
    let mut built = Built {
        chunks: Vec::with_capacity(4),
        top: MAX_Y,
        cut_columns: 0,
        folded_columns: 0,
        land_top: i32::MIN,
    };
    for (i, j) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let pos = [tx * 2 + i, tz * 2 + j];
        let (x0, z0) = (pos[0] * MC_CHUNK, pos[1] * MC_CHUNK);
        let inside = |x: i32, z: i32| area.contains(x0 + x, z0 + z);
        if !(0..MC_CHUNK).any(|z| (0..MC_CHUNK).any(|x| inside(x, z))) {
            continue;
        }
        let mut column = Column::new(pos, ((form.top() - MIN_Y) / 16) as usize);
        let laid = chunks.lay(&mut column, [i, j], form, &inside);
        built.land_top = built.land_top.max(laid.land_top);
        built.folded_columns += laid.folded;
        if let Some(wet) = wet_top {
            let wet_rows = sea + form.shift - MIN_Y + 1
                ..=form.row(wet + form.shift).min(form.top() - MIN_Y - 1);
            chunks.pour_beside(&mut column, [i, j], form, wet_rows, &inside);
        }
        if form.top() == HIGHEST_TOP {
            built.cut_columns += cut_at_the_limit(&column);
        }
        let sections = sections_for(laid.highest);
        column.keep_sections(sections);
        built.top = built.top.max(MIN_Y + 16 * sections as i32);
        for (cj, row) in column.biomes.iter_mut().enumerate() {
            for (ci, cell) in row.iter_mut().enumerate() {
                *cell = source.biome_at(x0 + ci as i32 * 4 + 2, z0 + cj as i32 * 4 + 2);
            }
        }
        built
            .chunks
            .push((pos, compressed(&column, form.data_version)?));
    }
    Ok(built)
}

/// How terravox's heights land on the rows of a Minecraft column.
impl Form {
    /// The world's top: the standard one when folded, else as high as it reads.
    fn top(&self) -> i32 {
        if self.fold.is_some() {
            MAX_Y
        } else {
            self.reach
        }
    }

    /// The row (counted from [`MIN_Y`]) Minecraft height `y` lands on.
    fn row(&self, y: i32) -> i32 {
        self.fold.map_or(y, |f| f.down(y)) - MIN_Y
    }

    /// The Minecraft heights read whose blocks land on row `r` (the top row takes
    /// every height above it: only those read count).
    fn sources(&self, r: i32) -> std::ops::RangeInclusive<i32> {
        let s = self
            .fold
            .map_or(r + MIN_Y..=r + MIN_Y, |f| f.sources(r + MIN_Y));
        *s.start()..=(*s.end()).min(self.reach - 1)
    }
}

/// What [`TvChunks::lay`] laid in one Minecraft chunk.
struct Laid {
    /// The highest row with a block that is not air.
    highest: Option<i32>,
    /// The highest Minecraft height of a block that is not air, before any fold.
    land_top: i32,
    /// Columns with land brought down from above the fold.
    folded: u64,
}

/// A column of terravox chunks, bottom up, from chunk height `low`.
struct TvChunks {
    low: i32,
    chunks: Vec<Chunk>,
}

impl TvChunks {
    /// Each chunk with its height.
    fn iter(&self) -> impl DoubleEndedIterator<Item = (i32, &Chunk)> {
        let high = self.low + self.chunks.len() as i32;
        (self.low..high).zip(&self.chunks)
    }

    /// The block at chunk-local `lx`, `lz` (padding included) and world height `y`.
    fn get(&self, lx: i32, y: i32, lz: i32) -> Option<Block> {
        let ty = y.div_euclid(CHUNK);
        let c = self.chunks.get(usize::try_from(ty - self.low).ok()?)?;
        Some(c.get(lx, y - ty * CHUNK, lz))
    }

    /// The highest water above the sea in these chunks (their padding included):
    /// where it stands beside air, Minecraft's flowing water is laid ([`pour`]).
    fn wet_top(&self, sea: i32) -> Option<i32> {
        self.iter()
            .rev()
            .filter(|(ty, _)| (ty + 1) * CHUNK > sea)
            .find_map(|(ty, c)| {
                let above_sea = ty * CHUNK - 1 > sea;
                match c {
                    Chunk::Uniform(Block::Water) => Some(ty * CHUNK + CHUNK),
                    Chunk::Uniform(_) => None,
                    // Most chunks above the sea hold no water at all: one pass says so.
                    Chunk::Dense(b) if above_sea && !b.contains(&Block::Water) => None,
                    Chunk::Dense(_) => (-1..=CHUNK)
                        .rev()
                        .find(|&ly| {
                            ty * CHUNK + ly > sea
                                && (-1..=CHUNK)
                                    .any(|z| (-1..=CHUNK).any(|x| c.get(x, ly, z) == Block::Water))
                        })
                        .map(|ly| ty * CHUNK + ly),
                }
            })
    }

    /// Lays the blocks of Minecraft chunk `[i, j]` of these chunks (its columns
    /// `inside` the area) in `column`. Folded, a row takes the highest block that
    /// is not air of the heights landing on it (so a surface keeps its top block).
    fn lay(
        &self,
        column: &mut Column,
        [i, j]: [i32; 2],
        form: Form,
        inside: &dyn Fn(i32, i32) -> bool,
    ) -> Laid {
        let mut laid = Laid {
            highest: None,
            land_top: i32::MIN,
            folded: 0,
        };
        // The columns with land above the fold.
        let mut fold_seen = [[false; 16]; 16];
        for (ty, chunk) in self.iter() {
            if matches!(chunk, Chunk::Uniform(Block::Air)) {
                continue;
            }
            for ly in 0..CHUNK {
                let here = ty * CHUNK + ly + form.shift;
                let y = form.row(here);
                if !(0..form.top() - MIN_Y).contains(&y) {
                    continue;
                }
                let above_fold = form.fold.is_some_and(|f| here > f.at());
                for z in 0..MC_CHUNK {
                    for x in (0..MC_CHUNK).filter(|&x| inside(x, z)) {
                        let b = chunk.get(i * MC_CHUNK + x, ly, j * MC_CHUNK + z);
                        if above_fold && b.is_air() {
                            continue;
                        }
                        column.set(x as usize, y as usize, z as usize, b);
                        if !b.is_air() {
                            laid.highest = laid.highest.max(Some(y));
                            laid.land_top = laid.land_top.max(here);
                            if above_fold && !fold_seen[z as usize][x as usize] {
                                fold_seen[z as usize][x as usize] = true;
                                laid.folded += 1;
                            }
                        }
                    }
                }
            }
        }
        laid
    }

    /// Pours Minecraft's flowing water ([`pour`]) over rows `wet_rows` of Minecraft
    /// chunk `[i, j]` where terravox's water stands beside air.
    fn pour_beside(
        &self,
        column: &mut Column,
        [i, j]: [i32; 2],
        form: Form,
        wet_rows: std::ops::RangeInclusive<i32>,
        inside: &dyn Fn(i32, i32) -> bool,
    ) {
        // Each row's heights, once (folded, an inverse of the curve each).
        let heights: Vec<_> = wet_rows.clone().map(|r| form.sources(r)).collect();
        let water_beside = |x: i32, row: i32, z: i32| {
            let here = heights[(row - wet_rows.start()) as usize].clone();
            [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|&(dx, dz)| {
                let (nx, nz) = (x + dx, z + dz);
                let (lx, lz) = (i * MC_CHUNK + nx, j * MC_CHUNK + nz);
                inside(nx, nz)
                    && here
                        .clone()
                        .any(|y| self.get(lx, y - form.shift, lz) == Some(Block::Water))
            })
        };
        pour(column, wet_rows.clone(), inside, water_beside);
    }
}

/// The columns whose land reaches Minecraft's limit, where it is cut.
fn cut_at_the_limit(column: &Column) -> u64 {
    let row = (HIGHEST_TOP - MIN_Y - 1) as usize;
    (0..16)
        .flat_map(|z| (0..16).map(move |x| (x, z)))
        .filter(|&(x, z)| !column.get(x, row, z).is_air())
        .count() as u64
}

/// A Minecraft chunk's NBT, zlib-compressed as region files hold it.
fn compressed(column: &Column, data_version: i32) -> Result<Vec<u8>, ExportError> {
    let nbt = column
        .to_nbt(data_version)
        .map_err(ExportError::encode("a chunk"))?;
    let mut z = ZlibEncoder::new(Vec::with_capacity(nbt.len() / 4), Compression::fast());
    z.write_all(&nbt)
        .and_then(|()| z.finish())
        .map_err(|e| ExportError::encode("a chunk")(e.to_string()))
}
