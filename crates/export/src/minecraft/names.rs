//! The one table from terravox's blocks and biomes to Minecraft Java Edition's
//! names (1.21). Leaves are `persistent` so they never decay without their logs'
//! distance rule; flowing and falling water carry their `level`; every other
//! property takes the block's default (logs stand on `axis=y`, water is a source
//! block).

use terravox_voxel::Block;
use terravox_worldgen::Biome;

/// A Minecraft block state: its namespaced name and the properties that differ
/// from its default state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockState {
    /// For example `minecraft:oak_leaves`.
    pub name: &'static str,
    /// For example `[("persistent", "true")]`.
    pub properties: &'static [(&'static str, &'static str)],
}

const PERSISTENT: &[(&str, &str)] = &[("persistent", "true")];

const fn plain(name: &'static str) -> BlockState {
    BlockState {
        name,
        properties: &[],
    }
}

const fn leaves(name: &'static str) -> BlockState {
    BlockState {
        name,
        properties: PERSISTENT,
    }
}

/// The Minecraft block state of a terravox block.
pub const fn block_state(b: Block) -> BlockState {
    match b {
        Block::Air => plain("minecraft:air"),
        Block::CaveAir => plain("minecraft:cave_air"),
        Block::Water => plain("minecraft:water"),
        Block::Stone => plain("minecraft:stone"),
        Block::Dirt => plain("minecraft:dirt"),
        Block::Grass => plain("minecraft:grass_block"),
        Block::Sand => plain("minecraft:sand"),
        Block::Snow => plain("minecraft:snow_block"),
        Block::Gravel => plain("minecraft:gravel"),
        // The woods' dark green ground.
        Block::ForestFloor => plain("minecraft:moss_block"),
        Block::Wood => plain("minecraft:oak_wood"),
        Block::Planks => plain("minecraft:oak_planks"),
        Block::Brick => plain("minecraft:bricks"),
        Block::Cobblestone => plain("minecraft:cobblestone"),
        Block::Sandstone => plain("minecraft:sandstone"),
        Block::Clay => plain("minecraft:clay"),
        Block::Ice => plain("minecraft:ice"),
        Block::Podzol => plain("minecraft:podzol"),
        Block::OakLog => plain("minecraft:oak_log"),
        Block::OakLeaves => leaves("minecraft:oak_leaves"),
        Block::BirchLog => plain("minecraft:birch_log"),
        Block::BirchLeaves => leaves("minecraft:birch_leaves"),
        Block::SpruceLog => plain("minecraft:spruce_log"),
        Block::SpruceLeaves => leaves("minecraft:spruce_leaves"),
        Block::AcaciaLog => plain("minecraft:acacia_log"),
        Block::AcaciaLeaves => leaves("minecraft:acacia_leaves"),
        Block::Cactus => plain("minecraft:cactus"),
        Block::CoalOre => plain("minecraft:coal_ore"),
        Block::IronOre => plain("minecraft:iron_ore"),
        Block::GoldOre => plain("minecraft:gold_ore"),
        // The blue-grey rock of the deep layers.
        Block::Slate => plain("minecraft:deepslate"),
        Block::FlowingWater1 => flowing_water(1),
        Block::FlowingWater2 => flowing_water(2),
        Block::FlowingWater3 => flowing_water(3),
        Block::FlowingWater4 => flowing_water(4),
        Block::FlowingWater5 => flowing_water(5),
        Block::FlowingWater6 => flowing_water(6),
        Block::FlowingWater7 => flowing_water(7),
        Block::FallingWater => flowing_water(8),
    }
}

/// `level` 1 to 7: water flowing away from a source, one less deep a block; 8:
/// falling water.
const LEVELS: [&[(&str, &str)]; 8] = [
    &[("level", "1")],
    &[("level", "2")],
    &[("level", "3")],
    &[("level", "4")],
    &[("level", "5")],
    &[("level", "6")],
    &[("level", "7")],
    &[("level", "8")],
];

/// Minecraft's flowing water of `level` (1 to 7: flowing that many blocks from a
/// source; 8: falling); a source (`minecraft:water`, [`block_state`]) otherwise.
const fn flowing_water(level: u8) -> BlockState {
    match level {
        1..=8 => BlockState {
            name: "minecraft:water",
            properties: LEVELS[level as usize - 1],
        },
        _ => plain("minecraft:water"),
    }
}

/// The Minecraft biome of a terravox biome; worlds without biomes are plains.
pub const fn biome_name(b: Option<Biome>) -> &'static str {
    match b {
        None | Some(Biome::Plains) => "minecraft:plains",
        Some(Biome::Ocean) => "minecraft:ocean",
        Some(Biome::Beach) => "minecraft:beach",
        Some(Biome::River) => "minecraft:river",
        Some(Biome::Forest) => "minecraft:forest",
        Some(Biome::BirchForest) => "minecraft:birch_forest",
        Some(Biome::Taiga) => "minecraft:taiga",
        Some(Biome::Desert) => "minecraft:desert",
        Some(Biome::Savanna) => "minecraft:savanna",
        Some(Biome::Swamp) => "minecraft:swamp",
        Some(Biome::SnowyPlains) => "minecraft:snowy_plains",
        Some(Biome::StonyPeaks) => "minecraft:stony_peaks",
        Some(Biome::SnowyPeaks) => "minecraft:frozen_peaks",
    }
}

#[cfg(test)]
mod tests {
    use terravox_voxel::Fluid;

    use super::*;

    /// Minecraft's namespaced ids: lower-case letters, digits and underscores.
    fn is_id(name: &str) -> bool {
        name.strip_prefix("minecraft:").is_some_and(|n| {
            !n.is_empty()
                && n.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
        })
    }

    #[test]
    fn every_block_and_biome_has_a_minecraft_name() {
        for b in Block::ALL {
            let s = block_state(b);
            assert!(is_id(s.name), "{b:?}: {}", s.name);
            // Only air is air, only water is water.
            let air = ["minecraft:air", "minecraft:cave_air"].contains(&s.name);
            assert_eq!(air, b.is_air(), "{b:?}");
            assert_eq!(s.name == "minecraft:water", b.is_water(), "{b:?}");
            let level = match b.fluid() {
                Some(Fluid::Flowing(l)) => Some(l.to_string()),
                Some(Fluid::Falling) => Some("8".to_owned()),
                _ => None,
            };
            assert_eq!(
                s.properties
                    .iter()
                    .find(|(k, _)| *k == "level")
                    .map(|(_, v)| v.to_string()),
                level,
                "{b:?}"
            );
            assert_eq!(
                s.name.ends_with("_leaves") || level.is_some(),
                !s.properties.is_empty(),
                "{b:?}"
            );
        }
        let mut names: Vec<_> = Biome::ALL.iter().map(|&b| biome_name(Some(b))).collect();
        assert!(names.iter().all(|n| is_id(n)));
        names.sort();
        names.dedup();
        assert_eq!(
            names.len(),
            Biome::ALL.len(),
            "one Minecraft biome per biome"
        );
    }
}
