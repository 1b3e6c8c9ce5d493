//! `speedtest`: how fast this machine searches, the way a game uses it.
//!
//! Every position of four Lazuli games is searched in order with the engine's own thread pool
//! and one shared table that is carried from move to move (cleared between games, as by
//! `ucinewgame`). Each move gets a game-like share of the total time: less in the opening, most
//! in the middlegame, tapering in the endgame. The result: total nodes, nodes per second (in
//! all and per thread), the table's fill, and whether huge pages and thread binding were in
//! use. `--scaling` repeats it at 1, 2, 4, ... threads and adds the time to a fixed depth.

use crate::chess::Board;
use crate::eval::Evaluator;
use crate::search::{Control, Job, Limits};
use crate::threads::{Pool, numa::Policy};
use crate::time::TimeLimits;
use crate::tt::{Table, memory};
use crossbeam_channel::bounded;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

const GAMES: &str = include_str!("speedtest_games.txt");

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub threads: usize,
    pub hash_mib: u64,
    /// Total search time over all positions.
    pub seconds: f64,
    /// Thread binding, as the `NumaPolicy` option.
    pub numa: Policy,
}

impl Config {
    /// Defaults from the machine: every logical core, 128 MiB of table per thread (at most
    /// half the memory), 150 seconds.
    pub fn for_machine() -> Config {
        let threads = num_cpus::get().max(1);
        Config {
            threads,
            hash_mib: default_hash_mib(threads),
            seconds: 150.0,
            numa: Policy::Auto,
        }
    }
}

/// 128 MiB per thread, at most half the physical memory, at least 16.
pub fn default_hash_mib(threads: usize) -> u64 {
    let want = 128 * threads as u64;
    match crate::tt::physical_memory_mib() {
        Some(p) => want.min(p / 2).max(16),
        None => want,
    }
}

/// One game: the start and the positions after each move, in order.
pub fn games() -> Vec<Vec<Board>> {
    let mut out = Vec::new();
    for line in GAMES.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((fen, moves)) = line.split_once('|') else {
            continue;
        };
        let Ok(mut board) = Board::from_fen(fen.trim(), false) else {
            continue;
        };
        let mut positions = vec![board];
        for m in moves.split_whitespace() {
            match board.parse_uci_move(m) {
                Ok(mv) => {
                    board = board.make_move(mv);
                    positions.push(board);
                }
                Err(_) => break,
            }
        }
        // The last position may be over (mate, or no move): nothing to search there.
        while positions.last().is_some_and(|b| b.legal_moves().is_empty()) {
            positions.pop();
        }
        out.push(positions);
    }
    out
}

/// The share of a game's time for its `ply`-th position: a game-like curve, rising through
/// the opening, flat in the middlegame, falling in the endgame.
fn weight(ply: usize) -> f64 {
    let p = ply as f64;
    if p < 20.0 {
        0.5 + 0.5 * p / 20.0
    } else if p < 60.0 {
        1.0
    } else {
        (1.0 - (p - 60.0) / 100.0).max(0.4)
    }
}

/// What one run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub threads: usize,
    pub hash_mib: u64,
    pub positions: usize,
    pub nodes: u64,
    pub seconds: f64,
    /// The part of `seconds` spent searching (not clearing the table between games).
    pub search_seconds: f64,
    /// Mean of the table's fill (per mille) at the end of each move.
    pub hashfull: f64,
    /// Whether the kernel agreed to huge pages for the table, and how much of the process
    /// ended up on them (MiB), where the OS tells.
    pub huge_advised: bool,
    pub huge_mib: Option<u64>,
    /// How many searcher threads were bound to cores.
    pub bound: usize,
}

impl Report {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.seconds.max(1e-9)) as u64
    }

    /// Nodes per second of search time only: what `--scaling` compares, so that clearing the
    /// table between games (faster with more threads) does not count.
    pub fn search_nps(&self) -> u64 {
        (self.nodes as f64 / self.search_seconds.max(1e-9)) as u64
    }

    /// The summary lines, as printed.
    pub fn lines(&self) -> Vec<String> {
        let huge = match (self.huge_advised, self.huge_mib) {
            (false, _) => "no".to_string(),
            (true, Some(m)) if m > 0 => format!("yes ({m} MiB on transparent huge pages)"),
            (true, Some(_)) => "asked for, none granted".to_string(),
            (true, None) => "asked for".to_string(),
        };
        vec![
            "===========================".to_string(),
            format!(
                "Version                : Lazuli {}",
                env!("CARGO_PKG_VERSION")
            ),
            format!("Threads                : {}", self.threads),
            format!("Hash (MiB)             : {}", self.hash_mib),
            format!("Large pages            : {huge}"),
            format!(
                "Thread binding         : {}",
                if self.bound > 0 {
                    format!("yes ({} of {} threads)", self.bound, self.threads)
                } else {
                    "no".to_string()
                }
            ),
            format!("Positions              : {}", self.positions),
            format!("Total time (s)         : {:.2}", self.seconds),
            format!("Total nodes            : {}", self.nodes),
            format!("Nodes/second           : {}", self.nps()),
            format!(
                "Nodes/second per thread: {}",
                self.nps() / self.threads.max(1) as u64
            ),
            format!("Hashfull (mean, per mille): {:.0}", self.hashfull),
        ]
    }
}

/// What every search of a run shares.
struct Rig<'a> {
    pool: &'a Pool,
    tt: &'a Arc<Table>,
    eval: &'a Evaluator,
    /// Setting it stops the search within about a millisecond (a long speedtest's moves last
    /// seconds, and `stop` must not wait for one to end).
    abort: &'a AtomicBool,
}

impl Rig<'_> {
    /// Searches one position for `limits`; returns nodes.
    fn search(&self, board: Board, history: Vec<u64>, limits: Limits, new_game: bool) -> u64 {
        let control = Arc::new(Control::new(self.pool.threads(), false));
        self.tt.new_search();
        let mut job = Job::silent(board, history, limits, self.tt.clone(), new_game);
        job.control = control.clone();
        job.eval = self.eval.clone();
        let (tx, rx) = bounded(1);
        self.pool.start(
            job,
            Box::new(move |_| {
                let _ = tx.send(());
            }),
        );
        while let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
            rx.recv_timeout(std::time::Duration::from_millis(1))
        {
            if self.abort.load(Ordering::Relaxed) {
                control.stop.store(true, Ordering::Relaxed);
            }
        }
        control.total_nodes()
    }
}

/// Runs the speed test; `progress` gets a line per game. Stops early (between moves) when
/// `abort` is set.
pub fn run(
    cfg: &Config,
    eval: &Evaluator,
    abort: &AtomicBool,
    progress: &mut dyn FnMut(&str),
) -> Result<Report, String> {
    let pool = Pool::with_policy(cfg.threads, cfg.numa)
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let tt = Arc::new(Table::new(cfg.hash_mib).map_err(|e| e.to_string())?);
    pool.prefault_table(&tt);
    let rig = Rig {
        pool: &pool,
        tt: &tt,
        eval,
        abort,
    };
    let games = games();
    let total_weight: f64 = games
        .iter()
        .map(|g| (0..g.len()).map(weight).sum::<f64>())
        .sum();
    let ms_per_weight = cfg.seconds * 1000.0 / total_weight.max(1e-9);
    let mut report = Report {
        threads: pool.threads(),
        hash_mib: cfg.hash_mib,
        huge_advised: tt.huge_pages_advised(),
        bound: pool.bound_threads(),
        ..Report::default()
    };
    let mut fill_sum = 0.0;
    let clock = Instant::now();
    'games: for (g, positions) in games.iter().enumerate() {
        pool.clear_table(&tt);
        let mut history = Vec::new();
        for (ply, board) in positions.iter().enumerate() {
            if abort.load(Ordering::Relaxed) {
                break 'games;
            }
            let ms = (weight(ply) * ms_per_weight).max(1.0) as u64;
            let limits = Limits {
                time: Some(TimeLimits { soft: ms, hard: ms }),
                ..Limits::default()
            };
            let t = Instant::now();
            report.nodes += rig.search(*board, history.clone(), limits, ply == 0);
            report.search_seconds += t.elapsed().as_secs_f64();
            fill_sum += tt.hashfull() as f64;
            report.positions += 1;
            history.push(board.key());
        }
        progress(&format!(
            "game {}/{}: {} positions, {} nodes, {} nps",
            g + 1,
            games.len(),
            report.positions,
            report.nodes,
            (report.nodes as f64 / clock.elapsed().as_secs_f64().max(1e-9)) as u64
        ));
    }
    report.seconds = clock.elapsed().as_secs_f64();
    report.hashfull = fill_sum / report.positions.max(1) as f64;
    report.huge_mib = memory::anon_huge_kib().map(|k| k / 1024);
    Ok(report)
}

/// The thread counts of `--scaling`: 1, 2, 4, ... up to `max`, and `max` itself.
pub fn scaling_levels(max: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut t = 1;
    while t < max {
        v.push(t);
        t *= 2;
    }
    v.push(max.max(1));
    v
}

/// The positions of the time-to-depth part of `--scaling`: the first 20 of the bench list (the
/// Bratko-Kopec positions, mostly middlegames).
fn depth_positions() -> &'static [&'static str] {
    &crate::tools::bench::POSITIONS[..20]
}

/// Seconds to search every [`depth_positions`] entry to `depth` with `threads` threads (a fresh
/// table of `hash_mib` for each position).
pub fn time_to_depth(
    cfg: &Config,
    depth: u32,
    eval: &Evaluator,
    abort: &AtomicBool,
) -> Result<f64, String> {
    let (threads, hash_mib) = (cfg.threads, cfg.hash_mib);
    let pool =
        Pool::with_policy(threads, cfg.numa).map_err(|e| format!("cannot start threads: {e}"))?;
    let tt = Arc::new(Table::new(hash_mib).map_err(|e| e.to_string())?);
    pool.prefault_table(&tt);
    let rig = Rig {
        pool: &pool,
        tt: &tt,
        eval,
        abort,
    };
    let mut secs = 0.0;
    for fen in depth_positions() {
        if abort.load(Ordering::Relaxed) {
            break;
        }
        let board = Board::from_fen(fen, false).map_err(|e| format!("{fen}: {e}"))?;
        pool.clear_table(&tt);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let start = Instant::now();
        rig.search(board, Vec::new(), limits, true);
        secs += start.elapsed().as_secs_f64();
    }
    Ok(secs)
}

/// One row of the `--scaling` table.
#[derive(Clone, Debug)]
pub struct ScalingRow {
    pub threads: usize,
    pub nps: u64,
    /// nps(T) / (T * nps(1)).
    pub efficiency: f64,
    pub depth_seconds: f64,
    /// time to depth at 1 thread / at T threads.
    pub depth_speedup: f64,
}

/// The `--scaling` table: the speed test and the time to `depth` at every level of
/// [`scaling_levels`]`(cfg.threads)`, `rounds` times over with the levels interleaved (1, 2,
/// 4, ..., then 1, 2, 4, ... again), each level's figures the median of its rounds, so that a
/// slow spell of a shared machine hits one sample of every level rather than all of one. The
/// speed test takes `cfg.seconds` in all.
pub fn scaling(
    cfg: &Config,
    depth: u32,
    rounds: usize,
    eval: &Evaluator,
    abort: &AtomicBool,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<ScalingRow>, String> {
    let levels = scaling_levels(cfg.threads);
    let rounds = rounds.max(1);
    let share = cfg.seconds / (levels.len() * rounds) as f64;
    // samples[level] = (nps, time to depth) of each round.
    let mut samples: Vec<Vec<(u64, f64)>> = vec![Vec::new(); levels.len()];
    let mut rows: Vec<ScalingRow> = Vec::new();
    'rounds: for round in 0..rounds {
        if rounds > 1 {
            progress(&format!("round {}/{rounds}", round + 1));
        }
        rows.clear();
        for (i, &t) in levels.iter().enumerate() {
            let level = Config {
                threads: t,
                seconds: share,
                ..cfg.clone()
            };
            let r = run(&level, eval, abort, &mut |_| {})?;
            let depth_seconds = time_to_depth(&level, depth, eval, abort)?;
            if abort.load(Ordering::Relaxed) {
                break 'rounds;
            }
            samples[i].push((r.search_nps(), depth_seconds));
            let nps = median(samples[i].iter().map(|s| s.0 as f64).collect()) as u64;
            let depth_seconds = median(samples[i].iter().map(|s| s.1).collect());
            let (nps1, d1) = rows
                .first()
                .map_or((nps, depth_seconds), |r1| (r1.nps, r1.depth_seconds));
            let row = ScalingRow {
                threads: t,
                nps,
                efficiency: nps as f64 / (t as f64 * nps1.max(1) as f64),
                depth_seconds,
                depth_speedup: d1 / depth_seconds.max(1e-9),
            };
            progress(&scaling_line(&row));
            rows.push(row);
        }
    }
    Ok(rows)
}

/// The median (the mean of the two middle values for an even count); 0 for none.
fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub fn plot_scaling(rows: &[ScalingRow], png: &std::path::Path) -> Result<(), String> {
    use super::plot::{Series, line_chart};
    let t = |r: &ScalingRow| r.threads as f64;
    let series = [
        Series {
            name: "nps speedup nps(T)/nps(1)".into(),
            points: rows.iter().map(|r| (t(r), r.efficiency * t(r))).collect(),
        },
        Series {
            name: "time-to-depth speedup".into(),
            points: rows.iter().map(|r| (t(r), r.depth_speedup)).collect(),
        },
        Series {
            name: "ideal".into(),
            points: rows.iter().map(|r| (t(r), t(r))).collect(),
        },
    ];
    line_chart(
        png,
        "lazuli speedtest --scaling",
        "threads",
        "speedup over 1 thread",
        &series,
    )
}

pub fn scaling_header() -> String {
    format!(
        "{:>7} {:>12} {:>10} {:>14} {:>14}",
        "threads", "nps", "efficiency", "time to depth", "depth speedup"
    )
}

pub fn scaling_line(r: &ScalingRow) -> String {
    format!(
        "{:>7} {:>12} {:>10.3} {:>13.2}s {:>14.2}",
        r.threads, r.nps, r.efficiency, r.depth_seconds, r.depth_speedup
    )
}

/// Measure nps on positions from real games, with game-like time per move
///
/// Searches four games' positions with game-like time per move and the table carried between
/// moves, as a game would, and prints total nodes, nps, nps per thread, hashfull and whether
/// huge pages and thread binding were in use. With --scaling: the same at 1, 2, 4, ... threads.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Threads (default: all logical cores)
    #[arg(long, value_parser = super::ranged(1, crate::uci::options::MAX_THREADS))]
    pub threads: Option<usize>,
    /// Hash, MiB (default: 128 per thread, at most half the memory)
    #[arg(long, value_parser = super::ranged(1, crate::uci::options::MAX_HASH_MIB))]
    pub hash: Option<u64>,
    /// Seconds in all
    #[arg(long, default_value_t = 150.0, value_parser = super::ranged(0.1, 86_400.0))]
    pub seconds: f64,
    /// The same at 1, 2, 4, ... threads, with nps efficiency and time to --depth, charted
    #[arg(long)]
    pub scaling: bool,
    /// --scaling: measure every level this many times, interleaved, and report medians
    #[arg(long, default_value_t = 1, value_parser = super::ranged(1usize, 100))]
    pub rounds: usize,
    /// Depth of the time-to-depth part of --scaling
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Thread binding, as the NumaPolicy option: auto, none or system
    #[arg(long, default_value = "auto", value_parser = numa_arg)]
    pub numa: Policy,
    /// The --scaling chart
    #[arg(long, default_value = "speedtest-scaling.png", value_name = "FILE")]
    pub png: String,
    /// No per-game lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

fn numa_arg(s: &str) -> Result<Policy, String> {
    Policy::parse(s).ok_or("auto, none or system".to_string())
}

/// `lazuli speedtest`: the command.
pub fn command(args: Args) -> std::process::ExitCode {
    let mut cfg = Config::for_machine();
    if let Some(t) = args.threads {
        cfg.threads = t;
    }
    cfg.hash_mib = args.hash.unwrap_or_else(|| default_hash_mib(cfg.threads));
    cfg.seconds = args.seconds;
    cfg.numa = args.numa;
    let eval = Evaluator::default();
    let abort = AtomicBool::new(false);
    let log = super::progress::Progress::lines(args.quiet);
    log.log(&format!(
        "speedtest: {} threads, {} MiB hash, {} s{}",
        cfg.threads,
        cfg.hash_mib,
        cfg.seconds,
        if args.scaling { ", scaling" } else { "" }
    ));
    let done = if args.scaling {
        println!("{}", scaling_header());
        scaling(&cfg, args.depth, args.rounds, &eval, &abort, &mut |l| {
            println!("{l}")
        })
        .map(|rows| {
            if args.rounds > 1 {
                println!("medians of {} rounds:", args.rounds);
                println!("{}", scaling_header());
                rows.iter().for_each(|r| println!("{}", scaling_line(r)));
            }
            match plot_scaling(&rows, std::path::Path::new(&args.png)) {
                Ok(()) => log.log(&format!("chart: {}", args.png)),
                Err(e) => eprintln!("lazuli speedtest: no chart: {e}"),
            }
        })
    } else {
        run(&cfg, &eval, &abort, &mut |l| log.log(l))
            .map(|r| r.lines().iter().for_each(|l| println!("{l}")))
    };
    match done {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lazuli speedtest: {e}");
            std::process::ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_are_whole_and_legal() {
        let g = games();
        assert_eq!(g.len(), 4);
        for positions in &g {
            // Every listed move was legal (a bad move would cut the game short).
            assert!(positions.len() > 100, "{}", positions.len());
            assert!(positions.iter().all(|b| !b.legal_moves().is_empty()));
        }
    }

    #[test]
    fn a_short_run_searches_every_position_and_carries_the_table() {
        let cfg = Config {
            threads: 2,
            hash_mib: 8,
            seconds: 0.5,
            numa: Policy::System,
        };
        let abort = AtomicBool::new(false);
        let mut lines = Vec::new();
        let r = run(&cfg, &Evaluator::Hce, &abort, &mut |l| {
            lines.push(l.to_string())
        })
        .unwrap();
        let total: usize = games().iter().map(Vec::len).sum();
        assert_eq!(r.positions, total);
        assert_eq!(lines.len(), 4);
        assert!(r.nodes > 10_000, "{r:?}");
        assert!(r.hashfull > 0.0, "{r:?}");
        assert!(r.lines().iter().any(|l| l.starts_with("Nodes/second")));
        // `system` binds even on a one-node machine (where the OS allows it).
        if core_affinity::get_core_ids().is_some_and(|c| c.len() >= 2) {
            assert_eq!(r.bound, 2, "{r:?}");
        }
        // Stopped at once: nothing searched.
        abort.store(true, Ordering::Relaxed);
        let r = run(&cfg, &Evaluator::Hce, &abort, &mut |_| {}).unwrap();
        assert_eq!(r.positions, 0);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![]), 0.0);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn scaling_levels_double_up_to_the_count() {
        assert_eq!(scaling_levels(1), vec![1]);
        assert_eq!(scaling_levels(2), vec![1, 2]);
        assert_eq!(scaling_levels(6), vec![1, 2, 4, 6]);
        assert_eq!(scaling_levels(16), vec![1, 2, 4, 8, 16]);
    }

    #[test]
    fn weights_are_game_like() {
        assert!(weight(0) < weight(30));
        assert!(weight(150) < weight(30));
        assert!((0..400).all(|p| weight(p) >= 0.4 && weight(p) <= 1.0));
    }
}
