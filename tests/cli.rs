//! The `lazuli` binary's command line: perft output format, datagen and texel end to end, and
//! bad arguments.

mod common;

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
        vec!["datagen"],
        vec!["datagen", "--games", "2"],
        vec!["datagen", "--out", "/tmp/x", "--nodes", "0"],
        vec!["datagen", "--out", "/tmp/x", "--threads"],
        vec![
            "datagen",
            "--out",
            "/tmp/x",
            "--book",
            "/nonexistent/book.epd",
        ],
        vec!["datagen", "--out", "/tmp/x", "--frob", "1"],
        vec!["datagen", "--out", "/tmp/x", "--chess960", "101"],
        vec![
            "datagen",
            "--out",
            "/tmp/x",
            "--chess960",
            "50",
            "--book",
            "/tmp/x",
        ],
        vec!["texel"],
        vec!["texel", "/tmp/x", "--lambda", "2"],
        vec!["texel", "/tmp/x", "--l2"],
        vec!["texel", "/tmp/x", "12", "13"],
        vec!["bench", "0"],
        vec!["bench", "x"],
        vec!["train", "--out", "/tmp/x"],
        vec!["train", "/tmp/x", "--out", "/tmp/y", "--lambda", "1.5"],
        vec!["data"],
        vec!["data", "stats"],
        vec!["data", "text"],
        vec!["data", "text", "--min-ply", "x", "/tmp/x"],
        vec!["speedtest", "--threads", "0"],
        vec!["speedtest", "--numa", "sometimes"],
        vec!["speedtest", "--scaling", "--rounds", "0"],
        vec!["tb"],
        vec!["--syzygy-config"],
    ] {
        let (code, out, err) = lazuli(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn every_command_has_help_and_the_version_names_the_build() {
    for cmd in [
        "bench",
        "perft",
        "tb",
        "datagen",
        "data",
        "texel",
        "train",
        "speedtest",
        "net",
    ] {
        let (code, out, err) = lazuli(&[cmd, "--help"]);
        assert_eq!(code, 0, "{cmd} --help: {err}");
        assert!(
            out.contains(&format!("Usage: lazuli {cmd}")),
            "{cmd}: {out}"
        );
    }
    let (code, out, _) = lazuli(&["--version"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!("lazuli {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
    assert!(
        out.contains("sliding attacks: magic bitboards") || out.contains("sliding attacks: PEXT"),
        "{out}"
    );
    assert!(out.contains("network SIMD: "), "{out}");
}

#[test]
fn net_describes_a_network_and_rescales_a_copy() {
    // The embedded network (nets/ may hold candidates under test too).
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("nets")
        .join(lazuli::eval::nnue::DEFAULT_NET_NAME);
    let file = file.to_str().expect("utf-8 path");
    let (code, out, err) = lazuli(&["net", file]);
    assert_eq!(code, 0, "{err}");
    // The scale in the file's header (the trainer writes 400; `net --scale` changes it).
    let scale: u32 = out
        .split("output scale ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|v| v.parse().ok())
        .expect(&out);
    assert!((100..=1000).contains(&scale), "{out}");
    assert!(out.contains(" output bucket"), "{out}");
    let start = |out: &str| -> i32 {
        let l = out
            .lines()
            .find(|l| l.starts_with("start position "))
            .expect(out);
        l.split_whitespace()
            .nth(2)
            .and_then(|v| v.parse().ok())
            .expect(l)
    };
    let before = start(&out);
    let dir = std::env::temp_dir().join(format!("lazuli-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("x2.nnue");
    let copy = copy.to_str().unwrap();
    let doubled = (2 * scale).to_string();
    let (code, _, err) = lazuli(&["net", file, "--scale", &doubled, "--out", copy]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = lazuli(&["net", copy]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("output scale {doubled}")), "{out}");
    assert!((start(&out) - 2 * before).abs() <= 1, "{before} -> {out}");
    // Not a network, a scale out of range, --out without --scale: refused, nothing written.
    let (code, _, err) = lazuli(&["net", env!("CARGO_MANIFEST_DIR")]);
    assert_eq!(code, 1, "{err}");
    let bad = dir.join("bad.nnue");
    let bad = bad.to_str().unwrap();
    for args in [
        vec!["net", file, "--scale", "99", "--out", bad],
        vec!["net", file, "--out", bad],
    ] {
        let (code, _, err) = lazuli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!std::path::Path::new(bad).exists(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_output_feeds_the_tuner() {
    let dir = std::env::temp_dir().join(format!("lazuli-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pos.txt");
    let _ = std::fs::remove_file(&file);
    let book = common::data_dir().join("books/openings.epd");
    // Tablebases where present: datagen's tablebase adjudication is then exercised too.
    let tb = common::syzygy_dir();
    let f = file.to_str().unwrap();
    let mut args = vec![
        "datagen",
        "--out",
        f,
        "--games",
        "4",
        "--nodes",
        "1000",
        "--threads",
        "2",
        "--book",
        book.to_str().unwrap(),
        "--format",
        "text",
    ];
    if let Some(tb) = &tb {
        args.extend(["--syzygy", tb.to_str().unwrap()]);
    }
    let (code, out, err) = lazuli(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("4 games, "), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    let n = text.lines().count();
    assert!(out.contains(&format!(" {n} positions")), "{out}");
    // A second run appends.
    let (code, _, _) = lazuli(&args);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.lines().count() > n);
    for line in text.lines() {
        assert_eq!(line.split(" | ").count(), 3, "{line}");
    }
    // Too few positions to tune says so; a tune over the lines repeated runs.
    let (code, out, _) = lazuli(&["texel", f, "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("positions "), "{out}");
    let big = dir.join("big.txt");
    std::fs::write(&big, text.repeat(1 + 400 / text.lines().count())).unwrap();
    let (code, out, err) = lazuli(&[
        "texel",
        big.to_str().unwrap(),
        "20",
        "--psqt",
        "--lambda",
        "0.7",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("error after:"), "{out}");
    assert!(out.contains("// threat by pawn"), "{out}");
    assert!(out.contains("const EG_PST"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn viriformat_datagen_stats_and_training_end_to_end() {
    let dir = std::env::temp_dir().join(format!("lazuli-viri-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.viri");
    let f = file.to_str().unwrap();
    let gen_args = |games: &'static str| {
        vec![
            "datagen",
            "--out",
            f,
            "--games",
            games,
            "--nodes",
            "600",
            "--threads",
            "2",
            "--seed",
            "11",
        ]
    };
    let (code, out, err) = lazuli(&gen_args("6"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("6 games, "), "{out}");
    let positions: u64 = out
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .expect("a position count");
    let (code, stats, err) = lazuli(&["data", "stats", f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stats.starts_with(&format!("games 6  positions {positions}  ")),
        "{stats}"
    );
    // A run stopped inside a game: the next run cuts the partial game off and appends.
    let len = std::fs::metadata(&file).unwrap().len();
    let cut = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    cut.set_len(len - 6).unwrap();
    drop(cut);
    let (code, out, err) = lazuli(&gen_args("2"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("partial game"), "{err}");
    let (code, stats, _) = lazuli(&["data", "stats", f]);
    assert_eq!(code, 0);
    assert!(stats.starts_with("games 7  "), "{stats}");
    // Not viriformat: stats fails cleanly, datagen refuses to append to it.
    let junk = dir.join("junk.viri");
    std::fs::write(&junk, b"this is not a game file at all, not at all\n").unwrap();
    let (code, _, err) = lazuli(&["data", "stats", junk.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    // As text: one line per trainable position of the 7 games, as `stats` counts them.
    let trainable: usize = stats
        .split("trainable ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a trainable count");
    let (code, text, err) = lazuli(&["data", "text", f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(text.lines().count(), trainable, "{stats}");
    for line in text.lines() {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        lazuli::chess::Board::from_fen(parts[0], false).expect(line);
        assert!(parts[1].parse::<i32>().unwrap().abs() < 20_000, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
    }
    let (code, _, err) = lazuli(&["data", "text", junk.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    // The trainer reads it and writes a network the engine loads.
    let out_dir = dir.join("run");
    let (code, out, err) = lazuli(&[
        "train",
        "--out",
        out_dir.to_str().unwrap(),
        f,
        "--epochs",
        "2",
        "--batch",
        "256",
        "--threads",
        "2",
        "--val-frac",
        "0.2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("epoch   2/2"), "{err}");
    let csv = std::fs::read_to_string(out_dir.join("loss.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // The loss curve as a picture too.
    let png = std::fs::read(out_dir.join("loss.png")).expect("loss.png");
    assert_eq!(&png[..4], b"\x89PNG");
    let net = out_dir.join("net.nnue");
    let (code, out, err) = lazuli(&["bench", "4", net.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" nodes "), "{out}");
    // Resuming a finished run changes nothing and succeeds.
    let (code, _, err) = lazuli(&[
        "train",
        "--out",
        out_dir.to_str().unwrap(),
        f,
        "--epochs",
        "2",
        "--resume",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming after epoch 2"), "{err}");
    // A file named twice: the split-off validation games are trained on too, and it says so.
    let out2 = dir.join("run2");
    let short = |extra: &[&str]| {
        let mut a = vec!["train", "--out", out2.to_str().unwrap(), "--epochs", "1"];
        a.extend_from_slice(&["--batch", "256", "--threads", "2"]);
        a.extend_from_slice(extra);
        lazuli(&a)
    };
    let (code, _, err) = short(&[f, f]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is listed more than once"), "{err}");
    // --val: that file's games are the validation set and nothing is split off the training files.
    let _ = std::fs::remove_dir_all(&out2);
    let (code, _, err) = short(&[f, "--val", f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "training on {trainable}, validating on {trainable} ("
        )),
        "{err}"
    );
    assert!(!err.contains("listed more than once"), "{err}");
    let missing = dir.join("missing.viri");
    let (code, _, err) = short(&[f, "--val", missing.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn speedtest_scaling_reports_medians_of_interleaved_rounds() {
    let png = std::env::temp_dir().join(format!("lazuli-scaling-{}.png", std::process::id()));
    let _ = std::fs::remove_file(&png);
    let (code, out, err) = lazuli(&[
        "speedtest",
        "--threads",
        "2",
        "--hash",
        "16",
        "--scaling",
        "--seconds",
        "2",
        "--depth",
        "5",
        "--rounds",
        "2",
        "--quiet",
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let medians = out
        .split("medians of 2 rounds:")
        .nth(1)
        .unwrap_or_else(|| panic!("no medians: {out}"));
    let rows: Vec<Vec<&str>> = medians
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 5 && w[0].parse::<usize>().is_ok())
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!((rows[0][0], rows[1][0]), ("1", "2"), "{out}");
    assert_eq!(rows[0][2], "1.000", "{out}");
    // Any search runs at a million nodes a second or so; the floor only says that it ran, and
    // stays low so that a starved run (niced beside other work) passes too.
    for r in &rows {
        assert!(r[1].parse::<u64>().unwrap() > 1_000, "{out}");
        assert!(r[2].parse::<f64>().unwrap() > 0.0, "{out}");
    }
    assert!(
        std::fs::metadata(&png)
            .map(|m| m.len() > 1000)
            .unwrap_or(false),
        "no chart"
    );
    let _ = std::fs::remove_file(&png);
}

/// `--syzygy-config FILE`: a settings file is applied without a word; a folder, a missing file
/// or a device that never ends (which must not be read until memory runs out) gets one
/// `info string error` and the engine runs on to the end of its input.
#[test]
fn syzygy_config_file_is_read_and_bad_ones_are_refused() {
    let dir = std::env::temp_dir().join(format!("lazuli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.conf");
    std::fs::write(&good, "# settings\nSyzygyProbeDepth = 4\n").unwrap();
    let (code, out, _) = lazuli(&["--syzygy-config", good.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(!out.contains("error"), "{out}");
    let mut bad = vec![dir.clone(), dir.join("missing.conf")];
    if cfg!(unix) {
        bad.push("/dev/zero".into());
    }
    for path in bad {
        let (code, out, _) = lazuli(&["--syzygy-config", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{}", path.display());
        let errors = out
            .lines()
            .filter(|l| l.starts_with("info string error"))
            .count();
        assert_eq!(errors, 1, "{}: {out}", path.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
