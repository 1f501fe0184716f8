//! The data pack that makes an exported world taller than Minecraft's default 384
//! blocks: it gives the overworld's dimension type the height the land needs (the
//! vanilla overworld's settings otherwise), as terrain mods do. `level.dat` enables it
//! ([`ID`]); Minecraft reads it when it opens the world.
//!
//! ```text
//! datapacks/terravox_height/pack.mcmeta
//! datapacks/terravox_height/data/minecraft/dimension_type/overworld.json
//! ```

use std::fs;
use std::path::Path;

use serde_json::json;

use super::{HIGHEST_TOP, MAX_Y, MIN_Y};
use crate::error::ExportError;
use crate::target::write;

/// The pack's folder under `datapacks/`.
pub const NAME: &str = "terravox_height";
/// How `level.dat` names the pack among the enabled ones.
pub const ID: &str = "file/terravox_height";
/// Minecraft 1.21.1's data pack format.
pub const PACK_FORMAT: i32 = 48;

/// The overworld's dimension type with its top at `top` (one above the highest
/// block; a multiple of 16 above [`MIN_Y`], within [`MAX_Y`]..=[`HIGHEST_TOP`]):
/// the vanilla overworld's values, taller.
pub fn overworld(top: i32) -> serde_json::Value {
    let height = top.clamp(MAX_Y, HIGHEST_TOP) - MIN_Y;
    json!({
        "ultrawarm": false,
        "natural": true,
        "coordinate_scale": 1.0,
        "has_skylight": true,
        "has_ceiling": false,
        "ambient_light": 0.0,
        "monster_spawn_light_level": {
            "type": "minecraft:uniform",
            "min_inclusive": 0,
            "max_inclusive": 7
        },
        "monster_spawn_block_light_limit": 0,
        "piglin_safe": false,
        "bed_works": true,
        "respawn_anchor_works": false,
        "has_raids": true,
        "logical_height": height,
        "min_y": MIN_Y,
        "height": height,
        "infiniburn": "#minecraft:infiniburn_overworld",
        "effects": "minecraft:overworld"
    })
}

/// Writes the pack into the world folder `world` for a top of `top`; returns the
/// bytes written.
pub(crate) fn write_pack(world: &Path, top: i32) -> Result<u64, ExportError> {
    let pack = world.join("datapacks").join(NAME);
    let types = pack.join("data/minecraft/dimension_type");
    fs::create_dir_all(&types).map_err(ExportError::io(&types))?;
    let meta = json!({
        "pack": {
            "pack_format": PACK_FORMAT,
            "description": format!("terravox: the overworld {} blocks tall", top - MIN_Y)
        }
    });
    let mut bytes = 0;
    for (path, value) in [
        (pack.join("pack.mcmeta"), meta),
        (types.join("overworld.json"), overworld(top)),
    ] {
        let text = serde_json::to_vec_pretty(&value)
            .map_err(|e| ExportError::encode("the data pack")(e.to_string()))?;
        write(&path, &text)?;
        bytes += text.len() as u64;
    }
    Ok(bytes)
}
