//! A save's snapshot of the overlay costs nothing to take: the game takes one on the
//! main thread for every autosave and world switch (and the horizon's coarse tasks
//! and the cross-section one each), so its cost must not grow with the number of
//! edits, nor with the water waiting to tick. Counted in allocations (this test
//! binary counts every allocation), not timed.

use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos};

/// `n` edits spread over many chunks, as a long-played world has.
fn many(n: i32) -> Edits {
    let mut e = Edits::new();
    for i in 0..n {
        e.set(
            BlockPos::new((i * 7) % 4096 - 2048, i / 65_536 - 8, (i / 4096) % 16 * 5),
            Block::ALL[i as usize % Block::ALL.len()],
        );
    }
    e
}

#[test]
fn a_snapshot_of_a_million_edits_allocates_nothing_and_an_edit_after_it_little() {
    let mut edits = many(1_000_000);
    assert_eq!(edits.len(), 1_000_000);
    // And 100,000 blocks of water due, some of them waiting for a chunk.
    for i in 0..100_000 {
        let p = BlockPos::new(i % 1000, 300, i / 1000);
        edits.pending_mut().wake(p);
        if i % 10 == 0 {
            edits.pending_mut().wait(p, p.to_chunk().0);
        }
    }
    assert_eq!(edits.pending().len(), 100_000);
    let mut snapshot = None;
    let taken = allocation_counter::measure(|| snapshot = Some(edits.clone()));
    assert_eq!(
        taken.bytes_total, 0,
        "taking the snapshot allocated: {taken:?}"
    );
    let snapshot = snapshot.expect("taken");
    // The first edit after it copies the path to one chunk and that chunk's edits.
    let p = BlockPos::new(3, 1, 3);
    let edited = allocation_counter::measure(|| {
        edits.set(p, Block::Brick);
    });
    assert!(
        edited.bytes_total < 64 << 10,
        "an edit after a snapshot allocated {} bytes",
        edited.bytes_total
    );
    assert_eq!(snapshot.get(p), None, "the snapshot is unchanged");
    assert_eq!(edits.get(p), Some(Block::Brick));
    assert_eq!(snapshot.len() + 1, edits.len());
    // Water woken and taken after it leaves the snapshot's water as it was.
    edits.pending_mut().wake(BlockPos::new(-5, 300, -5));
    let taken = edits.pending_mut().take(1024);
    assert_eq!(taken.len(), 1024);
    assert_eq!(snapshot.pending().len(), 100_000);
    assert!(!snapshot.pending().is_running());
}
