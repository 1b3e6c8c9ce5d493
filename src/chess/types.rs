//! Basic chess types: colours, pieces, squares and 16-bit moves.

use std::fmt;

/// Side to move / owner of a piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Rank index (0..8) of this side's back rank.
    #[inline(always)]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// Kind of piece, independent of colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// # Panics
    /// Never for `i < 6`; callers pass only indices they produced.
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceType {
        match i {
            0 => PieceType::Pawn,
            1 => PieceType::Knight,
            2 => PieceType::Bishop,
            3 => PieceType::Rook,
            4 => PieceType::Queen,
            _ => PieceType::King,
        }
    }

    /// Lower-case letter as used in FEN and UCI promotions.
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    pub const fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}

/// [`Piece::piece_type`] of every encoding: `index % 6`, as the encoding says.
const PIECE_TYPE_OF: [PieceType; 256] = {
    let mut t = [PieceType::Pawn; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = PieceType::from_index(i % 6);
        i += 1;
    }
    t
};

/// A coloured piece, or [`Piece::NONE`] for an empty square in the mailbox.
/// Encoded as `colour * 6 + piece type`, so it indexes 12-entry tables directly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(12);

    #[inline(always)]
    pub const fn new(color: Color, pt: PieceType) -> Piece {
        Piece(color as u8 * 6 + pt as u8)
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 12
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Colour of a real piece (meaningless for `NONE`).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >= 6 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Type of a real piece (meaningless for `NONE`).
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        // A table over every `u8`: one load with no bounds check, where `% 6` and the
        // conversion cost several instructions (a profile of `bench` put 3% of all
        // instructions on them; this is called for most moves the search scores or makes).
        PIECE_TYPE_OF[self.0 as usize]
    }

    /// FEN letter: upper case for white.
    pub fn char(self) -> char {
        if self.is_none() {
            return '.';
        }
        let c = self.piece_type().char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let pt = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, pt))
    }
}

/// A square, 0 = a1, 7 = h1, 63 = h8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    #[inline(always)]
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Rank counted from `color`'s side (0 = own back rank).
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The square mirrored vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Square shifted by `delta` (caller guarantees the result is on the board).
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square::new((self.0 as i8 + delta) as u8)
    }

    /// Parses "e4"-style text.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        if file < 8 && rank < 8 {
            Some(Square::from_file_rank(file, rank))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal,
    Promotion,
    EnPassant,
    /// Castling, encoded as "king captures own rook": `to` is the rook's square.
    Castle,
}

/// A move in 16 bits: from (6), to (6), promotion piece (2: N, B, R, Q), kind (2).
///
/// Castling is stored as the king moving onto its own rook's square, which works unchanged for
/// Chess960; [`Move::to_uci`] prints it the standard way unless asked for Chess960 notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

const KIND_PROMO: u16 = 1 << 14;
const KIND_EP: u16 = 2 << 14;
const KIND_CASTLE: u16 = 3 << 14;

impl Move {
    /// "No move" (a1a1, never a legal move).
    pub const NONE: Move = Move(0);
    /// The null move used by null-move pruning (b1b1, never a legal move).
    pub const NULL: Move = Move(65);

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, pt: PieceType) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | ((pt as u16 - 1) << 12) | KIND_PROMO)
    }

    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | KIND_EP)
    }

    /// Castling: the king on `king` "captures" its own rook on `rook`.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king.0 as u16 | (rook.0 as u16) << 6 | KIND_CASTLE)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (3 << 14) == KIND_PROMO
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 & (3 << 14) == KIND_CASTLE
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 & (3 << 14) == KIND_EP
    }

    /// Promotion piece; meaningful only when [`Move::is_promotion`].
    #[inline(always)]
    pub const fn promotion_piece(self) -> PieceType {
        PieceType::from_index(((self.0 >> 12) & 3) as usize + 1)
    }

    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The square the king lands on for a castling move.
    #[inline(always)]
    pub const fn castle_king_to(self) -> Square {
        let rank = self.from().rank();
        if self.to().0 > self.from().0 {
            Square::from_file_rank(6, rank)
        } else {
            Square::from_file_rank(2, rank)
        }
    }

    /// The square the rook lands on for a castling move.
    #[inline(always)]
    pub const fn castle_rook_to(self) -> Square {
        let rank = self.from().rank();
        if self.to().0 > self.from().0 {
            Square::from_file_rank(5, rank)
        } else {
            Square::from_file_rank(3, rank)
        }
    }

    /// UCI long algebraic text. With `chess960` castling is written as king-takes-rook
    /// (`e1h1`), otherwise as the king's two-square move (`e1g1`).
    pub fn to_uci(self, chess960: bool) -> String {
        if self == Move::NONE {
            return "0000".to_string();
        }
        let to = if self.is_castle() && !chess960 {
            self.castle_king_to()
        } else {
            self.to()
        };
        let mut s = format!("{}{}", self.from(), to);
        if self.is_promotion() {
            s.push(self.promotion_piece().char());
        }
        s
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_encoding_round_trips() {
        for from in 0..64u8 {
            for to in 0..64u8 {
                let (f, t) = (Square::new(from), Square::new(to));
                let m = Move::normal(f, t);
                assert_eq!((m.from(), m.to(), m.kind()), (f, t, MoveKind::Normal));
                for pt in [
                    PieceType::Knight,
                    PieceType::Bishop,
                    PieceType::Rook,
                    PieceType::Queen,
                ] {
                    let p = Move::promotion(f, t, pt);
                    assert_eq!((p.from(), p.to(), p.promotion_piece()), (f, t, pt));
                    assert!(p.is_promotion() && !p.is_castle() && !p.is_en_passant());
                }
                assert!(Move::en_passant(f, t).is_en_passant());
                assert!(Move::castle(f, t).is_castle());
            }
        }
    }

    #[test]
    fn castling_text_in_both_notations() {
        let e1 = Square::parse("e1").unwrap();
        let h1 = Square::parse("h1").unwrap();
        let a8 = Square::parse("a8").unwrap();
        let e8 = Square::parse("e8").unwrap();
        assert_eq!(Move::castle(e1, h1).to_uci(false), "e1g1");
        assert_eq!(Move::castle(e1, h1).to_uci(true), "e1h1");
        assert_eq!(Move::castle(e8, a8).to_uci(false), "e8c8");
        assert_eq!(Move::castle(e8, a8).to_uci(true), "e8a8");
        assert_eq!(Move::NONE.to_uci(false), "0000");
    }

    #[test]
    fn square_parse_rejects_junk() {
        for bad in ["", "e", "e9", "i1", "e10", "E1", "11", "é1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Square::parse("h8").map(|s| s.index()), Some(63));
    }

    #[test]
    fn piece_letters() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).unwrap().char(), c);
        }
        assert_eq!(Piece::from_char('x'), None);
    }
}
