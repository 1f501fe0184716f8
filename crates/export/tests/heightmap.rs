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
    let options = heightmap::Options {
        raw: true,
        ..Default::default()
    };
    let report = heightmap::export(&source, area, &out, &options, &()).unwrap();
    assert_eq!(
        report.high,
        top + 40,
        "the placed block is the highest point"
    );
    let r = &report.tiles[0];

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
    assert_eq!((low, high), (report.low, report.high));
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
    assert!(heightmap::export(&source, area, &out, &Default::default(), &()).is_err());
    assert!(!out.exists(), "nothing written when a name is taken");
    assert_eq!(
        fs::read(heightmap::beside(&out, ".biomes.png")).unwrap(),
        b"mine"
    );
    assert_eq!(fs::read_dir(&d).unwrap().count(), 1, "no temporary left");
}

/// A 16-bit or 8-bit greyscale PNG's pixels, row by row, and its `terravox:low` and
/// `terravox:high` (0 where absent).
fn grey(path: &std::path::Path) -> (Vec<u16>, i32, i32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let info = reader.info().clone();
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    let text = |k: &str| -> i32 {
        info.uncompressed_latin1_text
            .iter()
            .find(|t| t.keyword == k)
            .map_or(0, |t| t.text.parse().unwrap())
    };
    let (low, high) = (text("terravox:low"), text("terravox:high"));
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut buf).unwrap();
    let px = match info.bit_depth {
        png::BitDepth::Sixteen => buf
            .chunks(2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
            .collect(),
        _ => buf.iter().map(|&b| b as u16).collect(),
    };
    (px, low, high)
}

#[test]
fn the_water_surface_and_the_river_mask_follow_the_rivers() {
    // Seed -7 of version 5: the west shore of a lake 149 blocks above the sea.
    let g = common::continents("-7");
    let source = Source::new(g.clone(), Edits::new());
    let area = Area::new([-2800, 900], [-2600, 1000], heightmap::MAX_SIDE).unwrap();
    let out = common::scratch("hm-water").join("hm.png");
    let r = heightmap::export(&source, area, &out, &Default::default(), &()).unwrap();
    let r = &r.tiles[0];
    let (ground, low, high) = grey(&out);
    let (water, wlow, whigh) = grey(&r.water);
    let (mask, _, _) = grey(&r.rivers);
    assert_eq!((wlow, whigh), (low, high), "one encoding for both");
    let (mut wet, mut dry) = (0, 0);
    for (i, m) in mask.iter().enumerate() {
        let (x, z) = (
            area.from[0] + (i % 200) as i32,
            area.from[1] + (i / 200) as i32,
        );
        let top = g.column_top(x, z);
        let (gy, wy) = (
            heightmap::decode(ground[i], low, high),
            heightmap::decode(water[i], low, high),
        );
        assert_eq!(gy, top.y, "ground at {x},{z}");
        match top.water {
            Some(level) => {
                wet += 1;
                assert_eq!((*m, wy), (255, level), "water at {x},{z}");
                assert!(wy > gy);
            }
            None => {
                dry += 1;
                assert_eq!((*m, wy), (0, gy), "no water at {x},{z}");
            }
        }
    }
    assert!(wet > 1000 && dry > 0, "{wet} wet and {dry} dry columns");
}

#[test]
fn tiles_hold_the_single_image_in_one_encoding() {
    // Seed -7's lake shore and the land beside it: tiles of different ranges.
    let g = common::continents("-7");
    let source = Source::new(g, Edits::new());
    let area = Area::new([-2830, 900], [-2600, 1010], heightmap::MAX_SIDE).unwrap();
    let d = common::scratch("hm-tiles");
    let one =
        heightmap::export(&source, area, &d.join("one.png"), &Default::default(), &()).unwrap();
    let options = heightmap::Options {
        raw: true,
        tile: 64,
        ..Default::default()
    };
    let tiled = heightmap::export(&source, area, &d.join("map.png"), &options, &()).unwrap();
    assert_eq!(tiled.grid, [4, 2]);
    assert_eq!((tiled.low, tiled.high), (one.low, one.high));
    let (ground, _, _) = grey(&one.tiles[0].png);
    let (water, _, _) = grey(&one.tiles[0].water);
    let (mask, _, _) = grey(&one.tiles[0].rivers);
    let mut recoded = 0;
    for t in &tiled.tiles {
        let [c, r] = t.tile.index;
        assert_eq!(t.png, d.join(format!("map_x{c}_y{r}.png")));
        let (tg, low, high) = grey(&t.png);
        let (tw, wlow, whigh) = grey(&t.water);
        let (tm, _, _) = grey(&t.rivers);
        assert_eq!(
            [low, high, wlow, whigh],
            [one.low, one.high, one.low, one.high]
        );
        let raw = fs::read(t.raw.as_ref().unwrap()).unwrap();
        let [w, _] = t.tile.area.size();
        for (i, &v) in tg.iter().enumerate() {
            let (x, z) = (i as i32 % w as i32, i as i32 / w as i32);
            let (ax, az) = (
                t.tile.area.from[0] + x - area.from[0],
                t.tile.area.from[1] + z - area.from[1],
            );
            let j = (az * 230 + ax) as usize;
            assert_eq!(
                (v, tw[i], tm[i]),
                (ground[j], water[j], mask[j]),
                "tile {c},{r} at {x},{z}"
            );
            assert_eq!(
                u16::from_le_bytes([raw[2 * i], raw[2 * i + 1]]),
                v,
                "RAW16 = PNG"
            );
        }
        // The tile's own heights span less than the area's: it was re-encoded.
        let own = tg
            .iter()
            .chain(&tw)
            .map(|&v| heightmap::decode(v, low, high));
        let (lo, hi) = own.fold((i32::MAX, i32::MIN), |(a, b), y| (a.min(y), b.max(y)));
        recoded += usize::from((lo, hi) != (one.low, one.high));
    }
    assert!(recoded >= 4, "{recoded} tiles had ranges of their own");
    let names = fs::read_dir(&d).unwrap().count();
    assert_eq!(
        names,
        4 + 8 * 5,
        "the single image's files and 5 a tile, no temporaries"
    );
}

#[test]
fn a_taken_tile_name_is_refused_before_anything_is_made() {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let source = Source::new(g, Edits::new());
    let area = Area::new([0, 0], [20, 8], heightmap::MAX_SIDE).unwrap();
    let d = common::scratch("hm-tile-taken");
    let out = d.join("hm.png");
    fs::write(d.join("hm_x1_y0.water.png"), b"mine").unwrap();
    let options = heightmap::Options {
        tile: 10,
        ..Default::default()
    };
    let e = heightmap::export(&source, area, &out, &options, &()).unwrap_err();
    assert!(e.to_string().contains("hm_x1_y0.water.png"), "{e}");
    assert_eq!(fs::read(d.join("hm_x1_y0.water.png")).unwrap(), b"mine");
    assert_eq!(fs::read_dir(&d).unwrap().count(), 1, "nothing else written");
    let options = heightmap::Options {
        tile: 0,
        ..Default::default()
    };
    assert!(heightmap::export(&source, area, &out, &options, &()).is_err());
}
