//! Perft: counts the leaves of the legal move tree, with bulk counting at the last ply.

use super::board::Board;
use super::movegen::{ALL, MoveList, generate};
use super::types::Move;

/// Number of leaf nodes at `depth`.
pub fn perft(b: &Board, depth: u32) -> u64 {
    let mut list = MoveList::new();
    generate::<ALL>(b, &mut list);
    match depth {
        0 => 1,
        // Bulk counting: the legal moves are the leaves, no need to play them.
        1 => list.len() as u64,
        _ => list
            .iter()
            .map(|&m| perft(&b.make_move(m), depth - 1))
            .sum(),
    }
}

/// Leaf counts per root move, in generation order.
pub fn divide(b: &Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    b.legal_moves()
        .iter()
        .map(|&m| (m, perft(&b.make_move(m), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_to_depth_four() {
        let b = Board::startpos();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&b, d)).collect();
        assert_eq!(counts, vec![1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let b = Board::startpos();
        let total: u64 = divide(&b, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 8902);
        assert_eq!(divide(&b, 3).len(), 20);
    }
}
