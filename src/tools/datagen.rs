//! `lazuli datagen`: self-play games at a fixed node count, written as training positions for
//! the evaluation (Texel tuning now, a network later).
//!
//! Each game starts from a book line (or the start position) followed by a few random legal
//! moves, so that games differ; an opening the search scores beyond `max_opening_eval` is
//! thrown away. Both sides then play the best move of a search of `nodes` nodes. A game ends by
//! the rules (mate, stalemate, repetition, 50 moves, insufficient material), by tablebase
//! verdict when tables are loaded, or by adjudication: a win once both sides have agreed for
//! `win_plies` plies on a score of at least `win_score` (`WIN_PLIES` and `WIN_SCORE` unless
//! `--win-plies` / `--win-score` say otherwise), a draw once the score has stayed within
//! `DRAW_SCORE` for `DRAW_PLIES` plies after `DRAW_MIN_PLY`.
//!
//! Output ([`Format`]): viriformat (the default; `crate::tools::data`), every ply of every game with
//! its move and white-relative score, filtered only when training; or text, one line per
//! position `<FEN> | <score> | <result>` (white's point of view, result 1.0 / 0.5 / 0.0), where
//! positions in check, those whose best move takes or promotes, and those with a mate or
//! tablebase score are left out.

use crate::chess::{Board, Color, Move, STARTPOS};
use crate::eval::Evaluator;
use crate::search::{Job, Limits, Worker};
use crate::tb::Prober;
use crate::tools::data;
use crate::tt::Table;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// A score both sides must agree on for `WIN_PLIES` plies to end the game as a win (the
/// defaults of `--win-score` and `--win-plies`).
pub const WIN_SCORE: i32 = 2500;
pub const WIN_PLIES: u32 = 4;
/// A score within this for `DRAW_PLIES` plies, from ply `DRAW_MIN_PLY`, ends the game drawn.
pub const DRAW_SCORE: i32 = 10;
pub const DRAW_PLIES: u32 = 12;
pub const DRAW_MIN_PLY: usize = 80;
/// Games still running at this many plies are drawn.
pub const MAX_PLIES: usize = 600;

/// What `lazuli datagen` is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub games: u64,
    /// The hard node limit per move.
    pub nodes: u64,
    /// A soft limit: each search stops after the iteration that passes it (`nodes` still cuts
    /// an iteration short).
    pub soft_nodes: Option<u64>,
    pub threads: usize,
    /// Random legal moves played after the book line: a number from this range (both ends
    /// included), drawn per game. 8 to 9 (as the strong engines' generators do) starts half
    /// the games with black to move: with a fixed 8, white moved first out of every random
    /// opening and won twice as many games as black.
    pub random_plies: (usize, usize),
    /// Percent of the games (without a book) that start from a random Chess960 position.
    pub chess960_percent: usize,
    /// Openings as FENs; empty: the start position.
    pub book: Vec<String>,
    pub seed: u64,
    pub hash_mib: u64,
    /// Openings the first search scores beyond this (centipawns) are not played.
    pub max_opening_eval: i32,
    /// Win adjudication: a game ends once both sides have scored it at least `win_score` for
    /// one side over `win_plies` plies in a row.
    pub win_score: i32,
    pub win_plies: u32,
    pub format: Format,
    /// The evaluation the games are played with.
    pub eval: Evaluator,
}

/// How games are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// viriformat: every ply, binary (`crate::tools::data`).
    Viri,
    /// `<FEN> | <score> | <result>` lines for the positions that pass the generation filters.
    Text,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 100,
            nodes: 5000,
            soft_nodes: None,
            threads: 1,
            random_plies: (8, 9),
            chess960_percent: 0,
            book: Vec::new(),
            seed: 1,
            hash_mib: 16,
            max_opening_eval: 1000,
            win_score: WIN_SCORE,
            win_plies: WIN_PLIES,
            format: Format::Viri,
            eval: Evaluator::default(),
        }
    }
}

/// How a game stands after a move: still going, or over with white's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    Ongoing,
    Over(f32),
}

/// The rules' verdict on `board`, reached through the positions whose keys are `history`
/// (oldest first, not including `board`): mate, stalemate, the 50-move rule, threefold
/// repetition, insufficient material.
pub fn rules_outcome(board: &Board, history: &[u64]) -> Outcome {
    if !board.has_legal_move() {
        if board.in_check() {
            return Outcome::Over(if board.side_to_move() == Color::White {
                0.0
            } else {
                1.0
            });
        }
        return Outcome::Over(0.5);
    }
    if board.halfmove_clock() >= 100 || board.is_insufficient_material() {
        return Outcome::Over(0.5);
    }
    let window = (board.halfmove_clock() as usize).min(history.len());
    let repeats = history[history.len() - window..]
        .iter()
        .filter(|&&k| k == board.key())
        .count();
    if repeats >= 2 {
        return Outcome::Over(0.5);
    }
    Outcome::Ongoing
}

/// Small, fast, seedable generator (xorshift64*); quality is ample for picking openings.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread nearby seeds apart (splitmix64 step); never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// One thread's game player: its own searcher and table.
pub struct Player {
    worker: Worker,
    tt: Arc<Table>,
    tb: Option<Arc<Prober>>,
    nodes: u64,
    soft_nodes: Option<u64>,
    /// Win adjudication (`Config::win_score`, `Config::win_plies`).
    win_score: i32,
    win_plies: u32,
    eval: Evaluator,
}

impl Player {
    pub fn new(
        nodes: u64,
        hash_mib: u64,
        tb: Option<Arc<Prober>>,
        eval: Evaluator,
    ) -> Result<Player, String> {
        let tt = Table::new(hash_mib).map_err(|e| format!("hash table: {e:?}"))?;
        Ok(Player {
            worker: Worker::new(0),
            tt: Arc::new(tt),
            tb,
            nodes,
            soft_nodes: None,
            win_score: WIN_SCORE,
            win_plies: WIN_PLIES,
            eval,
        })
    }

    /// Searches `board` (reached through `history`) for `nodes` nodes: (best move, score for
    /// the side to move).
    fn search(&mut self, board: &Board, history: &[u64], new_game: bool) -> (Move, i32) {
        self.tt.new_search();
        let limits = Limits {
            nodes: Some(self.nodes),
            soft_nodes: self.soft_nodes,
            ..Limits::default()
        };
        let mut job = Job::silent(*board, history.to_vec(), limits, self.tt.clone(), new_game);
        job.eval = self.eval.clone();
        let r = self.worker.search(&job);
        (r.best, r.score)
    }

    /// The tablebase verdict for white, where the tables cover `board` (a cursed win or
    /// blessed loss counts as the draw the 50-move rule makes it).
    fn tb_outcome(&self, board: &Board) -> Option<f32> {
        let tb = self.tb.as_ref()?;
        if !tb.covers(board, tb.max_pieces) {
            return None;
        }
        let w = tb.probe_wdl_after_zeroing(board)?;
        let stm = match w {
            2 => 1.0,
            -2 => 0.0,
            _ => 0.5,
        };
        Some(if board.side_to_move() == Color::White {
            stm
        } else {
            1.0 - stm
        })
    }

    /// Plays one game from `opening`; `None` if the opening is already decided.
    pub fn play(&mut self, opening: &Board, max_opening_eval: i32) -> Option<data::Game> {
        self.tt.clear(1);
        let mut board = *opening;
        let mut history: Vec<u64> = Vec::new();
        let mut moves = Vec::new();
        let mut win_run = 0u32;
        let mut loss_run = 0u32;
        let mut draw_run = 0u32;
        let mut ply = 0usize;
        let result = loop {
            if let Outcome::Over(r) = rules_outcome(&board, &history) {
                if ply == 0 {
                    return None;
                }
                break r;
            }
            if let Some(r) = self.tb_outcome(&board) {
                if ply == 0 {
                    return None;
                }
                break r;
            }
            if ply >= MAX_PLIES {
                break 0.5;
            }
            let (mv, score) = self.search(&board, &history, ply == 0);
            if mv == Move::NONE {
                // Cannot happen with a legal move on the board; end the game as drawn.
                break 0.5;
            }
            if ply == 0 && score.abs() > max_opening_eval {
                return None;
            }
            let white = if board.side_to_move() == Color::White {
                score
            } else {
                -score
            };
            moves.push((mv, white.clamp(-32_000, 32_000) as i16));
            // Adjudication, on white-relative scores.
            (win_run, loss_run) = if white >= self.win_score {
                (win_run + 1, 0)
            } else if white <= -self.win_score {
                (0, loss_run + 1)
            } else {
                (0, 0)
            };
            draw_run = if white.abs() <= DRAW_SCORE {
                draw_run + 1
            } else {
                0
            };
            if win_run >= self.win_plies {
                break 1.0;
            }
            if loss_run >= self.win_plies {
                break 0.0;
            }
            if draw_run >= DRAW_PLIES && ply >= DRAW_MIN_PLY {
                break 0.5;
            }
            history.push(board.key());
            board = board.make_move(mv);
            ply += 1;
        };
        Some(data::Game {
            start: *opening,
            moves,
            result: (result * 2.0).round() as u8,
        })
    }
}

/// A game's start: a book position (or the start position, or with `chess960_percent` that
/// share of the games a random Chess960 start) and `random_plies.0` to `random_plies.1` random
/// legal moves; `None` when the random moves run into a finished game.
pub fn opening(
    book: &[String],
    random_plies: (usize, usize),
    chess960_percent: usize,
    rng: &mut Rng,
) -> Option<Board> {
    // The die is cast only when Chess960 starts are asked for, so that runs without them
    // repeat the games of earlier builds for the same seed.
    let mut board = if book.is_empty() && chess960_percent > 0 && rng.below(100) < chess960_percent
    {
        Board::from_fen(&chess960_fen(rng.below(960)), true).ok()?
    } else if book.is_empty() {
        Board::from_fen(STARTPOS, false).ok()?
    } else {
        Board::from_fen(&book[rng.below(book.len())], false).ok()?
    };
    // As with Chess960, no die for a fixed count: such runs repeat earlier builds' games.
    let (lo, hi) = random_plies;
    let plies = if hi > lo {
        lo + rng.below(hi - lo + 1)
    } else {
        lo
    };
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        board = board.make_move(moves[rng.below(moves.len())]);
    }
    board.has_legal_move().then_some(board)
}

/// Chess960 start position number `n` (0 to 959) in Scharnagl's numbering, where 518 is the
/// standard start: the light-squared bishop from `n % 4`, the dark-squared one from the next
/// digit, the queen on one of six free squares, the knights by the ten ways to pick two of the
/// five left, then rook, king, rook on the last three. Castling rights `KQkq` (X-FEN: the
/// outermost rooks, here the only ones).
pub fn chess960_fen(n: usize) -> String {
    let mut n = n % 960;
    let mut rank = [' '; 8];
    rank[(n % 4) * 2 + 1] = 'b';
    n /= 4;
    rank[(n % 4) * 2] = 'b';
    n /= 4;
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&i| rank[i] == ' ').collect() };
    rank[free(&rank)[n % 6]] = 'q';
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    let f = free(&rank);
    rank[f[a]] = 'n';
    rank[f[b]] = 'n';
    for (sq, piece) in free(&rank).into_iter().zip(['r', 'k', 'r']) {
        rank[sq] = piece;
    }
    let black: String = rank.iter().collect();
    format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
        black.to_uppercase()
    )
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

impl Totals {
    /// The progress line after `secs` seconds of a run of `target` games.
    pub fn line(&self, secs: f64, target: u64) -> String {
        let secs = secs.max(1e-3);
        let rate = self.games as f64 / secs;
        let eta = target.saturating_sub(self.games) as f64 / rate.max(1e-9);
        format!(
            "games {} positions {} (+{} ={} -{})  {:.1} games/s {:.0} positions/s  ETA {}h{:02}m",
            self.games,
            self.positions,
            self.white_wins,
            self.draws,
            self.black_wins,
            rate,
            self.positions as f64 / secs,
            (eta / 3600.0) as u64,
            ((eta % 3600.0) / 60.0) as u64
        )
    }
}

/// A player with `config`'s limits and evaluation.
fn new_player(config: &Config, tb: Option<Arc<Prober>>) -> Result<Player, String> {
    let mut p = Player::new(config.nodes, config.hash_mib, tb, config.eval.clone())?;
    p.soft_nodes = config.soft_nodes;
    p.win_score = config.win_score;
    p.win_plies = config.win_plies;
    Ok(p)
}

/// How many of a run's `games` thread `id` of `threads` plays: an even share, fixed before the
/// run, so that the run holds the same games whichever thread is faster (with a shared count,
/// a faster thread took more of them, and a run capped by `--games` changed with the timing).
fn thread_share(games: u64, threads: u64, id: u64) -> u64 {
    games / threads + u64::from(id < games % threads)
}

/// The games thread `id` of a run plays, in order: openings from its own random stream (from
/// the run's seed and `id`), each one the first search scores as decided skipped. `player`
/// keeps its state from game to game, so a thread's games depend only on the seed and `id`.
fn thread_games<'a>(
    config: &'a Config,
    player: &'a mut Player,
    id: usize,
) -> impl Iterator<Item = data::Game> + 'a {
    let mut rng = Rng::new(config.seed.wrapping_mul(1000).wrapping_add(id as u64));
    std::iter::from_fn(move || {
        loop {
            let Some(start) = opening(
                &config.book,
                config.random_plies,
                config.chess960_percent,
                &mut rng,
            ) else {
                continue;
            };
            if let Some(game) = player.play(&start, config.max_opening_eval) {
                return Some(game);
            }
        }
    })
}

/// Plays `config.games` games on `config.threads` threads and writes their positions to `out`
/// as each game ends; `progress` is called after every game written with the totals and the
/// seconds since the start.
pub fn run(
    config: &Config,
    tb: Option<Arc<Prober>>,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Totals, f64),
) -> Result<Totals, String> {
    let (tx, rx) = crossbeam_channel::bounded::<data::Game>(64);
    let threads = config.threads.max(1);
    let mut players = Vec::new();
    for _ in 0..threads {
        players.push(new_player(config, tb.clone())?);
    }
    let clock = Instant::now();
    let mut totals = Totals::default();
    let mut write_error = None;
    std::thread::scope(|s| {
        for (id, mut player) in players.into_iter().enumerate() {
            let tx = tx.clone();
            s.spawn(move || {
                let share = thread_share(config.games, threads as u64, id as u64);
                for game in thread_games(config, &mut player, id).take(share as usize) {
                    if tx.send(game).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for game in rx.iter() {
            if write_error.is_some() {
                continue;
            }
            // Whole games reach the file at once (one write), so a run cut short loses at
            // most the game being written.
            let mut bytes = Vec::new();
            let (encoded, positions) = match config.format {
                Format::Viri => (game.write(&mut bytes), game.moves.len()),
                Format::Text => {
                    let text = data::text_lines(&game, 0);
                    let n = text.lines().count();
                    bytes = text.into_bytes();
                    (Ok(()), n)
                }
            };
            if let Err(e) = encoded
                .and_then(|()| out.write_all(&bytes))
                .and_then(|()| out.flush())
            {
                write_error = Some(e.to_string());
                continue;
            }
            totals.games += 1;
            totals.positions += positions as u64;
            match game.result {
                data::WHITE_WIN => totals.white_wins += 1,
                data::BLACK_WIN => totals.black_wins += 1,
                _ => totals.draws += 1,
            }
            progress(&totals, clock.elapsed().as_secs_f64());
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(totals)
}

/// Self-play games for training, appended to a file
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The file the games are appended to (a partial last game is cut off first)
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Games to play
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=u64::MAX / 2))]
    pub games: u64,
    /// Hard node limit per move
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub nodes: u64,
    /// Soft node limit: each search stops after the iteration that passes it
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 36))]
    pub soft_nodes: Option<u64>,
    /// Games played at once
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Openings (EPD: the first four fields of each line); without it, the start position
    #[arg(long, value_name = "EPD")]
    pub book: Option<String>,
    /// Random legal moves after the opening: N, or N-M for a count drawn per game
    #[arg(long, default_value = "8-9", value_name = "N[-M]", value_parser = parse_plies)]
    pub random_plies: (usize, usize),
    /// Percent of the games that start from a random Chess960 position (not with --book)
    #[arg(long, default_value_t = 0, value_name = "PERCENT", value_parser = clap::value_parser!(u64).range(0..=100))]
    pub chess960: u64,
    /// Seed (a run's games are fixed by the seed and thread count; with several threads their
    /// order in the file is not). To go on after an interrupted run, append with another seed:
    /// the same seed plays the same games again, duplicates in the file
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Win adjudication: the score (centipawns, for one side) both sides must agree on
    #[arg(long, default_value_t = WIN_SCORE, value_parser = clap::value_parser!(i32).range(100..=32_000))]
    pub win_score: i32,
    /// Win adjudication: for this many plies in a row
    #[arg(long, default_value_t = WIN_PLIES, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub win_plies: u32,
    /// Syzygy directories, ':'-separated, for adjudication
    #[arg(long, value_name = "DIRS")]
    pub syzygy: Option<String>,
    /// Hash per game, MiB
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Output format: viri (every ply, binary) or text ('<FEN> | <score> | <result>')
    #[arg(long, default_value = "viri", value_parser = ["viri", "viriformat", "text"])]
    pub format: String,
    /// The evaluation: <hce>, <embedded>, <default> or a network file
    #[arg(long, default_value = "<default>", value_name = "FILE")]
    pub net: String,
    /// No progress on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--random-plies`: `N` or `N-M` (N <= M <= 100).
fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| -> Result<usize, String> {
        match t.trim().parse::<usize>() {
            Ok(n) if n <= 100 => Ok(n),
            _ => Err(format!("'{t}' is not a number from 0 to 100")),
        }
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if lo > hi {
        return Err(format!("{lo}-{hi}: the first number is the smaller"));
    }
    Ok((lo, hi))
}

/// `lazuli datagen`: the command.
pub fn command(args: Args) -> std::process::ExitCode {
    use std::process::ExitCode;
    let usage = |msg: String| {
        eprintln!("lazuli datagen: {msg}");
        ExitCode::from(2)
    };
    let eval = match super::evaluator(&args.net) {
        Ok(e) => e,
        Err(e) => return usage(format!("--net {e}")),
    };
    let mut config = Config {
        games: args.games,
        nodes: args.nodes,
        soft_nodes: args.soft_nodes,
        threads: args.threads as usize,
        random_plies: args.random_plies,
        chess960_percent: args.chess960 as usize,
        seed: args.seed,
        hash_mib: args.hash,
        win_score: args.win_score,
        win_plies: args.win_plies,
        format: if args.format == "text" {
            Format::Text
        } else {
            Format::Viri
        },
        eval,
        ..Config::default()
    };
    if args.book.is_some() && args.chess960 > 0 {
        return usage("--chess960 starts games from Chess960 positions, not from --book".into());
    }
    if let Some(path) = &args.book {
        match std::fs::read_to_string(path) {
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
                    return usage(format!("{path} holds no usable position"));
                }
            }
            Err(e) => return usage(format!("cannot read {path}: {e}")),
        }
    }
    let tb = match &args.syzygy {
        None => None,
        Some(dirs) => {
            let loaded = crate::tb::load(dirs);
            for e in &loaded.errors {
                eprintln!("lazuli datagen: {e}");
            }
            match loaded.prober {
                Some(p) => Some(Arc::new(p)),
                None => return usage(format!("no tablebases found in {dirs}")),
            }
        }
    };
    let out_path = &args.out;
    // A run stopped while writing leaves at most a partial last game; cut it off before
    // appending, so the file stays readable.
    if config.format == Format::Viri
        && let Ok(bytes) = std::fs::read(out_path)
    {
        match data::complete_prefix(&bytes) {
            Ok(n) if n < bytes.len() => {
                eprintln!(
                    "lazuli datagen: {out_path} ends in a partial game; cutting {} bytes",
                    bytes.len() - n
                );
                let cut = std::fs::OpenOptions::new()
                    .write(true)
                    .open(out_path)
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
        .open(out_path)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("lazuli datagen: cannot open {out_path}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut out = std::io::BufWriter::new(file);
    let bar = super::progress::Progress::new(config.games, "games", args.quiet);
    // Without a bar (a log file), a line every 1% of the games (at most every 1,000) and at
    // least once a minute, so a slow run (few threads, a loaded machine) still shows progress.
    let every = (config.games / 100).clamp(1, 1000);
    let mut last_line = 0.0f64;
    let mut progress = |t: &Totals, secs: f64| {
        let line = t.line(secs, config.games);
        if bar.has_bar() {
            let rest = line.split_once("  ").map_or("", |(_, r)| r);
            let rest = rest.rsplit_once("  ETA").map_or(rest, |(r, _)| r);
            bar.update(t.games, format!("{} positions  {rest}", t.positions));
        } else if t.games.is_multiple_of(every) || secs - last_line >= 60.0 {
            last_line = secs;
            bar.log(&line);
        }
    };
    let result = run(&config, tb, &mut out, &mut progress);
    bar.finish();
    match result {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::DECISIVE_BOUND;

    #[test]
    fn rules_end_games() {
        // Fool's mate: white is mated.
        let b = Board::from_fen(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            false,
        )
        .unwrap();
        assert_eq!(rules_outcome(&b, &[]), Outcome::Over(0.0));
        // Stalemate.
        let b = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false).unwrap();
        assert_eq!(rules_outcome(&b, &[]), Outcome::Over(0.5));
        // 50-move rule and bare kings.
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80", false).unwrap();
        assert_eq!(rules_outcome(&b, &[]), Outcome::Over(0.5));
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 80", false).unwrap();
        assert_eq!(rules_outcome(&b, &[]), Outcome::Over(0.5));
        // Threefold repetition: the position twice before (within the halfmove window).
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 8 10", false).unwrap();
        let k = b.key();
        assert_eq!(rules_outcome(&b, &[k, 1, 2, 3]), Outcome::Ongoing);
        assert_eq!(
            rules_outcome(&b, &[k, 1, 2, 3, k, 5, 6, 7]),
            Outcome::Over(0.5)
        );
        // ... but not when a pawn move came between (halfmove clock 3).
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 3 10", false).unwrap();
        assert_eq!(
            rules_outcome(&b, &[k, 1, 2, 3, k, 5, 6, 7]),
            Outcome::Ongoing
        );
    }

    #[test]
    fn chess960_starts_are_the_960_distinct_legal_ones() {
        assert_eq!(chess960_fen(518), STARTPOS);
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let fen = chess960_fen(n);
            let b = Board::from_fen(&fen, true).unwrap_or_else(|e| panic!("{n}: {fen}: {e}"));
            let rank: Vec<char> = fen.split('/').next().unwrap().chars().collect();
            let at = |c: char| -> Vec<usize> { (0..8).filter(|&i| rank[i] == c).collect() };
            let (bishops, rooks, king) = (at('b'), at('r'), at('k'));
            assert_eq!(bishops.len(), 2, "{fen}");
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{fen}: bishops on one colour"
            );
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{fen}");
            assert_eq!((at('q').len(), at('n').len()), (1, 2), "{fen}");
            assert!(b.has_legal_move(), "{fen}");
            assert!(seen.insert(fen), "{n} repeats");
        }
        // Openings with --chess960 100 are Chess960 starts (as many distinct as games).
        let mut rng = Rng::new(5);
        let starts: std::collections::HashSet<String> = (0..50)
            .filter_map(|_| opening(&[], (0, 0), 100, &mut rng))
            .map(|b| b.to_fen())
            .collect();
        assert!(starts.len() > 40, "{} distinct", starts.len());
    }

    #[test]
    fn openings_are_playable_and_seeded() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..20 {
            let x = opening(&[], (8, 8), 0, &mut a);
            let y = opening(&[], (8, 8), 0, &mut b);
            assert_eq!(x.map(|b| b.key()), y.map(|b| b.key()));
            if let Some(x) = x {
                assert!(x.has_legal_move());
                assert_eq!(x.fullmove_number(), 5);
            }
        }
    }

    #[test]
    fn a_range_of_random_plies_starts_games_with_either_side_to_move() {
        let mut rng = Rng::new(11);
        let (mut white, mut black) = (0, 0);
        for _ in 0..400 {
            let Some(b) = opening(&[], (8, 9), 0, &mut rng) else {
                continue;
            };
            // After 8 plies: move 5, white to move; after 9: move 5, black to move.
            assert_eq!(b.fullmove_number(), 5);
            match b.side_to_move() {
                Color::White => white += 1,
                Color::Black => black += 1,
            }
        }
        assert!(white > 150 && black > 150, "white {white} black {black}");
        assert_eq!(parse_plies("8-9"), Ok((8, 9)));
        assert_eq!(parse_plies("8"), Ok((8, 8)));
        assert_eq!(parse_plies(" 0 - 100 "), Ok((0, 100)));
        for bad in ["9-8", "", "-", "8-", "x", "101", "1-101", "-3"] {
            assert!(parse_plies(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_short_run_writes_consistent_lines() {
        let config = Config {
            games: 3,
            nodes: 400,
            threads: 1,
            format: Format::Text,
            ..Config::default()
        };
        let mut out = Vec::new();
        let mut progress = Vec::new();
        let totals = run(&config, None, &mut out, &mut |t: &Totals, secs| {
            progress.push(t.line(secs, config.games))
        })
        .unwrap();
        assert_eq!(totals.games, 3);
        assert_eq!(totals.white_wins + totals.draws + totals.black_wins, 3);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count() as u64, totals.positions);
        assert!(totals.positions > 10);
        // One progress call per game, counting up, and its line names the count.
        assert_eq!(progress.len(), 3);
        for (i, line) in progress.iter().enumerate() {
            assert!(
                line.starts_with(&format!("games {} positions", i + 1)),
                "{line}"
            );
        }
        for line in text.lines() {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 3, "{line}");
            let b = Board::from_fen(parts[0], false).unwrap();
            assert!(!b.in_check(), "{line}");
            let score: i32 = parts[1].parse().unwrap();
            assert!(score.abs() < DECISIVE_BOUND);
            assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
        }
    }

    #[test]
    fn a_run_on_several_threads_holds_each_threads_share_of_its_own_games() {
        for (games, threads) in [(5, 2), (7, 3), (2, 4), (1000, 7)] {
            let shares: Vec<u64> = (0..threads)
                .map(|id| thread_share(games, threads, id))
                .collect();
            assert_eq!(shares.iter().sum::<u64>(), games);
            assert!(shares.iter().max().unwrap() - shares.iter().min().unwrap() <= 1);
        }
        let config = Config {
            games: 5,
            nodes: 300,
            threads: 2,
            seed: 9,
            ..Config::default()
        };
        let encode = |g: data::Game| {
            let mut b = Vec::new();
            g.write(&mut b).unwrap();
            b
        };
        let mut out = Vec::new();
        let totals = run(&config, None, &mut out, &mut |_: &Totals, _| {}).unwrap();
        assert_eq!(totals.games, 5);
        let mut got = Vec::new();
        data::for_each_game(&mut &out[..], |g| got.push(encode(g))).unwrap();
        // Thread 0 plays three and thread 1 two, each the first of its own stream, whichever
        // thread is faster.
        let mut want = Vec::new();
        for (id, share) in [(0, 3), (1, 2)] {
            let mut player = new_player(&config, None).unwrap();
            want.extend(
                thread_games(&config, &mut player, id)
                    .take(share)
                    .map(encode),
            );
        }
        got.sort();
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn binary_runs_keep_every_ply_and_are_deterministic() {
        let config = Config {
            games: 3,
            nodes: 300,
            threads: 1,
            seed: 5,
            ..Config::default()
        };
        let run_once = || {
            let mut out = Vec::new();
            let totals = run(&config, None, &mut out, &mut |_: &Totals, _| {}).unwrap();
            (out, totals)
        };
        let (a, totals) = run_once();
        let (b, _) = run_once();
        assert_eq!(a, b, "the same seed gives the same games");
        let mut games = Vec::new();
        data::for_each_game(&mut &a[..], |g| games.push(g)).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(
            games.iter().map(|g| g.moves.len() as u64).sum::<u64>(),
            totals.positions
        );
        for g in &games {
            // Every ply is there: the last position is over by the rules or by adjudication.
            assert!((8..=9).contains(&data::ply_of(&g.start)));
            assert!(g.result <= 2);
        }
    }

    #[test]
    fn a_soft_node_limit_finishes_the_iteration() {
        let board = Board::from_fen(STARTPOS, false).unwrap();
        let mut hard = Player::new(3000, 1, None, Evaluator::Hce).unwrap();
        hard.search(&board, &[], true);
        let hard_nodes = hard.worker.nodes();
        let mut soft = Player::new(30_000, 1, None, Evaluator::Hce).unwrap();
        soft.soft_nodes = Some(3000);
        soft.search(&board, &[], true);
        let soft_nodes = soft.worker.nodes();
        // The soft search goes past 3000 to finish its iteration, but stops well before the
        // hard limit.
        assert!(soft_nodes > 3000, "{soft_nodes}");
        assert!(soft_nodes < 30_000, "{soft_nodes}");
        assert!(hard_nodes <= 3000 + 2048, "{hard_nodes}");
    }

    #[test]
    fn a_decided_endgame_is_won_by_adjudication_or_mate() {
        // King and queen against king: the search finds the win and the game ends 1-0.
        let mut p = Player::new(2000, 1, None, Evaluator::Hce).unwrap();
        let b = Board::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", false).unwrap();
        let g = p.play(&b, 100_000).unwrap();
        assert_eq!(g.result, data::WHITE_WIN);
        // Rook against king too: the defending king must be driven to the edge (the mop-up
        // term) within the 50-move rule.
        let b = Board::from_fen("8/8/8/3k4/8/8/8/R3K3 b - - 0 1", false).unwrap();
        let g = p.play(&b, 100_000).unwrap();
        assert_eq!(g.result, data::WHITE_WIN);
    }

    #[test]
    fn a_lower_win_threshold_ends_a_won_game_sooner() {
        // Queen against king scores far above 500 from the first search on: with a threshold of
        // 500 for 2 plies the game ends after its first two moves; with the default it goes on
        // to mate or to the default's score.
        let b = Board::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", false).unwrap();
        let mut p = Player::new(2000, 1, None, Evaluator::Hce).unwrap();
        let full = p.play(&b, 100_000).unwrap();
        p.win_score = 500;
        p.win_plies = 2;
        let short = p.play(&b, 100_000).unwrap();
        assert_eq!(short.result, data::WHITE_WIN);
        assert_eq!(short.moves.len(), 2);
        assert!(short.moves.iter().all(|&(_, score)| score >= 500));
        assert_eq!(full.result, data::WHITE_WIN);
        assert!(full.moves.len() > 2, "{}", full.moves.len());
    }
}
