//! Syzygy tests on the real tables in `../shared/syzygy` (or `$LAZULI_SYZYGY`). When the
//! tables are absent each test says so on stderr and returns without checking anything.

mod common;

use lazuli::chess::Board;
use lazuli::tb;
use std::path::PathBuf;

fn tb_dir() -> Option<PathBuf> {
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
