//! Exact voxel traversal of a ray (Amanatides & Woo, "A Fast Voxel Traversal
//! Algorithm", 1987): every block the ray passes through, in order, so the first
//! solid one is the block the player looks at, and the face it entered through says
//! where a placed block goes.

use crate::coords::BlockPos;

/// Where a ray hit a block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The block hit.
    pub pos: BlockPos,
    /// The outward normal of the face the ray entered through (one axis is `±1`);
    /// `[0, 0, 0]` when the ray started inside the block.
    pub normal: [i32; 3],
    /// Distance along the (normalised) ray to the entry point.
    pub distance: f32,
}

impl RayHit {
    /// The block in front of the hit face: where a placed block goes. `None` when the
    /// ray started inside the block (there is no face).
    pub fn adjacent(&self) -> Option<BlockPos> {
        (self.normal != [0, 0, 0]).then(|| self.pos.offset(self.normal))
    }
}

/// What the traversal should do at a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// The ray stops here: this block is the hit.
    Hit,
    /// The ray passes through (air, water).
    Pass,
    /// Nothing is known here (an unloaded chunk): the ray stops without a hit.
    Unknown,
}

/// Walks the ray from `origin` along `dir` for at most `max_distance` blocks, asking
/// `probe` about each block it enters (starting with the block holding `origin`), and
/// returns the first [`Probe::Hit`]. A zero or non-finite direction hits nothing.
pub fn raycast(
    origin: [f32; 3],
    dir: [f32; 3],
    max_distance: f32,
    mut probe: impl FnMut(BlockPos) -> Probe,
) -> Option<RayHit> {
    let len = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    if !(len.is_finite() && len > 0.0 && origin.iter().all(|v| v.is_finite())) {
        return None;
    }
    let d = dir.map(|v| v / len);
    let mut cell = [0i32; 3];
    let mut step = [0i32; 3];
    // Distance along the ray to the next boundary on each axis, and between boundaries.
    let mut next = [f32::INFINITY; 3];
    let mut delta = [f32::INFINITY; 3];
    for a in 0..3 {
        cell[a] = origin[a].floor() as i32;
        if d[a] > 0.0 {
            step[a] = 1;
            delta[a] = 1.0 / d[a];
            next[a] = (cell[a] as f32 + 1.0 - origin[a]) * delta[a];
        } else if d[a] < 0.0 {
            step[a] = -1;
            delta[a] = -1.0 / d[a];
            next[a] = (origin[a] - cell[a] as f32) * delta[a];
        }
    }
    let mut normal = [0i32; 3];
    let mut distance = 0.0f32;
    loop {
        let pos = BlockPos::new(cell[0], cell[1], cell[2]);
        match probe(pos) {
            Probe::Hit => {
                return Some(RayHit {
                    pos,
                    normal,
                    distance,
                });
            }
            Probe::Unknown => return None,
            Probe::Pass => {}
        }
        // Step across the nearest boundary.
        let a = if next[0] <= next[1] && next[0] <= next[2] {
            0
        } else if next[1] <= next[2] {
            1
        } else {
            2
        };
        distance = next[a];
        if distance > max_distance {
            return None;
        }
        cell[a] += step[a];
        next[a] += delta[a];
        normal = [0; 3];
        normal[a] = -step[a];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid_at(target: BlockPos) -> impl FnMut(BlockPos) -> Probe {
        move |p| if p == target { Probe::Hit } else { Probe::Pass }
    }

    #[test]
    fn straight_down_hits_the_top_face() {
        let hit = raycast(
            [0.5, 10.5, 0.5],
            [0.0, -1.0, 0.0],
            20.0,
            solid_at(BlockPos::new(0, 2, 0)),
        )
        .unwrap();
        assert_eq!(hit.pos, BlockPos::new(0, 2, 0));
        assert_eq!(hit.normal, [0, 1, 0]);
        assert!((hit.distance - 7.5).abs() < 1e-5);
        assert_eq!(hit.adjacent(), Some(BlockPos::new(0, 3, 0)));
    }

    #[test]
    fn negative_coordinates_and_chunk_borders() {
        // From x = 1.5 towards -x: crosses x = 0 (a chunk border) into negative blocks.
        let target = BlockPos::new(-3, 0, -1);
        let hit = raycast([1.5, 0.5, -0.5], [-1.0, 0.0, 0.0], 8.0, solid_at(target)).unwrap();
        assert_eq!(hit.pos, target);
        assert_eq!(hit.normal, [1, 0, 0]);
        assert!((hit.distance - 3.5).abs() < 1e-5);
    }

    #[test]
    fn visits_every_block_on_a_diagonal_in_order() {
        let mut seen = Vec::new();
        raycast([0.2, 0.3, 0.1], [1.0, 0.7, 0.4], 6.0, |p| {
            seen.push(p);
            Probe::Pass
        });
        // Consecutive blocks share a face: exactly one coordinate changes by one.
        for w in seen.windows(2) {
            let d = [w[1].x - w[0].x, w[1].y - w[0].y, w[1].z - w[0].z];
            assert_eq!(d.iter().map(|v| v.abs()).sum::<i32>(), 1, "{w:?}");
        }
        assert_eq!(seen[0], BlockPos::new(0, 0, 0));
        // Every visited block really is crossed by the segment (it is within reach).
        let dir = {
            let l = (1.0f32 + 0.49 + 0.16).sqrt();
            [1.0 / l, 0.7 / l, 0.4 / l]
        };
        let end = [0.2 + dir[0] * 6.0, 0.3 + dir[1] * 6.0, 0.1 + dir[2] * 6.0];
        let last = *seen.last().unwrap();
        assert!((last.x as f32 - end[0]).abs() <= 1.0 && (last.y as f32 - end[1]).abs() <= 1.0);
    }

    #[test]
    fn range_limit_and_unknown_stop_the_ray() {
        let far = BlockPos::new(0, 0, -12);
        assert!(raycast([0.5, 0.5, 0.5], [0.0, 0.0, -1.0], 8.0, solid_at(far)).is_none());
        assert!(
            raycast([0.5, 0.5, 0.5], [0.0, 0.0, -1.0], 20.0, |p| {
                if p.z < -2 {
                    Probe::Unknown
                } else {
                    Probe::Pass
                }
            })
            .is_none()
        );
        assert!(raycast([0.5, 0.5, 0.5], [0.0, 0.0, 0.0], 8.0, |_| Probe::Hit).is_none());
    }

    #[test]
    fn starting_inside_a_block_has_no_face() {
        let hit = raycast([0.5, 0.5, 0.5], [1.0, 0.0, 0.0], 8.0, |_| Probe::Hit).unwrap();
        assert_eq!(hit.normal, [0, 0, 0]);
        assert_eq!(hit.adjacent(), None);
    }
}
