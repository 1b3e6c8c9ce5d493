//! Lockless, XOR-keyed transposition table shared by every searcher.
//!
//! Each entry is two `AtomicU64`: `key ^ data` and `data` (lockless hashing, Hyatt & Mann). A
//! write torn between two threads leaves a pair whose XOR is not the key, so it reads as a miss.
//! Four entries make a 64-byte bucket (one cache line); the bucket is chosen by a multiply-high
//! of the key. Replacement prefers the same key, then the shallowest and oldest entry, using a
//! generation counter bumped at each search. The memory is one 2 MiB-aligned block with
//! transparent huge pages asked for ([`memory`]).

pub mod memory;

use crate::chess::Move;
use memory::{Block, PAGE};
use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    /// Score is an upper bound (fail-low).
    Upper = 1,
    /// Score is a lower bound (fail-high).
    Lower = 2,
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    pub mv: Move,
    /// Score as stored (mate scores relative to the node: use [`score_from_tt`]).
    pub score: i16,
    pub eval: i16,
    pub depth: u8,
    pub bound: Bound,
    pub pv: bool,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; 4],
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

const GEN_BITS: u32 = 6;
const GEN_MASK: u8 = (1 << GEN_BITS) - 1;

/// `data` layout: move 0..16, score 16..32, eval 32..48, depth 48..56, bound 56..58, pv 58,
/// generation 59..64 (5 bits kept: 32 generations of age are plenty).
#[inline(always)]
fn pack(d: &TtData, generation: u8) -> u64 {
    d.mv.raw() as u64
        | (d.score as u16 as u64) << 16
        | (d.eval as u16 as u64) << 32
        | (d.depth as u64) << 48
        | (d.bound as u64) << 56
        | (d.pv as u64) << 58
        | ((generation & 31) as u64) << 59
}

#[inline(always)]
fn unpack(x: u64) -> (TtData, u8) {
    let bound = match (x >> 56) & 3 {
        0 => Bound::None,
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (
        TtData {
            mv: Move::from_raw(x as u16),
            score: (x >> 16) as u16 as i16,
            eval: (x >> 32) as u16 as i16,
            depth: (x >> 48) as u8,
            bound,
            pv: (x >> 58) & 1 != 0,
        },
        ((x >> 59) & 31) as u8,
    )
}

/// Why a table size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtError {
    TooLarge { mib: u64, physical_mib: u64 },
    AllocationFailed { mib: u64 },
}

impl fmt::Display for TtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TtError::TooLarge { mib, physical_mib } => write!(
                f,
                "Hash {mib} MiB is more than this machine's {physical_mib} MiB of memory; kept the old table"
            ),
            TtError::AllocationFailed { mib } => {
                write!(
                    f,
                    "could not allocate {mib} MiB for the hash table; kept the old table"
                )
            }
        }
    }
}

impl std::error::Error for TtError {}

/// Physical memory in MiB, where the platform tells (Linux `/proc/meminfo`).
pub fn physical_memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The number of 64-byte buckets in a table of `mib` MiB (at least one), or `None` where it
/// does not fit the address space. Exact up to the largest `Hash` (1 TiB: 2^34 buckets).
pub fn bucket_count(mib: u64) -> Option<usize> {
    let bytes = mib.checked_mul(1 << 20)?;
    usize::try_from(bytes / 64).ok().map(|c| c.max(1))
}

/// The bucket of `key` among `len`: the high half of `key * len`, which spreads keys evenly
/// over any `len` (no power of two needed) and is below `len` for every key.
#[inline(always)]
pub fn bucket_index(key: u64, len: usize) -> usize {
    ((key as u128 * len as u128) >> 64) as usize
}

pub struct Table {
    memory: Block,
    /// Number of buckets in `memory`.
    len: usize,
    generation: AtomicU8,
    mib: u64,
}

impl Table {
    /// A table of `mib` MiB (at least one bucket), zeroed. Refuses sizes above the physical
    /// memory, and reports a failed allocation instead of aborting. The pages are not touched
    /// yet: [`Table::prefault_part`] does that, on the threads that will use them.
    pub fn new(mib: u64) -> Result<Table, TtError> {
        if let Some(physical_mib) = physical_memory_mib()
            && mib > physical_mib
        {
            return Err(TtError::TooLarge { mib, physical_mib });
        }
        let len = bucket_count(mib).ok_or(TtError::AllocationFailed { mib })?;
        let bytes = len
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or(TtError::AllocationFailed { mib })?;
        let memory = Block::zeroed(bytes).ok_or(TtError::AllocationFailed { mib })?;
        Ok(Table {
            memory,
            len,
            generation: AtomicU8::new(0),
            mib,
        })
    }

    pub fn size_mib(&self) -> u64 {
        self.mib
    }

    /// Whether the kernel agreed to back the table with transparent huge pages.
    pub fn huge_pages_advised(&self) -> bool {
        self.memory.huge_pages_advised()
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: `memory` holds `len * 64` bytes, 2 MiB-aligned (so aligned for `Bucket`),
        // zeroed when made and only ever written as atomics or zeroed again; an all-zero
        // `Bucket` is a valid value (atomics at 0). The slice lives as long as `&self`, and
        // the block is freed only when the table is dropped.
        unsafe { std::slice::from_raw_parts(self.memory.as_ptr() as *const Bucket, self.len) }
    }

    /// The buckets of part `i` of `parts` equal parts.
    fn part(&self, i: usize, parts: usize) -> std::ops::Range<usize> {
        let chunk = self.len.div_ceil(parts.max(1));
        let start = (i * chunk).min(self.len);
        start..(start + chunk).min(self.len)
    }

    /// Touches every page of part `i` of `parts`, so that the OS maps them now (and, on a
    /// NUMA machine, on the node of the thread that calls this) rather than during a search.
    /// Meant for a fresh table: each touch writes a zero data word, which in a used table
    /// would empty one entry per page (it reads as a miss). A write, because a read of an
    /// untouched page maps the shared zero page and allocates nothing (and an atomic add of
    /// zero is compiled into a read).
    pub fn prefault_part(&self, i: usize, parts: usize) {
        let per_page = PAGE / std::mem::size_of::<Bucket>();
        for b in self.buckets()[self.part(i, parts)].iter().step_by(per_page) {
            b.entries[0].data.store(0, Relaxed);
        }
    }

    /// Zeroes part `i` of `parts` at memory speed (`memset`), where
    /// [`Table::clear_part`] stores one atomic word at a time (three times slower).
    ///
    /// # Safety
    /// No other thread may read or write this part of the table during the call: the caller
    /// must know that every searcher is idle (other parts may be cleared at the same time).
    pub unsafe fn clear_part_exclusive(&self, i: usize, parts: usize) {
        let range = self.part(i, parts);
        let start = self.buckets()[range.start..].as_ptr() as *mut Bucket;
        // SAFETY: `start .. start + range.len()` lies inside the table's block; the caller
        // guarantees that nothing else accesses these buckets now, so the plain writes race
        // with nothing; all-zero bytes are a valid `Bucket`.
        unsafe { std::ptr::write_bytes(start, 0, range.len()) };
        if i == 0 {
            self.generation.store(0, Relaxed);
        }
    }

    /// Zeroes every entry, splitting the table over `threads` scoped threads (the engine
    /// uses [`Table::clear_part`] on its searcher threads instead; this serves tests, benches
    /// and tools).
    pub fn clear(&self, threads: usize) {
        let parts = threads.clamp(1, 256);
        std::thread::scope(|s| {
            for i in 0..parts {
                s.spawn(move || self.clear_part(i, parts));
            }
        });
    }

    /// Zeroes part `i` of `parts` equal parts of the table (each searcher clears its own part,
    /// so the pages are first touched by the threads that will use them).
    pub fn clear_part(&self, i: usize, parts: usize) {
        for b in &self.buckets()[self.part(i, parts)] {
            for e in &b.entries {
                e.key_xor_data.store(0, Relaxed);
                e.data.store(0, Relaxed);
            }
        }
        if i == 0 {
            self.generation.store(0, Relaxed);
        }
    }

    /// Marks the start of a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.store(
            self.generation.load(Relaxed).wrapping_add(1) & GEN_MASK,
            Relaxed,
        );
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets()[bucket_index(key, self.len)]
    }

    /// Asks the CPU to start loading the bucket of `key`, so that a probe a little later finds
    /// it in cache. A hint only: it changes no state.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is only a hint and never faults; `p` points into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtData> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Relaxed);
            if e.key_xor_data.load(Relaxed) ^ data == key && data != 0 {
                let (d, _) = unpack(data);
                if d.bound != Bound::None {
                    return Some(d);
                }
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, key: u64, new: TtData) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Relaxed);
            let (old, old_gen) = unpack(data);
            if e.key_xor_data.load(Relaxed) ^ data == key {
                // Same position: keep a deeper entry unless the new one is exact or fresher.
                if new.bound != Bound::Exact
                    && old_gen == (generation & 31)
                    && (new.depth as i32) + 3 < old.depth as i32
                {
                    return;
                }
                let mut new = new;
                if new.mv == Move::NONE {
                    new.mv = old.mv;
                }
                write(e, key, &new, generation);
                return;
            }
            let age = ((generation & 31).wrapping_sub(old_gen) & 31) as i32;
            let worth = if old.bound == Bound::None {
                -1000
            } else {
                old.depth as i32 - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        write(victim, key, &new, generation);
    }

    /// Per mille of a sample of entries that hold data from the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) & 31;
        let sample = self.len.min(250);
        let mut used = 0;
        for b in &self.buckets()[..sample] {
            for e in &b.entries {
                let (d, g) = unpack(e.data.load(Relaxed));
                if d.bound != Bound::None && g == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[inline(always)]
fn write(e: &Entry, key: u64, d: &TtData, generation: u8) {
    let data = pack(d, generation);
    e.key_xor_data.store(key ^ data, Relaxed);
    e.data.store(data, Relaxed);
}

/// Scores at or beyond this are mate scores (printed as `mate N`).
pub const MATE_BOUND: i32 = 31_000;
/// A tablebase win is `TB_WIN - ply`: large, but below every mate score.
pub const TB_WIN: i32 = 30_000;
/// Scores at or beyond this (mates and tablebase results) depend on the distance from the root.
pub const DECISIVE_BOUND: i32 = 29_000;

/// Mate scores are stored relative to the node (distance from it), not to the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= DECISIVE_BOUND {
        score + ply as i32
    } else if score <= -DECISIVE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
}

/// Re-roots a stored score at `ply` from the root.
#[inline]
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= DECISIVE_BOUND {
        s - ply as i32
    } else if s <= -DECISIVE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Square;

    fn data(depth: u8, score: i16, bound: Bound) -> TtData {
        TtData {
            mv: Move::normal(Square::new(12), Square::new(28)),
            score,
            eval: -7,
            depth,
            bound,
            pv: true,
        }
    }

    #[test]
    fn store_then_probe() {
        let t = Table::new(1).unwrap();
        let key = 0x1234_5678_9ABC_DEF0;
        assert_eq!(t.probe(key), None);
        t.store(key, data(7, -300, Bound::Lower));
        assert_eq!(t.probe(key), Some(data(7, -300, Bound::Lower)));
        assert_eq!(t.probe(key ^ 1), None);
    }

    #[test]
    fn pack_round_trips_extremes() {
        for (depth, score, bound) in [
            (0, i16::MIN + 1, Bound::Upper),
            (255, i16::MAX, Bound::Exact),
        ] {
            let d = TtData {
                eval: i16::MIN,
                ..data(depth, score, bound)
            };
            assert_eq!(unpack(pack(&d, 31)), (d, 31));
        }
    }

    #[test]
    fn mate_scores_are_rerooted() {
        // Mate in 3 plies from a node at ply 10 (root sees mate at ply 13).
        let at_root = 32_000 - 13;
        let stored = score_to_tt(at_root, 10);
        assert_eq!(stored as i32, 32_000 - 3);
        // Read back at ply 4 (a transposition nearer the root): mate 7 plies from the root.
        assert_eq!(score_from_tt(stored, 4), 32_000 - 7);
        let mated = score_to_tt(-(32_000 - 13), 10);
        assert_eq!(score_from_tt(mated, 4), -(32_000 - 7));
        assert_eq!(score_from_tt(score_to_tt(123, 9), 2), 123);
    }

    #[test]
    fn replacement_keeps_deep_entries_of_this_search() {
        let t = Table::new(1).unwrap();
        let key = 42;
        t.store(key, data(10, 5, Bound::Lower));
        t.store(key, data(2, 6, Bound::Upper));
        assert_eq!(t.probe(key).unwrap().depth, 10);
        t.store(key, data(2, 6, Bound::Exact));
        assert_eq!(t.probe(key).unwrap().depth, 2);
    }

    #[test]
    fn clear_and_hashfull() {
        let t = Table::new(1).unwrap();
        for k in 0..100_000u64 {
            t.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                data(1, 0, Bound::Exact),
            );
        }
        assert!(t.hashfull() > 900, "{}", t.hashfull());
        t.clear(3);
        assert_eq!(t.hashfull(), 0);
        assert_eq!(t.probe(0x9E37_79B9_7F4A_7C15), None);
    }

    #[test]
    fn size_and_index_arithmetic_holds_up_to_one_tebibyte() {
        assert_eq!(bucket_count(1), Some(16_384));
        assert_eq!(bucket_count(16), Some(16 * 16_384));
        let tib = crate::uci::options::MAX_HASH_MIB;
        assert_eq!(tib, 1 << 20);
        assert_eq!(bucket_count(tib), Some(1 << 34));
        assert_eq!(bucket_count(u64::MAX), None);
        for len in [1usize, 3, 16_384, 1 << 34, (1 << 34) - 1] {
            for key in [0, 1, 0x9E37_79B9_7F4A_7C15, u64::MAX / 2, u64::MAX] {
                assert!(bucket_index(key, len) < len, "{key:x} {len}");
            }
            // The whole key range maps onto the whole table: the largest key to the last bucket.
            assert_eq!(bucket_index(u64::MAX, len), len - 1);
        }
        // Keys spread evenly: the top bits pick the bucket.
        assert_eq!(bucket_index(1 << 63, 1 << 34), 1 << 33);
        assert_eq!(memory::reserved_size((1usize << 34) * 64), Some(1 << 40));
    }

    #[test]
    fn prefault_and_exclusive_clear_leave_a_working_table() {
        let mut t = Table::new(3).unwrap();
        for p in 0..4 {
            t.prefault_part(p, 4);
        }
        assert_eq!(t.hashfull(), 0);
        let keys: Vec<u64> = (1..5000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            t.store(k, data(3, 1, Bound::Exact));
        }
        assert!(keys.iter().filter(|&&k| t.probe(k).is_some()).count() > 4000);
        let t = &mut t;
        for p in 0..3 {
            // SAFETY (test): `t` is borrowed mutably here, so no other thread can touch it.
            unsafe { t.clear_part_exclusive(p, 3) };
        }
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
        t.store(keys[0], data(3, 1, Bound::Exact));
        assert!(t.probe(keys[0]).is_some());
    }

    #[test]
    fn absurd_sizes_are_refused_not_fatal() {
        assert!(Table::new(1 << 40).is_err());
        if let Some(p) = physical_memory_mib() {
            assert!(matches!(Table::new(p + 1), Err(TtError::TooLarge { .. })));
        }
    }

    #[test]
    fn concurrent_stores_never_yield_foreign_data() {
        // Data derived from the key: any probe hit must carry the data of its own key.
        let t = Table::new(1).unwrap();
        let derive = |k: u64| TtData {
            mv: Move::from_raw(k as u16),
            score: (k >> 16) as i16,
            eval: (k >> 32) as i16,
            depth: ((k >> 48) as u8) | 1,
            bound: Bound::Exact,
            pv: false,
        };
        std::thread::scope(|s| {
            for id in 0..8u64 {
                let t = &t;
                s.spawn(move || {
                    let mut x = 0x1234_5678 ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Few distinct keys so that threads collide on the same buckets.
                        let key = (x % 4096).wrapping_mul(0xD6E8_FEB8_6659_FD93) | 1;
                        if x & 1 == 0 {
                            t.store(key, derive(key));
                        } else if let Some(d) = t.probe(key) {
                            assert_eq!(d, derive(key), "foreign data for key {key:x}");
                        }
                    }
                });
            }
        });
    }
}
