//! The numbers that tune the search, in one place.

/// Aspiration window half-width (centipawns) from depth `ASPIRATION_MIN_DEPTH` on.
pub const ASPIRATION_DELTA: i32 = 20;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: minimum depth and reduction `NMP_BASE + depth / NMP_DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DIVISOR: i32 = 3;

/// Reverse futility pruning: at depth <= `RFP_MAX_DEPTH`, a node whose eval beats beta by
/// `RFP_MARGIN` per ply (one ply less when improving) returns the eval.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 80;

/// Razoring: at depth <= `RAZOR_MAX_DEPTH`, an eval below alpha by
/// `RAZOR_BASE + RAZOR_MULT * depth^2` drops into quiescence search.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_BASE: i32 = 300;
pub const RAZOR_MULT: i32 = 250;

/// Null move: extra reduction of one ply per `NMP_EVAL_DIVISOR` the eval exceeds beta, up to
/// `NMP_EVAL_MAX`.
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;

/// Internal iterative reduction: a node without a TT move at depth >= `IIR_MIN_DEPTH` is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move pruning: quiet moves after `(LMP_BASE + depth^2) / (2 - improving)` are skipped.
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiet moves: at (reduced) depth <= `FP_MAX_DEPTH`, skipped when
/// eval + `FP_BASE` + `FP_MULT` * depth cannot reach alpha.
pub const FP_MAX_DEPTH: i32 = 8;
pub const FP_BASE: i32 = 100;
pub const FP_MULT: i32 = 100;

/// SEE pruning thresholds: quiets `-SEE_QUIET * lmr_depth^2`, captures `-SEE_CAPTURE * depth`.
pub const SEE_QUIET: i32 = 25;
pub const SEE_CAPTURE: i32 = 90;

/// LMR: one ply less per `LMR_HISTORY_DIVISOR` of history score.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Singular extensions: from depth `SE_MIN_DEPTH`, when the TT move has a lower bound at
/// depth >= depth - `SE_TT_DEPTH_MARGIN`, the other moves are searched against
/// `tt_score - SE_MARGIN * depth` at half depth; if all fail, the TT move is extended (twice
/// when they fail by `SE_DOUBLE_MARGIN`, at most `SE_MAX_DOUBLE` times on a path).
pub const SE_MIN_DEPTH: i32 = 7;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_MARGIN: i32 = 2;
pub const SE_DOUBLE_MARGIN: i32 = 20;
pub const SE_MAX_DOUBLE: u8 = 6;

/// Static-eval correction history: entries in units of 1/`CORR_GRAIN` cp, at most
/// `CORR_MAX` cp, blended with weight min(depth + 1, 16) / `CORR_WEIGHT_SCALE`.
pub const CORR_SIZE: usize = 16_384;
pub const CORR_GRAIN: i32 = 256;
pub const CORR_MAX: i32 = 64;
pub const CORR_WEIGHT_SCALE: i32 = 256;

/// Extend moves that give check by one ply (when no singular extension applies).
pub const CHECK_EXTENSION: bool = true;

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
