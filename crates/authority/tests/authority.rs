//! The authority driven by hand over hand-made land: the rules of every edit, the
//! bucket, the rate, the water's steps and the picture they read.

use terravox_authority::EDIT_BURST;
use terravox_authority::rules::{REACH, SLACK};
use terravox_authority::{
    Action, Authority, Blocks, Picture, Refusal, Role, Stepped, Stepper, Terrain, Turn, Worker,
};
use terravox_edits::fluid::{self, Cells, MAX_PENDING, STEP_SECONDS};
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};
use terravox_worldgen::WorldConfig;

fn at(x: i32, y: i32, z: i32) -> BlockPos {
    BlockPos::new(x, y, z)
}

/// Flat land: stone below `y = 0`, air from it up, over chunks -2..=1 each way
/// (so y -64..63).
fn land() -> Terrain {
    let mut t = Terrain::new();
    for x in -2..=1 {
        for z in -2..=1 {
            for y in -2..=1 {
                let b = if y < 0 { Block::Stone } else { Block::Air };
                t.insert(ChunkPos::new(x, y, z), Chunk::Uniform(b));
            }
        }
    }
    // The padding of the chunks at y 0 holds the stone of y -1 below them.
    for x in -64..64 {
        for z in -64..64 {
            t.set(at(x, -1, z), Block::Stone);
        }
    }
    t
}

/// An authority over flat land with player 1 standing at the origin.
fn world() -> (Authority, Terrain) {
    let mut a = Authority::new(WorldConfig::default(), Role::Local);
    a.players_mut().place(1, [0.5, 0.0, 0.5]);
    (a, land())
}

#[test]
fn a_player_breaks_and_places_within_reach_and_never_into_a_body() {
    let (mut a, mut t) = world();
    a.players_mut().place(2, [3.5, 0.0, 0.5]);
    assert_eq!(
        a.act(1, Action::Break(at(2, -1, 0)), &mut t),
        Ok((at(2, -1, 0), Block::Air))
    );
    assert_eq!(t.block(at(2, -1, 0)), Some(Block::Air));
    assert_eq!(a.edits().get(at(2, -1, 0)), Some(Block::Air));
    // Nothing to break in the air, nothing to place against in mid-air.
    assert_eq!(
        a.act(1, Action::Break(at(2, 3, 0)), &mut t),
        Err(Refusal::Nothing)
    );
    assert_eq!(
        a.act(1, Action::Place(at(2, 3, 0), Block::Brick), &mut t),
        Err(Refusal::Floating)
    );
    // Not into stone, not into either player's body, not a block of the generator.
    assert_eq!(
        a.act(1, Action::Place(at(2, -2, 0), Block::Brick), &mut t),
        Err(Refusal::Occupied)
    );
    assert_eq!(
        a.act(1, Action::Place(at(0, 0, 0), Block::Brick), &mut t),
        Err(Refusal::InsidePlayer)
    );
    assert_eq!(
        a.act(1, Action::Place(at(3, 1, 0), Block::Brick), &mut t),
        Err(Refusal::InsidePlayer)
    );
    assert_eq!(
        a.act(1, Action::Place(at(3, 0, 0), Block::Brick), &mut t),
        Err(Refusal::InsidePlayer)
    );
    assert_eq!(
        a.act(1, Action::Place(at(1, 0, 0), Block::GoldOre), &mut t),
        Err(Refusal::NotPlaceable)
    );
    assert_eq!(
        a.act(1, Action::Place(at(1, 0, 0), Block::Brick), &mut t),
        Ok((at(1, 0, 0), Block::Brick))
    );
    // Reach: the nearest point of the block's box within REACH + SLACK of the eyes.
    let far = (0.5 + f64::from(REACH) + SLACK).floor() as i32 + 1;
    assert_eq!(
        a.act(1, Action::Break(at(far, 0, 0)), &mut t),
        Err(Refusal::OutOfReach)
    );
    assert_eq!(
        a.act(9, Action::Break(at(1, -1, 0)), &mut t),
        Err(Refusal::UnknownPlayer)
    );
    // Outside the loaded land.
    a.players_mut().place(1, [63.5, 0.0, 0.5]);
    assert_eq!(
        a.act(1, Action::Break(at(64, -1, 0)), &mut t),
        Err(Refusal::NotLoaded)
    );
}

#[test]
fn the_bucket_takes_a_source_and_pours_it_again() {
    let (mut a, mut t) = world();
    t.set(at(2, -1, 0), Block::Water);
    assert_eq!(
        a.act(1, Action::Break(at(2, -1, 0)), &mut t),
        Err(Refusal::Water)
    );
    assert_eq!(
        a.act(1, Action::Place(at(1, 0, 0), Block::Water), &mut t),
        Err(Refusal::BucketEmpty)
    );
    assert_eq!(
        a.act(1, Action::Take(at(2, -1, 1)), &mut t),
        Err(Refusal::NoSource)
    );
    assert_eq!(
        a.act(1, Action::Take(at(2, -1, 0)), &mut t),
        Ok((at(2, -1, 0), Block::Air))
    );
    assert!(a.players().bucket_full(1));
    assert_eq!(
        a.act(1, Action::Take(at(2, -1, 0)), &mut t),
        Err(Refusal::BucketFull)
    );
    assert_eq!(
        a.act(1, Action::Place(at(1, 0, 0), Block::Water), &mut t),
        Ok((at(1, 0, 0), Block::Water))
    );
    assert!(!a.players().bucket_full(1));
    // The poured source woke: it is due at the next step.
    assert!(a.pending().due().any(|(_, p)| p == at(1, 0, 0)));
}

#[test]
fn a_draft_keeps_no_edits_and_a_flood_of_edits_is_refused_past_the_burst() {
    let mut draft = Authority::new(WorldConfig::default(), Role::Draft);
    draft.players_mut().place(1, [0.5, 0.0, 0.5]);
    let mut t = land();
    assert_eq!(
        draft.act(1, Action::Break(at(1, -1, 0)), &mut t),
        Err(Refusal::Draft)
    );

    let (mut a, mut t) = world();
    let mut made = 0;
    let mut refused = 0;
    for i in 0..(EDIT_BURST as i32 + 10) {
        match a.act(1, Action::Break(at(i % 5 - 2, -1 - i / 5, 1)), &mut t) {
            Ok(_) => made += 1,
            Err(Refusal::TooFast) => refused += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!((made, refused), (EDIT_BURST as i32, 10));
    // A second later there are edits again: EDIT_RATE of them.
    a.advance(1.0);
    assert!(a.act(1, Action::Break(at(1, -1, -1)), &mut t).is_ok());
}

#[test]
fn the_water_steps_on_its_clock_and_flows_over_the_land() {
    let (mut a, mut t) = world();
    a.players_mut().set_bucket(1, true);
    a.act(1, Action::Place(at(2, 0, 0), Block::Water), &mut t)
        .unwrap();
    assert!(a.take_step(&t).is_none(), "no step before its time");
    let mut flowed = Vec::new();
    for _ in 0..40 {
        a.advance(STEP_SECONDS);
        if let Some(job) = a.take_step(&t) {
            let step = job.run();
            let laid = a
                .lay_step(job.lineage, &step, &mut t)
                .expect("the same edits");
            flowed.extend(laid.changes);
        }
    }
    // A source on flat ground spreads 7 blocks each way, level by level.
    assert_eq!(t.block(at(9, 0, 0)), Some(Block::FlowingWater7));
    assert_eq!(t.block(at(10, 0, 0)), Some(Block::Air));
    assert!(flowed.contains(&(at(3, 0, 0), Block::FlowingWater1)));
    assert!(a.pending().is_empty(), "settled");
    // Every change of the water is an edit too (so it is saved and sent).
    assert_eq!(a.edits().get(at(5, 0, 0)), Some(Block::FlowingWater3));
}

#[test]
fn a_step_of_edits_replaced_since_is_dropped() {
    let (mut a, mut t) = world();
    a.set_block(at(0, 0, 3), Block::Water, &mut t);
    a.advance(STEP_SECONDS);
    let job = a.take_step(&t).expect("due");
    let step = job.run();
    a.replace(WorldConfig::default(), Default::default());
    assert_eq!(a.lay_step(job.lineage, &step, &mut t), None);
}

#[test]
fn a_chunk_load_that_resumes_nothing_changes_nothing() {
    let (mut a, _) = world();
    let revision = a.revision();
    assert_eq!(a.resume_water(|_| true), 0);
    assert_eq!(a.revision(), revision);
}

/// A step over the picture the authority takes of the loaded chunks writes what a
/// step over the whole loaded land writes: for water due on every side of chunk
/// borders, the picture holds every chunk a tick reads (it takes the chunks within
/// the rules' read reach; a picture of fewer chunks would leave blocks waiting).
#[test]
fn the_picture_of_a_step_holds_everything_its_ticks_read() {
    let mut t = land();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: i32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as i32
    };
    let kinds = [Block::Air, Block::Stone, Block::Water, Block::FlowingWater4];
    for x in -7..=7 {
        for z in -7..=7 {
            for y in -3..=2 {
                t.set(at(x + 32, y, z - 32), kinds[next(4) as usize]);
            }
        }
    }
    let due: Vec<BlockPos> = (0..60)
        .map(|_| at(32 + next(9) - 4, next(4) - 2, -32 + next(9) - 4))
        .filter(|&p| t.block(p).is_some_and(Block::is_water))
        .collect();
    assert!(due.len() > 10);
    let picture = Picture::around(&t, &due);
    let whole = fluid::step(&t, &due);
    assert!(whole.waiting.is_empty());
    assert!(!whole.writes.is_empty());
    assert_eq!(fluid::step(&picture, &due), whole);
    // Fewer chunks than the reach says: some tick waits, so the test can fail.
    let mut short = land();
    for c in Picture::chunks_for(&due) {
        if c.x == 1 {
            short.remove(c);
        }
    }
    assert!(
        !fluid::step(&Picture::around(&short, &due), &due)
            .waiting
            .is_empty()
    );
}

#[test]
fn an_edit_beside_water_is_refused_while_the_water_waiting_is_at_its_bound() {
    let (mut a, mut t) = world();
    t.set(at(2, -1, 0), Block::Water);
    // Pour water high over the land, block by block, until the water due is at
    // its bound.
    let mut i = 0;
    while !a.pending().full() {
        a.set_block(
            at(i % 128 - 64, 20 + i / 16_384, i / 128 % 128 - 64),
            Block::Water,
            &mut t,
        );
        i += 1;
        assert!(i <= MAX_PENDING as i32, "the bound is never reached");
    }
    assert_eq!(
        a.act(1, Action::Break(at(3, -1, 0)), &mut t),
        Err(Refusal::WaterBusy)
    );
    // Away from water an edit is made.
    assert!(a.act(1, Action::Break(at(-3, -1, -3)), &mut t).is_ok());
}

/// A step laid a few writes at a time (a frame's share each) and then settled leaves
/// the world, the edits and the water due as a step laid at once does.
#[test]
fn a_step_laid_in_parts_is_the_step_laid_at_once() {
    let run = |part: usize| {
        let (mut a, mut t) = world();
        a.players_mut().set_bucket(1, true);
        a.act(1, Action::Place(at(2, 0, 0), Block::Water), &mut t)
            .unwrap();
        let mut biggest = 0;
        for _ in 0..12 {
            a.advance(STEP_SECONDS);
            let Some(job) = a.take_step(&t) else { continue };
            let step = job.run();
            biggest = biggest.max(step.writes.len());
            for writes in step.writes.chunks(part) {
                a.lay_writes(job.lineage, writes, &mut t)
                    .expect("the same edits");
            }
            assert!(a.settle_step(job.lineage, &step, &mut t));
        }
        (a.edits().clone(), biggest)
    };
    let (whole, biggest) = run(usize::MAX);
    assert!(biggest > 3, "steps of a few writes at least: {biggest}");
    let (parts, _) = run(3);
    assert_eq!(parts, whole);
}

/// A worker that has its step at once (the stepper does not care where it ran).
struct Ran(Option<Stepped>);

impl Worker for Ran {
    fn finished(&mut self) -> Option<Stepped> {
        self.0.take()
    }
}

/// A worker still at work for `turns` more turns.
struct Slow(Option<Stepped>, u32);

impl Worker for Slow {
    fn finished(&mut self) -> Option<Stepped> {
        if self.1 == 0 {
            self.0.take()
        } else {
            self.1 -= 1;
            None
        }
    }
}

/// The stepper lays a step only once one is due, a part a turn, and the water it
/// makes is the same however the laying is cut and however long the worker takes.
#[test]
fn the_stepper_lays_a_step_in_parts_once_due_and_the_water_is_the_same() {
    let run = |most: usize, slow: u32| {
        let (mut a, mut t) = world();
        a.players_mut().set_bucket(1, true);
        a.act(1, Action::Place(at(2, 0, 0), Block::Water), &mut t)
            .unwrap();
        let mut stepper: Stepper<Slow> = Stepper::default();
        let (mut changes, mut settled, mut turns_laying) = (Vec::new(), 0, 0);
        for _ in 0..4000 {
            a.advance(STEP_SECONDS / 4.0);
            let due = a.water_due();
            let turn = stepper.turn(&mut a, &mut t, most, |job| {
                Slow(Some(Stepped::run(&job)), slow)
            });
            assert!(
                due || turn == Turn::default(),
                "nothing happens between steps"
            );
            assert!(turn.changes.len() <= most);
            turns_laying += usize::from(!turn.changes.is_empty());
            settled += usize::from(turn.settled.is_some());
            changes.extend(turn.changes);
        }
        assert!(!stepper.stepping() && a.pending().is_empty(), "settled");
        (
            t.block(at(9, 0, 0)),
            a.edits().clone(),
            changes,
            settled,
            turns_laying,
        )
    };
    let (far, edits, changes, settled, whole) = run(usize::MAX, 0);
    assert_eq!(far, Some(Block::FlowingWater7));
    assert!(settled > 5);
    for (most, slow) in [(1, 0), (3, 2), (usize::MAX, 5)] {
        let (far2, edits2, changes2, settled2, turns) = run(most, slow);
        assert_eq!(
            (far2, settled2),
            (far, settled),
            "laid {most} a turn, {slow} slow"
        );
        assert_eq!(changes2, changes, "the same changes in the same order");
        assert!(edits2 == edits);
        if most == 1 {
            assert!(turns > whole, "laid over more turns");
        }
    }
    let mut ran: Stepper<Ran> = Stepper::default();
    let (mut a, mut t) = world();
    a.set_block(at(0, 0, 3), Block::Water, &mut t);
    a.advance(STEP_SECONDS);
    let first = ran.turn(&mut a, &mut t, 8, |job| Ran(Some(Stepped::run(&job))));
    assert!(
        first.changes.is_empty() && ran.stepping(),
        "taken, not laid yet"
    );
    a.replace(WorldConfig::default(), Default::default());
    a.advance(STEP_SECONDS);
    let dropped = ran.turn(&mut a, &mut t, 8, |job| Ran(Some(Stepped::run(&job))));
    assert!(
        dropped.changes.is_empty() && dropped.settled.is_none(),
        "not this world's"
    );
}
