//! The glTF export read back with the `gltf` crate's importer (as a viewer or
//! Blender reads it): counts, bounds and the faces it must hold.

mod common;

use std::fs;

use terravox_edits::Edits;
use terravox_export::gltf as glb;
use terravox_export::{Source, Volume};
use terravox_mesher::Face;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

#[test]
fn the_glb_holds_every_visible_face_of_the_box() {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let (x, z) = (7, 4);
    let top = g.surface_height(x, z);
    let mut edits = Edits::new();
    for y in top + 1..=top + 20 {
        edits.set(BlockPos::new(x, y, z), Block::Brick);
    }
    let source = Source::new(g, edits);
    let (from, to) = ([-20, top - 24, -14], [36, top + 30, 30]);
    let volume = Volume::new(from, to, glb::MAX_SIDE).unwrap();
    let out = common::scratch("gltf-faces").join("box.glb");
    let report = glb::export(&source, volume, &out, false, &()).unwrap();

    let bytes = fs::read(&out).unwrap();
    let doc = ::gltf::Gltf::from_slice(&bytes).expect("the gltf crate reads and validates it");
    let blob = doc.blob.as_deref().expect("a binary chunk");
    let images: Vec<_> = doc.images().collect();
    assert_eq!(images.len(), 1, "one atlas");
    let ::gltf::image::Source::View { view, mime_type } = images[0].source() else {
        panic!("the atlas is embedded");
    };
    assert_eq!(mime_type, "image/png");
    let png = &blob[view.offset()..view.offset() + view.length()];
    let info = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    assert_eq!([info.info().width, info.info().height], [128, 128]);
    let prim = primitive(&doc, "terrain");
    let reader = prim.reader(|_| Some(blob));
    let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
    let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
    let uvs: Vec<[f32; 2]> = reader.read_tex_coords(0).unwrap().into_f32().collect();
    assert_eq!(positions.len() as u64, report.vertices[0]);
    assert_eq!(indices.len() as u64, report.triangles[0] * 3);
    assert_eq!(uvs.len(), positions.len());
    assert!(indices.iter().all(|&i| (i as usize) < positions.len()));
    assert!(uvs.iter().flatten().all(|v| (0.0..=1.0).contains(v)));
    let size = [0, 1, 2].map(|i| (to[i] - from[i]) as f32);
    for p in &positions {
        assert!(
            (0..3).all(|i| (0.0..=size[i]).contains(&p[i])),
            "{p:?} outside the box"
        );
    }
    // The tower's top face is the highest point, at its block's top.
    let highest = positions.iter().map(|p| p[1]).fold(f32::MIN, f32::max);
    assert_eq!(highest, (top + 21 - from[1]) as f32);
    let bb = prim.bounding_box();
    assert_eq!(bb.max[1], highest, "the accessor's bounds");

    // Every face between an opaque block and a non-opaque one (or the box's side) is
    // one unit quad: four vertices.
    let faces = visible_faces(&source, from, to, Block::is_opaque);
    assert!(faces > 1000, "{faces}");
    assert_eq!(positions.len(), faces * 4, "one unit quad per visible face");
}

/// The one primitive of the glb's mesh whose name starts with `name`.
fn primitive<'a>(doc: &'a ::gltf::Gltf, name: &str) -> ::gltf::Primitive<'a> {
    let mesh = doc
        .meshes()
        .find(|m| m.name().is_some_and(|n| n.starts_with(name)))
        .unwrap_or_else(|| panic!("a {name} mesh"));
    mesh.primitives().next().expect("a primitive")
}

/// The faces of the blocks `kind` picks in the box `from..to` of `source` that
/// border a block neither `kind` nor opaque (or the box's side).
fn visible_faces(source: &Source, from: [i32; 3], to: [i32; 3], kind: fn(Block) -> bool) -> usize {
    let mut blocks = common::Blocks::new(source);
    let mut at = |p: [i32; 3]| {
        (0..3)
            .all(|i| (from[i]..to[i]).contains(&p[i]))
            .then(|| blocks.get(p))
    };
    let mut faces = 0;
    for y in from[1]..to[1] {
        for z in from[2]..to[2] {
            for x in from[0]..to[0] {
                if !at([x, y, z]).is_some_and(kind) {
                    continue;
                }
                for d in Face::ALL.map(Face::normal) {
                    let beside = at([x + d[0], y + d[1], z + d[2]]);
                    if !beside.is_some_and(|b| kind(b) || b.is_opaque()) {
                        faces += 1;
                    }
                }
            }
        }
    }
    faces
}

/// The glb's `water` mesh carries the rivers and lakes above the sea: a box around a
/// mountain lake (seed -7, 149 blocks up) holds every face of its water, and the
/// lake's surface at its level.
#[test]
fn the_glb_carries_a_mountain_lake() {
    let g = common::continents("-7");
    let (x, z) = (-2700, 952);
    let level = g.column_top(x, z).water.expect("the lake covers it");
    assert!(
        level > g.sea_level() + 100,
        "a lake high above the sea: {level}"
    );
    let source = Source::new(g, Edits::new());
    let (from, to) = ([x - 40, level - 12, z - 40], [x + 40, level + 8, z + 40]);
    let volume = Volume::new(from, to, glb::MAX_SIDE).unwrap();
    let out = common::scratch("gltf-lake").join("lake.glb");
    let report = glb::export(&source, volume, &out, false, &()).unwrap();
    let bytes = fs::read(&out).unwrap();
    let doc = ::gltf::Gltf::from_slice(&bytes).expect("the gltf crate reads it");
    let blob = doc.blob.as_deref().expect("a binary chunk");
    let prim = primitive(&doc, "water");
    let reader = prim.reader(|_| Some(blob));
    let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
    assert_eq!(positions.len() as u64, report.vertices[1]);
    let faces = visible_faces(&source, from, to, |b| b == Block::Water);
    assert!(faces > 500, "only {faces} faces of water");
    assert_eq!(
        positions.len(),
        faces * 4,
        "one unit quad per face of water"
    );
    // The surface is the lake's level, as the game draws it: a ninth below the top
    // of its highest water.
    let highest = positions.iter().map(|p| p[1]).fold(f32::MIN, f32::max);
    let surface = (level + 1 - from[1]) as f32 - 1.0 / 9.0;
    assert!(
        (highest - surface).abs() < 1e-4,
        "{highest} against {surface}"
    );
    let on_surface = positions.iter().filter(|p| p[1] == highest).count();
    assert!(
        on_surface > 400,
        "{on_surface} vertices on the lake's surface"
    );
}
