//! `lazuli train`: a CPU trainer for the network of [`crate::eval::nnue`].
//!
//! A hand-written sparse trainer: each position has at most 32 active inputs per perspective,
//! so the feature transformer's forward pass is a sum of a few rows and its gradient touches
//! only those rows. Threads split each batch and keep their own gradient; the sums are
//! applied by AdamW (decoupled weight decay) with a cosine learning-rate decay. Weights are
//! clipped to `nnue::WEIGHT_CLIP` after every step so the quantised network cannot overflow.
//!
//! Target: `lambda * result + (1 - lambda) * sigmoid(score / score_scale)`, both from the side
//! to move's point of view; loss: mean squared error of `sigmoid(output / out_scale)` against
//! it, the output in centipawns at the trainer's `SCALE` ([`Target`]; both scales are 400
//! unless told, the output's following the header of a network it starts from). The network
//! is written at the header scale where its output reads in the scores' centipawns. The input
//! encoding is `nnue::feature`, the one the engine uses.
//!
//! Why not `acyclib` (bullet's ML library on crates.io): tried first, as the NNUE issue asks, in
//! a scratch project with this architecture (768 -> 128) x 2 -> 1 SCReLU, AdamW, batch 16,384,
//! 19 active inputs per perspective (the mean of our data). Same run, 2-core AMD EPYC, three
//! alternations, medians: acyclib 0.3.0 CPU device 557k positions/s (its CPU backend is
//! single-threaded by design: a reference backend, the fast ones are CUDA/HIP); this trainer
//! 390k positions/s on 1 thread and 728k on 2 threads (x1.31 acyclib here, and it keeps
//! scaling with cores where acyclib's CPU device cannot). So this trainer stays.

use crate::chess::{Board, Color};
use crate::eval::nnue::{
    self, HIDDEN, INPUTS, Network, OUTPUT_BUCKETS, QA, QB, SCALE, WEIGHT_CLIP, output_bucket,
};
use crate::tools::datagen::Rng;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

/// Most pieces on a board, so most active inputs per perspective.
const MAX_FEATURES: usize = 32;

/// One training position, from the side to move's point of view.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Active inputs: `[side to move's perspective, other perspective][i]`, `n` of each.
    pub feats: [[u16; MAX_FEATURES]; 2],
    pub n: u8,
    /// Search score in centipawns for the side to move.
    pub score: i16,
    /// Game result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

impl Sample {
    /// The position `board` with its white-relative score and result (1.0 / 0.5 / 0.0).
    pub fn new(board: &Board, white_score: i32, white_result: f32) -> Sample {
        let stm = board.side_to_move();
        let mut feats = [[0u16; MAX_FEATURES]; 2];
        let mut n = 0;
        let kb = [stm, stm.flip()].map(|c| nnue::king_bucket(c, board.king(c)));
        for (piece, sq) in nnue::pieces(board).take(MAX_FEATURES) {
            feats[0][n] = nnue::feature(stm, piece, sq, kb[0]) as u16;
            feats[1][n] = nnue::feature(stm.flip(), piece, sq, kb[1]) as u16;
            n += 1;
        }
        let (score, result) = if stm == Color::White {
            (white_score, white_result)
        } else {
            (-white_score, 1.0 - white_result)
        };
        Sample {
            feats,
            n: n as u8,
            score: score.clamp(-32000, 32000) as i16,
            result: (result * 2.0).round().clamp(0.0, 2.0) as u8,
        }
    }

    /// The same position mirrored left to right (files a-h swapped). The inputs do not see
    /// castling rights, and without them chess is symmetric under this mirror, so the
    /// mirrored sample is as true as the original: a way to double scarce data. (The king
    /// moves to the mirrored square, so each input moves to the mirrored king bucket too.)
    pub fn mirrored(&self) -> Sample {
        let mut m = *self;
        for side in &mut m.feats {
            for f in &mut side[..self.n as usize] {
                *f = nnue::mirror_feature(*f as usize) as u16;
            }
        }
        m
    }

    fn target(&self, t: Target) -> f32 {
        let wdl = self.result as f32 / 2.0;
        t.lambda * wdl + (1.0 - t.lambda) * sigmoid(self.score as f32 / t.score_scale)
    }
}

/// What the network learns and how its output is read as an expected score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Weight of the game result; the rest is the search score's.
    pub lambda: f32,
    /// The search score's centipawns per unit of the sigmoid: `sigmoid(score / score_scale)`
    /// is the score's share of the target.
    pub score_scale: f32,
    /// The network output's centipawns (at the trainer's `SCALE`) per unit of the sigmoid.
    pub out_scale: f32,
}

/// The `--out-scale` that keeps the frame of a network whose header scale is `header`: its
/// outputs (at `SCALE`) are `SCALE / header` times its centipawns, and fitted to scores on
/// `score_scale` they stay so. Without a network, the trainer's own frame (header `SCALE`).
pub fn out_scale_for(score_scale: f64, header: Option<i32>) -> f64 {
    score_scale * SCALE as f64 / header.unwrap_or(SCALE) as f64
}

impl Target {
    /// `lambda` with both scales at `SCALE`: the trainer's frame, where an output of `x`
    /// centipawns is fitted to a score of `x`.
    pub fn new(lambda: f32) -> Target {
        Target {
            lambda,
            score_scale: SCALE as f32,
            out_scale: SCALE as f32,
        }
    }

    /// The header scale of a network trained on this target: the one at which its output reads
    /// in the score's centipawns (`SCALE * score_scale / out_scale`, rounded).
    pub fn header_scale(&self) -> i32 {
        (SCALE as f64 * self.score_scale as f64 / self.out_scale as f64).round() as i32
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Positions read from data files, in file order, grouped into games.
#[derive(Default)]
pub struct Dataset {
    pub samples: Vec<Sample>,
    /// Index of each game's first sample.
    pub game_starts: Vec<usize>,
    /// Lines that could not be read (kept out, counted).
    pub bad_lines: u64,
    /// Positions left out by the filters.
    pub filtered: u64,
    /// The hand-written evaluation of each sample (side to move), a baseline for the loss.
    pub hce: Vec<i16>,
}

impl Dataset {
    /// Reads `<FEN> | <score> | <result>` lines (white's point of view), keeping positions at
    /// ply `min_ply` or later. A new game starts wherever the ply count does not grow.
    pub fn read_text(&mut self, reader: impl BufRead, min_ply: u32) -> std::io::Result<()> {
        let mut last_ply = u32::MAX;
        for line in reader.lines() {
            let line = line?;
            let mut parts = line.split('|').map(str::trim);
            let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
            else {
                self.bad_lines += 1;
                continue;
            };
            let (Ok(board), Ok(score), Ok(result)) = (
                Board::from_fen(fen, false),
                score.parse::<i32>(),
                result.parse::<f32>(),
            ) else {
                self.bad_lines += 1;
                continue;
            };
            if !(0.0..=1.0).contains(&result) {
                self.bad_lines += 1;
                continue;
            }
            let ply = crate::tools::data::ply_of(&board) as u32;
            if ply <= last_ply {
                self.game_starts.push(self.samples.len());
            }
            last_ply = ply;
            if ply < min_ply || board.in_check() {
                self.filtered += 1;
                continue;
            }
            self.samples.push(Sample::new(&board, score, result));
            self.hce
                .push(crate::eval::hce::evaluate(&board).clamp(-32000, 32000) as i16);
        }
        Ok(())
    }

    /// Reads viriformat games, keeping the positions that pass the training filters
    /// (`data::trainable`: ply `min_ply` or later, not in check, quiet move, no mate or
    /// tablebase score).
    pub fn read_games(
        &mut self,
        input: &mut dyn BufRead,
        min_ply: usize,
    ) -> Result<u64, crate::tools::data::DataError> {
        crate::tools::data::for_each_game(input, |g| {
            self.game_starts.push(self.samples.len());
            let ply0 = crate::tools::data::ply_of(&g.start);
            let result = g.white_result();
            for (i, (board, mv, score)) in g.positions().enumerate() {
                if !crate::tools::data::trainable(&board, mv, score, ply0 + i, min_ply) {
                    self.filtered += 1;
                    continue;
                }
                self.samples.push(Sample::new(&board, score as i32, result));
                self.hce
                    .push(crate::eval::hce::evaluate(&board).clamp(-32000, 32000) as i16);
            }
        })
    }

    /// Splits off the last `fraction` of the games (whole games) as a validation set; the
    /// third part is the hand-written evaluation of the validation positions.
    pub fn split(mut self, fraction: f64) -> (Vec<Sample>, Vec<Sample>, Vec<i16>) {
        let games = self.game_starts.len();
        let held = ((games as f64) * fraction).round() as usize;
        if held == 0 || held >= games {
            return (self.samples, Vec::new(), Vec::new());
        }
        let cut = self.game_starts[games - held];
        let val = self.samples.split_off(cut);
        let hce = self.hce.split_off(cut);
        (self.samples, val, hce)
    }
}

/// The loss of a fixed evaluation (centipawns for the side to move) on `samples`: the
/// baseline a network has to beat.
pub fn eval_loss(samples: &[Sample], evals: &[i16], t: Target) -> f64 {
    let total: f64 = samples
        .iter()
        .zip(evals)
        .map(|(s, &e)| {
            let err = sigmoid(e as f32 / t.score_scale) - s.target(t);
            (err * err) as f64
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Float parameters, laid out flat: feature transformer weights (`INPUTS x HIDDEN`, by input),
/// its bias, the output weights (`2 x HIDDEN` per output bucket), the output biases (one per
/// bucket).
pub const FT_W: usize = 0;
pub const FT_B: usize = FT_W + INPUTS * HIDDEN;
pub const OUT_W: usize = FT_B + HIDDEN;
pub const OUT_B: usize = OUT_W + OUTPUT_BUCKETS * 2 * HIDDEN;
pub const PARAMS: usize = OUT_B + OUTPUT_BUCKETS;

/// A float network (the trainer's view of it).
#[derive(Clone)]
pub struct FloatNet {
    pub p: Vec<f32>,
}

impl FloatNet {
    /// Small random weights, seeded.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut p = vec![0.0f32; PARAMS];
        for w in &mut p[FT_W..FT_B] {
            *w = uniform(0.1);
        }
        for w in &mut p[OUT_W..OUT_B] {
            *w = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt());
        }
        FloatNet { p }
    }

    /// The hidden layers (before activation) of a sample's two perspectives.
    #[inline]
    fn accumulate(&self, s: &Sample) -> [[f32; HIDDEN]; 2] {
        let mut acc = [[0.0f32; HIDDEN]; 2];
        let bias = &self.p[FT_B..FT_B + HIDDEN];
        for (side, a) in acc.iter_mut().enumerate() {
            a.copy_from_slice(bias);
            for &f in &s.feats[side][..s.n as usize] {
                let row = &self.p[FT_W + f as usize * HIDDEN..FT_W + (f as usize + 1) * HIDDEN];
                for (x, w) in a.iter_mut().zip(row) {
                    *x += w;
                }
            }
        }
        acc
    }

    /// The raw output (centipawns / SCALE) of output bucket `b`.
    fn output(&self, acc: &[[f32; HIDDEN]; 2], b: usize) -> f32 {
        let mut out = self.p[OUT_B + b];
        let w0 = OUT_W + b * 2 * HIDDEN;
        for (side, a) in acc.iter().enumerate() {
            let w = &self.p[w0 + side * HIDDEN..w0 + (side + 1) * HIDDEN];
            for (x, w) in a.iter().zip(w) {
                let c = x.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }

    /// The evaluation of `board` in centipawns for the side to move (float arithmetic).
    pub fn evaluate(&self, board: &Board) -> f32 {
        let s = Sample::new(board, 0, 0.5);
        self.output(&self.accumulate(&s), output_bucket(s.n as usize)) * SCALE as f32
    }

    /// Loss of one sample; adds its gradient into `grad` when given.
    #[inline]
    fn sample_loss(&self, s: &Sample, t: Target, grad: Option<&mut [f32]>) -> f32 {
        let acc = self.accumulate(s);
        let b = output_bucket(s.n as usize);
        let k = SCALE as f32 / t.out_scale;
        let out = self.output(&acc, b);
        let pred = sigmoid(out * k);
        let err = pred - s.target(t);
        let Some(grad) = grad else {
            return err * err;
        };
        let g = 2.0 * err * pred * (1.0 - pred) * k;
        grad[OUT_B + b] += g;
        let mut d = [[0.0f32; HIDDEN]; 2];
        let w0 = OUT_W + b * 2 * HIDDEN;
        for side in 0..2 {
            let w = &self.p[w0 + side * HIDDEN..w0 + (side + 1) * HIDDEN];
            let gw = &mut grad[w0 + side * HIDDEN..w0 + (side + 1) * HIDDEN];
            for i in 0..HIDDEN {
                let x = acc[side][i];
                let c = x.clamp(0.0, 1.0);
                gw[i] += g * c * c;
                d[side][i] = if x > 0.0 && x < 1.0 {
                    2.0 * g * w[i] * x
                } else {
                    0.0
                };
            }
        }
        for (side, ds) in d.iter().enumerate() {
            let gb = &mut grad[FT_B..FT_B + HIDDEN];
            for (b, x) in gb.iter_mut().zip(ds) {
                *b += x;
            }
            for &f in &s.feats[side][..s.n as usize] {
                let row = &mut grad[FT_W + f as usize * HIDDEN..FT_W + (f as usize + 1) * HIDDEN];
                for (r, x) in row.iter_mut().zip(ds) {
                    *r += x;
                }
            }
        }
        err * err
    }

    /// Mean loss over `samples` on `threads` threads.
    pub fn loss(&self, samples: &[Sample], t: Target, threads: usize) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let chunk = samples.len().div_ceil(threads.max(1));
        let total: f64 = std::thread::scope(|s| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .map(|x| self.sample_loss(x, t, None) as f64)
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
        });
        total / samples.len() as f64
    }

    /// The float weights of a quantised network: each weight divided by its quantisation
    /// factor. Training can so start from a predecessor instead of random weights: with data
    /// lost between machines, a network keeps what its predecessor learnt from data that no
    /// longer exists. The file's output scale is not applied: `lazuli net --scale` changes only
    /// the header, a choice for the search's margins, and the weights are the ones the trainer
    /// wrote (`lazuli train` reads the header into its target instead). Measured on candidate 17
    /// (nets/README, candidate 18): starting from its file at scale 270 with the output layer
    /// shrunk to 270 / 400, the held-out loss was 0.009583 before and 0.007989 after 4 epochs;
    /// from the same weights as written, 0.008427 and 0.007887.
    pub fn from_network(net: &Network) -> FloatNet {
        let ft = |w: &i16| *w as f32 / QA as f32;
        let mut p = Vec::with_capacity(PARAMS);
        p.extend(net.ft_w.iter().map(ft));
        p.extend(net.ft_b.iter().map(ft));
        p.extend(net.out_w.iter().map(|&w| w as f32 / QB as f32));
        p.extend(net.out_b.iter().map(|&w| w as f32 / (QA * QB) as f32));
        debug_assert_eq!(p.len(), PARAMS);
        FloatNet { p }
    }

    /// The network as it will be written: every weight rounded to its quantisation step.
    pub fn rounded(&self) -> FloatNet {
        FloatNet::from_network(&self.quantise())
    }

    /// The quantised network the engine reads.
    pub fn quantise(&self) -> Network {
        let q = |w: f32, k: i32| (w * k as f32).round() as i16;
        Network {
            ft_w: self.p[FT_W..FT_B].iter().map(|&w| q(w, QA)).collect(),
            ft_b: self.p[FT_B..OUT_W].iter().map(|&w| q(w, QA)).collect(),
            out_w: self.p[OUT_W..OUT_B].iter().map(|&w| q(w, QB)).collect(),
            out_b: self.p[OUT_B..]
                .iter()
                .map(|&w| (w * (QA * QB) as f32).round() as i32)
                .collect(),
            scale: SCALE,
        }
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Learning rate at the end of the cosine decay.
    pub lr_end: f32,
    pub weight_decay: f32,
    pub target: Target,
    pub threads: usize,
    pub seed: u64,
    /// Write a quantised network every this many epochs (0: only at the end).
    pub save_every: usize,
    /// Quantisation-aware training: each step's forward pass and gradient use the rounded
    /// network (`FloatNet::rounded`), and the gradient is applied to the float weights
    /// (straight-through), so they move until the written network improves. The logged
    /// validation loss is then the written network's.
    pub qat: bool,
    /// King-bucket factoriser: `Some(r)` adds shared piece-square weights, one row per
    /// piece-square for every king bucket, learnt from every bucket's positions; each
    /// bucket's own rows then learn the difference at `r` times the learning rate
    /// ([`Shared`]). Weight decay acts on the summed rows at that rate, and on the shared
    /// rows at the full rate.
    pub factor: Option<f32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            epochs: 30,
            batch: 16384,
            lr: 0.001,
            lr_end: 0.00001,
            weight_decay: 0.01,
            target: Target::new(0.5),
            threads: 1,
            seed: 1,
            save_every: 0,
            qat: false,
            factor: None,
        }
    }
}

/// The factoriser's shared piece-square weights and their AdamW state (`Config::factor`).
/// The network's feature-transformer rows stay the effective weights (bucket's own part plus
/// the shared part), so the forward pass, the gradient and the written file are unchanged: the
/// gradient of a shared row is the sum of its rows' gradients over the king buckets, and its
/// AdamW step is added to every bucket's row. The shared rows start at zero, so a fine-tune
/// starts from its `--init` network exactly.
pub struct Shared {
    p: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Shared {
    fn new() -> Shared {
        let n = nnue::PIECE_SQUARES * HIDDEN;
        Shared {
            p: vec![0.0; n],
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
}

/// AdamW state, saved in checkpoints so a run can be resumed exactly.
pub struct Trainer {
    pub net: FloatNet,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Optimiser steps taken.
    pub step: u64,
    /// Epochs done.
    pub epoch: usize,
    /// The factoriser's state, when `Config::factor` is set (made at the first step).
    pub shared: Option<Shared>,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"LZCKPT\x00\x01";

impl Trainer {
    pub fn new(net: FloatNet) -> Trainer {
        Trainer {
            net,
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            step: 0,
            epoch: 0,
            shared: None,
        }
    }

    /// Checkpoint bytes: magic, hidden size, epoch, step, then parameters, m, v (f32 LE).
    pub fn checkpoint(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(32 + 12 * PARAMS);
        b.extend_from_slice(CHECKPOINT_MAGIC);
        b.extend_from_slice(&(HIDDEN as u64).to_le_bytes());
        b.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        b.extend_from_slice(&self.step.to_le_bytes());
        for x in self.net.p.iter().chain(&self.m).chain(&self.v) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Reads a checkpoint written by [`Trainer::checkpoint`].
    pub fn from_checkpoint(b: &[u8]) -> Result<Trainer, String> {
        if b.len() != 32 + 12 * PARAMS || &b[..8] != CHECKPOINT_MAGIC {
            return Err("not a checkpoint of this network shape".into());
        }
        let u64_at = |i: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(x)
        };
        if u64_at(8) != HIDDEN as u64 {
            return Err(format!("checkpoint has hidden size {}", u64_at(8)));
        }
        let floats: Vec<f32> = b[32..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if floats.iter().any(|x| !x.is_finite()) {
            return Err("checkpoint holds non-finite values".into());
        }
        Ok(Trainer {
            net: FloatNet {
                p: floats[..PARAMS].to_vec(),
            },
            m: floats[PARAMS..2 * PARAMS].to_vec(),
            v: floats[2 * PARAMS..].to_vec(),
            epoch: u64_at(16) as usize,
            step: u64_at(24),
            shared: None,
        })
    }

    /// One AdamW step on the batch `samples`; returns the batch's mean loss.
    pub fn train_batch(&mut self, samples: &[Sample], cfg: &Config, lr: f32) -> f32 {
        let threads = cfg.threads.max(1);
        let chunk = samples.len().div_ceil(threads).max(1);
        let rounded;
        let net = if cfg.qat {
            rounded = self.net.rounded();
            &rounded
        } else {
            &self.net
        };
        let (grad, loss) = std::thread::scope(|s| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut g = vec![0.0f32; PARAMS];
                        let mut loss = 0.0f32;
                        for x in part {
                            loss += net.sample_loss(x, cfg.target, Some(&mut g));
                        }
                        (g, loss)
                    })
                })
                .collect();
            let mut total = vec![0.0f32; PARAMS];
            let mut loss = 0.0;
            for h in handles {
                if let Ok((g, l)) = h.join() {
                    for (t, x) in total.iter_mut().zip(&g) {
                        *t += x;
                    }
                    loss += l;
                }
            }
            (total, loss)
        });
        let n = samples.len().max(1) as f32;
        self.step += 1;
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(self.step.min(1 << 20) as i32);
        let c2 = 1.0 - b2.powi(self.step.min(1 << 20) as i32);
        let adam = |p: &mut f32, g: f32, m: &mut f32, v: &mut f32, lr: f32| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let step = lr * ((*m / c1) / ((*v / c2).sqrt() + eps) + cfg.weight_decay * *p);
            *p -= step;
            step
        };
        let state = self.m.iter_mut().zip(self.v.iter_mut());
        for (i, ((p, g), (m, v))) in self.net.p.iter_mut().zip(&grad).zip(state).enumerate() {
            let rate = match cfg.factor {
                Some(r) if (FT_W..FT_B).contains(&i) => lr * r,
                _ => lr,
            };
            adam(p, g / n, m, v, rate);
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
        if cfg.factor.is_some() {
            let shared = self.shared.get_or_insert_with(Shared::new);
            let ps = nnue::PIECE_SQUARES;
            for f in 0..ps {
                for h in 0..HIDDEN {
                    let rows = (0..nnue::KING_BUCKETS).map(|b| FT_W + (b * ps + f) * HIDDEN + h);
                    let g: f32 = rows.clone().map(|i| grad[i]).sum();
                    let j = f * HIDDEN + h;
                    let (p, m, v) = (&mut shared.p[j], &mut shared.m[j], &mut shared.v[j]);
                    let step = adam(p, g / n, m, v, lr);
                    for i in rows {
                        self.net.p[i] = (self.net.p[i] - step).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
                    }
                }
            }
        }
        loss / n
    }
}

/// The learning rate after `done` of `total` epochs (cosine from `lr` to `lr_end`).
pub fn learning_rate(cfg: &Config, done: f64, total: f64) -> f32 {
    let t = (done / total.max(1e-9)).clamp(0.0, 1.0);
    let c = 0.5 * (1.0 + (std::f64::consts::PI * t).cos());
    (cfg.lr_end as f64 + (cfg.lr - cfg.lr_end) as f64 * c) as f32
}

/// Trains for the epochs `trainer.epoch..cfg.epochs`, writing `loss.csv`, `checkpoint.bin`
/// and quantised networks into `dir`, and a line per epoch to `log`; `progress` hears of every
/// batch (batches done, batches in the whole run, the epoch's mean loss so far).
pub fn run(
    trainer: &mut Trainer,
    train: &[Sample],
    val: &[Sample],
    cfg: &Config,
    dir: &Path,
    log: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize, f64),
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let csv_path = dir.join("loss.csv");
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&csv_path)?;
    if csv.metadata()?.len() == 0 {
        writeln!(csv, "epoch,train_loss,val_loss,lr,positions_per_s")?;
    }
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng::new(cfg.seed);
    // Re-draw the shuffles of the epochs already done, so a resumed run sees the same order.
    for _ in 0..trainer.epoch {
        shuffle(&mut order, &mut rng);
    }
    let batches = train.len().div_ceil(cfg.batch).max(1);
    let mut batch = Vec::with_capacity(cfg.batch);
    // The file, at the header scale where its output reads in the scores' centipawns.
    let written = |trainer: &Trainer| {
        let mut net = trainer.net.quantise();
        net.scale = cfg.target.header_scale();
        net.to_bytes()
    };
    while trainer.epoch < cfg.epochs {
        shuffle(&mut order, &mut rng);
        let clock = Instant::now();
        let mut loss_sum = 0.0f64;
        for (b, idx) in order.chunks(cfg.batch).enumerate() {
            batch.clear();
            batch.extend(idx.iter().map(|&i| train[i as usize]));
            let lr = learning_rate(
                cfg,
                trainer.epoch as f64 + b as f64 / batches as f64,
                cfg.epochs as f64,
            );
            loss_sum += trainer.train_batch(&batch, cfg, lr) as f64 * batch.len() as f64;
            let done = b * cfg.batch + batch.len();
            progress(
                trainer.epoch * batches + b + 1,
                cfg.epochs * batches,
                loss_sum / done as f64,
            );
        }
        let secs = clock.elapsed().as_secs_f64().max(1e-9);
        trainer.epoch += 1;
        let train_loss = loss_sum / train.len().max(1) as f64;
        let val_loss = if cfg.qat {
            trainer.net.rounded().loss(val, cfg.target, cfg.threads)
        } else {
            trainer.net.loss(val, cfg.target, cfg.threads)
        };
        let lr = learning_rate(cfg, trainer.epoch as f64, cfg.epochs as f64);
        let pps = train.len() as f64 / secs;
        writeln!(
            log,
            "epoch {:3}/{} train loss {:.6} val loss {:.6} lr {:.2e} {:.0} positions/s",
            trainer.epoch, cfg.epochs, train_loss, val_loss, lr, pps
        )?;
        writeln!(
            csv,
            "{},{train_loss:.7},{val_loss:.7},{lr:.3e},{pps:.0}",
            trainer.epoch
        )?;
        write_atomic(&dir.join("checkpoint.bin"), &trainer.checkpoint())?;
        if let Err(e) = plot_losses(&csv_path, &dir.join("loss.png")) {
            writeln!(log, "warning: no loss plot: {e}")?;
        }
        if cfg.save_every > 0 && trainer.epoch.is_multiple_of(cfg.save_every) {
            let name = format!("epoch-{}.nnue", trainer.epoch);
            write_atomic(&dir.join(name), &written(trainer))?;
        }
    }
    write_atomic(&dir.join("net.nnue"), &written(trainer))?;
    Ok(())
}

/// Draws the train and validation loss per epoch from `loss.csv` into a PNG.
pub fn plot_losses(csv: &Path, png: &Path) -> Result<(), String> {
    use crate::tools::plot::{Series, line_chart};
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for line in text.lines().skip(1) {
        let f: Vec<f64> = line.split(',').filter_map(|x| x.parse().ok()).collect();
        if let [epoch, t, v, ..] = f[..] {
            train.push((epoch, t));
            val.push((epoch, v));
        }
    }
    let series = [
        Series {
            name: "train loss".into(),
            points: train,
        },
        Series {
            name: "validation loss".into(),
            points: val,
        },
    ];
    line_chart(
        png,
        "lazuli train: loss per epoch",
        "epoch",
        "loss",
        &series,
    )
}

fn shuffle(v: &mut [u32], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Train the network on datagen's files (viriformat or text, told apart by content)
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Data files
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Folder for loss.csv, loss.png, checkpoint.bin and net.nnue
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub epochs: u64,
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub batch: u64,
    /// Learning rate at the start (cosine decay to --lr-end)
    #[arg(long, default_value_t = 0.001, value_parser = super::ranged(1e-9, 1.0))]
    pub lr: f64,
    #[arg(long, default_value_t = 0.00001, value_parser = super::ranged(0.0, 1.0))]
    pub lr_end: f64,
    /// AdamW weight decay
    #[arg(long, default_value_t = 0.01, value_parser = super::ranged(0.0, 1.0))]
    pub wd: f64,
    /// Weight of the game result in the target (the rest: sigmoid(score / --score-scale))
    #[arg(long, default_value_t = 0.5, value_parser = super::ranged(0.0, 1.0))]
    pub lambda: f64,
    /// The search score's centipawns per unit of the target's sigmoid
    #[arg(long, default_value_t = SCALE as f64, value_parser = super::ranged(10.0, 10000.0))]
    pub score_scale: f64,
    /// The output's centipawns (at the trainer's scale, 400) per unit of the sigmoid it is
    /// read through. With --score-scale S and --out-scale O a network learns outputs O / S
    /// times the scores, and is written with header scale 400 S / O, where it reads in the
    /// scores' centipawns. Default: the frame of --init's network (O = 400 S / its header
    /// scale), else O = S
    #[arg(long, value_parser = super::ranged(10.0, 10000.0))]
    pub out_scale: Option<f64>,
    /// Threads (default: all logical cores)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Share of the games held out for the validation loss (the last games of the list)
    #[arg(long, default_value_t = 0.05, value_parser = super::ranged(0.0, 0.9))]
    pub val_frac: f64,
    /// Validation files (repeatable): their games are the validation set and nothing is
    /// split off the training files (--val-frac is not used)
    #[arg(long, value_name = "FILE")]
    pub val: Vec<String>,
    /// Positions before this ply are left out
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub min_ply: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write DIR/epoch-N.nnue every N epochs (0: only net.nnue)
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub save_every: u64,
    /// Go on from DIR/checkpoint.bin. The checkpoint holds no target: give the run's --lambda,
    /// --score-scale and --out-scale again (a run started with --init logs the out scale it
    /// took from the file)
    #[arg(long)]
    pub resume: bool,
    /// Start from this network file's weights instead of random ones (fine-tuning a
    /// predecessor on fresh data); its validation loss is logged first, as a baseline.
    /// Training goes on from the weights as written, in the frame its header scale sets (see
    /// --out-scale)
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    pub init: Option<std::path::PathBuf>,
    /// Add the left-right mirror of every training position
    #[arg(long)]
    pub mirror: bool,
    /// Quantisation-aware: train the network as it will be written (rounded weights in the
    /// forward pass, straight-through gradient to the float weights); the logged validation
    /// loss is then the written network's
    #[arg(long)]
    pub qat: bool,
    /// King-bucket factoriser: shared piece-square weights learnt from every king bucket's
    /// positions, added to each bucket's rows; the buckets' own rows learn the difference at
    /// RATIO times the learning rate (the written network is the sum, as ever)
    #[arg(long, value_name = "RATIO", value_parser = super::ranged(0.0, 1.0), conflicts_with = "resume")]
    pub factor: Option<f64>,
    /// No progress on stderr (the per-epoch lines too)
    #[arg(long, short)]
    pub quiet: bool,
}

/// Reads each file (viriformat or text, told apart by its first 32 bytes) into `data`.
fn read_files(data: &mut Dataset, files: &[String], min_ply: u32) -> Result<(), String> {
    for f in files {
        let mut head = [0u8; 32];
        let binary = std::fs::File::open(f)
            .and_then(|mut file| std::io::Read::read(&mut file, &mut head))
            .is_ok_and(|n| crate::tools::data::looks_binary(&head[..n]));
        std::fs::File::open(f)
            .map_err(|e| e.to_string())
            .and_then(|file| {
                let mut r = std::io::BufReader::with_capacity(1 << 20, file);
                if binary {
                    data.read_games(&mut r, min_ply as usize)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                } else {
                    data.read_text(r, min_ply).map_err(|e| e.to_string())
                }
            })
            .map_err(|e| format!("cannot read {f}: {e}"))?;
    }
    Ok(())
}

/// The first file named more than once in `files` (as written), if any.
fn listed_twice(files: &[String]) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    files
        .iter()
        .find(|f| !seen.insert(f.as_str()))
        .map(String::as_str)
}

/// `lazuli train`: the command.
pub fn command(args: Args) -> std::process::ExitCode {
    use std::process::ExitCode;
    let init = match args.init.as_deref().map(Network::load).transpose() {
        Ok(net) => net,
        Err(e) => {
            let path = args.init.as_deref().unwrap_or(Path::new(""));
            eprintln!("lazuli train: cannot start from {}: {e}", path.display());
            return ExitCode::from(1);
        }
    };
    let out_scale = args
        .out_scale
        .unwrap_or_else(|| out_scale_for(args.score_scale, init.as_ref().map(|n| n.scale)));
    let cfg = Config {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        lr: args.lr as f32,
        lr_end: args.lr_end as f32,
        weight_decay: args.wd as f32,
        target: Target {
            lambda: args.lambda as f32,
            score_scale: args.score_scale as f32,
            out_scale: out_scale as f32,
        },
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
        seed: args.seed,
        save_every: args.save_every as usize,
        qat: args.qat,
        factor: args.factor.map(|r| r as f32),
    };
    let header = cfg.target.header_scale();
    if !u32::try_from(header).is_ok_and(|h| nnue::SCALE_RANGE.contains(&h)) {
        eprintln!(
            "lazuli train: the network would be written at scale 400 x {} / {out_scale} = \
             {header}, outside {}..={}; set --out-scale nearer to --score-scale",
            args.score_scale,
            nnue::SCALE_RANGE.start(),
            nnue::SCALE_RANGE.end()
        );
        return ExitCode::from(2);
    }
    let log = super::progress::Progress::lines(args.quiet);
    let clock = Instant::now();
    let mut data = Dataset::default();
    if let Err(e) = read_files(&mut data, &args.files, args.min_ply) {
        eprintln!("lazuli train: {e}");
        return ExitCode::from(1);
    }
    log.log(&format!(
        "read {} positions from {} games in {:.1} s ({} left out by filters, {} bad lines)",
        data.samples.len(),
        data.game_starts.len(),
        clock.elapsed().as_secs_f64(),
        data.filtered,
        data.bad_lines
    ));
    let (mut train, val, hce) = if args.val.is_empty() {
        if let Some(f) = listed_twice(&args.files).filter(|_| args.val_frac > 0.0) {
            log.log(&format!(
                "note: {f} is listed more than once, so the validation games (the last \
                 --val-frac of the list) may also be trained on; --val FILE holds out for sure"
            ));
        }
        data.split(args.val_frac)
    } else {
        let mut held = Dataset::default();
        if let Err(e) = read_files(&mut held, &args.val, args.min_ply) {
            eprintln!("lazuli train: {e}");
            return ExitCode::from(1);
        }
        (data.samples, held.samples, held.hce)
    };
    if args.mirror {
        let n = train.len();
        train.extend_from_within(..);
        for s in &mut train[n..] {
            *s = s.mirrored();
        }
    }
    if train.is_empty() {
        eprintln!("lazuli train: no training positions");
        return ExitCode::from(2);
    }
    log.log(&format!(
        "training on {}, validating on {} (loss of the hand-written evaluation there: {:.6})",
        train.len(),
        val.len(),
        eval_loss(&val, &hce, cfg.target)
    ));
    let mut trainer = Trainer::new(FloatNet::random(cfg.seed));
    if let (Some(path), Some(net)) = (&args.init, &init) {
        trainer = Trainer::new(FloatNet::from_network(net));
        log.log(&format!(
            "starting from {} at scale {} (validation loss {:.6})",
            path.display(),
            net.scale,
            trainer.net.loss(&val, cfg.target, cfg.threads)
        ));
    }
    log.log(&format!(
        "target: lambda {}, scores on {}, outputs on {out_scale:.1}; written at scale {}",
        args.lambda, args.score_scale, header
    ));
    if args.resume {
        match std::fs::read(args.out.join("checkpoint.bin"))
            .map_err(|e| e.to_string())
            .and_then(|b| Trainer::from_checkpoint(&b))
        {
            Ok(t) => {
                log.log(&format!("resuming after epoch {}", t.epoch));
                trainer = t;
            }
            Err(e) => {
                eprintln!(
                    "lazuli train: cannot resume from {}: {e}",
                    args.out.display()
                );
                return ExitCode::from(1);
            }
        }
    }
    let bar = super::progress::Progress::new(
        (cfg.epochs * train.len().div_ceil(cfg.batch)) as u64,
        "batches",
        args.quiet,
    );
    let batches_per_epoch = train.len().div_ceil(cfg.batch).max(1);
    let mut progress = |done: usize, total: usize, loss: f64| {
        if done.is_multiple_of(16) || done == total {
            let epoch = (done - 1) / batches_per_epoch + 1;
            bar.update(
                done as u64,
                format!("epoch {epoch}/{} loss {loss:.6}", cfg.epochs),
            );
        }
    };
    // The per-epoch lines go above the bar (or to stderr without one).
    let mut epoch_lines = bar.clone();
    let result = run(
        &mut trainer,
        &train,
        &val,
        &cfg,
        &args.out,
        &mut epoch_lines,
        &mut progress,
    );
    bar.finish();
    match result {
        Ok(()) => {
            println!("{}", args.out.join("net.nnue").display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lazuli train: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::STARTPOS;

    const FENS: [&str; 6] = [
        STARTPOS,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    ];

    /// Positions after every legal move from `FENS`, labelled by the hand-written evaluation.
    fn hce_samples() -> Vec<Sample> {
        let mut samples = Vec::new();
        for fen in FENS {
            let b = Board::from_fen(fen, false).unwrap();
            for mv in b.legal_moves().iter() {
                let c = b.make_move(*mv);
                let e = crate::eval::hce::evaluate(&c);
                let white = if c.side_to_move() == Color::White {
                    e
                } else {
                    -e
                };
                samples.push(Sample::new(&c, white, 0.5));
            }
        }
        samples
    }

    #[test]
    fn quantised_output_matches_float_within_a_few_centipawns() {
        let samples = hce_samples();
        let cfg = Config {
            batch: 64,
            lr: 0.01,
            target: Target::new(0.0),
            ..Config::default()
        };
        let mut t = Trainer::new(FloatNet::random(5));
        for _ in 0..40 {
            for b in samples.chunks(cfg.batch) {
                t.train_batch(b, &cfg, cfg.lr);
            }
        }
        let q = t.net.quantise();
        let (mut worst, mut sum, mut n) = (0.0f32, 0.0f32, 0.0f32);
        for fen in FENS {
            let b = Board::from_fen(fen, false).unwrap();
            for mv in b.legal_moves().iter() {
                let c = b.make_move(*mv);
                let f = t.net.evaluate(&c);
                let i = q.evaluate(&c) as f32;
                worst = worst.max((f - i).abs());
                sum += (f - i).abs();
                n += 1.0;
            }
        }
        // Rounding each weight to 1/QA or 1/QB, and the integer divisions, cost a few cp.
        assert!(sum / n <= 2.0, "mean difference {} cp", sum / n);
        assert!(
            worst <= 8.0,
            "float and quantised differ by up to {worst} cp"
        );
    }

    #[test]
    fn a_network_file_dequantises_to_the_same_network_and_evaluation() {
        let samples = hce_samples();
        let cfg = Config {
            batch: 64,
            lr: 0.01,
            target: Target::new(0.0),
            ..Config::default()
        };
        let mut t = Trainer::new(FloatNet::random(9));
        for _ in 0..10 {
            for b in samples.chunks(cfg.batch) {
                t.train_batch(b, &cfg, cfg.lr);
            }
        }
        let q = t.net.quantise();
        // At the trainer's scale the round trip gives the very same file.
        assert_eq!(FloatNet::from_network(&q).quantise(), q);
        // A copy at another output scale starts training from the same weights, in the
        // trainer's frame: its float network is the original's, whose centipawns are the
        // copy's times SCALE / its scale.
        let mut scaled = q.clone();
        scaled.scale = 3 * SCALE / 2;
        let f = FloatNet::from_network(&scaled);
        assert_eq!(f.quantise(), q);
        let mut n = 0;
        for fen in FENS {
            let b = Board::from_fen(fen, false).unwrap();
            let (fe, ie) = (f.evaluate(&b), q.evaluate(&b) as f32);
            assert!((fe - ie).abs() <= 8.0, "{fen}: float {fe} file {ie}");
            let copy = scaled.evaluate(&b) as f32;
            assert!(
                (copy - 1.5 * ie).abs() <= 3.0,
                "{fen}: copy {copy} original {ie}"
            );
            if ie.abs() > 20.0 {
                n += 1;
            }
        }
        assert!(n > 0, "the evaluations compared are not all near 0");
    }

    #[test]
    fn quantisation_aware_steps_follow_the_rounded_network() {
        // Random weights lie off the quantisation grid, so the float and the rounded network
        // give different losses, and a step reports the loss of the network it trains on.
        let samples = hce_samples();
        let batch = &samples[..samples.len().min(256)];
        let net = FloatNet::random(5);
        let float_loss = net.loss(batch, Target::new(0.0), 1);
        let rounded_loss = net.rounded().loss(batch, Target::new(0.0), 1);
        assert!(
            (float_loss - rounded_loss).abs() > 1e-6,
            "float {float_loss} and rounded {rounded_loss} agree"
        );
        for qat in [false, true] {
            let cfg = Config {
                target: Target::new(0.0),
                threads: 2,
                qat,
                ..Config::default()
            };
            let mut t = Trainer::new(net.clone());
            let step_loss = t.train_batch(batch, &cfg, 1e-3) as f64;
            let expected = if qat { rounded_loss } else { float_loss };
            assert!(
                (step_loss - expected).abs() < 1e-6,
                "qat {qat}: step loss {step_loss}, expected {expected}"
            );
            // The float weights took the step either way.
            assert_ne!(t.net.p, net.p);
        }
        // The rounded network is a fixed point: rounding it again changes nothing.
        assert_eq!(net.rounded().rounded().p, net.rounded().p);
    }

    #[test]
    fn training_fits_a_small_set_and_checkpoints_resume() {
        // Targets from the hand-written evaluation; a few hundred steps must cut the loss.
        let samples = hce_samples();
        let cfg = Config {
            batch: 64,
            lr: 0.01,
            target: Target::new(0.0),
            threads: 2,
            ..Config::default()
        };
        let mut t = Trainer::new(FloatNet::random(3));
        let before = t.net.loss(&samples, Target::new(0.0), 2);
        for _ in 0..60 {
            for b in samples.chunks(cfg.batch) {
                t.train_batch(b, &cfg, cfg.lr);
            }
        }
        let after = t.net.loss(&samples, Target::new(0.0), 2);
        assert!(after < before * 0.5, "loss {before} -> {after}");
        let r = Trainer::from_checkpoint(&t.checkpoint()).unwrap();
        assert_eq!(r.net.p, t.net.p);
        assert_eq!(r.step, t.step);
        assert!(Trainer::from_checkpoint(&t.checkpoint()[..100]).is_err());
        // Every weight within the clip, so the quantised file loads.
        let bytes = t.net.quantise().to_bytes();
        assert!(Network::from_bytes(&bytes).is_ok());
    }

    /// The factoriser moves every king bucket's row of a piece-square by the same shared step:
    /// at ratio 0 the buckets' own rows stand still, so the differences between buckets stay
    /// as they started while the loss still falls; at ratio 1 the buckets also learn apart.
    #[test]
    fn the_factoriser_steps_every_buckets_row_together() {
        let samples = hce_samples();
        let start = FloatNet::random(5);
        let ps = nnue::PIECE_SQUARES;
        let run = |factor: Option<f32>| {
            let cfg = Config {
                batch: 64,
                lr: 0.01,
                weight_decay: 0.0,
                target: Target::new(0.0),
                threads: 2,
                factor,
                ..Config::default()
            };
            let mut t = Trainer::new(start.clone());
            for _ in 0..20 {
                for b in samples.chunks(cfg.batch) {
                    t.train_batch(b, &cfg, cfg.lr);
                }
            }
            t.net
        };
        // The largest spread, over piece-squares and hidden units, of how far the buckets'
        // rows moved.
        let spread = |net: &FloatNet| {
            let mut worst = 0.0f32;
            for f in 0..ps * HIDDEN {
                let moves = (0..nnue::KING_BUCKETS).map(|b| {
                    let i = FT_W + b * ps * HIDDEN + f;
                    net.p[i] - start.p[i]
                });
                let (lo, hi) = moves.fold((f32::MAX, f32::MIN), |(l, h), x| (l.min(x), h.max(x)));
                worst = worst.max(hi - lo);
            }
            worst
        };
        let before = start.loss(&samples, Target::new(0.0), 2);
        let tied = run(Some(0.0));
        assert!(tied.loss(&samples, Target::new(0.0), 2) < before * 0.7);
        assert!(spread(&tied) < 1e-5, "spread {}", spread(&tied));
        let moved = |net: &FloatNet| {
            net.p[FT_W..FT_B]
                .iter()
                .zip(&start.p[FT_W..FT_B])
                .any(|(a, b)| (a - b).abs() > 1e-3)
        };
        assert!(moved(&tied));
        if nnue::KING_BUCKETS > 1 {
            assert!(spread(&run(Some(1.0))) > 1e-3);
            assert!(spread(&run(None)) > 1e-3);
        }
    }

    /// With the score alone in the target, a network is fitted where its output is
    /// `out_scale / score_scale` times the score: there the loss and its gradient vanish, and
    /// an output at the score itself (the fit of the default scales) is off.
    #[test]
    fn the_scales_set_where_a_score_is_fitted() {
        let b = Board::from_fen(FENS[0], false).unwrap();
        let s = Sample::new(&b, 150, 0.5);
        let score = s.score as f32;
        let t = Target {
            lambda: 0.0,
            score_scale: 125.0,
            out_scale: 181.0,
        };
        // A network whose output is its output bias alone (centipawns / SCALE).
        let with_output = |cp: f32| {
            let mut net = FloatNet {
                p: vec![0.0; PARAMS],
            };
            for o in &mut net.p[OUT_B..] {
                *o = cp / SCALE as f32;
            }
            net
        };
        let grad_at = |cp: f32, t: Target| {
            let mut g = vec![0.0f32; PARAMS];
            let loss = with_output(cp).sample_loss(&s, t, Some(&mut g));
            (loss, g[OUT_B + output_bucket(s.n as usize)])
        };
        let (loss, g) = grad_at(score * 181.0 / 125.0, t);
        assert!(loss < 1e-12 && g.abs() < 1e-6, "{loss} {g}");
        let (loss, g) = grad_at(score, t);
        assert!(
            loss > 1e-4 && g < 0.0,
            "an output below the fit is pushed up: {loss} {g}"
        );
        let (loss, g) = grad_at(score, Target::new(0.0));
        assert!(loss < 1e-12 && g.abs() < 1e-6, "{loss} {g}");
    }

    /// A network trained on scores on S with outputs on O is written at header scale
    /// 400 S / O, where its evaluation reads in the scores' centipawns; the default out scale
    /// keeps the frame of the network it starts from (and 400 without one, as ever).
    #[test]
    fn the_written_scale_follows_the_target() {
        assert_eq!(out_scale_for(400.0, None), 400.0);
        assert_eq!(out_scale_for(125.0, None), 125.0);
        let o = out_scale_for(125.0, Some(276));
        assert!((o - 181.16).abs() < 0.01, "{o}");
        let t = |score_scale: f32, out_scale: f32| Target {
            lambda: 0.0,
            score_scale,
            out_scale,
        };
        assert_eq!(t(125.0, o as f32).header_scale(), 276);
        assert_eq!(Target::new(0.3).header_scale(), SCALE);

        let samples = hce_samples();
        let cfg = Config {
            epochs: 1,
            batch: 64,
            lr: 0.01,
            target: t(125.0, 250.0),
            threads: 1,
            ..Config::default()
        };
        let dir = std::env::temp_dir().join(format!("lazuli-train-scale-{}", std::process::id()));
        let mut trainer = Trainer::new(FloatNet::random(5));
        let ran = run(
            &mut trainer,
            &samples,
            &samples[..8],
            &cfg,
            &dir,
            &mut std::io::sink(),
            &mut |_, _, _| {},
        );
        let file = std::fs::read(dir.join("net.nnue"));
        let _ = std::fs::remove_dir_all(&dir);
        ran.unwrap();
        let net = Network::from_bytes(&file.unwrap()).unwrap();
        assert_eq!(net.scale, 200);
        let mut n = 0;
        for fen in FENS {
            let b = Board::from_fen(fen, false).unwrap();
            let (float, file) = (trainer.net.evaluate(&b), net.evaluate(&b) as f32);
            assert!(
                (file - float * 0.5).abs() <= 5.0,
                "{fen}: file {file}, float {float} at SCALE"
            );
            n += usize::from(float.abs() > 40.0);
        }
        assert!(n > 0, "the evaluations compared are not all near 0");
    }

    #[test]
    fn mirrored_samples_are_the_mirrored_positions() {
        let b = Board::from_fen(FENS[3], false).unwrap();
        let m = Board::from_fen(
            "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R w - - 0 1",
            false,
        )
        .unwrap();
        let mut a: Vec<[u16; 2]> = (0..32)
            .map(|i| Sample::new(&b, 10, 1.0).mirrored().feats.map(|f| f[i]))
            .take(Sample::new(&b, 10, 1.0).n as usize)
            .collect();
        let mut c: Vec<[u16; 2]> = (0..32)
            .map(|i| Sample::new(&m, 10, 1.0).feats.map(|f| f[i]))
            .take(Sample::new(&m, 10, 1.0).n as usize)
            .collect();
        a.sort();
        c.sort();
        assert_eq!(a, c);
    }

    #[test]
    fn text_data_splits_by_games_and_filters_early_plies() {
        let text = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 9 | 25 | 1.0
garbage line
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 12 | 20 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 10 | -50 | 0.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 10 | -60 | 0.0
";
        let mut d = Dataset::default();
        d.read_text(text.as_bytes(), 16).unwrap();
        assert_eq!(d.bad_lines, 1);
        assert_eq!(d.filtered, 1);
        assert_eq!(d.game_starts, vec![0, 2]);
        assert_eq!(d.samples.len(), 4);
        // Black to move: score and result seen from black.
        assert_eq!(d.samples[3].score, 60);
        assert_eq!(d.samples[3].result, 2);
        let (train, val, hce) = d.split(0.5);
        assert_eq!(hce.len(), val.len());
        assert_eq!((train.len(), val.len()), (2, 2));
    }
}
