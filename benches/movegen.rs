//! Criterion benches of the chess layer: legal move generation, make/unmake, perft(4).
//!
//! `cargo bench --bench movegen` (add `RUSTFLAGS="-C target-cpu=native"` for the PEXT build).

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use lazuli::chess::movegen::{ALL, CAPTURES, QUIETS};
use lazuli::chess::perft::perft;
use lazuli::chess::{Board, MoveList, generate};
use std::time::Duration;

/// Opening, middlegame, tactical and endgame positions (chessprogramming wiki perft positions and
/// a few from the test suites).
const POSITIONS: [(&str, &str); 7] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "cpw4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "cpw5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        "middlegame",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9",
    ),
    ("endgame", "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8 b - - 0 40"),
];

fn boards() -> Vec<(&'static str, Board)> {
    POSITIONS
        .iter()
        .map(|&(name, fen)| {
            (
                name,
                Board::from_fen(fen, false).expect("bench FEN is valid"),
            )
        })
        .collect()
}

fn movegen(c: &mut Criterion) {
    let boards = boards();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("legal_all_positions", |bencher| {
        bencher.iter(|| {
            let mut n = 0;
            for (_, b) in &boards {
                let mut list = MoveList::new();
                generate::<ALL>(black_box(b), &mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("captures_then_quiets", |bencher| {
        bencher.iter(|| {
            let mut n = 0;
            for (_, b) in &boards {
                let mut list = MoveList::new();
                generate::<CAPTURES>(black_box(b), &mut list);
                generate::<QUIETS>(black_box(b), &mut list);
                n += list.len();
            }
            n
        })
    });
    for (name, b) in &boards {
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("legal/{name}"), |bencher| {
            bencher.iter(|| {
                let mut list = MoveList::new();
                generate::<ALL>(black_box(b), &mut list);
                list.len()
            })
        });
    }
    group.finish();
}

fn make_unmake(c: &mut Criterion) {
    // Copy-make: "unmake" is dropping the copy. Every legal move of every position, made once.
    let boards = boards();
    let moves: Vec<(Board, Vec<_>)> = boards
        .iter()
        .map(|(_, b)| (*b, b.legal_moves().to_vec()))
        .collect();
    let total: usize = moves.iter().map(|(_, m)| m.len()).sum();
    let mut group = c.benchmark_group("make_unmake");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("all_moves_all_positions", |bencher| {
        bencher.iter(|| {
            let mut acc = 0u64;
            for (b, ms) in &moves {
                for &m in ms {
                    let child = black_box(b).make_move(m);
                    acc ^= child.key();
                }
            }
            acc
        })
    });
    group.finish();
}

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft4");
    group.sample_size(10);
    for (name, b) in boards().into_iter().take(4) {
        let nodes = perft(&b, 4);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |bencher| bencher.iter(|| perft(black_box(&b), 4)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = movegen, make_unmake, perft4
}
criterion_main!(benches);
