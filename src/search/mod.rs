//! One searcher: iterative deepening, aspiration windows, principal variation search,
//! quiescence, move ordering, and the shared (atomic) control block all searchers read.
//!
//! The control block lives here rather than in `threads/` (as ARCHITECTURE.md sketches) because
//! the searchers read it, and dependencies point down: `threads` uses `search`, never the
//! reverse.

mod history;
mod movepick;
pub mod params;
mod worker;

pub use movepick::is_tactical;
pub use worker::Worker;

use crate::chess::{Board, Move};
use crate::eval::Evaluator;
use crate::tb::{Prober, RootRanking};
use crate::time::TimeLimits;
use crate::tt::Table;
use crossbeam_utils::CachePadded;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

pub const MAX_PLY: usize = 128;
pub const INF: i32 = 32_001;
pub const MATE: i32 = 32_000;
pub use crate::tt::MATE_BOUND;

#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

#[inline]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// What stops a search (besides `stop`).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop after the first iteration that ends past this many nodes (datagen's soft limit;
    /// `nodes` stays the hard one).
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in this many moves (or faster) is found.
    pub mate: Option<u32>,
    pub time: Option<TimeLimits>,
    /// `go infinite`: never report before `stop`.
    pub infinite: bool,
}

/// State shared by the coordinator and every searcher of one search: atomics only.
pub struct Control {
    pub stop: AtomicBool,
    /// Set just before the last line of the answer (`bestmove`, or a tool's last line) is
    /// printed: from then on the GUI may believe the search over, so the coordinator queues
    /// `isready` behind the commands it already holds instead of answering it at once.
    pub finished: AtomicBool,
    /// How many searchers have begun this search, and when the last one began (µs after the
    /// start): for measuring the pool's start-up.
    pub started: AtomicUsize,
    last_start_us: AtomicU64,
    /// True while `go ponder` has not been answered by `ponderhit`.
    pub pondering: AtomicBool,
    epoch: Instant,
    /// When the clock started counting, in µs after `epoch` (the `go`, or the `ponderhit`).
    clock_start_us: AtomicU64,
    nodes: Vec<CachePadded<AtomicU64>>,
    tbhits: Vec<CachePadded<AtomicU64>>,
}

impl Control {
    pub fn new(threads: usize, pondering: bool) -> Control {
        Control::started_at(threads, pondering, Instant::now())
    }

    /// A search whose clock started at `epoch` (when the `go` line was read), not now.
    pub fn started_at(threads: usize, pondering: bool, epoch: Instant) -> Control {
        Control {
            stop: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            started: AtomicUsize::new(0),
            last_start_us: AtomicU64::new(0),
            pondering: AtomicBool::new(pondering),
            epoch,
            clock_start_us: AtomicU64::new(0),
            nodes: (0..threads.max(1))
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            tbhits: (0..threads.max(1))
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
        }
    }

    /// A searcher begins: counted, with the time.
    pub fn note_start(&self) {
        let us = self.epoch.elapsed().as_micros() as u64;
        self.last_start_us.fetch_max(us, Relaxed);
        self.started.fetch_add(1, Relaxed);
    }

    /// Microseconds from the start of the search until the last searcher began.
    pub fn last_start_us(&self) -> u64 {
        self.last_start_us.load(Relaxed)
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// `ponderhit` read at `at`: the clock starts then and the search becomes a normal timed
    /// one.
    ///
    /// Only a search that is pondering starts its clock again: a stray `ponderhit` (a GUI's
    /// mistake) during a normal search would otherwise give it its time a second time.
    pub fn ponderhit_at(&self, at: Instant) {
        if !self.pondering.load(Relaxed) {
            return;
        }
        let since = at.saturating_duration_since(self.epoch).as_micros() as u64;
        self.clock_start_us.store(since, Relaxed);
        self.pondering.store(false, Relaxed);
    }

    /// Milliseconds since the search started (for `info time` and nps).
    pub fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock: since the `go`, or since the `ponderhit`.
    pub fn clock_ms(&self) -> u64 {
        let now = self.epoch.elapsed().as_micros() as u64;
        now.saturating_sub(self.clock_start_us.load(Relaxed)) / 1000
    }

    #[inline]
    pub fn add_nodes(&self, thread: usize, n: u64) {
        if let Some(c) = self.nodes.get(thread) {
            c.fetch_add(n, Relaxed);
        }
    }

    #[inline]
    pub fn add_tbhit(&self, thread: usize) {
        if let Some(c) = self.tbhits.get(thread) {
            c.fetch_add(1, Relaxed);
        }
    }

    pub fn total_tbhits(&self) -> u64 {
        self.tbhits.iter().map(|c| c.load(Relaxed)).sum()
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.load(Relaxed)).sum()
    }
}

/// Sink for the lines a search prints (`info ...`); the UCI layer owns the real writer.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Everything a searcher needs for one search.
pub struct Job {
    pub board: Board,
    /// Keys of the game positions before the root, oldest first (for repetitions).
    pub history: Vec<u64>,
    pub limits: Limits,
    pub multipv: usize,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<Move>,
    pub chess960: bool,
    /// Add `wdl W D L` (the model of `eval::wdl`) to the scores of `info` lines.
    pub show_wdl: bool,
    pub tt: Arc<Table>,
    pub control: Arc<Control>,
    pub output: Output,
    /// Clear per-thread histories first (`ucinewgame` happened since the last search).
    pub new_game: bool,
    /// Print `info` lines (off for `bench`).
    pub verbose: bool,
    /// Tablebases, if loaded, and how to probe them.
    pub tb: Option<Arc<Prober>>,
    pub tb_config: TbConfig,
    /// The root's tablebase verdict (the root moves are then already restricted to it).
    pub root_tb: Option<RootRanking>,
    /// The evaluation: the network (default) or the hand-written one.
    pub eval: Evaluator,
}

impl Job {
    /// A single-threaded search that prints nothing and uses no tablebases (for `bench`,
    /// the criterion benches and `datagen`), with the default evaluation.
    pub fn silent(
        board: Board,
        history: Vec<u64>,
        limits: Limits,
        tt: Arc<Table>,
        new_game: bool,
    ) -> Job {
        Job {
            board,
            history,
            limits,
            multipv: 1,
            searchmoves: Vec::new(),
            chess960: false,
            show_wdl: false,
            tt,
            control: Arc::new(Control::new(1, false)),
            output: Arc::new(|_: &str| {}),
            new_game,
            verbose: false,
            tb: None,
            tb_config: Default::default(),
            root_tb: None,
            eval: Evaluator::default(),
        }
    }
}

/// The Syzygy UCI options as the search uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbConfig {
    pub probe_depth: i32,
    pub rule50: bool,
    pub probe_limit: usize,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        }
    }
}

/// One searcher's answer.
#[derive(Clone, Debug)]
pub struct ThreadResult {
    pub best: Move,
    pub ponder: Move,
    pub score: i32,
    pub depth: i32,
    pub pv: Vec<Move>,
}

/// `score cp X` or `score mate N` as UCI prints it.
pub fn format_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        // Checkmated at the root prints as "mate 0", not "mate -0".
        match (MATE + score) / 2 {
            0 => "mate 0".to_string(),
            n => format!("mate -{n}"),
        }
    } else {
        format!("cp {score}")
    }
}

/// Picks the move to play from the searchers' results: a vote weighted by depth and by score
/// above the worst, with the shortest mate winning outright.
pub fn select(results: &[ThreadResult]) -> Option<&ThreadResult> {
    let valid: Vec<&ThreadResult> = results.iter().filter(|r| r.best != Move::NONE).collect();
    let first = *valid.first()?;
    if let Some(mate) = valid
        .iter()
        .filter(|r| r.score >= MATE_BOUND)
        .max_by_key(|r| r.score)
    {
        return Some(mate);
    }
    let min_score = valid.iter().map(|r| r.score).min().unwrap_or(0);
    let weight = |r: &ThreadResult| ((r.score - min_score + 14) as i64) * (r.depth.max(1) as i64);
    let mut best = first;
    let mut best_votes = i64::MIN;
    for r in &valid {
        let votes: i64 = valid
            .iter()
            .filter(|o| o.best == r.best)
            .map(|o| weight(o))
            .sum();
        // Among threads voting for the same move, the deepest one's PV is reported.
        if votes > best_votes
            || (votes == best_votes && r.best == best.best && r.depth > best.depth)
        {
            best_votes = votes;
            best = r;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Square;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(format_score(mate_in(1)), "mate 1");
        assert_eq!(format_score(mate_in(3)), "mate 2");
        assert_eq!(format_score(mated_in(2)), "mate -1");
        assert_eq!(format_score(mated_in(0)), "mate 0");
        assert_eq!(format_score(-35), "cp -35");
    }

    #[test]
    fn vote_prefers_agreement_and_short_mates() {
        let m = |a: u8| Move::normal(Square::new(a), Square::new(a + 8));
        let r = |mv, score, depth| ThreadResult {
            best: mv,
            ponder: Move::NONE,
            score,
            depth,
            pv: vec![],
        };
        let results = vec![r(m(1), 50, 10), r(m(2), 40, 10), r(m(2), 40, 10)];
        assert_eq!(select(&results).unwrap().best, m(2));
        let results = vec![
            r(m(1), 50, 10),
            r(m(2), mate_in(5), 8),
            r(m(3), mate_in(3), 6),
        ];
        assert_eq!(select(&results).unwrap().best, m(3));
        assert!(select(&[]).is_none());
    }
}
