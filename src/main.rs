//! Command line: no argument runs the UCI engine; `perft`, `bench` and `help` are subcommands.

use lazuli::chess::perft::{divide, perft};
use lazuli::chess::{Board, STARTPOS, Validation};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  lazuli                                    run the UCI engine on stdin/stdout
  lazuli bench [depth] [evalfile]           search the bench positions; last line: N nodes M nps
                                            (evalfile: <hce>, <embedded> or a network file)
  lazuli --syzygy-config FILE               run the UCI engine with tablebase settings from FILE
                                            (or name it in LAZULI_SYZYGY_CONFIG)
  lazuli perft <depth> [--chess960] [fen]   count leaf nodes (divide per root move)
  lazuli tb <dir>... [--probe \"<fen>\"]      check a Syzygy download; probe a position
  lazuli texel <file> [epochs] [--psqt] [--lambda L] [--l2 X] [--rate R] [--threads N]
                                            tune the evaluation's weights (with --psqt its
                                            piece-square tables too) on '<FEN> | [<score> |]
                                            <result>' lines (datagen, scripts/texel_data.py)
  lazuli datagen --out FILE [--games N] [--nodes N] [--threads N] [--book EPD]
                 [--random-plies N] [--seed N] [--syzygy DIRS] [--hash MIB]
                 [--format viri|text] [--net FILE|<hce>|<embedded>] [--soft-nodes N]
                                            self-play at fixed nodes (--soft-nodes: stop after
                                            the iteration past N, --nodes stays the hard
                                            limit), appended to FILE: every
                                            ply in viriformat (default), or text lines
                                            '<FEN> | <score> | <result>'
  lazuli data stats FILE...                 games, positions, results and scores of
                                            viriformat files
  lazuli train --out DIR FILE... [--epochs N] [--batch N] [--lr X] [--lr-end X] [--wd X]
               [--lambda L] [--threads N] [--val-frac X] [--min-ply N] [--seed N]
               [--save-every N] [--resume] [--mirror]
                                            train the network on datagen's files (viriformat
                                            or text, told apart by content); writes
                                            DIR/loss.csv, DIR/checkpoint.bin, DIR/net.nnue;
                                            --mirror adds the left-right mirror of each
                                            training position
  lazuli speedtest [--threads N] [--hash MIB] [--seconds S] [--scaling] [--depth D]
                   [--numa auto|none|system] [--png FILE]
                                            search four games' positions with game-like time
                                            per move and the table carried between moves:
                                            nps, nps per thread, hashfull, huge pages (defaults:
                                            all logical cores, 128 MiB per thread, 150 s);
                                            --scaling: the same at 1, 2, 4, ... threads, with
                                            nps efficiency and time to depth D (default 16),
                                            charted in FILE (default speedtest-scaling.png)
  lazuli help                               this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => run_perft(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        None | Some("--syzygy-config") => run_uci(&args),
        Some("tb") => run_tb(&args[1..]),
        Some("texel") => run_texel(&args[1..]),
        Some("datagen") => run_datagen(&args[1..]),
        Some("train") => run_train(&args[1..]),
        Some("data") => run_data(&args[1..]),
        Some("bench") => run_bench(&args[1..]),
        Some("speedtest") => run_speedtest(&args[1..]),
        Some(other) => {
            eprintln!(
                "lazuli: unknown command '{}'\n{USAGE}",
                other.chars().take(32).collect::<String>()
            );
            ExitCode::from(2)
        }
    }
}

/// Whether a FEN's castling field uses file letters (Shredder-FEN / X-FEN), i.e. Chess960.
fn looks_like_chess960(fen: &str) -> bool {
    fen.split_ascii_whitespace().nth(2).is_some_and(|c| {
        c.chars()
            .any(|ch| matches!(ch.to_ascii_lowercase(), 'a'..='h'))
    })
}

/// `lazuli datagen ...`: self-play training positions (see `lazuli::datagen`).
fn run_datagen(args: &[String]) -> ExitCode {
    use lazuli::datagen::{Config, run};
    let mut config = Config::default();
    let mut out_path = None;
    let mut book_path = None;
    let mut syzygy = None;
    let fail = |msg: String| {
        eprintln!("lazuli datagen: {msg}\n{USAGE}");
        ExitCode::from(2)
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let Some(value) = args.get(i + 1) else {
            return fail(format!("{flag} needs a value"));
        };
        let number = |lo: u64, hi: u64| match value.parse::<u64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!("{flag} must be a number from {lo} to {hi}")),
        };
        let parsed = match flag {
            "--out" => {
                out_path = Some(value.clone());
                Ok(())
            }
            "--book" => {
                book_path = Some(value.clone());
                Ok(())
            }
            "--syzygy" => {
                syzygy = Some(value.clone());
                Ok(())
            }
            "--format" => match value.as_str() {
                "viri" | "viriformat" => {
                    config.format = lazuli::datagen::Format::Viri;
                    Ok(())
                }
                "text" => {
                    config.format = lazuli::datagen::Format::Text;
                    Ok(())
                }
                _ => Err("--format is viri or text".to_string()),
            },
            "--net" => match value.as_str() {
                "<hce>" => {
                    config.eval = lazuli::eval::Evaluator::Hce;
                    Ok(())
                }
                "<embedded>" => {
                    config.eval = lazuli::eval::Evaluator::Nnue(lazuli::eval::nnue::default_net());
                    Ok(())
                }
                path => lazuli::eval::nnue::Network::load(std::path::Path::new(path))
                    .map(|n| config.eval = lazuli::eval::Evaluator::Nnue(std::sync::Arc::new(n)))
                    .map_err(|e| format!("--net {path}: {e}")),
            },
            "--games" => number(1, u64::MAX / 2).map(|n| config.games = n),
            "--nodes" => number(1, 1 << 40).map(|n| config.nodes = n),
            "--soft-nodes" => number(1, 1 << 36).map(|n| config.soft_nodes = Some(n)),
            "--threads" => number(1, 1024).map(|n| config.threads = n as usize),
            "--random-plies" => number(0, 100).map(|n| config.random_plies = n as usize),
            "--seed" => number(0, u64::MAX).map(|n| config.seed = n),
            "--hash" => number(1, 65536).map(|n| config.hash_mib = n),
            _ => Err(format!("unknown option '{flag}'")),
        };
        if let Err(e) = parsed {
            return fail(e);
        }
        i += 2;
    }
    let Some(out_path) = out_path else {
        return fail("name the output file with --out".to_string());
    };
    if let Some(path) = book_path {
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                // EPD lines: the first four fields are the position; move counters are added.
                for line in text.lines() {
                    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
                    if fields.len() < 4 {
                        continue;
                    }
                    let fen = format!("{} 0 1", fields.join(" "));
                    if Board::from_fen(&fen, false).is_ok() {
                        config.book.push(fen);
                    }
                }
                if config.book.is_empty() {
                    return fail(format!("{path} holds no usable position"));
                }
            }
            Err(e) => return fail(format!("cannot read {path}: {e}")),
        }
    }
    let tb = match syzygy {
        None => None,
        Some(dirs) => {
            let loaded = lazuli::tb::load(&dirs);
            for e in &loaded.errors {
                eprintln!("lazuli datagen: {e}");
            }
            match loaded.prober {
                Some(p) => Some(std::sync::Arc::new(p)),
                None => return fail(format!("no tablebases found in {dirs}")),
            }
        }
    };
    // A run stopped while writing leaves at most a partial last game; cut it off before
    // appending, so the file stays readable.
    if config.format == lazuli::datagen::Format::Viri
        && let Ok(bytes) = std::fs::read(&out_path)
    {
        match lazuli::data::complete_prefix(&bytes) {
            Ok(n) if n < bytes.len() => {
                eprintln!(
                    "lazuli datagen: {out_path} ends in a partial game; cutting {} bytes",
                    bytes.len() - n
                );
                let cut = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&out_path)
                    .and_then(|f| f.set_len(n as u64));
                if let Err(e) = cut {
                    eprintln!("lazuli datagen: cannot repair {out_path}: {e}");
                    return ExitCode::from(1);
                }
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("lazuli datagen: {out_path} is not viriformat data ({e}); not appending");
                return ExitCode::from(1);
            }
        }
    }
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out_path)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("lazuli datagen: cannot open {out_path}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut out = std::io::BufWriter::new(file);
    let mut progress = std::io::stderr();
    let every = (config.games / 100).clamp(1, 1000);
    match run(&config, tb, &mut out, &mut progress, every) {
        Ok(t) => {
            println!(
                "{} games, {} positions (white {} draws {} black {}) -> {out_path}",
                t.games, t.positions, t.white_wins, t.draws, t.black_wins
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lazuli datagen: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_texel(args: &[String]) -> ExitCode {
    use lazuli::eval::texel::{Options, run};
    let fail = |msg: String| {
        eprintln!("lazuli texel: {msg}\n{USAGE}");
        ExitCode::from(2)
    };
    let Some(path) = args.first() else {
        return fail("name a file of '<FEN> | [<score> |] <result>' lines".to_string());
    };
    let mut options = Options {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Options::default()
    };
    let mut rest = args[1..].iter();
    let mut first = true;
    while let Some(a) = rest.next() {
        let parsed = match a.as_str() {
            "--psqt" => {
                options.psqt = true;
                Ok(())
            }
            "--lambda" => match rest.next().map(|v| v.parse::<f32>()) {
                Some(Ok(l)) if (0.0..=1.0).contains(&l) => {
                    options.lambda = l;
                    Ok(())
                }
                _ => Err("--lambda needs a number from 0 to 1".to_string()),
            },
            "--rate" => match rest.next().map(|v| v.parse::<f32>()) {
                Some(Ok(r)) if r > 0.0 && r <= 100.0 => {
                    options.rate = r;
                    Ok(())
                }
                _ => Err("--rate needs a number above 0, at most 100".to_string()),
            },
            "--l2" => match rest.next().map(|v| v.parse::<f32>()) {
                Some(Ok(l)) if (0.0..=1.0).contains(&l) => {
                    options.l2 = l;
                    Ok(())
                }
                _ => Err("--l2 needs a number from 0 to 1".to_string()),
            },
            "--threads" => match rest.next().map(|v| v.parse::<usize>()) {
                Some(Ok(t)) if (1..=256).contains(&t) => {
                    options.threads = t;
                    Ok(())
                }
                _ => Err("--threads needs a number from 1 to 256".to_string()),
            },
            // The epoch count may stand first after the file, as it always has.
            e if first && !e.starts_with("--") => match e.parse::<usize>() {
                Ok(n) if (1..=1_000_000).contains(&n) => {
                    options.epochs = n;
                    Ok(())
                }
                _ => Err("epochs must be a number from 1 to 1000000".to_string()),
            },
            other => Err(format!("unknown argument '{other}'")),
        };
        if let Err(e) = parsed {
            return fail(e);
        }
        first = false;
    }
    match std::fs::read_to_string(path) {
        Ok(text) => {
            print!("{}", run(&text, &options));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lazuli texel: cannot read {path}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `lazuli data stats FILE...`: what viriformat files hold.
fn run_data(args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) != Some("stats") || args.len() < 2 {
        eprintln!("lazuli data: usage: lazuli data stats FILE...\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut stats = lazuli::data::Stats::default();
    for path in &args[1..] {
        let read = std::fs::File::open(path)
            .map_err(lazuli::data::DataError::Io)
            .and_then(|f| {
                let mut r = std::io::BufReader::with_capacity(1 << 20, f);
                lazuli::data::for_each_game(&mut r, |g| stats.add(&g, 16))
            });
        if let Err(e) = read {
            eprintln!("lazuli data: {path}: {e}");
            return ExitCode::from(1);
        }
    }
    print!("{}", stats.report());
    ExitCode::SUCCESS
}

/// `lazuli train ...`: trains the network (see `lazuli::train`).
fn run_train(args: &[String]) -> ExitCode {
    use lazuli::train::{Config, Dataset, FloatNet, Trainer, run};
    let fail = |msg: String| {
        eprintln!("lazuli train: {msg}\n{USAGE}");
        ExitCode::from(2)
    };
    let mut cfg = Config {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Config::default()
    };
    let mut files = Vec::new();
    let mut out = None;
    let mut val_frac = 0.05f64;
    let mut min_ply = 16u32;
    let mut resume = false;
    let mut mirror = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if !flag.starts_with("--") {
            files.push(args[i].clone());
            i += 1;
            continue;
        }
        if flag == "--resume" || flag == "--mirror" {
            resume |= flag == "--resume";
            mirror |= flag == "--mirror";
            i += 1;
            continue;
        }
        let Some(value) = args.get(i + 1) else {
            return fail(format!("{flag} needs a value"));
        };
        let float = |lo: f64, hi: f64| match value.parse::<f64>() {
            Ok(x) if (lo..=hi).contains(&x) => Ok(x),
            _ => Err(format!("{flag} must be a number from {lo} to {hi}")),
        };
        let int = |lo: u64, hi: u64| match value.parse::<u64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!("{flag} must be a whole number from {lo} to {hi}")),
        };
        let parsed = match flag {
            "--out" => {
                out = Some(std::path::PathBuf::from(value));
                Ok(())
            }
            "--epochs" => int(1, 100_000).map(|n| cfg.epochs = n as usize),
            "--batch" => int(1, 1 << 24).map(|n| cfg.batch = n as usize),
            "--lr" => float(1e-9, 1.0).map(|x| cfg.lr = x as f32),
            "--lr-end" => float(0.0, 1.0).map(|x| cfg.lr_end = x as f32),
            "--wd" => float(0.0, 1.0).map(|x| cfg.weight_decay = x as f32),
            "--lambda" => float(0.0, 1.0).map(|x| cfg.lambda = x as f32),
            "--threads" => int(1, 1024).map(|n| cfg.threads = n as usize),
            "--val-frac" => float(0.0, 0.9).map(|x| val_frac = x),
            "--min-ply" => int(0, 1000).map(|n| min_ply = n as u32),
            "--seed" => int(0, u64::MAX).map(|n| cfg.seed = n),
            "--save-every" => int(0, 100_000).map(|n| cfg.save_every = n as usize),
            _ => Err(format!("unknown option '{flag}'")),
        };
        if let Err(e) = parsed {
            return fail(e);
        }
        i += 2;
    }
    let Some(out) = out else {
        return fail("name the output folder with --out".to_string());
    };
    if files.is_empty() {
        return fail("name at least one data file".to_string());
    }
    let clock = Instant::now();
    let mut data = Dataset::default();
    for f in &files {
        // viriformat or text, told apart by the first 32 bytes.
        let mut head = [0u8; 32];
        let binary = std::fs::File::open(f)
            .and_then(|mut file| std::io::Read::read(&mut file, &mut head))
            .is_ok_and(|n| lazuli::data::looks_binary(&head[..n]));
        let read = std::fs::File::open(f)
            .map_err(|e| e.to_string())
            .and_then(|file| {
                let mut r = std::io::BufReader::with_capacity(1 << 20, file);
                if binary {
                    data.read_games(&mut r, min_ply as usize)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                } else {
                    data.read_text(r, min_ply).map_err(|e| e.to_string())
                }
            });
        if let Err(e) = read {
            eprintln!("lazuli train: cannot read {f}: {e}");
            return ExitCode::from(1);
        }
    }
    eprintln!(
        "read {} positions from {} games in {:.1} s ({} left out by filters, {} bad lines)",
        data.samples.len(),
        data.game_starts.len(),
        clock.elapsed().as_secs_f64(),
        data.filtered,
        data.bad_lines
    );
    let (mut train, val, hce) = data.split(val_frac);
    if mirror {
        let n = train.len();
        train.extend_from_within(..);
        for s in &mut train[n..] {
            *s = s.mirrored();
        }
    }
    eprintln!(
        "training on {}, validating on {} (loss of the hand-written evaluation there: {:.6})",
        train.len(),
        val.len(),
        lazuli::train::eval_loss(&val, &hce, cfg.lambda)
    );
    if train.is_empty() {
        return fail("no training positions".to_string());
    }
    let mut trainer = Trainer::new(FloatNet::random(cfg.seed));
    if resume {
        match std::fs::read(out.join("checkpoint.bin"))
            .map_err(|e| e.to_string())
            .and_then(|b| Trainer::from_checkpoint(&b))
        {
            Ok(t) => {
                eprintln!("resuming after epoch {}", t.epoch);
                trainer = t;
            }
            Err(e) => {
                eprintln!("lazuli train: cannot resume from {}: {e}", out.display());
                return ExitCode::from(1);
            }
        }
    }
    match run(
        &mut trainer,
        &train,
        &val,
        &cfg,
        &out,
        &mut std::io::stderr(),
    ) {
        Ok(()) => {
            println!("{}", out.join("net.nnue").display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lazuli train: {e}");
            ExitCode::from(1)
        }
    }
}

/// `lazuli bench [depth] [evalfile]`: the bench positions to a fixed depth.
fn run_bench(args: &[String]) -> ExitCode {
    use lazuli::eval::{Evaluator, nnue};
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        None => lazuli::bench::DEFAULT_DEPTH,
        Some(Ok(d)) if (1..=64).contains(&d) => d,
        _ => {
            eprintln!("lazuli bench: depth must be a number from 1 to 64\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let eval = match args.get(1).map(String::as_str) {
        None | Some("<default>") => Evaluator::default(),
        Some("<hce>") => Evaluator::Hce,
        Some("<embedded>") => Evaluator::Nnue(nnue::default_net()),
        Some(path) => match nnue::Network::load(std::path::Path::new(path)) {
            Ok(net) => Evaluator::Nnue(std::sync::Arc::new(net)),
            Err(e) => {
                eprintln!("lazuli bench: {e}");
                return ExitCode::from(1);
            }
        },
    };
    let (nodes, ms) = lazuli::bench::run_with(depth, &eval);
    println!("Total time (ms) : {ms}");
    println!("{nodes} nodes {} nps", nodes * 1000 / ms.max(1));
    ExitCode::SUCCESS
}

/// `lazuli speedtest [--threads N] [--hash MIB] [--seconds S] [--scaling] [--depth D]`.
fn run_speedtest(args: &[String]) -> ExitCode {
    use lazuli::tools::speedtest::{self, Config};
    let mut cfg = Config::for_machine();
    let mut hash_given = false;
    let mut scaling = false;
    let mut depth = 16u32;
    let mut png = String::from("speedtest-scaling.png");
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--scaling" {
            scaling = true;
            i += 1;
            continue;
        }
        let Some(value) = args.get(i + 1) else {
            eprintln!("lazuli speedtest: {flag} needs a value\n{USAGE}");
            return ExitCode::from(2);
        };
        let ok = match flag {
            "--threads" => value
                .parse()
                .ok()
                .filter(|t| (1..=lazuli::uci::options::MAX_THREADS).contains(t))
                .map(|t| cfg.threads = t),
            "--hash" => value
                .parse()
                .ok()
                .filter(|h| (1..=lazuli::uci::options::MAX_HASH_MIB).contains(h))
                .map(|h| {
                    cfg.hash_mib = h;
                    hash_given = true;
                }),
            "--seconds" => value
                .parse::<f64>()
                .ok()
                .filter(|s| (0.1..=86_400.0).contains(s))
                .map(|s| cfg.seconds = s),
            "--depth" => value
                .parse()
                .ok()
                .filter(|d| (1..=64).contains(d))
                .map(|d| depth = d),
            "--numa" => lazuli::threads::numa::Policy::parse(value).map(|p| cfg.numa = p),
            "--png" => {
                png = value.clone();
                Some(())
            }
            _ => {
                eprintln!("lazuli speedtest: unknown argument '{flag}'\n{USAGE}");
                return ExitCode::from(2);
            }
        };
        if ok.is_none() {
            eprintln!("lazuli speedtest: bad value '{value}' for {flag}\n{USAGE}");
            return ExitCode::from(2);
        }
        i += 2;
    }
    if !hash_given {
        cfg.hash_mib = speedtest::default_hash_mib(cfg.threads);
    }
    let eval = lazuli::eval::Evaluator::default();
    let abort = std::sync::atomic::AtomicBool::new(false);
    eprintln!(
        "speedtest: {} threads, {} MiB hash, {} s{}",
        cfg.threads,
        cfg.hash_mib,
        cfg.seconds,
        if scaling { ", scaling" } else { "" }
    );
    let done = if scaling {
        println!("{}", speedtest::scaling_header());
        speedtest::scaling(&cfg, depth, &eval, &abort, &mut |l| println!("{l}")).map(|rows| {
            match speedtest::plot_scaling(&rows, std::path::Path::new(&png)) {
                Ok(()) => eprintln!("chart: {png}"),
                Err(e) => eprintln!("lazuli speedtest: no chart: {e}"),
            }
        })
    } else {
        speedtest::run(&cfg, &eval, &abort, &mut |l| eprintln!("{l}"))
            .map(|r| r.lines().iter().for_each(|l| println!("{l}")))
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lazuli speedtest: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("lazuli perft: depth must be a non-negative number\n{USAGE}");
        return ExitCode::from(2);
    };
    if depth > 12 {
        eprintln!("lazuli perft: depth {depth} is beyond what can finish (at most 12)");
        return ExitCode::from(2);
    }
    let mut chess960 = false;
    let mut fen_parts = Vec::new();
    for a in &args[1..] {
        if a == "--chess960" {
            chess960 = true;
        } else {
            fen_parts.push(a.as_str());
        }
    }
    let fen = if fen_parts.is_empty() || fen_parts == ["startpos"] {
        STARTPOS.to_string()
    } else {
        fen_parts.join(" ")
    };
    chess960 |= looks_like_chess960(&fen);
    // Perft suites contain one unreachable double check; counting its moves is still well defined.
    let board = match Board::from_fen_with(&fen, chess960, Validation::AllowImpossibleCheck) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("lazuli perft: invalid FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if depth == 0 {
        perft(&board, 0)
    } else {
        let mut total = 0;
        for (m, n) in divide(&board, depth) {
            println!("{}: {n}", m.to_uci(chess960));
            total += n;
        }
        total
    };
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    println!("Time: {:.3} s", secs);
    println!("Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

/// The UCI engine, with tablebase settings from `--syzygy-config FILE` or
/// `LAZULI_SYZYGY_CONFIG`.
fn run_uci(args: &[String]) -> ExitCode {
    let file = match args.first().map(String::as_str) {
        Some("--syzygy-config") => match args.get(1) {
            Some(f) => Some(std::path::PathBuf::from(f)),
            None => {
                eprintln!("lazuli: --syzygy-config needs a file\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        _ => std::env::var_os("LAZULI_SYZYGY_CONFIG").map(std::path::PathBuf::from),
    };
    let mut initial = Vec::new();
    if let Some(f) = file {
        let parsed = std::fs::read_to_string(&f)
            .map_err(|e| vec![e.to_string()])
            .and_then(|t| lazuli::uci::config::parse(&t));
        match parsed {
            Ok(pairs) => initial = pairs,
            Err(errors) => {
                for e in errors {
                    println!("info string error: {}: {e}", f.display());
                }
            }
        }
    }
    match lazuli::uci::coordinator::run(std::io::stdin(), lazuli::uci::Out::stdout(), &initial) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lazuli: {e}");
            ExitCode::from(1)
        }
    }
}

/// `lazuli tb <dir>... [--probe "<fen>"]`: what a Syzygy download holds, and a probe.
fn run_tb(args: &[String]) -> ExitCode {
    use lazuli::tb;
    let mut dirs = Vec::new();
    let mut probe = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--probe" {
            let Some(f) = args.get(i + 1) else {
                eprintln!("lazuli tb: --probe needs a FEN\n{USAGE}");
                return ExitCode::from(2);
            };
            probe = Some(f.clone());
            i += 2;
        } else {
            dirs.push(args[i].clone());
            i += 1;
        }
    }
    if dirs.is_empty() {
        eprintln!("lazuli tb: name at least one directory\n{USAGE}");
        return ExitCode::from(2);
    }
    // What files are there (by canonical name), and which are bad.
    let mut wdl = std::collections::BTreeSet::new();
    let mut dtz = std::collections::BTreeSet::new();
    let mut bad = 0;
    for d in &dirs {
        let entries = match std::fs::read_dir(d) {
            Ok(e) => e,
            Err(e) => {
                println!("{d}: {e}");
                bad += 1;
                continue;
            }
        };
        for path in entries.flatten().map(|e| e.path()) {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "rtbw" && ext != "rtbz" {
                continue;
            }
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let name = match stem.split_once('v') {
                Some((w, b)) => tb::normalize_name(w, b),
                None => stem.to_string(),
            };
            if let Err(e) = tb::check_file(&path) {
                println!("bad file: {e}");
                bad += 1;
                continue;
            }
            if ext == "rtbw" {
                wdl.insert(name)
            } else {
                dtz.insert(name)
            };
        }
    }
    for n in 3..=7 {
        let all = tb::signatures(n);
        let both = all
            .iter()
            .filter(|s| wdl.contains(*s) && dtz.contains(*s))
            .count();
        let wdl_only: Vec<&String> = all
            .iter()
            .filter(|s| wdl.contains(*s) && !dtz.contains(*s))
            .collect();
        let dtz_only: Vec<&String> = all
            .iter()
            .filter(|s| !wdl.contains(*s) && dtz.contains(*s))
            .collect();
        let missing: Vec<&String> = all
            .iter()
            .filter(|s| !wdl.contains(*s) && !dtz.contains(*s))
            .collect();
        println!(
            "{n}-piece: {both} of {} complete, {} WDL only, {} DTZ only, {} missing",
            all.len(),
            wdl_only.len(),
            dtz_only.len(),
            missing.len()
        );
        let show = |label: &str, v: &[&String]| {
            if !v.is_empty() {
                let names: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
                println!("  {label}: {}", names.join(" "));
            }
        };
        show("WDL only", &wdl_only);
        show("DTZ only", &dtz_only);
        // A size with nothing present is simply not installed; list gaps only in partial sets.
        if both + wdl_only.len() + dtz_only.len() > 0 {
            show("missing", &missing);
        }
    }
    if let Some(fen) = probe {
        let loaded = tb::load(&dirs.join(":"));
        let Some(p) = loaded.prober else {
            println!("no tables loaded");
            return ExitCode::from(1);
        };
        let board = match Board::from_fen(&fen, false) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("lazuli tb: invalid FEN: {e}");
                return ExitCode::from(2);
            }
        };
        let show = |v: Option<i32>| v.map_or("unavailable".to_string(), |x| x.to_string());
        println!(
            "WDL: {} (2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss)",
            show(p.probe_wdl(&board).or(p.probe_wdl_after_zeroing(&board)))
        );
        println!("DTZ: {}", show(p.probe_dtz(&board)));
        match p.rank_root(&board, &board.legal_moves(), true, 7) {
            Some(r) => {
                let moves: Vec<String> = r.moves.iter().map(|m| m.to_uci(false)).collect();
                println!("best moves: {}", moves.join(" "));
            }
            None => println!("best moves: not in the tables"),
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
