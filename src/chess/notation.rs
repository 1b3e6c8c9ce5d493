//! UCI move text: parsing against the legal moves of a position.

use super::board::Board;
use super::types::{Move, PieceType, Square};
use std::fmt;

/// Why a UCI move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4`, `e7e8q` (or `0000`).
    Malformed(String),
    /// Well formed, but not a legal move in this position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |s: &str| -> String { s.chars().take(12).filter(|c| !c.is_control()).collect() };
        match self {
            MoveError::Malformed(s) => write!(f, "'{}' is not a move in UCI notation", show(s)),
            MoveError::Illegal(s) => write!(f, "'{}' is not a legal move here", show(s)),
        }
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// Parses a UCI move and returns the matching legal move. Castling is accepted both as the
    /// king's two-square move (`e1g1`) and as king-takes-rook (`e1h1`), whatever the mode,
    /// since the two never clash with another legal move.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let malformed = || MoveError::Malformed(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(malformed());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(malformed)?;
        let to = Square::parse(&text[2..4]).ok_or_else(malformed)?;
        let promo = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match PieceType::from_char(c as char) {
                Some(
                    pt @ (PieceType::Knight
                    | PieceType::Bishop
                    | PieceType::Rook
                    | PieceType::Queen),
                ) if (c as char).is_ascii_lowercase() => Some(pt),
                _ => return Err(malformed()),
            },
        };
        for &m in self.legal_moves().iter() {
            if m.from() != from {
                continue;
            }
            let hit = if m.is_castle() {
                promo.is_none()
                    && (to == m.to() || to == m.castle_king_to())
                    && !self.king_step_to(from, to)
            } else {
                m.to() == to
                    && (if m.is_promotion() {
                        Some(m.promotion_piece())
                    } else {
                        None
                    }) == promo
            };
            if hit {
                return Ok(m);
            }
        }
        Err(MoveError::Illegal(text.to_string()))
    }

    /// Whether `from -> to` is also an ordinary legal king step (then `to` does not mean castling;
    /// in Chess960 a king on f1 may step to g1 or castle onto g1, written f1h1).
    fn king_step_to(&self, from: Square, to: Square) -> bool {
        self.legal_moves()
            .iter()
            .any(|m| !m.is_castle() && m.from() == from && m.to() == to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_castling_notations() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let a = b.parse_uci_move("e1g1").unwrap();
        let c = b.parse_uci_move("e1h1").unwrap();
        assert!(a.is_castle() && a == c);
        assert!(b.parse_uci_move("e1c1").unwrap().is_castle());
    }

    #[test]
    fn chess960_king_step_is_not_castling() {
        // King f1, rook h1: f1g1 is a king step, f1h1 castles (king lands on g1 as well).
        let b = Board::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1", true).unwrap();
        let step = b.parse_uci_move("f1g1").unwrap();
        let castle = b.parse_uci_move("f1h1").unwrap();
        assert!(!step.is_castle());
        assert!(castle.is_castle());
    }

    #[test]
    fn rejects_bad_text() {
        let b = Board::startpos();
        for bad in [
            "", "e2", "e2e4x", "e2e4Q", "e7e8k", "z2e4", "e2e4qq", "ééé", "0000",
        ] {
            assert!(
                matches!(b.parse_uci_move(bad), Err(MoveError::Malformed(_))),
                "{bad}"
            );
        }
        assert_eq!(
            b.parse_uci_move("e2e5"),
            Err(MoveError::Illegal("e2e5".into()))
        );
        assert!(b.parse_uci_move("e2e4").is_ok());
    }

    #[test]
    fn promotion_needs_the_piece() {
        let b = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert!(b.parse_uci_move("a7a8").is_err());
        assert_eq!(
            b.parse_uci_move("a7a8n").unwrap().promotion_piece(),
            PieceType::Knight
        );
    }
}
