//! Times `shakmaty::perft` (the reference crate, a dev-dependency) on a FEN, for side-by-side
//! figures with `lazuli perft` (see `scripts/perft-compare.sh`).
//!
//! `cargo run --release --example shakmaty_perft -- <depth> [fen]`

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()
    };
    let parsed: Result<Fen, _> = fen.parse();
    let pos: Chess = match parsed
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
    {
        Some(p) => p,
        None => {
            eprintln!("shakmaty refuses FEN {fen}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let n = shakmaty::perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {n}");
    println!("Time: {secs:.3} s");
    println!("Nodes/second: {:.0}", n as f64 / secs);
}
