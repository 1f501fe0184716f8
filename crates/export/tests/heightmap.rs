//! The heightmap read back with the `png` crate: every pixel's height is the
//! surface height, the player's edits included.

mod common;

use std::fs;

use terravox_edits::Edits;
use terravox_export::{Area, Source, heightmap};
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, WorldConfig};

#[test]
fn every_pixel_is_the_surface_height() {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let (x, z) = (-30, 12);
    let top = g.surface_height(x, z);
    let mut edits = Edits::new();
    edits.set(BlockPos::new(x, top + 40, z), Block::Planks);
    let source = Source::new(g.clone(), edits);
    let area = Area::new([-60, -20], [70, 90], heightmap::MAX_SIDE).unwrap();
    let out = common::scratch("hm-pixels").join("hm.png");
    let r = heightmap::export(&source, area, &out, true, false, &()).unwrap();
    assert_eq!(r.high, top + 40, "the placed block is the highest point");

    let decoder = png::Decoder::new(std::io::BufReader::new(fs::File::open(&out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let info = reader.info().clone();
    assert_eq!((info.width, info.height), (130, 110));
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    assert_eq!(info.bit_depth, png::BitDepth::Sixteen);
    let text = |k: &str| -> i32 {
        let t = info
            .uncompressed_latin1_text
            .iter()
            .find(|t| t.keyword == k)
            .unwrap();
        t.text.parse().unwrap()
    };
    let (low, high) = (text("terravox:low"), text("terravox:high"));
    assert_eq!((low, high), (r.low, r.high));
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut buf).unwrap();
    let raw = fs::read(r.raw.as_ref().unwrap()).unwrap();
    assert_eq!(raw.len(), 130 * 110 * 2);
    for row in 0..110 {
        for col in 0..130 {
            let i = (row * 130 + col) * 2;
            let v = u16::from_be_bytes([buf[i], buf[i + 1]]);
            assert_eq!(u16::from_le_bytes([raw[i], raw[i + 1]]), v, "RAW16 = PNG");
            let (wx, wz) = (area.from[0] + col as i32, area.from[1] + row as i32);
            let want = if (wx, wz) == (x, z) {
                top + 40
            } else {
                g.surface_height(wx, wz)
            };
            assert_eq!(heightmap::decode(v, low, high), want, "column {wx},{wz}");
        }
    }
    let biomes = png::Decoder::new(std::io::BufReader::new(fs::File::open(&r.biomes).unwrap()));
    let mut biomes = biomes.read_info().unwrap();
    let mut rgb = vec![0; biomes.output_buffer_size().unwrap()];
    biomes.next_frame(&mut rgb).unwrap();
    let (wx, wz) = (area.from[0] + 17, area.from[1] + 29);
    let i = (29 * 130 + 17) * 3;
    assert_eq!(rgb[i..i + 3], g.biome_at(wx, wz).unwrap().map_color());
}

#[test]
fn a_taken_name_is_refused_and_kept() {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let source = Source::new(g, Edits::new());
    let area = Area::new([0, 0], [8, 8], heightmap::MAX_SIDE).unwrap();
    let d = common::scratch("hm-taken");
    let out = d.join("hm.png");
    fs::write(heightmap::beside(&out, ".biomes.png"), b"mine").unwrap();
    assert!(heightmap::export(&source, area, &out, false, false, &()).is_err());
    assert!(!out.exists(), "nothing written when a name is taken");
    assert_eq!(
        fs::read(heightmap::beside(&out, ".biomes.png")).unwrap(),
        b"mine"
    );
    assert_eq!(fs::read_dir(&d).unwrap().count(), 1, "no temporary left");
}
