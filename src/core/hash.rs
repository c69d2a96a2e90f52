//! A quick, unkeyed hash of bytes for tables whose keys no client can choose
//! to collide with harm: the ruleset map (built once from the server's own
//! rulesets) and the score cache's front (which compares the bytes anyway,
//! so a collision costs a hit, never a wrong answer). SipHash, the standard
//! library's default, was a visible cost of every request there.

/// Eight bytes at a time with a multiply-rotate step; the length is mixed
/// in first, and the tail is zero-padded.
pub fn quick_hash(b: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (b.len() as u64).wrapping_mul(K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    h ^ (h >> 32)
}

/// [`quick_hash`] as a [`std::hash::Hasher`] (each write folded into the state).
#[derive(Clone, Copy, Debug, Default)]
pub struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = self.0.rotate_left(23) ^ quick_hash(bytes);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
