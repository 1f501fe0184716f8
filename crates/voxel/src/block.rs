//! Block kinds: what each block is, whether it is opaque or solid, and its colour.

use serde::{Deserialize, Serialize};

/// One kind of block. Stored as one byte.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[repr(u8)]
pub enum Block {
    /// Empty space.
    #[default]
    Air = 0,
    /// Water: not opaque, not solid; drawn translucent.
    Water = 1,
    /// Bare stone, the bulk of the underground and exposed rock.
    Stone = 2,
    /// Dirt under grass.
    Dirt = 3,
    /// Grass on the surface.
    Grass = 4,
    /// Sand on beaches and shallow sea floors.
    Sand = 5,
    /// Snow on high ground.
    Snow = 6,
    /// Gravel on deep sea floors.
    Gravel = 7,
    /// Dark forest floor (islands).
    ForestFloor = 8,
    /// Tree wood, for building.
    Wood = 9,
    /// Wooden planks, for building.
    Planks = 10,
    /// Bricks, for building.
    Brick = 11,
    /// Cobblestone, for building.
    Cobblestone = 12,
    /// Sandstone under desert sand and beaches.
    Sandstone = 13,
    /// Clay on river beds and swamp shores.
    Clay = 14,
    /// Ice on cold water.
    Ice = 15,
    /// Podzol: the needle-covered floor of taiga.
    Podzol = 16,
    /// Oak trunk.
    OakLog = 17,
    /// Oak leaves (tinted by the biome).
    OakLeaves = 18,
    /// Birch trunk.
    BirchLog = 19,
    /// Birch leaves.
    BirchLeaves = 20,
    /// Spruce trunk.
    SpruceLog = 21,
    /// Spruce needles.
    SpruceLeaves = 22,
    /// Acacia trunk.
    AcaciaLog = 23,
    /// Acacia leaves (tinted by the biome).
    AcaciaLeaves = 24,
    /// Cactus.
    Cactus = 25,
    /// The air of a cave (version-3 worlds): empty space like [`Block::Air`], but out
    /// of the sky's light, so faces towards it are drawn in the dark.
    CaveAir = 26,
    /// Stone with coal, around caves.
    CoalOre = 27,
    /// Stone with iron, around caves below sea level.
    IronOre = 28,
    /// Stone with gold, around deep caves.
    GoldOre = 29,
    /// Slate: dark blue-grey layered rock of bare mountain faces.
    Slate = 30,
    /// Flowing water one block from its source (Minecraft's level 1); see
    /// [`crate::water_states`]. Levels 2 to 7 follow, each a block further.
    FlowingWater1 = 31,
    /// Flowing water, level 2.
    FlowingWater2 = 32,
    /// Flowing water, level 3.
    FlowingWater3 = 33,
    /// Flowing water, level 4.
    FlowingWater4 = 34,
    /// Flowing water, level 5.
    FlowingWater5 = 35,
    /// Flowing water, level 6.
    FlowingWater6 = 36,
    /// Flowing water, level 7: the thinnest film, the last a source feeds.
    FlowingWater7 = 37,
    /// Falling water: water with water above it that is not a source (Minecraft's
    /// levels 8 to 15).
    FallingWater = 38,
}

/// Every block's colour, by number.
const COLORS: [[u8; 3]; Block::ALL.len()] = {
    let mut t = [[0; 3]; Block::ALL.len()];
    let mut i = 0;
    while i < t.len() {
        t[i] = Block::ALL[i].decide_color();
        i += 1;
    }
    t
};

impl Block {
    /// Every block, in discriminant order.
    pub const ALL: [Block; 39] = [
        Block::Air,
        Block::Water,
        Block::Stone,
        Block::Dirt,
        Block::Grass,
        Block::Sand,
        Block::Snow,
        Block::Gravel,
        Block::ForestFloor,
        Block::Wood,
        Block::Planks,
        Block::Brick,
        Block::Cobblestone,
        Block::Sandstone,
        Block::Clay,
        Block::Ice,
        Block::Podzol,
        Block::OakLog,
        Block::OakLeaves,
        Block::BirchLog,
        Block::BirchLeaves,
        Block::SpruceLog,
        Block::SpruceLeaves,
        Block::AcaciaLog,
        Block::AcaciaLeaves,
        Block::Cactus,
        Block::CaveAir,
        Block::CoalOre,
        Block::IronOre,
        Block::GoldOre,
        Block::Slate,
        Block::FlowingWater1,
        Block::FlowingWater2,
        Block::FlowingWater3,
        Block::FlowingWater4,
        Block::FlowingWater5,
        Block::FlowingWater6,
        Block::FlowingWater7,
        Block::FallingWater,
    ];

    /// Whether light and sight stop at this block: faces are drawn where an opaque
    /// block meets a non-opaque one.
    #[inline]
    pub const fn is_opaque(self) -> bool {
        !(self.is_air() || self.is_water())
    }

    /// Whether the block is empty space: air or a cave's air.
    #[inline]
    pub const fn is_air(self) -> bool {
        matches!(self, Block::Air | Block::CaveAir)
    }

    /// Whether a body collides with this block.
    #[inline]
    pub const fn is_solid(self) -> bool {
        self.is_opaque()
    }

    /// The block's base colour, linear-ish sRGB bytes `[r, g, b]` (looked up: the
    /// mesher asks it for every vertex of water and grass).
    #[inline]
    pub const fn color(self) -> [u8; 3] {
        COLORS[self as usize]
    }

    /// [`Block::color`], decided block by block (the table is built from it).
    const fn decide_color(self) -> [u8; 3] {
        match self {
            Block::Air => [0, 0, 0],
            Block::Water => [40, 90, 170],
            Block::Stone => [125, 125, 128],
            Block::Dirt => [120, 85, 55],
            Block::Grass => [90, 150, 60],
            Block::Sand => [220, 205, 150],
            Block::Snow => [240, 245, 250],
            Block::Gravel => [140, 130, 120],
            Block::ForestFloor => [50, 105, 45],
            Block::Wood => [105, 75, 45],
            Block::Planks => [180, 140, 90],
            Block::Brick => [160, 70, 60],
            Block::Cobblestone => [100, 100, 100],
            Block::Sandstone => [205, 185, 130],
            Block::Clay => [150, 155, 170],
            Block::Ice => [165, 200, 245],
            Block::Podzol => [105, 75, 40],
            Block::OakLog => [100, 78, 48],
            Block::OakLeaves => [70, 125, 45],
            Block::BirchLog => [215, 212, 200],
            Block::BirchLeaves => [120, 160, 80],
            Block::SpruceLog => [70, 50, 30],
            Block::SpruceLeaves => [50, 90, 55],
            Block::AcaciaLog => [150, 90, 55],
            Block::AcaciaLeaves => [95, 135, 40],
            Block::Cactus => [60, 130, 50],
            Block::CaveAir => [0, 0, 0],
            Block::CoalOre => [90, 90, 92],
            Block::IronOre => [150, 120, 100],
            Block::GoldOre => [170, 150, 80],
            Block::Slate => [74, 80, 92],
            Block::FlowingWater1
            | Block::FlowingWater2
            | Block::FlowingWater3
            | Block::FlowingWater4
            | Block::FlowingWater5
            | Block::FlowingWater6
            | Block::FlowingWater7
            | Block::FallingWater => Block::Water.decide_color(),
        }
    }

    /// A short human name.
    pub const fn name(self) -> &'static str {
        match self {
            Block::Air => "air",
            Block::Water => "water",
            Block::Stone => "stone",
            Block::Dirt => "dirt",
            Block::Grass => "grass",
            Block::Sand => "sand",
            Block::Snow => "snow",
            Block::Gravel => "gravel",
            Block::ForestFloor => "forest floor",
            Block::Wood => "wood",
            Block::Planks => "planks",
            Block::Brick => "brick",
            Block::Cobblestone => "cobblestone",
            Block::Sandstone => "sandstone",
            Block::Clay => "clay",
            Block::Ice => "ice",
            Block::Podzol => "podzol",
            Block::OakLog => "oak log",
            Block::OakLeaves => "oak leaves",
            Block::BirchLog => "birch log",
            Block::BirchLeaves => "birch leaves",
            Block::SpruceLog => "spruce log",
            Block::SpruceLeaves => "spruce needles",
            Block::AcaciaLog => "acacia log",
            Block::AcaciaLeaves => "acacia leaves",
            Block::Cactus => "cactus",
            Block::CaveAir => "cave air",
            Block::CoalOre => "coal ore",
            Block::IronOre => "iron ore",
            Block::GoldOre => "gold ore",
            Block::Slate => "slate",
            Block::FlowingWater1 => "flowing water (level 1)",
            Block::FlowingWater2 => "flowing water (level 2)",
            Block::FlowingWater3 => "flowing water (level 3)",
            Block::FlowingWater4 => "flowing water (level 4)",
            Block::FlowingWater5 => "flowing water (level 5)",
            Block::FlowingWater6 => "flowing water (level 6)",
            Block::FlowingWater7 => "flowing water (level 7)",
            Block::FallingWater => "falling water",
        }
    }

    /// Whether the block's colour is multiplied by the biome tint of its column
    /// (grass, forest floor, oak and acacia leaves), so colours blend across biome
    /// borders. Birch and spruce keep their own colours everywhere.
    pub const fn is_tinted(self) -> bool {
        matches!(
            self,
            Block::Grass | Block::ForestFloor | Block::OakLeaves | Block::AcaciaLeaves
        )
    }

    /// Whether the block is part of a tree (a trunk or leaves, or a cactus).
    pub const fn is_tree(self) -> bool {
        matches!(
            self,
            Block::OakLog
                | Block::OakLeaves
                | Block::BirchLog
                | Block::BirchLeaves
                | Block::SpruceLog
                | Block::SpruceLeaves
                | Block::AcaciaLog
                | Block::AcaciaLeaves
                | Block::Cactus
        )
    }

    /// Whether the block is leaves.
    pub const fn is_leaves(self) -> bool {
        matches!(
            self,
            Block::OakLeaves | Block::BirchLeaves | Block::SpruceLeaves | Block::AcaciaLeaves
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opacity_and_solidity() {
        assert!(!Block::Air.is_opaque() && !Block::Water.is_opaque());
        assert!(!Block::Water.is_solid());
        assert!(!Block::CaveAir.is_opaque() && !Block::CaveAir.is_solid());
        for b in Block::ALL.into_iter().skip(2) {
            let open = b == Block::CaveAir || b.is_water();
            assert_eq!(b.is_opaque(), !open, "{b:?}");
            assert_eq!(b.is_solid(), !open, "{b:?}");
        }
        // Open space is air and a cave's air, and nothing else.
        let air: Vec<Block> = Block::ALL.into_iter().filter(|b| b.is_air()).collect();
        assert_eq!(air, [Block::Air, Block::CaveAir]);
        for (i, b) in Block::ALL.iter().enumerate() {
            assert_eq!(*b as usize, i);
        }
        // Saves store these numbers: new blocks are appended, never renumbered.
        assert_eq!(Block::GoldOre as u8, 29);
        assert_eq!(Block::Slate as u8, 30);
        assert_eq!(Block::FallingWater as u8, 38);
    }
}
