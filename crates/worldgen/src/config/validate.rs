//! Parsing, validating and canonicalising world configs: the ranges of
//! [`crate::config::params`] plus the rules between fields; every problem names its field, the
//! value and what is allowed.

use crate::bounds::{HEIGHT_LIMIT, PLAYABLE_MARGIN, SURFACE_HEIGHTS, WORLD_FLOOR};
use crate::config::params::{self, Param};
use crate::config::seed::Seed;
use crate::config::versions::Section;
use crate::config::world::{
    ConfigError, DensityConfig, GeneratorConfig, IslandLayout, ReliefConfig, SUPPORTED_VERSIONS,
    Spline, WorldConfig,
};

/// Collects problems with their field paths.
struct Check {
    errors: Vec<ConfigError>,
}

impl Check {
    fn fail(&mut self, field: &str, value: impl std::fmt::Display, expected: &str) {
        self.errors.push(ConfigError::Invalid {
            field: field.to_owned(),
            value: value.to_string(),
            expected: expected.to_owned(),
        });
    }

    /// The surface of a world lies between `lowest` and `highest`: it must stay within
    /// [`SURFACE_HEIGHTS`] ([`PLAYABLE_MARGIN`] above [`WORLD_FLOOR`], where a player is
    /// put back, and as far below [`HEIGHT_LIMIT`]), or the world cannot be played.
    fn playable(&mut self, field: &str, value: impl std::fmt::Display, lowest: f64, highest: f64) {
        let (floor, top) = (
            *SURFACE_HEIGHTS.start() as f64,
            *SURFACE_HEIGHTS.end() as f64,
        );
        let reach = if lowest < floor {
            format!(
                "here it can sink to {lowest:.0}; below {WORLD_FLOOR} a player is put back at \
                 the spawn"
            )
        } else if highest > top {
            format!(
                "here it can reach {highest:.0}; the world ends at {HEIGHT_LIMIT}, and a spawn \
                 needs room above it"
            )
        } else {
            return;
        };
        self.fail(
            field,
            value,
            &format!("a world whose surface stays within {floor}..={top} ({reach})"),
        );
    }

    /// Checks a spline: 2 to 16 points, `x` strictly ascending in `[-1, 1]`, `y` in
    /// `range`.
    fn spline(&mut self, field: &str, spline: &Spline, range: (f64, f64)) {
        let points = &spline.0;
        if !(2..=16).contains(&points.len()) {
            self.fail(field, format!("{} points", points.len()), "2 to 16 points");
            return;
        }
        let mut last = f64::NEG_INFINITY;
        for (i, &[x, y]) in points.iter().enumerate() {
            if !(x.is_finite() && (-1.0..=1.0).contains(&x) && x > last) {
                self.fail(
                    &format!("{field}[{i}].0"),
                    x,
                    &format!("a number in [-1, 1] above the point before it ({last})"),
                );
                return;
            }
            if !(y.is_finite() && (range.0..=range.1).contains(&y)) {
                self.fail(
                    &format!("{field}[{i}].1"),
                    y,
                    &format!("a finite number in [{}, {}]", range.0, range.1),
                );
                return;
            }
            last = x;
        }
    }

    /// Checks a relief's parameters, its spline and that its finest gullies are not
    /// finer than the lattice can show.
    fn relief(&mut self, r: &ReliefConfig) {
        self.params("generator.", &params::RELIEF, r);
        for sp in &params::RELIEF_SPLINES {
            let field = format!("generator.shape.{}", sp.field);
            self.spline(&field, (sp.get)(r), sp.range);
        }
        if let Some(e) = &r.erosion {
            let before = self.errors.len();
            self.params("generator.", &params::EROSION, e);
            let finest = e.params().smallest_wavelength();
            if self.errors.len() == before && finest < 8.0 {
                self.fail(
                    "generator.shape.relief.erosion.octaves",
                    e.octaves,
                    &format!(
                        "at most {} octaves at a gully spacing of {} (the finest gullies, \
                         scale / 2^(octaves - 1), must stay 8 or more blocks apart)",
                        1 + (e.scale / 8.0).log2().floor() as u32,
                        e.scale
                    ),
                );
            }
        }
    }

    /// Checks every parameter of a table on `config`, naming fields `{prefix}{field}`.
    fn params<C>(&mut self, prefix: &str, table: &[Param<C>], config: &C) {
        for p in table {
            let v = (p.get)(config);
            if !p.spec.allows(v) {
                self.fail(&format!("{prefix}{}", p.field), v, &p.spec.expected());
            }
        }
    }
}

/// The lowest and highest surface a density world can have: `(n + cliff)` spans
/// `[-1, 1 + cliff_scale]` around the column's offset.
pub(crate) fn surface_range(d: &DensityConfig, sea_level: i32) -> (f64, f64) {
    let base = d.offset - d.threshold;
    let Some(s) = &d.shape else {
        return (base - d.scale - 1.0, base + d.scale * (1.0 + d.cliff_scale));
    };
    let (h, m, p, r, k) = (
        s.height.range(),
        s.mountains.range(),
        s.peaks.range(),
        s.roughness.range(),
        s.crags.range(),
    );
    let products = [m.0 * p.0, m.0 * p.1, m.1 * p.0, m.1 * p.1];
    let (mlo, mhi) = products
        .iter()
        .fold((0.0f64, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let scale = d.scale * r.1;
    let river = sea_level as f64 - s.rivers.depth - d.threshold;
    let lowest = (base + h.0 + mlo).min(river) - scale - 1.0;
    let lift = s.relief.as_deref().map_or(0.0, ReliefConfig::highest_lift);
    let highest = base + h.1 + mhi + lift + scale * (1.0 + d.cliff_scale * k.1);
    (lowest, highest)
}

/// A RON error as a [`ConfigError`]: an unknown field with its path and the nearest
/// known name, anything else with the parser's message.
fn parse_error(e: ron::error::SpannedError) -> ConfigError {
    let (line, column) = (e.span.start.line, e.span.start.col);
    match e.code {
        ron::Error::NoSuchStructField {
            expected,
            found,
            outer,
        } => {
            // The section's path with a dot, `""` at the top level (or where the
            // section is not known: the name alone still finds the field).
            let prefix = match outer.as_deref().and_then(section) {
                Some("") | None => String::new(),
                Some(path) => format!("{path}."),
            };
            ConfigError::UnknownField {
                line,
                column,
                field: format!("{prefix}{found}"),
                suggestion: nearest(&found, expected).map(|s| format!("{prefix}{s}")),
                expected,
            }
        }
        code => ConfigError::Parse {
            line,
            column,
            message: code.to_string(),
        },
    }
}

/// The dotted path of the section that ron names `outer` in an error: a config
/// type's name, or the enum variant holding it. `""` is the top level.
fn section(outer: &str) -> Option<&'static str> {
    Some(match outer {
        "WorldConfig" => "",
        "NatureConfig" => "nature",
        "DensityConfig" | "IslandConfig" | "Density" | "Islands" => "generator",
        "NoiseConfig" => "generator.noise",
        "ShapeConfig" => "generator.shape",
        "RiverConfig" => "generator.shape.rivers",
        "ReliefConfig" => "generator.shape.relief",
        "ErosionConfig" => "generator.shape.relief.erosion",
        "CaveConfig" => "generator.caves",
        "Bands" => "generator.bands",
        "Archipelago" => "generator.layout",
        _ => return None,
    })
}

/// The known name nearest in spelling to `found`, if one is close enough to be what
/// was meant: the Jaro similarity above 0.7, as clap suggests flags.
fn nearest(found: &str, known: &[&'static str]) -> Option<&'static str> {
    known
        .iter()
        .map(|&k| (strsim::jaro(found, k), k))
        .filter(|&(similarity, _)| similarity > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

impl WorldConfig {
    /// Every problem with this config, each naming its field. Empty when valid. The
    /// ranges come from [`crate::config::params`]; rules between fields are checked here.
    pub fn problems(&self) -> Vec<ConfigError> {
        let mut c = Check { errors: Vec::new() };
        if !SUPPORTED_VERSIONS.contains(&self.version) {
            c.fail(
                "version",
                self.version,
                &format!(
                    "a generator version this build knows: {}..={}",
                    SUPPORTED_VERSIONS.start(),
                    SUPPORTED_VERSIONS.end()
                ),
            );
        }
        for section in Section::ALL {
            let since = section.since();
            if self.version < since && section.present_in(self) {
                let (path, what) = section.path();
                let name = path.rsplit('.').next().unwrap_or(path);
                c.fail(
                    path,
                    format!("({what})"),
                    &format!("no `{name}` before version {since} ({what} need `version: {since}`)"),
                );
            }
        }
        c.params("", &params::WORLD, self);
        if let Some(n) = &self.nature {
            c.params("nature.", &params::CLIMATE, n);
            c.params("nature.", &params::TREES, n);
        }
        let ranges_ok = c.errors.is_empty();
        match &self.generator {
            GeneratorConfig::Density(d) => {
                c.params("generator.", &params::DENSITY, d);
                if let Some(s) = &d.shape {
                    c.params("generator.", &params::SHAPE, s);
                    c.params("generator.", &params::RIVERS, s);
                    for sp in &params::SHAPE_SPLINES {
                        c.spline(
                            &format!("generator.shape.{}", sp.field),
                            (sp.get)(s),
                            sp.range,
                        );
                    }
                    if let Some(r) = &s.relief {
                        c.relief(r);
                    }
                    if let Some(w) = &s.water {
                        c.params("generator.", &params::WATER, w);
                    }
                }
                if let Some(caves) = &d.caves {
                    c.params("generator.", &params::CAVES, caves);
                    let floor = self.sea_level as f64 - caves.depth;
                    let lowest = *SURFACE_HEIGHTS.start() as f64;
                    if floor < lowest {
                        c.fail(
                            "generator.caves.depth",
                            caves.depth,
                            &format!(
                                "at most {} (caves must stop {PLAYABLE_MARGIN} blocks above the \
                                 world's floor at {WORLD_FLOOR})",
                                self.sea_level as f64 - lowest
                            ),
                        );
                    }
                }
                if ranges_ok && c.errors.is_empty() {
                    let (lowest, highest) = surface_range(d, self.sea_level);
                    c.playable("generator.offset", d.offset, lowest, highest);
                    let work = params::relief_work(d);
                    if work > params::MAX_RELIEF_WORK {
                        c.fail(
                            "generator.scale",
                            d.scale,
                            &format!(
                                "a scale at which noise.octaves x the relief (scale x (2 + \
                                 cliff_scale) blocks{}) stays within {} (here {work:.0}; more \
                                 makes maps and the horizon crawl): lower scale, cliff_scale \
                                 or noise.octaves",
                                if d.shape.is_some() {
                                    ", at the shape's largest roughness and crags"
                                } else {
                                    ""
                                },
                                params::MAX_RELIEF_WORK
                            ),
                        );
                    }
                }
            }
            GeneratorConfig::Islands(i) => {
                c.params("generator.", &params::ISLANDS, i);
                if ranges_ok && c.errors.is_empty() {
                    let sea = self.sea_level as f64;
                    let lowest = sea - i.bands.shallow_water.clamp(0.0, 1.0) * i.height_scale - 1.0;
                    let highest = sea + i.height_scale;
                    c.playable("sea_level", self.sea_level, lowest, highest);
                }
                let mut below = 0.0;
                for band in &params::BANDS {
                    let v = (band.get)(i);
                    if !(band.spec.allows(v) && v > below) {
                        c.fail(
                            &format!("generator.{}", band.field),
                            v,
                            &format!("a number in ({below}, 1), above the band below it"),
                        );
                    } else {
                        below = v;
                    }
                }
                if let IslandLayout::Archipelago { cell_size, jitter } = i.layout {
                    let [cells, jitters] = &params::ARCHIPELAGO;
                    c.params(
                        "generator.",
                        std::slice::from_ref(jitters),
                        &(cell_size, jitter),
                    );
                    let reach = i.island_size * i.radius;
                    if !(cells.spec.allows(cell_size) && cell_size >= 2.0 * reach) {
                        c.fail(
                            "generator.layout.cell_size",
                            cell_size,
                            &format!(
                                "a finite number in [{}, {}] (at least twice island_size * radius)",
                                (2.0 * reach).max(cells.spec.min),
                                cells.spec.max
                            ),
                        );
                    }
                }
            }
        }
        c.errors
    }

    /// `Ok` when valid, else the first problem.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Parses a config from RON text (a file or a world code) and validates it. A
    /// field no section has is refused, naming the known field nearest in spelling.
    pub fn from_ron(text: &str) -> Result<Self, ConfigError> {
        // Editors on Windows start files with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let cfg: WorldConfig = ron::from_str(text).map_err(parse_error)?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// The same world with one spelling: the seed as its number (` 42` and `42`, or a
    /// text and its hash, are one world) and every `-0.0` as `0.0`. Two configs that
    /// generate the same world bit for bit have equal canonical forms; saves are keyed
    /// by it.
    pub fn canonical(&self) -> WorldConfig {
        fn zeros<C>(table: &[Param<C>], c: &mut C) {
            for p in table {
                // -0.0 + 0.0 == 0.0; every other value is unchanged.
                (p.set)(c, (p.get)(c) + 0.0);
            }
        }
        let mut c = self.clone();
        c.seed = Seed::new(self.seed.value().to_string());
        zeros(&params::WORLD, &mut c);
        if let Some(n) = &mut c.nature {
            zeros(&params::CLIMATE, n);
            zeros(&params::TREES, n);
        }
        match &mut c.generator {
            GeneratorConfig::Density(d) => {
                zeros(&params::DENSITY, d);
                if let Some(caves) = &mut d.caves {
                    zeros(&params::CAVES, caves);
                }
                if let Some(s) = &mut d.shape {
                    zeros(&params::SHAPE, s);
                    zeros(&params::RIVERS, s);
                    if let Some(w) = &mut s.water {
                        zeros(&params::WATER, w);
                    }
                    let relief = s.relief.as_mut().map(|r| {
                        zeros(&params::RELIEF, r);
                        if let Some(e) = &mut r.erosion {
                            zeros(&params::EROSION, e);
                        }
                        &mut r.ranges
                    });
                    for spline in [
                        &mut s.height,
                        &mut s.mountains,
                        &mut s.peaks,
                        &mut s.roughness,
                        &mut s.crags,
                    ]
                    .into_iter()
                    .chain(relief)
                    {
                        for p in &mut spline.0 {
                            *p = p.map(|v| v + 0.0);
                        }
                    }
                }
            }
            GeneratorConfig::Islands(i) => {
                zeros(&params::ISLANDS, i);
                zeros(&params::BANDS, i);
                if let IslandLayout::Archipelago { cell_size, jitter } = &mut i.layout {
                    let mut cells = (*cell_size, *jitter);
                    zeros(&params::ARCHIPELAGO, &mut cells);
                    (*cell_size, *jitter) = cells;
                }
            }
        }
        c
    }
}
