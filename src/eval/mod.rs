//! Evaluation, behind one function: [`evaluate`]. For now the hand-written bootstrap
//! ([`hce`]); an NNUE trained on Lazuli's own games will replace it.

pub mod hce;
pub mod texel;

use crate::chess::Board;

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    hce::evaluate(board)
}
