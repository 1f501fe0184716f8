//! Minecraft's rules for water, one block's tick at a time: `FlowingFluid`'s
//! `getNewLiquid`, `spread`, `spreadToSides`, `getSpread` and `getSlopeDistance` with
//! `WaterFluid`'s constants, for full blocks (every block here is open or solid
//! whole).

use terravox_voxel::water_states::{Fluid, SIDES};
use terravox_voxel::{Block, BlockPos, ChunkPos};

/// A read reached a chunk that is not loaded: the tick waits for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Unloaded(pub(super) ChunkPos);

/// A rule's answer, unless it needed an unloaded chunk.
pub(super) type Read<T> = Result<T, Unloaded>;

/// The world a tick reads.
pub(super) trait World {
    /// The block at `p`, or which chunk is not loaded.
    fn read(&self, p: BlockPos) -> Read<Block>;
}

/// Levels water loses a block (Minecraft's `getDropOff`).
const DROP_OFF: u8 = 1;
/// How far flowing water looks for a drop (`getSlopeFindDistance`).
const SLOPE_FIND_DISTANCE: u32 = 4;
/// The distance of no drop in sight.
const NO_DROP: u32 = 1000;

/// How far from its block a tick reads the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Blocks to each side, along x and along z.
    pub side: i32,
    /// Blocks below.
    pub down: i32,
    /// Blocks above.
    pub up: i32,
}

impl Reach {
    /// Whether `p` lies within reach of a tick of `centre`.
    pub fn holds(&self, centre: BlockPos, p: BlockPos) -> bool {
        let d = [
            p.x.wrapping_sub(centre.x),
            p.y.wrapping_sub(centre.y),
            p.z.wrapping_sub(centre.z),
        ];
        d[0].abs() <= self.side && d[2].abs() <= self.side && (-self.down..=self.up).contains(&d[1])
    }

    /// The lowest and highest corners of the box read by a tick of `centre`.
    pub fn around(&self, centre: BlockPos) -> (BlockPos, BlockPos) {
        (
            centre.offset([-self.side, -self.down, -self.side]),
            centre.offset([self.side, self.up, self.side]),
        )
    }
}

/// What a tick reads around its block: the square of the search for a drop (from
/// the block beside it, four blocks on, reading the block beyond and what lies under
/// it: five blocks out), from two below its block (the ground under the block under
/// it) to one above (the water over it). The one place this is said: a tick
/// remembers this box, and whoever hands a step a picture of the world takes the
/// chunks of this box around every block due (a test fails where a tick reads
/// outside it, and where no tick reaches its edge).
pub const READ_REACH: Reach = Reach {
    side: 5,
    down: 2,
    up: 1,
};

/// Side of the square a tick remembers.
const SIDE: usize = 2 * READ_REACH.side as usize + 1;
/// The layers a tick remembers.
const LAYERS: usize = (READ_REACH.down + 1 + READ_REACH.up) as usize;
/// Not read yet.
const UNSEEN: u8 = u8::MAX;

/// One block's tick: the world as it reads (remembered, as Minecraft's
/// `SpreadContext` remembers it) and what it writes, kept apart until the tick is
/// complete so a tick stopped by an unloaded chunk leaves nothing behind.
pub(super) struct Tick<'a, W: World + ?Sized> {
    world: &'a W,
    centre: BlockPos,
    seen: [u8; SIDE * SIDE * LAYERS],
    /// The blocks written, in order (each position once).
    pub(super) writes: Vec<(BlockPos, Block)>,
}

impl<'a, W: World + ?Sized> Tick<'a, W> {
    /// A tick of the block at `centre`.
    pub(super) fn new(world: &'a W, centre: BlockPos) -> Self {
        Self {
            world,
            centre,
            seen: [UNSEEN; SIDE * SIDE * LAYERS],
            writes: Vec::new(),
        }
    }

    /// The remembered slot of `p`, if it is near the centre.
    fn slot(&self, p: BlockPos) -> Option<usize> {
        READ_REACH.holds(self.centre, p).then(|| {
            let r = READ_REACH;
            let [x, y, z] = [
                p.x.wrapping_sub(self.centre.x) + r.side,
                p.y.wrapping_sub(self.centre.y) + r.down,
                p.z.wrapping_sub(self.centre.z) + r.side,
            ]
            .map(|v| v as usize);
            (y * SIDE + z) * SIDE + x
        })
    }

    /// The block at `p`, with this tick's writes.
    pub(super) fn get(&mut self, p: BlockPos) -> Read<Block> {
        if let Some(&(_, b)) = self.writes.iter().find(|(q, _)| *q == p) {
            return Ok(b);
        }
        let Some(i) = self.slot(p) else {
            return self.world.read(p);
        };
        if self.seen[i] != UNSEEN {
            return Ok(Block::ALL[self.seen[i] as usize]);
        }
        let b = self.world.read(p)?;
        self.seen[i] = b as u8;
        Ok(b)
    }

    /// Writes `b` at `p`.
    fn set(&mut self, p: BlockPos, b: Block) {
        match self.writes.iter_mut().find(|(q, _)| *q == p) {
            Some(w) => w.1 = b,
            None => self.writes.push((p, b)),
        }
    }
}

fn beside(p: BlockPos, [dx, dz]: [i32; 2]) -> BlockPos {
    p.offset([dx, 0, dz])
}

fn below(p: BlockPos) -> BlockPos {
    p.offset([0, -1, 0])
}

fn above(p: BlockPos) -> BlockPos {
    p.offset([0, 1, 0])
}

/// Whether water can run into `b`: open, or flowing water (`canPassThrough`: not a
/// source, not solid).
fn passable(b: Block) -> bool {
    !b.is_solid() && b.fluid() != Some(Fluid::Source)
}

/// What an emptied block holds, given the blocks beside it: cave air (out of the
/// sky's light) where it opens onto a cave and not onto open air, so a cave stays
/// dark; air elsewhere. A block broken and water drying up both leave this.
pub fn emptied(neighbours: impl IntoIterator<Item = Block>) -> Block {
    let (mut cave, mut open) = (false, false);
    for b in neighbours {
        cave |= b == Block::CaveAir;
        open |= b == Block::Air;
    }
    if cave && !open {
        Block::CaveAir
    } else {
        Block::Air
    }
}

/// The water the blocks around `p` make there (`getNewLiquid`): two sources beside
/// it over solid ground or a source make a source; water above makes falling water;
/// else one level more than the lowest level beside it, and none past level 7.
pub(super) fn new_liquid<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos) -> Read<Option<Fluid>> {
    let (mut most, mut sources) = (0u8, 0u32);
    for side in SIDES {
        if let Some(f) = t.get(beside(p, side))?.fluid() {
            sources += f.is_source() as u32;
            most = most.max(f.amount());
        }
    }
    if sources >= 2 {
        let under = t.get(below(p))?;
        if under.is_solid() || under.fluid() == Some(Fluid::Source) {
            return Ok(Some(Fluid::Source));
        }
    }
    if t.get(above(p))?.is_water() {
        return Ok(Some(Fluid::Falling));
    }
    Ok((most > DROP_OFF).then(|| Fluid::Flowing(8 - (most - DROP_OFF))))
}

/// Whether water at `p` would fall: the block below is open or water
/// (`isWaterHole`).
fn is_hole<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos) -> Read<bool> {
    Ok(!t.get(below(p))?.is_solid())
}

/// How many blocks beside `p` are sources.
fn sources_beside<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos) -> Read<u32> {
    let mut n = 0;
    for side in SIDES {
        n += (t.get(beside(p, side))?.fluid() == Some(Fluid::Source)) as u32;
    }
    Ok(n)
}

/// Ticks the water at `p` (`FlowingFluid.tick`): flowing water takes the level its
/// neighbours give it (or dries up), then the water spreads.
pub(super) fn tick<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos) -> Read<()> {
    let Some(mut state) = t.get(p)?.fluid() else {
        return Ok(());
    };
    if !state.is_source() {
        match new_liquid(t, p)? {
            None => {
                let mut neighbours = [Block::Air; 6];
                for (n, q) in neighbours.iter_mut().zip(p.neighbours()) {
                    *n = t.get(q)?;
                }
                t.set(p, emptied(neighbours));
                return Ok(());
            }
            Some(new) if new != state => {
                t.set(p, new.block());
                state = new;
            }
            Some(_) => {}
        }
    }
    spread(t, p, state)
}

/// Spreads the water `state` at `p` (`FlowingFluid.spread`): down into an open
/// block first; sideways where it cannot fall (a source always, and also when it
/// falls with three sources beside it).
fn spread<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos, state: Fluid) -> Read<()> {
    let down = below(p);
    let under = t.get(down)?;
    if passable(under) {
        let new = new_liquid(t, down)?;
        // Only an open block is replaced; water below ticks by itself.
        if !under.is_water() {
            if let Some(f) = new {
                t.set(down, f.block());
            }
            if sources_beside(t, p)? >= 3 {
                spread_to_sides(t, p, state)?;
            }
            return Ok(());
        }
    }
    if state.is_source() || !is_hole(t, p)? {
        spread_to_sides(t, p, state)?;
    }
    Ok(())
}

/// Spreads sideways (`spreadToSides`): one level further (falling water lands as
/// level 1), towards the nearest drop.
fn spread_to_sides<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos, state: Fluid) -> Read<()> {
    let amount = match state {
        Fluid::Falling => 7,
        f => f.amount() - DROP_OFF,
    };
    if amount == 0 {
        return Ok(());
    }
    let ways = spread_ways(t, p)?;
    for (side, fluid) in SIDES.into_iter().zip(ways) {
        if let Some(f) = fluid {
            t.set(beside(p, side), f.block());
        }
    }
    Ok(())
}

/// What water at `p` makes in each block beside it ([`SIDES`]' order) where it
/// spreads (`getSpread`): of the blocks beside it water can run into, those nearest
/// a drop (every one on flat ground); only open blocks are written.
fn spread_ways<W: World + ?Sized>(t: &mut Tick<W>, p: BlockPos) -> Read<[Option<Fluid>; 4]> {
    let mut nearest = NO_DROP;
    let mut ways: [Option<Fluid>; 4] = [None; 4];
    for (k, side) in SIDES.into_iter().enumerate() {
        let q = beside(p, side);
        let b = t.get(q)?;
        if !passable(b) {
            continue;
        }
        let new = new_liquid(t, q)?;
        let distance = if is_hole(t, q)? {
            0
        } else {
            slope_distance(t, q, 1, [-side[0], -side[1]])?
        };
        if distance < nearest {
            ways = [None; 4];
        }
        if distance <= nearest {
            if !b.is_water() {
                ways[k] = new;
            }
            nearest = distance;
        }
    }
    Ok(ways)
}

/// How many blocks from `p` the nearest drop is, not looking back the way it came
/// (`getSlopeDistance`): `depth` where one is found, [`NO_DROP`] if none within
/// [`SLOPE_FIND_DISTANCE`].
fn slope_distance<W: World + ?Sized>(
    t: &mut Tick<W>,
    p: BlockPos,
    depth: u32,
    from: [i32; 2],
) -> Read<u32> {
    let mut nearest = NO_DROP;
    for side in SIDES {
        if side == from {
            continue;
        }
        let q = beside(p, side);
        if !passable(t.get(q)?) {
            continue;
        }
        if is_hole(t, q)? {
            return Ok(depth);
        }
        if depth < SLOPE_FIND_DISTANCE {
            nearest = nearest.min(slope_distance(t, q, depth + 1, [-side[0], -side[1]])?);
        }
    }
    Ok(nearest)
}
