//! Attack tables, all built at compile time.
//!
//! Sliding pieces use PEXT indexing where the build targets BMI2 (`-C target-cpu=x86-64-v3` or
//! `native` on a CPU that has it) and "fancy" magic bitboards otherwise; the `magic` feature forces
//! magics (PEXT is microcoded and slow on AMD CPUs before Zen 3). Both index the same per-square
//! table layout of `2^bits(mask)` entries. The magic numbers in [`super::magics`] were found by
//! `examples/find_magics.rs` and are checked against ray walking in the tests.

use super::bitboard::Bitboard;
use super::types::{Color, Square};

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext")))]
use super::magics::{BISHOP_MAGICS, ROOK_MAGICS};

#[cfg(all(
    feature = "pext",
    not(all(target_arch = "x86_64", target_feature = "bmi2"))
))]
compile_error!(
    "the `pext` feature needs an x86-64 target with BMI2: build with RUSTFLAGS=\"-C target-cpu=native\" on a CPU that has it"
);

/// True when sliding attacks are indexed with the PEXT instruction.
pub const USES_PEXT: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "bmi2",
    feature = "pext"
));

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks of a slider on `sq` moving in `dirs`, stopping at (and including) the first blocker.
/// Slow reference used to build the tables and to test them.
pub const fn ray_attacks(sq: usize, occ: u64, rook: bool) -> u64 {
    let dirs = if rook { ROOK_DIRS } else { BISHOP_DIRS };
    let mut att = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            att |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    att
}

/// The relevant occupancy mask: the rays without their last square (edge squares never block).
pub const fn slider_mask(sq: usize, rook: bool) -> u64 {
    let dirs = if rook { ROOK_DIRS } else { BISHOP_DIRS };
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// Software parallel bit deposit: spreads the low bits of `src` over the set bits of `mask`.
pub const fn pdep(src: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if src & bit != 0 {
            out |= low;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

#[derive(Clone, Copy)]
struct SliderEntry {
    mask: u64,
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext"),
        allow(dead_code)
    )]
    magic: u64,
    offset: u32,
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext"),
        allow(dead_code)
    )]
    shift: u32,
}

const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;

const fn magic_for(sq: usize, rook: bool) -> u64 {
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext")))]
    {
        if rook {
            ROOK_MAGICS[sq]
        } else {
            BISHOP_MAGICS[sq]
        }
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext"))]
    {
        let _ = (sq, rook);
        0
    }
}

const fn build_entries(rook: bool) -> [SliderEntry; 64] {
    let mut entries = [SliderEntry {
        mask: 0,
        magic: 0,
        offset: 0,
        shift: 0,
    }; 64];
    let mut offset = 0u32;
    let mut sq = 0;
    while sq < 64 {
        let mask = slider_mask(sq, rook);
        let bits = mask.count_ones();
        entries[sq] = SliderEntry {
            mask,
            magic: magic_for(sq, rook),
            offset,
            shift: 64 - bits,
        };
        offset += 1 << bits;
        sq += 1;
    }
    entries
}

/// Index of `occ` within a square's block of the table (`occ` already masked).
#[inline(always)]
const fn const_index(e: &SliderEntry, occ: u64, subset: u64) -> usize {
    if USES_PEXT {
        subset as usize
    } else {
        (occ.wrapping_mul(e.magic) >> e.shift) as usize
    }
}

/// Rays from each square in the eight directions (rook directions first), edge to edge.
const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            rays[d][sq] = single_ray(sq, ROOK_DIRS[d]);
            rays[d + 4][sq] = single_ray(sq, BISHOP_DIRS[d]);
            d += 1;
        }
        sq += 1;
    }
    rays
}

const fn single_ray(sq: usize, (df, dr): (i8, i8)) -> u64 {
    let mut ray = 0u64;
    let mut f = (sq % 8) as i8 + df;
    let mut r = (sq / 8) as i8 + dr;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        ray |= 1u64 << (r * 8 + f);
        f += df;
        r += dr;
    }
    ray
}

/// Classical ray-and-first-blocker attacks, fast enough for compile-time table building.
const fn classical_attacks(rays: &[[u64; 64]; 8], sq: usize, occ: u64, rook: bool) -> u64 {
    let dirs: [(i8, i8); 4] = if rook { ROOK_DIRS } else { BISHOP_DIRS };
    let base = if rook { 0 } else { 4 };
    let mut att = 0u64;
    let mut d = 0;
    while d < 4 {
        let ray = rays[base + d][sq];
        let blockers = ray & occ;
        att |= ray;
        if blockers != 0 {
            // Rays towards higher squares meet their first blocker at the lowest set bit.
            let (df, dr) = dirs[d];
            let up = dr > 0 || (dr == 0 && df > 0);
            let b = if up {
                blockers.trailing_zeros()
            } else {
                63 - blockers.leading_zeros()
            };
            att &= !rays[base + d][b as usize];
        }
        d += 1;
    }
    att
}

const fn build_table<const N: usize>(entries: &[SliderEntry; 64], rook: bool) -> [u64; N] {
    let rays = build_rays();
    let mut table = [0u64; N];
    let mut sq = 0;
    while sq < 64 {
        let e = &entries[sq];
        // Carry-Rippler: enumerates the subsets of the mask in the order of the counter `i`
        // deposited onto the mask, i.e. subset number i is pdep(i, mask) (its PEXT index).
        let mut occ = 0u64;
        let mut i = 0u64;
        loop {
            let idx = e.offset as usize + const_index(e, occ, i);
            table[idx] = classical_attacks(&rays, sq, occ, rook);
            occ = occ.wrapping_sub(e.mask) & e.mask;
            i += 1;
            if occ == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static ROOK_ENTRIES: [SliderEntry; 64] = build_entries(true);
static BISHOP_ENTRIES: [SliderEntry; 64] = build_entries(false);
static ROOK_TABLE: [u64; ROOK_TABLE_SIZE] = build_table(&build_entries(true), true);
static BISHOP_TABLE: [u64; BISHOP_TABLE_SIZE] = build_table(&build_entries(false), false);

#[inline(always)]
fn slider_index(e: &SliderEntry, occ: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext"))]
    {
        // SAFETY: this branch is compiled only when the target has BMI2 (`target_feature =
        // "bmi2"`), so the instruction exists on every CPU this binary may run on.
        e.offset as usize + unsafe { core::arch::x86_64::_pext_u64(occ, e.mask) } as usize
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2", feature = "pext")))]
    {
        e.offset as usize + ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize
    }
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let e = &ROOK_ENTRIES[sq.index()];
    Bitboard(ROOK_TABLE[slider_index(e, occ.0)])
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let e = &BISHOP_ENTRIES[sq.index()];
    Bitboard(BISHOP_TABLE[slider_index(e, occ.0)])
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i8 + steps[i].0;
            let r = (sq / 8) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Knight attacks by square, as a constant (also read at compile time by the cuckoo table).
pub(crate) const KNIGHT_TABLE: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
/// King attacks by square, as a constant (also read at compile time by the cuckoo table).
pub(crate) const KING_TABLE: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static KNIGHT: [u64; 64] = KNIGHT_TABLE;
static KING: [u64; 64] = KING_TABLE;
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// `(between, line)`: squares strictly between two aligned squares, and the whole line through
/// them (edge to edge); both empty when the squares share no rank, file or diagonal.
const fn build_lines() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            let (is_rook, aligned) = if ray_attacks(a, 0, true) & bb != 0 {
                (true, true)
            } else if ray_attacks(a, 0, false) & bb != 0 {
                (false, true)
            } else {
                (false, false)
            };
            if aligned {
                let occ = (1u64 << a) | bb;
                between[a][b] = ray_attacks(a, occ, is_rook) & ray_attacks(b, occ, is_rook);
                line[a][b] = (ray_attacks(a, 0, is_rook) & ray_attacks(b, 0, is_rook)) | occ;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_lines();

/// Squares strictly between `a` and `b` if they are aligned, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The full line through `a` and `b` if they are aligned, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn slider_tables_match_ray_walking() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for sq in 0..64 {
            for _ in 0..2000 {
                let occ = xorshift(&mut rng) & xorshift(&mut rng);
                let s = Square::new(sq as u8);
                assert_eq!(rook_attacks(s, Bitboard(occ)).0, ray_attacks(sq, occ, true));
                assert_eq!(
                    bishop_attacks(s, Bitboard(occ)).0,
                    ray_attacks(sq, occ, false)
                );
            }
        }
    }

    #[test]
    fn every_subset_of_every_mask_maps_correctly() {
        for sq in 0..64 {
            for rook in [true, false] {
                let mask = slider_mask(sq, rook);
                for i in 0..1u64 << mask.count_ones() {
                    let occ = pdep(i, mask);
                    let s = Square::new(sq as u8);
                    let got = if rook {
                        rook_attacks(s, Bitboard(occ))
                    } else {
                        bishop_attacks(s, Bitboard(occ))
                    };
                    assert_eq!(
                        got.0,
                        ray_attacks(sq, occ, rook),
                        "sq {sq} rook {rook} occ {occ:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn table_sizes_are_the_known_totals() {
        let r: u32 = (0..64)
            .map(|s| 1u32 << slider_mask(s, true).count_ones())
            .sum();
        let b: u32 = (0..64)
            .map(|s| 1u32 << slider_mask(s, false).count_ones())
            .sum();
        assert_eq!(
            (r as usize, b as usize),
            (ROOK_TABLE_SIZE, BISHOP_TABLE_SIZE)
        );
    }

    #[test]
    fn step_tables() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(knight_attacks(sq("d4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, sq("a2")),
            Bitboard::from_square(sq("b3"))
        );
        assert_eq!(pawn_attacks(Color::Black, sq("e7")).count(), 2);
        assert!(pawn_attacks(Color::White, sq("e8")).is_empty());
    }

    #[test]
    fn between_and_line() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(between(sq("a1"), sq("d4")).count(), 2);
        assert_eq!(between(sq("a1"), sq("b3")).count(), 0);
        assert_eq!(line(sq("a1"), sq("b3")).count(), 0);
        assert_eq!(line(sq("c1"), sq("c5")), Bitboard::file(2));
        assert_eq!(line(sq("a1"), sq("c3")).count(), 8);
        assert!(between(sq("e1"), sq("e2")).is_empty());
    }
}
