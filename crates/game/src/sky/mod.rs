//! The sky: the clock, what the sky looks like at each hour, which sky is drawn, and
//! everything that follows from them (the sun, the fog, the dome, the clouds, the
//! look under water). Arrows go one way, down this list:
//!
//! ```text
//! clock ── light ── horizon ── kind ──┬── fog ── sun
//!   (hour)   (sky_at) (table)  (which  ├── dome, clouds
//!                               sky)   └── atmosphere
//! underwater (the eye's block) ─▶ fog, sun, dome, clouds
//! ```
//!
//! Headless games run the clock only ([`clock_plugin`]); [`plugin`] draws.

mod atmosphere;
mod clock;
mod clouds;
mod dome;
mod fog;
mod horizon;
mod kind;
mod light;
mod sun;
mod underwater;

use bevy::light::GlobalAmbientLight;
use bevy::prelude::*;

use crate::config::SkyChoice;
use crate::schedule::GameSystems;
pub use clock::{DAY_SECONDS, DEFAULT_HOUR, TimeOfDay};
pub(crate) use kind::SkyKind;
pub use light::{SkyLight, sky_at};

/// The clock, from the start-up hour (`None`: [`DEFAULT_HOUR`]).
pub(crate) fn clock_plugin(hour: Option<f32>) -> impl Fn(&mut App) {
    clock::plugin(hour)
}

/// The drawn sky, `choice` deciding which one.
pub(crate) fn plugin(choice: SkyChoice) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(ClearColor(Color::BLACK))
            .insert_resource(GlobalAmbientLight::default())
            .init_resource::<underwater::Underwater>()
            .add_plugins((atmosphere::plugin(choice), dome::plugin, clouds::plugin))
            .add_systems(Startup, sun::spawn_sun)
            .add_systems(
                Update,
                (
                    underwater::detect_underwater,
                    (
                        fog::add_fog,
                        fog::update_fog,
                        underwater::hide_under_water,
                        sun::apply_sky,
                    ),
                )
                    .chain()
                    .in_set(GameSystems::Present),
            );
    }
}
