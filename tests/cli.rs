//! The `lazuli` binary's command line: perft output format and bad arguments.

use std::process::Command;

fn lazuli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lazuli"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_divide_total_time_and_speed() {
    let (code, out, _) = lazuli(&["perft", "3"]);
    assert_eq!(code, 0);
    let is_divide_line = |l: &&str| {
        let b = l.as_bytes();
        b.len() > 6 && b[4] == b':' && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
    };
    let divide: Vec<&str> = out.lines().filter(is_divide_line).collect();
    assert_eq!(divide.len(), 20, "{out}");
    assert!(divide.contains(&"e2e4: 600"), "{out}");
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    assert!(
        out.contains("Time: ") && out.contains("Nodes/second: "),
        "{out}"
    );
}

#[test]
fn perft_takes_a_fen_and_chess960_castling() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let mut args = vec!["perft", "2"];
    args.extend(fen.split(' '));
    let (code, out, _) = lazuli(&args);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 528"), "{out}");
}

#[test]
fn bad_arguments_fail_cleanly() {
    for args in [
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "-1"],
        vec!["perft", "99"],
        vec!["perft", "2", "not", "a", "fen"],
        vec!["perft", "1", "8/8/8/8/8/8/8/8", "w", "-", "-"],
        vec!["frobnicate"],
    ] {
        let (code, out, err) = lazuli(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}
