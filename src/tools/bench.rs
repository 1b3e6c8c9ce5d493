//! `bench`: a fixed list of positions searched to a fixed depth with one thread and a 16 MiB
//! table. The node count is deterministic for a build (its signature); the last line printed is
//! `N nodes M nps`.

use crate::chess::Board;
use crate::eval::Evaluator;
use crate::search::{Control, Job, Limits, Worker};
use crate::tt::Table;
use std::sync::Arc;
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 13;

/// Opening, middlegame, endgame and tactical positions: the Bratko-Kopec test (24), the
/// Chessprogramming Wiki perft positions 2-6, a selection from Win at Chess, and endgames.
pub const POSITIONS: [&str; 42] = [
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
    "r2qkb1r/1ppb1ppp/p7/4p3/P1Q1P3/2P5/5PPP/R1B2KNR b kq - 0 1",
    "3r1r1k/1p4pp/p4p2/8/1PQR4/6Pq/P3PP2/2R3K1 b - - 0 1",
    "3r2k1/ppp2ppp/6q1/b4n2/3nQB2/2p5/P4PPP/RN3RK1 b - - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "4r1k1/p1qr1p2/2pb1Bp1/1p5p/3P1n1R/1B3P2/PP3PK1/2Q4R w - - 0 1",
    "2rqrn1k/pb4pp/1p2pp2/n2P4/2P3N1/P2B2Q1/1B3PPP/2R1R1K1 w - - 0 1",
    "2b5/1r6/2kBp1p1/p2pP1P1/2pP4/1pP3K1/1R3P2/8 b - - 0 1",
    "1b5k/7P/p1p2np1/2P2p2/PP3P2/4RQ1R/q2r3P/6K1 w - - 0 1",
    "8/8/1p4k1/2p5/2P2K2/1P6/8/8 w - - 0 1",
    "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8 b - - 0 40",
    "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1",
    "8/8/8/3k4/8/8/3KP3/8 w - - 0 1",
];

/// A silent single-threaded search of `board` to `depth` (for `bench` and the criterion benches).
pub fn fixed_depth_job(board: Board, depth: u32, tt: Arc<Table>, new_game: bool) -> Job {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Job::silent(board, Vec::new(), limits, tt, new_game)
}

/// Searches every position to `depth` with the default evaluation; returns (nodes,
/// milliseconds).
pub fn run(depth: u32) -> (u64, u64) {
    run_with(depth, &Evaluator::default())
}

/// Searches every position to `depth` with `eval`; returns (nodes, milliseconds).
pub fn run_with(depth: u32, eval: &Evaluator) -> (u64, u64) {
    run_until(depth, eval, &Arc::new(Control::new(1, false))).unwrap_or((0, 0))
}

/// [`run_with`] under `control`, for the UCI command, whose `stop` must end even
/// `bench 60`: every search runs under it, and once its `stop` is set the search in progress
/// ends and the result is `None`.
pub fn run_until(depth: u32, eval: &Evaluator, control: &Arc<Control>) -> Option<(u64, u64)> {
    let tt = match Table::new(16) {
        Ok(t) => Arc::new(t),
        Err(_) => return Some((0, 0)),
    };
    let mut worker = Worker::new(0);
    let mut nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(board) = Board::from_fen(fen, false) else {
            continue;
        };
        tt.new_search();
        let mut job = fixed_depth_job(board, depth, tt.clone(), i == 0);
        job.eval = eval.clone();
        job.control = control.clone();
        if control.stopped() {
            return None;
        }
        worker.search(&job);
        if control.stopped() {
            return None;
        }
        nodes += worker.nodes();
    }
    Some((nodes, start.elapsed().as_millis() as u64))
}

/// Search the bench positions to a fixed depth; last line: N nodes M nps
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth (default 13)
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// The evaluation: <default>, <hce>, <embedded> or a network file
    #[arg(default_value = "<default>")]
    pub evalfile: String,
}

/// `lazuli bench [depth] [evalfile]`: the command (OpenBench and other frameworks call it).
pub fn command(args: Args) -> std::process::ExitCode {
    let eval = match super::evaluator(&args.evalfile) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("lazuli bench: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    let (nodes, ms) = run_with(args.depth, &eval);
    println!("Total time (ms) : {ms}");
    println!("{nodes} nodes {} nps", nodes * 1000 / ms.max(1));
    std::process::ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid() {
        for fen in POSITIONS {
            assert!(Board::from_fen(fen, false).is_ok(), "{fen}");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        assert_eq!(run(3).0, run(3).0);
        assert!(run(3).0 > 1000);
        let net = Evaluator::Nnue(crate::eval::nnue::default_net());
        assert_eq!(run_with(3, &net).0, run_with(3, &net).0);
        assert_ne!(run_with(3, &net).0, run_with(3, &Evaluator::Hce).0);
        let control = Arc::new(Control::new(1, false));
        assert_eq!(
            run_until(3, &net, &control).map(|r| r.0),
            Some(run_with(3, &net).0)
        );
        control
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(run_until(3, &net, &control), None);
    }
}
