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

use super::bounds::{HIGHEST_TOP, MAX_Y, MIN_Y};
use super::release::{PackForm, Release};
use crate::error::ExportError;
use crate::target::write;

/// The pack's folder under `datapacks/`.
pub const NAME: &str = "terravox_height";
/// How `level.dat` names the pack among the enabled ones.
pub const ID: &str = "file/terravox_height";
/// The overworld's dimension type with its top at `top` (one above the highest
/// block; a multiple of 16 above [`MIN_Y`], within [`MAX_Y`]..=[`HIGHEST_TOP`]):
/// `release`'s vanilla overworld, taller.
pub fn overworld(top: i32, release: &Release) -> serde_json::Value {
    let height = top.clamp(MAX_Y, HIGHEST_TOP) - MIN_Y;
    let mut overworld = json!({
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
    });
    if release.cloud_height {
        overworld["cloud_height"] = json!(192);
    }
    overworld
}

/// `pack.mcmeta` for `release`, saying what the pack does.
pub fn meta(release: &Release, description: String) -> serde_json::Value {
    let format = release.pack_format;
    match release.pack_form {
        PackForm::PackFormat => json!({
            "pack": { "pack_format": format, "description": description }
        }),
        PackForm::MinMax => json!({
            "pack": { "min_format": format, "max_format": format, "description": description }
        }),
    }
}

/// Writes the pack for `release` into the world folder `world` for a top of `top`;
/// returns the bytes written.
pub(crate) fn write_pack(world: &Path, top: i32, release: &Release) -> Result<u64, ExportError> {
    let pack = world.join("datapacks").join(NAME);
    let types = pack.join("data/minecraft/dimension_type");
    fs::create_dir_all(&types).map_err(ExportError::io(&types))?;
    let meta = meta(
        release,
        format!("terravox: the overworld {} blocks tall", top - MIN_Y),
    );
    let mut bytes = 0;
    for (path, value) in [
        (pack.join("pack.mcmeta"), meta),
        (types.join("overworld.json"), overworld(top, release)),
    ] {
        let text = serde_json::to_vec_pretty(&value)
            .map_err(|e| ExportError::encode("the data pack")(e.to_string()))?;
        write(&path, &text)?;
        bytes += text.len() as u64;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minecraft::release::{NEWEST, Release};

    #[test]
    fn each_release_gets_its_pack_format_in_its_form() {
        let old = Release::named("1.21.1").unwrap();
        let m = meta(&old, "x".into());
        assert_eq!(m["pack"]["pack_format"], 48);
        assert!(m["pack"].get("min_format").is_none());
        let m = meta(&NEWEST, "x".into());
        assert_eq!(m["pack"]["min_format"], NEWEST.pack_format);
        assert_eq!(m["pack"]["max_format"], NEWEST.pack_format);
        assert!(m["pack"].get("pack_format").is_none());
    }

    #[test]
    fn clouds_stay_where_the_release_has_them() {
        let top = 400;
        for (name, clouds) in [("1.21.5", false), ("1.21.6", true), ("1.21.10", true)] {
            let o = overworld(top, &Release::named(name).unwrap());
            assert_eq!(o.get("cloud_height").is_some(), clouds, "{name}");
            assert_eq!(o["height"], top - MIN_Y);
        }
    }
}
