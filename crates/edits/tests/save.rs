//! Saving and loading edits: round trips, the same mesh after a reload, the binary
//! format, version-1 import, one save per world however it is spelled, damaged saves
//! moved aside, unreadable ones left alone, temporary files and rescue copies.

use std::fs;
use std::path::{Path, PathBuf};

use terravox_edits::fluid::Pending;
use terravox_edits::{
    Edits, LEGACY_VERSION, LoadError, MAX_SAVE_BYTES, SAVE_VERSION, SaveDir, SaveFile, world_key,
};
use terravox_mesher::{MeshBuffers, mesh_chunk};
use terravox_voxel::{Block, BlockPos, ChunkPos};
use terravox_worldgen::{Generator, GeneratorConfig, Seed, WorldConfig, presets};

/// A fresh, empty folder for one test.
/// Bytes of the water section of a save with no water pending.
const WATER: usize = 8 + 4 + 4 + 4;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("terravox-edits-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn world() -> WorldConfig {
    presets::builtin("cliffs").unwrap()
}

/// Files in a folder, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn edit_save_reload_gives_the_same_blocks_and_mesh() {
    let cfg = world();
    let generator = Generator::new(&cfg).unwrap();
    // Dig into the surface near the origin and build a little wall, crossing a
    // chunk border at negative coordinates.
    let top = generator.surface_height(-1, 0);
    let mut edits = Edits::new();
    for x in -3..3 {
        edits.set(BlockPos::new(x, top, 0), Block::Air);
        edits.set(BlockPos::new(x, top + 2, 1), Block::Brick);
    }
    let dir = SaveDir::new(temp_dir("roundtrip"));
    dir.save(&cfg, &edits).unwrap();
    let loaded = dir.load(&cfg).unwrap();
    assert_eq!(loaded, edits);
    assert_eq!(loaded.len(), 12);

    let chunks: Vec<ChunkPos> = edits.touched_chunks().into_iter().collect();
    assert!(chunks.len() >= 2, "the edits span a chunk border");
    let own = BlockPos::new(0, top, 0).to_chunk().0;
    assert!(chunks.contains(&own));
    let (mut a, mut b) = (MeshBuffers::default(), MeshBuffers::default());
    for c in chunks {
        let mut before = generator.generate(c);
        edits.apply(c, &mut before);
        let mut after = generator.generate(c);
        loaded.apply(c, &mut after);
        assert_eq!(before, after, "blocks of {c:?}");
        mesh_chunk(&before, &mut a);
        mesh_chunk(&after, &mut b);
        assert_eq!(a.opaque, b.opaque, "opaque mesh of {c:?}");
        assert_eq!(a.water, b.water, "water mesh of {c:?}");
        // The edits really changed the chunk (its padding at least).
        assert_ne!(before, generator.generate(c), "{c:?} unchanged");
    }
    // Removing surface blocks changes the mesh of the chunk that owns them.
    let (mut plain, mut edited) = (MeshBuffers::default(), MeshBuffers::default());
    mesh_chunk(&generator.generate(own), &mut plain);
    let mut blocks = generator.generate(own);
    loaded.apply(own, &mut blocks);
    mesh_chunk(&blocks, &mut edited);
    assert_ne!(plain.opaque, edited.opaque);
}

#[test]
fn the_save_is_versioned_binary_naming_its_world_with_three_bytes_an_edit() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("format"));
    let mut edits = Edits::new();
    for i in 0..1000 {
        edits.set(
            BlockPos::new(i % 40 - 5, 70 + i / 400, i / 40),
            Block::Planks,
        );
    }
    dir.save(&cfg, &edits).unwrap();
    let path = dir.path_for(&cfg);
    assert!(path.to_string_lossy().ends_with(".tvx"), "{path:?}");
    let bytes = fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"TVXEDITS");
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        SAVE_VERSION
    );
    let code = cfg.canonical().to_world_code();
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..16 + n], code.as_bytes());
    // Header, world, chunk table, 3 bytes per edit, the water (the next step, no
    // block due, none waiting), checksum.
    let chunks = edits.chunk_count();
    assert_eq!(bytes.len(), 16 + n + 4 + chunks * 16 + 1000 * 3 + WATER + 8);
    assert_eq!(dir.load(&cfg).unwrap(), edits);
    // No temporary file is left behind.
    assert_eq!(files(dir.dir()).len(), 1);
}

#[test]
fn every_block_is_saved_as_its_number_and_unknown_numbers_are_refused() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("numbers"));
    // One edit of every block, all in one chunk.
    let mut edits = Edits::new();
    for (i, &b) in Block::ALL.iter().enumerate() {
        edits.set(BlockPos::new(i as i32 % 32, 40, i as i32 / 32), b);
    }
    assert_eq!(edits.chunk_count(), 1);
    dir.save(&cfg, &edits).unwrap();
    let path = dir.path_for(&cfg);
    let bytes = fs::read(&path).unwrap();
    assert_eq!(dir.load(&cfg).unwrap(), edits);
    // The last 3-byte edits before the water and the checksum carry the numbers.
    let n = Block::ALL.len();
    let end = bytes.len() - 8 - WATER;
    let body = &bytes[end - n * 3..end];
    let mut numbers: Vec<u8> = body.chunks_exact(3).map(|e| e[2]).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (0..n as u8).collect::<Vec<_>>());
    assert_eq!(Block::Slate as u8, 30, "saved numbers never change");
    // A number past the last block, with a good checksum, is refused as damaged.
    let mut unknown = bytes[..bytes.len() - 8].to_vec();
    unknown[end - 1] = n as u8;
    let mut h = terravox_voxel::Fnv64::new();
    h.write(&unknown);
    unknown.extend_from_slice(&h.finish().to_le_bytes());
    fs::write(&path, &unknown).unwrap();
    let err = dir.load(&cfg).unwrap_err();
    assert!(err.is_damaged(), "{err}");
    let expected = format!("unknown block number {n}");
    assert!(err.to_string().contains(&expected), "{err}");
}

#[test]
fn water_pending_in_a_save_comes_back_as_it_was_and_version_2_saves_still_read() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("water"));
    let mut edits = Edits::new();
    edits.set(BlockPos::new(3, 40, 3), Block::FlowingWater4);
    edits.set(BlockPos::new(4, 40, 3), Block::FallingWater);
    let pending = Pending::from_parts(
        17,
        [
            (16, BlockPos::new(-5, 40, 9)),
            (17, BlockPos::new(3, 40, 3)),
            (17, BlockPos::new(4, 40, 3)),
        ],
        vec![BlockPos::new(3, 39, 3), BlockPos::new(-1, 39, 3)],
        [(BlockPos::new(90, 41, 0), ChunkPos::new(2, 1, 0))],
    );
    *edits.pending_mut() = pending.clone();
    dir.save(&cfg, &edits).unwrap();
    let loaded = dir.load(&cfg).unwrap();
    assert_eq!(loaded, edits);
    assert_eq!(loaded.pending(), &pending);
    assert_eq!(
        loaded.get(BlockPos::new(3, 40, 3)),
        Some(Block::FlowingWater4)
    );

    // The same edits as a version-2 file (no water section): read, nothing pending.
    let mut plain = edits.clone();
    *plain.pending_mut() = Pending::default();
    dir.save(&cfg, &plain).unwrap();
    let bytes = fs::read(dir.path_for(&cfg)).unwrap();
    let mut v2 = bytes[..bytes.len() - 8 - WATER].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    let mut h = terravox_voxel::Fnv64::new();
    h.write(&v2);
    v2.extend_from_slice(&h.finish().to_le_bytes());
    fs::write(dir.path_for(&cfg), &v2).unwrap();
    assert_eq!(dir.load(&cfg).unwrap(), plain);

    // A water section out of order is damage, not something to guess at.
    *edits.pending_mut() = pending;
    dir.save(&cfg, &edits).unwrap();
    let mut bytes = fs::read(dir.path_for(&cfg)).unwrap();
    let body = bytes.len() - 8;
    // The last due block's step (17) becomes 15, before the one ahead of it.
    let after = 4 + 2 * 12 + 4 + 24;
    let last = body - after - 20;
    bytes[last..last + 8].copy_from_slice(&15u64.to_le_bytes());
    let mut h = terravox_voxel::Fnv64::new();
    h.write(&bytes[..body]);
    bytes[body..].copy_from_slice(&h.finish().to_le_bytes());
    fs::write(dir.path_for(&cfg), &bytes).unwrap();
    let err = dir.load(&cfg).unwrap_err();
    assert!(
        err.is_damaged() && err.to_string().contains("out of order"),
        "{err}"
    );
}

#[test]
fn spellings_of_one_world_share_one_save() {
    let a = world().with_seed(Seed::new("42"));
    let b = world().with_seed(Seed::new(" 42"));
    let with_threshold = |t: f64| {
        let mut c = a.clone();
        let GeneratorConfig::Density(d) = &mut c.generator else {
            panic!("cliffs is a density world");
        };
        d.threshold = t;
        c
    };
    let (c, d) = (with_threshold(-0.0), with_threshold(0.0));
    let dir = SaveDir::new(temp_dir("spelling"));
    assert_eq!(dir.path_for(&a), dir.path_for(&b));
    assert_eq!(dir.path_for(&c), dir.path_for(&d));
    assert_eq!(world_key(&a), world_key(&c));
    let mut edits = Edits::new();
    edits.set(BlockPos::new(3, 50, 3), Block::Brick);
    dir.save(&b, &edits).unwrap();
    assert_eq!(dir.load(&a).unwrap(), edits);
    assert_eq!(dir.load(&c).unwrap(), edits);
    // Another seed is another world.
    assert_ne!(
        dir.path_for(&a),
        dir.path_for(&world().with_seed(Seed::new("43")))
    );
}

#[test]
fn a_version_1_save_is_imported_and_the_next_save_is_version_2() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("legacy"));
    let file = SaveFile {
        version: LEGACY_VERSION,
        world: cfg.clone(),
        edits: vec![(1, 60, 2, Block::Brick), (-40, 61, 7, Block::Air)],
    };
    let legacy = dir.legacy_path_for(&cfg);
    fs::write(&legacy, terravox_edits::save::to_ron(&file)).unwrap();
    let loaded = dir.load(&cfg).unwrap();
    assert_eq!(loaded.len(), 2);
    assert_eq!(loaded.get(BlockPos::new(-40, 61, 7)), Some(Block::Air));
    dir.save(&cfg, &loaded).unwrap();
    assert!(dir.path_for(&cfg).exists() && legacy.exists());
    assert_eq!(dir.load(&cfg).unwrap(), loaded);
    // Discarding deletes both.
    dir.delete(&cfg).unwrap();
    assert!(dir.load(&cfg).unwrap().is_empty());
    assert!(files(dir.dir()).is_empty());
}

#[test]
fn every_world_has_its_own_save() {
    let a = world();
    let b = a.clone().with_seed(terravox_worldgen::Seed::new("other"));
    let dir = SaveDir::new(temp_dir("perworld"));
    assert_ne!(dir.path_for(&a), dir.path_for(&b));
    let mut edits = Edits::new();
    edits.set(BlockPos::new(1, 2, 3), Block::Stone);
    dir.save(&a, &edits).unwrap();
    assert_eq!(dir.load(&a).unwrap(), edits);
    assert!(dir.load(&b).unwrap().is_empty());
    // A save renamed to another world's name is refused, not mixed in.
    fs::copy(dir.path_for(&a), dir.path_for(&b)).unwrap();
    assert!(matches!(dir.load(&b), Err(LoadError::OtherWorld { .. })));
    dir.delete(&a).unwrap();
    assert!(dir.load(&a).unwrap().is_empty());
}

#[test]
fn truncated_garbage_corrupted_and_wrong_version_saves_are_moved_aside() {
    let cfg = world();
    let mut edits = Edits::new();
    for i in 0..50 {
        edits.set(BlockPos::new(i, 60, -i), Block::Cobblestone);
    }
    let good = {
        let d = SaveDir::new(temp_dir("good"));
        d.save(&cfg, &edits).unwrap();
        fs::read(d.path_for(&cfg)).unwrap()
    };
    let mut corrupted = good.clone();
    let middle = corrupted.len() - 40;
    corrupted[middle] ^= 0x55;
    let mut version = good.clone();
    version[8..12].copy_from_slice(&(SAVE_VERSION + 1).to_le_bytes());
    let cases = [
        ("truncated", good[..good.len() / 2].to_vec(), "damaged"),
        (
            "garbage",
            b"\x01\x02not a save at all {{{".to_vec(),
            "damaged",
        ),
        ("corrupted", corrupted, "checksum"),
        (
            "version",
            version,
            &format!("save format version {}", SAVE_VERSION + 1),
        ),
    ];
    for (name, bytes, expected) in cases {
        let dir = SaveDir::new(temp_dir(name));
        let path = dir.path_for(&cfg);
        fs::write(&path, &bytes).unwrap();
        let err = dir.load(&cfg).unwrap_err();
        assert!(err.is_damaged(), "{name}: {err}");
        assert!(err.to_string().contains(expected), "{name}: {err}");
        let opened = dir.open(&cfg);
        assert!(opened.edits.is_empty() && !opened.keep_off, "{name}");
        let problem = opened.problem.expect("a message");
        assert!(
            problem.contains(expected) && problem.contains("moved"),
            "{name}: {problem}"
        );
        // Moved aside, byte for byte, and not overwritten by the next save.
        let moved = opened.moved_to.expect("moved aside");
        assert!(!path.exists(), "{name}");
        assert_eq!(fs::read(&moved).unwrap(), bytes, "{name}");
        dir.save(&cfg, &edits).unwrap();
        assert_eq!(fs::read(&moved).unwrap(), bytes, "{name}");
        assert_eq!(dir.load(&cfg).unwrap(), edits, "{name}");
        // A second unreadable save gets its own name (opened by a game that holds
        // the world, as the first one no longer does).
        drop(opened.lock);
        fs::write(&path, &bytes).unwrap();
        let again = dir.open(&cfg).moved_to.unwrap();
        assert_ne!(again, moved);
        // The two moved saves and the world's lock file.
        assert_eq!(files(dir.dir()).len(), 3, "{name}: {:?}", files(dir.dir()));
    }
}

#[test]
fn a_world_held_by_another_game_opens_read_only_and_its_save_is_left_alone() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("held"));
    let mut edits = Edits::new();
    edits.set(BlockPos::new(3, 4, 5), Block::Brick);
    dir.save(&cfg, &edits).unwrap();
    let first = dir.open(&cfg);
    assert!(first.lock.is_some() && !first.keep_off && first.problem.is_none());
    assert_eq!(first.edits, edits);
    let second = dir.open(&cfg);
    assert!(second.keep_off && second.lock.is_none());
    assert_eq!(second.edits, edits, "it shows the saved edits");
    let problem = second.problem.expect("a notice");
    assert!(
        problem.contains("open in another terravox")
            && problem.contains(&format!("process {}", std::process::id()))
            && problem.contains("read-only"),
        "{problem}"
    );
    // A damaged save is the holder's to deal with: not moved aside by the second.
    let path = dir.path_for(&cfg);
    fs::write(&path, b"garbage").unwrap();
    let third = dir.open(&cfg);
    assert!(third.keep_off && third.moved_to.is_none() && third.edits.is_empty());
    assert!(third.problem.unwrap().contains("could not be read"));
    assert_eq!(fs::read(&path).unwrap(), b"garbage");
    // Once the first game lets go, the world opens normally.
    drop(first);
    let fourth = dir.open(&cfg);
    assert!(fourth.lock.is_some() && fourth.moved_to.is_some());
}

#[test]
fn a_save_that_cannot_be_read_is_left_in_place_and_saving_stays_off() {
    let cfg = world();
    // A folder where the file should be: not a regular file.
    let dir = SaveDir::new(temp_dir("folder"));
    let path = dir.path_for(&cfg);
    fs::create_dir_all(path.join("inside")).unwrap();
    let opened = dir.open(&cfg);
    assert!(opened.keep_off && opened.moved_to.is_none());
    assert!(opened.problem.unwrap().contains("not a regular file"));
    assert!(path.join("inside").exists(), "left as it was");
    // Larger than the cap (a sparse file): refused without reading it.
    let dir = SaveDir::new(temp_dir("large"));
    let path = dir.path_for(&cfg);
    fs::File::create(&path)
        .unwrap()
        .set_len(MAX_SAVE_BYTES + 1)
        .unwrap();
    let err = dir.load(&cfg).unwrap_err();
    assert!(
        matches!(err, LoadError::TooLarge { .. }) && !err.is_damaged(),
        "{err}"
    );
    let opened = dir.open(&cfg);
    assert!(opened.keep_off && opened.moved_to.is_none());
    assert_eq!(fs::metadata(&path).unwrap().len(), MAX_SAVE_BYTES + 1);
}

#[test]
fn a_failed_save_leaves_no_temporary_file_and_stale_ones_are_cleaned() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("failed"));
    // The save's name is taken by a folder: the rename fails.
    fs::create_dir_all(dir.path_for(&cfg).join("x")).unwrap();
    let mut edits = Edits::new();
    edits.set(BlockPos::new(0, 0, 0), Block::Brick);
    assert!(dir.save(&cfg, &edits).is_err());
    let names = files(dir.dir());
    assert_eq!(names.len(), 1, "{names:?}");
    // A temporary file a killed process left an hour ago is removed on open; a fresh
    // one (a save under way in another game) is not.
    let dir = SaveDir::new(temp_dir("stale"));
    let base = dir.path_for(&cfg).to_string_lossy().into_owned();
    let (old, fresh) = (format!("{base}.tmp-1-0"), format!("{base}.tmp-2-0"));
    for p in [&old, &fresh] {
        fs::write(p, b"partial").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    dir.open(&cfg);
    assert!(!Path::new(&old).exists() && Path::new(&fresh).exists());
}

#[test]
fn rescue_copies_never_replace_a_file() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("rescue"));
    let mut edits = Edits::new();
    edits.set(BlockPos::new(9, 9, 9), Block::Snow);
    let a = dir.save_rescue(&cfg, &edits).unwrap();
    let b = dir.save_rescue(&cfg, &edits).unwrap();
    assert_ne!(a, b);
    assert!(a.to_string_lossy().contains(".rescue-"));
    let bytes = fs::read(&b).unwrap();
    assert_eq!(
        terravox_edits::save::decode(&b, &bytes, &cfg).unwrap(),
        edits
    );
}

#[test]
fn a_version_1_parse_error_names_line_and_column() {
    let cfg = world();
    let text = "(\n    version: 1,\n    world: oops,\n)";
    let err = terravox_edits::save::parse_ron(Path::new("x.ron"), text, &cfg).unwrap_err();
    assert!(err.to_string().contains("line 3, column"), "{err}");
}
