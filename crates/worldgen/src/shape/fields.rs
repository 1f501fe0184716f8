//! The fields that drive a world, column by column, to look at one at a time: the
//! shape's continentalness, erosion and weirdness (peaks and valleys, rivers on its
//! zero line), the climate's temperature and humidity, and version 4's mountain
//! ranges (where they stand, their ridge lines, jagged peaks, the erosion filter's
//! gullies and ridges). A world without a field has `None` there (a version-1 world
//! has none at all; islands have only the climate). The generators fill them in;
//! `Generator::fields_at` and `Generator::fields_along` ask for them.

/// One field a world's generator uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// Continentalness: -1 deep ocean .. 1 far inland.
    Continentalness,
    /// Erosion: -1 mountainous .. 1 flat.
    Erosion,
    /// Weirdness: rivers along its zero line, peaks and valleys from its magnitude.
    Weirdness,
    /// Temperature: -1 frozen .. 1 hot.
    Temperature,
    /// Humidity: -1 arid .. 1 wet.
    Humidity,
    /// How much of the mountain ranges stands here: 0 .. 1.
    Ranges,
    /// The ranges' crest profile: 1 on a ridge line, 0 between ranges.
    Ridges,
    /// How much the jagged-peaks noise roughens the column: 0 .. 1 (high ground).
    Jaggedness,
    /// The erosion filter's ridge map where the ranges stand: -1 in gullies .. 1 on
    /// eroded ridges.
    ErosionStrength,
}

impl Field {
    /// Every field, in the order the panel lists them.
    pub const ALL: [Field; 9] = [
        Field::Continentalness,
        Field::Erosion,
        Field::Weirdness,
        Field::Temperature,
        Field::Humidity,
        Field::Ranges,
        Field::Ridges,
        Field::Jaggedness,
        Field::ErosionStrength,
    ];

    /// Its name on the command line and in the panel.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Continentalness => "continentalness",
            Field::Erosion => "erosion",
            Field::Weirdness => "weirdness",
            Field::Temperature => "temperature",
            Field::Humidity => "humidity",
            Field::Ranges => "ranges",
            Field::Ridges => "ridges",
            Field::Jaggedness => "jaggedness",
            Field::ErosionStrength => "erosion-strength",
        }
    }

    /// The range its values take, low to high.
    pub const fn range(self) -> [f64; 2] {
        match self {
            Field::Ranges | Field::Ridges | Field::Jaggedness => [0.0, 1.0],
            _ => [-1.0, 1.0],
        }
    }

    /// What its low and high ends mean, for a legend.
    pub const fn ends(self) -> [&'static str; 2] {
        match self {
            Field::Continentalness => ["deep ocean", "far inland"],
            Field::Erosion => ["mountainous", "flat"],
            Field::Weirdness => ["valleys", "peaks (rivers at 0)"],
            Field::Temperature => ["frozen", "hot"],
            Field::Humidity => ["arid", "wet"],
            Field::Ranges => ["no ranges", "full ranges"],
            Field::Ridges => ["between ranges", "ridge line"],
            Field::Jaggedness => ["smooth", "jagged"],
            Field::ErosionStrength => ["gullies", "eroded ridges"],
        }
    }

    /// The field named `name`.
    pub fn named(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The value of every field at one column (`None` where the world has no such
/// field).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ColumnFields([Option<f64>; Field::ALL.len()]);

impl ColumnFields {
    /// The value of `field`, if the world has it.
    pub fn get(&self, field: Field) -> Option<f64> {
        self.0[field as usize]
    }

    /// Sets the value of `field`.
    pub(crate) fn set(&mut self, field: Field, value: f64) {
        self.0[field as usize] = Some(value);
    }

    /// Every field the world has, with its value.
    pub fn present(&self) -> impl Iterator<Item = (Field, f64)> + '_ {
        Field::ALL
            .into_iter()
            .filter_map(|f| self.get(f).map(|v| (f, v)))
    }
}
