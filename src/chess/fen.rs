//! FEN parsing and printing (standard, X-FEN and Shredder-FEN castling fields).
//!
//! Parsing never panics: every malformed or impossible input is a [`FenError`]. Two kinds of
//! harmless inconsistency are repaired rather than refused, as GUIs and other engines do:
//! castling rights whose king or rook is not in place are dropped, and an en passant square on
//! which no capture is legal is ignored.

use super::attacks::line;
use super::bitboard::Bitboard;
use super::board::{
    BLACK_KING_SIDE, BLACK_QUEEN_SIDE, Board, WHITE_KING_SIDE, WHITE_QUEEN_SIDE, castle_index,
};
use super::types::{Color, Piece, PieceType, Square};
use std::fmt;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    TooFewFields(usize),
    TooManyFields(usize),
    RankCount(usize),
    RankLength { rank: u8, squares: u32 },
    BadPiece(char),
    BadSideToMove(String),
    BadCastling(String),
    DuplicateCastling(String),
    BadEnPassant(String),
    BadHalfmoveClock(String),
    BadFullmoveNumber(String),
    KingCount { color: Color, count: u32 },
    PawnOnBackRank(Square),
    TooManyPawns(Color),
    TooManyPieces(Color),
    OpponentInCheck,
    ImpossibleCheck,
}

/// At most this many characters of a bad field are quoted back.
fn quote(s: &str) -> String {
    let cut: String = s.chars().take(16).collect();
    let cut: String = cut
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().count() > 16 {
        format!("{cut}...")
    } else {
        cut
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooFewFields(n) => write!(f, "FEN has {n} fields, at least 4 needed"),
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 allowed"),
            FenError::RankCount(n) => write!(f, "piece placement has {n} ranks, 8 needed"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, 8 needed")
            }
            FenError::BadPiece(c) => write!(f, "unknown piece letter '{}'", quote(&c.to_string())),
            FenError::BadSideToMove(s) => write!(f, "side to move '{}' is not w or b", quote(s)),
            FenError::BadCastling(s) => write!(f, "bad castling field '{}'", quote(s)),
            FenError::DuplicateCastling(s) => {
                write!(f, "castling field '{}' names one right twice", quote(s))
            }
            FenError::BadEnPassant(s) => write!(f, "bad en passant field '{}'", quote(s)),
            FenError::BadHalfmoveClock(s) => write!(f, "bad halfmove clock '{}'", quote(s)),
            FenError::BadFullmoveNumber(s) => write!(f, "bad fullmove number '{}'", quote(s)),
            FenError::KingCount { color, count } => {
                write!(
                    f,
                    "{} has {count} kings, exactly 1 needed",
                    color_name(*color)
                )
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq} (rank 1 or 8)"),
            FenError::TooManyPawns(c) => write!(f, "{} has more than 8 pawns", color_name(*c)),
            FenError::TooManyPieces(c) => write!(f, "{} has more than 16 pieces", color_name(*c)),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::ImpossibleCheck => {
                write!(
                    f,
                    "the side to move is in a check that no legal move could give"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// How strictly to validate the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// Refuse everything that cannot arise in a game (what the engine uses for `position`).
    Strict,
    /// Also accept checks that no move could have given (perft suites use one such position).
    AllowImpossibleCheck,
}

impl Board {
    /// Parses a FEN with strict validation. With `chess960`, `KQkq` mean the outermost rook on
    /// each side of the king; without it, castling rights need the king on e1/e8 and the rook
    /// on the a or h file. File letters (Shredder-FEN) are accepted in both modes.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Board, FenError> {
        Board::from_fen_with(fen, chess960, Validation::Strict)
    }

    pub fn from_fen_with(
        fen: &str,
        chess960: bool,
        validation: Validation,
    ) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        match fields.len() {
            0 => return Err(FenError::Empty),
            1..=3 => return Err(FenError::TooFewFields(fields.len())),
            4..=6 => {}
            n => return Err(FenError::TooManyFields(n)),
        }
        let mut b = Board::empty();
        parse_placement(&mut b, fields[0])?;

        b.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSideToMove(s.to_string())),
        };

        if let Some(s) = fields.get(4) {
            b.halfmove = s
                .parse()
                .map_err(|_| FenError::BadHalfmoveClock(s.to_string()))?;
        }
        if let Some(s) = fields.get(5) {
            let n: u16 = s
                .parse()
                .map_err(|_| FenError::BadFullmoveNumber(s.to_string()))?;
            b.fullmove = n.max(1);
        }

        validate_material(&b)?;
        parse_castling(&mut b, fields[2], chess960)?;
        let ep = parse_ep(&b, fields[3])?;

        b.refresh();
        // The side that just moved must not be left in check.
        let them = b.side.flip();
        if b.is_attacked_by(b.king(them), b.side, b.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        if validation == Validation::Strict && impossible_check(&b) {
            return Err(FenError::ImpossibleCheck);
        }
        if let Some(ep) = ep {
            b.set_ep_if_capturable(ep);
        }
        Ok(b)
    }

    /// FEN of this position. Castling is written as `KQkq` where the rook is the outermost one
    /// on its side of the king (so standard positions print as usual) and as the rook's file
    /// letter otherwise (X-FEN). The en passant square is printed only when a capture is legal.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.piece_on(Square::from_file_rank(file, rank));
                if p.is_none() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.char());
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut castling = String::new();
        for (i, color, king_side) in [
            (0, Color::White, true),
            (1, Color::White, false),
            (2, Color::Black, true),
            (3, Color::Black, false),
        ] {
            if let Some(rook) = self.castle_rook(i) {
                let outermost = outermost_rook(self, color, king_side) == Some(rook);
                let c = if outermost {
                    if king_side { 'k' } else { 'q' }
                } else {
                    (b'a' + rook.file()) as char
                };
                castling.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        s.push_str(&castling);
        match self.ep {
            Some(ep) => s.push_str(&format!(" {ep}")),
            None => s.push_str(" -"),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

fn parse_placement(b: &mut Board, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        for c in text.chars() {
            match c {
                '1'..='9' => file = file.saturating_add(c as u32 - '0' as u32),
                _ => {
                    let p = Piece::from_char(c).ok_or(FenError::BadPiece(c))?;
                    if file < 8 {
                        b.put_piece(Square::from_file_rank(file as u8, rank), p);
                    }
                    file = file.saturating_add(1);
                }
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(())
}

fn validate_material(b: &Board) -> Result<(), FenError> {
    for c in Color::BOTH {
        let kings = b.pieces_of(c, PieceType::King).count();
        if kings != 1 {
            return Err(FenError::KingCount {
                color: c,
                count: kings,
            });
        }
    }
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    if let Some(sq) = (b.pieces(PieceType::Pawn) & back_ranks).next() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    for c in Color::BOTH {
        if b.pieces_of(c, PieceType::Pawn).count() > 8 {
            return Err(FenError::TooManyPawns(c));
        }
        if b.color(c).count() > 16 {
            return Err(FenError::TooManyPieces(c));
        }
    }
    Ok(())
}

/// The rook furthest from the king on the given side, on the king's rank (which must be the
/// back rank).
fn outermost_rook(b: &Board, color: Color, king_side: bool) -> Option<Square> {
    let ksq = b.king(color);
    if ksq.rank() != color.back_rank() {
        return None;
    }
    let rooks = b.pieces_of(color, PieceType::Rook) & Bitboard::rank(ksq.rank());
    let side: Vec<Square> = rooks
        .filter(|r| {
            if king_side {
                r.file() > ksq.file()
            } else {
                r.file() < ksq.file()
            }
        })
        .collect();
    if king_side {
        side.last().copied()
    } else {
        side.first().copied()
    }
}

fn parse_castling(b: &mut Board, field: &str, chess960: bool) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    if field.is_empty() || field.len() > 4 {
        return Err(FenError::BadCastling(field.to_string()));
    }
    let mut seen = 0u8;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let ksq = b.king(color);
        let back = color.back_rank();
        // (king side?, rook square) if this letter names a right that can exist on this board.
        let right: Option<(bool, Square)> = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let king_side = c.eq_ignore_ascii_case(&'k');
                if chess960 {
                    outermost_rook(b, color, king_side).map(|r| (king_side, r))
                } else {
                    Some((
                        king_side,
                        Square::from_file_rank(if king_side { 7 } else { 0 }, back),
                    ))
                }
            }
            f @ 'a'..='h' => {
                let rook = Square::from_file_rank(f as u8 - b'a', back);
                if rook.file() == ksq.file() {
                    None
                } else {
                    Some((rook.file() > ksq.file(), rook))
                }
            }
            _ => return Err(FenError::BadCastling(field.to_string())),
        };
        let bit_of = |king_side: bool| 1u8 << castle_index(color, king_side);
        if let Some((king_side, rook)) = right {
            let bit = bit_of(king_side);
            if seen & bit != 0 {
                return Err(FenError::DuplicateCastling(field.to_string()));
            }
            seen |= bit;
            let king_ok = ksq.rank() == back && (chess960 || ksq.file() == 4);
            let rook_ok = b.piece_on(rook) == Piece::new(color, PieceType::Rook)
                && (chess960 || rook.file() == 0 || rook.file() == 7);
            // Inner squares of 960 setups are fine; a rook beyond the king is the only other need.
            if king_ok && rook_ok {
                b.castling |= bit;
                b.castle_rooks[castle_index(color, king_side)] = rook;
            }
        } else if let 'k' | 'q' = c.to_ascii_lowercase() {
            // Chess960 letter with no rook on that side: dropped like any impossible right.
            let bit = bit_of(c.eq_ignore_ascii_case(&'k'));
            if seen & bit != 0 {
                return Err(FenError::DuplicateCastling(field.to_string()));
            }
            seen |= bit;
        }
    }
    debug_assert!(
        b.castling & !(WHITE_KING_SIDE | WHITE_QUEEN_SIDE | BLACK_KING_SIDE | BLACK_QUEEN_SIDE)
            == 0
    );
    Ok(())
}

/// Parses the en passant field. A square on the wrong rank is an error; a square that the last
/// move cannot have produced is ignored (returned as `None`).
fn parse_ep(b: &Board, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq = Square::parse(field).ok_or_else(|| FenError::BadEnPassant(field.to_string()))?;
    let expected_rank = if b.side == Color::White { 5 } else { 2 };
    if sq.rank() != expected_rank {
        return Err(FenError::BadEnPassant(field.to_string()));
    }
    let mover = b.side.flip();
    let (pawn_sq, origin) = if mover == Color::White {
        (
            Square::from_file_rank(sq.file(), 3),
            Square::from_file_rank(sq.file(), 1),
        )
    } else {
        (
            Square::from_file_rank(sq.file(), 4),
            Square::from_file_rank(sq.file(), 6),
        )
    };
    let consistent = b.piece_on(pawn_sq) == Piece::new(mover, PieceType::Pawn)
        && b.piece_on(sq).is_none()
        && b.piece_on(origin).is_none();
    Ok(if consistent { Some(sq) } else { None })
}

/// Checks that no single legal move could have given: more than two checkers, two checkers on
/// one line through the king, or a double check without a slider.
fn impossible_check(b: &Board) -> bool {
    let checkers = b.checkers();
    if checkers.count() > 2 {
        return true;
    }
    if checkers.count() == 2 {
        let ksq = b.king(b.side_to_move());
        let a = checkers.lsb();
        let c = (checkers ^ Bitboard::from_square(a)).lsb();
        if line(a, c).contains(ksq) {
            // On one line through the king (necessarily on opposite sides): no single move
            // can uncover one check and give the other.
            return true;
        }
        let sliders =
            b.pieces(PieceType::Bishop) | b.pieces(PieceType::Rook) | b.pieces(PieceType::Queen);
        if (checkers & sliders).is_empty() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trips() {
        let b = Board::from_fen(STARTPOS, false).unwrap();
        assert_eq!(b.to_fen(), STARTPOS);
        assert!(b.is_consistent());
    }

    #[test]
    fn four_field_fen_defaults_clocks() {
        let b = Board::from_fen("8/8/4k3/8/8/3K4/8/8 w - -", false).unwrap();
        assert_eq!((b.halfmove_clock(), b.fullmove_number()), (0, 1));
    }

    #[test]
    fn chess960_castling_letters() {
        let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
        let b = Board::from_fen(fen, true).unwrap();
        assert_eq!(b.castling_rights(), 15);
        // Both rooks are the outermost on their side, so X-FEN prints KQkq.
        assert_eq!(
            b.to_fen(),
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"
        );
        let again = Board::from_fen(&b.to_fen(), true).unwrap();
        assert!(again.same_position(&b));
    }

    #[test]
    fn inner_rook_needs_a_file_letter() {
        // Two rooks on the king side: the right belongs to the inner one (file f).
        let fen = "4k3/8/8/8/8/8/8/R3KR1R w F - 0 1";
        let b = Board::from_fen(fen, true).unwrap();
        assert_eq!(b.castle_rook(0), Square::parse("f1"));
        assert!(b.to_fen().contains(" F "));
    }

    #[test]
    fn errors_are_specific() {
        let cases: [(&str, FenError); 6] = [
            ("", FenError::Empty),
            ("8/8/8/8/8/8/8/8 w", FenError::TooFewFields(2)),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x",
                FenError::TooManyFields(7),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
                FenError::BadEnPassant("e9".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 x",
                FenError::BadFullmoveNumber("x".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w KK - 0 1",
                FenError::DuplicateCastling("KK".into()),
            ),
        ];
        for (fen, err) in cases {
            assert_eq!(Board::from_fen(fen, false).unwrap_err(), err, "{fen}");
        }
    }

    #[test]
    fn error_messages_do_not_echo_long_input() {
        let junk = "x".repeat(10_000);
        let msg = Board::from_fen(&format!("4k3/8/8/8/8/8/8/4K3 {junk} - - 0 1"), false)
            .unwrap_err()
            .to_string();
        assert!(msg.len() < 80, "{msg}");
    }
}
