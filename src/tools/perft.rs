//! `lazuli perft`: leaf-node counts of the legal move tree, divided per root move (the check of
//! move generation against other engines and the suites in `tests/data/`).

use crate::chess::perft::{divide, perft};
use crate::chess::{Board, STARTPOS, Validation};
use std::process::ExitCode;
use std::time::Instant;

/// Count the leaf nodes of the move tree to a depth (divide per root move).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth to count to (0 counts the position itself)
    #[arg(value_parser = clap::value_parser!(u32).range(0..=12))]
    pub depth: u32,
    /// Castling rights are Chess960's (found by itself from X-FEN/Shredder-FEN castling letters)
    #[arg(long)]
    pub chess960: bool,
    /// The position: a FEN (one argument or its six fields) or `startpos` (the default)
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "FEN"
    )]
    pub fen: Vec<String>,
}

/// Whether a FEN's castling field uses file letters (Shredder-FEN / X-FEN), i.e. Chess960.
pub fn looks_like_chess960(fen: &str) -> bool {
    fen.split_ascii_whitespace().nth(2).is_some_and(|c| {
        c.chars()
            .any(|ch| matches!(ch.to_ascii_lowercase(), 'a'..='h'))
    })
}

pub fn command(args: Args) -> ExitCode {
    // `--chess960` may also stand after the FEN's fields.
    let mut chess960 = args.chess960;
    let mut parts = Vec::new();
    for p in &args.fen {
        if p == "--chess960" {
            chess960 = true;
        } else {
            parts.push(p.as_str());
        }
    }
    let fen = if parts.is_empty() || parts == ["startpos"] {
        STARTPOS.to_string()
    } else {
        parts.join(" ")
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
    let total = if args.depth == 0 {
        perft(&board, 0)
    } else {
        let mut total = 0;
        for (m, n) in divide(&board, args.depth) {
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
