//! A searcher's own state and the search proper.

use super::history::{Histories, PieceTo, stat_bonus};
use super::movepick::{Picker, Stage, is_tactical};
use super::params::*;
use super::{INF, Job, MATE_BOUND, MAX_PLY, ThreadResult, format_score, mate_in, mated_in};
use crate::chess::attacks::between;
use crate::chess::movegen::{ALL, CAPTURES};
use crate::chess::{Board, Move, PieceType, cuckoo, generate};
use crate::eval::{Evaluator, hce, nnue};
use crate::time::{Scaling, scaled_soft};
use crate::tt::{Bound, DECISIVE_BOUND, TB_WIN, TtData, score_from_tt, score_to_tt};
use std::sync::atomic::Ordering::Relaxed;

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    nodes: u64,
}

/// A searcher. Created on its own thread and kept between searches (histories persist until
/// `ucinewgame`).
pub struct Worker {
    pub id: usize,
    hist: Histories,
    /// `evals[ply]`: the static eval of the node at `ply` (`-INF` in check).
    evals: [i32; MAX_PLY + 2],
    /// `excluded[ply]`: the move a singular-extension search at `ply` leaves out.
    excluded: [Move; MAX_PLY + 2],
    /// Double extensions on the path to `ply`.
    double_ext: [u8; MAX_PLY + 2],
    /// Static-eval correction by pawn structure, `[side][pawn hash]`.
    corr: Box<[[i32; CORR_SIZE]; 2]>,
    /// Static-eval correction by each colour's non-pawn pieces: entry
    /// `(side * 2 + colour) * CORR_SIZE + hash` (flat, so that it is built on the heap).
    corr_np: Box<[i32]>,
    /// `moved[ply]`: the piece and target of the move made at `ply` (continuation history).
    moved: [PieceTo; MAX_PLY + 2],
    killers: [[Move; 2]; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Keys of the positions before the current node (game history, then the search path).
    keys: Vec<u64>,
    root_moves: Vec<RootMove>,
    nodes: u64,
    /// Nodes not yet added to the shared counter.
    unflushed: u64,
    seldepth: usize,
    stopped: bool,
    /// The first move of the PV in the last line reported for the best root move (main
    /// searcher only): when the move finally chosen differs, its line is printed before
    /// `bestmove`, so that the last PV a GUI saw starts with the move played.
    reported: Move,
    /// `null_move[ply]`: the node at `ply` was reached by a null move.
    null_move: [bool; MAX_PLY + 2],
    /// Repetitions are searched for only above this index of `keys` (a null move breaks them).
    rep_floor: usize,
    /// Index of the root position in `keys` (the number of game positions before it).
    root_index: usize,
    /// Null-move verification: no null move is tried above this ply (0: no limit).
    nmp_min_ply: usize,
    /// Late move reduction by `[depth][move number]`, both capped at 63.
    lmr: Box<[[i32; 64]; 64]>,
    pv_idx: usize,
    /// Network accumulators along the current line.
    nnue: nnue::Stack,
    /// Move pickers not in use, reused as a stack by the nested nodes so that a node does not
    /// clear a fresh 1.5 KB picker (a node that returns early without giving its picker back
    /// only costs a later allocation). Boxed, so that taking one moves a pointer, not 1.5 KB.
    #[allow(clippy::vec_box)]
    pickers: Vec<Box<Picker>>,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            hist: Histories::new(),
            evals: [-INF; MAX_PLY + 2],
            excluded: [Move::NONE; MAX_PLY + 2],
            double_ext: [0; MAX_PLY + 2],
            corr: Box::new([[0; CORR_SIZE]; 2]),
            corr_np: vec![0; 4 * CORR_SIZE].into_boxed_slice(),
            moved: [PieceTo::NONE; MAX_PLY + 2],
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            keys: Vec::with_capacity(1024),
            root_moves: Vec::new(),
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            reported: Move::NONE,
            null_move: [false; MAX_PLY + 2],
            rep_floor: 0,
            root_index: 0,
            nmp_min_ply: 0,
            lmr: lmr_table(),
            pv_idx: 0,
            nnue: nnue::Stack::new(MAX_PLY + 2),
            pickers: Vec::with_capacity(MAX_PLY + 2),
        }
    }

    /// A move picker from the pool, emptied (a new one when the pool is empty); give it back
    /// with `self.pickers.push` when the node is done with it.
    fn take_picker(&mut self) -> Box<Picker> {
        match self.pickers.pop() {
            Some(mut p) => {
                p.reset();
                p
            }
            None => Box::new(Picker::new()),
        }
    }

    pub fn clear_history(&mut self) {
        self.hist.clear();
        *self.corr = [[0; CORR_SIZE]; 2];
        self.corr_np.fill(0);
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Runs iterative deepening until a limit or `stop`; the main searcher (id 0) also keeps
    /// time, prints `info` and, under `go infinite` or `ponder`, waits for `stop`/`ponderhit`.
    pub fn search(&mut self, job: &Job) -> ThreadResult {
        job.control.note_start();
        if job.new_game {
            self.clear_history();
        }
        self.nodes = 0;
        self.unflushed = 0;
        self.stopped = false;
        self.reported = Move::NONE;
        self.keys.clear();
        self.keys.extend_from_slice(&job.history);
        self.root_index = job.history.len();
        self.rep_floor = 0;
        self.nmp_min_ply = 0;
        self.null_move = [false; MAX_PLY + 2];
        self.excluded = [Move::NONE; MAX_PLY + 2];
        self.double_ext = [0; MAX_PLY + 2];
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
        if let Evaluator::Nnue(net) = &job.eval {
            self.nnue.reset(net, &job.board);
        }
        #[cfg(feature = "tune")]
        {
            // The LMR numbers may have been set since the last search.
            self.lmr = lmr_table();
        }

        let legal = job.board.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| job.searchmoves.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        self.root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();

        if self.root_moves.is_empty() {
            let score = if job.board.in_check() { mated_in(0) } else { 0 };
            if self.is_main() && job.verbose {
                (job.output)(&format!("info depth 0 score {}", format_score(score)));
            }
            self.wait_for_release(job);
            return ThreadResult {
                best: Move::NONE,
                ponder: Move::NONE,
                score,
                depth: 0,
                pv: vec![],
            };
        }

        let multipv = job.multipv.clamp(1, self.root_moves.len());
        let max_depth = job.limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 4)
        });
        let mut completed = 0;
        let mut best_move_changes = 0.0f64;
        let mut last_best = Move::NONE;

        for depth in 1..=max_depth {
            if self.id > 0 && depth > 1 {
                let i = (self.id - 1) % 20;
                if ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1 {
                    continue;
                }
            }
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.score = -INF;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let (mut alpha, mut beta, mut delta) =
                    if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        (
                            prev - ASPIRATION_DELTA.get(),
                            prev + ASPIRATION_DELTA.get(),
                            ASPIRATION_DELTA.get(),
                        )
                    } else {
                        (-INF, INF, ASPIRATION_DELTA.get())
                    };
                loop {
                    let score = self.root_search(job, depth, alpha, beta);
                    self.sort_root(pv_idx);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                        self.report_bound(job, depth, multipv, pv_idx, "upperbound");
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                        self.report_bound(job, depth, multipv, pv_idx, "lowerbound");
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                self.sort_root(0);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                // A partial iteration still counts when its best move was fully searched.
                if self.root_moves[0].score > -INF {
                    completed = completed.max(depth - 1);
                }
                break;
            }
            completed = depth;
            if self.is_main() && job.verbose {
                self.report(job, depth, multipv);
            }

            let best = self.root_moves[0].mv;
            best_move_changes *= 0.5;
            if best != last_best && last_best != Move::NONE {
                best_move_changes += 1.0;
            }
            last_best = best;
            if self.is_main() && self.should_stop_after_iteration(job, depth, best_move_changes) {
                break;
            }
        }

        self.flush_nodes(job);
        self.wait_for_release(job);
        let rm = &self.root_moves[0];
        let ponder = rm
            .pv
            .get(1)
            .copied()
            .unwrap_or_else(|| self.ponder_from_tt(job, rm.mv));
        let score = if rm.score > -INF {
            rm.score
        } else {
            rm.prev_score
        };
        ThreadResult {
            best: rm.mv,
            ponder,
            score,
            depth: completed.max(1),
            pv: rm.pv.clone(),
        }
    }

    /// Under `go infinite` or while pondering, the main searcher must not report before
    /// `stop` (or `ponderhit`, for pondering), even when its iterations are over.
    fn wait_for_release(&self, job: &Job) {
        if !self.is_main() {
            return;
        }
        let c = &job.control;
        while !c.stopped() && (job.limits.infinite || c.pondering.load(Relaxed)) {
            std::thread::sleep(std::time::Duration::from_micros(500));
        }
    }

    fn should_stop_after_iteration(&self, job: &Job, depth: i32, changes: f64) -> bool {
        let c = &job.control;
        let best = &self.root_moves[0];
        if let Some(soft) = job.limits.soft_nodes
            && c.total_nodes() + self.unflushed >= soft
        {
            return true;
        }
        if let Some(mate) = job.limits.mate
            && best.score >= MATE_BOUND
            && (super::MATE - best.score + 1) / 2 <= mate as i32
        {
            return true;
        }
        if c.pondering.load(Relaxed) || job.limits.infinite {
            return false;
        }
        // A forced move needs no thought once it has a score.
        if self.root_moves.len() == 1 && depth >= 4 && job.limits.time.is_some() {
            return true;
        }
        if let Some(t) = &job.limits.time {
            let total: u64 = self.root_moves.iter().map(|r| r.nodes).sum::<u64>().max(1);
            let share = best.nodes as f64 / total as f64;
            let k = Scaling {
                per_change: TM_CHANGE_X100.get() as f64 / 100.0,
                share_base: TM_SHARE_BASE_X100.get() as f64 / 100.0,
                soft: TM_SOFT_X100.get() as f64 / 100.0,
            };
            if c.clock_ms() >= scaled_soft(t, changes, share, &k) {
                return true;
            }
        }
        false
    }

    fn ponder_from_tt(&self, job: &Job, best: Move) -> Move {
        let child = job.board.make_move(best);
        match job.tt.probe(child.key()) {
            Some(d) if child.legal_moves().contains(d.mv) => d.mv,
            _ => Move::NONE,
        }
    }

    /// Stable sort of `root_moves[from..]` by this iteration's score, then the previous one.
    fn sort_root(&mut self, from: usize) {
        self.root_moves[from..].sort_by_key(|r| std::cmp::Reverse((r.score, r.prev_score)));
    }

    fn info_line(&self, job: &Job, depth: i32, multipv: usize, k: usize, bound: &str) -> String {
        let rm = &self.root_moves[k];
        let (score, d) = if rm.score > -INF {
            (rm.score, depth)
        } else {
            (rm.prev_score, (depth - 1).max(1))
        };
        self.format_info(job, d, score, multipv, k, bound, &rm.pv)
    }

    /// One `info` line: depth `d`, `score` (from the side to move), PV `pv`.
    #[allow(clippy::too_many_arguments)]
    fn format_info(
        &self,
        job: &Job,
        d: i32,
        mut score: i32,
        multipv: usize,
        k: usize,
        bound: &str,
        pv: &[Move],
    ) -> String {
        let c = &job.control;
        // At a tablebase root the verdict is reported, unless the search proved a mate.
        if let Some(r) = &job.root_tb
            && score.abs() < MATE_BOUND
        {
            let dtz = r.dtz.unwrap_or(0).abs();
            score = match r.wdl {
                2 => TB_WIN - dtz,
                -2 => -TB_WIN + dtz,
                w => w,
            };
        }
        let ms = c.elapsed_ms();
        let nodes = c.total_nodes().max(self.nodes);
        let nps = nodes * 1000 / ms.max(1);
        let pv: Vec<String> = pv.iter().map(|m| m.to_uci(job.chess960)).collect();
        let mp = if multipv > 1 {
            format!(" multipv {}", k + 1)
        } else {
            String::new()
        };
        let wdl = if job.show_wdl {
            let (w, d, l) = crate::eval::wdl::wdl(score, crate::eval::wdl::material(&job.board));
            format!(" wdl {w} {d} {l}")
        } else {
            String::new()
        };
        format!(
            "info depth {d} seldepth {}{mp} score {}{wdl}{bound} nodes {nodes} nps {nps} hashfull {} tbhits {} time {ms} pv {}",
            self.seldepth.max(d as usize),
            format_score(score),
            job.tt.hashfull(),
            c.total_tbhits(),
            pv.join(" ")
        )
    }

    fn report(&mut self, job: &Job, depth: i32, multipv: usize) {
        for k in 0..multipv {
            (job.output)(&self.info_line(job, depth, multipv, k, ""));
        }
        self.note_reported();
    }

    fn report_bound(&mut self, job: &Job, depth: i32, multipv: usize, k: usize, bound: &str) {
        if self.is_main() && job.verbose && job.control.elapsed_ms() >= REPORT_BOUNDS_AFTER_MS {
            (job.output)(&self.info_line(job, depth, multipv, k, &format!(" {bound}")));
            if k == 0 {
                self.note_reported();
            }
        }
    }

    /// Remembers the first move of the best root move's PV, as just printed.
    fn note_reported(&mut self) {
        self.reported = self.root_moves[0].pv.first().copied().unwrap_or(Move::NONE);
    }

    /// Called on the main searcher once the pool has chosen the result `r`: when the last PV
    /// reported does not begin with `r`'s move (the search stopped inside an iteration that
    /// changed its mind, or another searcher's result was chosen), `r`'s line is printed, so
    /// the GUI's last PV starts with the move about to be played.
    pub fn final_report(&self, job: &Job, r: &ThreadResult) {
        if !self.is_main() || !job.verbose || r.best == Move::NONE || r.best == self.reported {
            return;
        }
        let one = [r.best];
        let pv: &[Move] = if r.pv.first() == Some(&r.best) {
            &r.pv
        } else {
            &one
        };
        let multipv = job.multipv.clamp(1, self.root_moves.len().max(1));
        (job.output)(&self.format_info(job, r.depth, r.score, multipv, 0, "", pv));
    }

    #[inline]
    fn flush_nodes(&mut self, job: &Job) {
        job.control.add_nodes(self.id, self.unflushed);
        self.unflushed = 0;
    }

    /// Counts a node; every `CHECK_EVERY` nodes publishes the count and checks the limits.
    #[inline]
    fn tick(&mut self, job: &Job) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.flush_nodes(job);
            let c = &job.control;
            if c.stopped() {
                self.stopped = true;
                return;
            }
            if self.is_main() {
                if let Some(n) = job.limits.nodes
                    && c.total_nodes() >= n
                {
                    c.stop.store(true, Relaxed);
                    self.stopped = true;
                }
                if let Some(t) = &job.limits.time
                    && !c.pondering.load(Relaxed)
                    && !job.limits.infinite
                    && c.clock_ms() >= t.hard
                {
                    c.stop.store(true, Relaxed);
                    self.stopped = true;
                }
            }
        } else if self.nodes & 63 == 0 && job.control.stopped() {
            self.stopped = true;
        }
    }

    /// Records the move from `parent` to `child` (at `ply`) for the network's accumulators;
    /// nothing when the hand-written evaluation is in use.
    #[inline(always)]
    fn push_nnue(&mut self, job: &Job, ply: usize, parent: &Board, child: &Board) {
        if let Evaluator::Nnue(_) = job.eval {
            self.nnue.push(ply, parent, child);
        }
    }

    /// The static evaluation of `board`, the node at `ply`, for its side to move.
    #[inline]
    fn static_eval(&mut self, job: &Job, board: &Board, ply: usize) -> i32 {
        match &job.eval {
            Evaluator::Hce => hce::evaluate(board),
            Evaluator::Nnue(net) => self.nnue.evaluate(net, ply, board),
        }
    }

    fn root_search(&mut self, job: &Job, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let board = job.board;
        let mut best = -INF;
        let root_key = board.key();
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main() && job.verbose && job.control.elapsed_ms() >= CURRMOVE_AFTER_MS {
                (job.output)(&format!(
                    "info depth {depth} currmove {} currmovenumber {}",
                    mv.to_uci(job.chess960),
                    i + 1
                ));
            }
            let child = board.make_move(mv);
            self.push_nnue(job, 1, &board, &child);
            self.moved[0] = PieceTo::of(&board, mv);
            let before = self.nodes;
            self.keys.push(root_key);
            let score = if i == self.pv_idx {
                -self.negamax(job, &child, depth - 1, -beta, -alpha, 1, true, false)
            } else {
                let s = -self.negamax(job, &child, depth - 1, -alpha - 1, -alpha, 1, false, true);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(job, &child, depth - 1, -beta, -alpha, 1, true, false)
                } else {
                    s
                }
            };
            self.keys.pop();
            self.root_moves[i].nodes += self.nodes - before;
            if self.stopped {
                break;
            }
            if i == self.pv_idx || score > alpha {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// A draw by repetition as the search scores it: the position occurred before after the
    /// root (a line that can repeat once can repeat forever), or occurred twice before in all
    /// (a threefold repetition, counting the game before the root). A single earlier
    /// occurrence at or before the root is not a draw: the opponent need not repeat it again.
    fn is_repetition(&self, board: &Board) -> bool {
        let key = board.key();
        let n = self.keys.len();
        let limit = (board.halfmove_clock() as usize).min(n - self.rep_floor);
        let mut earlier = 0;
        let mut i = 4;
        while i <= limit {
            if self.keys[n - i] == key {
                if n - i > self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier == 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Whether the side to move can return, in one reversible move, to a position that would
    /// then be a draw by repetition: one that occurred after the root, or one before it that
    /// had itself occurred before. The move is found from the key difference (`cuckoo`) and
    /// needs only an empty path. Within the tree either side's piece counts (the line
    /// reached here can be repeated); before the root it must be ours to move.
    fn upcoming_repetition(&self, board: &Board) -> bool {
        let n = self.keys.len();
        let end = (board.halfmove_clock() as usize).min(n - self.rep_floor);
        if end < 3 {
            return false;
        }
        let key = board.key();
        let occupied = board.occupied();
        let mut i = 3;
        while i <= end {
            let earlier = n - i;
            if let Some((a, b)) = cuckoo::reversible_move(key ^ self.keys[earlier])
                && (between(a, b) & occupied).is_empty()
            {
                if earlier > self.root_index {
                    return true;
                }
                let from = if board.piece_on(a).is_none() { b } else { a };
                if board.piece_on(from).color() == board.side_to_move() {
                    // The earlier position repeated an even earlier one, within the same
                    // stretch of reversible moves.
                    let low = n - end;
                    if earlier >= low + 4
                        && (low..=earlier - 4)
                            .rev()
                            .step_by(2)
                            .any(|j| self.keys[j] == self.keys[earlier])
                    {
                        return true;
                    }
                }
            }
            i += 2;
        }
        false
    }

    /// Row `ply` of the PV table holds the line from the node at `ply`: its move, then the
    /// child's row.
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let n = self.pv_len.get(ply + 1).copied().unwrap_or(0).min(MAX_PLY);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = mv;
        if let Some(child) = tail.first() {
            row[1..1 + n].copy_from_slice(&child[..n]);
            self.pv_len[ply] = n + 1;
        } else {
            self.pv_len[ply] = 1;
        }
    }

    /// What every node does first: count itself, notice a stop, track the selective depth and
    /// apply the 50-move rule (a mate delivered on the 100th half-move still stands).
    /// `Some(score)` ends the node.
    #[inline]
    fn enter_node(&mut self, job: &Job, board: &Board, ply: usize) -> Option<i32> {
        self.pv_len[ply.min(MAX_PLY)] = 0;
        self.tick(job);
        if self.stopped {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if board.halfmove_clock() >= 100 {
            return Some(if board.in_check() && !board.has_legal_move() {
                mated_in(ply)
            } else {
                0
            });
        }
        None
    }

    /// Alpha-beta search of `board` at `ply`. `cut_node`: a zero-window node expected to fail
    /// high (the child of a reduced search, and alternately below it: an expected cut node's
    /// children are expected all-nodes and theirs cut nodes again), whose later moves are
    /// reduced more, since one of its first moves should already refute it.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        job: &Job,
        board: &Board,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(job, board, alpha, beta, ply);
        }
        if let Some(score) = self.enter_node(job, board, ply) {
            return score;
        }
        let in_check = board.in_check();
        if self.is_repetition(board) || board.is_insufficient_material() {
            return 0;
        }
        // A move back to a repeated position is available: the side to move scores at least
        // a draw.
        if ply > 0 && alpha < 0 && self.upcoming_repetition(board) {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.static_eval(job, board, ply)
            };
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = board.key();
        let excluded = self.excluded[ply];
        let tt = job.tt.probe(key);
        let tt_move = tt.map_or(Move::NONE, |d| d.mv);
        if let Some(d) = tt
            && !pv_node
            && excluded == Move::NONE
            && d.depth as i32 >= depth
            && let Some(s) = tt_cutoff(&d, ply, alpha, beta)
        {
            return s;
        }

        // Tablebase WDL probe: right after a capture or pawn move, without castling rights,
        // with few enough pieces.
        if let Some(tb) = &job.tb
            && excluded == Move::NONE
            && board.halfmove_clock() == 0
            && board.castling_rights() == 0
        {
            let pieces = board.occupied().count() as usize;
            let limit = job.tb_config.probe_limit.min(tb.max_pieces);
            if pieces <= limit
                && (depth >= job.tb_config.probe_depth || pieces < limit)
                && let Some(w) = tb.probe_wdl_after_zeroing(board)
            {
                job.control.add_tbhit(self.id);
                let w = if job.tb_config.rule50 {
                    w
                } else {
                    w.signum() * 2
                };
                let (score, bound) = match w {
                    2 => (TB_WIN - ply as i32, Bound::Lower),
                    -2 => (-TB_WIN + ply as i32, Bound::Upper),
                    // Cursed wins and blessed losses are draws under the 50-move rule.
                    w => (w, Bound::Exact),
                };
                let cut = match bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    _ => score <= alpha,
                };
                if cut {
                    job.tt.store(
                        key,
                        TtData {
                            mv: Move::NONE,
                            score: score_to_tt(score, ply),
                            eval: 0,
                            depth: (depth + 6).clamp(0, 255) as u8,
                            bound,
                            pv: pv_node,
                        },
                    );
                    return score;
                }
            }
        }

        let raw_eval = if in_check {
            -INF
        } else {
            match tt {
                Some(d) if d.eval as i32 > -INF => d.eval as i32,
                _ => self.static_eval(job, board, ply),
            }
        };
        let corr_idx = if in_check {
            CorrIndex::default()
        } else {
            corr_index(board)
        };
        let static_eval = if in_check {
            -INF
        } else {
            self.corrected(board, &corr_idx, raw_eval)
        };
        self.evals[ply] = static_eval;
        // Improving: better than two plies ago (our previous move).
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // The TT score, where its bound says so, is a better estimate than the static eval.
        let eval = match tt {
            Some(d) if !in_check => {
                let s = score_from_tt(d.score, ply);
                let fits = match d.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                    Bound::None => false,
                };
                if fits && s.abs() < DECISIVE_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };

        if !pv_node && !in_check && excluded == Move::NONE && beta.abs() < DECISIVE_BOUND {
            // Reverse futility pruning: far enough above beta that nothing will bring it down.
            if depth <= RFP_MAX_DEPTH.get()
                && eval - RFP_MARGIN.get() * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Razoring: hopelessly below alpha, only tactics can save it.
            if depth <= RAZOR_MAX_DEPTH
                && eval + RAZOR_BASE.get() + RAZOR_MULT.get() * depth * depth < alpha
            {
                let v = self.qsearch(job, board, alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if v < alpha {
                    return v;
                }
            }
        }

        // Null-move pruning, not in check, not without pieces (zugzwang guard), not twice.
        let us = board.side_to_move();
        let non_pawn =
            board.color(us) & !(board.pieces(PieceType::Pawn) | board.pieces(PieceType::King));
        let after_null = self.null_move[ply];
        if !pv_node
            && !in_check
            && depth >= NMP_MIN_DEPTH
            && eval >= beta
            && static_eval >= beta
            && non_pawn.any()
            && !after_null
            && ply >= self.nmp_min_ply
            && excluded == Move::NONE
            && beta.abs() < MATE_BOUND
        {
            let r = NMP_BASE.get()
                + depth / NMP_DIVISOR.get()
                + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_EVAL_MAX);
            let child = board.make_null();
            job.tt.prefetch(child.key());
            self.push_nnue(job, ply + 1, board, &child);
            self.keys.push(key);
            let floor = std::mem::replace(&mut self.rep_floor, self.keys.len());
            self.null_move[ply + 1] = true;
            self.moved[ply] = PieceTo::NONE;
            let s = -self.negamax(
                job,
                &child,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                !cut_node,
            );
            self.null_move[ply + 1] = false;
            self.rep_floor = floor;
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta {
                let s = if s >= MATE_BOUND { beta } else { s };
                if self.nmp_min_ply != 0 || depth < NMP_VERIFY_DEPTH {
                    return s;
                }
                // Verification (deep nodes only, where a zugzwang would cost the most): the
                // same reduced depth with null moves off over the next plies.
                self.nmp_min_ply = ply + (3 * (depth - 1 - r) / 4).max(1) as usize;
                let v = self.negamax(job, board, depth - 1 - r, beta - 1, beta, ply, false, false);
                self.nmp_min_ply = 0;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return s;
                }
            }
        }

        // Internal iterative reduction: without a TT move this node is probably new and its
        // ordering poor; search it shallower.
        let depth = if tt_move == Move::NONE && excluded == Move::NONE && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };

        let mut picker = self.take_picker();
        generate::<ALL>(board, &mut picker.list);
        if picker.list.is_empty() {
            self.pickers.push(picker);
            return if in_check { mated_in(ply) } else { 0 };
        }
        let prev = self.prev_moves(ply);
        let killers = self.killers[ply.min(MAX_PLY)];
        picker.score(board, tt_move, killers, prev, &self.hist);

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut quiets_tried = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures_tried = [Move::NONE; 32];
        let mut n_captures = 0;
        let mut i = 0;
        let mut move_count = 0;
        let mut skip_quiets = false;
        while let Some((mv, stage)) = picker.next(board, &self.hist) {
            let quiet = !is_tactical(board, mv);
            if (quiet && skip_quiets) || mv == excluded {
                continue;
            }
            // Ask for the child's table entry now, before the pruning decisions below, so
            // that the memory load overlaps them (a move pruned below wastes only the load).
            job.tt.prefetch(board.key_after(mv));
            move_count += 1;
            let mut hist_score = 0;
            if quiet {
                hist_score = self.hist.quiet(board, mv, prev, picker.threats(board).all);
            }
            // Shallow-depth pruning, once a move that does not lose has been found.
            if best > -DECISIVE_BOUND && non_pawn.any() {
                let base_r = self.lmr[(depth as usize).min(63)][move_count.min(63)];
                let lmr_depth = (depth - 1 - base_r).max(0);
                if quiet {
                    let lmp_limit = (LMP_BASE.get() + depth * depth) / (2 - improving as i32);
                    if move_count as i32 > lmp_limit {
                        skip_quiets = true;
                        picker.skip_quiets(board);
                        continue;
                    }
                    let gives_check = board.gives_check(mv);
                    if !in_check
                        && !gives_check
                        && lmr_depth <= FP_MAX_DEPTH.get()
                        && eval + FP_BASE.get() + FP_MULT.get() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if !board.see_ge(mv, -SEE_QUIET.get() * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if !board.see_ge(mv, -SEE_CAPTURE.get() * depth) {
                    continue;
                }
            }
            // Singular extension: is the TT move much better than every other move?
            let mut extension = 0;
            if let Some(d) = tt
                && mv == tt_move
                && ply > 0
                && excluded == Move::NONE
                && depth >= SE_MIN_DEPTH
                && d.depth as i32 >= depth - SE_TT_DEPTH_MARGIN
                && matches!(d.bound, Bound::Lower | Bound::Exact)
            {
                let tt_score = score_from_tt(d.score, ply);
                if tt_score.abs() < DECISIVE_BOUND {
                    let s_beta = tt_score - SE_MARGIN.get() * depth;
                    self.excluded[ply] = mv;
                    let v = self.negamax(
                        job,
                        board,
                        (depth - 1) / 2,
                        s_beta - 1,
                        s_beta,
                        ply,
                        false,
                        cut_node,
                    );
                    self.excluded[ply] = Move::NONE;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        extension = 1;
                        if !pv_node
                            && v < s_beta - SE_DOUBLE_MARGIN.get()
                            && self.double_ext[ply] < SE_MAX_DOUBLE
                        {
                            extension = 2;
                        }
                    } else if s_beta >= beta {
                        // Multi-cut: another move beats beta too.
                        self.pickers.push(picker);
                        return s_beta;
                    } else if tt_score >= beta {
                        extension = -1;
                    }
                }
            }
            let child = board.make_move(mv);
            job.tt.prefetch(child.key());
            self.push_nnue(job, ply + 1, board, &child);
            self.moved[ply] = PieceTo::of(board, mv);
            if CHECK_EXTENSION && extension == 0 && child.in_check() {
                extension = 1;
            }
            self.double_ext[ply + 1] = self.double_ext[ply] + (extension == 2) as u8;
            let new_depth = depth - 1 + extension;
            self.keys.push(key);
            let score = if i == 0 {
                -self.negamax(
                    job,
                    &child,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                )
            } else {
                // Late move reductions: quiet moves late in the order are searched shallower
                // first, and again at full depth only if they beat alpha.
                let mut s = alpha + 1;
                if depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVES
                    && (quiet || stage == Stage::BadCapture)
                    && !in_check
                    && !child.in_check()
                {
                    let mut r = self.lmr[(depth as usize).min(63)][move_count.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if stage == Stage::Refutation {
                        r -= 1;
                    }
                    // Expected cut nodes: a move that is not the first to be tried here
                    // is unlikely to matter.
                    if cut_node {
                        r += LMR_CUT_NODE;
                    }
                    r -= hist_score / LMR_HISTORY_DIVISOR.get();
                    let r = r.clamp(0, (new_depth - 1).max(0));
                    if r > 0 {
                        s = -self.negamax(
                            job,
                            &child,
                            new_depth - r,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            false,
                            true,
                        );
                    }
                }
                if s > alpha {
                    s = -self.negamax(
                        job,
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
                if pv_node && s > alpha && s < beta && !self.stopped {
                    -self.negamax(job, &child, new_depth, -beta, -alpha, ply + 1, true, false)
                } else {
                    s
                }
            };
            self.keys.pop();
            i += 1;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        let bonus = stat_bonus(depth);
                        if quiet {
                            self.hist.update_quiets(
                                board,
                                mv,
                                &quiets_tried[..n_quiets],
                                prev,
                                picker.threats(board).all,
                                bonus,
                            );
                            let k = &mut self.killers[ply.min(MAX_PLY)];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                        } else {
                            self.hist.update_capture(board, mv, bonus);
                        }
                        for &c in &captures_tried[..n_captures] {
                            self.hist.update_capture(board, c, -bonus);
                        }
                        break;
                    }
                }
            }
            if quiet {
                if n_quiets < quiets_tried.len() {
                    quiets_tried[n_quiets] = mv;
                    n_quiets += 1;
                }
            } else if n_captures < captures_tried.len() {
                captures_tried[n_captures] = mv;
                n_captures += 1;
            }
        }
        self.pickers.push(picker);

        if best == -INF {
            // Only the excluded move was legal.
            return alpha;
        }
        let bound = bound_of(best, original_alpha, beta);
        if excluded != Move::NONE {
            return best;
        }
        // Teach the correction history how far the static eval was from the search result.
        // Only results that say something about the eval: a lower bound above it, an upper
        // bound below it, or an exact score.
        let informative = match bound {
            Bound::Lower => best > static_eval,
            Bound::Upper => best < static_eval,
            _ => true,
        };
        if !in_check
            && (best_move == Move::NONE || !is_tactical(board, best_move))
            && informative
            && best.abs() < DECISIVE_BOUND
        {
            self.update_correction(board, &corr_idx, depth, best - static_eval);
        }
        job.tt.store(
            key,
            TtData {
                mv: if bound == Bound::Upper {
                    tt_move
                } else {
                    best_move
                },
                score: score_to_tt(best, ply),
                eval: raw_eval.clamp(-30_000, 30_000) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
                pv: pv_node,
            },
        );
        best
    }

    fn qsearch(&mut self, job: &Job, board: &Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.enter_node(job, board, ply) {
            return score;
        }
        let in_check = board.in_check();
        if board.is_insufficient_material() {
            return 0;
        }
        if alpha < 0 && self.upcoming_repetition(board) {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.static_eval(job, board, ply)
            };
        }

        let key = board.key();
        let tt = job.tt.probe(key);
        if let Some(d) = tt
            && let Some(s) = tt_cutoff(&d, ply, alpha, beta)
        {
            return s;
        }

        let mut best = -INF;
        let mut static_eval = -INF;
        if !in_check {
            static_eval = match tt {
                Some(d) if d.eval as i32 > -INF => d.eval as i32,
                _ => self.static_eval(job, board, ply),
            };
            let stand_pat = self.corrected(board, &corr_index(board), static_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }

        let mut picker = self.take_picker();
        if in_check {
            generate::<ALL>(board, &mut picker.list);
            if picker.list.is_empty() {
                self.pickers.push(picker);
                return mated_in(ply);
            }
        } else {
            generate::<CAPTURES>(board, &mut picker.list);
        }
        let tt_move = tt.map_or(Move::NONE, |d| d.mv);
        let prev = self.prev_moves(ply);
        picker.score(board, tt_move, [Move::NONE; 2], prev, &self.hist);
        let original_alpha = alpha;
        let mut best_move = Move::NONE;
        while let Some((mv, stage)) = picker.next(board, &self.hist) {
            if !in_check {
                // Losing captures and under-promotions are not worth a quiescence node.
                if stage == Stage::BadCapture {
                    break;
                }
                if mv.is_promotion() && mv.promotion_piece() != PieceType::Queen {
                    continue;
                }
            }
            let child = board.make_move(mv);
            job.tt.prefetch(child.key());
            self.push_nnue(job, ply + 1, board, &child);
            self.moved[ply] = PieceTo::of(board, mv);
            self.keys.push(key);
            let score = -self.qsearch(job, &child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.pickers.push(picker);
        if in_check && best == -INF {
            return mated_in(ply);
        }
        let bound = bound_of(best, original_alpha, beta);
        job.tt.store(
            key,
            TtData {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: static_eval.clamp(-30_000, 30_000) as i16,
                depth: 0,
                bound,
                pv: false,
            },
        );
        best
    }

    /// The static eval corrected by what searches of positions with these pawns, and with
    /// each side's non-pawn pieces where they are, found: the pawn table weighs 2, each
    /// non-pawn table 1, over 3.
    #[inline]
    fn corrected(&self, board: &Board, ix: &CorrIndex, raw: i32) -> i32 {
        let stm = board.side_to_move().index();
        let [w, b] = ix.np_slots(stm);
        let c = 2 * self.corr[stm][ix.pawn] + self.corr_np[w] + self.corr_np[b];
        (raw + c / (3 * CORR_GRAIN)).clamp(-DECISIVE_BOUND + 1, DECISIVE_BOUND - 1)
    }

    fn update_correction(&mut self, board: &Board, ix: &CorrIndex, depth: i32, diff: i32) {
        let stm = board.side_to_move().index();
        let w = (depth + 1).min(16);
        let target = (diff * CORR_GRAIN).clamp(-CORR_MAX * CORR_GRAIN, CORR_MAX * CORR_GRAIN);
        let blend =
            |e: &mut i32| *e = (*e * (CORR_WEIGHT_SCALE - w) + target * w) / CORR_WEIGHT_SCALE;
        blend(&mut self.corr[stm][ix.pawn]);
        let [wi, bi] = ix.np_slots(stm);
        blend(&mut self.corr_np[wi]);
        blend(&mut self.corr_np[bi]);
    }

    /// The moves made one and two plies before the node at `ply`.
    #[inline]
    fn prev_moves(&self, ply: usize) -> [PieceTo; 2] {
        [
            if ply >= 1 {
                self.moved[ply - 1]
            } else {
                PieceTo::NONE
            },
            if ply >= 2 {
                self.moved[ply - 2]
            } else {
                PieceTo::NONE
            },
        ]
    }
}
/// A node's entries in the correction tables, computed once per node.
#[derive(Clone, Copy, Default)]
struct CorrIndex {
    /// Both colours' pawns.
    pawn: usize,
    /// Each colour's knights, bishops, rooks, queens and king, by colour.
    np: [usize; 2],
}

impl CorrIndex {
    /// Where White's and Black's non-pawn entries for side to move `stm` lie in `corr_np`.
    #[inline]
    fn np_slots(&self, stm: usize) -> [usize; 2] {
        [0, 1].map(|c| (stm * 2 + c) * CORR_SIZE + self.np[c])
    }
}

#[inline]
fn corr_index(board: &Board) -> CorrIndex {
    CorrIndex {
        pawn: pawn_index(board),
        np: [
            non_pawn_index(board, crate::chess::Color::White),
            non_pawn_index(board, crate::chess::Color::Black),
        ],
    }
}

/// Index of one colour's non-pawn pieces (by type and square) in a correction table.
#[inline]
fn non_pawn_index(board: &Board, c: crate::chess::Color) -> usize {
    let bb = |pt| board.pieces_of(c, pt).0;
    let h = bb(PieceType::Knight).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ bb(PieceType::Bishop).wrapping_mul(0xD6E8_FEB8_6659_FD93)
        ^ bb(PieceType::Rook).wrapping_mul(0xA076_1D64_78BD_642F)
        ^ bb(PieceType::Queen).wrapping_mul(0xE703_7ED1_A0B4_28DB)
        ^ bb(PieceType::King).wrapping_mul(0x8EBC_6AF0_9C88_C6E3);
    (h >> 50) as usize % CORR_SIZE
}

/// Index of the pawn structure (both colours) in the correction table.
#[inline]
fn pawn_index(board: &Board) -> usize {
    let w = board
        .pieces_of(crate::chess::Color::White, PieceType::Pawn)
        .0;
    let b = board
        .pieces_of(crate::chess::Color::Black, PieceType::Pawn)
        .0;
    let h = (w ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ b.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    (h >> 50) as usize % CORR_SIZE
}

/// The bound a fail-soft search result `best` for the window (alpha, beta) proves.
#[inline]
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The score of a TT entry when its bound settles the node for the window (alpha, beta).
#[inline]
fn tt_cutoff(d: &TtData, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(d.score, ply);
    let usable = match d.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    };
    usable.then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker whose key list holds the positions of `moves` from the start position before
    /// the last one, with the root `root_index` positions in; returns it with the last board.
    fn after(moves: &str, root_index: usize) -> (Worker, Board) {
        let mut worker = Worker::new(0);
        let mut board = Board::startpos();
        for text in moves.split_whitespace() {
            let mv = board.parse_uci_move(text).expect("legal test move");
            worker.keys.push(board.key());
            board = board.make_move(mv);
        }
        worker.root_index = root_index;
        (worker, board)
    }

    #[test]
    fn a_move_back_into_the_tree_is_an_upcoming_repetition() {
        // Black's Ng8 would return to the position after 1. e4 e5.
        let line = "e2e4 e7e5 g1f3 g8f6 f3g1";
        let (worker, board) = after(line, 1);
        assert!(worker.upcoming_repetition(&board));
        // With that position before the root and seen only once, it is no draw yet.
        let (worker, board) = after(line, 5);
        assert!(!worker.upcoming_repetition(&board));
        // Seen twice before the root: returning makes a three-fold.
        let (worker, board) = after("e2e4 e7e5 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", 9);
        assert!(worker.upcoming_repetition(&board));
    }

    #[test]
    fn the_way_back_must_be_free() {
        let fen = |f: &str| Board::from_fen(f, false).expect("valid test FEN");
        // Three plies ago the white rook stood on a3; Black is to move now, in the tree.
        let check = |pawn: &str| {
            let now = fen(&format!("4k3/8/8/8/8/8/{pawn}/R3K3 b - - 10 30"));
            let before = fen(&format!("4k3/8/8/8/8/R7/{pawn}/4K3 w - - 7 29"));
            let mut worker = Worker::new(0);
            worker.keys = vec![1, before.key(), 2, 3];
            worker.upcoming_repetition(&now)
        };
        assert!(check("1P6"), "a2 empty: Ra1-a3 is possible");
        assert!(!check("P7"), "a2 occupied: the rook cannot pass");
    }

    #[test]
    fn an_irreversible_move_ends_the_search_for_cycles() {
        // Ng8 would restore the start position's pieces, but e7-e5 was played since.
        let (worker, board) = after("g1f3 g8f6 f3g1 e7e5 b1c3", 0);
        assert!(!worker.upcoming_repetition(&board));
        let (worker, board) = after("g1f3 g8f6 f3g1", 0);
        // The start position is the root itself, not after it: no draw yet.
        assert!(!worker.upcoming_repetition(&board));
    }

    #[test]
    fn corrections_follow_search_results_by_pawns_and_by_pieces() {
        let fen = |f: &str| Board::from_fen(f, false).expect("valid test FEN");
        let a = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        // The same pawns and black pieces; White's knight on c3 instead of f3.
        let b = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKB1R w KQkq - 2 3");
        let (ia, ib) = (corr_index(&a), corr_index(&b));
        assert_eq!(ia.pawn, ib.pawn);
        assert_eq!(ia.np[1], ib.np[1]);
        assert_ne!(ia.np[0], ib.np[0]);
        let mut worker = Worker::new(0);
        assert_eq!(worker.corrected(&a, &ia, 10), 10);
        for _ in 0..200 {
            worker.update_correction(&a, &ia, 15, 40);
        }
        // All three tables learnt +40 (to within the blend's rounding): `a` gets (2 + 1 + 1)
        // / 3 of it ...
        let ca = worker.corrected(&a, &ia, 10);
        assert!((60..=63).contains(&ca), "{ca}");
        // ... and `b` only what the tables it shares give: (2 + 1) / 3.
        let cb = worker.corrected(&b, &ib, 10);
        assert!((47..=50).contains(&cb), "{cb}");
        worker.clear_history();
        assert_eq!(worker.corrected(&a, &ia, 10), 10);
    }
}
