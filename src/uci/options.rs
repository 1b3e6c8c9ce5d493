//! The table of UCI options, named as Stockfish names them.

use crate::search::TbConfig;
use crate::threads::numa::Policy;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mib: u64,
    pub multipv: usize,
    pub move_overhead: u64,
    pub ponder: bool,
    pub chess960: bool,
    /// `UCI_ShowWDL`: add `wdl W D L` to scores.
    pub show_wdl: bool,
    pub numa: Policy,
    pub tb: TbConfig,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mib: 16,
            multipv: 1,
            move_overhead: 10,
            ponder: false,
            chess960: false,
            show_wdl: false,
            numa: Policy::Auto,
            tb: TbConfig::default(),
        }
    }
}

/// `EvalFile` values that name no file: the default evaluation, the embedded network, the
/// hand-written evaluation.
pub const EVAL_DEFAULT: &str = "<default>";
pub const EVAL_EMBEDDED: &str = "<embedded>";
pub const EVAL_HCE: &str = "<hce>";

pub const MAX_HASH_MIB: u64 = 1 << 20;
pub const MAX_THREADS: usize = 1024;
/// The thread count the pool starts with (afterwards the pool itself holds the count).
pub const DEFAULT_THREADS: usize = 1;

/// The `option ...` lines answered to `uci`.
pub fn describe() -> Vec<String> {
    let d = Options::default();
    vec![
        format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MIB}",
            d.hash_mib
        ),
        format!("option name Threads type spin default {DEFAULT_THREADS} min 1 max {MAX_THREADS}"),
        format!(
            "option name NumaPolicy type string default {}",
            d.numa.name()
        ),
        format!(
            "option name MultiPV type spin default {} min 1 max 256",
            d.multipv
        ),
        format!(
            "option name Move Overhead type spin default {} min 0 max 5000",
            d.move_overhead
        ),
        "option name Ponder type check default false".to_string(),
        "option name Clear Hash type button".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name SyzygyPath type string default <empty>".to_string(),
        format!("option name EvalFile type string default {EVAL_DEFAULT}"),
        format!(
            "option name SyzygyProbeDepth type spin default {} min 1 max 100",
            d.tb.probe_depth
        ),
        format!(
            "option name Syzygy50MoveRule type check default {}",
            d.tb.rule50
        ),
        format!(
            "option name SyzygyProbeLimit type spin default {} min 0 max 7",
            d.tb.probe_limit
        ),
    ]
    .into_iter()
    .chain(tunable_options())
    .collect()
}

/// In a `tune` build, every search parameter as a spin option (for `scripts/spsa.py`).
#[cfg(feature = "tune")]
fn tunable_options() -> Vec<String> {
    crate::search::params::TUNABLES
        .iter()
        .map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

#[cfg(not(feature = "tune"))]
fn tunable_options() -> Vec<String> {
    Vec::new()
}

/// A change the coordinator must carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(u64),
    Threads(usize),
    MultiPv(usize),
    MoveOverhead(u64),
    Ponder(bool),
    Chess960(bool),
    ShowWdl(bool),
    NumaPolicy(Policy),
    ClearHash,
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    SyzygyProbeLimit(usize),
    /// The network file to evaluate with, or one of [`EVAL_DEFAULT`], [`EVAL_EMBEDDED`],
    /// [`EVAL_HCE`].
    EvalFile(String),
    /// A search parameter (`tune` builds only): index into `TUNABLES`, value.
    #[cfg(feature = "tune")]
    Tune(usize, i32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(&'static str),
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |s: &str| -> String { s.chars().take(24).filter(|c| !c.is_control()).collect() };
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{}'", show(n)),
            OptionError::MissingValue(n) => write!(f, "option {n} needs a value"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(
                    f,
                    "'{}' is not a valid value for {name} (expected {expected})",
                    show(value)
                )
            }
        }
    }
}

fn spin(name: &'static str, value: Option<&str>, min: u64, max: u64) -> Result<u64, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    match v.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(OptionError::BadValue {
            name,
            value: v.to_string(),
            expected: format!("{min} to {max}"),
        }),
    }
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::BadValue {
            name,
            value: v.to_string(),
            expected: "true or false".into(),
        }),
    }
}

/// Validates a `setoption`; names are case-insensitive as in the UCI protocol.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "hash" => spin("Hash", value, 1, MAX_HASH_MIB).map(Change::Hash),
        "threads" => {
            spin("Threads", value, 1, MAX_THREADS as u64).map(|n| Change::Threads(n as usize))
        }
        "multipv" => spin("MultiPV", value, 1, 256).map(|n| Change::MultiPv(n as usize)),
        "move overhead" => spin("Move Overhead", value, 0, 5000).map(Change::MoveOverhead),
        "ponder" => check("Ponder", value).map(Change::Ponder),
        "uci_chess960" => check("UCI_Chess960", value).map(Change::Chess960),
        "uci_showwdl" => check("UCI_ShowWDL", value).map(Change::ShowWdl),
        "numapolicy" => {
            let v = value.ok_or(OptionError::MissingValue("NumaPolicy"))?;
            Policy::parse(v)
                .map(Change::NumaPolicy)
                .ok_or_else(|| OptionError::BadValue {
                    name: "NumaPolicy",
                    value: v.to_string(),
                    expected: "auto, none or system".into(),
                })
        }
        "clear hash" => Ok(Change::ClearHash),
        "syzygypath" => {
            let v = value.ok_or(OptionError::MissingValue("SyzygyPath"))?.trim();
            Ok(Change::SyzygyPath(if v == "<empty>" {
                String::new()
            } else {
                v.to_string()
            }))
        }
        "evalfile" => {
            let v = value.ok_or(OptionError::MissingValue("EvalFile"))?.trim();
            Ok(Change::EvalFile(if v.is_empty() {
                EVAL_DEFAULT.to_string()
            } else {
                v.to_string()
            }))
        }
        "syzygyprobedepth" => {
            spin("SyzygyProbeDepth", value, 1, 100).map(|n| Change::SyzygyProbeDepth(n as i32))
        }
        "syzygy50moverule" => check("Syzygy50MoveRule", value).map(Change::Syzygy50MoveRule),
        "syzygyprobelimit" => {
            spin("SyzygyProbeLimit", value, 0, 7).map(|n| Change::SyzygyProbeLimit(n as usize))
        }
        _ => tune_change(name, value),
    }
}

#[cfg(feature = "tune")]
fn tune_change(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    use crate::search::params::{TUNABLES, tunable_index};
    let i = tunable_index(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let t = TUNABLES[i];
    spin(t.name, value, t.min as u64, t.max as u64).map(|n| Change::Tune(i, n as i32))
}

#[cfg(not(feature = "tune"))]
fn tune_change(name: &str, _value: Option<&str>) -> Result<Change, OptionError> {
    Err(OptionError::Unknown(name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(parse_change("Hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(
            parse_change("hash", Some("1048576")),
            Ok(Change::Hash(1 << 20))
        );
        assert!(parse_change("Hash", Some("0")).is_err());
        assert!(parse_change("Hash", Some("-1")).is_err());
        assert!(parse_change("Hash", None).is_err());
        assert!(parse_change("Threads", Some("1025")).is_err());
        assert_eq!(
            parse_change("threads", Some("1024")),
            Ok(Change::Threads(1024))
        );
        assert_eq!(
            parse_change("UCI_Chess960", Some("TRUE")),
            Ok(Change::Chess960(true))
        );
        assert!(parse_change("Ponder", Some("yes")).is_err());
        assert_eq!(
            parse_change("NumaPolicy", Some(" None ")),
            Ok(Change::NumaPolicy(Policy::None))
        );
        assert!(parse_change("NumaPolicy", Some("hardware")).is_err());
        assert!(parse_change("NumaPolicy", None).is_err());
        assert_eq!(
            parse_change("UCI_ShowWDL", Some("true")),
            Ok(Change::ShowWdl(true))
        );
        assert_eq!(parse_change("Clear Hash", None), Ok(Change::ClearHash));
        assert!(matches!(
            parse_change("Contempt", Some("0")),
            Err(OptionError::Unknown(_))
        ));
    }
}
