//! Command line: no argument runs the UCI engine; `perft`, `bench` and `help` are subcommands.

use lazuli::chess::perft::{divide, perft};
use lazuli::chess::{Board, STARTPOS, Validation};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  lazuli                                    run the UCI engine on stdin/stdout
  lazuli bench [depth]                      search the bench positions; last line: N nodes M nps
  lazuli perft <depth> [--chess960] [fen]   count leaf nodes (divide per root move)
  lazuli help                               this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => run_perft(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        None => match lazuli::uci::coordinator::run(std::io::stdin(), lazuli::uci::Out::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("lazuli: {e}");
                ExitCode::from(1)
            }
        },
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<u32>()) {
                None => lazuli::bench::DEFAULT_DEPTH,
                Some(Ok(d)) if (1..=64).contains(&d) => d,
                _ => {
                    eprintln!("lazuli bench: depth must be a number from 1 to 64\n{USAGE}");
                    return ExitCode::from(2);
                }
            };
            let (nodes, ms) = lazuli::bench::run(depth);
            println!("Total time (ms) : {ms}");
            println!("{nodes} nodes {} nps", nodes * 1000 / ms.max(1));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!(
                "lazuli: unknown command '{}'\n{USAGE}",
                other.chars().take(32).collect::<String>()
            );
            ExitCode::from(2)
        }
    }
}

/// Whether a FEN's castling field uses file letters (Shredder-FEN / X-FEN), i.e. Chess960.
fn looks_like_chess960(fen: &str) -> bool {
    fen.split_ascii_whitespace().nth(2).is_some_and(|c| {
        c.chars()
            .any(|ch| matches!(ch.to_ascii_lowercase(), 'a'..='h'))
    })
}

fn run_perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("lazuli perft: depth must be a non-negative number\n{USAGE}");
        return ExitCode::from(2);
    };
    if depth > 12 {
        eprintln!("lazuli perft: depth {depth} is beyond what can finish (at most 12)");
        return ExitCode::from(2);
    }
    let mut chess960 = false;
    let mut fen_parts = Vec::new();
    for a in &args[1..] {
        if a == "--chess960" {
            chess960 = true;
        } else {
            fen_parts.push(a.as_str());
        }
    }
    let fen = if fen_parts.is_empty() || fen_parts == ["startpos"] {
        STARTPOS.to_string()
    } else {
        fen_parts.join(" ")
    };
    chess960 |= looks_like_chess960(&fen);
    // Perft suites contain one unreachable double check; counting its moves is still well defined.
    let board = match Board::from_fen_with(&fen, chess960, Validation::AllowImpossibleCheck) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("lazuli perft: invalid FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if depth == 0 {
        perft(&board, 0)
    } else {
        let mut total = 0;
        for (m, n) in divide(&board, depth) {
            println!("{}: {n}", m.to_uci(chess960));
            total += n;
        }
        total
    };
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    println!("Time: {:.3} s", secs);
    println!("Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
