//! FEN: the edge cases of `../shared/epd/edge-cases.epd`, round trips of every suite position,
//! and random bytes and mutated FENs fed to the parser (it must never panic, and whatever it
//! accepts must be a consistent board that prints and re-parses to the same position).

mod common;

use common::{Rng, perft_suite, read_lines};
use lazuli::chess::{Board, Validation};

struct EdgeCase {
    fen: String,
    class: String,
    what: String,
    clean: Option<String>,
    d1: Option<usize>,
    chess960: bool,
}

fn quoted(field: &str) -> String {
    field.split('"').nth(1).unwrap_or("").to_string()
}

fn edge_cases() -> Vec<EdgeCase> {
    read_lines("epd/edge-cases.epd")
        .iter()
        .map(|line| {
            let mut fields = line.split(" ; ");
            let fen = fields.next().unwrap_or("").trim().to_string();
            let mut case = EdgeCase {
                fen,
                class: String::new(),
                what: String::new(),
                clean: None,
                d1: None,
                chess960: false,
            };
            for f in fields {
                let f = f.trim();
                if let Some(rest) = f
                    .strip_prefix("valid")
                    .or(f.strip_prefix("sanitize"))
                    .or(f.strip_prefix("invalid"))
                {
                    case.class = f[..f.len() - rest.len()].to_string();
                    case.what = quoted(rest);
                } else if let Some(rest) = f.strip_prefix("clean") {
                    case.clean = Some(quoted(rest));
                } else if let Some(rest) = f.strip_prefix("D1") {
                    case.d1 = rest.trim().parse().ok();
                } else if f.starts_with("variant") {
                    case.chess960 = f.contains("chess960");
                }
            }
            case
        })
        .collect()
}

#[test]
fn edge_cases_are_classified_correctly() {
    let cases = edge_cases();
    assert!(cases.len() >= 50, "only {} edge cases read", cases.len());
    let mut counts = [0; 3];
    for c in &cases {
        let parsed = Board::from_fen(&c.fen, c.chess960);
        match c.class.as_str() {
            "valid" => {
                let b = parsed
                    .unwrap_or_else(|e| panic!("valid FEN refused ({}): {} -> {e}", c.what, c.fen));
                let d1 = c.d1.expect("valid lines carry D1");
                assert_eq!(b.legal_moves().len(), d1, "{}: {}", c.what, c.fen);
                counts[0] += 1;
            }
            "sanitize" => {
                let b =
                    parsed.unwrap_or_else(|e| panic!("sanitizable FEN refused ({}): {e}", c.what));
                let clean =
                    Board::from_fen(c.clean.as_deref().expect("clean FEN given"), c.chess960)
                        .unwrap();
                assert!(
                    b.same_position(&clean),
                    "{}: got {}, expected {}",
                    c.what,
                    b.to_fen(),
                    clean.to_fen()
                );
                assert_eq!(Some(b.legal_moves().len()), c.d1, "{}", c.what);
                counts[1] += 1;
            }
            "invalid" => {
                assert!(
                    parsed.is_err(),
                    "invalid FEN accepted ({}): {}",
                    c.what,
                    c.fen
                );
                counts[2] += 1;
            }
            other => panic!("unknown class '{other}' in {}", c.fen),
        }
    }
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}

#[test]
fn impossible_double_check_only_for_perft() {
    // perftsuite.epd line 51: refused when strict, accepted for perft.
    let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    assert!(Board::from_fen(fen, false).is_err());
    assert!(Board::from_fen_with(fen, false, Validation::AllowImpossibleCheck).is_ok());
}

fn round_trip(b: &Board, chess960: bool) {
    let fen = b.to_fen();
    let again = Board::from_fen_with(&fen, chess960, Validation::AllowImpossibleCheck)
        .unwrap_or_else(|e| panic!("printed FEN {fen} refused: {e}"));
    assert!(
        again.same_position(b),
        "round trip changed {fen} into {}",
        again.to_fen()
    );
    assert_eq!(again.to_fen(), fen);
    assert_eq!(
        (again.halfmove_clock(), again.fullmove_number()),
        (b.halfmove_clock(), b.fullmove_number())
    );
}

#[test]
fn every_suite_position_round_trips() {
    let mut n = 0;
    for (file, chess960) in [
        ("perft/perftsuite.epd", false),
        ("perft/cpw-positions.epd", false),
        ("perft/chess960.epd", true),
    ] {
        for line in perft_suite(file) {
            let b = Board::from_fen_with(&line.fen, chess960, Validation::AllowImpossibleCheck)
                .unwrap();
            round_trip(&b, chess960);
            n += 1;
        }
    }
    for file in [
        "epd/wac.epd",
        "epd/arasan21.epd",
        "epd/sts1-15.epd",
        "epd/bratko-kopec.epd",
        "epd/eet.epd",
        "epd/ecmgcp.epd",
        "epd/bt2630.epd",
    ] {
        let Some(lines) = common::read_shared_lines(file) else {
            continue;
        };
        for line in lines {
            // EPD: four FEN fields, then operations.
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let b = Board::from_fen(&fen.join(" "), false)
                .unwrap_or_else(|e| panic!("{file}: {line}: {e}"));
            round_trip(&b, false);
            n += 1;
        }
    }
    let own = n;
    for file in [
        "books/openings.epd",
        "books/noob_2moves.epd",
        "books/8mvs_+90_+99.epd",
    ] {
        let Some(lines) = common::read_shared_lines(file) else {
            continue;
        };
        for line in lines {
            let b = Board::from_fen(&line, false).unwrap_or_else(|e| panic!("{file}: {line}: {e}"));
            round_trip(&b, false);
            n += 1;
        }
    }
    // The suites the project carries (1,093 perft positions) always; with ../shared, its
    // tactical suites and books as well.
    assert!(own >= 1_093, "{own}");
    if common::shared_dir().is_some() {
        assert!(n > 10_000, "{n}");
    }
}

/// Whatever the parser accepts must be sound.
fn accept_or_reject(text: &str, chess960: bool) -> bool {
    match Board::from_fen(text, chess960) {
        Ok(b) => {
            assert!(b.is_consistent(), "inconsistent board from {text:?}");
            round_trip(&b, chess960);
            // The position must be usable: generate and play every move.
            for m in b.legal_moves().iter() {
                assert!(b.make_move(*m).is_consistent());
            }
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(0xF00D_CAFE_1234_5678);
    for _ in 0..50_000 {
        let len = rng.below(100);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        accept_or_reject(&String::from_utf8_lossy(&bytes), false);
        // Printable-ASCII junk drawn from FEN's own alphabet gets further into the parser.
        let alphabet = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0-9 ";
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        accept_or_reject(&text, rng.below(2) == 0);
    }
}

#[test]
fn mutated_fens_never_panic() {
    let mut rng = Rng::new(0xDEAD_BEEF_0BAD_F00D);
    let mut seeds: Vec<String> = edge_cases().into_iter().map(|c| c.fen).collect();
    seeds.extend(
        perft_suite("perft/perftsuite.epd")
            .into_iter()
            .map(|l| l.fen),
    );
    seeds.extend(
        perft_suite("perft/chess960.epd")
            .into_iter()
            .take(100)
            .map(|l| l.fen),
    );
    let pieces = b"pnbrqkPNBRQK123456789/ -wbKQkqABCDEFGHabcdefgh0x\xff";
    let mut accepted = 0;
    let mut total = 0;
    for seed in &seeds {
        for _ in 0..1000 {
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 if i < bytes.len() => bytes[i] = pieces[rng.below(pieces.len())],
                    1 => bytes.insert(i, pieces[rng.below(pieces.len())]),
                    2 if i < bytes.len() => {
                        bytes.remove(i);
                    }
                    _ => {
                        // Swap two whitespace-separated fields.
                        let text = String::from_utf8_lossy(&bytes).to_string();
                        let mut f: Vec<&str> = text.split(' ').collect();
                        if f.len() > 1 {
                            let (a, b) = (rng.below(f.len()), rng.below(f.len()));
                            f.swap(a, b);
                        }
                        bytes = f.join(" ").into_bytes();
                    }
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            accepted += accept_or_reject(&text, rng.below(2) == 0) as usize;
            total += 1;
        }
    }
    // The mutations must exercise both paths, or the test proves little.
    assert!(
        accepted > total / 50 && accepted < total,
        "accepted {accepted} of {total}"
    );
}
