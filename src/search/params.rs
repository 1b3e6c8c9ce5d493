//! The numbers that tune the search, in one place.
//!
//! The ones worth tuning are [`Tunable`]s, read with `.get()`. In a normal build each is a
//! constant the compiler folds in. With `--features tune` each becomes an atomic, the UCI
//! `uci` answer lists them as spin options, `setoption` sets them between searches, and
//! `scripts/spsa.py` tunes them by self-play (never ship a `tune` build: the options are for
//! the tuner only).

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// A search parameter with the range a tuner may move it in and the SPSA perturbation size
/// (`step`, the final `c` of the schedule).
pub struct Tunable {
    pub name: &'static str,
    #[cfg(not(feature = "tune"))]
    value: i32,
    #[cfg(feature = "tune")]
    value: AtomicI32,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: f64,
}

impl Tunable {
    pub const fn new(name: &'static str, value: i32, min: i32, max: i32, step: f64) -> Tunable {
        Tunable {
            name,
            #[cfg(not(feature = "tune"))]
            value,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(value),
            default: value,
            min,
            max,
            step,
        }
    }

    #[cfg(not(feature = "tune"))]
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.value
    }

    #[cfg(feature = "tune")]
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(Relaxed)
    }

    /// Sets the value (clamped to the range); only a `tune` build can.
    #[cfg(feature = "tune")]
    pub fn set(&self, v: i32) {
        self.value.store(v.clamp(self.min, self.max), Relaxed);
    }
}

/// Declares tunables: `NAME = default, min, max, step;` (with doc comments).
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident = $val:expr, $min:expr, $max:expr, $step:expr;)*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            pub const $name: Tunable = Tunable::new(stringify!($name), $val, $min, $max, $step);
            $(#[$doc])*
            #[cfg(feature = "tune")]
            pub static $name: Tunable = Tunable::new(stringify!($name), $val, $min, $max, $step);
        )*
        /// Every tunable, in declaration order.
        pub static TUNABLES: &[&Tunable] = &[$(&$name),*];
    };
}

/// The index in `TUNABLES` of the tunable with this name (ASCII case-insensitive).
pub fn tunable_index(name: &str) -> Option<usize> {
    TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

/// Aspiration windows start from depth `ASPIRATION_MIN_DEPTH`.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Null-move pruning from this depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move: at most this many extra plies of reduction for the eval's margin over beta.
pub const NMP_EVAL_MAX: i32 = 3;
/// Null move: a cut from depth `NMP_VERIFY_DEPTH` on is verified by a normal search at the
/// reduced depth, with null moves off over the next plies.
pub const NMP_VERIFY_DEPTH: i32 = 12;
/// Razoring only at depth <= `RAZOR_MAX_DEPTH`.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// Internal iterative reduction: a node without a TT move at depth >= `IIR_MIN_DEPTH` is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Late move reductions for quiet moves after the first `LMR_MIN_MOVES`, from depth
/// `LMR_MIN_DEPTH` on.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
/// Extra late-move reduction of the later moves at an expected cut node (see `negamax`).
pub const LMR_CUT_NODE: i32 = 2;
/// Singular extensions: from depth `SE_MIN_DEPTH`, when the TT move has a lower bound at
/// depth >= depth - `SE_TT_DEPTH_MARGIN`, the other moves are searched against
/// `tt_score - SE_MARGIN * depth` at half depth; if all fail, the TT move is extended (twice
/// when they fail by `SE_DOUBLE_MARGIN`, at most `SE_MAX_DOUBLE` times on a path).
pub const SE_MIN_DEPTH: i32 = 7;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_MAX_DOUBLE: u8 = 6;

tunables! {
    /// Aspiration window half-width (centipawns).
    ASPIRATION_DELTA = 16, 5, 80, 3.0;
    /// Null-move reduction `NMP_BASE + depth / NMP_DIVISOR + min((eval - beta) /
    /// NMP_EVAL_DIVISOR, NMP_EVAL_MAX)`.
    NMP_BASE = 3, 1, 6, 0.5;
    NMP_DIVISOR = 3, 2, 8, 0.5;
    NMP_EVAL_DIVISOR = 199, 60, 500, 20.0;
    /// Reverse futility pruning: at depth <= `RFP_MAX_DEPTH`, a node whose eval beats beta by
    /// `RFP_MARGIN` per ply (one ply less when improving) returns the eval.
    RFP_MAX_DEPTH = 8, 4, 14, 0.6;
    RFP_MARGIN = 68, 30, 200, 8.0;
    /// Razoring: an eval below alpha by `RAZOR_BASE + RAZOR_MULT * depth^2` drops into
    /// quiescence search.
    RAZOR_BASE = 281, 100, 800, 30.0;
    RAZOR_MULT = 250, 50, 600, 25.0;
    /// Late move pruning: quiet moves after `(LMP_BASE + depth^2) / (2 - improving)` are skipped.
    LMP_BASE = 3, 0, 10, 0.7;
    /// Futility pruning of quiet moves: at (reduced) depth <= `FP_MAX_DEPTH`, skipped when
    /// eval + `FP_BASE` + `FP_MULT` * depth cannot reach alpha.
    FP_MAX_DEPTH = 8, 3, 14, 0.6;
    FP_BASE = 95, 20, 300, 12.0;
    FP_MULT = 72, 30, 250, 10.0;
    /// SEE pruning thresholds: quiets `-SEE_QUIET * lmr_depth^2`, captures `-SEE_CAPTURE * depth`.
    SEE_QUIET = 22, 5, 100, 4.0;
    SEE_CAPTURE = 90, 20, 250, 10.0;
    /// Late move reductions: `(LMR_BASE_X100 + 100 ln(depth) ln(move number) /
    /// (LMR_DIVISOR_X100 / 100)) / 100` plies, less one per `LMR_HISTORY_DIVISOR` of history.
    LMR_BASE_X100 = 95, 0, 200, 8.0;
    LMR_DIVISOR_X100 = 230, 130, 400, 15.0;
    LMR_HISTORY_DIVISOR = 6264, 2000, 24000, 800.0;
    /// Singular extension margin per ply and the double-extension margin (centipawns).
    SE_MARGIN = 2, 1, 5, 0.4;
    SE_DOUBLE_MARGIN = 20, 0, 80, 4.0;
    /// History bonus for a cut at depth d: `min(HIST_MULT * d - HIST_SUB, HIST_MAX)`.
    HIST_MULT = 341, 80, 600, 25.0;
    HIST_SUB = 150, 0, 500, 25.0;
    HIST_MAX = 2400, 800, 4000, 150.0;
    /// Time management (hundredths): each recent best-move change stretches the soft limit by
    /// `TM_CHANGE_X100`%; the node share of the best move scales it by
    /// `(TM_SHARE_BASE_X100 - 100 * share) / 100`; the soft limit itself by `TM_SOFT_X100`%.
    TM_CHANGE_X100 = 25, 0, 60, 4.0;
    TM_SHARE_BASE_X100 = 130, 100, 250, 8.0;
    TM_SOFT_X100 = 130, 50, 200, 8.0;
}

/// Static-eval correction history: entries in units of 1/`CORR_GRAIN` cp, at most
/// `CORR_MAX` cp, blended with weight min(depth + 1, 16) / `CORR_WEIGHT_SCALE`.
pub const CORR_SIZE: usize = 16_384;
pub const CORR_GRAIN: i32 = 256;
pub const CORR_MAX: i32 = 64;
pub const CORR_WEIGHT_SCALE: i32 = 256;

/// Extend moves that give check by one ply (when no singular extension applies).
pub const CHECK_EXTENSION: bool = true;

/// The late-move-reduction table: `[depth][move number]`, both capped at 63.
pub fn lmr_table() -> Box<[[i32; 64]; 64]> {
    let base = LMR_BASE_X100.get() as f64 / 100.0;
    let divisor = LMR_DIVISOR_X100.get() as f64 / 100.0;
    Box::new(std::array::from_fn(|d| {
        std::array::from_fn(|m| {
            if d == 0 || m == 0 {
                0
            } else {
                (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32
            }
        })
    }))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_are_named_uniquely_and_in_range() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert_eq!(t.get(), t.default, "{}", t.name);
            assert!(
                t.step > 0.0 && t.step < (t.max - t.min) as f64,
                "{}",
                t.name
            );
            assert!(TUNABLES[..i].iter().all(|u| u.name != t.name), "{}", t.name);
            // UCI spin options are read as unsigned numbers.
            assert!(t.min >= 0, "{}", t.name);
            assert_eq!(tunable_index(&t.name.to_lowercase()), Some(i));
        }
        assert!(tunable_index("no such thing").is_none());
    }

    #[test]
    fn lmr_table_grows_with_depth_and_move_number() {
        let t = lmr_table();
        assert_eq!(t[0][10], 0);
        assert_eq!(t[10][0], 0);
        assert!(t[20][30] >= t[10][30] && t[20][30] >= t[20][10]);
        assert!(t[63][63] >= 5);
    }
}
