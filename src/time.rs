//! Time management: pure functions from the clock to a soft limit (do not start another
//! iteration) and a hard limit (abort the search), and the per-iteration scaling of the soft
//! limit by best-move stability and the share of nodes spent on the best move.

/// The clock part of a `go` command, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time in ms (`wtime`/`btime`).
    pub time: Option<u64>,
    /// Increment per move in ms.
    pub inc: u64,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
}

/// Limits in milliseconds from the start of the search (or from `ponderhit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub soft: u64,
    pub hard: u64,
}

/// Soft and hard limits for this move, or `None` when the clock does not limit the search.
///
/// `overhead` (the `Move Overhead` option) is kept in reserve for the GUI's and the OS's delays;
/// `ply` is the game ply, used to spend a little more in the opening-to-middlegame phase when no
/// `movestogo` is given.
pub fn allocate(clock: &Clock, overhead: u64, ply: u32) -> Option<TimeLimits> {
    if let Some(mt) = clock.movetime {
        let t = mt.saturating_sub(overhead).max(1);
        return Some(TimeLimits { soft: t, hard: t });
    }
    let time = clock.time?;
    // Never plan to use the last `overhead` ms, and keep a small floor of 1 ms.
    let left = time.saturating_sub(overhead).max(1);
    let inc = clock.inc;
    let moves_left = match clock.movestogo {
        Some(m) => m.clamp(1, 60) as u64,
        // Sudden death: assume a game of about 50 moves, never fewer than 20 still to play.
        None => (50u64.saturating_sub(ply as u64 / 2)).max(20),
    };
    // The increment is spent (three quarters of it) only while the clock holds more than ten
    // increments, and not at all below five: otherwise the clock settles where a move costs
    // the increment, a few ms above zero, and one scheduler delay on a loaded machine loses
    // on time. With this the clock settles between five and ten increments (at 1+0.01 near
    // 70 ms rather than 25), which costs nothing once there: a move still gets about the
    // increment.
    let inc_share = if inc == 0 {
        0
    } else {
        (left.saturating_sub(5 * inc) * 3 / 4).min(inc * 5 * 3 / 4) / 5
    };
    let base = left / moves_left + inc_share;
    // Whatever happens, leave most of the clock for the rest of the game.
    let max_share = if moves_left == 1 {
        left * 8 / 10
    } else {
        left / 2
    };
    let soft = base.min(max_share).max(1);
    let hard = (base * 4).min(max_share.max(soft)).max(soft);
    Some(TimeLimits { soft, hard })
}

/// The factors of [`scaled_soft`]; their values live in `search::params` (`TM_*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scaling {
    /// Stretch of the soft limit per recent best-move change (at most 4 changes count, and
    /// the stretch never passes x2).
    pub per_change: f64,
    /// The node-share factor is `share_base - share`, at least 0.6.
    pub share_base: f64,
    /// A plain multiplier of the soft limit.
    pub soft: f64,
}

/// Scales the soft limit after an iteration. `best_move_changes` counts how often the best move
/// changed recently (decayed by the caller), `best_move_share` is the fraction of the root's
/// nodes spent below the best move (0..1). A stable best move that took most of the effort
/// lets the search stop early; an unstable one asks for more time (never past the hard limit).
pub fn scaled_soft(
    limits: &TimeLimits,
    best_move_changes: f64,
    best_move_share: f64,
    k: &Scaling,
) -> u64 {
    let stability = (1.0 + best_move_changes.clamp(0.0, 4.0) * k.per_change).min(2.0);
    let share = (k.share_base - best_move_share.clamp(0.0, 1.0)).max(0.6);
    let scaled = (limits.soft as f64 * k.soft * stability * share) as u64;
    scaled.clamp(1, limits.hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> Clock {
        Clock {
            time: Some(time),
            inc,
            movestogo: mtg,
            movetime: None,
        }
    }

    #[test]
    fn no_clock_no_limit() {
        assert_eq!(allocate(&Clock::default(), 10, 0), None);
    }

    #[test]
    fn movetime_minus_overhead() {
        let c = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        assert_eq!(
            allocate(&c, 30, 0),
            Some(TimeLimits {
                soft: 970,
                hard: 970
            })
        );
        let c = Clock {
            movetime: Some(1),
            ..Clock::default()
        };
        assert_eq!(allocate(&c, 30, 0), Some(TimeLimits { soft: 1, hard: 1 }));
    }

    #[test]
    fn sudden_death_uses_a_small_fraction() {
        let l = allocate(&clock(60_000, 0, None), 10, 0).unwrap();
        assert!(l.soft >= 900 && l.soft <= 1500, "{l:?}");
        assert!(l.hard <= 30_000 && l.hard >= l.soft);
    }

    #[test]
    fn increment_is_mostly_spent() {
        let l = allocate(&clock(1000, 10, None), 10, 40).unwrap();
        assert!(l.soft <= 500 && l.hard <= 500, "{l:?}");
        let l = allocate(&clock(10_000, 1000, None), 10, 40).unwrap();
        assert!(l.soft >= 750, "{l:?}");
    }

    /// Plays `moves` moves on `clock`, each using `k` times the soft limit (at most the hard
    /// one) plus `lag` ms the engine does not see; returns the least time left.
    fn simulate(time: u64, inc: u64, k: f64, lag: u64, moves: u32) -> i64 {
        let mut t = time as i64;
        let mut least = t;
        for ply in 0..moves {
            let l = allocate(&clock(t.max(0) as u64, inc, None), 10, ply * 2).unwrap();
            let used = ((l.soft as f64 * k) as u64).min(l.hard) + lag;
            t = t - used as i64 + inc as i64;
            least = least.min(t);
        }
        least
    }

    #[test]
    fn with_an_increment_the_clock_settles_well_above_zero() {
        for (time, inc) in [
            (1000, 10),
            (2000, 20),
            (8000, 80),
            (10_000, 100),
            (60_000, 600),
        ] {
            for k in [1.0, 1.3, 2.0] {
                let least = simulate(time, inc, k, 3, 200);
                assert!(least >= 5 * inc as i64, "{time}+{inc} x{k}: {least}");
            }
        }
    }

    #[test]
    fn zero_or_tiny_clock_still_gives_a_limit() {
        for t in [0, 1, 5, 10] {
            let l = allocate(&clock(t, 0, None), 10, 80).unwrap();
            assert!(l.soft >= 1 && l.hard >= l.soft && l.hard <= 1, "{t}: {l:?}");
        }
    }

    #[test]
    fn last_move_before_time_control() {
        let l = allocate(&clock(10_000, 0, Some(1)), 100, 60).unwrap();
        assert!(l.hard <= 9_900 * 8 / 10 && l.soft >= 5_000, "{l:?}");
    }

    #[test]
    fn hard_limit_never_exceeds_half_the_clock_with_moves_to_go() {
        for mtg in 2..60 {
            for t in [100u64, 1_000, 60_000, 3_600_000] {
                let l = allocate(&clock(t, 0, Some(mtg)), 10, 0).unwrap();
                assert!(
                    l.hard <= t.saturating_sub(10).max(1) / 2 + 1,
                    "{t} {mtg}: {l:?}"
                );
            }
        }
    }

    #[test]
    fn scaling_rewards_stability_and_respects_hard() {
        let l = TimeLimits {
            soft: 1000,
            hard: 3000,
        };
        let k = Scaling {
            per_change: 0.25,
            share_base: 1.6,
            soft: 1.3,
        };
        let stable = scaled_soft(&l, 0.0, 0.9, &k);
        let unstable = scaled_soft(&l, 3.0, 0.3, &k);
        assert!(stable < 1000 && unstable > 1000, "{stable} {unstable}");
        assert!(scaled_soft(&l, 100.0, 0.0, &k) <= 3000);
        let flat = Scaling {
            per_change: 0.0,
            share_base: 2.0,
            soft: 1.0,
        };
        assert_eq!(scaled_soft(&l, 3.0, 1.0, &flat), 1000);
    }
}
