//! The rules on hand-made land: a lake and a channel, a source on flat ground, a
//! ledge, a cave under a lake, an unloaded chunk.

use std::collections::HashMap;

use terravox_voxel::water_states::Fluid;
use terravox_voxel::{Block, BlockPos, ChunkPos};

use super::*;

/// Hand-made land: stone below `y = 0` (and at `y = 0` unless set), air above,
/// with the blocks set over it; chunks `loaded` says are not are unloaded.
struct Land {
    blocks: HashMap<BlockPos, Block>,
    pending: Pending,
    loaded: fn(ChunkPos) -> bool,
    /// Steps taken, blocks ticked, and every block ever written.
    steps: usize,
    ticked: usize,
    written: Vec<BlockPos>,
}

impl Cells for Land {
    fn block(&self, p: BlockPos) -> Option<Block> {
        if !(self.loaded)(p.to_chunk().0) {
            return None;
        }
        Some(self.blocks.get(&p).copied().unwrap_or(if p.y <= 0 {
            Block::Stone
        } else {
            Block::Air
        }))
    }
}

impl Waters for Land {
    fn flow(&mut self, p: BlockPos, b: Block) {
        self.blocks.insert(p, b);
        self.written.push(p);
    }

    fn pending(&mut self) -> &mut Pending {
        &mut self.pending
    }
}

fn at(x: i32, y: i32, z: i32) -> BlockPos {
    BlockPos::new(x, y, z)
}

impl Land {
    fn new() -> Self {
        Self {
            blocks: HashMap::new(),
            pending: Pending::default(),
            loaded: |_| true,
            steps: 0,
            ticked: 0,
            written: Vec::new(),
        }
    }

    /// An edit: the block changes and wakes the water around it.
    fn edit(&mut self, p: BlockPos, b: Block) {
        self.blocks.insert(p, b);
        let mut pending = std::mem::take(&mut self.pending);
        pending.wake_around(p, self);
        self.pending = pending;
    }

    /// Sets blocks without waking anything (how a generator lays water).
    fn lay(&mut self, p: BlockPos, b: Block) {
        self.blocks.insert(p, b);
    }

    /// One step with room for `most` ticks.
    fn step_with(&mut self, most: usize) -> usize {
        let due = self.pending.take(most);
        let s = step(&*self, &due);
        self.steps += 1;
        self.ticked += s.ticked;
        apply(&s, self)
    }

    /// Steps until nothing is due (at most `limit` steps); returns the steps taken.
    fn settle_with(&mut self, most: usize, limit: usize) -> usize {
        let start = self.steps;
        while self.pending.due_count() > 0 {
            assert!(self.steps - start < limit, "no end in {limit} steps");
            self.step_with(most);
        }
        self.steps - start
    }

    fn settle(&mut self) -> usize {
        self.settle_with(MAX_TICKS, 1000)
    }

    fn get(&self, p: BlockPos) -> Block {
        self.block(p).unwrap()
    }

    fn fluid(&self, p: BlockPos) -> Option<Fluid> {
        self.get(p).fluid()
    }
}

/// A lake 8 x 9 blocks, one deep, level with flat ground (x -8..=-1, z -4..=4).
fn lake() -> Land {
    let mut land = Land::new();
    for x in -8..=-1 {
        for z in -4..=4 {
            land.lay(at(x, 0, z), Block::Water);
        }
    }
    land
}

#[test]
fn a_channel_dug_out_of_a_lake_fills_seven_blocks_with_levels_one_to_seven() {
    let mut land = lake();
    // Dug from its far end towards the lake, the last block opening it.
    for x in (0..10).rev() {
        land.edit(at(x, 0, 0), Block::Air);
    }
    let steps = land.settle();
    for x in 0..7 {
        assert_eq!(
            land.fluid(at(x, 0, 0)),
            Some(Fluid::Flowing(x as u8 + 1)),
            "x {x}"
        );
    }
    for x in 7..10 {
        assert_eq!(land.get(at(x, 0, 0)), Block::Air, "x {x}");
    }
    // A block a step, and a step that finds nothing more to do.
    assert_eq!(steps, 8);
    // The lake is as it was.
    for x in -8..=-1 {
        for z in -4..=4 {
            assert_eq!(land.get(at(x, 0, z)), Block::Water);
        }
    }
    // A block set in the flow stops it: what it fed dries up.
    land.edit(at(3, 0, 0), Block::Cobblestone);
    land.settle();
    assert_eq!(land.fluid(at(2, 0, 0)), Some(Fluid::Flowing(3)));
    for x in 4..10 {
        assert_eq!(land.get(at(x, 0, 0)), Block::Air, "x {x}");
    }
}

/// The flat ground around a source placed at the origin, after it settled.
fn placed_source() -> Land {
    let mut land = Land::new();
    for x in -9..=9 {
        for z in -9..=9 {
            land.lay(at(x, 0, z), Block::Air);
        }
    }
    land.edit(at(0, 0, 0), Block::Water);
    land.settle();
    land
}

#[test]
fn a_source_on_flat_ground_spreads_seven_blocks_every_way_and_recedes_when_taken() {
    let mut land = placed_source();
    for x in -9i32..=9 {
        for z in -9i32..=9 {
            let d = x.abs() + z.abs();
            let want = match d {
                0 => Some(Fluid::Source),
                1..=7 => Some(Fluid::Flowing(d as u8)),
                _ => None,
            };
            assert_eq!(land.fluid(at(x, 0, z)), want, "{x}, {z}");
        }
    }
    // The bucket takes it: everything it fed dries up, a level a step.
    land.edit(at(0, 0, 0), Block::Air);
    let steps = land.settle();
    assert!(steps <= 16, "{steps} steps");
    for x in -9..=9 {
        for z in -9..=9 {
            assert_eq!(land.get(at(x, 0, z)), Block::Air, "{x}, {z}");
        }
    }
}

#[test]
fn the_same_flow_whatever_room_a_step_has() {
    let full = placed_source();
    let mut tight = Land::new();
    for x in -9..=9 {
        for z in -9..=9 {
            tight.lay(at(x, 0, z), Block::Air);
        }
    }
    tight.edit(at(0, 0, 0), Block::Water);
    let steps = tight.settle_with(5, 10_000);
    assert!(
        steps > 30,
        "the small steps carried blocks over: {steps} steps"
    );
    for (p, b) in &full.blocks {
        assert_eq!(tight.get(*p), *b, "{p:?}");
    }
}

#[test]
fn water_falls_off_a_ledge_and_spreads_where_it_lands() {
    let mut land = Land::new();
    // A ledge 4 high (y 1..=4) at x < 0; open ground at y 1 beyond it.
    for x in -3..0 {
        for y in 1..=4 {
            for z in -2..=2 {
                land.lay(at(x, y, z), Block::Stone);
            }
        }
    }
    land.edit(at(-1, 5, 0), Block::Water);
    land.settle();
    // Level 1 beside the source, over the edge: it falls down the face.
    assert_eq!(land.fluid(at(0, 5, 0)), Some(Fluid::Flowing(1)));
    for y in 1..=4 {
        assert_eq!(land.fluid(at(0, y, 0)), Some(Fluid::Falling), "y {y}");
    }
    // Landed, it spreads from level 1 (it also runs back against the ledge's foot).
    assert_eq!(land.fluid(at(1, 1, 0)), Some(Fluid::Flowing(1)));
    assert_eq!(land.fluid(at(7, 1, 0)), Some(Fluid::Flowing(7)));
    assert_eq!(land.get(at(8, 1, 0)), Block::Air);
    // Nothing hangs in the air: every water block stands on something.
    for (p, b) in &land.blocks {
        if b.is_water() {
            let under = land.get(p.offset([0, -1, 0]));
            assert!(!under.is_air(), "air under water at {p:?}");
        }
    }
}

#[test]
fn flowing_water_heads_for_the_nearest_drop() {
    let mut land = Land::new();
    // A source on a wide terrace at y 1; a hole 2 blocks east of it.
    for x in -6..=6 {
        for z in -6..=6 {
            land.lay(at(x, 1, z), Block::Air);
        }
    }
    land.lay(at(2, 0, 0), Block::Air);
    land.edit(at(0, 1, 0), Block::Water);
    land.settle();
    // It runs east only (towards the hole), not west, north or south.
    assert_eq!(land.fluid(at(1, 1, 0)), Some(Fluid::Flowing(1)));
    assert_eq!(land.fluid(at(2, 1, 0)), Some(Fluid::Flowing(2)));
    for p in [at(-1, 1, 0), at(0, 1, 1), at(0, 1, -1)] {
        assert_eq!(land.get(p), Block::Air, "{p:?}");
    }
    // Into the hole, where it stands on the hole's stone bottom.
    assert_eq!(land.fluid(at(2, 0, 0)), Some(Fluid::Falling));
}

#[test]
fn two_sources_beside_a_flowing_block_on_solid_ground_make_it_a_source() {
    let mut land = Land::new();
    land.edit(at(-1, 1, 0), Block::Water);
    land.edit(at(1, 1, 0), Block::Water);
    land.settle();
    assert_eq!(land.fluid(at(0, 1, 0)), Some(Fluid::Source));
    assert_eq!(land.fluid(at(2, 1, 0)), Some(Fluid::Flowing(1)));
}

#[test]
fn a_hole_broken_in_a_lake_floor_pours_into_the_cave_below_and_the_lake_stays_full() {
    let mut land = Land::new();
    // A lake 3 deep (y 1..=3) in a ring of rock, on a floor at y 0; a cave under it
    // (y -6..=-2).
    for x in -6i32..=6 {
        for z in -6i32..=6 {
            let rim = x.abs() == 6 || z.abs() == 6;
            for y in 1..=3 {
                land.lay(at(x, y, z), if rim { Block::Stone } else { Block::Water });
            }
        }
    }
    for x in -12..=12 {
        for z in -12..=12 {
            for y in -6..=-2 {
                land.lay(at(x, y, z), Block::CaveAir);
            }
            land.lay(at(x, -1, z), Block::Stone);
        }
    }
    let hole = at(0, 0, 0);
    land.edit(hole, Block::Air);
    // The break fills at once, as the water above would make it.
    assert_eq!(fill(&land, hole), Some(Block::FallingWater));
    land.edit(hole, Block::FallingWater);
    land.edit(at(0, -1, 0), Block::CaveAir);
    land.settle();
    for y in -6..=-1 {
        assert_eq!(land.fluid(at(0, y, 0)), Some(Fluid::Falling), "y {y}");
    }
    // On the cave's floor it spreads from level 1.
    assert_eq!(land.fluid(at(3, -6, 0)), Some(Fluid::Flowing(3)));
    assert_eq!(land.fluid(at(0, -6, 7)), Some(Fluid::Flowing(7)));
    assert_eq!(land.get(at(0, -6, 8)), Block::CaveAir);
    assert_eq!(land.get(at(0, -5, 3)), Block::CaveAir);
    for x in -5..=5 {
        for z in -5..=5 {
            for y in 1..=3 {
                assert_eq!(land.get(at(x, y, z)), Block::Water, "{x} {y} {z}");
            }
        }
    }
}

#[test]
fn a_broken_block_fills_at_once_under_or_beside_water() {
    let mut land = lake();
    // Beside one source: level 1.
    assert_eq!(broken(&land, at(0, 0, 0)), Block::FlowingWater1);
    // Between two sources on stone: a source.
    land.lay(at(-3, 0, 5), Block::Water);
    land.lay(at(-5, 0, 5), Block::Water);
    assert_eq!(broken(&land, at(-4, 0, 5)), Block::Water);
    // Under the lake: falling water.
    assert_eq!(broken(&land, at(-4, -1, 0)), Block::FallingWater);
    // Away from water: air, or cave air inside a cave.
    assert_eq!(broken(&land, at(5, 0, 5)), Block::Air);
    for p in [
        at(5, -4, 5),
        at(5, -6, 5),
        at(4, -5, 5),
        at(6, -5, 5),
        at(5, -5, 4),
    ] {
        land.lay(p, Block::CaveAir);
    }
    assert_eq!(broken(&land, at(5, -5, 5)), Block::CaveAir);
    // `fill` asks only of open blocks.
    assert_eq!(fill(&land, at(5, -3, 5)), None);
    land.lay(at(0, 0, 0), Block::Air);
    assert_eq!(fill(&land, at(0, 0, 0)), Some(Block::FlowingWater1));
}

#[test]
fn water_waits_at_an_unloaded_chunk_and_flows_on_when_it_loads() {
    // The same channel as above, but running across a chunk border at x = 32 into
    // an unloaded chunk.
    let build = |loaded: fn(ChunkPos) -> bool| {
        let mut land = Land::new();
        land.loaded = loaded;
        for z in -1..=1 {
            land.lay(at(28, 0, z), Block::Water);
        }
        for x in 29..40 {
            land.lay(at(x, 0, 0), Block::Air);
        }
        land.edit(at(29, 0, 0), Block::Air);
        land
    };
    let mut open = build(|_| true);
    open.settle();
    let mut shut = build(|c| c.x < 1);
    shut.settle();
    assert!(
        shut.written.iter().all(|p| p.x < 32),
        "water ran into the unloaded chunk"
    );
    assert!(
        shut.pending.waiting().any(|(_, c)| c.x == 1),
        "nothing waits for the chunk"
    );
    // The chunk loads: the water goes on and ends as where it was loaded all along.
    shut.loaded = |_| true;
    assert!(shut.pending.resume(|_| true) > 0);
    shut.settle();
    assert!(shut.pending.is_empty());
    for x in 28..40 {
        assert_eq!(shut.get(at(x, 0, 0)), open.get(at(x, 0, 0)), "x {x}");
    }
}

#[test]
fn a_world_nobody_edited_does_no_work() {
    let mut land = lake();
    assert!(land.pending.is_empty());
    assert_eq!(land.step_with(MAX_TICKS), 0);
    assert_eq!(land.ticked, 0);
    // An edit far from water wakes nothing.
    land.edit(at(20, 1, 20), Block::Brick);
    assert!(land.pending.is_empty());
}

/// Every read of a tick lies within [`READ_REACH`] of the block ticking: on random
/// neighbourhoods of water, flowing water, air and stone (a seeded walk over many),
/// the middle block ticks over a world that records what it is asked. A rule that
/// reads further (or a reach made smaller) fails here, and with it every picture of
/// the world handed to a step, which takes the chunks of this box.
#[test]
fn a_tick_reads_only_within_its_reach() {
    use std::cell::RefCell;
    struct Recording<'a> {
        land: &'a Land,
        reads: RefCell<Vec<BlockPos>>,
    }
    impl Cells for Recording<'_> {
        fn block(&self, p: BlockPos) -> Option<Block> {
            self.reads.borrow_mut().push(p);
            self.land.block(p)
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let centre = at(0, 1, 0);
    let (mut widest, mut deepest, mut highest) = (0, 0, 0);
    let water = [Block::Water, Block::FlowingWater2, Block::FallingWater];
    for _ in 0..500 {
        // Flat ground with a few holes, a few stones on it and some water about, so
        // the search for a drop runs far in some of them.
        let mut land = Land::new();
        for x in -8..=8 {
            for z in -8..=8 {
                if next(25) == 0 {
                    land.lay(at(x, 0, z), Block::Air);
                }
                match next(12) {
                    0 => land.lay(at(x, 1, z), Block::Stone),
                    1 => land.lay(at(x, 1, z), water[next(3) as usize]),
                    _ => {}
                }
            }
        }
        land.lay(centre, water[next(3) as usize]);
        land.lay(at(0, 0, 0), [Block::Stone, Block::Air][next(2) as usize]);
        // Sources beside the block below: water falling into it may be a source,
        // which reads what lies under it.
        for q in [at(1, 0, 0), at(-1, 0, 0), at(0, 0, 1)] {
            land.lay(q, [Block::Stone, Block::Water][next(2) as usize]);
        }
        land.lay(at(0, 2, 0), [Block::Air, Block::Water][next(2) as usize]);
        let recording = Recording {
            land: &land,
            reads: RefCell::new(Vec::new()),
        };
        let _ = step(&recording, &[centre]);
        for p in recording.reads.into_inner() {
            assert!(
                READ_REACH.holds(centre, p),
                "a tick at {centre:?} read {p:?}, beyond {READ_REACH:?}"
            );
            widest = widest.max((p.x - centre.x).abs().max((p.z - centre.z).abs()));
            deepest = deepest.min(p.y - centre.y);
            highest = highest.max(p.y - centre.y);
        }
    }
    // The reach is no wider than the rules read: some ticks read its edges.
    assert_eq!(
        (widest, -deepest, highest),
        (READ_REACH.side, READ_REACH.down, READ_REACH.up)
    );
}
