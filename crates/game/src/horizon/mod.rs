//! The horizon: coarse chunks (levels of detail, [`terravox_worldgen::LodPos`]) in rings
//! around the full-detail view, out to the horizon distance
//! ([`HorizonDistance`](crate::config::HorizonDistance)).
//!
//! Which chunk of which level covers each place comes from [`rings`]. Coarse chunks
//! are generated and meshed on worker tasks, in the order the player needs them and
//! as many as keep the workers busy ([`schedule`]); full-detail chunks waiting to
//! start keep the workers first. What is drawn is decided by a walk over the tree of
//! levels ([`resolve`]): a wanted chunk is drawn once it is loaded; until then
//! whatever covered its place before stays drawn (a coarser chunk, or all of its
//! finer ones), so moving never opens a hole while the workers keep up; a chunk is
//! unloaded only when nothing needs it to cover a place, and full-detail chunks kept
//! for that are bounded
//! ([`Chunks::max_kept`](crate::streaming::Chunks::max_kept)). Every level carries
//! the player's edits, and a loaded coarse chunk an edit falls into is made again.
//! The rings narrow when the meshes would outgrow the memory budget ([`memory`]).
//!
//! ```text
//! rings, schedule   pure: which leaves, in what order, how many tasks
//! memory            pure: the bytes expected, how narrow the rings must be
//! state             Horizon: wanted, loaded, in flight, drawn; the start order
//! resolve           the walk over the levels: what is drawn, what is kept
//! plugin            the systems, and the coarse task's body
//! ```

mod memory;
mod plugin;
mod resolve;
mod rings;
mod schedule;
mod state;

pub(crate) use plugin::plugin;
pub use rings::{Detail, Rings};
pub use state::{Horizon, RingFigures};
