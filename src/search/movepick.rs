//! Move ordering in stages. The legal moves are generated once (about 50-100 ns, cheaper than
//! the bookkeeping of lazy generation would save at most nodes) and scored into classes that
//! are handed out in this order:
//!
//! 1. the transposition-table move;
//! 2. good captures and queen promotions (exchange not losing by SEE), by victim value plus
//!    capture history;
//! 3. the two killers, then the counter move to the previous move;
//! 4. quiet moves by butterfly plus continuation history;
//! 5. bad captures (losing by SEE) and under-promotions.

use super::history::{Histories, PieceTo, captured};
use crate::chess::see::SEE_VALUE;
use crate::chess::{Board, Move, MoveList, PieceType, Threats};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);

/// What kind of move the picker handed out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    TtMove,
    GoodCapture,
    Refutation,
    Quiet,
    BadCapture,
}

pub struct Picker {
    /// Fill this with the legal moves before calling [`Picker::score`].
    pub list: MoveList,
    scores: [i32; 256],
    /// Captures scored as good whose exchange has not been checked yet: SEE is computed only
    /// when such a capture comes up to be handed out (see [`Picker::next`]), as many nodes are
    /// cut off before most of their captures are reached.
    see_pending: [bool; 256],
    next: usize,
    /// Quiet moves other than killers and the counter are scored only when the picker first
    /// reaches them (many nodes are cut by the TT move or a capture before that).
    quiets_scored: bool,
    prev: [PieceTo; 2],
    /// The squares the side not to move attacks, for the quiet-move history and the bonus for
    /// moving a piece out of an attack by a cheaper piece: computed on first use
    /// ([`Picker::threats`]), as many nodes are cut off before any quiet move is looked at.
    threats: Option<Threats>,
}

/// Whether `mv` takes something or promotes (the moves quiescence search looks at).
#[inline]
pub fn is_tactical(board: &Board, mv: Move) -> bool {
    mv.is_promotion() || captured(board, mv).is_some()
}

/// Ordering bonus of a quiet move that takes a queen, rook or minor piece off a square a
/// cheaper enemy piece attacks to one no such piece attacks (as Stockfish orders quiets; the
/// values are Stockfish's scaled to this history's range, about 0.37 of its).
const ESCAPE_QUEEN: i32 = 18_000;
const ESCAPE_ROOK: i32 = 9_000;
const ESCAPE_MINOR: i32 = 5_500;

#[inline]
fn escape_bonus(board: &Board, mv: Move, t: &Threats) -> i32 {
    let (from, to) = (mv.from(), mv.to());
    match board.piece_on(from).piece_type() {
        PieceType::Queen if t.rook.contains(from) && !t.rook.contains(to) => ESCAPE_QUEEN,
        PieceType::Rook if t.minor.contains(from) && !t.minor.contains(to) => ESCAPE_ROOK,
        PieceType::Knight | PieceType::Bishop if t.pawn.contains(from) && !t.pawn.contains(to) => {
            ESCAPE_MINOR
        }
        _ => 0,
    }
}

/// The score of a quiet move that still waits for its history score.
const UNSCORED_QUIET: i32 = 0;

impl Picker {
    pub fn new() -> Picker {
        Picker {
            list: MoveList::new(),
            scores: [0; 256],
            see_pending: [false; 256],
            next: 0,
            quiets_scored: false,
            prev: [PieceTo::NONE; 2],
            threats: None,
        }
    }

    /// Empties the picker for another node. The scores are not cleared: [`Picker::score`]
    /// writes one for every move before any is read.
    pub fn reset(&mut self) {
        self.list.clear();
        self.next = 0;
        self.quiets_scored = false;
        self.threats = None;
    }

    /// The attacks of the side not to move in `board` (the position being picked for), by
    /// the cheapest kind of attacker; computed once per node, on first use.
    #[inline]
    pub fn threats(&mut self, board: &Board) -> Threats {
        *self
            .threats
            .get_or_insert_with(|| board.threats_by(board.side_to_move().flip()))
    }

    /// Scores the moves in `list`. `killers` and the counter move may be `Move::NONE` or moves
    /// of other positions.
    pub fn score(
        &mut self,
        board: &Board,
        tt_move: Move,
        killers: [Move; 2],
        prev: [PieceTo; 2],
        hist: &Histories,
    ) {
        let counter = hist.counter(prev[0]);
        self.prev = prev;
        for (i, &mv) in self.list.iter().enumerate() {
            self.see_pending[i] = false;
            self.scores[i] = if mv == tt_move {
                TT_MOVE
            } else if is_tactical(board, mv) {
                let victim = captured(board, mv).map_or(0, |p| SEE_VALUE[p.index()]);
                let queen = mv.is_promotion() && mv.promotion_piece() == PieceType::Queen;
                let s =
                    16 * (victim + if queen { SEE_VALUE[4] } else { 0 }) + hist.capture(board, mv);
                // A plain capture is taken as good until `next` checks its exchange; a
                // promotion is good when it makes a queen.
                let good = if mv.is_promotion() {
                    queen
                } else {
                    self.see_pending[i] = true;
                    true
                };
                if good {
                    GOOD_CAPTURE + s
                } else {
                    BAD_CAPTURE + s
                }
            } else if mv == killers[0] {
                KILLER + 2
            } else if mv == killers[1] {
                KILLER + 1
            } else if mv == counter {
                KILLER
            } else {
                UNSCORED_QUIET
            };
        }
    }

    /// The best-scored move not yet handed out, with its class.
    #[inline]
    pub fn next(&mut self, board: &Board, hist: &Histories) -> Option<(Move, Stage)> {
        let n = self.list.len();
        let i = self.next;
        if i >= n {
            return None;
        }
        let mut best = self.select(i, n);
        // The best is a capture not yet checked: if it loses material it joins the bad
        // captures (with the same capture score below the class) and the next best is taken.
        // This hands out the moves in the order that checking every capture up front would.
        while self.see_pending[best] {
            self.see_pending[best] = false;
            if !board.see_ge(self.list.as_slice()[best], 0) {
                self.scores[best] += BAD_CAPTURE - GOOD_CAPTURE;
                best = self.select(i, n);
            }
        }
        if self.scores[best] < KILLER && !self.quiets_scored {
            self.quiets_scored = true;
            let threats = self.threats(board);
            // Only a quiet move can hold `UNSCORED_QUIET` here: every other class is scored
            // at least `1 << 26` away from zero (the capture scores are far smaller).
            for j in i..n {
                if self.scores[j] == UNSCORED_QUIET {
                    let mv = self.list.as_slice()[j];
                    debug_assert!(!is_tactical(board, mv));
                    self.scores[j] = hist.quiet(board, mv, self.prev, threats.all)
                        + escape_bonus(board, mv, &threats);
                }
            }
            best = self.select(i, n);
        }
        self.scores.swap(i, best);
        self.see_pending.swap(i, best);
        let moves = self.list.as_mut_slice();
        moves.swap(i, best);
        self.next += 1;
        let s = self.scores[i];
        let stage = if s >= TT_MOVE {
            Stage::TtMove
        } else if s >= GOOD_CAPTURE - (1 << 26) {
            Stage::GoodCapture
        } else if s >= KILLER {
            Stage::Refutation
        } else if s > BAD_CAPTURE + (1 << 26) {
            Stage::Quiet
        } else {
            Stage::BadCapture
        };
        Some((moves[i], stage))
    }

    /// Drops the quiet moves not yet handed out (late move pruning): the rest of the list
    /// keeps only captures and promotions.
    pub fn skip_quiets(&mut self, board: &Board) {
        let mut keep = self.next;
        for j in self.next..self.list.len() {
            let mv = self.list.as_slice()[j];
            if is_tactical(board, mv) {
                self.list.as_mut_slice()[keep] = mv;
                self.scores[keep] = self.scores[j];
                self.see_pending[keep] = self.see_pending[j];
                keep += 1;
            }
        }
        self.list.truncate(keep);
    }

    #[inline]
    fn select(&self, from: usize, n: usize) -> usize {
        from + first_max(&self.scores[from..n])
    }
}

/// The index of the first of the highest scores in `s` (0 when `s` is empty). A profile of
/// `bench` put 8% of all instructions in this search as one scalar pass (a compare and two
/// conditional moves a score); with AVX2, slices of eight or more go eight scores at a time.
#[inline]
fn first_max(s: &[i32]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if s.len() >= LANES && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU reports AVX2, all `first_max_avx2` needs.
        return unsafe { first_max_avx2(s) };
    }
    first_max_scalar(s)
}

/// [`first_max`] one score at a time, the first of equal scores kept.
fn first_max_scalar(s: &[i32]) -> usize {
    let Some((&first, rest)) = s.split_first() else {
        return 0;
    };
    let (mut best, mut best_score) = (0, first);
    for (j, &x) in rest.iter().enumerate() {
        if x > best_score {
            best = j + 1;
            best_score = x;
        }
    }
    best
}

/// Scores in one AVX2 register.
#[cfg(target_arch = "x86_64")]
const LANES: usize = 8;

/// [`first_max`] for `s.len() >= LANES`: the maximum over blocks of eight (the last few scores
/// one at a time), then the first block that holds it.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn first_max_avx2(s: &[i32]) -> usize {
    use std::arch::x86_64::*;
    let blocks = s.len() / LANES;
    let tail = &s[blocks * LANES..];
    // SAFETY (every load below): block `b < blocks` is `s[b * LANES..(b + 1) * LANES]`, inside
    // the slice; unaligned loads have no alignment requirement.
    let mut m = unsafe { _mm256_loadu_si256(s.as_ptr().cast()) };
    for b in 1..blocks {
        m = _mm256_max_epi32(m, unsafe {
            _mm256_loadu_si256(s.as_ptr().add(b * LANES).cast())
        });
    }
    let h = _mm_max_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    let h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0b01_00_11_10));
    let h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0b10_11_00_01));
    let best = tail.iter().fold(_mm_cvtsi128_si32(h), |m, &x| m.max(x));
    let target = _mm256_set1_epi32(best);
    for b in 0..blocks {
        let v = unsafe { _mm256_loadu_si256(s.as_ptr().add(b * LANES).cast()) };
        let mask = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, target)));
        if mask != 0 {
            return b * LANES + mask.trailing_zeros() as usize;
        }
    }
    blocks * LANES + tail.iter().position(|&x| x == best).unwrap_or(0)
}

impl Default for Picker {
    fn default() -> Self {
        Picker::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::generate;
    use crate::chess::movegen::ALL;

    /// A small deterministic random source for the randomised tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    fn threats(b: &Board) -> crate::chess::Bitboard {
        b.attacks_by(b.side_to_move().flip())
    }

    fn picked(fen: &str, tt: &str, killers: [&str; 2], hist: &Histories) -> Vec<(String, Stage)> {
        picked_with(&mut Picker::new(), fen, tt, killers, hist)
    }

    fn picked_with(
        p: &mut Picker,
        fen: &str,
        tt: &str,
        killers: [&str; 2],
        hist: &Histories,
    ) -> Vec<(String, Stage)> {
        let b = Board::from_fen(fen, false).expect("test FEN");
        let mv = |s: &str| {
            if s.is_empty() {
                Move::NONE
            } else {
                b.parse_uci_move(s).expect("test move")
            }
        };
        generate::<ALL>(&b, &mut p.list);
        let n = p.list.len();
        p.score(
            &b,
            mv(tt),
            [mv(killers[0]), mv(killers[1])],
            [PieceTo::NONE; 2],
            hist,
        );
        let mut out = Vec::new();
        while let Some((m, s)) = p.next(&b, hist) {
            out.push((m.to_uci(false), s));
        }
        assert_eq!(out.len(), n, "every move is handed out once");
        out
    }

    /// The AVX2 arg-max agrees with the scalar one (the first of equal scores) on slices of
    /// every length up to 70, with many ties, and both with a plain definition.
    #[test]
    fn first_max_is_the_first_highest_score() {
        let mut rand = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for len in 0..70 {
            for round in 0..200 {
                // Few distinct values (ties everywhere), or the full range.
                let s: Vec<i32> = (0..len)
                    .map(|_| {
                        let r = rand();
                        if round % 2 == 0 {
                            (r % 4) as i32 - 2
                        } else {
                            r as i32
                        }
                    })
                    .collect();
                let want = s
                    .iter()
                    .enumerate()
                    .fold(None, |acc: Option<(usize, i32)>, (j, &x)| match acc {
                        Some((_, m)) if m >= x => acc,
                        _ => Some((j, x)),
                    })
                    .map_or(0, |(j, _)| j);
                assert_eq!(first_max_scalar(&s), want, "{s:?}");
                assert_eq!(first_max(&s), want, "{s:?}");
                #[cfg(target_arch = "x86_64")]
                if len >= LANES && std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU reports AVX2.
                    assert_eq!(unsafe { first_max_avx2(&s) }, want, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn stages_come_in_order() {
        // The rook takes a free pawn on a7 (good capture); Qxd7+ takes a pawn the king guards
        // (bad capture, last).
        let fen = "4k3/p2p4/8/8/8/8/8/R2QK3 w - - 0 1";
        let hist = Histories::new();
        let out = picked(fen, "e1f2", ["a1b1", ""], &hist);
        assert_eq!(out[0], ("e1f2".to_string(), Stage::TtMove));
        assert_eq!(out[1], ("a1a7".to_string(), Stage::GoodCapture));
        assert_eq!(out[2], ("a1b1".to_string(), Stage::Refutation));
        let last = out.last().expect("moves");
        assert_eq!(last, &("d1d7".to_string(), Stage::BadCapture));
        let stages: Vec<Stage> = out.iter().map(|x| x.1).collect();
        let rank = |s: &Stage| match s {
            Stage::TtMove => 0,
            Stage::GoodCapture => 1,
            Stage::Refutation => 2,
            Stage::Quiet => 3,
            Stage::BadCapture => 4,
        };
        assert!(
            stages.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])),
            "{stages:?}"
        );
    }

    #[test]
    fn a_reused_picker_hands_out_what_a_new_one_does() {
        // The search reuses pickers without clearing their scores; a picker left half-used on
        // a position with many moves (quiets scored, some dropped) must not leak into the next.
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let kb = Board::from_fen(kiwi, false).expect("test FEN");
        let mut hist = Histories::new();
        let mv = |s: &str| kb.parse_uci_move(s).expect("move");
        let bad = [mv("e1d1"), mv("h1f1"), mv("a1b1")];
        hist.update_quiets(
            &kb,
            mv("a2a3"),
            &bad,
            [PieceTo::NONE; 2],
            threats(&kb),
            2000,
        );
        let mut p = Picker::new();
        generate::<ALL>(&kb, &mut p.list);
        p.score(&kb, Move::NONE, [Move::NONE; 2], [PieceTo::NONE; 2], &hist);
        for _ in 0..12 {
            p.next(&kb, &hist).expect("KiwiPete has 48 moves");
        }
        p.skip_quiets(&kb);
        let fens = [
            ("4k3/p2p4/8/8/8/8/8/R2QK3 w - - 0 1", "e1f2", ["a1b1", ""]),
            (kiwi, "e2a6", ["a2a3", "g2g3"]),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "", ["", ""]),
        ];
        for (fen, tt, killers) in fens {
            p.reset();
            let reused = picked_with(&mut p, fen, tt, killers, &hist);
            assert_eq!(reused, picked(fen, tt, killers, &hist), "{fen}");
        }
    }

    #[test]
    fn quiets_follow_history() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
        let b = Board::from_fen(fen, false).expect("test FEN");
        let mut hist = Histories::new();
        let good = b.parse_uci_move("h1h7").expect("move");
        let bad = b.parse_uci_move("h1h2").expect("move");
        hist.update_quiets(&b, good, &[bad], [PieceTo::NONE; 2], threats(&b), 2000);
        let out = picked(fen, "", ["", ""], &hist);
        assert_eq!(out[0].0, "h1h7");
        assert_eq!(out.last().expect("moves").0, "h1h2");
    }

    #[test]
    fn history_saturates() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false).expect("FEN");
        let mv = b.parse_uci_move("h1h7").expect("move");
        let mut hist = Histories::new();
        for _ in 0..10_000 {
            hist.update_quiets(&b, mv, &[], [PieceTo::NONE; 2], threats(&b), 2400);
        }
        let s = hist.quiet(&b, mv, [PieceTo::NONE; 2], threats(&b));
        assert!(
            s > 15_000 && s <= crate::search::history::HISTORY_MAX,
            "{s}"
        );
    }

    /// Captures are checked by SEE only when they come up (lazily): the order must be the one
    /// of checking them all up front. Along random walks from tactical positions, with capture
    /// history learnt on the way: every plain capture handed out as good keeps material by SEE
    /// and every one handed out as bad loses it, queen promotions are good and under-promotions
    /// bad, good captures come by falling capture score before any other class, bad ones by
    /// falling score after every quiet move; a picker reused from node to node agrees with a
    /// new one.
    #[test]
    fn captures_are_classed_by_their_exchange_when_handed_out() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let mut rand = xorshift(0x2545_f491_4f6c_dd1du64);
        let mut hist = Histories::new();
        let mut reused = Picker::new();
        let (mut good_seen, mut bad_seen) = (0, 0);
        for fen in starts {
            let mut b = Board::from_fen(fen, false).expect("test FEN");
            for _ in 0..60 {
                let mut p = Picker::new();
                generate::<ALL>(&b, &mut p.list);
                if p.list.is_empty() {
                    break;
                }
                let moves: Vec<Move> = p.list.iter().copied().collect();
                let tt = if rand().is_multiple_of(3) {
                    moves[rand() as usize % moves.len()]
                } else {
                    Move::NONE
                };
                p.score(&b, tt, [Move::NONE; 2], [PieceTo::NONE; 2], &hist);
                reused.reset();
                generate::<ALL>(&b, &mut reused.list);
                reused.score(&b, tt, [Move::NONE; 2], [PieceTo::NONE; 2], &hist);
                let mut out = Vec::new();
                while let Some(x) = p.next(&b, &hist) {
                    assert_eq!(reused.next(&b, &hist), Some(x), "{}", b.to_fen());
                    out.push(x);
                }
                assert_eq!(out.len(), moves.len());
                let score = |mv: Move| {
                    let victim = captured(&b, mv).map_or(0, |p| SEE_VALUE[p.index()]);
                    let queen = mv.is_promotion() && mv.promotion_piece() == PieceType::Queen;
                    16 * (victim + if queen { SEE_VALUE[4] } else { 0 }) + hist.capture(&b, mv)
                };
                let mut last_good = i32::MAX;
                let mut last_bad = i32::MAX;
                let mut other_seen = false;
                for &(mv, stage) in &out {
                    match stage {
                        Stage::TtMove => assert_eq!(mv, tt),
                        Stage::GoodCapture => {
                            assert!(is_tactical(&b, mv) && !other_seen, "{}", b.to_fen());
                            if mv.is_promotion() {
                                assert_eq!(mv.promotion_piece(), PieceType::Queen);
                            } else {
                                assert!(b.see_ge(mv, 0), "{} {}", b.to_fen(), mv.to_uci(false));
                            }
                            assert!(score(mv) <= last_good);
                            last_good = score(mv);
                            good_seen += 1;
                        }
                        Stage::BadCapture => {
                            assert!(is_tactical(&b, mv));
                            if mv.is_promotion() {
                                assert_ne!(mv.promotion_piece(), PieceType::Queen);
                            } else {
                                assert!(!b.see_ge(mv, 0), "{} {}", b.to_fen(), mv.to_uci(false));
                            }
                            assert!(score(mv) <= last_bad);
                            last_bad = score(mv);
                            bad_seen += 1;
                        }
                        Stage::Refutation | Stage::Quiet => {
                            assert!(!is_tactical(&b, mv) && last_bad == i32::MAX);
                            other_seen = true;
                        }
                    }
                }
                // Learn something about captures, so that scores are not by victim alone.
                let caps: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| is_tactical(&b, m))
                    .collect();
                if let Some(&c) = caps.first() {
                    let bonus = (rand() % 4000) as i32 - 2000;
                    hist.update_capture(&b, c, bonus);
                }
                b = b.make_move(moves[rand() as usize % moves.len()]);
            }
        }
        assert!(good_seen > 100 && bad_seen > 20, "{good_seen} {bad_seen}");
    }

    #[test]
    fn quiet_history_is_split_by_threats_on_origin_and_target() {
        // The same rook move learnt while the rook stood attacked does not carry over to a
        // position where it is not, and the other way round.
        let attacked = Board::from_fen("4k3/8/8/8/8/8/6b1/4K2R w - - 0 1", false).expect("FEN");
        let safe = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false).expect("FEN");
        let mv = safe.parse_uci_move("h1h7").expect("move");
        assert!(threats(&attacked).contains(mv.from()) && !threats(&attacked).contains(mv.to()));
        assert!(!threats(&safe).contains(mv.from()));
        let mut hist = Histories::new();
        hist.update_quiets(
            &attacked,
            mv,
            &[],
            [PieceTo::NONE; 2],
            threats(&attacked),
            2000,
        );
        let none = [PieceTo::NONE; 2];
        assert!(hist.quiet(&attacked, mv, none, threats(&attacked)) > 0);
        assert_eq!(hist.quiet(&safe, mv, none, threats(&safe)), 0);
    }

    #[test]
    fn a_piece_attacked_by_a_cheaper_one_is_moved_away_first() {
        // The knight on d4 stands attacked by the pawn on e5: with no history, its moves to
        // squares no pawn attacks come before every other quiet move, and c6 (attacked by the
        // pawn on b7) does not.
        let fen = "4k3/1p6/8/4p3/3N4/8/8/4K3 w - - 0 1";
        let out = picked(fen, "", ["", ""], &Histories::new());
        let escapes = ["d4b3", "d4b5", "d4c2", "d4e2", "d4e6", "d4f3", "d4f5"];
        let first: Vec<&str> = out.iter().take(7).map(|(m, _)| m.as_str()).collect();
        for m in escapes {
            assert!(first.contains(&m), "{m} in {first:?}");
        }
        let c6 = out.iter().position(|(m, _)| m == "d4c6").expect("d4c6");
        assert!(c6 >= 7, "{out:?}");
    }
}
