//! Texel tuning of the hand-written evaluation (`lazuli texel FILE`).
//!
//! Method (Peter Österlund's, as described on the Chessprogramming Wiki page "Texel's Tuning
//! Method"): for positions labelled with the result of the game they came from, minimise the
//! mean squared difference between the result and `sigmoid(K * eval)`. The evaluation is
//! linear in its positional weights and in its material-plus-piece-square entries
//! ([`hce::Sink`] traces how often each applies), so each position is traced once and the
//! weights are then fitted by gradient descent (Adam) on that linear model. The king-attack
//! curve and the tempo bonus stay fixed.
//!
//! Input: one position per line, `<FEN> | <result>` or `<FEN> | <score> | <result>` (what
//! `lazuli datagen` writes), the result from white's point of view as `1`, `0.5` or `0`, the
//! score a search's in white-relative centipawns. With a score and `lambda` < 1 the target is
//! `lambda * result + (1 - lambda) * sigmoid(K * score)`. Positions in check or with a capture
//! that wins material are skipped: their static evaluation says little about the game.

use crate::chess::movegen::{CAPTURES, generate};
use crate::chess::{Board, Color, MoveList};
use crate::eval::hce::{self, ALL_TERMS, PSQT, Sink, TEMPO};

/// One traced position: the fixed part of the score, the phase, and a slice of the shared
/// term counts.
struct Entry {
    fixed_mg: f32,
    fixed_eg: f32,
    /// Phase / 24, so the middlegame share.
    mg_share: f32,
    /// The endgame share of the score that stands ([`hce::eg_scale`] / 64, taken under the
    /// weights in play: a linear model needs it fixed).
    eg_scale: f32,
    /// +TEMPO or -TEMPO (white's point of view).
    tempo: f32,
    result: f32,
    /// The search score (white's view), NaN when the line has none.
    score: f32,
    /// What the model is fitted to: the result, or a blend with the score.
    target: f32,
    start: u32,
    len: u16,
}

/// Term counts of a position, from white's point of view.
struct Counts {
    n: [i32; ALL_TERMS],
    mg: i32,
    eg: i32,
}

impl Default for Counts {
    fn default() -> Self {
        Counts {
            n: [0; ALL_TERMS],
            mg: 0,
            eg: 0,
        }
    }
}

impl Sink for Counts {
    fn term(&mut self, term: usize, n: i32) {
        self.n[term] += n;
    }
    fn psqt(&mut self, piece: usize, index: usize, sign: i32) {
        self.n[PSQT + piece * 64 + index] += sign;
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

/// Weights as (middlegame, endgame) pairs, numbered as [`hce::PSQT`] says.
pub type Weights = Vec<(f32, f32)>;

/// What `lazuli texel` tunes and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub epochs: usize,
    /// Also tune the material-plus-piece-square entries, not only the positional terms.
    pub psqt: bool,
    /// Weight of the game result in the target (1: the result alone).
    pub lambda: f32,
    /// Adam's step size.
    pub rate: f32,
    /// Gradient threads.
    pub threads: usize,
    /// L2 pull towards the start values: `l2 * (w - start)^2` per weight (in squared
    /// centipawns, added to the mean squared error), so that entries the data seldom
    /// touches stay near where they were.
    pub l2: f32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            epochs: 2000,
            psqt: false,
            lambda: 1.0,
            rate: 0.5,
            threads: 1,
            l2: 0.0,
        }
    }
}

/// Parses the result field: `1`, `0.5`, `0`, or the PGN forms.
fn parse_result(s: &str) -> Option<f32> {
    match s {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => s.parse::<f32>().ok().filter(|r| (0.0..=1.0).contains(r)),
    }
}

impl DataSet {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Parses `<FEN> | [<score> |] <result>` lines; returns the usable positions and what
    /// was skipped.
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
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let parsed = match fields.as_slice() {
                [fen, result] => parse_result(result).map(|r| (*fen, f32::NAN, r)),
                [fen, score, result] => score
                    .parse::<i32>()
                    .ok()
                    .zip(parse_result(result))
                    .map(|(s, r)| (*fen, s as f32, r)),
                _ => None,
            };
            let Some((fen, score, result)) = parsed else {
                skipped.malformed += 1;
                continue;
            };
            let Ok(board) = Board::from_fen(fen, false) else {
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
            set.push(&board, result, score);
        }
        (set, skipped)
    }

    fn push(&mut self, board: &Board, result: f32, score: f32) {
        let mut c = Counts::default();
        let phase = hce::trace(board, &mut c);
        let eg: i32 = c.eg
            + c.n
                .iter()
                .zip(WEIGHTS_IN_PLAY.iter())
                .map(|(&n, w)| n * w.1)
                .sum::<i32>();
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
            eg_scale: hce::eg_scale(board, eg) as f32 / 64.0,
            tempo: tempo as f32,
            result,
            score,
            target: result,
            start,
            len: (self.terms.len() as u32 - start) as u16,
        });
    }

    /// Sets every target to `lambda * result + (1 - lambda) * sigmoid(k * score)` (the result
    /// alone where a line had no score).
    pub fn set_targets(&mut self, k: f32, lambda: f32) {
        for e in &mut self.entries {
            e.target = if e.score.is_nan() {
                e.result
            } else {
                lambda * e.result + (1.0 - lambda) * sigmoid(k * e.score)
            };
        }
    }

    fn counts(&self, e: &Entry) -> &[(u16, f32)] {
        &self.terms[e.start as usize..e.start as usize + e.len as usize]
    }

    /// The linear model's evaluation of entry `e` (white's point of view) under `w`.
    fn eval(&self, e: &Entry, w: &[(f32, f32)]) -> f32 {
        let (mut mg, mut eg) = (e.fixed_mg, e.fixed_eg);
        for &(t, n) in self.counts(e) {
            mg += w[t as usize].0 * n;
            eg += w[t as usize].1 * n;
        }
        mg * e.mg_share + eg * e.eg_scale * (1.0 - e.mg_share) + e.tempo
    }

    /// Mean squared error of the predicted results over entries `range`.
    pub fn error(&self, w: &[(f32, f32)], k: f32, range: std::ops::Range<usize>) -> f64 {
        let n = range.len().max(1) as f64;
        let sum: f64 = self.entries[range]
            .iter()
            .map(|e| {
                let d = e.target - sigmoid(k * self.eval(e, w));
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

    /// The gradient of the summed squared error over `entries` (not yet divided by their
    /// number).
    fn gradient(&self, entries: &[Entry], w: &[(f32, f32)], k: f32) -> Vec<(f64, f64)> {
        let mut grad = vec![(0.0f64, 0.0f64); w.len()];
        for e in entries {
            let s = sigmoid(k * self.eval(e, w));
            // d/d(eval) of (target - s)^2.
            let d = -2.0 * (e.target - s) * s * (1.0 - s) * k * SIGMOID_SCALE;
            let (gm, ge) = (d * e.mg_share, d * e.eg_scale * (1.0 - e.mg_share));
            for &(t, c) in self.counts(e) {
                grad[t as usize].0 += (gm * c) as f64;
                grad[t as usize].1 += (ge * c) as f64;
            }
        }
        grad
    }

    /// Full-batch gradient descent (Adam) on the weights over entries `range`; weights whose
    /// `frozen` flag is set keep their start values. `progress` hears of every epoch, with the
    /// error on `range` every twentieth of the run.
    pub fn tune(
        &self,
        start: &[(f32, f32)],
        k: f32,
        options: &Options,
        frozen: &[bool],
        range: std::ops::Range<usize>,
        progress: &mut dyn FnMut(usize, Option<f64>),
    ) -> Weights {
        let report_every = (options.epochs / 20).max(1);
        let mut w = start.to_vec();
        let mut m = vec![(0.0f32, 0.0f32); w.len()];
        let mut v = vec![(0.0f32, 0.0f32); w.len()];
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let n = range.len().max(1) as f32;
        let entries = &self.entries[range.clone()];
        let chunk = entries.len().div_ceil(options.threads.max(1)).max(1);
        for epoch in 1..=options.epochs {
            let parts: Vec<Vec<(f64, f64)>> = std::thread::scope(|s| {
                let handles: Vec<_> = entries
                    .chunks(chunk)
                    .map(|part| {
                        let w = &w;
                        s.spawn(move || self.gradient(part, w, k))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            let mut grad = vec![(0.0f64, 0.0f64); w.len()];
            for part in parts {
                for (g, p) in grad.iter_mut().zip(part) {
                    g.0 += p.0;
                    g.1 += p.1;
                }
            }
            let c1 = 1.0 - b1.powi(epoch as i32);
            let c2 = 1.0 - b2.powi(epoch as i32);
            let step = |g: f64, w: &mut f32, m: &mut f32, v: &mut f32| {
                let g = g as f32 / n;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= options.rate * (*m / c1) / ((*v / c2).sqrt() + eps);
            };
            for i in 0..w.len() {
                if frozen.get(i).copied().unwrap_or(false) {
                    continue;
                }
                // The pull's gradient, scaled up by n as the data gradient is divided by it.
                let pull = |w: f32, s: f32| (2.0 * options.l2 * (w - s) * n) as f64;
                let (gm, ge) = (
                    grad[i].0 + pull(w[i].0, start[i].0),
                    grad[i].1 + pull(w[i].1, start[i].1),
                );
                step(gm, &mut w[i].0, &mut m[i].0, &mut v[i].0);
                step(ge, &mut w[i].1, &mut m[i].1, &mut v[i].1);
            }
            let error = (epoch % report_every == 0 || epoch == options.epochs)
                .then(|| self.error(&w, k, range.clone()));
            progress(epoch, error);
        }
        w
    }
}

/// The weights in play, in the tuner's numbering.
static WEIGHTS_IN_PLAY: std::sync::LazyLock<Vec<(i32, i32)>> =
    std::sync::LazyLock::new(hce::weights);

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
pub fn current_weights() -> Weights {
    hce::weights()
        .iter()
        .map(|&(a, b)| (a as f32, b as f32))
        .collect()
}

const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// Piece-square tables of `w` in the source's layout (material subtracted), middlegame then
/// endgame.
fn format_psqt(w: &[(f32, f32)]) -> String {
    let material = hce::material();
    let mut out = String::new();
    for (phase, name) in [(0, "MG_PST"), (1, "EG_PST")] {
        out.push_str(&format!("const {name}: [[i32; 64]; 6] = [\n"));
        for (p, piece) in PIECE_NAMES.iter().enumerate() {
            out.push_str(&format!("    [ // {piece}\n"));
            for row in 0..8 {
                out.push_str("       ");
                for col in 0..8 {
                    let (mg, eg) = w[PSQT + p * 64 + row * 8 + col];
                    let v = if phase == 0 {
                        mg - material[p].0 as f32
                    } else {
                        eg - material[p].1 as f32
                    };
                    out.push_str(&format!("{:>5},", v.round() as i32));
                }
                out.push('\n');
            }
            out.push_str("    ],\n");
        }
        out.push_str("];\n");
    }
    out
}

/// `lazuli texel FILE`: trace, fit K, tune, print the error before and after on a held-out
/// tenth of the positions, and the new tables in the source's layout.
pub fn run(text: &str, options: &Options, progress: &mut dyn FnMut(usize, Option<f64>)) -> String {
    let (mut set, skipped) = DataSet::parse(text);
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
    // The last tenth of the positions is held out to check the fit generalises. The input
    // keeps each game's positions together (datagen and the data script do), so that tenth
    // is whole games: a split inside games would share results between the two parts and
    // hide over-fitting.
    let split = set.len() - set.len() / 10;
    let train = 0..split;
    let test = split..set.len();
    let w0 = current_weights();
    let k = set.fit_k(&w0, train.clone());
    set.set_targets(k, options.lambda);
    let before = (
        set.error(&w0, k, train.clone()),
        set.error(&w0, k, test.clone()),
    );
    let frozen: Vec<bool> = (0..ALL_TERMS).map(|i| i >= PSQT && !options.psqt).collect();
    let w = set.tune(&w0, k, options, &frozen, train.clone(), progress);
    let after = (set.error(&w, k, train), set.error(&w, k, test));
    out.push_str(&format!(
        "K {k:.3} lambda {}\nerror before: train {:.6} held-out {:.6}\nerror after:  train {:.6} held-out {:.6}\n",
        options.lambda, before.0, before.1, after.0, after.1
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
    if options.psqt {
        out.push_str(&format_psqt(&w));
    }
    out
}

/// Tune the hand-written evaluation's weights on '<FEN> | [<score> |] <result>' lines
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The positions (datagen --format text, scripts/texel_data.py)
    pub file: String,
    /// Epochs of full-batch gradient descent
    #[arg(default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub epochs: u64,
    /// Tune the material and piece-square tables too
    #[arg(long)]
    pub psqt: bool,
    /// Weight of the game result in the target (0..1)
    #[arg(long, default_value_t = 1.0, value_parser = super::ranged(0.0f32, 1.0))]
    pub lambda: f32,
    /// L2 pull towards the start values (0..1)
    #[arg(long, default_value_t = 0.0, value_parser = super::ranged(0.0f32, 1.0))]
    pub l2: f32,
    /// Adam's step size (above 0, at most 100)
    #[arg(long, default_value_t = 0.5, value_parser = rate)]
    pub rate: f32,
    /// Gradient threads (default: all logical cores)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// No progress on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

fn rate(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x <= 100.0 => Ok(x),
        _ => Err("a number above 0, at most 100".to_string()),
    }
}

/// `lazuli texel`: the command.
pub fn command(args: Args) -> std::process::ExitCode {
    let options = Options {
        epochs: args.epochs as usize,
        psqt: args.psqt,
        lambda: args.lambda,
        l2: args.l2,
        rate: args.rate,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("lazuli texel: cannot read {}: {e}", args.file);
            return std::process::ExitCode::from(1);
        }
    };
    let bar = super::progress::Progress::new(args.epochs, "epochs", args.quiet);
    let mut progress = |epoch: usize, error: Option<f64>| {
        if let Some(e) = error {
            if bar.has_bar() {
                bar.update(epoch as u64, format!("train error {e:.6}"));
            } else {
                bar.log(&format!("epoch {epoch}/{} train error {e:.6}", args.epochs));
            }
        } else {
            bar.advance(epoch as u64);
        }
    };
    let report = run(&text, &options, &mut progress);
    bar.finish();
    print!("{report}");
    std::process::ExitCode::SUCCESS
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
            set.push(&board, 0.5, f32::NAN);
            let model = set.eval(&set.entries[0], &w);
            let real = crate::eval::hce::evaluate(&board);
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
    fn scored_lines_parse_and_blend_their_targets() {
        let text = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 400 | 1.0
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | x | 1.0
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1 | 2 | 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0-1
";
        let (mut set, skipped) = DataSet::parse(text);
        assert_eq!(set.len(), 2);
        assert_eq!(skipped.malformed, 2);
        assert_eq!(set.entries[0].target, 1.0);
        set.set_targets(1.0, 0.5);
        // sigmoid(400 cp) = 10/11; half of it plus half of the result.
        assert!((set.entries[0].target - (0.5 + 0.5 * 10.0 / 11.0)).abs() < 1e-4);
        // A line without a score keeps its result.
        assert_eq!(set.entries[1].target, 0.0);
    }

    #[test]
    fn frozen_weights_keep_their_values() {
        let mut text = String::new();
        for _ in 0..50 {
            text.push_str("4k3/pppn4/8/8/8/8/PPP5/2B1KB2 w - - 0 1 | 1\n");
            text.push_str("2b1kb2/ppp5/8/8/8/8/PPPN4/4K3 w - - 0 1 | 0\n");
        }
        let (set, _) = DataSet::parse(&text);
        let w0 = current_weights();
        let frozen: Vec<bool> = (0..ALL_TERMS).map(|i| i >= PSQT).collect();
        let options = Options {
            epochs: 50,
            ..Options::default()
        };
        let w = set.tune(&w0, 1.0, &options, &frozen, 0..set.len(), &mut |_, _| {});
        assert_eq!(&w[PSQT..], &w0[PSQT..]);
        assert_ne!(w[hce::BISHOP_PAIR], w0[hce::BISHOP_PAIR]);
        // With the tables free too, some entry moves.
        let w = set.tune(&w0, 1.0, &options, &[], 0..set.len(), &mut |_, _| {});
        assert_ne!(&w[PSQT..], &w0[PSQT..]);
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
        let options = Options {
            epochs: 200,
            rate: 1.0,
            threads: 2,
            ..Options::default()
        };
        let w = set.tune(&w0, 1.0, &options, &[], 0..set.len(), &mut |_, _| {});
        assert!(w[hce::BISHOP_PAIR].1 > w0[hce::BISHOP_PAIR].1 + 20.0);
        assert!(set.error(&w, 1.0, 0..400) < set.error(&w0, 1.0, 0..400));
    }
}
