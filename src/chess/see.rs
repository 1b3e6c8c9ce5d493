//! Static exchange evaluation: does a move win at least `threshold` centipawns once every
//! capture on its target square has been played out, each side taking with its least valuable
//! attacker and free to stop?

use super::attacks::{bishop_attacks, rook_attacks};
use super::{Board, Move, PieceType};

/// Piece values for exchanges (pawn, knight, bishop, rook, queen, king).
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 0];

impl Board {
    /// Whether `mv` (legal here) wins at least `threshold` in the exchange on its target
    /// square. Castling, en passant and promotions count as a gain of zero. Pins are ignored.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
            return 0 >= threshold;
        }
        let (from, to) = (mv.from(), mv.to());
        let victim = self.piece_on(to);
        let mut swap = if victim.is_none() {
            0
        } else {
            SEE_VALUE[victim.piece_type().index()]
        } - threshold;
        if swap < 0 {
            return false;
        }
        swap = SEE_VALUE[self.piece_on(from).piece_type().index()] - swap;
        if swap <= 0 {
            return true;
        }

        let diagonal = self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen);
        let straight = self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        let mut occ = self.occupied().without(from).without(to);
        let mut attackers = self.attackers_to(to, occ);
        let mut stm = self.side_to_move();
        // 1 while the side that made `mv` is ahead in the exchange so far.
        let mut res = 1;
        loop {
            stm = !stm;
            attackers &= occ;
            let ours = attackers & self.color(stm);
            if ours.is_empty() {
                break;
            }
            res ^= 1;
            // The least valuable attacker takes.
            let Some(pt) = PieceType::ALL
                .into_iter()
                .find(|&pt| (ours & self.pieces(pt)).any())
            else {
                break;
            };
            if pt == PieceType::King {
                // The king may take only if nothing defends the square any more.
                return if (attackers & self.color(!stm)).any() {
                    res ^ 1 == 1
                } else {
                    res == 1
                };
            }
            swap = SEE_VALUE[pt.index()] - swap;
            if swap < res {
                break;
            }
            let sq = (ours & self.pieces(pt)).lsb();
            occ = occ.without(sq);
            // Sliders behind the piece that just took join in.
            if matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
                attackers |= bishop_attacks(to, occ) & diagonal;
            }
            if matches!(pt, PieceType::Rook | PieceType::Queen) {
                attackers |= rook_attacks(to, occ) & straight;
            }
        }
        res == 1
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::Board;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let b = Board::from_fen(fen, false).expect("test FEN");
        let m = b.parse_uci_move(mv).expect("test move");
        b.see_ge(m, threshold)
    }

    #[test]
    fn undefended_and_defended_captures() {
        // Rook takes an undefended pawn: +100.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        // Knight takes a pawn defended by a pawn: 100 - 300.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(see(fen, "d3e5", -200));
        assert!(!see(fen, "d3e5", -199));
    }

    #[test]
    fn xrays_and_quiet_moves() {
        // Two rooks against one defender: RxP, RxR, RxR wins the pawn.
        let fen = "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1";
        assert!(see(fen, "e2e5", 100));
        assert!(!see(fen, "e2e5", 101));
        // A quiet move onto a square a pawn guards loses the piece.
        let fen = "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1";
        assert!(!see(fen, "e4c5", -299));
        assert!(see(fen, "e4c5", -300));
        assert!(see(fen, "e4f6", 0));
    }

    #[test]
    fn king_may_not_recapture_into_a_defended_square() {
        // Qxf7+ Kxf7 is impossible while the bishop on c4 guards f7: the queen wins the pawn.
        let fen = "4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1";
        assert!(see(fen, "f1f7", 100));
        // Without the bishop the king takes the queen.
        let fen = "4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1";
        assert!(!see(fen, "f1f7", 0));
    }

    #[test]
    fn special_moves_count_as_zero() {
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert!(see(fen, "e5d6", 0));
        assert!(!see(fen, "e5d6", 1));
        let fen = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        assert!(see(fen, "b7a8q", 0));
    }
}
