//! How quickly the thread pool starts and stops a search, and what it costs to hold many
//! threads: for each thread count, the time from the search's start (its `Control`) until the
//! last searcher has begun,
//! the time from setting `stop` until the result callback runs (where `bestmove` is printed),
//! the time to create the pool, and the resident memory with the pool idle.
//!
//!     cargo run --release --example pool_latency [-- 1 2 16 64 256 1024] [--trials N]

use lazuli::chess::Board;
use lazuli::search::{Control, Job, Limits};
use lazuli::threads::Pool;
use lazuli::tt::Table;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn rss_mib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut trials = 30;
    let mut counts = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--trials" {
            trials = args
                .get(i + 1)
                .and_then(|t| t.parse().ok())
                .unwrap_or(trials);
            i += 2;
            continue;
        }
        if let Ok(n) = args[i].parse::<usize>() {
            counts.push(n);
        }
        i += 1;
    }
    if counts.is_empty() {
        counts = vec![1, 2, 16, 64, 256, 1024];
    }
    let board = Board::startpos();
    let tt = Arc::new(Table::new(16).expect("16 MiB table"));
    println!(
        "{:>7} {:>12} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "threads", "create (ms)", "go p50", "go p90", "stop p50", "stop p99", "idle RSS MiB"
    );
    for &n in &counts {
        let before = rss_mib().unwrap_or(0);
        let t = Instant::now();
        let pool = Pool::new(n).expect("pool");
        let create_ms = t.elapsed().as_secs_f64() * 1000.0;
        pool.prefault_table(&tt);
        let idle = rss_mib().unwrap_or(0).saturating_sub(before);
        let (mut go, mut stop) = (Vec::new(), Vec::new());
        for _ in 0..trials {
            let control = Arc::new(Control::new(n, false));
            let limits = Limits {
                depth: Some(64),
                ..Limits::default()
            };
            let mut job = Job::silent(board, Vec::new(), limits, tt.clone(), false);
            job.control = control.clone();
            let (tx, rx) = crossbeam_channel::bounded(1);
            pool.start(
                job,
                Box::new(move |_| {
                    let _ = tx.send(Instant::now());
                }),
            );
            // Sleep rather than watch: a watching thread would take a core from the searchers.
            // Each searcher notes when it began; the last of those times is the figure.
            let deadline = Instant::now() + Duration::from_secs(60);
            std::thread::sleep(Duration::from_millis(20));
            while control.started.load(Ordering::Relaxed) < n && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            go.push(control.last_start_us() as f64 / 1e3);
            let t1 = Instant::now();
            control.stop.store(true, Ordering::Relaxed);
            let done = rx.recv().expect("result");
            stop.push(done.duration_since(t1).as_secs_f64() * 1e3);
        }
        println!(
            "{:>7} {:>12.1} {:>9.2}ms {:>9.2}ms {:>9.2}ms {:>9.2}ms {:>12}",
            n,
            create_ms,
            pct(&mut go, 0.5),
            pct(&mut go, 0.9),
            pct(&mut stop, 0.5),
            pct(&mut stop, 0.99),
            idle
        );
        drop(pool);
    }
}
