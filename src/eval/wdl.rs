//! Win/draw/loss from a score, for `UCI_ShowWDL`: a model fitted to Lazuli's own self-play.
//!
//! The form is the one Stockfish fits to its games: with `x` the material on the board
//! (pawn 1, knight and bishop 3, rook 5, queen 9, both sides, clamped to 17..78) over 58,
//! `win = 1 / (1 + exp((a(x) - v) / b(x)))` and `loss` the same for `-v`, where `a` and `b`
//! are cubics. The coefficients are Lazuli's: `scripts/fit_wdl.py` fitted them by maximum
//! likelihood to candidate 35's own moves (`nn-0956ed0d7270`, the default network since
//! 2026-12-05, output scale 276) in its 507-game SPRT against candidate 33 at 8+0.08,
//! Threads=1 (fastchess `-srand 20201`): 30,154 positions with ply >= 16 and a centipawn score
//! (`scripts/pgn_scores.py c35 runs/c35/*.pgn` makes the data). Out of sample (each half of
//! the games fitted, scored on the other) the mean log-loss is 0.38529 / 0.36278 against
//! 0.39481 / 0.36831 for the model it replaced (fitted the same way to candidate 33's 409
//! games against candidate 34, 2026-12-04). At the middlegame's material (x = 1) a win is as
//! likely as not at 99 cp, as before; with little material left at 188 cp (224 in the old
//! model), and with all the pieces on at 54 cp (82). The two fits saw different games (and a
//! different opponent), so the shift is not all the network's; the refit is taken because it
//! predicts candidate 35's results better on both halves. Refit with the games of each new
//! default evaluation (`scripts/fit_wdl.py` prints both fits' scores), since the model maps
//! that evaluation's scale. Candidate 37 (`nn-d83a92adc464`, the default from 2026-12-05, its
//! output scale matched to candidate 35's: slope 0.995) kept this model: refitted to its own
//! 20,408 positions of its 342-game SPRT against candidate 35 (fastchess `-srand 20403`), the
//! refit scored 0.46220 / 0.36126 out of sample (second half, first half) against 0.39036 /
//! 0.35057 for this model.

use crate::chess::{Board, PieceType};
use crate::search::MATE_BOUND;

/// `a(x)`: the score at which a win is as likely as not (x^3, x^2, x, 1).
const AS: [f64; 4] = [-146.713, 382.505, -418.501, 281.734];
/// `b(x)`: how quickly the win rate rises around `a(x)` (x^3, x^2, x, 1).
const BS: [f64; 4] = [127.337, -323.806, 262.510, -21.588];

/// Material for the model: P + 3N + 3B + 5R + 9Q of both sides, clamped to 17..78.
pub fn material(board: &Board) -> i32 {
    let n = |pt| board.pieces(pt).count() as i32;
    let m = n(PieceType::Pawn)
        + 3 * (n(PieceType::Knight) + n(PieceType::Bishop))
        + 5 * n(PieceType::Rook)
        + 9 * n(PieceType::Queen);
    m.clamp(17, 78)
}

fn win_rate(v: f64, material: i32) -> f64 {
    let x = material.clamp(17, 78) as f64 / 58.0;
    let poly = |c: &[f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
    let (a, b) = (poly(&AS), poly(&BS).max(1.0));
    1.0 / (1.0 + ((a - v) / b).exp())
}

/// Win, draw and loss per mille (summing to 1000) for `score` (centipawns, or a mate score)
/// from the side to move's point of view, with `material` from [`material`].
pub fn wdl(score: i32, material: i32) -> (u32, u32, u32) {
    if score >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let v = score as f64;
    let w = (1000.0 * win_rate(v, material)).round() as u32;
    let l = (1000.0 * win_rate(-v, material)).round() as u32;
    let l = l.min(1000 - w);
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{mate_in, mated_in};

    #[test]
    fn the_model_is_symmetric_sums_to_1000_and_rises_with_the_score() {
        for m in [10, 17, 30, 58, 78, 100] {
            let mut last_win = 0;
            for v in (-3000..=3000).step_by(25) {
                let (w, d, l) = wdl(v, m);
                assert_eq!(w + d + l, 1000, "{v} {m}");
                assert_eq!(wdl(-v, m), (l, d, w), "{v} {m}");
                assert!(w >= last_win, "win rate falls at {v} (material {m})");
                last_win = w;
            }
        }
        // Level positions are mostly draws or balanced; big advantages are won.
        let (w, _, l) = wdl(0, 58);
        assert_eq!(w, l);
        assert!(w < 400, "{w}");
        assert!(wdl(800, 58).0 > 990);
        assert!(wdl(-800, 58).2 > 990);
        assert!(wdl(-1000, 30).2 > 990);
    }

    #[test]
    fn a_small_edge_is_drawn_more_often_in_an_endgame() {
        // Fitted to the games: a(x) falls as material grows (188 cp for an even win chance
        // at 17, 99 cp at 58, 76 at 70), so +150 is mostly a draw with little material left
        // and mostly a win in the middlegame.
        let (end, middle) = (wdl(150, 20), wdl(150, 70));
        assert!(end.1 > 500 && middle.0 > 500, "{end:?} {middle:?}");
        assert!(middle.0 > end.0, "{end:?} {middle:?}");
    }

    #[test]
    fn mate_scores_are_certain() {
        assert_eq!(wdl(mate_in(3), 40), (1000, 0, 0));
        assert_eq!(wdl(mated_in(2), 40), (0, 0, 1000));
    }

    #[test]
    fn material_counts_both_sides_and_clamps() {
        assert_eq!(material(&Board::startpos()), 78);
        let kpk = Board::from_fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false).unwrap();
        assert_eq!(material(&kpk), 17);
        let mid = Board::from_fen("r3k3/8/8/8/8/8/PPPP4/2KQ4 w - - 0 1", false).unwrap();
        assert_eq!(material(&mid), 18);
        let full = Board::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(material(&full), 78);
    }
}
