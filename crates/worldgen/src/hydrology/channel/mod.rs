//! The ground shaped to the water, column by column: a river's channel below its
//! level (a lake keeps its hollow's own ground), banks that rise above it, valley
//! walls that let a river through the land, and the water that fills what lies below
//! its level.
//!
//! ```text
//!   d_out: blocks beyond the water's edge (negative inside)
//!
//!          wall: at most level + 2 + WALL * (d_out - BANK), rising to nothing at INFLUENCE
//!          (rivers; a lake only keeps its shore, LAKE_INFLUENCE out)
//!   ___                                                   ___
//!      \___          embankment: at least level + 2       /
//!          \__ ____ (to FLAT, then falling away)  ____ __/
//!             \~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~/      level
//!              \____________ bed ______________/
//!   |<-INFLUENCE->|<-BANK->|<---- channel (2w) ---->|
//! ```
//!
//! Each column takes the lowest wall and the highest embankment of the water around
//! it (an embankment wins: the water must stay in). Inside water it takes the bed of
//! the highest water it lies in, then the nearest, and no embankment (at a bend or a
//! junction the next piece's bank would fill the channel) but those of higher water
//! right beside it. Within `CALM` blocks of the water the terrain noise is calmed,
//! so the banks hold their height block by block. Water fills the air at or below the
//! level of the highest water a column lies in, or else of the nearest within [`WET`]
//! blocks beyond its edge: further out every column's ground stands above that
//! level.
//!
//! One idea a file: `claim` (`Claim`: what a piece of water claims of a column,
//! which claim wins, and the bands it shapes), `segment` (a river's steps, straight
//! or winding in bends, and the runs of running courses), `lake` (a lake's discs),
//! `nearby` (the pieces near a column: [`LocalWater`], an area's, filed by cell;
//! [`FiledWater`], a region's, filed so an area gathers them) and `shaping` (the
//! per-column rule: the ground and the water over a column).

mod claim;
mod lake;
mod nearby;
mod segment;
mod shaping;

pub(crate) use claim::{INFLUENCE, WET};
pub(crate) use lake::{Disc, LAKE_RADIUS};
pub(crate) use nearby::{FiledWater, LocalWater};
pub(crate) use segment::{Run, Segment, WIDEST};
pub(crate) use shaping::{WALL, Wall};
