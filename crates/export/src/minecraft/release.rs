//! The Minecraft releases an export is written for (`--minecraft VERSION`): what
//! each one reads where the export's files differ between them.
//!
//! Where the numbers come from (the game's own values): the data versions from each
//! release's `version.json` as PrismarineJS/minecraft-data lists them
//! (`data/pc/common/protocolVersions.json`) and, up to 1.21.4, misode/mcmeta's
//! `versions/data.json`, which agree; the data pack formats from the Minecraft Wiki's
//! "Pack format" table; the spawn's form and the pack's `min_format`/`max_format`
//! from the wiki's "Java Edition level format" and "Pack format" pages (1.21.9 moved
//! both); the overworld's `cloud_height` (1.21.6 to 1.21.10) from the vanilla data
//! pack. Chunks, block and biome names are the same in every release here.
//!
//! 1.21.11 and later read a different dimension type (environment attributes) and
//! game rules; they open a world written for 1.21.10 and upgrade it, but the height
//! data pack is written for the release named, so for them land above y 319 is
//! brought down with `--height fit`.

use crate::error::ExportError;

/// How `pack.mcmeta` names the data pack's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackForm {
    /// `"pack_format": N` (up to 1.21.8).
    PackFormat,
    /// `"min_format": N, "max_format": N` (1.21.9 on).
    MinMax,
}

/// How `level.dat` holds the world's spawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnForm {
    /// `SpawnX`, `SpawnY`, `SpawnZ` and `SpawnAngle` (up to 1.21.8).
    Fields,
    /// A `spawn` compound: `dimension`, `pos` (x, y, z), `yaw`, `pitch` (1.21.9 on).
    Compound,
}

/// A Minecraft Java Edition release an export can be written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Release {
    /// As the game names it: "1.21.4".
    pub name: &'static str,
    /// Its data version, in every chunk and in `level.dat`.
    pub data_version: i32,
    /// Its data pack format.
    pub pack_format: i32,
    /// How its `pack.mcmeta` states the format.
    pub pack_form: PackForm,
    /// How its `level.dat` holds the spawn.
    pub spawn_form: SpawnForm,
    /// Whether its overworld's dimension type has `cloud_height` (without it, a
    /// raised overworld would have no clouds).
    pub cloud_height: bool,
}

const fn release(
    name: &'static str,
    data_version: i32,
    pack_format: i32,
    cloud_height: bool,
    newer: bool,
) -> Release {
    Release {
        name,
        data_version,
        pack_format,
        pack_form: if newer {
            PackForm::MinMax
        } else {
            PackForm::PackFormat
        },
        spawn_form: if newer {
            SpawnForm::Compound
        } else {
            SpawnForm::Fields
        },
        cloud_height,
    }
}

/// Every release an export is written for, oldest first.
pub const RELEASES: [Release; 13] = [
    release("1.20.5", 3837, 41, false, false),
    release("1.20.6", 3839, 41, false, false),
    release("1.21", 3953, 48, false, false),
    release("1.21.1", 3955, 48, false, false),
    release("1.21.2", 4080, 57, false, false),
    release("1.21.3", 4082, 57, false, false),
    release("1.21.4", 4189, 61, false, false),
    release("1.21.5", 4325, 71, false, false),
    release("1.21.6", 4435, 80, true, false),
    release("1.21.7", 4438, 81, true, false),
    release("1.21.8", 4440, 81, true, false),
    release("1.21.9", 4554, 88, true, true),
    // A fix of 1.21.9 on the same protocol: 1.21.9's formats.
    release("1.21.10", 4556, 88, true, true),
];

/// The newest release in [`RELEASES`]: what an export is written for by default.
pub const NEWEST: Release = RELEASES[RELEASES.len() - 1];

impl Release {
    /// The release called `name` ("1.21" and "1.21.0" are one); another is refused
    /// with the list.
    pub fn named(name: &str) -> Result<Release, ExportError> {
        let name = name.trim();
        let name = name
            .strip_suffix(".0")
            .filter(|n| n.matches('.').count() == 1)
            .unwrap_or(name);
        RELEASES
            .iter()
            .copied()
            .find(|r| r.name == name)
            .ok_or_else(|| {
                let all: Vec<_> = RELEASES.iter().map(|r| r.name).collect();
                ExportError::Area(format!(
                    "--minecraft {name}: not a release terravox writes; one of {} (a later \
                     Minecraft opens the newest and upgrades it; with land above y 319 use \
                     --height fit for it)",
                    all.join(", ")
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_are_in_order_and_named_once() {
        for w in RELEASES.windows(2) {
            assert!(
                w[0].data_version < w[1].data_version,
                "{} {}",
                w[0].name,
                w[1].name
            );
            assert!(
                w[0].pack_format <= w[1].pack_format,
                "{} {}",
                w[0].name,
                w[1].name
            );
        }
        for r in RELEASES {
            assert_eq!(Release::named(r.name).unwrap(), r);
        }
        assert_eq!(Release::named("1.21.0").unwrap().data_version, 3953);
        assert_eq!(NEWEST, RELEASES[RELEASES.len() - 1]);
    }

    #[test]
    fn an_unknown_release_is_refused_with_the_list() {
        for bad in ["1.19.4", "1.21.11", "26.1", "latest", ""] {
            let e = Release::named(bad).unwrap_err().to_string();
            assert!(
                e.contains("1.20.5") && e.contains(NEWEST.name),
                "{bad}: {e}"
            );
        }
    }
}
