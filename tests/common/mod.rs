//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The test data the project carries (`tests/data/`: perft suites, edge-case FENs, a few
/// opening lines; see its README for the sources).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The larger shared data folder, if present: `$LAZULI_SHARED`, else `../shared` beside the
/// repository.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("LAZULI_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.is_dir().then_some(dir)
}

/// `rel` in the project's own test data, else in the shared folder.
pub fn find(rel: &str) -> Option<PathBuf> {
    let own = data_dir().join(rel);
    if own.is_file() {
        return Some(own);
    }
    shared_dir().map(|d| d.join(rel)).filter(|p| p.is_file())
}

fn lines_of(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The lines of a file the project carries (required: panics when it is missing).
pub fn read_lines(rel: &str) -> Vec<String> {
    let path = find(rel).unwrap_or_else(|| panic!("test data {rel} not found in tests/data"));
    lines_of(&path)
}

/// The lines of a file only the shared folder has, or `None` (with one SKIPPED line).
pub fn read_shared_lines(rel: &str) -> Option<Vec<String>> {
    match find(rel) {
        Some(p) => Some(lines_of(&p)),
        None => {
            eprintln!("SKIPPED: {rel} (only in ../shared or $LAZULI_SHARED, not found)");
            None
        }
    }
}

/// The Syzygy tables: `$LAZULI_SYZYGY`, else `../shared/syzygy`; `None` (with one SKIPPED
/// line) when there are none.
pub fn syzygy_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("LAZULI_SYZYGY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy"));
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: no Syzygy tables at {} (set LAZULI_SYZYGY)",
            dir.display()
        );
        None
    }
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

/// The seedable generator datagen uses (xorshift64*), for the tests' playouts.
#[allow(unused_imports)] // not every test file plays out random games
pub use lazuli::tools::datagen::Rng;
