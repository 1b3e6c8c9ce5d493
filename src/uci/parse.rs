//! Pure parsing of UCI input lines: `&str -> Result<Command, ParseError>`. No state, no I/O.
//! Anything position-dependent (FEN validity, move legality) is checked by the coordinator.

use std::fmt;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: u64,
    pub binc: u64,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    StartPos,
    Fen(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        position: Position,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    Bench {
        depth: Option<u32>,
    },
    /// `speedtest [threads] [hash MiB] [seconds]`, as Stockfish 17 takes it.
    Speedtest {
        threads: Option<usize>,
        hash_mib: Option<u64>,
        seconds: Option<u32>,
    },
    Display,
    Eval,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Unknown(String),
    Missing(&'static str),
    BadNumber { what: String, value: String },
    Unexpected(String),
    TooLong(usize),
}

fn show(s: &str) -> String {
    let t: String = s
        .chars()
        .take(24)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().count() > 24 {
        format!("{t}...")
    } else {
        t
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(c) => write!(f, "unknown command '{}'", show(c)),
            ParseError::Missing(what) => write!(f, "missing {what}"),
            ParseError::BadNumber { what, value } => {
                write!(
                    f,
                    "'{}' is not a valid value for {}",
                    show(value),
                    show(what)
                )
            }
            ParseError::Unexpected(t) => write!(f, "unexpected '{}'", show(t)),
            ParseError::TooLong(n) => write!(f, "line of {n} bytes is too long"),
        }
    }
}

/// Lines longer than this are refused (a FEN with a long move list stays far below it).
pub const MAX_LINE: usize = 1 << 20;

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Parses one line. `Ok(None)` for an empty line (ignored, as GUIs expect).
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    if line.len() > MAX_LINE {
        return Err(ParseError::TooLong(line.len()));
    }
    let mut tokens = line.split_whitespace();
    let Some(cmd) = tokens.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = tokens.collect();
    let no_args = |c: Command| -> Result<Option<Command>, ParseError> {
        match rest.first() {
            None => Ok(Some(c)),
            Some(t) => Err(ParseError::Unexpected(t.to_string())),
        }
    };
    match cmd {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => Ok(Some(Command::Quit)),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "debug" => match rest.as_slice() {
            ["on"] => Ok(Some(Command::Debug(true))),
            ["off"] => Ok(Some(Command::Debug(false))),
            [] => Err(ParseError::Missing("on or off after debug")),
            [t, ..] => Err(ParseError::Unexpected(t.to_string())),
        },
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(|g| Some(Command::Go(g))),
        "bench" => match rest.as_slice() {
            [] => Ok(Some(Command::Bench { depth: None })),
            [d] => Ok(Some(Command::Bench {
                depth: Some(number(d, "bench depth")?),
            })),
            [_, t, ..] => Err(ParseError::Unexpected(t.to_string())),
        },
        "speedtest" => {
            if let Some(t) = rest.get(3) {
                return Err(ParseError::Unexpected(t.to_string()));
            }
            let threads = rest
                .first()
                .map(|s| number(s, "speedtest threads"))
                .transpose()?;
            let hash_mib = rest
                .get(1)
                .map(|s| number(s, "speedtest hash"))
                .transpose()?;
            let seconds = rest
                .get(2)
                .map(|s| number(s, "speedtest seconds"))
                .transpose()?;
            Ok(Some(Command::Speedtest {
                threads,
                hash_mib,
                seconds,
            }))
        }
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, ParseError> {
    s.parse().map_err(|_| ParseError::BadNumber {
        what: what.to_string(),
        value: s.to_string(),
    })
}

/// Clock values: some GUIs send negative times once a clock has run out; read those as 0.
fn clock_ms(s: &str, what: &str) -> Result<u64, ParseError> {
    let v: i64 = number(s, what)?;
    Ok(v.max(0) as u64)
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    if rest.first() != Some(&"name") {
        return Err(ParseError::Missing("'name' after setoption"));
    }
    let value_at = rest.iter().position(|t| *t == "value");
    let name_end = value_at.unwrap_or(rest.len());
    let name = rest[1..name_end].join(" ");
    if name.is_empty() {
        return Err(ParseError::Missing("option name"));
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let moves_at = rest.iter().position(|t| *t == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves: Vec<String> = moves_at.map_or(Vec::new(), |i| {
        rest[i + 1..].iter().map(|s| s.to_string()).collect()
    });
    let position = match head {
        ["startpos"] => Position::StartPos,
        ["startpos", t, ..] => return Err(ParseError::Unexpected(t.to_string())),
        ["fen", fields @ ..] if !fields.is_empty() => Position::Fen(fields.join(" ")),
        ["fen"] => return Err(ParseError::Missing("FEN after 'position fen'")),
        [] => return Err(ParseError::Missing("'startpos' or 'fen' after position")),
        [t, ..] => return Err(ParseError::Unexpected(t.to_string())),
    };
    Ok(Command::Position { position, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let value = rest.get(i + 1).copied();
        let need = |what: &'static str| value.ok_or(ParseError::Missing(what));
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                let mut j = i + 1;
                while j < rest.len() && !GO_KEYWORDS.contains(&rest[j]) {
                    go.searchmoves.push(rest[j].to_string());
                    j += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err(ParseError::Missing("moves after searchmoves"));
                }
                i = j;
                continue;
            }
            "wtime" => go.wtime = Some(clock_ms(need("a value after wtime")?, key)?),
            "btime" => go.btime = Some(clock_ms(need("a value after btime")?, key)?),
            "winc" => go.winc = clock_ms(need("a value after winc")?, key)?,
            "binc" => go.binc = clock_ms(need("a value after binc")?, key)?,
            "movestogo" => go.movestogo = Some(number(need("a value after movestogo")?, key)?),
            "depth" => go.depth = Some(number(need("a value after depth")?, key)?),
            "nodes" => go.nodes = Some(number(need("a value after nodes")?, key)?),
            "mate" => go.mate = Some(number(need("a value after mate")?, key)?),
            "movetime" => go.movetime = Some(number(need("a value after movetime")?, key)?),
            "perft" => go.perft = Some(number(need("a depth after perft")?, key)?),
            other => return Err(ParseError::Unexpected(other.to_string())),
        }
        i += if matches!(key, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Some(Command::Uci)));
        assert_eq!(parse("  isready  "), Ok(Some(Command::IsReady)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   \t "), Ok(None));
        assert!(matches!(
            parse("ucinewgame x"),
            Err(ParseError::Unexpected(_))
        ));
        assert!(matches!(parse("frobnicate"), Err(ParseError::Unknown(_))));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert!(parse("setoption Hash 10").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position {
                position: Position::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        let fen = "8/8/4k3/8/8/3K4/8/8 w - - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(Some(Command::Position {
                position: Position::Fen(fen.into()),
                moves: vec![]
            }))
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position sideways").is_err());
    }

    #[test]
    fn go_parameters() {
        let g = match parse(
            "go wtime 1000 btime -5 winc 10 binc 10 movestogo 20 searchmoves e2e4 d2d4 ponder",
        ) {
            Ok(Some(Command::Go(g))) => g,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.movestogo),
            (Some(1000), Some(0), 10, Some(20))
        );
        assert_eq!(g.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert!(g.ponder && !g.infinite);
        for bad in [
            "go depth",
            "go depth x",
            "go nodes -1",
            "go movetime 1.5",
            "go sideways",
            "go searchmoves",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(matches!(parse("go"), Ok(Some(Command::Go(_)))));
    }

    #[test]
    fn junk_never_panics() {
        let long = "x".repeat(MAX_LINE + 1);
        assert!(matches!(parse(&long), Err(ParseError::TooLong(_))));
        for junk in [
            "\u{0}\u{1}",
            "go \u{ff}",
            "setoption name \u{7f} value",
            "position fen \u{0}",
        ] {
            let _ = parse(junk);
        }
    }
}
