//! Every generator version as it shipped: the presets it shipped where a later version
//! changed them, and the golden hashes of those worlds (the current version's: of
//! every built-in preset). A world code of any version must keep its world forever;
//! the determinism tests check every row. Adding version 10: the current row freezes
//! the presets version 10 changes (their configs as they are, their goldens kept, the
//! others' goldens dropped: version 10's row hashes them), and a new row hashes every
//! built-in preset. Every version with running water (5 on) also hashes the chunks at
//! each of [`WATER_SPOTS`], where each version lays its own water; a new version
//! that leaves a spot's water as it was needs a spot where it does not.

use terravox_voxel::ChunkPos;
use terravox_worldgen::{Generator, Seed, WorldConfig, presets};

use super::{fixed_chunks, golden_chunks};

/// The seeds every golden hash is taken for.
pub(crate) const SEEDS: [&str; 3] = ["terravox", "42", "-7 islands and cliffs"];

/// Which chunks a version's golden hashes cover.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Chunks {
    /// [`fixed_chunks`] (version 1, before the spawn looked for land).
    Fixed,
    /// [`golden_chunks`]: the fixed chunks and the land around the spawn.
    AroundSpawn,
}

/// One generator version as it shipped.
#[derive(Debug)]
pub(crate) struct Shipped {
    /// The generator version.
    pub(crate) version: u32,
    /// The presets as they shipped in this version where a later version changed them
    /// (name, RON); the current version has none (its presets are the built-in ones).
    pub(crate) frozen: &'static [(&'static str, &'static str)],
    /// The chunks its golden hashes cover.
    pub(crate) chunks: Chunks,
    /// Config fields its frozen world codes never carry (those later versions added):
    /// such codes are written as they always were, so their saves keep their names.
    pub(crate) absent: &'static [&'static str],
    /// (preset, seed, hash of the chunks) for every seed of each frozen preset (the
    /// current version: of each built-in preset). A preset a later version left as
    /// it was is hashed there, as the built-in one.
    pub(crate) golden: &'static [(&'static str, &'static str, u64)],
    /// The hash of the `continents` chunks at each of [`WATER_SPOTS`], in order, for
    /// every version with running water (5 on); none before.
    pub(crate) water: &'static [u64],
}

/// A place where `continents` has water that every version since 5 shapes its own
/// way: a column of chunks, hashed whole for the water goldens.
#[derive(Debug)]
pub(crate) struct WaterSpot {
    /// The seed of the world.
    pub(crate) seed: &'static str,
    /// What lies there.
    pub(crate) feature: &'static str,
    /// The chunk column (chunk x, chunk z).
    pub(crate) column: [i32; 2],
    /// The lowest and the highest chunk hashed (chunk y), from the bed to the
    /// highest water surface.
    pub(crate) heights: [i32; 2],
}

impl WaterSpot {
    /// The chunks hashed, bottom up.
    pub(crate) fn chunks(&self) -> Vec<ChunkPos> {
        let [x, z] = self.column;
        (self.heights[0]..=self.heights[1])
            .map(|y| ChunkPos::new(x, y, z))
            .collect()
    }
}

/// Where the water goldens look: in each of two worlds a river mouth, a fall, a lake
/// and a creek high up, each a chunk column where versions 5, 6, 7, 8 and 9 all lay
/// different blocks (found by comparing their column tops and water over 6 km).
pub(crate) const WATER_SPOTS: [WaterSpot; 8] = [
    WaterSpot {
        seed: "terravox",
        feature: "river mouth",
        column: [83, -27],
        heights: [-1, 0],
    },
    WaterSpot {
        seed: "terravox",
        feature: "fall",
        column: [-74, 4],
        heights: [0, 1],
    },
    WaterSpot {
        seed: "terravox",
        feature: "lake",
        column: [-78, 6],
        heights: [-1, 0],
    },
    WaterSpot {
        seed: "terravox",
        feature: "creek",
        column: [-56, 25],
        heights: [3, 5],
    },
    WaterSpot {
        seed: "42",
        feature: "river mouth",
        column: [-16, -83],
        heights: [-1, 0],
    },
    WaterSpot {
        seed: "42",
        feature: "fall",
        column: [2, 0],
        heights: [1, 2],
    },
    WaterSpot {
        seed: "42",
        feature: "lake",
        column: [19, -10],
        heights: [0, 1],
    },
    WaterSpot {
        seed: "42",
        feature: "creek",
        column: [2, 1],
        heights: [1, 3],
    },
];

impl Shipped {
    /// A preset of this version with a seed: as it shipped, or the built-in one.
    pub(crate) fn generator(&self, preset: &str, seed: &str) -> Generator {
        generator_of(self.ron(preset), seed)
    }

    /// The RON text of a preset of this version: as it shipped, or the built-in one.
    pub(crate) fn ron(&self, preset: &str) -> &'static str {
        let frozen = self.frozen.iter().find(|(n, _)| *n == preset);
        let builtin = || presets::BUILTIN.iter().find(|(n, _)| *n == preset);
        frozen.or_else(builtin).expect("a built-in preset").1
    }

    /// The chunks this version's goldens hash in `g`'s world.
    pub(crate) fn chunks(&self, g: &Generator) -> Vec<ChunkPos> {
        match self.chunks {
            Chunks::Fixed => fixed_chunks(),
            Chunks::AroundSpawn => golden_chunks(g),
        }
    }
}

/// The world of the preset `ron` with `seed`.
pub(crate) fn generator_of(ron: &str, seed: &str) -> Generator {
    let cfg = WorldConfig::from_ron(ron).expect("shipped configs stay valid");
    Generator::new(&cfg.with_seed(Seed::new(seed))).expect("valid")
}

/// The shipped version `version`.
pub(crate) fn shipped(version: u32) -> &'static Shipped {
    SHIPPED
        .iter()
        .find(|s| s.version == version)
        .expect("a shipped version")
}

/// Every generator version, oldest first.
pub(crate) const SHIPPED: &[Shipped] = &[
    // Version 1: the first presets (no `continents` yet), hashed over the fixed chunks
    // only.
    Shipped {
        version: 1,
        frozen: &[
            ("cliffs", include_str!("../v1/cliffs.ron")),
            ("amplified", include_str!("../v1/amplified.ron")),
            ("islands", include_str!("../v1/islands.ron")),
            ("archipelago", include_str!("../v1/archipelago.ron")),
        ],
        chunks: Chunks::Fixed,
        absent: &["nature", "shape"],
        water: &[],
        golden: &[
            ("cliffs", "terravox", 0x7a1249d2dea30f05),
            ("cliffs", "42", 0xd40d115f7994737c),
            ("cliffs", "-7 islands and cliffs", 0xe0d690b300a2ea77),
            ("amplified", "terravox", 0x5f51512cc9c926d3),
            ("amplified", "42", 0x3d1737890f2b7765),
            ("amplified", "-7 islands and cliffs", 0x0262f1fc7c04df5e),
            ("islands", "terravox", 0x92f491d53ee15d69),
            ("islands", "42", 0xac2d837b38fb2df6),
            ("islands", "-7 islands and cliffs", 0x9d19f6140a336d32),
            ("archipelago", "terravox", 0x75db56031185009a),
            ("archipelago", "42", 0x95879a4cb4c31e16),
            ("archipelago", "-7 islands and cliffs", 0x1f836e62c215c8f3),
        ],
    },
    // Version 2: climate, biomes and trees, the density field varying over the land,
    // islands of varied size; the island presets are built in unchanged since.
    Shipped {
        version: 2,
        frozen: &[
            ("continents", include_str!("../v2/continents.ron")),
            ("cliffs", include_str!("../v2/cliffs.ron")),
            ("amplified", include_str!("../v2/amplified.ron")),
        ],
        chunks: Chunks::AroundSpawn,
        absent: &["caves"],
        water: &[],
        golden: &[
            ("continents", "terravox", 0x89406383c6b81de1),
            ("continents", "42", 0x60c2d69ab887de76),
            ("continents", "-7 islands and cliffs", 0x7833c9facf6c23b6),
            ("cliffs", "terravox", 0x8e68144246a63ec2),
            ("cliffs", "42", 0xde11470e766899c1),
            ("cliffs", "-7 islands and cliffs", 0x2f297f884b2c3856),
            ("amplified", "terravox", 0xee3af6d7c62e3032),
            ("amplified", "42", 0x5549dfe4566ae422),
            ("amplified", "-7 islands and cliffs", 0xba9b5ea4f652453d),
        ],
    },
    // Version 3: caves in the density presets (the island worlds are version 2's).
    Shipped {
        version: 3,
        frozen: &[
            ("continents", include_str!("../v3/continents.ron")),
            ("cliffs", include_str!("../v3/cliffs.ron")),
            ("amplified", include_str!("../v3/amplified.ron")),
        ],
        chunks: Chunks::AroundSpawn,
        absent: &["relief"],
        water: &[],
        golden: &[
            ("continents", "terravox", 0x8482a422da5a95f4),
            ("continents", "42", 0x78b282eefda36891),
            ("continents", "-7 islands and cliffs", 0xef365a1a5172f891),
            ("cliffs", "terravox", 0x3fb880ce5adb5863),
            ("cliffs", "42", 0x49a11511d78bec4d),
            ("cliffs", "-7 islands and cliffs", 0xf7f5a21ace1f4e1a),
            ("amplified", "terravox", 0xbc500043880cad81),
            ("amplified", "42", 0xc55fa4af48174f2d),
            ("amplified", "-7 islands and cliffs", 0x9917735c373aab0a),
        ],
    },
    // Version 4: ranges, faces and the tree line in `continents`, trees away from cave
    // mouths in every density world; the island worlds as in version 2.
    Shipped {
        version: 4,
        frozen: &[
            ("continents", include_str!("../v4/continents.ron")),
            ("cliffs", include_str!("../v4/cliffs.ron")),
            ("amplified", include_str!("../v4/amplified.ron")),
            ("islands", include_str!("../v4/islands.ron")),
            ("archipelago", include_str!("../v4/archipelago.ron")),
        ],
        chunks: Chunks::AroundSpawn,
        absent: &["springs"],
        water: &[],
        golden: &[
            ("continents", "terravox", 0xf9ab9f5aae04f7f5),
            ("continents", "42", 0x69b02025edb83de5),
            ("continents", "-7 islands and cliffs", 0xcab965dac08086c7),
            ("cliffs", "terravox", 0xdef2f63cfd81ca5f),
            ("cliffs", "42", 0x49a11511d78bec4d),
            ("cliffs", "-7 islands and cliffs", 0xe2e281afa6d30bd2),
            ("amplified", "terravox", 0xbc500043880cad81),
            ("amplified", "42", 0xc55fa4af48174f2d),
            ("amplified", "-7 islands and cliffs", 0xe99b992c98463e3a),
            ("islands", "terravox", 0x37f5bbef62e41818),
            ("islands", "42", 0x9e19e367ae03fa82),
            ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
            ("archipelago", "terravox", 0xfe6022c0d788f37f),
            ("archipelago", "42", 0x2995aadc89e77648),
            ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
        ],
    },
    // Version 5: water that runs downhill in `continents`; the other presets are their
    // version-4 worlds.
    Shipped {
        version: 5,
        frozen: &[("continents", include_str!("../v5/continents.ron"))],
        chunks: Chunks::AroundSpawn,
        absent: &[],
        water: &[
            0x6bf7beb50d033a2a,
            0x4981bc779e6019f5,
            0xa47e1d133d6fc0e5,
            0xc20e5b2cf0ee0cfd,
            0x0ed20614fb58dae5,
            0x43c5de6aa7d3839d,
            0xe91426595d258d64,
            0x12e183475cff9691,
        ],
        golden: &[
            ("continents", "terravox", 0x881e608434b8f029),
            ("continents", "42", 0xdd3b7f994109d8c2),
            ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
        ],
    },
    // Version 6: banks keep the water of `continents` in; the other presets are their
    // version-5 worlds.
    Shipped {
        version: 6,
        frozen: &[("continents", include_str!("../v6/continents.ron"))],
        chunks: Chunks::AroundSpawn,
        absent: &[],
        water: &[
            0x69ac0c7d97010754,
            0xada2d5ce2510c736,
            0xeb3db82910e67a8c,
            0xda157e31e8be7d64,
            0xf65feac1738e5d36,
            0x9bc6172555a34741,
            0xcf15c63391b17c50,
            0x9978a2f696506bb8,
        ],
        golden: &[
            ("continents", "terravox", 0x881e608434b8f029),
            ("continents", "42", 0xd000374b7b9f0c28),
            ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
        ],
    },
    // Version 7: gullies down the valley walls rivers cut through the ranges of
    // `continents`; the other presets are their version-6 worlds.
    Shipped {
        version: 7,
        frozen: &[("continents", include_str!("../v7/continents.ron"))],
        chunks: Chunks::AroundSpawn,
        absent: &[],
        water: &[
            0x026012eef616cff9,
            0x787515fa16332715,
            0x9ef9fed19ee5ba91,
            0xdcd1eb2f5ae2e13a,
            0xdd1ecc082123c389,
            0xbd8368e3c16bf95a,
            0x424665f017baa2d1,
            0xa4f748dc6c8f0719,
        ],
        golden: &[
            ("continents", "terravox", 0x881e608434b8f029),
            ("continents", "42", 0x687241b9341e03e3),
            ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
        ],
    },
    // Version 8: streams that run, in courses laid under the node grid, in
    // `continents`; the other presets are their version-6 worlds.
    Shipped {
        version: 8,
        frozen: &[("continents", include_str!("../v8/continents.ron"))],
        chunks: Chunks::AroundSpawn,
        absent: &[],
        water: &[
            0x797011ea6c55eb1f,
            0x8dbbf84855078032,
            0x73429f877335e4e1,
            0x38edd47af791a10e,
            0x21fd3d0f7ee8d96c,
            0xfd32c916225258f9,
            0xdbe0e0f5669a392d,
            0xa10a9e21214be951,
        ],
        golden: &[
            ("continents", "terravox", 0x881e608434b8f029),
            ("continents", "42", 0x96bf141be9fc11a6),
            ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
        ],
    },
    // Version 9 (the current one, every preset built in): a run of a course shapes
    // a column by its nearest piece, in `continents`; the other presets are their
    // version-6 worlds. A change that alters these worlds must freeze them (a new
    // row) and bump `GENERATOR_VERSION`.
    Shipped {
        version: 9,
        frozen: &[],
        chunks: Chunks::AroundSpawn,
        absent: &[],
        water: &[
            0xee483f94c4d5243d,
            0xca0bac4a86ce1ead,
            0x51d98b7b948aa437,
            0xe40114a187893ee1,
            0xb645f484d7cd852f,
            0x7d9f713bf6cf1ff1,
            0xfa4c9c3c4a5f822b,
            0x248dd42bcdd055c7,
        ],
        golden: &[
            ("continents", "terravox", 0x881e608434b8f029),
            ("continents", "42", 0x2bc253f51df5d685),
            ("continents", "-7 islands and cliffs", 0x87ba773d74c07b75),
            ("cliffs", "terravox", 0xdef2f63cfd81ca5f),
            ("cliffs", "42", 0x49a11511d78bec4d),
            ("cliffs", "-7 islands and cliffs", 0xe2e281afa6d30bd2),
            ("amplified", "terravox", 0xbc500043880cad81),
            ("amplified", "42", 0xc55fa4af48174f2d),
            ("amplified", "-7 islands and cliffs", 0xe99b992c98463e3a),
            ("islands", "terravox", 0x37f5bbef62e41818),
            ("islands", "42", 0x9e19e367ae03fa82),
            ("islands", "-7 islands and cliffs", 0x267f6a33f2af3f18),
            ("archipelago", "terravox", 0xfe6022c0d788f37f),
            ("archipelago", "42", 0x2995aadc89e77648),
            ("archipelago", "-7 islands and cliffs", 0xecb5919011bf27d2),
        ],
    },
];
