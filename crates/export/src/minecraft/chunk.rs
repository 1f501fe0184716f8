//! One Minecraft chunk (16 blocks square, 384 tall or as many 16-block sections more
//! as its land needs) as 1.18+ NBT: sections of 16^3 blocks, each a block-state palette with packed indices and a biome palette per
//! 4x4x4 cell. Heightmaps and light are left for the game, which computes both when
//! it loads a chunk without them (`isLightOn` 0, no `Heightmaps`).

use serde::Serialize;
use std::collections::BTreeMap;

use fastnbt::LongArray;
use terravox_voxel::Block;

use super::bounds::MIN_Y;
use super::names::{BlockState, biome_name, block_state};
use terravox_worldgen::Biome;

/// Blocks of a section along each axis.
const SIDE: usize = 16;
/// Blocks in a section.
const VOLUME: usize = SIDE * SIDE * SIDE;

/// A chunk's blocks before encoding: `blocks[y][z][x]` for `y` from [`MIN_Y`] up, and the biome of each 4x4 cell of columns, `biomes[z][x]`.
pub(crate) struct Column {
    /// Chunk coordinates.
    pub(crate) pos: [i32; 2],
    /// `y * 256 + z * 16 + x`, from the bottom of the world (flowing and falling
    /// water with their level, as terravox's blocks carry it).
    pub(crate) blocks: Vec<Block>,
    /// The biome of each 4x4 cell of columns.
    pub(crate) biomes: [[Option<Biome>; 4]; 4],
}

impl Column {
    /// An all-air chunk of `sections` sections at `pos` in plains.
    pub(crate) fn new(pos: [i32; 2], sections: usize) -> Self {
        Self {
            pos,
            blocks: vec![Block::Air; VOLUME * sections],
            biomes: [[None; 4]; 4],
        }
    }

    /// Sets the block at `(x, y, z)`, `y` counted from the bottom of the world.
    #[inline]
    pub(crate) fn set(&mut self, x: usize, y: usize, z: usize, b: Block) {
        self.blocks[(y * SIDE + z) * SIDE + x] = b;
    }

    /// The block at `(x, y, z)`, `y` counted from the bottom of the world.
    #[inline]
    pub(crate) fn get(&self, x: usize, y: usize, z: usize) -> Block {
        self.blocks[(y * SIDE + z) * SIDE + x]
    }

    /// Keeps the lowest `sections` sections (no more than it has).
    pub(crate) fn keep_sections(&mut self, sections: usize) {
        self.blocks.truncate(VOLUME * sections);
    }

    /// The chunk as uncompressed NBT, for the release of `data_version`.
    pub(crate) fn to_nbt(&self, data_version: i32) -> Result<Vec<u8>, String> {
        let biomes: Vec<&'static str> = (0..16)
            .map(|i| biome_name(self.biomes[i / 4][i % 4]))
            .collect();
        let sections = self
            .blocks
            .chunks_exact(VOLUME)
            .enumerate()
            .map(|(i, blocks)| Section {
                y: (MIN_Y / SIDE as i32 + i as i32) as i8,
                block_states: block_palette(blocks),
                biomes: biome_palette(&biomes),
            })
            .collect();
        let nbt = ChunkNbt {
            data_version,
            x: self.pos[0],
            y: MIN_Y / SIDE as i32,
            z: self.pos[1],
            status: "minecraft:full",
            last_update: 0,
            inhabited_time: 0,
            light_on: false,
            sections,
            block_entities: Vec::new(),
            structures: Structures::default(),
        };
        fastnbt::to_bytes(&nbt).map_err(|e| e.to_string())
    }
}

/// A chunk's NBT (Minecraft 1.18 and later).
#[derive(Serialize)]
struct ChunkNbt {
    #[serde(rename = "DataVersion")]
    data_version: i32,
    #[serde(rename = "xPos")]
    x: i32,
    #[serde(rename = "yPos")]
    y: i32,
    #[serde(rename = "zPos")]
    z: i32,
    #[serde(rename = "Status")]
    status: &'static str,
    #[serde(rename = "LastUpdate")]
    last_update: i64,
    #[serde(rename = "InhabitedTime")]
    inhabited_time: i64,
    /// False: the game lights the chunk when it loads it.
    #[serde(rename = "isLightOn")]
    light_on: bool,
    sections: Vec<Section>,
    block_entities: Vec<BTreeMap<String, i32>>,
    structures: Structures,
}

#[derive(Serialize, Default)]
struct Structures {
    #[serde(rename = "References")]
    references: BTreeMap<String, i32>,
    starts: BTreeMap<String, i32>,
}

#[derive(Serialize)]
struct Section {
    #[serde(rename = "Y")]
    y: i8,
    block_states: Paletted<StateNbt>,
    biomes: Paletted<&'static str>,
}

/// A palette and the packed indices into it (none when it has one entry).
#[derive(Serialize)]
struct Paletted<T> {
    palette: Vec<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<LongArray>,
}

#[derive(Serialize)]
struct StateNbt {
    #[serde(rename = "Name")]
    name: &'static str,
    #[serde(rename = "Properties", skip_serializing_if = "BTreeMap::is_empty")]
    properties: BTreeMap<&'static str, &'static str>,
}

impl From<BlockState> for StateNbt {
    fn from(s: BlockState) -> Self {
        Self {
            name: s.name,
            properties: s.properties.iter().copied().collect(),
        }
    }
}

/// A section's blocks as a palette (in order of first appearance) and indices
/// packed at least 4 bits each.
fn block_palette(blocks: &[Block]) -> Paletted<StateNbt> {
    let (palette, indices) = index(blocks.iter().copied());
    Paletted {
        data: (palette.len() > 1).then(|| pack(&indices, bits(palette.len()).max(4))),
        palette: palette.into_iter().map(|b| block_state(b).into()).collect(),
    }
}

/// A section's 4x4x4 biome cells (`y * 16 + z * 4 + x`; every layer the same) as a
/// palette and indices packed as tightly as the palette allows.
fn biome_palette(cells: &[&'static str]) -> Paletted<&'static str> {
    let (palette, indices) = index((0..64).map(|i| cells[i % 16]));
    Paletted {
        data: (palette.len() > 1).then(|| pack(&indices, bits(palette.len()))),
        palette,
    }
}

/// The distinct values in order of first appearance, and each value's index.
fn index<T: PartialEq + Copy>(values: impl Iterator<Item = T>) -> (Vec<T>, Vec<u16>) {
    let mut palette: Vec<T> = Vec::new();
    let indices = values
        .map(|v| match palette.iter().position(|&p| p == v) {
            Some(i) => i as u16,
            None => {
                palette.push(v);
                (palette.len() - 1) as u16
            }
        })
        .collect();
    (palette, indices)
}

/// Bits to tell `n` values apart.
fn bits(n: usize) -> u32 {
    usize::BITS - (n - 1).leading_zeros()
}

/// Packs `indices` `bits` each into longs, as many as fit whole in each long (from
/// the lowest bits up; no index spans two longs), as Minecraft 1.16+ reads them.
pub(crate) fn pack(indices: &[u16], bits: u32) -> LongArray {
    let per = (64 / bits) as usize;
    let mut longs = vec![0u64; indices.len().div_ceil(per)];
    for (i, &v) in indices.iter().enumerate() {
        longs[i / per] |= (v as u64) << ((i % per) as u32 * bits);
    }
    LongArray::new(longs.into_iter().map(|l| l as i64).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_pack_whole_into_longs() {
        // 5 bits: 12 a long, the top 4 bits unused.
        let v: Vec<u16> = (0..4096).map(|i| (i * 7 % 31) as u16).collect();
        let longs = pack(&v, 5).into_inner();
        assert_eq!(longs.len(), 4096usize.div_ceil(12));
        for (i, &want) in v.iter().enumerate() {
            let l = longs[i / 12] as u64;
            assert_eq!((l >> ((i % 12) * 5)) & 31, want as u64, "index {i}");
        }
        assert_eq!(bits(1), 0);
        assert_eq!(bits(2), 1);
        assert_eq!(bits(16), 4);
        assert_eq!(bits(17), 5);
    }

    #[test]
    fn a_uniform_section_has_no_data() {
        let p = block_palette(&[Block::Stone; VOLUME]);
        assert_eq!(p.palette.len(), 1);
        assert!(p.data.is_none());
        let mut mixed = [Block::Stone; VOLUME];
        mixed[VOLUME - 1] = Block::Water;
        let p = block_palette(&mixed);
        assert_eq!(p.palette.len(), 2);
        assert_eq!(
            p.data.unwrap().into_inner().len(),
            VOLUME / 16,
            "4 bits at least"
        );
    }
}
