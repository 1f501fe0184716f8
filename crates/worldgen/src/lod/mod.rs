//! Level of detail: coarse chunks for the far horizon.
//!
//! A chunk of level `L` ([`LodPos`](pos::LodPos)) has the same 32 x 32 x 32 cells (and a one-cell
//! padding) as a full-detail chunk, but each cell stands for `2^L` blocks a side, so
//! the chunk covers `32 * 2^L` blocks a side. Level 0 is the full-detail chunk.
//!
//! A coarse chunk is generated directly at its resolution: each cell takes the
//! generator's verdict (solid, water or air) at one **sample point**, the cell's
//! lowest corner `origin + local * 2^L`, so a far chunk costs about what a near one
//! does. For the density field at levels 3 and up every sample point is a node of the
//! 4 x 8 x 4 lattice the field is evaluated on, so its sign is found octave by octave
//! with the same bounds as full-detail chunks; at levels 1 and 2 the sample's value
//! is interpolated from fully evaluated lattice nodes exactly as a full-detail chunk
//! interpolates it. Islands take the column's height.
//!
//! What a coarse chunk leaves out: caves (filled: out of sight from afar) and edits.
//! Trees become leaves: at levels 1 and 2 a blob of leaf cells over every column
//! where a tree stands, further out the top cell of wooded columns. Its solid cells
//! take the block rules of their sample height and depth (in blocks), its columns
//! the look and tints of the biome at their sample column.
//!
//! ```text
//!   level 0:  32 blocks   ┌┬┬┬┐ level 1: 64 blocks     level 2: 128 blocks
//!   (1-block cells)       ├┼┼┼┤ (2-block cells)        (4-block cells)
//!                         └┴┴┴┘
//! ```
//!
//! Seams: the cells of a coarse chunk's side padding are fluid (**skirts**), so the
//! mesher closes every coarse chunk with walls down its sides; a ray that passes a
//! finer neighbour's edge meets a wall instead of the sky. The game draws a coarse
//! chunk's cells shifted down by `2^L - 1` blocks, so a cell's top is its sample's
//! top: sea level lies at the same height at every level.
//!
//! Here: [`pos`] (a chunk of some level: [`LodPos`](pos::LodPos)), [`assemble`] (a
//! coarse chunk's blocks, skirts and tints from the columns a generator describes)
//! and [`plant`] (the trees of coarse columns). Each generator describes its own
//! columns (`density::coarse`, `islands::coarse`).

pub(crate) mod assemble;
pub(crate) mod plant;
pub(crate) mod pos;
