//! `lazuli net`: what a network file is, and a copy of it with another output scale.
//!
//! The output scale (centipawns per unit of the network's output; the trainer writes
//! `nnue::SCALE`) is in the file's header. A network trained on its searches' scores comes out
//! with compressed scores (a least-squares fit in win-probability space shrinks them), so its
//! centipawns are smaller than those the search's margins were tuned on; a copy with a larger
//! scale plays on the old scale without retraining. Measured for candidate 4 (nets/README,
//! "Output scale"): the hand-written scale (476) did not pay (-44 +- 48 Elo in 110 games), so
//! the default keeps the trainer's 400; the tool stays for measuring later networks.

use crate::chess::Board;
use crate::eval::nnue::{self, Network, SCALE_RANGE};
use std::path::PathBuf;
use std::process::ExitCode;

/// `lazuli net` arguments.
#[derive(clap::Args, Debug)]
#[command(
    about = "A network file's shape, scale and checks; --scale writes a copy with another output scale"
)]
pub struct Args {
    /// The network file
    pub file: PathBuf,
    /// Output scale for the copy: centipawns = output x N (the trainer writes 400)
    #[arg(long, value_name = "N", value_parser = super::ranged(*SCALE_RANGE.start(), *SCALE_RANGE.end()))]
    pub scale: Option<u32>,
    /// Where the copy goes (needed with --scale; name it nn-<first 12 hex digits of its
    /// sha256>.nnue to keep it in nets/)
    #[arg(long, value_name = "FILE", requires = "scale")]
    pub out: Option<PathBuf>,
}

/// What `lazuli net FILE` prints; `file_inputs` and `file_buckets` are the inputs and output
/// buckets in the file (a file of fewer king buckets, or of one output bucket, is read into
/// this build's buckets).
pub fn describe(net: &Network, file_inputs: usize, file_buckets: usize) -> String {
    let start = net.evaluate(&Board::startpos());
    let buckets = if nnue::OUTPUT_BUCKETS == 1 {
        "1 output bucket".to_string()
    } else if file_buckets == nnue::OUTPUT_BUCKETS {
        format!("{file_buckets} output buckets by piece count")
    } else {
        format!(
            "{file_buckets} output bucket in the file, copied into this build's {}",
            nnue::OUTPUT_BUCKETS
        )
    };
    let kings = if nnue::KING_BUCKETS == 1 {
        String::new()
    } else if file_inputs == nnue::INPUTS {
        format!(", {} king buckets", nnue::KING_BUCKETS)
    } else {
        let kings = file_inputs / nnue::PIECE_SQUARES;
        format!(
            ", {kings} king bucket{} in the file, read into this build's {}",
            if kings == 1 { "" } else { "s" },
            nnue::KING_BUCKETS
        )
    };
    format!(
        "shape ({} -> {}) x 2 -> 1, SCReLU, QA {} QB {}, {buckets}{kings}\noutput scale {}\nchecksum and weight ranges ok\nstart position {start} cp (side to move)\n",
        nnue::INPUTS,
        nnue::HIDDEN,
        nnue::QA,
        nnue::QB,
        net.scale,
    )
}

/// `lazuli net`: the command.
pub fn command(args: Args) -> ExitCode {
    let net = match Network::load(&args.file) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("lazuli net: {}: {e}", args.file.display());
            return ExitCode::from(1);
        }
    };
    // The load succeeded, so the file has one of the sizes a build reads.
    let size = std::fs::metadata(&args.file).map_or(0, |m| m.len() as usize);
    let (file_inputs, file_buckets) = [nnue::INPUTS, nnue::PIECE_SQUARES]
        .into_iter()
        .flat_map(|i| [(i, nnue::OUTPUT_BUCKETS), (i, 1)])
        .find(|&(i, b)| nnue::file_size(i, b) == size)
        .unwrap_or((nnue::INPUTS, nnue::OUTPUT_BUCKETS));
    print!("{}", describe(&net, file_inputs, file_buckets));
    let Some(scale) = args.scale else {
        return ExitCode::SUCCESS;
    };
    let Some(out) = args.out else {
        eprintln!("lazuli net: --scale needs --out FILE");
        return ExitCode::from(2);
    };
    let copy = Network {
        scale: scale as i32,
        ..net
    };
    if let Err(e) = std::fs::write(&out, copy.to_bytes()) {
        eprintln!("lazuli net: {}: {e}", out.display());
        return ExitCode::from(1);
    }
    println!("wrote {} with output scale {scale}", out.display());
    ExitCode::SUCCESS
}
