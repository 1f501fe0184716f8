//! The authority over one world: the one place, outside any engine, that owns a
//! world's edits, decides which edits are made ([`rules`]: reach, placing, the
//! bucket, the rate), steps the water they wake (one [`Stepper`] for the game and
//! the server), keeps the time of day and the bodies
//! of the players in it: the body's rules ([`body`]) and the moves a server takes
//! ([`moves`]). It takes plain commands (this player breaks this block, a
//! step of the water is due) and answers with plain outcomes (these blocks changed,
//! refused because ...).
//!
//! Single-player runs it in the game (a Bevy resource holds it), the server runs it
//! headless over the terrain it makes itself ([`Terrain`]), and tests drive it by
//! hand over worlds they build. It reads and changes blocks through [`Blocks`]: the
//! loaded world of whoever drives it.
//!
//! This crate never depends on Bevy. The project's architecture is in `docs/design.md`.

mod authority;
mod blocks;
pub mod body;
mod changed;
mod clock;
mod flow_steps;
pub mod moves;
mod players;
pub mod rules;
mod stepper;
mod terrain;

pub use authority::{Authority, Role};
pub use blocks::Blocks;
pub use changed::Changed;
pub use clock::{Clock, DAY_SECONDS, DEFAULT_HOUR};
pub use flow_steps::{Laid, Picture, StepJob};
pub use players::{EDIT_BURST, EDIT_RATE, PlayerId, Players};
pub use rules::{Action, Refusal};
pub use stepper::{Settled, Stepped, Stepper, Turn, Worker};
pub use terrain::Terrain;
