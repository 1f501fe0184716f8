//! Saving and loading edits: round trips, the same mesh after a reload, and
//! unreadable saves moved aside.

use std::fs;
use std::path::{Path, PathBuf};

use terravox_edits::{Edits, LoadError, SAVE_VERSION, SaveDir};
use terravox_mesher::{MeshBuffers, mesh_chunk};
use terravox_voxel::{Block, BlockPos, ChunkPos};
use terravox_worldgen::{Generator, WorldConfig, presets};

/// A fresh, empty folder for one test.
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
fn the_save_names_its_version_and_world_and_lists_edits() {
    let cfg = world();
    let dir = SaveDir::new(temp_dir("format"));
    let mut edits = Edits::new();
    edits.set(BlockPos::new(-5, 70, 9), Block::Planks);
    dir.save(&cfg, &edits).unwrap();
    let text = fs::read_to_string(dir.path_for(&cfg)).unwrap();
    assert!(text.contains(&format!("version: {SAVE_VERSION}")), "{text}");
    assert!(text.contains("(-5, 70, 9, Planks)"), "{text}");
    assert!(text.contains("seed:"), "{text}");
    // No temporary file is left behind.
    assert_eq!(files(dir.dir()).len(), 1);
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
fn truncated_garbage_and_wrong_version_saves_are_moved_aside() {
    let cfg = world();
    let mut edits = Edits::new();
    for i in 0..50 {
        edits.set(BlockPos::new(i, 60, -i), Block::Cobblestone);
    }
    let good = {
        let d = SaveDir::new(temp_dir("good"));
        d.save(&cfg, &edits).unwrap();
        fs::read_to_string(d.path_for(&cfg)).unwrap()
    };
    let cases = [
        ("truncated", good[..good.len() / 2].to_owned(), "damaged"),
        (
            "garbage",
            "\u{1}\u{2}not a save at all {{{".to_owned(),
            "damaged",
        ),
        (
            "version",
            good.replace(
                &format!("version: {SAVE_VERSION}"),
                &format!("version: {}", SAVE_VERSION + 1),
            ),
            "save format version 2",
        ),
    ];
    for (name, text, expected) in cases {
        let dir = SaveDir::new(temp_dir(name));
        let path = dir.path_for(&cfg);
        fs::write(&path, &text).unwrap();
        let err = dir.load(&cfg).unwrap_err().to_string();
        assert!(err.contains(expected), "{name}: {err}");
        let opened = dir.open(&cfg);
        assert!(opened.edits.is_empty(), "{name}");
        let problem = opened.problem.expect("a message");
        assert!(
            problem.contains(expected) && problem.contains("moved"),
            "{name}: {problem}"
        );
        // Moved aside, byte for byte, and not overwritten by the next save.
        let moved = opened.moved_to.expect("moved aside");
        assert!(!path.exists(), "{name}");
        assert_eq!(fs::read_to_string(&moved).unwrap(), text, "{name}");
        dir.save(&cfg, &edits).unwrap();
        assert_eq!(fs::read_to_string(&moved).unwrap(), text, "{name}");
        assert_eq!(dir.load(&cfg).unwrap(), edits, "{name}");
        // A second unreadable save gets its own name.
        fs::write(&path, &text).unwrap();
        let again = dir.open(&cfg).moved_to.unwrap();
        assert_ne!(again, moved);
        assert_eq!(files(dir.dir()).len(), 2, "{name}: {:?}", files(dir.dir()));
    }
}

#[test]
fn a_parse_error_names_line_and_column() {
    let cfg = world();
    let text = "(\n    version: 1,\n    world: oops,\n)";
    let err = terravox_edits::save::parse(Path::new("x.ron"), text, &cfg).unwrap_err();
    match err {
        LoadError::Damaged { line, .. } => assert_eq!(line, 3),
        other => panic!("{other}"),
    }
}
