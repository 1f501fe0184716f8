//! The parameter reference, `docs/parameters.md`, generated from [`crate::config::params`]
//! with each parameter's value in the built-in presets.

use crate::config::params::{
    ARCHIPELAGO, BANDS, CAVES, CLIMATE, DENSITY, EROSION, ISLANDS, Param, RELIEF, RIVERS, SHAPE,
    TREES, WATER, WORLD,
};
use crate::config::presets::builtin;
use crate::config::world::{GeneratorConfig, IslandLayout};

/// The parameter reference as a Markdown table, with each parameter's value in the
/// built-in preset named in the heading: the text of `docs/parameters.md`.
pub fn markdown_table() -> String {
    fn rows<C>(out: &mut String, prefix: &str, params: &[Param<C>], preset: &C) {
        for p in params {
            out.push_str(&format!(
                "| `{prefix}{}` | {} | {} | {} |\n",
                p.field,
                p.spec.expected(),
                (p.get)(preset),
                p.spec.tooltip
            ));
        }
    }
    let header = "| field | allowed | default | what it does |\n| --- | --- | --- | --- |\n";
    let mut out = String::from(
        "# World parameters\n\n\
         Generated from `crates/worldgen/src/config/params.rs` (the table that also drives\n\
         validation and the game panel's sliders); a test keeps this file in step.\n\
         Field paths are as in config files and error messages.\n\n## Every world\n\n",
    );
    out.push_str(header);
    let cliffs = builtin("cliffs").expect("built in");
    rows(&mut out, "", &WORLD, &cliffs);
    out.push_str(
        "\n## `Density` (3D density field; defaults from `cliffs`)\n\n\
         `noise.kind`: `Perlin`, `OpenSimplex` or `SuperSimplex`.\n\n",
    );
    out.push_str(header);
    if let GeneratorConfig::Density(d) = &cliffs.generator {
        rows(&mut out, "generator.", &DENSITY, d);
    }
    out.push_str(
        "\n## `Islands` (2D heightmap with island falloff; defaults from `archipelago`)\n\n\
         `kind`: `Perlin`, `OpenSimplex` or `SuperSimplex`; `layout`: `Single` or\n\
         `Archipelago(cell_size, jitter)`. Bands must ascend; `layout.cell_size` must be\n\
         at least twice `island_size * radius`.\n\n",
    );
    out.push_str(header);
    let archipelago = builtin("archipelago").expect("built in");
    if let GeneratorConfig::Islands(i) = &archipelago.generator {
        rows(&mut out, "generator.", &ISLANDS, i);
        rows(&mut out, "generator.", &BANDS, i);
        if let IslandLayout::Archipelago { cell_size, jitter } = i.layout {
            rows(&mut out, "generator.", &ARCHIPELAGO, &(cell_size, jitter));
        }
    }
    out.push_str(
        "\n## `Density` shape (version 2, `generator.shape`; defaults from `continents`)\n\n\
         Terrain that varies over the land. Besides these numbers, five splines map the\n\
         noises to the formula's parameters: `height` (continentalness to base height),\n\
         `mountains` (erosion to mountain height), `peaks` (peaks-and-valleys to the share\n\
         of it), `roughness` (erosion to a factor of `scale`) and `crags` (erosion to a\n\
         factor of `cliff_scale`): lists of 2 to 16 `(x, y)` points with `x` ascending in\n\
         `[-1, 1]`.\n\n",
    );
    out.push_str(header);
    let continents = builtin("continents").expect("built in");
    if let GeneratorConfig::Density(d) = &continents.generator
        && let Some(s) = &d.shape
    {
        rows(&mut out, "generator.", &SHAPE, s);
        rows(&mut out, "generator.", &RIVERS, s);
    }
    out.push_str(
        "\n## `Density` relief (version 4, `generator.shape.relief`; defaults from `continents`)\n\n\
         Mountain ranges along the ridge lines of a noise stretched along a trend drawn\n\
         from the seed, lifted on top of the shape; `relief: None` turns them off. Besides\n\
         these numbers, the spline `ranges` maps erosion to the share of `range_height`\n\
         that stands there (`(x, y)` points, `y` in `[0, 1]`). See `ReliefConfig` for the\n\
         formula.\n\n",
    );
    out.push_str(header);
    let relief = match &continents.generator {
        GeneratorConfig::Density(d) => d.shape.as_ref().and_then(|s| s.relief.as_ref()),
        GeneratorConfig::Islands(_) => None,
    };
    if let Some(r) = relief {
        rows(&mut out, "generator.", &RELIEF, r);
    }
    out.push_str(
        "\n## `Density` erosion (version 4, `generator.shape.relief.erosion`; defaults from \
         `continents`)\n\n\
         Rune Skovbo Johansen's erosion filter on the ranges: branching gullies, sharp\n\
         ridges and V-shaped valleys, one column at a time; `erosion: None` turns it off.\n\n",
    );
    out.push_str(header);
    if let Some(e) = relief.and_then(|r| r.erosion.as_ref()) {
        rows(&mut out, "generator.", &EROSION, e);
    }
    out.push_str(
        "\n## `Density` water (version 5, `generator.shape.water`; defaults from `continents`)\n\n\
         Water that runs downhill: springs on high ground traced down to the sea over a\n\
         grid of nodes every 32 blocks, lakes where basins fill to their rim, waterfalls\n\
         where the level steps down; `water: None` leaves all water at sea level. See\n\
         `WaterConfig` and `docs/design.md`.\n\n",
    );
    out.push_str(header);
    if let GeneratorConfig::Density(d) = &continents.generator
        && let Some(w) = d.shape.as_ref().and_then(|s| s.water.as_ref())
    {
        rows(&mut out, "generator.", &WATER, w);
    }
    out.push_str(
        "\n## `Density` caves (version 3, `generator.caves`; defaults from `continents`)\n\n\
         Caverns, tunnels and thin passages carved from the rock; `caves: None` turns them\n\
         off. See `CaveConfig` for the formula.\n\n",
    );
    out.push_str(header);
    if let GeneratorConfig::Density(d) = &continents.generator
        && let Some(c) = &d.caves
    {
        rows(&mut out, "generator.", &CAVES, c);
    }
    out.push_str(
        "\n## Nature (version 2, `nature`; defaults from `continents`)\n\n\
         Climate, biomes and trees, for both generators.\n\n",
    );
    out.push_str(header);
    if let Some(n) = &continents.nature {
        rows(&mut out, "nature.", &CLIMATE, n);
        rows(&mut out, "nature.", &TREES, n);
    }
    out
}
