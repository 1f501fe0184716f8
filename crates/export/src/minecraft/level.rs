//! `level.dat`: the world's name, seed and spawn, creative mode, and a void
//! superflat generator so that everything outside the exported area stays empty.

use std::collections::BTreeMap;
use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde::Serialize;

use super::release::{Release, SpawnForm};

/// What `level.dat` says about the world.
pub(crate) struct Level {
    /// The world's name in Minecraft's world list.
    pub(crate) name: String,
    /// The numeric seed (Minecraft's own generation never runs: the generator is void).
    pub(crate) seed: i64,
    /// Where a new player appears, `[x, y, z]` in Minecraft's heights.
    pub(crate) spawn: [i32; 3],
    /// Whether the world is taller than Minecraft's default: the export's data pack
    /// ([`super::datapack`]) is enabled then.
    pub(crate) raised: bool,
    /// The release it is written for.
    pub(crate) release: Release,
}

impl Level {
    /// `level.dat`'s bytes: gzip-compressed NBT.
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let [x, y, z] = self.spawn;
        let rule = |v: &str| v.to_string();
        let fields = self.release.spawn_form == SpawnForm::Fields;
        let data = Data {
            data_version: self.release.data_version,
            version: 19133,
            initialized: true,
            level_name: self.name.clone(),
            game_type: 1,
            difficulty: 1,
            hardcore: false,
            allow_commands: true,
            spawn_x: fields.then_some(x),
            spawn_y: fields.then_some(y),
            spawn_z: fields.then_some(z),
            spawn_angle: fields.then_some(0.0),
            spawn: (!fields).then(|| Spawn {
                dimension: "minecraft:overworld",
                pos: fastnbt::IntArray::new(vec![x, y, z]),
                yaw: 0.0,
                pitch: 0.0,
            }),
            time: 0,
            day_time: 6000,
            // Never played: the world's bytes never depend on when, or in how many
            // runs or shards, it was made.
            last_played: 0,
            raining: false,
            thundering: false,
            version_info: Version {
                id: self.release.data_version,
                name: self.release.name,
                series: "main",
                snapshot: false,
            },
            data_packs: DataPacks {
                enabled: if self.raised {
                    vec!["vanilla", super::datapack::ID]
                } else {
                    vec!["vanilla"]
                },
                disabled: vec![],
            },
            game_rules: BTreeMap::from([
                // Appear exactly at the spawn, not somewhere within 10 blocks of it.
                ("spawnRadius", rule("0")),
                // An exported landscape stays as exported until the player changes it.
                ("doFireTick", rule("false")),
                ("mobGriefing", rule("false")),
            ]),
            world_gen_settings: WorldGenSettings {
                seed: self.seed,
                generate_features: false,
                bonus_chest: false,
                dimensions: dimensions(),
            },
        };
        let nbt = fastnbt::to_bytes(&Root { data }).map_err(|e| e.to_string())?;
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&nbt).map_err(|e| e.to_string())?;
        gz.finish().map_err(|e| e.to_string())
    }
}

/// The overworld is an empty superflat (the exported chunks are all it has); the
/// nether and the end are Minecraft's own.
fn dimensions() -> BTreeMap<&'static str, Dimension> {
    BTreeMap::from([
        (
            "minecraft:overworld",
            Dimension {
                kind: "minecraft:overworld",
                generator: Generator::Flat {
                    settings: FlatSettings {
                        layers: vec![],
                        biome: "minecraft:the_void",
                        features: false,
                        lakes: false,
                        structure_overrides: vec![],
                    },
                },
            },
        ),
        (
            "minecraft:the_nether",
            Dimension {
                kind: "minecraft:the_nether",
                generator: Generator::Noise {
                    settings: "minecraft:nether",
                    biome_source: BiomeSource {
                        kind: "minecraft:multi_noise",
                        preset: Some("minecraft:nether"),
                    },
                },
            },
        ),
        (
            "minecraft:the_end",
            Dimension {
                kind: "minecraft:the_end",
                generator: Generator::Noise {
                    settings: "minecraft:end",
                    biome_source: BiomeSource {
                        kind: "minecraft:the_end",
                        preset: None,
                    },
                },
            },
        ),
    ])
}

#[derive(Serialize)]
struct Root {
    #[serde(rename = "Data")]
    data: Data,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Data {
    data_version: i32,
    #[serde(rename = "version")]
    version: i32,
    #[serde(rename = "initialized")]
    initialized: bool,
    level_name: String,
    game_type: i32,
    difficulty: i8,
    #[serde(rename = "hardcore")]
    hardcore: bool,
    #[serde(rename = "allowCommands")]
    allow_commands: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_x: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_y: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_z: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spawn_angle: Option<f32>,
    /// The spawn from 1.21.9 on ([`SpawnForm::Compound`]).
    #[serde(rename = "spawn", skip_serializing_if = "Option::is_none")]
    spawn: Option<Spawn>,
    time: i64,
    day_time: i64,
    last_played: i64,
    #[serde(rename = "raining")]
    raining: bool,
    #[serde(rename = "thundering")]
    thundering: bool,
    #[serde(rename = "Version")]
    version_info: Version,
    data_packs: DataPacks,
    game_rules: BTreeMap<&'static str, String>,
    world_gen_settings: WorldGenSettings,
}

/// The world's spawn as 1.21.9 and later hold it.
#[derive(Serialize)]
struct Spawn {
    dimension: &'static str,
    pos: fastnbt::IntArray,
    yaw: f32,
    pitch: f32,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Version {
    id: i32,
    name: &'static str,
    series: &'static str,
    snapshot: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct DataPacks {
    enabled: Vec<&'static str>,
    disabled: Vec<&'static str>,
}

#[derive(Serialize)]
struct WorldGenSettings {
    seed: i64,
    generate_features: bool,
    bonus_chest: bool,
    dimensions: BTreeMap<&'static str, Dimension>,
}

#[derive(Serialize)]
struct Dimension {
    #[serde(rename = "type")]
    kind: &'static str,
    generator: Generator,
}

#[derive(Serialize)]
#[serde(tag = "type")]
enum Generator {
    #[serde(rename = "minecraft:flat")]
    Flat { settings: FlatSettings },
    #[serde(rename = "minecraft:noise")]
    Noise {
        settings: &'static str,
        biome_source: BiomeSource,
    },
}

#[derive(Serialize)]
struct FlatSettings {
    layers: Vec<BTreeMap<String, i32>>,
    biome: &'static str,
    features: bool,
    lakes: bool,
    structure_overrides: Vec<&'static str>,
}

#[derive(Serialize)]
struct BiomeSource {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<&'static str>,
}
