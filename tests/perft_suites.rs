//! Perft counts against the suites in `../shared/perft/` (run with `--release`).
//!
//! Each (position, depth) pair whose expected count is at most a node cap is checked; the caps
//! are set so that the whole suite stays well under three minutes on two cores in release mode.
//! `LAZULI_PERFT_CAP` (nodes) overrides every cap, e.g. to run everything once by hand.

mod common;

use common::{PerftLine, perft_suite};
use lazuli::chess::Move;
use lazuli::chess::perft::perft;
use lazuli::chess::{Board, Validation};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

struct Job {
    fen: String,
    depth: u32,
    expected: u64,
}

fn cap(default: u64) -> u64 {
    // A debug build is much slower: it still checks every line, to shallower depths.
    let default = if cfg!(debug_assertions) {
        default.min(100_000)
    } else {
        default
    };
    std::env::var("LAZULI_PERFT_CAP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Every depth of every line whose count is at most `cap` (the shallow ones catch a bug fast,
/// the deep ones catch the rare ones).
fn jobs(lines: &[PerftLine], cap: u64) -> Vec<Job> {
    let mut jobs: Vec<Job> = lines
        .iter()
        .flat_map(|l| {
            l.counts
                .iter()
                .filter(|&&(_, n)| n <= cap)
                .map(|&(depth, expected)| Job {
                    fen: l.fen.clone(),
                    depth,
                    expected,
                })
        })
        .collect();
    // Largest first, so the threads finish together.
    jobs.sort_by_key(|j| std::cmp::Reverse(j.expected));
    jobs
}

/// Jobs above this size are split by root move so that one deep count uses every core.
const SPLIT_ABOVE: u64 = 50_000_000;

/// Runs the jobs on all cores; returns the failures as text.
fn run(jobs: &[Job], chess960: bool) -> Vec<String> {
    let mut failures = Vec::new();
    let mut boards = Vec::new();
    for job in jobs {
        match Board::from_fen_with(&job.fen, chess960, Validation::AllowImpossibleCheck) {
            Ok(b) => boards.push(Some(b)),
            Err(e) => {
                failures.push(format!("{}: FEN refused: {e}", job.fen));
                boards.push(None);
            }
        }
    }
    // Work items: (job, root move to play first, if split).
    let mut items: Vec<(usize, Option<Move>)> = Vec::new();
    for (i, (job, b)) in jobs.iter().zip(&boards).enumerate() {
        let Some(b) = b else { continue };
        if job.expected > SPLIT_ABOVE && job.depth > 1 {
            items.extend(b.legal_moves().iter().map(|&m| (i, Some(m))));
        } else {
            items.push((i, None));
        }
    }
    let totals: Vec<AtomicU64> = jobs.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(i, root)) = items.get(k) else {
                        break;
                    };
                    let Some(b) = &boards[i] else { continue };
                    let n = match root {
                        Some(m) => perft(&b.make_move(m), jobs[i].depth - 1),
                        None => perft(b, jobs[i].depth),
                    };
                    totals[i].fetch_add(n, Ordering::Relaxed);
                }
            });
        }
    });
    for (job, (total, b)) in jobs.iter().zip(totals.iter().zip(&boards)) {
        let got = total.load(Ordering::Relaxed);
        if b.is_some() && got != job.expected {
            failures.push(format!(
                "{} D{}: got {got}, expected {}",
                job.fen, job.depth, job.expected
            ));
        }
    }
    failures
}

fn check(file: &str, chess960: bool, default_cap: u64, min_jobs: usize) {
    let lines = perft_suite(file);
    let jobs = jobs(&lines, cap(default_cap));
    assert!(
        jobs.len() >= min_jobs,
        "{file}: only {} perft jobs selected",
        jobs.len()
    );
    let nodes: u64 = jobs.iter().map(|j| j.expected).sum();
    let failures = run(&jobs, chess960);
    assert!(
        failures.is_empty(),
        "{file}: {} of {} counts wrong:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n")
    );
    eprintln!(
        "{file}: {} counts ({} positions, {nodes} nodes) all match",
        jobs.len(),
        lines.len()
    );
}

#[test]
fn perftsuite_every_line_to_depth_six() {
    // Every count of the file, Kiwipete's 8 billion at D6 included.
    let min = if cfg!(debug_assertions) { 600 } else { 126 * 6 };
    check("perft/perftsuite.epd", false, 10_000_000_000, min);
}

#[test]
fn cpw_positions_deep() {
    // Start position D7, position 3 D8, position 4 (both colours) D6, 5 and 6 to D6 (Kiwipete D6
    // is in the perftsuite test).
    let min = if cfg!(debug_assertions) { 20 } else { 40 };
    check("perft/cpw-positions.epd", false, 4_000_000_000, min);
}

#[test]
fn chess960_all_positions_to_depth_four() {
    let min = if cfg!(debug_assertions) {
        2800
    } else {
        960 * 4
    };
    check("perft/chess960.epd", true, 4_000_000, min);
}

#[test]
fn chess960_every_castling_layout_to_depth_five() {
    // One line per distinct (queen-side rook file, king file, king-side rook file) layout of the
    // back ranks, so every castling geometry of Chess960 is counted to depth five.
    let lines = perft_suite("perft/chess960.epd");
    let mut seen = std::collections::HashSet::new();
    let mut sample = Vec::new();
    for l in lines {
        let b = Board::from_fen(&l.fen, true).expect("suite FEN parses");
        let layout: Vec<Option<u8>> = (0..4).map(|i| b.castle_rook(i).map(|s| s.file())).collect();
        let king_files = (
            b.king(lazuli::chess::Color::White).file(),
            b.king(lazuli::chess::Color::Black).file(),
        );
        if seen.insert((layout, king_files)) {
            sample.push(l);
        }
    }
    assert!(sample.len() >= 56, "only {} layouts", sample.len());
    let depth = if cfg!(debug_assertions) { 2 } else { 5 };
    let jobs: Vec<Job> = jobs(&sample, u64::MAX)
        .into_iter()
        .filter(|j| j.depth == depth)
        .collect();
    let failures = run(&jobs, true);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "chess960: {} castling layouts checked to depth {depth}",
        jobs.len()
    );
}
