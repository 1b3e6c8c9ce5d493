//! Tools around the engine rather than the engine itself: the commands a person or a testing
//! framework runs. Each file holds one command's work and its command-line arguments; `main.rs`
//! only parses and dispatches. The engine (`chess`, `eval`, `search`, `tt`, `threads`, `time`,
//! `tb`, `uci`) uses none of this except `bench` and `speedtest`, which are UCI commands too.

pub mod bench;
pub mod data;
pub mod datagen;
pub mod net;
pub mod perft;
pub mod plot;
pub mod progress;
pub mod speedtest;
pub mod tb;
pub mod texel;
pub mod train;

use crate::eval::{Evaluator, nnue};

/// The evaluation a tool's argument names: `<default>`, `<hce>` (the hand-written one),
/// `<embedded>` (the network in the binary) or a network file.
pub fn evaluator(name: &str) -> Result<Evaluator, String> {
    match name {
        "<default>" => Ok(Evaluator::default()),
        "<hce>" => Ok(Evaluator::Hce),
        "<embedded>" => Ok(Evaluator::Nnue(nnue::default_net())),
        path => nnue::Network::load(std::path::Path::new(path))
            .map(|n| Evaluator::Nnue(std::sync::Arc::new(n)))
            .map_err(|e| format!("{path}: {e}")),
    }
}

/// A clap value parser for a number in `lo..=hi`, whose error names the range.
pub fn ranged<T>(lo: T, hi: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |s: &str| match s.parse::<T>() {
        Ok(x) if lo <= x && x <= hi => Ok(x),
        _ => Err(format!("a number from {lo} to {hi}")),
    }
}
