//! The terrain made around players, without a game: the chunks around each player
//! (so every edit in reach can be decided) and those the water waits for near a
//! player, made on rayon's threads and laid with the edits when they arrive; chunks
//! far from every player are let go. The server makes its terrain so; so does a
//! headless client (the bot).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use terravox_authority::{Blocks, PlayerId, Terrain};
use terravox_edits::Edits;
use terravox_voxel::{Block, BlockPos, Chunk, ChunkPos};
use terravox_worldgen::Generator;

/// Chunks made around a player, each way (a reach of 9 blocks stays within them).
const AROUND: i32 = 1;
/// Chunks the water may be made in around a player, each way.
const WATER_AROUND: i32 = 6;
/// Chunks kept around a player, each way; further ones are let go.
const KEPT: i32 = 8;
/// Chunks being made at once at most.
const IN_FLIGHT: usize = 32;

/// The loaded chunks and those being made.
pub(crate) struct Around {
    generator: Arc<Generator>,
    terrain: Terrain,
    players: HashMap<PlayerId, ChunkPos>,
    /// Wanted, not started.
    queue: BTreeSet<ChunkPos>,
    making: BTreeSet<ChunkPos>,
    tx: Sender<(ChunkPos, Chunk)>,
    rx: Receiver<(ChunkPos, Chunk)>,
}

/// Whether `c` lies within `r` chunks of `centre` each way.
fn near(c: ChunkPos, centre: ChunkPos, r: i32) -> bool {
    (c.x - centre.x).abs() <= r && (c.y - centre.y).abs() <= r && (c.z - centre.z).abs() <= r
}

impl Around {
    pub(crate) fn new(generator: Arc<Generator>) -> Self {
        let (tx, rx) = channel();
        Self {
            generator,
            terrain: Terrain::new(),
            players: HashMap::new(),
            queue: BTreeSet::new(),
            making: BTreeSet::new(),
            tx,
            rx,
        }
    }

    /// Whether `c` is loaded.
    pub(crate) fn is_loaded(&self, c: ChunkPos) -> bool {
        self.terrain.is_loaded(c)
    }

    /// Whether chunk `c` is wanted or being made.
    pub(crate) fn coming(&self, c: ChunkPos) -> bool {
        self.queue.contains(&c) || self.making.contains(&c)
    }

    /// Whether every chunk around player `id` is loaded.
    pub(crate) fn ready_around(&self, id: PlayerId) -> bool {
        self.players.get(&id).is_some_and(|c| {
            (-AROUND..=AROUND).all(|dy| {
                (-AROUND..=AROUND).all(|dz| {
                    (-AROUND..=AROUND)
                        .all(|dx| self.is_loaded(ChunkPos::new(c.x + dx, c.y + dy, c.z + dz)))
                })
            })
        })
    }

    /// Player `id` stands at `feet`: the chunks around it are made, those far from
    /// every player let go.
    pub(crate) fn player_at(&mut self, id: PlayerId, feet: [f64; 3]) {
        let c = BlockPos::containing_f64(feet).to_chunk().0;
        if self.players.insert(id, c) == Some(c) {
            return;
        }
        for dy in -AROUND..=AROUND {
            for dz in -AROUND..=AROUND {
                for dx in -AROUND..=AROUND {
                    self.ask(ChunkPos::new(c.x + dx, c.y + dy, c.z + dz));
                }
            }
        }
        self.let_go();
        self.start();
    }

    /// Player `id` left.
    pub(crate) fn player_gone(&mut self, id: PlayerId) {
        self.players.remove(&id);
        self.let_go();
    }

    /// The water waits for `chunks`: those near a player are made.
    pub(crate) fn want(&mut self, chunks: &[ChunkPos]) {
        for &c in chunks {
            if self.players.values().any(|&p| near(c, p, WATER_AROUND)) {
                self.ask(c);
            }
        }
        self.start();
    }

    fn ask(&mut self, c: ChunkPos) {
        if !self.terrain.is_loaded(c) && !self.making.contains(&c) {
            self.queue.insert(c);
        }
    }

    /// Lets go of the chunks far from every player (and forgets wanting them).
    fn let_go(&mut self) {
        let players: Vec<ChunkPos> = self.players.values().copied().collect();
        let kept = |c: ChunkPos| players.iter().any(|&p| near(c, p, KEPT));
        let far: Vec<ChunkPos> = self.terrain.loaded().filter(|&c| !kept(c)).collect();
        for c in far {
            self.terrain.remove(c);
        }
        self.queue.retain(|&c| kept(c));
    }

    /// Starts making wanted chunks, nearest a player first, as many as may be made
    /// at once.
    fn start(&mut self) {
        while self.making.len() < IN_FLIGHT {
            let players: Vec<ChunkPos> = self.players.values().copied().collect();
            let next = self.queue.iter().copied().min_by_key(|c| {
                players
                    .iter()
                    .map(|p| c.distance_squared(*p))
                    .min()
                    .unwrap_or(0)
            });
            let Some(c) = next else { break };
            self.queue.remove(&c);
            self.making.insert(c);
            let (generator, tx) = (self.generator.clone(), self.tx.clone());
            rayon::spawn(move || {
                let _ = tx.send((c, generator.generate(c)));
            });
        }
    }

    /// Loads the chunks made since, with `edits` laid over them (the edits of now:
    /// an edit beside a chunk being made is in its padding); how many.
    pub(crate) fn receive(&mut self, edits: &Edits) -> usize {
        let mut n = 0;
        while let Ok((c, mut chunk)) = self.rx.try_recv() {
            self.making.remove(&c);
            if !self.players.values().any(|&p| near(c, p, KEPT)) {
                continue;
            }
            edits.apply(c, &mut chunk);
            self.terrain.insert(c, chunk);
            n += 1;
        }
        if n > 0 {
            self.start();
        }
        n
    }
}

impl Blocks for Around {
    fn set(&mut self, p: BlockPos, b: Block) -> bool {
        self.terrain.set(p, b)
    }

    fn chunk(&self, c: ChunkPos) -> Option<&Arc<Chunk>> {
        self.terrain.chunk(c)
    }
}

impl terravox_edits::fluid::Cells for Around {
    fn block(&self, p: BlockPos) -> Option<Block> {
        self.terrain.block(p)
    }
}
