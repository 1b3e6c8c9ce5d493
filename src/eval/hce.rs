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
/// Mop-up weights (see `mop_up`): per step of the lone king from the centre, and per step
/// the kings are closer than the board's width. Hand-set, in the style of the classic
/// mop-up evaluation (Chess Programming Wiki, "Mop-up Evaluation").
const MOP_UP_EDGE: i32 = 20;
const MOP_UP_KINGS: i32 = 8;

#[rustfmt::skip]
const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
           0,    0,    0,    0,    0,    0,    0,    0,
          95,  132,   65,   96,   69,  122,   32,  -12,
         -13,   -4,   26,   19,   57,   64,   16,  -17,
          -5,    9,    8,    2,   14,   -1,    5,  -30,
         -10,  -14,   -5,    3,    6,   13,    5,  -30,
         -18,  -14,   -7,  -26,  -13,  -15,   11,  -16,
         -28,  -12,  -20,  -33,  -30,    3,   13,  -22,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    [ // knight
        -175,  -89,  -36,  -49,   61,  -97,  -15, -105,
         -66,  -41,   65,   36,   21,   58,    5,  -17,
         -43,   37,   37,   57,   84,  130,   59,   44,
           0,   15,   26,   29,   25,   62,   25,   27,
           5,   19,   21,   21,   35,   14,   18,    6,
         -20,    0,   10,   10,   24,   15,   23,   -6,
         -18,  -41,    3,   18,    9,   16,  -17,  -11,
        -103,  -16,  -43,  -26,   -9,  -13,  -18,  -17,
    ],
    [ // bishop
         -31,    3,  -80,  -35,  -25,  -42,    3,   -4,
         -31,    3,   -6,  -13,   33,   51,   17,  -47,
         -16,   21,   36,   30,   33,   47,   37,   16,
          -3,   14,   35,   37,   20,   35,    8,  -10,
           7,    4,   24,   21,   33,   14,    1,  -10,
          11,   12,   22,    5,   12,   22,   26,    7,
          17,   21,    1,    5,   14,    6,   28,   36,
         -36,  -13,   -3,  -20,  -24,  -11,  -34,  -11,
    ],
    [ // rook
          36,   42,   30,   53,   64,   13,   30,   45,
          28,   31,   55,   66,   76,   64,   29,   38,
         -12,   16,   32,   26,   25,   50,   60,   17,
          -8,   -2,    5,   32,   28,   34,    1,   -2,
         -42,  -33,  -11,    6,    9,   -8,    9,  -22,
         -31,   -6,  -30,  -17,   -4,   -9,    1,  -36,
         -45,  -22,  -27,  -19,  -19,    6,   -6,  -75,
         -17,   -9,  -10,    0,    1,   -4,  -55,  -29,
    ],
    [ // queen
         -26,   -2,   27,   12,   57,   46,   41,   43,
         -28,  -26,   -9,   -4,  -16,   55,   21,   43,
          -3,  -10,    8,   10,   37,   52,   44,   55,
         -13,  -26,   -7,  -13,   -5,   10,    5,    3,
          -3,  -24,   -6,  -15,   -7,  -16,   -5,   -1,
          -3,    2,   -8,    1,   -6,    1,    8,   -1,
         -23,    5,    6,    7,    2,   16,  -12,  -11,
         -10,   -9,   19,    1,    9,  -15,  -28,  -54,
    ],
    [ // king
         -65,   23,   16,  -15,  -56,  -34,    4,   11,
          27,   -1,  -18,   -5,   -6,    0,  -34,  -29,
          -7,   25,    4,  -18,  -24,    3,   19,  -22,
         -17,  -20,  -14,  -31,  -35,  -29,  -13,  -34,
         -47,    1,  -30,  -43,  -52,  -43,  -31,  -47,
         -14,  -10,  -16,  -54,  -47,  -41,  -15,  -29,
          -1,   -1,   -8,  -57,  -45,  -27,   11,   23,
         -14,   48,   12,  -52,    2,  -35,   32,   21,
    ],
];

#[rustfmt::skip]
const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
           0,    0,    0,    0,    0,    0,    0,    0,
         156,  160,  160,  143,  152,  130,  166,  166,
          70,   69,   87,   53,   35,   34,   52,   41,
          32,   18,    4,   -8,    1,   -9,   11,   20,
          18,   24,   -2,  -13,   -6,  -18,    2,    7,
           8,    2,    8,    0,    3,    7,   -2,   -1,
          31,   16,   26,   19,   -6,    7,    1,   -1,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    [ // knight
         -62,  -40,  -13,  -25,  -33,  -27,  -63,  -97,
         -24,   -7,  -14,   -4,  -11,  -25,  -25,  -53,
         -22,  -31,   10,    6,   -2,  -16,  -23,  -41,
          -1,    5,   36,   33,   27,   19,   10,  -24,
         -34,    4,   24,   26,   28,   10,   -4,  -20,
         -12,    1,    4,   15,    9,    7,  -19,  -30,
         -36,  -13,   -4,   -4,  -10,  -15,  -26,  -42,
         -29,  -43,  -14,  -20,  -21,  -12,  -53,  -62,
    ],
    [ // bishop
          -9,  -19,   -7,    4,   -3,   -6,  -14,  -20,
          -5,   -9,    8,   -3,    9,   -3,    9,  -13,
          11,    0,   -9,    6,   -3,   15,    1,    2,
          -8,   16,    6,    6,    8,    6,    6,    0,
          -8,    5,   22,   20,   -4,   14,  -17,  -13,
          -6,  -10,    9,   14,   15,   -2,    1,  -16,
         -11,  -14,  -19,   -9,    5,  -12,  -16,  -28,
         -26,  -20,  -11,   -6,  -11,   -6,   -7,   -9,
    ],
    [ // rook
          11,    5,   19,   19,   15,   21,    4,    7,
          11,   20,    6,    9,   -4,   -6,    6,    6,
          15,   17,    9,    3,   12,    6,   -1,    5,
          27,   12,   21,    2,    5,   -1,    4,    5,
          10,   14,    8,   12,   -1,   -1,   -5,    2,
           5,   -3,   -5,   -3,   -2,  -18,  -14,  -19,
         -17,   -9,    0,   -6,  -24,  -18,  -14,    1,
          -9,   -1,   -1,  -18,  -19,  -23,   12,  -29,
    ],
    [ // queen
          -6,   20,   22,   27,   25,   20,    8,   18,
         -15,   25,   34,   39,   60,   25,   28,    0,
         -13,   13,   12,   51,   51,   37,   24,   11,
          10,   24,   33,   48,   60,   37,   60,   35,
         -14,   26,   20,   52,   31,   42,   39,   21,
         -14,  -17,   16,   -6,    9,   18,    3,    9,
         -17,  -31,  -38,   -8,  -14,  -29,  -34,  -36,
         -36,  -22,  -24,  -34,   -4,  -34,  -18,  -41,
    ],
    [ // king
         -78,  -34,  -18,  -18,   -9,   16,    5,  -26,
         -14,   12,   15,   19,   23,   44,   34,    8,
           7,   16,   17,   11,   13,   38,   37,    9,
          -9,   26,   23,   18,   27,   29,   32,    1,
         -18,    5,   19,   28,   31,   30,   14,    1,
         -26,   -6,   14,   14,   28,   23,   13,   -9,
         -25,  -13,    7,   12,   11,   15,  -12,  -29,
         -47,  -40,  -20,   -9,  -28,  -11,  -25,  -49,
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
/// Enemy knights, bishops, rooks and queens we attack and they do not defend.
pub const HANGING: usize = 29;
/// Squares from which our knight, bishop, rook, queen (4 entries) can give check, reachable
/// by such a piece now, not occupied by our pieces and not attacked by the enemy.
pub const SAFE_CHECK: usize = 30;
/// A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_SEVENTH: usize = 34;
/// Number of positional terms.
pub const TERMS: usize = 35;
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
    "hanging",
    "safe check knight",
    "safe check bishop",
    "safe check rook",
    "safe check queen",
    "rook on seventh",
];

#[rustfmt::skip]
const WEIGHTS: [(i32, i32); TERMS] = [
    (9, 59),        // bishop pair
    (4, 2),         // mobility knight
    (4, 6),         // mobility bishop
    (2, 3),         // mobility rook
    (1, 4),         // mobility queen
    (0, 0),         // passed rank 1
    (-12, 22),      // passed rank 2
    (-12, 18),      // passed rank 3
    (-15, 36),      // passed rank 4
    (30, 54),       // passed rank 5
    (46, 65),       // passed rank 6
    (46, 67),       // passed rank 7
    (0, 0),         // passed rank 8
    (-12, -24),     // doubled
    (-1, -4),       // isolated
    (38, -3),       // rook open file
    (17, 14),       // rook semi-open file
    (9, -4),        // king shield
    (40, 28),       // threat by pawn
    (39, 27),       // threat by minor
    (49, 20),       // threat by rook
    (15, 11),       // outpost knight
    (23, 8),        // outpost bishop
    (4, 4),         // phalanx
    (11, 10),       // supported
    (4, -18),       // passed blocked
    (0, -7),        // passed own king distance
    (-2, 9),        // passed their king distance
    (-12, -3),      // king open file
    (17, 22),       // hanging
    (31, -1),       // safe check knight
    (10, 17),       // safe check bishop
    (30, 8),        // safe check rook
    (15, 17),       // safe check queen
    (5, 13),        // rook on seventh
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

/// What one side attacks, by piece type, and everything together.
#[derive(Default)]
struct Attacks {
    pawns: Bitboard,
    knights: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
    queens: Bitboard,
    all: Bitboard,
}

/// Positional terms for side `c` that need only its own attacks, each counted `sign` times
/// (+1 for white, -1 for black); returns those attacks.
#[inline(always)]
fn positional<S: Sink>(board: &Board, c: Color, sign: i32, out: &mut S) -> Attacks {
    let them = !c;
    let occ = board.occupied();
    let own = board.color(c);
    let our_pawns = board.pieces_of(c, PieceType::Pawn);
    let their_pawns = board.pieces_of(them, PieceType::Pawn);
    let our_king = board.king(c);
    let their_king = board.king(them);
    let mut attacks = Attacks {
        pawns: pawn_attacks_all(c, our_pawns),
        ..Attacks::default()
    };
    let our_pawn_attacks = attacks.pawns;
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

    // Mobility, outposts, rooks on open files and the seventh, attacks on the enemy king zone.
    let safe = !own & !pawn_attacks_all(them, their_pawns);
    let zone = king_attacks(their_king).with(their_king);
    let mut attack_weight = 0;
    let mut attackers = 0;
    let our_files = file_fill(our_pawns);
    let their_files = file_fill(their_pawns);
    let seventh = match c {
        Color::White => Bitboard::rank(6),
        Color::Black => Bitboard::rank(1),
    };
    let king_on_eighth = their_king.relative_rank(c) == 7;
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
                    if pt == PieceType::Knight {
                        attacks.knights |= att;
                    } else {
                        attacks.bishops |= att;
                    }
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
                    attacks.rooks |= att;
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
                    if seventh.contains(sq) && (king_on_eighth || (seventh & their_pawns).any()) {
                        add(ROOK_SEVENTH, 1);
                    }
                }
                _ => attacks.queens |= att,
            }
        }
    }

    // Our own king: the pawn shield in front of it, open files beside it.
    let shield = king_attacks(our_king) & our_pawns & front_span(c, our_king);
    add(KING_SHIELD, shield.count() as i32);
    let open = (files_around(our_king.file()) & !our_files).count() as i32 / 8;
    add(KING_OPEN_FILE, open);

    if attackers >= 2 {
        // Grows faster than linearly: coordinated attacks are what break kings.
        out.fixed(sign * (attack_weight * attack_weight / 4).min(400), 0);
    }
    attacks.all = attacks.pawns
        | attacks.knights
        | attacks.bishops
        | attacks.rooks
        | attacks.queens
        | king_attacks(our_king);
    attacks
}

/// Terms for side `c` that need both sides' attacks: threats, hanging pieces, safe checks.
#[inline(always)]
fn threats<S: Sink>(
    board: &Board,
    c: Color,
    sign: i32,
    ours: &Attacks,
    theirs: &Attacks,
    out: &mut S,
) {
    let them = !c;
    let occ = board.occupied();
    let their_king = board.king(them);
    let their_queens = board.pieces_of(them, PieceType::Queen);
    let their_majors = board.pieces_of(them, PieceType::Rook) | their_queens;
    let their_pieces =
        board.color(them) & !board.pieces(PieceType::Pawn) & !board.pieces(PieceType::King);
    let mut add = |term: usize, n: i32| out.term(term, sign * n);
    add(THREAT_BY_PAWN, (ours.pawns & their_pieces).count() as i32);
    add(
        THREAT_BY_MINOR,
        ((ours.knights | ours.bishops) & their_majors).count() as i32,
    );
    add(THREAT_BY_ROOK, (ours.rooks & their_queens).count() as i32);
    add(
        HANGING,
        (ours.all & their_pieces & !theirs.all).count() as i32,
    );

    let safe = !board.color(c) & !theirs.all;
    let diagonal = bishop_attacks(their_king, occ);
    let straight = rook_attacks(their_king, occ);
    add(
        SAFE_CHECK,
        (knight_attacks(their_king) & ours.knights & safe).count() as i32,
    );
    add(
        SAFE_CHECK + 1,
        (diagonal & ours.bishops & safe).count() as i32,
    );
    add(
        SAFE_CHECK + 2,
        (straight & ours.rooks & safe).count() as i32,
    );
    add(
        SAFE_CHECK + 3,
        ((diagonal | straight) & ours.queens & safe).count() as i32,
    );
}

/// Sends every part of the evaluation of `board` except the tempo bonus and the endgame
/// scaling to `out`, from white's point of view, and returns the game phase (24 = full
/// middlegame, 0 = pawn endgame).
#[inline(always)]
pub fn trace<S: Sink>(board: &Board, out: &mut S) -> i32 {
    let white = positional(board, Color::White, 1, out);
    let black = positional(board, Color::Black, -1, out);
    threats(board, Color::White, 1, &white, &black, out);
    threats(board, Color::Black, -1, &black, &white, out);
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

/// The share (of 64) of the endgame score that stands, for an endgame score `eg` (white's
/// view): material edges that cannot win without pawns, and opposite-coloured bishops, are
/// worth less than their count says.
pub fn eg_scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let strong_has_pawns = board.pieces_of(strong, PieceType::Pawn).any();
    let bishops = board.pieces(PieceType::Bishop);
    // Most positions: the strong side has pawns and there are not exactly two bishops, so
    // no rule below applies; skip the material count (this runs at every evaluation).
    if strong_has_pawns && bishops.count() != 2 {
        return 64;
    }
    let (ours, theirs) = (
        non_pawn_material(board, strong),
        non_pawn_material(board, !strong),
    );
    if !strong_has_pawns {
        // No pawns and at most a minor piece ahead: seldom more than a draw.
        if ours - theirs <= MG_VALUE[2] {
            return if ours < MG_VALUE[3] { 0 } else { 16 };
        }
        // Two knights cannot force mate.
        if ours == 2 * MG_VALUE[1] && board.pieces_of(strong, PieceType::Knight).count() == 2 {
            return if theirs == 0 { 0 } else { 16 };
        }
    }
    const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
    if ours == MG_VALUE[2]
        && theirs == MG_VALUE[2]
        && bishops.count() == 2
        && (bishops.0 & LIGHT).count_ones() == 1
    {
        // Bishops of opposite colours and nothing else but pawns.
        return 32;
    }
    64
}

/// Non-pawn material of `c`, in middlegame piece values.
fn non_pawn_material(board: &Board, c: Color) -> i32 {
    [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .iter()
    .map(|&pt| board.pieces_of(c, pt).count() as i32 * MG_VALUE[pt.index()])
    .sum()
}

/// Endgame bonus (white's view) for driving a pawnless defender's king to the edge and
/// bringing the attacking king to it, once the attacker is at least a rook ahead. The
/// piece-square tables are fitted to games, where such endings are rare (self-play data
/// leaves decisive positions out), so without this a lone king may be chased in circles.
/// Not traced: the tuner never sees these positions.
pub fn mop_up(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if eg == 0 || !board.pieces_of(weak, PieceType::Pawn).is_empty() {
        return 0;
    }
    if non_pawn_material(board, strong) - non_pawn_material(board, weak) < MG_VALUE[3] {
        return 0;
    }
    let (wk, sk) = (board.king(weak), board.king(strong));
    let edge = |x: u8| (3i32 - x as i32).max(x as i32 - 4);
    let centre_distance = edge(wk.file()) + edge(wk.rank());
    let king_distance = (wk.file() as i32 - sk.file() as i32)
        .abs()
        .max((wk.rank() as i32 - sk.rank() as i32).abs());
    let bonus = MOP_UP_EDGE * centre_distance + MOP_UP_KINGS * (7 - king_distance);
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

/// Tapered material, piece-square and positional score, from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut s = Score::default();
    let phase = trace(board, &mut s);
    let scale = eg_scale(board, s.eg);
    let mut eg = s.eg * scale / 64;
    if scale == 64 {
        eg += mop_up(board, eg);
    }
    let white = (s.mg * phase + eg * (24 - phase)) / 24;
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
    fn endgames_that_cannot_be_won_are_scaled_down() {
        let scale = |fen: &str| {
            let b = Board::from_fen(fen, false).unwrap();
            let mut s = Score::default();
            trace(&b, &mut s);
            eg_scale(&b, s.eg)
        };
        // Two knights, a lone minor: no mate can be forced.
        assert_eq!(scale("8/8/4k3/8/8/2NN4/8/4K3 w - - 0 1"), 0);
        assert_eq!(scale("8/8/4k3/8/8/8/8/3BK3 b - - 0 1"), 0);
        // Rook against bishop, rook and bishop against rook: mostly drawn.
        assert_eq!(scale("8/8/4k3/3b4/8/8/8/3RK3 w - - 0 1"), 16);
        assert_eq!(scale("8/8/4k3/3r4/8/8/8/2BRK3 w - - 0 1"), 16);
        // Bishop and knight mate; queen against rook wins.
        assert_eq!(scale("8/8/4k3/8/8/8/8/2BNK3 w - - 0 1"), 64);
        assert_eq!(scale("8/8/4k3/3r4/8/8/8/3QK3 w - - 0 1"), 64);
        // Opposite-coloured bishops with pawns; same-coloured ones are not scaled.
        assert_eq!(scale("8/5p2/4k1b1/8/3P4/2B5/5P2/4K3 w - - 0 1"), 32);
        assert_eq!(scale("8/5p2/4kb2/8/3P4/2B5/5P2/4K3 w - - 0 1"), 64);
        // The side ahead by a pawn-less minor is black here: the rule follows the score.
        assert_eq!(scale("4k3/8/2n5/8/8/8/8/4K3 w - - 0 1"), 0);
        // A drawn ending scores near zero, a won one does not.
        let e = |fen: &str| evaluate(&Board::from_fen(fen, false).unwrap());
        assert!(e("8/8/4k3/8/8/2NN4/8/4K3 w - - 0 1").abs() < 100);
        assert!(e("8/8/4k3/8/8/8/8/2BNK3 w - - 0 1") > 300);
    }

    #[test]
    fn a_lone_king_is_driven_to_the_edge() {
        let e = |fen: &str| evaluate(&Board::from_fen(fen, false).unwrap());
        // Queen against a lone king: the king on the edge, then near our king, is worse for
        // the defender; the same seen from black.
        let centre = e("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
        let edge = e("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let corner_near = e("7k/8/5K2/8/8/8/8/3Q4 w - - 0 1");
        assert!(edge > centre + 40, "{edge} {centre}");
        assert!(corner_near > edge, "{corner_near} {edge}");
        assert_eq!(e("3qk3/8/8/8/8/8/8/4K3 b - - 0 1"), edge);
        // Only for a pawnless defender that is at least a rook behind.
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false).unwrap();
        assert!(mop_up(&b, 500) > 0);
        let b = Board::from_fen("4k3/4p3/8/8/8/8/8/3RK3 w - - 0 1", false).unwrap();
        assert_eq!(mop_up(&b, 500), 0);
        let b = Board::from_fen("4k3/8/8/8/3n4/8/8/3RK3 w - - 0 1", false).unwrap();
        assert_eq!(mop_up(&b, 100), 0);
    }

    #[test]
    fn extra_queen_is_winning() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(evaluate(&b) > 800);
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false).unwrap();
        assert!(evaluate(&b) < -800);
    }
}
