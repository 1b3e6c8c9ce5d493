//! Evaluation: the hand-written evaluation ([`hce`]) or the network ([`nnue`]), whichever
//! [`NETWORK_IS_DEFAULT`] makes the default, the other where asked for (`EvalFile`, datagen's
//! `--net`, comparisons). [`Evaluator`] says which; the search keeps incremental network state
//! of its own (`nnue::Stack`).

pub mod hce;
pub mod nnue;
pub mod wdl;

use crate::chess::Board;
use std::sync::Arc;

/// Which evaluation a search uses.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The hand-written evaluation.
    Hce,
    Nnue(Arc<nnue::Network>),
}

/// Whether the embedded network is the default evaluation: true since gen0 candidate 4 beat the
/// hand-written evaluation in an SPRT (see `nets/README.md`). `EvalFile <hce>` still selects
/// the hand-written one.
pub const NETWORK_IS_DEFAULT: bool = true;

impl Default for Evaluator {
    fn default() -> Self {
        if NETWORK_IS_DEFAULT {
            Evaluator::Nnue(nnue::default_net())
        } else {
            Evaluator::Hce
        }
    }
}

impl Evaluator {
    /// Static evaluation in centipawns from the side to move's point of view, from scratch.
    pub fn evaluate(&self, board: &Board) -> i32 {
        match self {
            Evaluator::Hce => hce::evaluate(board),
            Evaluator::Nnue(net) => net.evaluate(board),
        }
    }
}
