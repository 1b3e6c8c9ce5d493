//! Criterion benches of the engine parts: transposition table probe and store, evaluation
//! (hand-written, network from scratch, the network's refresh / update / output per SIMD level),
//! and a fixed-depth search of fixed positions.
//!
//! `cargo bench --bench engine`

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use lazuli::chess::{Board, Move};
use lazuli::eval::nnue;
use lazuli::search::Worker;
use lazuli::tt::{Bound, Table, TtData};
use std::sync::Arc;
use std::time::Duration;

fn keys(n: usize) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn tt(c: &mut Criterion) {
    let table = Table::new(64).expect("64 MiB table");
    table.clear(1);
    let ks = keys(4096);
    let data = TtData {
        mv: Move::NONE,
        score: 12,
        eval: 3,
        depth: 8,
        bound: Bound::Exact,
        pv: false,
    };
    let mut g = c.benchmark_group("tt");
    g.throughput(Throughput::Elements(ks.len() as u64));
    g.bench_function("store", |b| {
        b.iter(|| {
            for &k in &ks {
                table.store(black_box(k), data);
            }
        })
    });
    g.bench_function("probe_hit", |b| {
        b.iter(|| {
            ks.iter()
                .filter(|&&k| table.probe(black_box(k)).is_some())
                .count()
        })
    });
    let misses = keys(8192)[4096..].to_vec();
    g.bench_function("probe_miss", |b| {
        b.iter(|| {
            misses
                .iter()
                .filter(|&&k| table.probe(black_box(k)).is_some())
                .count()
        })
    });
    g.finish();
}

fn eval(c: &mut Criterion) {
    let boards: Vec<Board> = lazuli::tools::bench::POSITIONS
        .iter()
        .filter_map(|f| Board::from_fen(f, false).ok())
        .collect();
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("hce_bench_positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| lazuli::eval::hce::evaluate(black_box(bd)))
                .sum::<i32>()
        })
    });
    let net = nnue::default_net();
    g.bench_function("nnue_full_bench_positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|bd| net.evaluate(black_box(bd)))
                .sum::<i32>()
        })
    });
    g.finish();
}

/// The network's parts, one call each: a refresh (both perspectives from scratch), an
/// incremental update of one perspective by a quiet move (one row in, one out), the output
/// layer; the last two for each SIMD level this CPU has.
fn nnue_parts(c: &mut Criterion) {
    use lazuli::eval::nnue::{HIDDEN, simd};
    let net = nnue::default_net();
    let board = Board::from_fen(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        false,
    )
    .expect("valid FEN");
    let acc = net.refresh(&board);
    let row = |f: usize| -> &[i16; HIDDEN] {
        net.ft_w[f * HIDDEN..(f + 1) * HIDDEN]
            .try_into()
            .expect("HIDDEN long")
    };
    let adds = ([row(100), row(0)], 1);
    let subs = ([row(37), row(0)], 1);
    let mut g = c.benchmark_group("nnue");
    g.bench_function("refresh", |b| b.iter(|| net.refresh(black_box(&board))));
    for level in simd::Level::available() {
        let mut dst = [0i16; HIDDEN];
        g.bench_function(format!("update_{}", level.name()), |b| {
            b.iter(|| {
                simd::update(level, &mut dst, black_box(&acc.v[0]), &adds, &subs);
                dst[0]
            })
        });
        g.bench_function(format!("forward_{}", level.name()), |b| {
            b.iter(|| {
                simd::forward(
                    level,
                    black_box(&acc.v[0]),
                    &acc.v[1],
                    net.bucket_weights(0),
                )
            })
        });
    }
    g.finish();
}

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (name, fen, depth) in [
        (
            "start_d7",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            7,
        ),
        (
            "kiwipete_d6",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            6,
        ),
        (
            "endgame_d10",
            "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8 b - - 0 40",
            10,
        ),
    ] {
        let board = Board::from_fen(fen, false).expect("valid FEN");
        g.bench_function(name, |b| {
            b.iter(|| {
                let tt = Arc::new(Table::new(16).expect("16 MiB"));
                let mut w = Worker::new(0);
                let job = lazuli::tools::bench::fixed_depth_job(board, depth, tt, true);
                w.search(&job).best
            })
        });
    }
    g.finish();
}

fn tablebase(c: &mut Criterion) {
    let dir = std::env::var("LAZULI_SYZYGY")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/syzygy").to_string());
    let Some(p) = lazuli::tb::load(&dir).prober else {
        eprintln!("SKIPPED tablebase bench: no tables at {dir}");
        return;
    };
    let boards: Vec<Board> = [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/1n6/8/7K/8/3k4/1Q6 w - - 0 1",
        "8/1K6/4q3/8/8/6p1/8/2k5 w - - 0 1",
    ]
    .iter()
    .filter_map(|f| Board::from_fen(f, false).ok())
    .collect();
    // Warm the tables (the first probe of a table opens it).
    for b in &boards {
        let _ = p.probe_wdl_after_zeroing(b);
    }
    let mut g = c.benchmark_group("tb");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("wdl_probe_with_conversion", |bencher| {
        bencher.iter(|| {
            boards
                .iter()
                .filter_map(|b| p.probe_wdl_after_zeroing(black_box(b)))
                .sum::<i32>()
        })
    });
    g.bench_function("conversion_only", |bencher| {
        bencher.iter(|| {
            boards
                .iter()
                .filter(|b| lazuli::tb::to_chess(black_box(b)).is_some())
                .count()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = tt, eval, nnue_parts, search, tablebase
}
criterion_main!(benches);
