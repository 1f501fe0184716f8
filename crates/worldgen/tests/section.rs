//! Cross-sections and field layers show the world the generator makes.

use std::sync::atomic::AtomicBool;

use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::fields::Field;
use terravox_worldgen::map::{self, Layer, MapView};
use terravox_worldgen::{Generator, WorldConfig, presets, sequential};

/// A cross-section's heights are `surface_height` along its line, its caves are cave
/// air in the generated chunks, and a set stop flag stops it.
#[test]
fn a_cross_section_follows_the_surface_and_the_caves() {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let [x, _, z] = g.land_near_origin().expect("land");
    let from = [x as f64 + 0.5, z as f64 + 0.5];
    let dir = [0.6, -0.8];
    let s = g
        .cross_section(from, dir, 1024.0, 257, &AtomicBool::new(false))
        .expect("not stopped");
    assert_eq!(s.columns.len(), 257);
    assert_eq!(s.sea_level, g.sea_level());
    let mut caves = 0;
    for c in &s.columns {
        let expected = [
            (from[0] + 0.6 * c.along).floor() as i32,
            (from[1] - 0.8 * c.along).floor() as i32,
        ];
        assert_eq!(c.at, expected);
        assert_eq!(c.surface, g.surface_height(c.at[0], c.at[1]), "{:?}", c.at);
        for &[lo, hi] in &c.caves {
            for y in [lo, hi] {
                let (ch, l) = BlockPos::new(c.at[0], y, c.at[1]).to_chunk();
                assert_eq!(g.generate(ch).get(l[0], l[1], l[2]), Block::CaveAir);
            }
            caves += 1;
        }
    }
    assert!(caves > 0, "a kilometre of continents crosses no cave");
    assert!((s.columns.last().unwrap().along - 1024.0).abs() < 1e-9);
    assert!(
        g.cross_section(from, dir, 1024.0, 257, &AtomicBool::new(true))
            .is_none()
    );
}

/// A field layer shows the field: its pixel is the field's colour at that column;
/// worlds without the field are grey.
#[test]
fn field_layers_show_the_fields() {
    let g = Generator::new(&WorldConfig::default()).unwrap();
    let view = MapView {
        center: [300, -200],
        size: [16, 16],
        blocks_per_pixel: 64,
    };
    for field in Field::ALL {
        let img = map::render_layer(&g, &view, Layer::Field(field), &sequential).image;
        for (px, py) in [(0, 0), (7, 9), (15, 15)] {
            let [x, z] = view.column_at(px, py);
            let v = g.fields_at(x, z).get(field);
            assert!(v.is_some(), "continents has {}", field.name());
            let at = ((py * 16 + px) * 3) as usize;
            assert_eq!(
                img.rgb[at..at + 3],
                map::field_color(field, v),
                "{}",
                field.name()
            );
        }
    }
    // Continentalness varies over 16 km; the version-1 cliffs world has no fields.
    let values: Vec<f64> = (0..16)
        .filter_map(|i| g.fields_at(i * 1000, 0).get(Field::Continentalness))
        .collect();
    let spread = values.iter().cloned().fold(f64::MIN, f64::max)
        - values.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread > 0.3, "continentalness spread {spread}");
    // A version-1 world has no fields; islands have the climate only.
    let v1 = WorldConfig::from_ron(include_str!("v1/cliffs.ron")).unwrap();
    let v1 = Generator::new(&v1).unwrap();
    assert_eq!(v1.fields_at(0, 0).present().count(), 0);
    let img = map::render_layer(&v1, &view, Layer::Field(Field::Erosion), &sequential).image;
    assert!(
        img.rgb.chunks(3).all(|p| p == [96, 96, 96]),
        "grey without the field"
    );
    let islands = Generator::new(&presets::builtin("islands").unwrap()).unwrap();
    let f = islands.fields_at(10, 10);
    assert!(f.get(Field::Temperature).is_some() && f.get(Field::Continentalness).is_none());
}
