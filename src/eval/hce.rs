//! Bootstrap evaluation: tapered middlegame/endgame material and piece-square tables, positional
//! terms (mobility, pawn structure, passed pawns, threats, outposts, rook files, king safety)
//! and a tempo bonus.
//!
//! Origin of the numbers: the material values and the starting piece-square tables are PeSTO's
//! (Ronald Friederich's Texel-tuned tables, as published on the Chessprogramming Wiki page
//! "PeSTO's Evaluation Function"); the material values are still those. The piece-square tables
//! and the positional weights were then re-tuned together by `lazuli texel --psqt --l2 1e-8`
//! on 1.37 million positions of 20,700 Lazuli self-play games (`lazuli datagen`, 6000 nodes a
//! move). The tables are written from white's point of view with rank 8 first; a white piece
//! on square `sq` reads entry `sq ^ 56`, a black piece entry `sq`.

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
           0,    0,    0,    0,    0,    0,    0,    0,
          96,  133,   63,   96,   69,  124,   33,  -12,
         -11,    0,   28,   25,   61,   60,   20,  -19,
          -5,   12,   11,    6,   19,    3,   10,  -27,
         -11,   -9,   -3,    7,   11,   17,   10,  -28,
         -18,  -11,   -2,  -23,   -9,  -10,   18,  -13,
         -28,   -8,  -18,  -28,  -28,    8,   21,  -19,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    [ // knight
        -171,  -89,  -35,  -49,   61,  -97,  -15, -106,
         -70,  -41,   69,   36,   22,   60,    6,  -17,
         -45,   48,   38,   62,   85,  130,   66,   44,
          -4,   16,   25,   37,   28,   68,   25,   25,
          -1,   13,   21,   20,   35,   15,   20,    2,
         -22,   -3,   11,   11,   24,   17,   24,   -9,
         -23,  -47,   -1,   18,    8,   18,  -16,  -15,
        -104,  -18,  -51,  -30,  -13,  -20,  -19,  -20,
    ],
    [ // bishop
         -30,    3,  -81,  -36,  -25,  -42,    5,   -6,
         -29,    9,  -12,  -13,   32,   55,   18,  -47,
         -16,   29,   39,   35,   34,   49,   37,    8,
          -4,   12,   29,   43,   26,   36,    6,   -7,
           1,    8,   23,   24,   34,   13,    4,   -5,
           9,   13,   21,    6,   12,   24,   24,    8,
          11,   21,    4,    4,   15,   11,   30,   21,
         -35,   -9,   -4,  -21,  -20,  -12,  -37,  -16,
    ],
    [ // rook
          34,   42,   31,   52,   63,   11,   30,   44,
          30,   34,   58,   66,   79,   66,   28,   42,
          -8,   19,   30,   31,   22,   48,   61,   17,
         -14,   -5,    7,   30,   27,   35,   -3,  -10,
         -40,  -29,  -11,    4,   10,   -7,    8,  -22,
         -36,  -14,  -24,  -17,   -1,   -5,   -1,  -35,
         -46,  -20,  -24,  -16,  -13,    9,   -6,  -75,
         -15,   -8,   -7,    3,    5,    0,  -51,  -28,
    ],
    [ // queen
         -27,   -1,   28,   12,   58,   45,   42,   44,
         -26,  -32,   -7,   -1,  -16,   56,   25,   49,
          -7,  -13,    8,    9,   33,   54,   46,   56,
         -19,  -27,  -11,  -14,   -3,   13,    2,    2,
          -5,  -25,   -7,  -13,   -5,  -12,   -2,   -2,
          -8,    3,   -9,    0,   -6,    2,    9,    2,
         -29,   -1,    5,    7,    3,   16,   -8,   -6,
          -7,  -13,   11,    1,    0,  -20,  -30,  -52,
    ],
    [ // king
         -65,   23,   16,  -15,  -56,  -34,    3,   12,
          28,   -1,  -19,   -6,   -7,   -2,  -36,  -29,
          -8,   24,    3,  -17,  -22,    5,   21,  -22,
         -17,  -20,  -13,  -29,  -32,  -27,  -13,  -35,
         -48,    0,  -29,  -41,  -49,  -43,  -32,  -49,
         -14,  -12,  -19,  -51,  -46,  -36,  -15,  -28,
           0,    2,   -8,  -62,  -46,  -26,   11,   19,
         -15,   46,   12,  -54,    3,  -34,   34,   19,
    ],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
           0,    0,    0,    0,    0,    0,    0,    0,
         165,  165,  158,  138,  150,  130,  165,  175,
          79,   81,   89,   60,   44,   43,   65,   57,
          34,   20,    6,   -5,    1,   -5,   12,   21,
          19,   20,   -3,  -12,   -7,  -16,    2,    6,
           8,    3,    6,    0,    2,    6,   -2,   -1,
          30,   15,   25,   16,   -1,    8,    2,   -1,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    [ // knight
         -60,  -39,  -13,  -27,  -32,  -27,  -63,  -98,
         -25,   -8,  -19,   -3,  -10,  -25,  -25,  -53,
         -23,  -26,   11,    7,   -2,  -13,  -21,  -41,
          -9,    4,   32,   28,   23,   13,    9,  -22,
         -27,    0,   22,   26,   24,   11,   -1,  -20,
         -18,   -1,    3,   14,    9,    6,  -20,  -27,
         -39,  -17,   -7,   -5,   -8,  -18,  -25,  -43,
         -29,  -48,  -19,  -19,  -22,  -15,  -53,  -63,
    ],
    [ // bishop
         -11,  -20,   -9,   -2,   -5,   -8,  -15,  -22,
          -7,   -7,    7,   -7,    4,   -8,    3,  -14,
           7,   -5,   -4,    3,   -3,   11,    0,    3,
          -6,   15,   10,    5,    8,    6,    6,    0,
          -7,    4,   19,   18,   -3,   12,  -11,  -12,
          -8,   -7,    9,   13,   13,    0,   -2,  -16,
         -13,  -16,  -15,   -7,    6,  -12,  -16,  -27,
         -25,  -16,  -16,   -5,  -11,  -11,   -6,  -13,
    ],
    [ // rook
          13,    7,   19,   21,   17,   19,    5,    6,
          15,   20,   10,   13,   -2,   -3,    7,    6,
          11,   13,    9,    4,    9,    2,   -3,    1,
          19,    9,   18,    2,    4,    0,    2,    4,
           6,   10,    8,    9,   -3,   -3,   -6,   -4,
           1,   -2,   -7,   -3,   -5,  -17,  -12,  -18,
         -14,   -9,   -1,   -5,  -20,  -15,  -13,   -2,
          -9,    0,   -1,  -15,  -16,  -22,    8,  -28,
    ],
    [ // queen
          -7,   21,   22,   27,   26,   19,    9,   19,
         -16,   23,   33,   40,   59,   25,   29,    0,
         -16,   10,   11,   50,   49,   36,   22,   10,
           7,   23,   29,   47,   59,   39,   59,   36,
         -16,   27,   20,   49,   31,   38,   39,   22,
         -15,  -22,   15,    0,    9,   18,    6,    7,
         -19,  -27,  -35,  -12,  -15,  -26,  -35,  -34,
         -35,  -25,  -22,  -38,   -4,  -33,  -19,  -41,
    ],
    [ // king
         -76,  -34,  -18,  -18,  -10,   16,    5,  -21,
         -13,   15,   15,   18,   21,   43,   30,   10,
           9,   17,   20,   13,   14,   40,   39,   11,
          -8,   25,   24,   20,   23,   28,   29,    2,
         -18,    1,   19,   26,   28,   28,   12,   -5,
         -23,   -4,   13,   15,   27,   21,   11,  -10,
         -26,  -12,    7,   14,   12,   13,   -9,  -23,
         -50,  -37,  -20,  -11,  -29,  -14,  -25,  -46,
    ],
];

/// Material plus piece-square value by `[piece type][table index]` (the index as in
/// `MG_PST`), the form the evaluation adds up.
const fn with_material(values: [i32; 6], pst: [[i32; 64]; 6]) -> [[i32; 64]; 6] {
    let mut t = [[0; 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut i = 0;
        while i < 64 {
            t[p][i] = values[p] + pst[p][i];
            i += 1;
        }
        p += 1;
    }
    t
}
const MG_TABLE: [[i32; 64]; 6] = with_material(MG_VALUE, MG_PST);
const EG_TABLE: [[i32; 64]; 6] = with_material(EG_VALUE, EG_PST);

// Positional terms on top of the piece-square tables, (middlegame, endgame) centipawns. They
// live in one table, `WEIGHTS`, indexed by the term constants below, so that the Texel tuner
// (`lazuli texel`, `eval::texel`) can trace which terms a position uses and print a retuned
// table.
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
/// Enemy knights, bishops, rooks and queens attacked by our pawns.
pub const THREAT_BY_PAWN: usize = 18;
/// Enemy rooks and queens attacked by our knights and bishops.
pub const THREAT_BY_MINOR: usize = 19;
/// Enemy queens attacked by our rooks.
pub const THREAT_BY_ROOK: usize = 20;
/// A knight (bishop) on ranks 4-6 defended by a pawn, where no enemy pawn can ever attack it.
pub const OUTPOST_KNIGHT: usize = 21;
pub const OUTPOST_BISHOP: usize = 22;
/// Pawns with a pawn of ours beside them on the same rank.
pub const PHALANX: usize = 23;
/// Pawns defended by a pawn.
pub const SUPPORTED: usize = 24;
/// Passed pawns, weighted by how far they are (0 up to rank 3, then 1, 2, 3, 4): with the
/// square in front occupied; the distance of our king and of theirs to that square.
pub const PASSED_BLOCKED: usize = 25;
pub const PASSED_OWN_KING: usize = 26;
pub const PASSED_THEIR_KING: usize = 27;
/// Files at and beside our king with no pawn of ours.
pub const KING_OPEN_FILE: usize = 28;
/// Number of positional terms.
pub const TERMS: usize = 29;
/// The piece-square entries follow the positional terms in the tuner's numbering:
/// `PSQT + piece type * 64 + table index`, each the material plus piece-square value.
pub const PSQT: usize = TERMS;
/// Positional terms and piece-square entries together.
pub const ALL_TERMS: usize = TERMS + 6 * 64;

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
    "threat by pawn",
    "threat by minor",
    "threat by rook",
    "outpost knight",
    "outpost bishop",
    "phalanx",
    "supported",
    "passed blocked",
    "passed own king distance",
    "passed their king distance",
    "king open file",
];

#[rustfmt::skip]
const WEIGHTS: [(i32, i32); TERMS] = [
    (16, 53),       // bishop pair
    (4, 0),         // mobility knight
    (5, 5),         // mobility bishop
    (3, 3),         // mobility rook
    (1, 6),         // mobility queen
    (0, 0),         // passed rank 1
    (-8, 20),       // passed rank 2
    (-8, 20),       // passed rank 3
    (-12, 36),      // passed rank 4
    (25, 55),       // passed rank 5
    (40, 63),       // passed rank 6
    (47, 81),       // passed rank 7
    (0, 0),         // passed rank 8
    (-12, -23),     // doubled
    (-1, -3),       // isolated
    (39, 0),        // rook open file
    (19, 11),       // rook semi-open file
    (10, -4),       // king shield
    (46, 31),       // threat by pawn
    (43, 29),       // threat by minor
    (43, 19),       // threat by rook
    (16, 15),       // outpost knight
    (21, 9),        // outpost bishop
    (4, 4),         // phalanx
    (11, 9),        // supported
    (2, -17),       // passed blocked
    (1, -8),        // passed own king distance
    (-2, 9),        // passed their king distance
    (-13, -4),      // king open file
];

/// King safety: attack weight per enemy piece type hitting the king zone; the penalty
/// (middlegame only) grows with the square of the summed weight, applied when at least two
/// pieces attack. Not a linear term, so not in `WEIGHTS`.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

/// Where the parts of an evaluation go: summed with the tables for play ([`Score`]), or
/// counted per term for the tuner.
pub trait Sink {
    /// Term `term` applies `n` times (negative for the side not scored).
    fn term(&mut self, term: usize, n: i32);
    /// A piece of type index `piece` stands on table index `index` (white's view: +1 for a
    /// white piece, -1 for a black one).
    fn psqt(&mut self, piece: usize, index: usize, sign: i32);
    /// A part of the score outside the tables (the king-attack curve).
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
    fn psqt(&mut self, piece: usize, index: usize, sign: i32) {
        self.mg += sign * MG_TABLE[piece][index];
        self.eg += sign * EG_TABLE[piece][index];
    }
    #[inline(always)]
    fn fixed(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The weights in play, positional terms then piece-square entries (see [`PSQT`]), for the
/// tuner's starting point.
pub fn weights() -> Vec<(i32, i32)> {
    let mut w = WEIGHTS.to_vec();
    for p in 0..6 {
        for i in 0..64 {
            w.push((MG_TABLE[p][i], EG_TABLE[p][i]));
        }
    }
    w
}

/// Material values (middlegame, endgame) by piece type: the tuner prints piece-square tables
/// relative to them, as the source lays them out.
pub fn material() -> [(i32, i32); 6] {
    std::array::from_fn(|p| (MG_VALUE[p], EG_VALUE[p]))
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

/// The file of `file` and its neighbours.
fn files_around(file: u8) -> Bitboard {
    let mut files = Bitboard::file(file);
    if file > 0 {
        files |= Bitboard::file(file - 1);
    }
    if file < 7 {
        files |= Bitboard::file(file + 1);
    }
    files
}

/// Squares in front of `sq` (from `c`'s point of view) on its file and both neighbour files.
fn front_span(c: Color, sq: Square) -> Bitboard {
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
    files_around(sq.file()) & Bitboard(ahead)
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

/// King distance (Chebyshev) between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Positional terms for side `c`, each counted `sign` times (+1 for white, -1 for black).
#[inline(always)]
fn positional<S: Sink>(board: &Board, c: Color, sign: i32, out: &mut S) {
    let them = !c;
    let occ = board.occupied();
    let own = board.color(c);
    let our_pawns = board.pieces_of(c, PieceType::Pawn);
    let their_pawns = board.pieces_of(them, PieceType::Pawn);
    let our_king = board.king(c);
    let their_king = board.king(them);
    let our_pawn_attacks = pawn_attacks_all(c, our_pawns);
    let their_queens = board.pieces_of(them, PieceType::Queen);
    let their_majors = board.pieces_of(them, PieceType::Rook) | their_queens;
    let mut add = |term: usize, n: i32| out.term(term, sign * n);

    if board.pieces_of(c, PieceType::Bishop).several() {
        add(BISHOP_PAIR, 1);
    }

    // Pawn structure.
    for sq in our_pawns {
        let span = front_span(c, sq);
        if (span & their_pawns).is_empty()
            && (Bitboard::file(sq.file()) & span & our_pawns).is_empty()
        {
            let rank = sq.relative_rank(c);
            add(PASSED + rank as usize, 1);
            let far = (rank as i32 - 2).max(0);
            if far > 0 {
                let stop = match c {
                    Color::White => sq.offset(8),
                    Color::Black => sq.offset(-8),
                };
                if occ.contains(stop) {
                    add(PASSED_BLOCKED, far);
                }
                add(PASSED_OWN_KING, far * distance(our_king, stop));
                add(PASSED_THEIR_KING, far * distance(their_king, stop));
            }
        }
        if (files_around(sq.file()).without(sq) & our_pawns).is_empty() {
            add(ISOLATED, 1);
        }
    }
    for file in 0..8 {
        let n = (Bitboard::file(file) & our_pawns).count() as i32;
        if n > 1 {
            add(DOUBLED, n - 1);
        }
    }
    // Squares beside our pawns, west and east.
    let beside =
        ((our_pawns.0 & !Bitboard::FILE_A.0) >> 1) | ((our_pawns.0 & !Bitboard::FILE_H.0) << 1);
    add(PHALANX, (our_pawns & Bitboard(beside)).count() as i32);
    add(SUPPORTED, (our_pawns & our_pawn_attacks).count() as i32);
    add(
        THREAT_BY_PAWN,
        (our_pawn_attacks & board.color(them) & !their_pawns & !Bitboard::from_square(their_king))
            .count() as i32,
    );

    // Mobility, outposts, threats, rooks on open files, attacks on the enemy king zone.
    let safe = !own & !pawn_attacks_all(them, their_pawns);
    let zone = king_attacks(their_king).with(their_king);
    let mut attack_weight = 0;
    let mut attackers = 0;
    let our_files = file_fill(our_pawns);
    let their_files = file_fill(their_pawns);
    let mut minor_attacks = Bitboard::EMPTY;
    let mut rook_attacks_all = Bitboard::EMPTY;
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
            match pt {
                PieceType::Knight | PieceType::Bishop => {
                    minor_attacks |= att;
                    let rank = sq.relative_rank(c);
                    if (3..=5).contains(&rank)
                        && our_pawn_attacks.contains(sq)
                        && (front_span(c, sq) & !Bitboard::file(sq.file()) & their_pawns).is_empty()
                    {
                        add(
                            if pt == PieceType::Knight {
                                OUTPOST_KNIGHT
                            } else {
                                OUTPOST_BISHOP
                            },
                            1,
                        );
                    }
                }
                PieceType::Rook => {
                    rook_attacks_all |= att;
                    if !our_files.contains(sq) {
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
                _ => {}
            }
        }
    }
    add(
        THREAT_BY_MINOR,
        (minor_attacks & their_majors).count() as i32,
    );
    add(
        THREAT_BY_ROOK,
        (rook_attacks_all & their_queens).count() as i32,
    );

    // Our own king: the pawn shield in front of it, open files beside it.
    let shield = king_attacks(our_king) & our_pawns & front_span(c, our_king);
    add(KING_SHIELD, shield.count() as i32);
    let open = (files_around(our_king.file()) & !our_files).count() as i32 / 8;
    add(KING_OPEN_FILE, open);

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
    let mut phase = 0;
    for pt in PieceType::ALL {
        let p = pt.index();
        for sq in board.pieces_of(Color::White, pt) {
            out.psqt(p, sq.index() ^ 56, 1);
            phase += PHASE[p];
        }
        for sq in board.pieces_of(Color::Black, pt) {
            out.psqt(p, sq.index(), -1);
            phase += PHASE[p];
        }
    }
    phase.min(24)
}

/// Tapered material, piece-square and positional score, from the side to move's point of view.
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

    /// The FEN of `fen` with the board flipped top to bottom and the colours swapped.
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = swap(f[2]).chars().collect();
        castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        let castling: String = castling.into_iter().collect();
        let ep = if f[3] == "-" {
            "-".to_string()
        } else {
            let b = f[3].as_bytes();
            format!("{}{}", b[0] as char, (b'9' - (b[1] - b'0')) as char)
        };
        format!(
            "{} {side} {castling} {ep} {} {}",
            board.join("/"),
            f[4],
            f[5]
        )
    }

    #[test]
    fn every_term_is_colour_symmetric() {
        // Positions with passed, blocked, doubled, isolated and phalanx pawns, outposts,
        // threats, open king files and rooks on open files.
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2r3k1/1q3pp1/4p2p/p2nN3/Pp1P4/1P3Q1P/5PP1/2R3K1 w - - 0 30",
            "6k1/1P3ppp/8/3N4/2P5/1p6/5PPP/R5K1 b - - 0 40",
            "r4rk1/pp3ppp/2n5/3pP3/3P1Pn1/2PB4/P5PP/R1B2RK1 w - d6 0 15",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            let a = Board::from_fen(fen, false).unwrap();
            let b = Board::from_fen(&mirror(fen), false).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen} / {}", mirror(fen));
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(evaluate(&b) > 800);
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false).unwrap();
        assert!(evaluate(&b) < -800);
    }
}
