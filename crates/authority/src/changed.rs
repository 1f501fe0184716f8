//! [`Changed`]: where a world's edits changed, for whoever makes things of them
//! again (the horizon's coarse chunks).

use std::collections::BTreeSet;

use terravox_voxel::ChunkPos;

/// Where the edits changed since the last [`Authority::take_changed`]: so the
/// horizon can make the coarse chunks holding them again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Changed {
    /// Nothing.
    #[default]
    Nothing,
    /// The blocks of these chunks.
    Chunks(BTreeSet<ChunkPos>),
    /// Anything: the edits were replaced whole.
    Everything,
}

impl Changed {
    /// Notes that the blocks of `chunks` changed.
    pub(crate) fn note(&mut self, chunks: impl IntoIterator<Item = ChunkPos>) {
        match self {
            Changed::Everything => {}
            Changed::Chunks(set) => set.extend(chunks),
            Changed::Nothing => *self = Changed::Chunks(chunks.into_iter().collect()),
        }
    }
}
