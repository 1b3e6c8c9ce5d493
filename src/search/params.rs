//! The numbers that tune the search, in one place.

/// Aspiration window half-width (centipawns) from depth `ASPIRATION_MIN_DEPTH` on.
pub const ASPIRATION_DELTA: i32 = 20;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: minimum depth and reduction `NMP_BASE + depth / NMP_DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DIVISOR: i32 = 4;

/// Late move reductions: `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR` plies for
/// quiet moves after the first `LMR_MIN_MOVES`, from depth `LMR_MIN_DEPTH` on.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;

/// How often (in nodes) a searcher looks at the clock and the stop flag.
pub const CHECK_EVERY: u64 = 1024;

/// After this long, the main searcher reports `currmove` lines.
pub const CURRMOVE_AFTER_MS: u64 = 3000;

/// An aspiration fail is reported only after this long (a GUI needs no flood of them).
pub const REPORT_BOUNDS_AFTER_MS: u64 = 1000;

/// Lazy SMP: helper `i` skips depths by the block pattern entry `(i - 1) % 20`: it skips
/// iteration `d` when `((d + PHASE) / SIZE)` is odd, so helpers spread over several depths.
pub const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
pub const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
