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
}

impl Block {
    /// Every block, in discriminant order.
    pub const ALL: [Block; 13] = [
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
    ];

    /// Whether light and sight stop at this block: faces are drawn where an opaque
    /// block meets a non-opaque one.
    #[inline]
    pub const fn is_opaque(self) -> bool {
        !matches!(self, Block::Air | Block::Water)
    }

    /// Whether a body collides with this block.
    #[inline]
    pub const fn is_solid(self) -> bool {
        self.is_opaque()
    }

    /// The block's base colour, linear-ish sRGB bytes `[r, g, b]`.
    pub const fn color(self) -> [u8; 3] {
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opacity_and_solidity() {
        assert!(!Block::Air.is_opaque() && !Block::Water.is_opaque());
        assert!(!Block::Water.is_solid());
        for b in Block::ALL.into_iter().skip(2) {
            assert!(b.is_opaque() && b.is_solid(), "{b:?}");
        }
        for (i, b) in Block::ALL.iter().enumerate() {
            assert_eq!(*b as usize, i);
        }
    }
}
