//! Perft: counts the leaves of the legal move tree, with bulk counting at the last ply.

use super::board::Board;
use super::movegen::{ALL, MoveList, generate};
use super::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// [`perft`] that gives up (`None`) once `stop` is set, for perft inside the UCI engine, where
/// `stop` must end even `go perft 10`. The flag is read at nodes with three or more
/// plies below them, each of which takes well under a millisecond.
pub fn perft_until(b: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(b, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    generate::<ALL>(b, &mut list);
    let mut total = 0;
    for &m in list.iter() {
        total += perft_until(&b.make_move(m), depth - 1, stop)?;
    }
    Some(total)
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
    fn perft_until_counts_as_perft_and_gives_up_on_stop() {
        let b = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let go_on = AtomicBool::new(false);
        for d in 0..=4 {
            assert_eq!(perft_until(&b, d, &go_on), Some(perft(&b, d)), "depth {d}");
        }
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&b, 3, &stop), None);
        // Below three plies there is nothing left to stop.
        assert_eq!(perft_until(&b, 2, &stop), Some(2039));
    }

    #[test]
    fn divide_sums_to_perft() {
        let b = Board::startpos();
        let total: u64 = divide(&b, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 8902);
        assert_eq!(divide(&b, 3).len(), 20);
    }
}
