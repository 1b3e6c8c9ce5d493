//! Cuckoo tables of reversible moves, for detecting that a position can return to an earlier
//! one in a single move (Marcel van Kervinck's method, "The design of a chess program's
//! repetition detection", 2013, as used by Stockfish since 2018).
//!
//! A reversible move of a non-pawn piece from `a` to `b` changes the Zobrist key by
//! `piece[a] ^ piece[b] ^ side`, whatever else is on the board. The table holds that
//! difference for every piece, colour and pair of squares the piece moves between on an empty
//! board (3,668 of them), so the XOR of two keys from the same game names the move that
//! would turn one position into the other, if there is one.

use super::attacks::{KING_TABLE, KNIGHT_TABLE, ray_attacks};
use super::types::Square;
use super::zobrist::KEYS;

const SIZE: usize = 8192;

#[inline(always)]
const fn h1(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

#[inline(always)]
const fn h2(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

/// Whether a piece of type index `pt` (1 knight .. 5 king) moves between `a` and `b` on an
/// empty board (the attack tables' own answer, read at compile time).
const fn reaches(pt: usize, a: usize, b: usize) -> bool {
    let targets = match pt {
        1 => KNIGHT_TABLE[a],
        2 => ray_attacks(a, 0, false),
        3 => ray_attacks(a, 0, true),
        4 => ray_attacks(a, 0, false) | ray_attacks(a, 0, true),
        _ => KING_TABLE[a],
    };
    targets >> b & 1 != 0
}

pub struct Cuckoo {
    keys: [u64; SIZE],
    /// `from | to << 6`, `from < to`, for the key in the same slot.
    squares: [u16; SIZE],
    /// How many moves were inserted (3,668).
    pub count: usize,
}

const fn build() -> Cuckoo {
    let mut t = Cuckoo {
        keys: [0; SIZE],
        squares: [0; SIZE],
        count: 0,
    };
    let mut colour = 0;
    while colour < 2 {
        let mut pt = 1;
        while pt < 6 {
            let piece = colour * 6 + pt;
            let mut a = 0;
            while a < 64 {
                let mut b = a + 1;
                while b < 64 {
                    if reaches(pt, a, b) {
                        let mut key = KEYS.pieces[piece][a] ^ KEYS.pieces[piece][b] ^ KEYS.side;
                        let mut squares = (a | b << 6) as u16;
                        let mut slot = h1(key);
                        // Displace occupants to their other slot until one lands in an empty
                        // slot (keys are never 0: they are XORs of distinct random numbers).
                        loop {
                            let k = t.keys[slot];
                            let s = t.squares[slot];
                            t.keys[slot] = key;
                            t.squares[slot] = squares;
                            key = k;
                            squares = s;
                            if key == 0 {
                                break;
                            }
                            slot = if slot == h1(key) { h2(key) } else { h1(key) };
                        }
                        t.count += 1;
                    }
                    b += 1;
                }
                a += 1;
            }
            pt += 1;
        }
        colour += 1;
    }
    t
}

pub static CUCKOO: Cuckoo = build();

/// The two squares of the reversible move whose key difference is `diff`, if any (lower square
/// first; which end the piece stands on is for the caller to read from the board).
#[inline]
pub fn reversible_move(diff: u64) -> Option<(Square, Square)> {
    let mut slot = h1(diff);
    if CUCKOO.keys[slot] != diff {
        slot = h2(diff);
        if CUCKOO.keys[slot] != diff {
            return None;
        }
    }
    let s = CUCKOO.squares[slot];
    Some((Square::new((s & 63) as u8), Square::new((s >> 6) as u8)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Board, Move};

    #[test]
    fn table_holds_every_reversible_move() {
        // 2 colours x (knight 168 + bishop 280 + rook 448 + queen 728 + king 210) pairs.
        assert_eq!(CUCKOO.count, 3668);
        let filled = CUCKOO.keys.iter().filter(|&&k| k != 0).count();
        assert_eq!(filled, 3668);
    }

    #[test]
    fn key_difference_names_the_move() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let a1 = Square::parse("a1").unwrap();
        let a5 = Square::parse("a5").unwrap();
        let after = board.make_move(Move::normal(a1, a5));
        assert_eq!(reversible_move(board.key() ^ after.key()), Some((a1, a5)));
        // A pawn move is not reversible.
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
        let e2 = Square::parse("e2").unwrap();
        let e3 = Square::parse("e3").unwrap();
        let after = board.make_move(Move::normal(e2, e3));
        assert_eq!(reversible_move(board.key() ^ after.key()), None);
        // Two moves' difference is not one move.
        let b = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let e1 = Square::parse("e1").unwrap();
        let e2k = Square::parse("e2").unwrap();
        let e8 = Square::parse("e8").unwrap();
        let d8 = Square::parse("d8").unwrap();
        let after = b
            .make_move(Move::normal(e1, e2k))
            .make_move(Move::normal(e8, d8));
        assert_eq!(reversible_move(b.key() ^ after.key()), None);
    }
}
