//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared test data folder: `$LAZULI_SHARED`, else `../shared` beside the repository.
/// Panics with a clear message when it is missing: these suites are required, not optional.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("LAZULI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    assert!(
        dir.join("perft").is_dir(),
        "shared test data not found at {} (set LAZULI_SHARED to the folder holding perft/ and epd/)",
        dir.display()
    );
    dir
}

pub fn read_lines(rel: &str) -> Vec<String> {
    let path = shared_dir().join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// One perft suite line: FEN and `(depth, count)` pairs.
pub struct PerftLine {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn perft_suite(rel: &str) -> Vec<PerftLine> {
    read_lines(rel)
        .iter()
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it
                        .next()
                        .and_then(|d| d.strip_prefix('D'))
                        .and_then(|d| d.parse().ok());
                    let n = it.next().and_then(|n| n.parse().ok());
                    match (d, n) {
                        (Some(d), Some(n)) => (d, n),
                        _ => panic!("bad perft entry '{p}' in {rel}"),
                    }
                })
                .collect();
            PerftLine { fen, counts }
        })
        .collect()
}

/// Small deterministic PRNG for playouts (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
