//! `lazuli tb`: what a Syzygy download holds (complete, half-present and missing tables per
//! piece count, files that fail their check) and a probe of one position.

use crate::chess::Board;
use crate::tb;
use std::process::ExitCode;

/// Check a Syzygy download; probe a position
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directories holding .rtbw and .rtbz files
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<String>,
    /// Probe this position (WDL, DTZ, best moves)
    #[arg(long, value_name = "FEN")]
    pub probe: Option<String>,
}

pub fn command(args: Args) -> ExitCode {
    // What files are there (by canonical name), and which are bad.
    let mut wdl = std::collections::BTreeSet::new();
    let mut dtz = std::collections::BTreeSet::new();
    let mut bad = 0;
    for d in &args.dirs {
        let entries = match std::fs::read_dir(d) {
            Ok(e) => e,
            Err(e) => {
                println!("{d}: {e}");
                bad += 1;
                continue;
            }
        };
        for path in entries.flatten().map(|e| e.path()) {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "rtbw" && ext != "rtbz" {
                continue;
            }
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let name = match stem.split_once('v') {
                Some((w, b)) => tb::normalize_name(w, b),
                None => stem.to_string(),
            };
            if let Err(e) = tb::check_file(&path) {
                println!("bad file: {e}");
                bad += 1;
                continue;
            }
            if ext == "rtbw" {
                wdl.insert(name)
            } else {
                dtz.insert(name)
            };
        }
    }
    for n in 3..=7 {
        let all = tb::signatures(n);
        let both = all
            .iter()
            .filter(|s| wdl.contains(*s) && dtz.contains(*s))
            .count();
        let wdl_only: Vec<&String> = all
            .iter()
            .filter(|s| wdl.contains(*s) && !dtz.contains(*s))
            .collect();
        let dtz_only: Vec<&String> = all
            .iter()
            .filter(|s| !wdl.contains(*s) && dtz.contains(*s))
            .collect();
        let missing: Vec<&String> = all
            .iter()
            .filter(|s| !wdl.contains(*s) && !dtz.contains(*s))
            .collect();
        println!(
            "{n}-piece: {both} of {} complete, {} WDL only, {} DTZ only, {} missing",
            all.len(),
            wdl_only.len(),
            dtz_only.len(),
            missing.len()
        );
        let show = |label: &str, v: &[&String]| {
            if !v.is_empty() {
                let names: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
                println!("  {label}: {}", names.join(" "));
            }
        };
        show("WDL only", &wdl_only);
        show("DTZ only", &dtz_only);
        // A size with nothing present is simply not installed; list gaps only in partial sets.
        if both + wdl_only.len() + dtz_only.len() > 0 {
            show("missing", &missing);
        }
    }
    if let Some(fen) = args.probe {
        let loaded = tb::load(&args.dirs.join(":"));
        let Some(p) = loaded.prober else {
            println!("no tables loaded");
            return ExitCode::from(1);
        };
        let board = match Board::from_fen(&fen, false) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("lazuli tb: invalid FEN: {e}");
                return ExitCode::from(2);
            }
        };
        let show = |v: Option<i32>| v.map_or("unavailable".to_string(), |x| x.to_string());
        println!(
            "WDL: {} (2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss)",
            show(p.probe_wdl(&board).or(p.probe_wdl_after_zeroing(&board)))
        );
        println!("DTZ: {}", show(p.probe_dtz(&board)));
        match p.rank_root(&board, &board.legal_moves(), true, 7) {
            Some(r) => {
                let moves: Vec<String> = r.moves.iter().map(|m| m.to_uci(false)).collect();
                println!("best moves: {}", moves.join(" "));
            }
            None => println!("best moves: not in the tables"),
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
