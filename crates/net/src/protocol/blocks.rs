//! Blocks on the wire: a batch of `(position, block)` grouped by chunk, three bytes
//! an edit (its index in the chunk and its block), the chunks' positions as small
//! steps from the one before, then zlib. A backlog of a million edits of a real
//! world packs into a few hundred kilobytes; unpacking is bounded, so a small message
//! cannot unpack into a large one.

use std::collections::BTreeMap;
use std::io::Read;

use flate2::read::ZlibDecoder;
use flate2::{Compress, Compression, FlushCompress, Status};
use terravox_voxel::{Block, BlockPos, CHUNK, ChunkPos};

use super::codec::{DecodeError, Reader, Writer};

/// The most bytes a batch unpacks to (about 300,000 edits).
pub const MAX_UNPACKED: usize = 1 << 20;

/// Packs `blocks` (in any order; a position listed twice keeps its last block).
pub fn pack(blocks: &[(BlockPos, Block)]) -> Vec<u8> {
    let mut by_chunk: BTreeMap<ChunkPos, BTreeMap<u16, Block>> = BTreeMap::new();
    for &(p, b) in blocks {
        let (c, [x, y, z]) = p.to_chunk();
        by_chunk
            .entry(c)
            .or_default()
            .insert(((y * CHUNK + z) * CHUNK + x) as u16, b);
    }
    let mut w = Writer::new();
    w.varint(by_chunk.len() as u64);
    let mut last = ChunkPos::new(0, 0, 0);
    for (c, edits) in &by_chunk {
        w.zigzag(i64::from(c.x) - i64::from(last.x));
        w.zigzag(i64::from(c.y) - i64::from(last.y));
        w.zigzag(i64::from(c.z) - i64::from(last.z));
        last = *c;
        w.varint(edits.len() as u64);
        for (&i, &b) in edits {
            w.raw(&i.to_le_bytes());
            w.u8(b as u8);
        }
    }
    zlib(&w.into_bytes())
}

thread_local! {
    /// Each thread's compressor, reset for every batch: making one clears a few
    /// hundred kilobytes of tables, which cost a server sending a hundred clients
    /// their batches half its tick.
    static COMPRESSOR: std::cell::RefCell<Compress> =
        std::cell::RefCell::new(Compress::new(Compression::default(), true));
}

/// `raw` in zlib's format, at the default level.
fn zlib(raw: &[u8]) -> Vec<u8> {
    COMPRESSOR.with_borrow_mut(|c| {
        c.reset();
        // Room for all of it: zlib grows what it cannot shrink by a few bytes.
        let mut out = Vec::with_capacity(raw.len() + raw.len() / 1000 + 64);
        loop {
            let at = c.total_in() as usize;
            match c.compress_vec(&raw[at..], &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) | Err(_) => return out,
                Ok(_) => out.reserve(out.capacity().max(64)),
            }
        }
    })
}

/// Unpacks a batch [`pack`] made.
pub fn unpack(packed: &[u8]) -> Result<Vec<(BlockPos, Block)>, DecodeError> {
    let mut raw = Vec::new();
    ZlibDecoder::new(packed)
        .take(MAX_UNPACKED as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(|_| DecodeError::Invalid("packed blocks"))?;
    if raw.len() > MAX_UNPACKED {
        return Err(DecodeError::TooLong {
            what: "unpacked blocks",
            len: raw.len() as u64,
            max: MAX_UNPACKED as u64,
        });
    }
    let mut r = Reader::new(&raw);
    let chunks = r.len("chunks", MAX_UNPACKED / 4)?;
    let mut out = Vec::new();
    let mut c = [0i64; 3];
    for _ in 0..chunks {
        for v in &mut c {
            *v = v.saturating_add(r.zigzag()?);
        }
        let [x, y, z] = c.map(|v| i32::try_from(v).map_err(|_| DecodeError::Invalid("chunk")));
        let chunk = ChunkPos::new(x?, y?, z?);
        let n = r.len("edits in a chunk", (CHUNK * CHUNK * CHUNK) as usize)?;
        for e in r.take(n * 3)?.chunks_exact(3) {
            let i = i32::from(u16::from_le_bytes([e[0], e[1]]));
            if i >= CHUNK * CHUNK * CHUNK {
                return Err(DecodeError::Invalid("block index"));
            }
            let b = *Block::ALL
                .get(usize::from(e[2]))
                .ok_or(DecodeError::Invalid("block"))?;
            let l = [i % CHUNK, i / (CHUNK * CHUNK), (i / CHUNK) % CHUNK];
            out.push((chunk.local_to_world(l), b));
        }
    }
    r.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_round_trips_by_chunk_and_the_last_block_of_a_position_wins() {
        let blocks = vec![
            (BlockPos::new(-1, 5, 40), Block::Brick),
            (BlockPos::new(1_000_000, -300, 7), Block::Water),
            (BlockPos::new(-1, 5, 40), Block::Air),
            (BlockPos::new(0, 0, 0), Block::FlowingWater3),
        ];
        let mut got = unpack(&pack(&blocks)).unwrap();
        got.sort();
        let mut want = vec![blocks[1], blocks[2], blocks[3]];
        want.sort();
        assert_eq!(got, want);
        assert_eq!(unpack(&pack(&[])).unwrap(), []);
    }

    #[test]
    fn one_compressor_packs_batch_after_batch_as_a_fresh_one_does() {
        use flate2::write::ZlibEncoder;
        use std::io::Write;
        let fresh = |raw: &[u8]| {
            let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
            z.write_all(raw).unwrap();
            z.finish().unwrap()
        };
        let big: Vec<u8> = (0..300_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for raw in [&b"short"[..], &big, &[], &b"short"[..]] {
            assert_eq!(zlib(raw), fresh(raw));
        }
    }

    #[test]
    fn a_packed_bomb_or_garbage_is_refused() {
        // Zeros compress a thousandfold: past the bound, refused, not unpacked.
        let bomb = zlib(&vec![0; MAX_UNPACKED * 4]);
        assert!(bomb.len() < 10_000);
        assert!(matches!(unpack(&bomb), Err(DecodeError::TooLong { .. })));
        assert!(unpack(b"not zlib at all").is_err());
    }
}
