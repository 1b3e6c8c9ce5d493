//! Syzygy tests on the real tables in `../shared/syzygy` (or `$LAZULI_SYZYGY`). When the
//! tables are absent each test says so on stderr and returns without checking anything.

mod common;

use lazuli::chess::Board;
use lazuli::tb;
use std::path::PathBuf;

fn tb_dir() -> Option<PathBuf> {
    common::syzygy_dir()
}

fn prober() -> Option<tb::Prober> {
    let dir = tb_dir()?;
    let loaded = tb::load(&dir.to_string_lossy());
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    loaded.prober
}

#[test]
fn loads_all_three_and_four_piece_tables() {
    let Some(p) = prober() else { return };
    assert_eq!((p.wdl_files, p.dtz_files, p.max_pieces), (35, 35, 4));
}

#[test]
fn endgame_epd_wdl_and_dtz_agree() {
    let Some(p) = prober() else { return };
    let Some(dir) = tb_dir() else { return };
    let text = std::fs::read_to_string(dir.join("endgame.epd")).expect("endgame.epd");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let board =
            Board::from_fen(&fen.join(" "), false).unwrap_or_else(|e| panic!("{line}: {e}"));
        let field = |name: &str| -> i32 {
            line.split(';')
                .find_map(|f| {
                    let f = f.trim();
                    let f = f.strip_prefix(&fen.join(" ")).map(str::trim).unwrap_or(f);
                    f.strip_prefix(name).and_then(|v| v.trim().parse().ok())
                })
                .unwrap_or_else(|| panic!("no {name} in {line}"))
        };
        // `wdl_table` in the file is the raw table entry before captures are resolved; at
        // halfmove 0 the resolved value must equal `wdl`.
        assert_eq!(
            p.probe_wdl_after_zeroing(&board),
            Some(field("wdl ")),
            "wdl after zeroing: {line}"
        );
        assert_eq!(p.probe_wdl(&board), Some(field("wdl ")), "wdl: {line}");
        assert_eq!(p.probe_dtz(&board), Some(field("dtz ")), "dtz: {line}");
        n += 1;
    }
    assert_eq!(n, 200);
}

#[test]
fn missing_directory_and_corrupt_file_are_reported_not_fatal() {
    let Some(dir) = tb_dir() else { return };
    let tmp = std::env::temp_dir().join(format!("lazuli-tb-test-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // A truncated copy of a real table and a file with a wrong magic.
    let bytes = std::fs::read(dir.join("KRvK.rtbz")).unwrap();
    std::fs::write(tmp.join("KRvK.rtbz"), &bytes[..bytes.len() / 2]).unwrap();
    let mut bad = std::fs::read(dir.join("KQvK.rtbw")).unwrap();
    bad[0] ^= 0xff;
    std::fs::write(tmp.join("KQvK.rtbw"), &bad).unwrap();
    std::fs::copy(dir.join("KRvK.rtbw"), tmp.join("KRvK.rtbw")).unwrap();
    let paths = format!("/nonexistent/lazuli:{}", tmp.display());
    let loaded = tb::load(&paths);
    assert_eq!(loaded.errors.len(), 3, "{:?}", loaded.errors);
    let p = loaded.prober.expect("the good table loads");
    assert_eq!((p.wdl_files, p.dtz_files), (1, 0));
    let krk = Board::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false).unwrap();
    assert_eq!(p.probe_wdl_after_zeroing(&krk), Some(2));
    assert_eq!(p.probe_dtz(&krk), None, "no DTZ table: no DTZ, no crash");
    let kqk = Board::from_fen("8/8/8/4k3/8/8/Q7/4K3 w - - 0 1", false).unwrap();
    assert_eq!(p.probe_wdl_after_zeroing(&kqk), None);
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn root_ranking_keeps_only_winning_progress() {
    let Some(p) = prober() else { return };
    // KRvK: every kept move must keep the win and have the smallest DTZ.
    let b = Board::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false).unwrap();
    let moves = b.legal_moves().to_vec();
    let r = p.rank_root(&b, &moves, true, 7).expect("covered");
    assert_eq!(r.wdl, 2);
    assert!(!r.moves.is_empty() && r.moves.len() < moves.len());
    // KPvK draw is not a win.
    let b = Board::from_fen("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", false).unwrap();
    let r = p.rank_root(&b, &b.legal_moves(), true, 7).expect("covered");
    assert_eq!(r.wdl, 0);
    // Stalemating moves are never kept when a win exists: KQvK with a stalemate trap.
    let b = Board::from_fen("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", false).unwrap();
    let r = p.rank_root(&b, &b.legal_moves(), true, 7).expect("covered");
    assert_eq!(r.wdl, 2);
    for m in &r.moves {
        assert!(!b.make_move(*m).is_stalemate(), "{m} stalemates");
    }
}

/// Plays the root ranking's choice for both sides until mate: the win must come within the
/// root's DTZ (in these pawnless endings DTZ counts the plies to mate), with no stalemate.
fn play_out(p: &tb::Prober, fen: &str) {
    let mut b = Board::from_fen(fen, false).unwrap();
    let first = p.rank_root(&b, &b.legal_moves(), true, 7).expect("covered");
    assert_eq!(first.wdl, 2, "{fen}");
    let bound = first.dtz.expect("DTZ tables present").abs();
    let mut plies = 0;
    while !b.is_checkmate() {
        assert!(
            !b.is_stalemate(),
            "stalemate after {plies} plies from {fen}"
        );
        let r = p.rank_root(&b, &b.legal_moves(), true, 7).expect("covered");
        b = b.make_move(r.moves[0]);
        plies += 1;
        assert!(plies <= bound, "{fen}: no mate within DTZ {bound}");
    }
}

#[test]
fn kqk_and_krk_are_won_within_the_dtz_bound() {
    let Some(p) = prober() else { return };
    for fen in [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/Q7/4K3 w - - 0 1",
        "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
        "7k/8/8/8/8/8/8/KR6 w - - 0 1",
    ] {
        play_out(&p, fen);
    }
}

#[test]
fn the_only_winning_move_is_kept() {
    let Some(p) = prober() else { return };
    let Some(dir) = tb_dir() else { return };
    let text = std::fs::read_to_string(dir.join("endgame.epd")).unwrap();
    let mut found = 0;
    for line in text.lines() {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let Ok(b) = Board::from_fen(&fen.join(" "), false) else {
            continue;
        };
        let moves = b.legal_moves();
        let winning: Vec<_> = moves
            .iter()
            .filter(|&&m| {
                let c = b.make_move(m);
                c.is_checkmate() || p.probe_wdl(&c).is_some_and(|w| w == -2)
            })
            .collect();
        if winning.len() == 1 && moves.len() > 1 {
            let r = p.rank_root(&b, &moves, true, 7).unwrap();
            assert_eq!(r.moves, vec![*winning[0]], "{line}");
            found += 1;
        }
    }
    assert!(found > 0, "no single-winning-move position in endgame.epd");
}

#[test]
fn uci_loads_tables_reports_tbhits_and_a_tablebase_score() {
    let Some(dir) = tb_dir() else { return };
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lazuli"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut until_bestmove = |stdin: &mut std::process::ChildStdin, cmds: &str| -> Vec<String> {
        stdin.write_all(cmds.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut got = Vec::new();
        for l in out.by_ref().map_while(Result::ok) {
            let done = l.starts_with("bestmove");
            got.push(l);
            if done {
                break;
            }
        }
        got
    };
    // KRP v KRP: the search trades down into 4-piece endings and probes them.
    let lines = until_bestmove(
        &mut stdin,
        &format!(
            "setoption name SyzygyPath value {}\nposition fen 8/5k2/8/3p4/3P4/2r5/2R5/4K3 w - - 0 1\ngo depth 10\n",
            dir.display()
        ),
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("found 35 WDL and 35 DTZ tables, up to 4 pieces")),
        "{lines:?}"
    );
    let hits: u64 = lines
        .iter()
        .filter(|l| l.starts_with("info depth 10 "))
        .filter_map(|l| {
            l.split(" tbhits ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .next()
        .expect("depth 10 line");
    assert!(hits > 0, "no tbhits in a position trading down to 4 pieces");
    // KQvK at depth 1: a tablebase win is reported as a large centipawn score, not a mate the
    // search has not seen, and the move played keeps the win.
    let lines = until_bestmove(
        &mut stdin,
        "position fen 8/8/8/4k3/8/8/Q7/4K3 w - - 0 1\ngo depth 1\n",
    );
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let cp: i32 = last
        .split(" score cp ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .expect(last);
    assert!(cp > 29_000 && cp < 31_000, "{last}");
    let mv = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let b = Board::from_fen("8/8/8/4k3/8/8/Q7/4K3 w - - 0 1", false).unwrap();
    let after = b.make_move(b.parse_uci_move(&mv).unwrap());
    let p = prober().unwrap();
    assert_eq!(p.probe_wdl(&after), Some(-2), "{mv} does not keep the win");
    stdin.write_all(b"quit\n").unwrap();
    child.wait().unwrap();
}

#[test]
fn tb_command_lists_the_download_and_probes() {
    let Some(dir) = tb_dir() else { return };
    let five = dir.join("5-piece-wdl-only");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lazuli"))
        .arg("tb")
        .arg(&dir)
        .arg(&five)
        .args(["--probe", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("3-piece: 5 of 5 complete"), "{text}");
    assert!(text.contains("4-piece: 30 of 30 complete"), "{text}");
    assert!(
        text.contains("5-piece: 0 of 110 complete, 1 WDL only"),
        "{text}"
    );
    assert!(text.contains("WDL only: KBNvKN"), "{text}");
    assert!(
        text.contains("WDL: 2") && text.contains("DTZ: 27"),
        "{text}"
    );
}
