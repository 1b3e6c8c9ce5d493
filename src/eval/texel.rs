//! Texel tuning of the positional weights of the hand-written evaluation (`lazuli texel FILE`).
//!
//! Method (Peter Österlund's, as described on the Chessprogramming Wiki page "Texel's Tuning
//! Method"): for positions labelled with the result of the game they came from, minimise the
//! mean squared difference between the result and `sigmoid(K * eval)`. The evaluation is
//! linear in the positional weights ([`hce::Sink`] traces how often each term applies), so
//! each position is traced once and the weights are then fitted by gradient descent (Adam)
//! on that linear model. The PeSTO tables and the king-attack curve stay fixed.
//!
//! Input: one position per line, `<FEN> | <result>`, the result from white's point of view as
//! `1`, `0.5` or `0` (`scripts/texel_data.py` writes such a file from PGN games). Positions in
//! check or with a capture that wins material are skipped: their static evaluation says little
//! about the game.

use super::hce::{self, Sink, TEMPO, TERMS};
use crate::chess::movegen::{CAPTURES, generate};
use crate::chess::{Board, Color, MoveList};

/// One traced position: the fixed part of the score, the phase, and a slice of the shared
/// term counts.
struct Entry {
    fixed_mg: f32,
    fixed_eg: f32,
    /// Phase / 24, so the middlegame share.
    mg_share: f32,
    /// +TEMPO or -TEMPO (white's point of view).
    tempo: f32,
    result: f32,
    start: u32,
    len: u16,
}

/// Term counts of a position, from white's point of view.
#[derive(Default)]
struct Counts {
    n: [i32; TERMS],
    mg: i32,
    eg: i32,
}

impl Sink for Counts {
    fn term(&mut self, term: usize, n: i32) {
        self.n[term] += n;
    }
    fn fixed(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The traced data set: entries plus their (term, count) pairs in one array.
pub struct DataSet {
    entries: Vec<Entry>,
    terms: Vec<(u16, f32)>,
}

/// Why a line of the input was not used.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Skipped {
    pub malformed: usize,
    pub in_check: usize,
    pub winning_capture: usize,
}

impl DataSet {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Parses `<FEN> | <result>` lines; returns the usable positions and what was skipped.
    pub fn parse(text: &str) -> (DataSet, Skipped) {
        let mut set = DataSet {
            entries: Vec::new(),
            terms: Vec::new(),
        };
        let mut skipped = Skipped::default();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((fen, result)) = line.rsplit_once('|') else {
                skipped.malformed += 1;
                continue;
            };
            let result = match result.trim().parse::<f32>() {
                Ok(r) if (0.0..=1.0).contains(&r) => r,
                _ => {
                    skipped.malformed += 1;
                    continue;
                }
            };
            let Ok(board) = Board::from_fen(fen.trim(), false) else {
                skipped.malformed += 1;
                continue;
            };
            if board.in_check() {
                skipped.in_check += 1;
                continue;
            }
            if has_winning_capture(&board) {
                skipped.winning_capture += 1;
                continue;
            }
            set.push(&board, result);
        }
        (set, skipped)
    }

    fn push(&mut self, board: &Board, result: f32) {
        let mut c = Counts::default();
        let phase = hce::trace(board, &mut c);
        let start = self.terms.len() as u32;
        for (t, &n) in c.n.iter().enumerate() {
            if n != 0 {
                self.terms.push((t as u16, n as f32));
            }
        }
        let tempo = if board.side_to_move() == Color::White {
            TEMPO
        } else {
            -TEMPO
        };
        self.entries.push(Entry {
            fixed_mg: c.mg as f32,
            fixed_eg: c.eg as f32,
            mg_share: phase as f32 / 24.0,
            tempo: tempo as f32,
            result,
            start,
            len: (self.terms.len() as u32 - start) as u16,
        });
    }

    /// The linear model's evaluation of entry `e` (white's point of view) under `w`.
    fn eval(&self, e: &Entry, w: &[(f32, f32)]) -> f32 {
        let (mut mg, mut eg) = (e.fixed_mg, e.fixed_eg);
        for &(t, n) in &self.terms[e.start as usize..e.start as usize + e.len as usize] {
            mg += w[t as usize].0 * n;
            eg += w[t as usize].1 * n;
        }
        mg * e.mg_share + eg * (1.0 - e.mg_share) + e.tempo
    }

    /// Mean squared error of the predicted results over entries `range`.
    pub fn error(&self, w: &[(f32, f32)], k: f32, range: std::ops::Range<usize>) -> f64 {
        let n = range.len().max(1) as f64;
        let sum: f64 = self.entries[range]
            .iter()
            .map(|e| {
                let d = e.result - sigmoid(k * self.eval(e, w));
                (d * d) as f64
            })
            .sum();
        sum / n
    }

    /// The scaling constant K that best fits the current weights (golden-section search).
    pub fn fit_k(&self, w: &[(f32, f32)], range: std::ops::Range<usize>) -> f32 {
        let (mut lo, mut hi) = (0.1f32, 4.0f32);
        let g = 0.618_034f32;
        for _ in 0..40 {
            let a = hi - g * (hi - lo);
            let b = lo + g * (hi - lo);
            if self.error(w, a, range.clone()) < self.error(w, b, range.clone()) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    }

    /// Full-batch gradient descent (Adam) on the weights over entries `range`.
    pub fn tune(
        &self,
        start: &[(f32, f32)],
        k: f32,
        epochs: usize,
        rate: f32,
        range: std::ops::Range<usize>,
    ) -> Vec<(f32, f32)> {
        let mut w = start.to_vec();
        let mut m = vec![(0.0f32, 0.0f32); w.len()];
        let mut v = vec![(0.0f32, 0.0f32); w.len()];
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let n = range.len().max(1) as f32;
        for epoch in 1..=epochs {
            let mut grad = vec![(0.0f64, 0.0f64); w.len()];
            for e in &self.entries[range.clone()] {
                let s = sigmoid(k * self.eval(e, &w));
                // d/d(eval) of (result - s)^2.
                let d = -2.0 * (e.result - s) * s * (1.0 - s) * k * SIGMOID_SCALE;
                let (gm, ge) = (d * e.mg_share, d * (1.0 - e.mg_share));
                for &(t, c) in &self.terms[e.start as usize..e.start as usize + e.len as usize] {
                    grad[t as usize].0 += (gm * c) as f64;
                    grad[t as usize].1 += (ge * c) as f64;
                }
            }
            let c1 = 1.0 - b1.powi(epoch as i32);
            let c2 = 1.0 - b2.powi(epoch as i32);
            let step = |g: f64, w: &mut f32, m: &mut f32, v: &mut f32| {
                let g = g as f32 / n;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= rate * (*m / c1) / ((*v / c2).sqrt() + eps);
            };
            for i in 0..w.len() {
                step(grad[i].0, &mut w[i].0, &mut m[i].0, &mut v[i].0);
                step(grad[i].1, &mut w[i].1, &mut m[i].1, &mut v[i].1);
            }
        }
        w
    }
}

/// ln(10) / 400: `sigmoid(x)` is the expected score of an advantage of `x` centipawns.
const SIGMOID_SCALE: f32 = std::f32::consts::LN_10 / 400.0;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x * SIGMOID_SCALE).exp())
}

fn has_winning_capture(board: &Board) -> bool {
    let mut list = MoveList::new();
    generate::<CAPTURES>(board, &mut list);
    list.iter()
        .any(|&mv| mv.is_promotion() || board.see_ge(mv, 1))
}

/// The weights in play, as floats.
pub fn current_weights() -> Vec<(f32, f32)> {
    hce::weights()
        .iter()
        .map(|&(a, b)| (a as f32, b as f32))
        .collect()
}

/// `lazuli texel FILE [EPOCHS]`: trace, fit K, tune, print the error before and after on a
/// held-out tenth of the positions, and the new table in the source's layout.
pub fn run(text: &str, epochs: usize) -> String {
    let (set, skipped) = DataSet::parse(text);
    let mut out = format!(
        "positions {} (skipped: {} malformed, {} in check, {} with a winning capture)\n",
        set.len(),
        skipped.malformed,
        skipped.in_check,
        skipped.winning_capture
    );
    if set.len() < 100 {
        out.push_str("too few positions to tune\n");
        return out;
    }
    // Every tenth position is held out to check the fit generalises. The input should be
    // shuffled (the data script does that), so the split is not by game.
    let split = set.len() - set.len() / 10;
    let train = 0..split;
    let test = split..set.len();
    let w0 = current_weights();
    let k = set.fit_k(&w0, train.clone());
    let before = (
        set.error(&w0, k, train.clone()),
        set.error(&w0, k, test.clone()),
    );
    let w = set.tune(&w0, k, epochs, 0.5, train.clone());
    let after = (set.error(&w, k, train), set.error(&w, k, test));
    out.push_str(&format!(
        "K {k:.3}\nerror before: train {:.6} held-out {:.6}\nerror after:  train {:.6} held-out {:.6}\n",
        before.0, before.1, after.0, after.1
    ));
    for (i, name) in hce::TERM_NAMES.iter().enumerate() {
        out.push_str(&format!(
            "({:>4}, {:>4}), // {name} (was {}, {})\n",
            w[i].0.round() as i32,
            w[i].1.round() as i32,
            w0[i].0,
            w0[i].1
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/1P3PPP/R5K1 b - - 0 1",
        "2r3k1/1q3pp1/4p2p/p2nN3/Pp1P4/1P3Q1P/5PP1/2R3K1 w - - 0 30",
    ];

    #[test]
    fn linear_model_reproduces_the_evaluation() {
        // The tuner optimises a model of the evaluation; it must be the evaluation, up to the
        // integer division by 24 in the real one.
        let w = current_weights();
        for fen in FENS {
            let board = Board::from_fen(fen, false).unwrap();
            let mut set = DataSet {
                entries: Vec::new(),
                terms: Vec::new(),
            };
            set.push(&board, 0.5);
            let model = set.eval(&set.entries[0], &w);
            let real = crate::eval::evaluate(&board);
            let real_white = if board.side_to_move() == Color::White {
                real
            } else {
                -real
            };
            assert!(
                (model - real_white as f32).abs() <= 1.0,
                "{fen}: model {model} real {real_white}"
            );
        }
    }

    #[test]
    fn parse_skips_bad_lines_checks_and_hanging_pieces() {
        let text = "\
not a fen | 1
8/8/8/8/8/8/8/8 w - - 0 1 | 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 2
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 | 0
rnbqkb1r/pppppppp/8/3n4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 | 0.5
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1
";
        let (set, skipped) = DataSet::parse(text);
        assert_eq!(set.len(), 1);
        assert_eq!(
            skipped,
            Skipped {
                malformed: 4,
                in_check: 1,
                winning_capture: 1
            }
        );
    }

    #[test]
    fn tuning_moves_a_weight_towards_the_results() {
        // White wins every game where it has the bishop pair (and the pair is otherwise worth
        // little in these positions): tuning must raise the bishop-pair weight.
        let mut text = String::new();
        for _ in 0..200 {
            text.push_str("4k3/pppn4/8/8/8/8/PPP5/2B1KB2 w - - 0 1 | 1\n");
            text.push_str("2b1kb2/ppp5/8/8/8/8/PPPN4/4K3 w - - 0 1 | 0\n");
        }
        let (set, _) = DataSet::parse(&text);
        assert_eq!(set.len(), 400);
        let w0 = current_weights();
        let w = set.tune(&w0, 1.0, 200, 1.0, 0..set.len());
        assert!(w[hce::BISHOP_PAIR].1 > w0[hce::BISHOP_PAIR].1 + 20.0);
        assert!(set.error(&w, 1.0, 0..400) < set.error(&w0, 1.0, 0..400));
    }
}
