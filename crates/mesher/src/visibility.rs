//! Cave culling with a visibility graph (Tommaso Checchi's "advanced cave culling",
//! as Minecraft has used it since 2014).
//!
//! Each chunk gets a [`FaceGraph`]: which pairs of its six faces are connected through
//! its non-opaque blocks (air, water, cave air). It is computed with the mesh, from
//! the same bit masks, by a flood fill of the chunk's open blocks row by row.
//!
//! Each time the camera moves to another chunk (or a graph changes), [`reachable`]
//! walks breadth-first from the camera's chunk through connected faces. A chunk the
//! walk never enters cannot be seen from the camera, so it need not be drawn (or even
//! meshed). The walk only ever steps **away** from the camera along the step's axis:
//!
//! ```text
//!   z ^   . . . . .       camera chunk C; a step in +x is allowed from chunks with
//!     |   . ^ ^ ^ .       x >= C.x, a step in -x from chunks with x <= C.x (same for
//!     |   . < C > .       y and z). A straight line from inside C crosses chunks the
//!     |   . v v v .       same way, so every chunk a ray from the eye reaches
//!     |   . . . . .       through open blocks is reached by the walk: culling never
//!     +-----------> x     hides what a ray can see. It may keep a few it need not.
//! ```
//!
//! A chunk may be entered through several faces (a chunk reached first through a wall
//! may connect onwards from another face); each of its faces is left at most once.
//! Chunks whose graph is unknown (not generated yet) count as open on every face, so
//! loading a chunk can only hide others; the camera's own chunk counts as open too
//! (the eye may be anywhere in it).

use terravox_voxel::{Block, CHUNK, ChunkPos};

use crate::face::Face;
use crate::masks::{Masks, P};

const N: usize = CHUNK as usize;

/// Which pairs of a chunk's six faces connect through its non-opaque blocks: bit
/// `6 * a + b` for faces `a` and `b` in [`Face::ALL`] order (symmetric; `(a, a)` is set
/// when any open block touches face `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FaceGraph(u64);

impl FaceGraph {
    /// Every face connected to every face (an open or unknown chunk).
    pub const ALL: FaceGraph = FaceGraph((1 << 36) - 1);
    /// No face connected to any (a solid chunk).
    pub const NONE: FaceGraph = FaceGraph(0);

    /// Whether an open path inside the chunk leads from face `a` to face `b`.
    pub const fn connects(self, a: Face, b: Face) -> bool {
        self.0 >> (6 * a as u32 + b as u32) & 1 != 0
    }

    /// The graph of a chunk of one block everywhere.
    pub fn uniform(block: Block) -> FaceGraph {
        if block.is_opaque() {
            FaceGraph::NONE
        } else {
            FaceGraph::ALL
        }
    }

    /// The graph of a component touching the faces in the 6-bit set `faces`.
    const fn clique(faces: u8) -> FaceGraph {
        let mut bits = 0u64;
        let mut a = 0;
        while a < 6 {
            if faces >> a & 1 != 0 {
                bits |= (faces as u64) << (6 * a);
            }
            a += 1;
        }
        FaceGraph(bits)
    }
}

/// Scratch space of the flood fill: the open blocks and the visited ones, one `u32`
/// per row along x (index `y * 32 + z`), and the stack of rows to expand.
#[derive(Clone, Debug)]
pub(crate) struct Fill {
    open: [u32; N * N],
    visited: [u32; N * N],
    stack: Vec<(u16, u32)>,
}

impl Default for Fill {
    fn default() -> Self {
        Self {
            open: [0; N * N],
            visited: [0; N * N],
            stack: Vec::new(),
        }
    }
}

/// The bits of `seeds` grown along runs of set bits of `open` in both directions (a
/// Kogge-Stone occluded fill); `seeds` must lie within `open`.
fn fill_runs(seeds: u32, open: u32) -> u32 {
    let (mut up, mut p) = (seeds, open);
    up |= p & (up << 1);
    p &= p << 1;
    up |= p & (up << 2);
    p &= p << 2;
    up |= p & (up << 4);
    p &= p << 4;
    up |= p & (up << 8);
    p &= p << 8;
    up |= p & (up << 16);
    let (mut down, mut p) = (seeds, open);
    down |= p & (down >> 1);
    p &= p >> 1;
    down |= p & (down >> 2);
    p &= p >> 2;
    down |= p & (down >> 4);
    p &= p >> 4;
    down |= p & (down >> 8);
    p &= p >> 8;
    down |= p & (down >> 16);
    up | down
}

/// The faces (bits in [`Face::ALL`] order) that the blocks `bits` of row `(y, z)` touch.
fn touched(bits: u32, y: usize, z: usize) -> u8 {
    let last = N - 1;
    let mut f = 0u8;
    f |= ((bits >> last) & 1) as u8; // +x
    f |= ((bits & 1) as u8) << 1; // -x
    f |= u8::from(y == last) << 2;
    f |= u8::from(y == 0) << 3;
    f |= u8::from(z == last) << 4;
    f |= u8::from(z == 0) << 5;
    f
}

impl Fill {
    /// The face graph of the chunk whose opaque bits are in `masks`: every connected
    /// set of open blocks (6-neighbourhood) joins the faces it touches.
    pub(crate) fn graph(&mut self, masks: &Masks) -> FaceGraph {
        for y in 0..N {
            for z in 0..N {
                let row = masks.opaque[(y + 1) * P + z + 1];
                self.open[y * N + z] = !(row >> 1) as u32;
            }
        }
        self.visited = [0; N * N];
        let mut graph = 0u64;
        for start in 0..N * N {
            loop {
                let avail = self.open[start] & !self.visited[start];
                if avail == 0 {
                    break;
                }
                self.stack
                    .push((start as u16, avail & avail.wrapping_neg()));
                let faces = self.component();
                graph |= FaceGraph::clique(faces).0;
                if graph == FaceGraph::ALL.0 {
                    return FaceGraph::ALL;
                }
            }
        }
        FaceGraph(graph)
    }

    /// Floods the component of the seeds on the stack; returns the faces it touches.
    fn component(&mut self) -> u8 {
        let mut faces = 0u8;
        while let Some((i, seeds)) = self.stack.pop() {
            let i = i as usize;
            let avail = self.open[i] & !self.visited[i];
            if seeds & avail == 0 {
                continue;
            }
            let run = fill_runs(seeds & avail, avail);
            self.visited[i] |= run;
            let (y, z) = (i / N, i % N);
            faces |= touched(run, y, z);
            let mut push = |j: usize| {
                if run & self.open[j] & !self.visited[j] != 0 {
                    self.stack.push((j as u16, run));
                }
            };
            if y > 0 {
                push(i - N);
            }
            if y + 1 < N {
                push(i + N);
            }
            if z > 0 {
                push(i - 1);
            }
            if z + 1 < N {
                push(i + 1);
            }
        }
        faces
    }
}

/// The chunks a culling walk reached: a box of chunks around the camera's chunk, one
/// bit each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    min: ChunkPos,
    size: [i32; 3],
    /// Per chunk: bits 0..6 = left through that face, bit 6 = reached.
    state: Vec<u8>,
}

const REACHED: u8 = 1 << 6;

impl Reach {
    fn index(&self, p: ChunkPos) -> Option<usize> {
        let d = [
            p.x as i64 - self.min.x as i64,
            p.y as i64 - self.min.y as i64,
            p.z as i64 - self.min.z as i64,
        ];
        let inside = (0..3).all(|a| (0..self.size[a] as i64).contains(&d[a]));
        inside.then(|| ((d[1] * self.size[2] as i64 + d[2]) * self.size[0] as i64 + d[0]) as usize)
    }

    fn pos(&self, i: usize) -> ChunkPos {
        let (sx, sz) = (self.size[0] as usize, self.size[2] as usize);
        ChunkPos::new(
            self.min.x + (i % sx) as i32,
            self.min.y + (i / (sx * sz)) as i32,
            self.min.z + (i / sx % sz) as i32,
        )
    }

    /// Whether the walk reached chunk `p` (false outside the walked box).
    pub fn reached(&self, p: ChunkPos) -> bool {
        self.index(p).is_some_and(|i| self.state[i] & REACHED != 0)
    }

    /// Whether chunk `p` lies in the walked box and the walk did not reach it: whether
    /// culling hides it. Chunks outside the box are never hidden.
    pub fn hides(&self, p: ChunkPos) -> bool {
        self.index(p).is_some_and(|i| self.state[i] & REACHED == 0)
    }

    /// How many chunks the walk reached.
    pub fn count(&self) -> usize {
        self.state.iter().filter(|&&s| s & REACHED != 0).count()
    }

    /// The chunks the walk reached.
    pub fn chunks(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        (0..self.state.len())
            .filter(|&i| self.state[i] & REACHED != 0)
            .map(|i| self.pos(i))
    }
}

/// Walks from `camera`'s chunk through connected faces (see the module docs) over the
/// box of chunks within `radius` horizontally and `below` / `above` vertically of it.
/// `known` are the graphs of the chunks known (loaded); every other chunk counts as
/// open. Deterministic: the result does not depend on the order of `known`.
pub fn reachable(
    camera: ChunkPos,
    radius: u32,
    below: u32,
    above: u32,
    known: impl IntoIterator<Item = (ChunkPos, FaceGraph)>,
) -> Reach {
    let (r, below, above) = (radius as i32, below as i32, above as i32);
    let min = ChunkPos::new(camera.x - r, camera.y - below, camera.z - r);
    let size = [2 * r + 1, below + above + 1, 2 * r + 1];
    let volume = size.iter().map(|&s| s as usize).product();
    let mut reach = Reach {
        min,
        size,
        state: vec![0; volume],
    };
    let mut graphs = vec![FaceGraph::ALL; volume];
    for (p, g) in known {
        if let Some(i) = reach.index(p) {
            graphs[i] = g;
        }
    }
    // Local coordinates of the camera's chunk, and index strides, per axis.
    let cam = [r, below, r];
    let stride = [1, (size[0] * size[2]) as usize, size[0] as usize];
    // The faces of the chunk at `local` that step away from the camera and stay in
    // the box.
    let away = |local: [i32; 3]| {
        let mut exits = 0u8;
        for axis in 0..3 {
            let c = local[axis];
            if c >= cam[axis] && c + 1 < size[axis] {
                exits |= 1 << (2 * axis); // the positive face
            }
            if c <= cam[axis] && c > 0 {
                exits |= 2 << (2 * axis);
            }
        }
        exits
    };
    // Each entry: a chunk's index, its local coordinates and the exits to take from
    // it that no earlier entry took (a chunk's state keeps the exits taken: leaving
    // by the same face again leads to the same state). Breadth first: the order does
    // not change what is reached, but near chunks first keeps the memory accesses
    // close.
    let mut queue = std::collections::VecDeque::new();
    let start = reach
        .index(camera)
        .expect("the camera's chunk is in its box");
    let exits = away(cam);
    reach.state[start] = REACHED | exits;
    queue.push_back((start, cam, exits));
    while let Some((i, local, mut exits)) = queue.pop_front() {
        while exits != 0 {
            let exit = exits.trailing_zeros() as usize;
            exits &= exits - 1;
            let axis = exit / 2;
            let mut next = local;
            let j = if exit.is_multiple_of(2) {
                next[axis] += 1;
                i + stride[axis]
            } else {
                next[axis] -= 1;
                i - stride[axis]
            };
            // Entered through the face opposite to the exit (faces pair as 0-1, 2-3,
            // 4-5); onwards through the faces that one connects to.
            let entry = exit ^ 1;
            let onwards = (graphs[j].0 >> (6 * entry)) as u8 & away(next);
            let new = onwards & !reach.state[j] & 0x3f;
            reach.state[j] |= REACHED | new;
            if new != 0 {
                queue.push_back((j, next, new));
            }
        }
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chunk within `r` of `c` with its graph from `f`.
    fn box_of(
        c: ChunkPos,
        r: i32,
        f: impl Fn(ChunkPos) -> FaceGraph,
    ) -> Vec<(ChunkPos, FaceGraph)> {
        let mut v = Vec::new();
        for y in -r..=r {
            for z in -r..=r {
                for x in -r..=r {
                    let p = ChunkPos::new(c.x + x, c.y + y, c.z + z);
                    v.push((p, f(p)));
                }
            }
        }
        v
    }

    #[test]
    fn runs_fill_to_their_ends_and_no_further() {
        let open = 0b0111_0111_1110u32;
        assert_eq!(fill_runs(0b0000_0010_0000, open), 0b0000_0111_1110);
        assert_eq!(fill_runs(0b0100_0000_0000, open), 0b0111_0000_0000);
        assert_eq!(fill_runs(1 << 31, u32::MAX), u32::MAX);
        assert_eq!(fill_runs(1, u32::MAX), u32::MAX);
    }

    #[test]
    fn cliques_join_every_pair_of_their_faces() {
        let g = FaceGraph::clique(0b10_0101); // +x, +y, -z
        assert!(g.connects(Face::PosX, Face::NegZ));
        assert!(g.connects(Face::NegZ, Face::PosY));
        assert!(g.connects(Face::PosY, Face::PosY));
        assert!(!g.connects(Face::PosX, Face::NegX));
        assert!(!g.connects(Face::PosZ, Face::PosZ));
        assert_eq!(FaceGraph::clique(0x3f), FaceGraph::ALL);
    }

    #[test]
    fn solid_chunks_stop_the_walk_and_the_camera_chunk_is_always_open() {
        let cam = ChunkPos::new(0, 0, 0);
        let reach = reachable(cam, 3, 3, 3, box_of(cam, 3, |_| FaceGraph::NONE));
        // The camera's chunk and its six neighbours (entered, but closed).
        assert_eq!(reach.count(), 7);
        assert!(reach.reached(ChunkPos::new(0, -1, 0)));
        assert!(!reach.reached(ChunkPos::new(1, 1, 0)));
        assert!(reach.hides(ChunkPos::new(1, 1, 0)));
        assert!(!reach.hides(ChunkPos::new(0, -1, 0)));
        assert!(!reach.hides(ChunkPos::new(9, 0, 0)), "outside the box");
        assert!(!reach.reached(ChunkPos::new(9, 0, 0)));
        let open = reachable(cam, 3, 2, 1, []);
        assert_eq!(open.count(), 7 * 7 * 4);
        assert_eq!(open.chunks().count(), open.count());
        assert!(!open.reached(ChunkPos::new(0, 2, 0)));
    }

    #[test]
    fn the_walk_never_turns_back_towards_the_camera() {
        // A U-turn: (1,0,0) links -x to +z, (1,0,1) links -z to -x, (0,0,1) links +x to
        // -x. Following it would enter (0,0,1) from +x (a step back towards the
        // camera) and go on to (-1,0,1); a ray cannot do that.
        let bits = |faces: &[Face]| faces.iter().fold(0u8, |b, &f| b | 1 << f as u8);
        let cam = ChunkPos::new(0, 0, 0);
        let reach = reachable(
            cam,
            3,
            1,
            1,
            box_of(cam, 3, |p| match (p.x, p.y, p.z) {
                (1, 0, 0) => FaceGraph::clique(bits(&[Face::NegX, Face::PosZ])),
                (1, 0, 1) => FaceGraph::clique(bits(&[Face::NegZ, Face::NegX])),
                (0, 0, 1) => FaceGraph::clique(bits(&[Face::PosX, Face::NegX])),
                _ => FaceGraph::NONE,
            }),
        );
        assert!(reach.reached(ChunkPos::new(1, 0, 1)));
        assert!(reach.reached(ChunkPos::new(0, 0, 1)));
        assert!(!reach.reached(ChunkPos::new(-1, 0, 1)));
    }
}
