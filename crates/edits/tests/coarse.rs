//! The player's builds on the horizon: a tower built and left stays in the coarse
//! chunks that cover it.

use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos};
use terravox_worldgen::{Generator, LodPos, WorldConfig};

/// A 40-block tower of brick on open ground is in the level-1, 2 and 3 chunks that
/// cover it: every cell it passes through is solid, those above the ground are brick,
/// and without the edits they are air.
#[test]
fn a_tower_stands_on_the_horizon() {
    let g = Generator::new(&WorldConfig::default()).expect("valid");
    let [x0, _, z0] = g.land_near_origin().expect("land");
    // Off the cells' corners, so a sample point never lands on it by chance.
    let (x, z) = (x0 + 5, z0 + 3);
    let ground = g.surface_height(x, z);
    let mut edits = Edits::new();
    let tower: Vec<BlockPos> = (1..=40)
        .map(|dy| BlockPos::new(x, ground + dy, z))
        .collect();
    for &p in &tower {
        edits.set(p, Block::Brick);
    }
    for level in 1..=3u8 {
        let mut raised = 0;
        for &p in &tower {
            let lod = LodPos::new(0, p.to_chunk().0).ancestor(level);
            let (plain, _) = g.generate_coarse(lod);
            let mut built = plain.clone();
            edits.apply_coarse(lod, &mut built);
            let o = lod.origin();
            let size = i64::from(lod.cell());
            let cell = |v: i32, o: i64| ((v as i64 - o).div_euclid(size)) as i32;
            let [cx, cy, cz] = [cell(p.x, o[0]), cell(p.y, o[1]), cell(p.z, o[2])];
            let (before, after) = (plain.get(cx, cy, cz), built.get(cx, cy, cz));
            assert!(
                after.is_solid(),
                "level {level}: {p:?} in cell {cx},{cy},{cz} is {after:?}"
            );
            if !before.is_solid() {
                assert_eq!(after, Block::Brick, "level {level}: {p:?}");
                raised += 1;
            }
        }
        // The tower rises at least 40 blocks less a cell and a sample's worth above
        // ground: most of its blocks were open air in the plain coarse chunk.
        let cells_above = (40 - 2 * (1i32 << level)).max(1);
        assert!(
            raised >= cells_above,
            "level {level}: only {raised} of the tower's blocks stood in open cells"
        );
    }
}

/// A few blocks dug from the ground do not hollow a coarse cell; most of a cell
/// dug out does.
#[test]
fn digging_hollows_a_cell_only_when_most_of_it_is_gone() {
    let g = Generator::new(&WorldConfig::default()).expect("valid");
    let [x0, _, z0] = g.land_near_origin().expect("land");
    let level = 1;
    // A cell two blocks wide, a few blocks under the ground (solid when generated).
    let ground = g.surface_height(x0, z0);
    let base = BlockPos::new(
        x0.div_euclid(2) * 2,
        (ground - 6).div_euclid(2) * 2,
        z0.div_euclid(2) * 2,
    );
    let lod = LodPos::new(0, base.to_chunk().0).ancestor(level);
    let (plain, _) = g.generate_coarse(lod);
    let o = lod.origin();
    let c = |v: i32, o: i64| ((v as i64 - o) / 2) as i32;
    let cell = [c(base.x, o[0]), c(base.y, o[1]), c(base.z, o[2])];
    assert!(
        plain.get(cell[0], cell[1], cell[2]).is_solid(),
        "solid under ground"
    );
    let blocks: Vec<BlockPos> = (0..8)
        .map(|i| BlockPos::new(base.x + (i & 1), base.y + (i >> 1 & 1), base.z + (i >> 2)))
        .collect();
    let dug = |n: usize| {
        let mut edits = Edits::new();
        for &p in &blocks[..n] {
            edits.set(p, Block::Air);
        }
        let mut chunk = plain.clone();
        edits.apply_coarse(lod, &mut chunk);
        chunk.get(cell[0], cell[1], cell[2])
    };
    assert!(dug(4).is_solid(), "half dug stays");
    assert_eq!(dug(5), Block::Air, "most dug is open");
    // Most of it dug and water flowing in where it was dug: the cell holds water.
    let flooded = |water: usize| {
        let mut edits = Edits::new();
        for (i, &p) in blocks[..6].iter().enumerate() {
            let b = if i < water {
                Block::FlowingWater3
            } else {
                Block::Air
            };
            edits.set(p, b);
        }
        let mut chunk = plain.clone();
        edits.apply_coarse(lod, &mut chunk);
        chunk.get(cell[0], cell[1], cell[2])
    };
    assert_eq!(flooded(4), Block::Water, "more water than air: water");
    assert_eq!(flooded(2), Block::Air, "more air than water: air");
}

/// Water poured on open ground shows on the horizon, drawn as still water (a coarse
/// cell has no level); a block built there wins over it.
#[test]
fn water_poured_in_the_open_shows_on_the_horizon() {
    let g = Generator::new(&WorldConfig::default()).expect("valid");
    let [x0, _, z0] = g.land_near_origin().expect("land");
    let (x, z) = (x0.div_euclid(2) * 2, z0.div_euclid(2) * 2);
    let above = g.surface_height(x, z) + 6;
    let p = BlockPos::new(x, above.div_euclid(2) * 2, z);
    let lod = LodPos::new(0, p.to_chunk().0).ancestor(1);
    let (plain, _) = g.generate_coarse(lod);
    let o = lod.origin();
    let c = |v: i32, o: i64| ((v as i64 - o) / 2) as i32;
    let cell = [c(p.x, o[0]), c(p.y, o[1]), c(p.z, o[2])];
    assert!(
        plain.get(cell[0], cell[1], cell[2]).is_air(),
        "open air above ground"
    );
    let with = |blocks: &[Block]| {
        let mut edits = Edits::new();
        for (i, &b) in blocks.iter().enumerate() {
            edits.set(p.offset([i as i32 & 1, 0, i as i32 >> 1]), b);
        }
        let mut chunk = plain.clone();
        edits.apply_coarse(lod, &mut chunk);
        chunk.get(cell[0], cell[1], cell[2])
    };
    assert_eq!(with(&[Block::FlowingWater6]), Block::Water);
    assert_eq!(with(&[Block::Water, Block::FallingWater]), Block::Water);
    assert_eq!(with(&[Block::Water, Block::Planks]), Block::Planks);
}
