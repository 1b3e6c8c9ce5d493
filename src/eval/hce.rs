//! Bootstrap evaluation: tapered middlegame/endgame piece-square tables plus a tempo bonus.
//!
//! Values: PeSTO's evaluation function by Ronald Friederich (Texel-tuned piece values and
//! piece-square tables), as published on the Chessprogramming Wiki page "PeSTO's Evaluation
//! Function". The tables below are written from white's point of view with rank 8 first, as
//! published; a white piece on square `sq` reads entry `sq ^ 56`, a black piece entry `sq`.

use crate::chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use crate::chess::{Bitboard, Board, Color, PieceType, Square};

const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// Game phase weight per piece type; 24 = full middlegame.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Bonus for the side to move, added after tapering.
pub const TEMPO: i32 = 10;

#[rustfmt::skip]
const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
         98, 134,  61,  95,  68, 126,  34, -11,
         -6,   7,  26,  31,  65,  56,  25, -20,
        -14,  13,   6,  21,  23,  12,  17, -23,
        -27,  -2,  -5,  12,  17,   6,  10, -25,
        -26,  -4,  -4, -10,   3,   3,  33, -12,
        -35,  -1, -20, -23, -15,  24,  38, -22,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
       -167, -89, -34, -49,  61, -97, -15,-107,
        -73, -41,  72,  36,  23,  62,   7, -17,
        -47,  60,  37,  65,  84, 129,  73,  44,
         -9,  17,  19,  53,  37,  69,  18,  22,
        -13,   4,  16,  13,  28,  19,  21,  -8,
        -23,  -9,  12,  10,  19,  17,  25, -16,
        -29, -53, -12,  -3,  -1,  18, -14, -19,
       -105, -21, -58, -33, -17, -28, -19, -23,
    ],
    [ // bishop
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [ // rook
         32,  42,  32,  51,  63,   9,  31,  43,
         27,  32,  58,  62,  80,  67,  26,  44,
         -5,  19,  26,  36,  17,  45,  61,  16,
        -24, -11,   7,  26,  24,  35,  -8, -20,
        -36, -26, -12,  -1,   9,  -7,   6, -23,
        -45, -25, -16, -17,   3,   0,  -5, -33,
        -44, -16, -20,  -9,  -1,  11,  -6, -71,
        -19, -13,   1,  17,  16,   7, -37, -26,
    ],
    [ // queen
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [ // king
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [ // bishop
        -14, -21, -11,  -8,  -7,  -9, -17, -24,
         -8,  -4,   7, -12,  -3, -13,  -4, -14,
          2,  -8,   0,  -1,  -2,   6,   0,   4,
         -3,   9,  12,   9,  14,  10,   3,   2,
         -6,   3,  13,  19,   7,  10,  -3,  -9,
        -12,  -3,   8,  10,  13,   3,  -7, -15,
        -14, -18,  -7,  -1,   4,  -9, -15, -27,
        -23,  -9, -23,  -5,  -9, -16,  -5, -17,
    ],
    [ // rook
         13,  10,  18,  15,  12,  12,   8,   5,
         11,  13,  13,  11,  -3,   3,   8,   3,
          7,   7,   7,   5,   4,  -3,  -5,  -3,
          4,   3,  13,   1,   2,   1,  -1,   2,
          3,   5,   8,   4,  -5,  -6,  -8, -11,
         -4,   0,  -5,  -1,  -7, -12,  -8, -16,
         -6,  -6,   0,   2,  -9,  -9, -11,  -3,
         -9,   2,   3,  -1,  -5, -13,   4, -20,
    ],
    [ // queen
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [ // king
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];

// Positional terms on top of PeSTO, (middlegame, endgame) centipawns. They live in one table,
// `WEIGHTS`, indexed by the term constants below, so that the Texel tuner (`lazuli texel`,
// `eval::texel`) can trace which terms a position uses and print a retuned table.
/// Bishop pair.
pub const BISHOP_PAIR: usize = 0;
/// Mobility per reachable square (not occupied by our pieces, not attacked by enemy pawns),
/// relative to a typical count `MOBILITY_CENTER`: knight, bishop, rook, queen.
pub const MOBILITY: usize = 1;
const MOBILITY_CENTER: [i32; 4] = [4, 6, 6, 12];
/// Passed pawn by relative rank (8 entries; ranks 1 and 8 never used).
pub const PASSED: usize = 5;
pub const DOUBLED: usize = 13;
pub const ISOLATED: usize = 14;
pub const ROOK_OPEN: usize = 15;
pub const ROOK_SEMI_OPEN: usize = 16;
/// Own pawns in front of and next to the own king.
pub const KING_SHIELD: usize = 17;
/// Number of positional terms.
pub const TERMS: usize = 18;

/// Names of the terms, for the tuner's output.
pub const TERM_NAMES: [&str; TERMS] = [
    "bishop pair",
    "mobility knight",
    "mobility bishop",
    "mobility rook",
    "mobility queen",
    "passed rank 1",
    "passed rank 2",
    "passed rank 3",
    "passed rank 4",
    "passed rank 5",
    "passed rank 6",
    "passed rank 7",
    "passed rank 8",
    "doubled",
    "isolated",
    "rook open file",
    "rook semi-open file",
    "king shield",
];

#[rustfmt::skip]
const WEIGHTS: [(i32, i32); TERMS] = [
    (25, 45),                                                               // bishop pair
    (4, 4), (5, 5), (2, 4), (1, 2),                                         // mobility N B R Q
    (0, 0), (0, 5), (0, 10), (5, 20), (15, 40), (30, 70), (50, 110), (0, 0), // passed by rank
    (-8, -18),                                                              // doubled
    (-10, -12),                                                             // isolated
    (25, 8),                                                                // rook open file
    (10, 5),                                                                // rook semi-open
    (8, 0),                                                                 // king shield
];

/// King safety: attack weight per enemy piece type hitting the king zone; the penalty
/// (middlegame only) grows with the square of the summed weight, applied when at least two
/// pieces attack. Not a linear term, so not in `WEIGHTS`.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

/// Where the positional terms of a position go: summed with `WEIGHTS` for play ([`Score`]),
/// or counted per term for the tuner.
pub trait Sink {
    /// Term `term` applies `n` times (negative for the side not scored).
    fn term(&mut self, term: usize, n: i32);
    /// A part of the score outside `WEIGHTS` (PeSTO tables, king attack).
    fn fixed(&mut self, mg: i32, eg: i32);
}

/// The play-time sink: a (middlegame, endgame) sum.
#[derive(Default)]
struct Score {
    mg: i32,
    eg: i32,
}

impl Sink for Score {
    #[inline(always)]
    fn term(&mut self, term: usize, n: i32) {
        self.mg += WEIGHTS[term].0 * n;
        self.eg += WEIGHTS[term].1 * n;
    }
    #[inline(always)]
    fn fixed(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The weights in play, for the tuner's starting point.
pub fn weights() -> [(i32, i32); TERMS] {
    WEIGHTS
}

fn file_fill(b: Bitboard) -> Bitboard {
    let mut x = b.0;
    x |= x << 8;
    x |= x << 16;
    x |= x << 32;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    Bitboard(x)
}

/// Squares in front of `sq` (from `c`'s point of view) on its file and both neighbour files.
fn front_span(c: Color, sq: Square) -> Bitboard {
    let file = sq.file();
    let mut files = Bitboard::file(file);
    if file > 0 {
        files |= Bitboard::file(file - 1);
    }
    if file < 7 {
        files |= Bitboard::file(file + 1);
    }
    let rank = sq.rank() as u32;
    let ahead = match c {
        Color::White => {
            if rank >= 7 {
                0
            } else {
                !0u64 << (8 * (rank + 1))
            }
        }
        Color::Black => {
            if rank == 0 {
                0
            } else {
                !0u64 >> (8 * (8 - rank))
            }
        }
    };
    files & Bitboard(ahead)
}

fn pawn_attacks_all(c: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    let not_a = !Bitboard::FILE_A.0;
    let not_h = !Bitboard::FILE_H.0;
    Bitboard(match c {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

/// Positional terms for side `c`, each counted `sign` times (+1 for white, -1 for black).
#[inline(always)]
fn positional<S: Sink>(board: &Board, c: Color, sign: i32, out: &mut S) {
    let them = !c;
    let occ = board.occupied();
    let own = board.color(c);
    let our_pawns = board.pieces_of(c, PieceType::Pawn);
    let their_pawns = board.pieces_of(them, PieceType::Pawn);
    let mut add = |term: usize, n: i32| out.term(term, sign * n);

    if board.pieces_of(c, PieceType::Bishop).several() {
        add(BISHOP_PAIR, 1);
    }

    // Pawn structure.
    for sq in our_pawns {
        if (front_span(c, sq) & their_pawns).is_empty()
            && (Bitboard::file(sq.file()) & front_span(c, sq) & our_pawns).is_empty()
        {
            add(PASSED + sq.relative_rank(c) as usize, 1);
        }
        let file = sq.file();
        let mut neighbours = Bitboard::EMPTY;
        if file > 0 {
            neighbours |= Bitboard::file(file - 1);
        }
        if file < 7 {
            neighbours |= Bitboard::file(file + 1);
        }
        if (neighbours & our_pawns).is_empty() {
            add(ISOLATED, 1);
        }
    }
    for file in 0..8 {
        let n = (Bitboard::file(file) & our_pawns).count() as i32;
        if n > 1 {
            add(DOUBLED, n - 1);
        }
    }

    // Mobility, rooks on open files, attacks on the enemy king zone.
    let safe = !own & !pawn_attacks_all(them, their_pawns);
    let their_king = board.king(them);
    let zone = king_attacks(their_king).with(their_king);
    let mut attack_weight = 0;
    let mut attackers = 0;
    let our_files = file_fill(our_pawns);
    let their_files = file_fill(their_pawns);
    for (k, pt) in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .into_iter()
    .enumerate()
    {
        for sq in board.pieces_of(c, pt) {
            let att = match pt {
                PieceType::Knight => knight_attacks(sq),
                PieceType::Bishop => bishop_attacks(sq, occ),
                PieceType::Rook => rook_attacks(sq, occ),
                _ => queen_attacks(sq, occ),
            };
            add(
                MOBILITY + k,
                (att & safe).count() as i32 - MOBILITY_CENTER[k],
            );
            let hits = (att & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_weight += KING_ATTACK_WEIGHT[k] * hits;
            }
            if pt == PieceType::Rook && !our_files.contains(sq) {
                add(
                    if their_files.contains(sq) {
                        ROOK_SEMI_OPEN
                    } else {
                        ROOK_OPEN
                    },
                    1,
                );
            }
        }
    }

    // Pawn shield in front of our own king.
    let king = board.king(c);
    let shield = king_attacks(king) & our_pawns & front_span(c, king);
    add(KING_SHIELD, shield.count() as i32);

    if attackers >= 2 {
        // Grows faster than linearly: coordinated attacks are what break kings.
        out.fixed(sign * (attack_weight * attack_weight / 4).min(400), 0);
    }
}

/// Sends every part of the evaluation of `board` except the tempo bonus to `out`, from white's
/// point of view, and returns the game phase (24 = full middlegame, 0 = pawn endgame).
#[inline(always)]
pub fn trace<S: Sink>(board: &Board, out: &mut S) -> i32 {
    positional(board, Color::White, 1, out);
    positional(board, Color::Black, -1, out);
    let (mut mg, mut eg) = (0, 0);
    let mut phase = 0;
    for pt in PieceType::ALL {
        let p = pt.index();
        for sq in board.pieces_of(Color::White, pt) {
            let i = sq.index() ^ 56;
            mg += MG_VALUE[p] + MG_PST[p][i];
            eg += EG_VALUE[p] + EG_PST[p][i];
            phase += PHASE[p];
        }
        for sq in board.pieces_of(Color::Black, pt) {
            let i = sq.index();
            mg -= MG_VALUE[p] + MG_PST[p][i];
            eg -= EG_VALUE[p] + EG_PST[p][i];
            phase += PHASE[p];
        }
    }
    out.fixed(mg, eg);
    phase.min(24)
}

/// Tapered PeSTO score plus positional terms, from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut s = Score::default();
    let phase = trace(board, &mut s);
    let white = (s.mg * phase + s.eg * (24 - phase)) / 24;
    let score = if board.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    score + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_apart_from_tempo() {
        assert_eq!(evaluate(&Board::startpos()), TEMPO);
    }

    #[test]
    fn colour_mirror_gives_the_same_score() {
        // A position and its colour-flipped mirror must score the same for the side to move.
        let a = Board::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            false,
        )
        .unwrap();
        let b = Board::from_fen(
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            false,
        )
        .unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn extra_queen_is_winning() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(evaluate(&b) > 800);
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false).unwrap();
        assert!(evaluate(&b) < -800);
    }
}
