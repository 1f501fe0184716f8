//! The generator versions, in one table: for each version, the config sections it
//! first allowed and the behaviours it changed. Validation reads the sections (a
//! section before its version is refused, naming the version), the generators read
//! the behaviours ([`Behaviour::of`]); a new version is one row here.
//!
//! Code paths branch on the config where a section decides (no `caves`, no caves),
//! and on a behaviour of this table where the same config is generated differently
//! from some version on, never on "the current version".

use super::world::{DensityConfig, GeneratorConfig, WorldConfig};

/// A config section that some version first allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// `nature`: climate, biomes and trees.
    Nature,
    /// `generator.shape`: the density field's parameters varying over the land.
    Shape,
    /// `generator.caves`.
    Caves,
    /// `generator.shape.relief`: mountain ranges.
    Relief,
    /// `generator.shape.water`: water that runs downhill.
    Water,
}

impl Section {
    /// Every section, in the order of the versions that brought them.
    pub(crate) const ALL: [Section; 5] = [
        Section::Nature,
        Section::Shape,
        Section::Caves,
        Section::Relief,
        Section::Water,
    ];

    /// The section's path in a config, and what it holds (for messages).
    pub(crate) const fn path(self) -> (&'static str, &'static str) {
        match self {
            Section::Nature => ("nature", "climate, biomes, trees"),
            Section::Shape => ("generator.shape", "terrain shape"),
            Section::Caves => ("generator.caves", "caves"),
            Section::Relief => ("generator.shape.relief", "mountain ranges"),
            Section::Water => ("generator.shape.water", "rivers, lakes and waterfalls"),
        }
    }

    /// Whether `cfg` has this section.
    pub(crate) fn present_in(self, cfg: &WorldConfig) -> bool {
        let density = match &cfg.generator {
            GeneratorConfig::Density(d) => Some(d),
            GeneratorConfig::Islands(_) => None,
        };
        let shape = density.and_then(|d| d.shape.as_ref());
        match self {
            Section::Nature => cfg.nature.is_some(),
            Section::Shape => shape.is_some(),
            Section::Caves => matches!(density, Some(DensityConfig { caves: Some(_), .. })),
            Section::Relief => shape.is_some_and(|s| s.relief.is_some()),
            Section::Water => shape.is_some_and(|s| s.water.is_some()),
        }
    }

    /// The first version that allows it.
    pub(crate) const fn since(self) -> u32 {
        let mut i = 0;
        while i < VERSIONS.len() {
            let mut j = 0;
            while j < VERSIONS[i].sections.len() {
                if VERSIONS[i].sections[j] as u8 == self as u8 {
                    return VERSIONS[i].number;
                }
                j += 1;
            }
            i += 1;
        }
        panic!("every section has the version that brought it");
    }
}

/// A way the same config is generated differently from some version on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Islands of varied size and shape, a quarter of the cells empty (version 2).
    VariedIslands,
    /// Trees keep away from where caves may open to the surface (version 4).
    TreesShunCaveMouths,
    /// Big rivers wind in bends over floodplains (version 6).
    WindingRivers,
    /// Columns beside higher water keep it in: banks raised, buried beds opened
    /// (version 6).
    Shores,
    /// The ranges' gullies run on down the valley walls rivers cut (version 7).
    WallGullies,
    /// Rivers run in courses laid under the node grid, their water running down
    /// them in every column (version 8).
    RunningCourses,
    /// A run of a running course (a step's pieces on one side of its fall) shapes a
    /// column by its piece nearest the column alone (version 9).
    RunsByNearestPiece,
}

/// One generator version: what it first allowed and what it changed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Version {
    /// Its number.
    pub(crate) number: u32,
    /// The config sections it first allowed.
    pub(crate) sections: &'static [Section],
    /// The behaviours it changed.
    pub(crate) changes: &'static [Change],
    /// What it brought, in a player's words ([`version_brought`]).
    pub(crate) brought: &'static str,
}

/// Every generator version, oldest first (see [`crate::GENERATOR_VERSION`] for what
/// each brought).
pub(crate) const VERSIONS: [Version; 9] = [
    Version {
        number: 1,
        sections: &[],
        changes: &[],
        brought: "the density field with one shape everywhere, and islands on a grid",
    },
    Version {
        number: 2,
        sections: &[Section::Nature, Section::Shape],
        changes: &[Change::VariedIslands],
        brought: "biomes and trees, terrain that varies over the land, islands of varied size",
    },
    Version {
        number: 3,
        sections: &[Section::Caves],
        changes: &[],
        brought: "caves: caverns, tunnels and ores",
    },
    Version {
        number: 4,
        sections: &[Section::Relief],
        changes: &[Change::TreesShunCaveMouths],
        brought: "mountain ranges: ridges, jagged peaks and the erosion filter's gullies",
    },
    Version {
        number: 5,
        sections: &[Section::Water],
        changes: &[],
        brought: "water that runs downhill: springs, rivers, lakes above the sea and waterfalls",
    },
    Version {
        number: 6,
        sections: &[],
        changes: &[Change::WindingRivers, Change::Shores],
        brought: "shores that hold their water, and big rivers winding over floodplains",
    },
    Version {
        number: 7,
        sections: &[],
        changes: &[Change::WallGullies],
        brought: "gullies carried down the walls of the valleys rivers cut",
    },
    Version {
        number: 8,
        sections: &[],
        changes: &[Change::RunningCourses],
        brought: "creeks that run in every column, from spring to sea",
    },
    Version {
        number: 9,
        sections: &[],
        changes: &[Change::RunsByNearestPiece],
        brought: "banks and valley walls that follow the level of the water nearest them",
    },
];

/// What generator version `version` brought, in a player's words (for the panel);
/// `None` for a version this build does not make.
pub fn version_brought(version: u32) -> Option<&'static str> {
    VERSIONS
        .iter()
        .find(|v| v.number == version)
        .map(|v| v.brought)
}

/// The behaviours of one version: every change of it and of the versions before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Behaviour(u32);

impl Behaviour {
    /// The behaviours of version `version`.
    pub(crate) const fn of(version: u32) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < VERSIONS.len() && VERSIONS[i].number <= version {
            let mut j = 0;
            while j < VERSIONS[i].changes.len() {
                bits |= 1 << VERSIONS[i].changes[j] as u32;
                j += 1;
            }
            i += 1;
        }
        Self(bits)
    }

    /// Whether `change` is one of them.
    pub(crate) const fn has(self, change: Change) -> bool {
        self.0 & 1 << change as u32 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_runs_from_1_to_the_current_version_one_row_each() {
        for (i, v) in VERSIONS.iter().enumerate() {
            assert_eq!(v.number, i as u32 + 1);
        }
        assert_eq!(
            VERSIONS.last().map(|v| v.number),
            Some(super::super::world::GENERATOR_VERSION)
        );
        // Each says what it brought, in words of its own.
        let words: std::collections::HashSet<_> = VERSIONS.iter().map(|v| v.brought).collect();
        assert_eq!(words.len(), VERSIONS.len());
        assert_eq!(version_brought(0), None);
        assert_eq!(version_brought(VERSIONS.len() as u32 + 1), None);
        // Each section and change is brought by one version.
        for s in Section::ALL {
            let rows = VERSIONS.iter().filter(|v| v.sections.contains(&s));
            assert_eq!(rows.count(), 1, "{s:?}");
        }
        for c in ALL_CHANGES {
            let rows = VERSIONS.iter().filter(|v| v.changes.contains(&c));
            assert_eq!(rows.count(), 1, "{c:?}");
        }
    }

    /// Every change (a new one that is not listed here fails to compile below).
    const ALL_CHANGES: [Change; 7] = [
        Change::VariedIslands,
        Change::TreesShunCaveMouths,
        Change::WindingRivers,
        Change::Shores,
        Change::WallGullies,
        Change::RunningCourses,
        Change::RunsByNearestPiece,
    ];

    /// Fails to compile when a change is added and not listed in [`ALL_CHANGES`].
    #[allow(dead_code)]
    fn every_change_is_listed(c: Change) {
        match c {
            Change::VariedIslands
            | Change::TreesShunCaveMouths
            | Change::WindingRivers
            | Change::Shores
            | Change::WallGullies
            | Change::RunningCourses
            | Change::RunsByNearestPiece => {}
        }
    }

    #[test]
    fn a_behaviour_holds_from_its_version_on() {
        let since = [
            (Change::VariedIslands, 2),
            (Change::TreesShunCaveMouths, 4),
            (Change::WindingRivers, 6),
            (Change::Shores, 6),
            (Change::WallGullies, 7),
            (Change::RunningCourses, 8),
            (Change::RunsByNearestPiece, 9),
        ];
        for (change, first) in since {
            for v in 1..=VERSIONS.len() as u32 {
                assert_eq!(
                    Behaviour::of(v).has(change),
                    v >= first,
                    "{change:?} in {v}"
                );
            }
        }
        let sections = [2, 2, 3, 4, 5];
        for (s, first) in Section::ALL.into_iter().zip(sections) {
            assert_eq!(s.since(), first, "{s:?}");
        }
    }
}
