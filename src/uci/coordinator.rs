//! The coordinator: the main thread's loop. A reader thread turns stdin into events; the
//! coordinator never blocks on a search. While a search runs only `stop`, `ponderhit`,
//! `isready` and `quit` act at once; every other command waits in a queue and is applied, in
//! order, when the search has ended.

use super::Out;
use super::options::{self, Change, Options};
use super::parse::{self, Command, Go, MAX_LINE, Position};
use crate::chess::perft::perft_until;
use crate::chess::{Board, Color, Move, STARTPOS};
use crate::eval::{Evaluator, nnue};
use crate::search::{Control, Job, Limits, ThreadResult};
use crate::tb::Prober;
use crate::threads::Pool;
use crate::time::{Clock, allocate};
use crate::tt::Table;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

pub enum Event {
    /// A line of input and the moment it was read: a `go`'s clock starts then, however long
    /// the line waits for the coordinator (on a loaded machine, a thread hand-off can wait a
    /// scheduler time slice).
    Line(String, Instant),
    TooLong(usize),
    Eof,
    /// The search is over; its main thread has already printed `bestmove`.
    Done,
    /// A perft or speedtest run on its own thread is over.
    ToolDone,
}

pub struct Coordinator {
    out: Out,
    opts: Options,
    board: Board,
    /// Keys of the game positions before `board`.
    history: Vec<u64>,
    tt: Arc<Table>,
    pool: Pool,
    /// The running search (or perft, bench, speedtest), if any.
    searching: Option<Arc<Control>>,
    /// The running job is a `go perft` or `bench`, which `quit` and the end of input let
    /// finish, as Stockfish does (they block its input loop), so that `printf 'go perft 6\n'
    /// | lazuli` prints the count; `stop` still ends them.
    runs_to_end: bool,
    queued: VecDeque<(String, Instant)>,
    new_game: bool,
    debug: bool,
    tb: Option<Arc<Prober>>,
    eval: Evaluator,
    /// What `eval` names as the evaluation in use (set with it by `EvalFile`).
    eval_name: String,
    tx: Sender<Event>,
    rx: Receiver<Event>,
}

/// Reads lines of at most `MAX_LINE` bytes; longer lines are consumed and reported.
fn reader_loop(input: impl Read, tx: Sender<Event>) {
    let mut r = std::io::BufReader::with_capacity(1 << 16, input);
    loop {
        let mut line = Vec::new();
        let mut total = 0usize;
        let mut ended = false;
        loop {
            let buf = match r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                ended = true;
                break;
            }
            let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], true),
                None => (buf, false),
            };
            total += chunk.len();
            if line.len() < MAX_LINE {
                let room = MAX_LINE - line.len();
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            let used = chunk.len() + found as usize;
            r.consume(used);
            if found {
                break;
            }
        }
        if total > 0 || !ended {
            let ev = if total > MAX_LINE {
                Event::TooLong(total)
            } else {
                let text = String::from_utf8_lossy(&line);
                Event::Line(text.trim_end_matches('\r').to_string(), Instant::now())
            };
            if tx.send(ev).is_err() {
                return;
            }
        }
        if ended {
            let _ = tx.send(Event::Eof);
            return;
        }
    }
}

/// Runs the UCI loop on `input` until `quit` or end of input.
/// `initial` options (from a settings file) are applied first, as `setoption` would.
pub fn run(
    input: impl Read + Send + 'static,
    out: Out,
    initial: &[(String, String)],
) -> std::io::Result<()> {
    let (tx, rx) = unbounded();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("lazuli-stdin".into())
        .spawn(move || reader_loop(input, reader_tx))?;
    let mut c = Coordinator::new(out, tx, rx)?;
    for (name, value) in initial {
        c.set_option(name, Some(value));
    }
    c.main_loop();
    Ok(())
}

impl Coordinator {
    fn new(out: Out, tx: Sender<Event>, rx: Receiver<Event>) -> std::io::Result<Coordinator> {
        let opts = Options::default();
        let tt =
            Arc::new(Table::new(opts.hash_mib).map_err(|e| std::io::Error::other(e.to_string()))?);
        let pool = Pool::new(options::DEFAULT_THREADS)?;
        pool.prefault_table(&tt);
        Ok(Coordinator {
            out,
            board: Board::startpos(),
            history: Vec::new(),
            tt,
            pool,
            opts,
            searching: None,
            runs_to_end: false,
            queued: VecDeque::new(),
            new_game: true,
            debug: false,
            tb: None,
            eval: Evaluator::default(),
            eval_name: eval_name(&Evaluator::default(), options::EVAL_DEFAULT),
            tx,
            rx,
        })
    }

    fn error(&self, msg: impl std::fmt::Display) {
        self.out.line(&format!("info string error: {msg}"));
    }

    fn main_loop(&mut self) {
        while let Ok(ev) = self.rx.recv() {
            let go_on = match ev {
                Event::Line(l, at) => self.on_line(&l, at),
                Event::TooLong(n) => {
                    self.error(parse::ParseError::TooLong(n));
                    true
                }
                Event::Done => {
                    self.searching = None;
                    self.drain_queue()
                }
                Event::ToolDone => {
                    self.searching = None;
                    self.drain_queue()
                }
                Event::Eof => false,
            };
            if !go_on {
                break;
            }
        }
        self.quit();
    }

    /// Applies queued commands until one of them starts a search again; the rest are then
    /// taken as if they had just arrived during that search (a queued `stop` stops it).
    fn drain_queue(&mut self) -> bool {
        while self.searching.is_none() {
            let Some((l, at)) = self.queued.pop_front() else {
                return true;
            };
            if !self.apply(&l, at) {
                return false;
            }
        }
        let rest = std::mem::take(&mut self.queued);
        for (l, at) in rest {
            if !self.on_line(&l, at) {
                return false;
            }
        }
        true
    }

    /// Whether a command that starts a search or a tool waits in the queue: a `stop` or
    /// `ponderhit` read now belongs to it too, not only to the search that is running.
    fn job_queued(&self) -> bool {
        self.queued.iter().any(|(l, _)| {
            matches!(
                parse::parse(l),
                Ok(Some(
                    Command::Go(_) | Command::Speedtest { .. } | Command::Bench { .. }
                ))
            )
        })
    }

    /// Returns false on `quit`.
    fn on_line(&mut self, line: &str, at: Instant) -> bool {
        let Some(control) = self.searching.clone() else {
            return self.apply(line, at);
        };
        match parse::parse(line) {
            // A `stop` (or `ponderhit`) read while another `go` waits in the queue belongs to
            // every search sent before it: the running one (which may be infinite or
            // pondering, and would otherwise never end), and the queued one once it starts.
            Ok(Some(cmd @ (Command::Stop | Command::PonderHit))) if self.job_queued() => {
                if cmd == Command::Stop {
                    control.stop.store(true, Ordering::Relaxed);
                } else {
                    control.ponderhit_at(at);
                }
                self.queued.push_back((line.to_string(), at))
            }
            Ok(Some(Command::Stop)) => control.stop.store(true, Ordering::Relaxed),
            Ok(Some(Command::PonderHit)) => control.ponderhit_at(at),
            // Once the answer is out, the GUI may have sent commands after reading it: readyok
            // must follow their effects, so it waits its turn like them.
            Ok(Some(Command::IsReady)) if control.finished.load(Ordering::Acquire) => {
                self.queued.push_back((line.to_string(), at))
            }
            Ok(Some(Command::IsReady)) => self.out.line("readyok"),
            Ok(Some(Command::Quit)) => return false,
            Ok(None) => {}
            Err(e) => self.error(e),
            Ok(Some(_)) => self.queued.push_back((line.to_string(), at)),
        }
        true
    }

    /// Before exiting: stops a running search (a perft or bench finishes), then applies the
    /// commands still queued, in order, as Stockfish would have before reading `quit`; each
    /// search they start is stopped at once, so every `go` sent still gets its `bestmove`
    /// and even a queued `go infinite` cannot hold the exit. Input after `quit` is ignored.
    fn quit(&mut self) {
        loop {
            if let Some(c) = self.searching.take() {
                if !self.runs_to_end {
                    c.stop.store(true, Ordering::Relaxed);
                }
                while let Ok(ev) = self.rx.recv() {
                    match ev {
                        Event::Done | Event::ToolDone => break,
                        _ => {}
                    }
                }
            }
            let Some((l, at)) = self.queued.pop_front() else {
                return;
            };
            if !self.apply(&l, at) {
                // Only `quit` makes `apply` say so, and it is never queued; stop all the same.
                self.queued.clear();
            }
        }
    }

    /// Executes one command while idle (`at`: when it was read). Returns false on `quit`.
    fn apply(&mut self, line: &str, at: Instant) -> bool {
        let cmd = match parse::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                self.error(e);
                return true;
            }
        };
        match cmd {
            Command::Uci => {
                self.out
                    .line(&format!("id name Lazuli {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Lazuli developers");
                for o in options::describe() {
                    self.out.line(&o);
                }
                self.out.line("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.pool.clear_table(&self.tt);
                self.new_game = true;
            }
            Command::Position { position, moves } => self.set_position(&position, &moves),
            Command::Go(go) => self.go(go, at),
            Command::Stop | Command::PonderHit => {}
            Command::Quit => return false,
            Command::Bench { depth } => self.bench(depth),
            Command::Speedtest {
                threads,
                hash_mib,
                seconds,
            } => self.speedtest(threads, hash_mib, seconds),
            Command::Display => {
                for l in self.board.to_string().lines() {
                    self.out.line(l);
                }
                self.out.line(&format!("Fen: {}", self.board.to_fen()));
                self.out.line(&format!("Key: {:016X}", self.board.key()));
            }
            Command::Eval => {
                if let Evaluator::Nnue(_) = &self.eval {
                    let hce = crate::eval::hce::evaluate(&self.board);
                    self.out.line(&format!(
                        "info string hand-written eval {hce} cp (side to move); evaluation in use: {}",
                        self.eval_name
                    ));
                }
                let e = self.eval.evaluate(&self.board);
                let white = if self.board.side_to_move() == Color::White {
                    e
                } else {
                    -e
                };
                self.out.line(&format!(
                    "info string eval {e} cp (side to move), {white} cp (white)"
                ));
            }
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(c) => c,
            Err(e) => return self.error(e),
        };
        match change {
            Change::Hash(mib) => match Table::new(mib) {
                Ok(t) => {
                    // The old table is kept until the new one exists, so a failure leaves the
                    // engine as it was. The new table is zero already: the workers only fault
                    // its pages in, in parallel.
                    self.tt = Arc::new(t);
                    self.pool.prefault_table(&self.tt);
                    self.opts.hash_mib = mib;
                }
                Err(e) => self.error(e),
            },
            Change::Threads(n) => {
                if n != self.pool.threads() {
                    self.restart_pool(n);
                    let cores = num_cpus::get();
                    if self.pool.threads() > cores {
                        self.out.line(&format!(
                            "info string Threads {} is more than the {cores} logical cores here: \
                             the searchers will share cores and each will search slower",
                            self.pool.threads()
                        ));
                    }
                }
            }
            Change::NumaPolicy(p) => {
                if p != self.opts.numa {
                    self.opts.numa = p;
                    self.restart_pool(self.pool.threads());
                }
            }
            Change::MultiPv(n) => self.opts.multipv = n,
            Change::MoveOverhead(ms) => self.opts.move_overhead = ms,
            Change::Ponder(p) => self.opts.ponder = p,
            Change::Chess960(on) => self.opts.chess960 = on,
            Change::ShowWdl(on) => self.opts.show_wdl = on,
            Change::ClearHash => self.pool.clear_table(&self.tt),
            Change::SyzygyPath(path) => self.load_tablebases(&path),
            Change::SyzygyProbeDepth(d) => self.opts.tb.probe_depth = d,
            Change::Syzygy50MoveRule(on) => self.opts.tb.rule50 = on,
            Change::SyzygyProbeLimit(n) => self.opts.tb.probe_limit = n,
            Change::EvalFile(v) => self.set_eval(&v),
            #[cfg(feature = "tune")]
            Change::Tune(i, v) => crate::search::params::TUNABLES[i].set(v),
        }
    }

    /// Replaces the pool with `n` threads bound as `NumaPolicy` says. The old threads exit
    /// before the new ones start.
    fn restart_pool(&mut self, n: usize) {
        self.pool = match Pool::with_policy(1, self.opts.numa) {
            Ok(p) => p,
            Err(e) => return self.error(format!("cannot start threads: {e}")),
        };
        match Pool::with_policy(n, self.opts.numa) {
            Ok(p) => self.pool = p,
            Err(e) => self.error(format!("cannot start {n} threads ({e}); using 1")),
        }
        if self.pool.bound_threads() > 0 {
            self.out.line(&format!(
                "info string NumaPolicy {}: {} of {} threads bound to cores",
                self.opts.numa.name(),
                self.pool.bound_threads(),
                self.pool.threads()
            ));
        }
    }

    /// `EvalFile`: the embedded network, the hand-written evaluation, or a network file; a
    /// file that cannot be used leaves the current evaluation in place.
    fn set_eval(&mut self, value: &str) {
        match value {
            options::EVAL_DEFAULT => self.eval = Evaluator::default(),
            options::EVAL_EMBEDDED => self.eval = Evaluator::Nnue(nnue::default_net()),
            options::EVAL_HCE => self.eval = Evaluator::Hce,
            path => match nnue::Network::load(std::path::Path::new(path)) {
                Ok(net) => self.eval = Evaluator::Nnue(Arc::new(net)),
                Err(e) => return self.error(format!("EvalFile: {e}; the evaluation is unchanged")),
            },
        }
        self.eval_name = eval_name(&self.eval, value);
        self.out
            .line(&format!("info string evaluation: {}", self.eval_name));
    }

    /// (Re)loads the tablebases; only called while no search runs, so the `Arc` swap is safe
    /// for the searchers, which take their own clone at each `go`.
    pub fn load_tablebases(&mut self, path: &str) {
        if crate::tb::split_paths(path).is_empty() {
            self.tb = None;
            self.out.line("info string Syzygy tablebases unloaded");
            return;
        }
        let loaded = crate::tb::load(path);
        for e in &loaded.errors {
            self.error(e);
        }
        match loaded.prober {
            Some(p) => {
                self.out.line(&format!(
                    "info string Syzygy: found {} WDL and {} DTZ tables, up to {} pieces",
                    p.wdl_files, p.dtz_files, p.max_pieces
                ));
                self.tb = Some(Arc::new(p));
            }
            None => {
                self.tb = None;
                self.out.line("info string Syzygy: no tables found");
            }
        }
    }

    fn set_position(&mut self, position: &Position, moves: &[String]) {
        let fen = match position {
            Position::StartPos => STARTPOS,
            Position::Fen(f) => f.as_str(),
        };
        let mut board = match Board::from_fen(fen, self.opts.chess960) {
            Ok(b) => b,
            Err(e) => return self.error(format!("invalid FEN: {e}")),
        };
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match board.parse_uci_move(text) {
                Ok(m) => {
                    history.push(board.key());
                    board = board.make_move(m);
                }
                Err(e) => {
                    return self.error(format!("move {} of the position command: {e}", i + 1));
                }
            }
        }
        self.board = board;
        self.history = history;
    }

    /// Starts a search; its clock runs from `at`, the moment the `go` line was read.
    fn go(&mut self, go: Go, at: Instant) {
        if let Some(depth) = go.perft {
            return self.go_perft(depth);
        }
        let mut searchmoves = Vec::new();
        for m in &go.searchmoves {
            match self.board.parse_uci_move(m) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => return self.error(format!("searchmoves: {e}")),
            }
        }
        let white = self.board.side_to_move() == Color::White;
        let clock = Clock {
            time: if white { go.wtime } else { go.btime },
            inc: if white { go.winc } else { go.binc },
            movestogo: go.movestogo,
            movetime: go.movetime,
        };
        let ply = (self.board.fullmove_number() as u32 - 1) * 2 + (!white) as u32;
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            soft_nodes: None,
            mate: go.mate,
            time: allocate(&clock, self.opts.move_overhead, ply),
            infinite: go.infinite,
        };
        if self.debug {
            self.out.line(&format!("info string limits {limits:?}"));
        }
        // Tablebase root: search only the moves that keep the best outcome.
        let mut root_tb = None;
        if let Some(tb) = &self.tb {
            let candidates = if searchmoves.is_empty() {
                self.board.legal_moves().to_vec()
            } else {
                searchmoves.clone()
            };
            if let Some(r) = tb.rank_root(
                &self.board,
                &candidates,
                self.opts.tb.rule50,
                self.opts.tb.probe_limit,
            ) {
                searchmoves = r.moves.clone();
                root_tb = Some(r);
            }
        }
        let control = Arc::new(Control::started_at(self.pool.threads(), go.ponder, at));
        self.tt.new_search();
        let out = self.out.clone();
        let job = Job {
            board: self.board,
            history: self.history.clone(),
            limits,
            multipv: self.opts.multipv,
            searchmoves,
            chess960: self.opts.chess960,
            show_wdl: self.opts.show_wdl,
            tt: self.tt.clone(),
            control: control.clone(),
            output: Arc::new(move |s: &str| out.line(s)),
            new_game: std::mem::take(&mut self.new_game),
            verbose: true,
            tb: self.tb.clone(),
            tb_config: self.opts.tb,
            root_tb,
            eval: self.eval.clone(),
        };
        let tx = self.tx.clone();
        let out = self.out.clone();
        let c960 = self.opts.chess960;
        let finished = control.clone();
        self.searching = Some(control);
        self.runs_to_end = false;
        // The main searcher prints `bestmove` itself, the moment it has decided: no hand-off
        // to another thread on the way out. Only then does the coordinator hear of it, so a
        // command that the GUI sends after reading `bestmove` can only arrive while the
        // coordinator still counts the search as running: it is queued and applied in order.
        self.pool.start(
            job,
            Box::new(move |r| {
                finished.finished.store(true, Ordering::Release);
                out.line(&bestmove_line(r.as_ref(), c960));
                let _ = tx.send(Event::Done);
            }),
        );
    }

    /// `speedtest`: runs on its own thread (with its own pool and table) so that `stop`,
    /// `isready` and `quit` are answered; `stop` ends it after the current move.
    fn speedtest(&mut self, threads: Option<usize>, hash_mib: Option<u64>, seconds: Option<u32>) {
        use crate::tools::speedtest::{self, Config};
        let mut cfg = Config::for_machine();
        cfg.numa = self.opts.numa;
        if let Some(t) = threads {
            if !(1..=options::MAX_THREADS).contains(&t) {
                return self.error(format!(
                    "speedtest threads must be 1 to {}",
                    options::MAX_THREADS
                ));
            }
            cfg.threads = t;
            cfg.hash_mib = speedtest::default_hash_mib(t);
        }
        if let Some(h) = hash_mib {
            if !(1..=options::MAX_HASH_MIB).contains(&h) {
                return self.error(format!(
                    "speedtest hash must be 1 to {} MiB",
                    options::MAX_HASH_MIB
                ));
            }
            cfg.hash_mib = h;
        }
        if let Some(s) = seconds {
            if !(1..=86_400).contains(&s) {
                return self.error("speedtest seconds must be 1 to 86400");
            }
            cfg.seconds = s as f64;
        }
        let eval = self.eval.clone();
        self.start_tool("speedtest", false, move |control, out| {
            out.line(&format!(
                "info string speedtest: {} threads, {} MiB hash, {} s",
                cfg.threads, cfg.hash_mib, cfg.seconds
            ));
            let mut progress = |l: &str| out.line(&format!("info string {l}"));
            match speedtest::run(&cfg, &eval, &control.stop, &mut progress) {
                Ok(r) => r.lines(),
                Err(e) => vec![format!("info string error: speedtest: {e}")],
            }
        });
    }

    /// Runs a tool (`work`) on a thread of its own as the running job: `stop` sets its
    /// control's `stop`, `quit` too unless `runs_to_end`. `work` returns its closing lines,
    /// printed with the job marked finished before the last; the coordinator then hears
    /// `ToolDone`.
    fn start_tool(
        &mut self,
        name: &str,
        runs_to_end: bool,
        work: impl FnOnce(&Arc<Control>, &Out) -> Vec<String> + Send + 'static,
    ) {
        let control = Arc::new(Control::new(1, false));
        let job = control.clone();
        let out = self.out.clone();
        let tx = self.tx.clone();
        self.searching = Some(control);
        self.runs_to_end = runs_to_end;
        let spawned = std::thread::Builder::new()
            .name(format!("lazuli-{name}"))
            .spawn(move || {
                let lines = work(&job, &out);
                print_last(&out, &job, &lines);
                let _ = tx.send(Event::ToolDone);
            });
        if spawned.is_err() {
            self.searching = None;
            self.error(format!("cannot start the {name} thread"));
        }
    }

    /// `bench [depth]`: runs beside the coordinator, as `speedtest` does, so that `isready` is
    /// answered meanwhile and `stop` ends it (`quit` lets it finish).
    fn bench(&mut self, depth: Option<u32>) {
        let depth = depth.unwrap_or(crate::tools::bench::DEFAULT_DEPTH);
        let eval = self.eval.clone();
        self.start_tool("bench", true, move |control, _| {
            vec![
                match crate::tools::bench::run_until(depth, &eval, control) {
                    Some((nodes, ms)) => format!("{nodes} nodes {} nps", nodes * 1000 / ms.max(1)),
                    None => "info string bench stopped".to_string(),
                },
            ]
        });
    }

    fn go_perft(&mut self, depth: u32) {
        if depth > 10 {
            return self.error(format!("perft depth {depth} is too deep (at most 10)"));
        }
        let board = self.board;
        let c960 = self.opts.chess960;
        self.start_tool("perft", true, move |control, out| {
            let start = std::time::Instant::now();
            // As `divide`, a line per root move, but `stop` ends it.
            let mut total = if depth == 0 { 1 } else { 0 };
            let moves = if depth == 0 {
                Vec::new()
            } else {
                board.legal_moves().to_vec()
            };
            let mut counted = 0;
            for &m in &moves {
                let Some(n) = perft_until(&board.make_move(m), depth - 1, &control.stop) else {
                    break;
                };
                out.line(&format!("{}: {n}", m.to_uci(c960)));
                total += n;
                counted += 1;
            }
            if counted < moves.len() {
                return vec![format!(
                    "info string perft stopped after {counted} of {} moves",
                    moves.len()
                )];
            }
            let ms = start.elapsed().as_millis() as u64;
            vec![
                String::new(),
                format!("Nodes searched: {total}"),
                format!(
                    "info string perft time {ms} ms, {} nps",
                    total * 1000 / ms.max(1)
                ),
            ]
        });
    }
}

/// Prints a tool's closing `lines`, marking `control` finished before the last one.
fn print_last(out: &Out, control: &Control, lines: &[String]) {
    for (i, l) in lines.iter().enumerate() {
        if i + 1 == lines.len() {
            control.finished.store(true, Ordering::Release);
        }
        out.line(l);
    }
}

/// How `EvalFile`'s answer and `eval` name the evaluation `eval`, set from the option `value`.
fn eval_name(eval: &Evaluator, value: &str) -> String {
    match (eval, value) {
        (Evaluator::Hce, _) => "hand-written".to_string(),
        (_, options::EVAL_DEFAULT | options::EVAL_EMBEDDED) => {
            format!("network {} (embedded)", nnue::DEFAULT_NET_NAME)
        }
        (_, path) => format!("network from EvalFile {path}"),
    }
}

/// `bestmove <move> [ponder <move>]`, or `bestmove 0000` when there is no legal move.
pub fn bestmove_line(r: Option<&ThreadResult>, chess960: bool) -> String {
    match r {
        Some(r) if r.best != Move::NONE => {
            let mut s = format!("bestmove {}", r.best.to_uci(chess960));
            if r.ponder != Move::NONE {
                s.push_str(&format!(" ponder {}", r.ponder.to_uci(chess960)));
            }
            s
        }
        _ => "bestmove 0000".to_string(),
    }
}
