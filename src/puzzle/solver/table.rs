//! The solver's memo of dead states: a compact transposition table of fixed
//! 128-byte buckets, keyed by a hash of the packed board, that grows up to a
//! memory cap and then replaces its least valuable entries.
//!
//! An entry is the whole packed board (five `u32` columns, 20 bytes), so a
//! hit is never a false one: two boards with the same hash are told apart by
//! their columns. Seven rows use 28 bits of a column; the free top nibbles
//! hold the moves left (column 0) and the entry's value for replacement
//! (column 1). A bucket is six entries in two cache lines, which the
//! processor fetches as a pair, so a look-up reads one place in memory.
//!
//! Forgetting a dead state is always sound (the search only does the work
//! again), so when the table is full a new entry replaces the one in its
//! bucket that cost the least search to establish.

use crate::puzzle::sim::{Board, WIDTH};

/// Entries per bucket: six 20-byte entries fill two 64-byte lines, which
/// the processor fetches as a pair.
const WAYS: usize = 6;

/// Bits of a column that hold cells.
const CELLS: u32 = 0x0FFF_FFFF;

/// Buckets of a new table (8 KiB: most puzzles need no more).
const FIRST_BUCKETS: usize = 1 << 6;

/// Two cache lines of entries; an all-zero entry is free (no dead state is
/// the empty board).
#[derive(Clone, Copy, Default)]
#[repr(C, align(128))]
struct Bucket {
    entries: [[u32; WIDTH]; WAYS],
}

/// The bytes of a table of `buckets` buckets.
fn bytes(buckets: usize) -> u64 {
    (buckets * size_of::<Bucket>()) as u64
}

/// A key: the packed board with the moves left in column 0's top nibble.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key([u32; WIDTH]);

impl Key {
    /// The key of `board` with `k` moves left (k < 16).
    #[inline]
    pub fn new(board: &Board, k: u32) -> Key {
        let mut raw = board.raw();
        raw[0] |= k << 28;
        Key(raw)
    }

    /// A 64-bit hash, well mixed in its top bits (which pick the bucket).
    #[inline]
    fn hash(&self) -> u64 {
        let c = self.0.map(u64::from);
        let a = (c[0] | c[1] << 32).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let b = (c[2] | c[3] << 32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let d = (c[4] ^ a.rotate_left(29) ^ b.rotate_left(47)).wrapping_mul(0x1656_67B1_9E37_79F9);
        d ^ d >> 31
    }
}

/// The table of dead states.
pub struct Table {
    buckets: Vec<Bucket>,
    /// `64 - log2(buckets.len())`: the hash's top bits index the bucket.
    shift: u32,
    /// Entries stored.
    len: u64,
    /// Most bytes the table may use, counting the old and the new table
    /// while it grows.
    cap: u64,
    /// Entries that replaced another because their bucket was full.
    pub replaced: u64,
}

/// The value of an entry: the work it saves, as log2 of the nodes its
/// search took (0..=15), in column 1's free nibble.
#[inline]
fn value_of(entry: &[u32; WIDTH]) -> u32 {
    entry[1] >> 28
}

impl Table {
    /// An empty table that will use at most `cap` bytes (at least one
    /// 8 KiB table, whatever the cap).
    pub fn new(cap: u64) -> Table {
        Table {
            buckets: vec![Bucket::default(); FIRST_BUCKETS],
            shift: 64 - FIRST_BUCKETS.trailing_zeros(),
            len: 0,
            cap,
            replaced: 0,
        }
    }

    /// Entries stored.
    pub fn entries(&self) -> u64 {
        self.len
    }

    /// Bytes the table uses now.
    pub fn bytes(&self) -> u64 {
        bytes(self.buckets.len())
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        (key.hash() >> self.shift) as usize
    }

    /// Asks the processor to start loading the key's bucket, so that a
    /// [`Table::contains`] after some other work finds it in the cache.
    #[inline]
    pub fn prefetch(&self, key: &Key) {
        let bucket: *const Bucket = &self.buckets[self.bucket(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it reads nothing the program
        // sees and cannot fault, whatever the address (here a valid one).
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Whether the key is stored: in its bucket, or in the next one when its
    /// own is full (see [`Table::insert`]).
    #[inline]
    pub fn contains(&self, key: &Key) -> bool {
        let i = self.bucket(key);
        let b = &self.buckets[i];
        if b.entries.iter().any(|e| same(e, key)) {
            return true;
        }
        b.entries[WAYS - 1][0] != 0 && self.buckets[self.next(i)].entries.iter().any(|e| same(e, key))
    }

    /// The bucket after `i`, where entries of a full bucket `i` go.
    #[inline]
    fn next(&self, i: usize) -> usize {
        (i + 1) & (self.buckets.len() - 1)
    }

    /// Stores a key with the work (nodes searched) its answer took: in its
    /// bucket or, when that is full, the next one. The table grows when it is
    /// three quarters full and the cap allows. When both buckets are full,
    /// the entry of least value in the key's bucket gives way, or the new one
    /// is dropped if it is worth less than all of them.
    pub fn insert(&mut self, key: Key, work: u64) {
        if self.len >= (WAYS * self.buckets.len()) as u64 / 4 * 3 {
            self.grow();
        }
        let value = (64 - work.leading_zeros()).min(15);
        let mut entry = key.0;
        entry[1] |= value << 28;
        if self.store(entry) {
            return;
        }
        let i = self.bucket(&key);
        let (weakest, slot) = self.buckets[i]
            .entries
            .iter_mut()
            .map(|e| (value_of(e), e))
            .min_by_key(|(v, _)| *v)
            .expect("a bucket has entries");
        if weakest <= value {
            *slot = entry;
            self.replaced += 1;
        }
    }

    /// Puts an entry in a free slot of its bucket or the next; false when
    /// both are full. Slots fill in order, so a bucket is full when its
    /// last slot is taken.
    #[inline]
    fn store(&mut self, entry: [u32; WIDTH]) -> bool {
        let mut key = entry;
        key[1] &= CELLS;
        let i = self.bucket(&Key(key));
        for j in [i, self.next(i)] {
            if let Some(free) = self.buckets[j].entries.iter_mut().find(|e| e[0] == 0) {
                *free = entry;
                self.len += 1;
                return true;
            }
        }
        false
    }

    /// Doubles the table when the cap allows the old and the new one side by
    /// side and the allocation succeeds; whether it did. An entry that finds no room in the new table
    /// (rare: new buckets are half as full) is dropped.
    fn grow(&mut self) -> bool {
        let more = self.buckets.len() * 2;
        if bytes(more) + self.bytes() > self.cap {
            return false;
        }
        // A machine that cannot give the memory (an address-space limit)
        // keeps the table as it is rather than abort.
        let mut buckets = Vec::new();
        if buckets.try_reserve_exact(more).is_err() {
            self.cap = self.bytes();
            return false;
        }
        buckets.resize(more, Bucket::default());
        let old = std::mem::replace(&mut self.buckets, buckets);
        self.shift -= 1;
        self.len = 0;
        for b in &old {
            for e in b.entries.iter().filter(|e| e[0] != 0) {
                self.store(*e);
            }
        }
        true
    }
}

/// Whether a stored entry holds `key` (its value nibble aside).
#[inline]
fn same(entry: &[u32; WIDTH], key: &Key) -> bool {
    entry[0] == key.0[0]
        && entry[1] & CELLS == key.0[1]
        && entry[2] == key.0[2]
        && entry[3] == key.0[3]
        && entry[4] == key.0[4]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(seed: u32) -> Board {
        let mut b = Board::EMPTY;
        let mut v = seed.wrapping_mul(2_654_435_761) | 1;
        for x in 0..WIDTH {
            for y in 0..7 {
                v ^= v << 13;
                v ^= v >> 17;
                v ^= v << 5;
                b.set(x, y, (v % 10 + 1) as u8);
            }
        }
        b
    }

    #[test]
    fn stored_keys_are_found_and_others_are_not() {
        let mut t = Table::new(1 << 30);
        for i in 0..50_000 {
            t.insert(Key::new(&board(i), 1 + i % 7), 10);
        }
        // A few entries gave way in full buckets; the rest are all there.
        assert!(t.replaced < 2_500, "{} replaced", t.replaced);
        assert_eq!(t.entries() + t.replaced, 50_000);
        let found = (0..50_000)
            .filter(|&i| t.contains(&Key::new(&board(i), 1 + i % 7)))
            .count() as u64;
        assert_eq!(found, t.entries());
        for i in 0..50_000 {
            assert!(!t.contains(&Key::new(&board(i), 8 + i % 7)), "{i} with other k");
            assert!(!t.contains(&Key::new(&board(i + 50_000), 1 + i % 7)));
        }
    }

    #[test]
    fn a_full_table_stays_under_its_cap_and_keeps_valuable_entries() {
        let cap = 2 << 20;
        let mut t = Table::new(cap);
        for i in 0..200_000 {
            // Every tenth entry took a large search.
            let work = if i % 10 == 0 { 1 << 20 } else { 3 };
            t.insert(Key::new(&board(i), 5), work);
            assert!(t.bytes() <= cap);
        }
        assert!(t.replaced > 0);
        let kept = (0..200_000)
            .step_by(10)
            .filter(|&i| t.contains(&Key::new(&board(i), 5)))
            .count();
        // Valuable entries are only lost to each other.
        assert!(kept > 18_000, "{kept} of 20000 valuable entries kept");
    }
}
