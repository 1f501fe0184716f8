//! Hydrology (generator version 5 on): water that runs downhill. Between the land's shape
//! (`shape`) and the surface (`surface`): a drainage network that is a property of the
//! world, and the ground shaped to it.
//!
//! ```text
//!   land     expected ground at nodes every 32 blocks (shape + ranges, no gullies)
//!     |
//!   basin    a pit fills to its lowest rim and spills over it (priority flood)
//!     |
//!   trace    springs on high ground -> lowest neighbour, node by node, basins
//!     |      crossed -> the sea; levels never rise downstream (a running maximum
//!     |      taken from the sea up)
//!   network  rivers gathered per region of 64 x 64 nodes, from every spring that
//!     |      can reach it; widths from the springs feeding each step; lakes
//!   course   a step's course laid in blocks under the node grid, its water's
//!     |      level along it (version 8; `network::Laying` says how a version lays
//!     |      its steps)
//!   channel  columns shaped to the water (beds, banks, valley walls) and filled
//!     |
//!   shore    a column beside higher water keeps it in: banked, or opened down to
//!            its own water (version 6; chunks, coarse cells and column tops)
//! ```
//!
//! Beside them, `drainage` counts the land draining through each node (for the
//! network's figures), and `tests` runs basins, rivers and the network on land made
//! by hand (`land::Heights`, `land::Ground`).
//!
//! A `Store` (`crate::store`) keeps what these make (heights, basins, rivers,
//! regions), shared by threads.
//!
//! Everything is a pure function of the seed and the position: a region's rivers come
//! from the springs of the regions around it (a river never runs further than
//! [`trace::REACH`] nodes from its spring), so they are the same whichever chunk asks
//! first. Version 2's rivers along the weirdness noise's zero line are cut in
//! `shape::climate`; the version-5 preset (and the panel's Water box) turns them off.

pub(crate) mod basin;
pub(crate) mod channel;
pub(crate) mod course;
pub(crate) mod drainage;
pub(crate) mod land;
pub(crate) mod network;
pub(crate) mod shore;
pub(crate) mod trace;

#[cfg(test)]
mod tests;
