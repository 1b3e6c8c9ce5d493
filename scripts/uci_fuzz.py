#!/usr/bin/env python3
"""Random UCI sessions as a careless or buggy GUI sends them, with the engine's answers checked.

  scripts/uci_fuzz.py [--engine target/release/lazuli] [--seconds 300] [--seed 1]
                      [--sessions 1] [--log fuzz.log]

Each session starts the engine and sends a random mix of valid and broken commands: positions
(valid ones made with python-chess, broken FENs, illegal or garbled moves), searches of every
kind (depth, nodes, movetime, clocks, mate, infinite, ponder, searchmoves), `go` while a search
runs, `stop` and `ponderhit` at any time, options with good and bad values (Threads, Hash,
MultiPV, UCI_ShowWDL, UCI_Chess960, Move Overhead, EvalFile, Clear Hash), ucinewgame, garbage,
empty and over-long lines, bytes that are not UTF-8, commands in bursts and with pauses.

Checked, with the session's log on failure:
  - the engine never exits before `quit`, and prints no panic on stderr;
  - every `isready` gets `readyok` within --ready-timeout seconds (queued behind a running
    search's `bestmove` at most);
  - every search sent gets exactly one `bestmove`, in order, once the `stop` of a checkpoint
    has been sent; no extra ones;
  - every `bestmove` is legal in the position of its search (and among its searchmoves), or
    `0000` where there is none;
  - every malformed line gets at least one `info string` line and changes nothing: at each
    checkpoint the engine's `d` (Fen line) must equal the position the model kept;
  - `quit` ends the process within 5 s.
Needs python-chess (pip install chess).
"""
import argparse
import queue
import random
import subprocess
import sys
import threading
import time

import chess

BAD_FENS = [
    "8/8/8/8/8/8/8/8 w - - 0 1",                                   # no kings
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",    # bad side
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    # 9 squares
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",             # 7 ranks
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",   # bad ep square
    "4k3/8/8/8/8/8/8/4K2P w - - 0 1",                              # pawn on rank 1
    "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1",                             # side not to move in check
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",   # negative clock
    "kk6/8/8/8/8/8/8/K7 w - - 0 1",                                 # two black kings
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",    # bad piece
    "hello world",
    "",
]

GOOD_FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",            # stalemate: bestmove 0000
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",            # checkmate: bestmove 0000
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",          # mate in one
    "8/8/8/8/8/4k3/4p3/4K3 w - - 0 1",             # single legal move
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",  # en passant
    "8/8/3k4/8/8/3K4/8/8 w - - 99 80",             # 50-move edge
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",            # castling rights without rooks: dropped
]

GARBAGE = [
    "", "   ", "\t", "hello", "go go go", "isready now", "uci uci", "position", "position fen",
    "position startpos junk", "position startpos moves e2e5",
    "position startpos moves e2e4 e2e4", "position startpos moves e7e5",
    "position startpos moves e2e4 e7e5 zz99", "position startpos moves e1g1",
    "go depth", "go depth x", "go wtime abc", "go nodes -", "go movetime", "go searchmoves",
    "go bogus 5", "go depth 99999999999999999999", "go perft", "go perft x",
    "setoption", "setoption name", "setoption name Hash", "setoption name Hash value",
    "setoption name Hash value -1", "setoption name Hash value 99999999999",
    "setoption name Hash value lots", "setoption name Threads value 0",
    "setoption name Threads value 100000", "setoption name MultiPV value 0",
    "setoption name MultiPV value 1000", "setoption name Nonexistent value 3",
    "setoption name UCI_ShowWDL value maybe", "setoption name Move Overhead value -3",
    "setoption name EvalFile value /nonexistent/net.nnue", "setoption name EvalFile value /etc/passwd",
    "setoption name SyzygyPath value /nonexistent", "setoption name NumaPolicy value sideways",
    "register later", "debug on", "debug off", "debug maybe", "ucinewgame now", "stop now",
    "d extra", "eval please", "quit!", "QUIT", "Go depth 3", "isready\x00", "\x1b[A",
    "position fen 8/8/8/8/8/8/8/8", "position fen rnbqkbnr/pppppppp w",
]


class Session:
    def __init__(self, args, rng, log):
        self.args = args
        self.rng = rng
        self.log = log
        self.p = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.q = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.board = chess.Board()      # the position the engine should hold
        self.chess960 = False
        self.searches = []              # (fen, chess960, searchmoves) of searches not answered
        self.running = False            # a search may be running (model)
        self.sent = 0
        self.bestmoves = 0

    def _read(self):
        for raw in self.p.stdout:
            self.q.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.q.put((time.monotonic(), None))

    def _read_err(self):
        for raw in self.p.stderr:
            self.stderr.append(raw.decode("utf-8", "replace"))

    def fail(self, why):
        self.log.append("model: searches waiting: " + "; ".join(
            f"[{go}] on {fen}" for fen, _, _, go in self.searches))
        raise AssertionError(why)

    def send(self, line):
        data = line if isinstance(line, bytes) else line.encode()
        self.log.append(f"> {data[:200]!r}")
        try:
            self.p.stdin.write(data + b"\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            self.fail("engine closed its input (exited?)")
        self.sent += 1

    def drain(self, wait=0.0, until=None):
        """Reads lines for up to `wait` s (or until `until(line)`); checks each bestmove."""
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            try:
                _, line = self.q.get(timeout=max(left, 0.0)) if left > 0 else self.q.get_nowait()
            except queue.Empty:
                return False
            if line is None:
                self.fail(f"engine exited (code {self.p.poll()}); stderr: {''.join(self.stderr)[-2000:]}")
            if not line.startswith("info depth") and not line.startswith("info nodes"):
                self.log.append(f"< {line[:200]}")
            if line.startswith("bestmove"):
                self.check_bestmove(line)
            if until is not None and until(line):
                return True

    def check_bestmove(self, line):
        self.bestmoves += 1
        if not self.searches:
            self.fail(f"bestmove with no search waiting: {line}")
        fen, c960, searchmoves, go = self.searches.pop(0)
        self.log.append(f"  (answers [{go}] on {fen})")
        words = line.split()
        if len(words) < 2:
            self.fail(f"bestmove without a move: {line}")
        b = chess.Board(fen, chess960=c960)
        legal = {b.uci(m, chess960=c960) for m in b.legal_moves}
        mv = words[1]
        if not legal:
            if mv != "0000":
                self.fail(f"{fen}: no legal move, yet bestmove {mv}")
            return
        if mv not in legal:
            self.fail(f"{fen} (960={c960}): illegal bestmove {mv}")
        if searchmoves and mv not in searchmoves:
            self.fail(f"{fen}: bestmove {mv} not among searchmoves {searchmoves}")
        if len(words) == 4 and words[2] == "ponder":
            b.push(b.parse_uci(mv) if not c960 else next(
                m for m in b.legal_moves if b.uci(m, chess960=True) == mv))
            reply = {b.uci(m, chess960=c960) for m in b.legal_moves}
            if words[3] not in reply:
                self.fail(f"{fen}: ponder move {words[3]} illegal after {mv}")

    # --- command generators -------------------------------------------------------------
    def uci_move(self, b, m):
        return b.uci(m, chess960=self.chess960)

    def random_position(self):
        r = self.rng
        fen = r.choice(GOOD_FENS)
        b = chess.Board(fen, chess960=self.chess960)
        moves = []
        for _ in range(r.choice([0, 0, 1, 2, 5, 12, 40])):
            legal = list(b.legal_moves)
            if not legal:
                break
            m = r.choice(legal)
            moves.append(self.uci_move(b, m))
            b.push(m)
        head = "startpos" if fen == chess.STARTING_FEN and r.random() < 0.7 else f"fen {fen}"
        line = f"position {head}" + (f" moves {' '.join(moves)}" if moves else "")
        if not moves and r.random() < 0.2:
            line += " moves"  # an empty move list, as some GUIs send
        return line, b

    def random_go(self):
        r = self.rng
        kind = r.choice(["depth", "nodes", "movetime", "clock", "clock", "mate", "infinite",
                         "ponder", "plain"])
        if kind == "depth":
            go = f"go depth {r.randint(1, 8)}"
        elif kind == "nodes":
            go = f"go nodes {r.choice([1, 10, 500, 5000, 50000])}"
        elif kind == "movetime":
            go = f"go movetime {r.choice([0, 1, 5, 30, 120])}"
        elif kind == "mate":
            go = f"go mate {r.randint(1, 3)} movetime 200"
        elif kind == "infinite":
            go = "go infinite"
        elif kind in ("clock", "ponder"):
            t = [r.choice([0, 1, 10, 50, 300, 2000]) for _ in range(2)]
            inc = r.choice([0, 0, 10, 100])
            go = f"go wtime {t[0]} btime {t[1]} winc {inc} binc {inc}"
            if r.random() < 0.3:
                go += f" movestogo {r.randint(1, 40)}"
            if kind == "ponder":
                go = go.replace("go ", "go ponder ", 1)
        else:
            go = "go"  # plain `go`: an infinite search in UCI, ended by stop
        searchmoves = []
        legal = [self.uci_move(self.board, m) for m in self.board.legal_moves]
        if legal and r.random() < 0.15:
            searchmoves = r.sample(legal, r.randint(1, min(3, len(legal))))
            go += " searchmoves " + " ".join(searchmoves)
        return go, searchmoves

    def step(self):
        r = self.rng
        x = r.random()
        if x < 0.22:
            line, b = self.random_position()
            self.send(line)
            self.board = b
        elif x < 0.44:
            go, sm = self.random_go()
            self.send(go)
            self.searches.append((self.board.fen(), self.chess960, sm, go))
            self.running = True
        elif x < 0.56:
            self.send("stop")
        elif x < 0.60:
            self.send("ponderhit")
        elif x < 0.66:
            self.send("isready")
            if not self.drain(self.args.ready_timeout, until=lambda l: l == "readyok"):
                self.fail("no readyok")
        elif x < 0.70:
            self.send("ucinewgame")
        elif x < 0.78:
            opt = r.choice([
                f"Threads value {r.choice([1, 1, 2, 3, 4])}",
                f"Hash value {r.choice([1, 4, 16, 64])}",
                f"MultiPV value {r.choice([1, 1, 2, 4])}",
                f"UCI_ShowWDL value {r.choice(['true', 'false'])}",
                f"Move Overhead value {r.choice([0, 10, 100])}",
                "Clear Hash",
                "EvalFile value <hce>",
                "EvalFile value <default>",
                f"UCI_Chess960 value {r.choice(['true', 'false'])}",
            ])
            if opt.startswith("UCI_Chess960"):
                # The model follows only once nothing is queued: the flag changes how moves
                # are written, so a search still waiting would be checked in the wrong notation.
                self.checkpoint()
                self.chess960 = opt.endswith("true")
                self.board = chess.Board(self.board.fen(), chess960=self.chess960)
            self.send(f"setoption name {opt}")
        elif x < 0.93:
            g = r.choice(GARBAGE + ["position fen " + f for f in BAD_FENS])
            self.send(g)
        elif x < 0.95:
            self.send(r.choice([b"\xff\xfe garbage", b"go \xc3\x28", b"position startpos moves \x80"]))
        elif x < 0.96:
            self.send("x" * r.choice([1000, 70000, 1_100_000]))
        elif x < 0.98:
            self.send(r.choice(["uci", "d", "eval", "debug on", "go perft 3"]))
        else:
            self.checkpoint()
        if r.random() < 0.3:
            self.drain(r.choice([0.0, 0.001, 0.01, 0.05]))

    def checkpoint(self):
        """Stops everything, waits for every answer, then compares the engine's position."""
        self.send("stop")
        deadline = time.monotonic() + self.args.answer_timeout
        while self.searches:
            if time.monotonic() > deadline:
                self.fail(f"{len(self.searches)} search(es) never answered after stop")
            # A search that started after the stop (queued behind a finishing one) needs its own.
            self.drain(0.5, until=lambda l: l.startswith("bestmove"))
            if self.searches:
                self.send("stop")
        self.send("isready")
        if not self.drain(self.args.ready_timeout, until=lambda l: l == "readyok"):
            self.fail("no readyok at a checkpoint")
        self.send("d")
        got = []
        if not self.drain(5, until=lambda l: got.append(l) or l.startswith("Key:")):
            self.fail("no answer to d")
        fen = next((l[5:] for l in got if l.startswith("Fen: ")), None)
        want = self.board.fen(en_passant="fen")
        if fen is None or not same_position(fen, want):
            self.fail(f"engine holds {fen}, model {want}")
        self.drain(0.05)
        if self.searches:
            self.fail("search appeared after checkpoint")

    def quit(self):
        self.checkpoint()
        self.send("quit")
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.fail("quit did not end the process within 5 s")
        if any("panicked" in l for l in self.stderr):
            self.fail("panic on stderr: " + "".join(self.stderr)[-2000:])


def same_position(a, b):
    """Equal FENs up to the en-passant field (one may name a square no pawn can take on)."""
    fa, fb = a.split(), b.split()
    if len(fa) != 6 or len(fb) != 6:
        return False
    return fa[:3] == fb[:3] and fa[4:] == fb[4:]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--sessions", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ready-timeout", type=float, default=5.0)
    ap.add_argument("--answer-timeout", type=float, default=10.0)
    ap.add_argument("--log", default="uci_fuzz.log")
    args = ap.parse_args()
    failures = 0
    total_cmds = total_best = 0
    for s in range(args.sessions):
        seed = args.seed + s
        rng = random.Random(seed)
        log = []
        sess = Session(args, rng, log)
        end = time.monotonic() + args.seconds / args.sessions
        try:
            sess.send("uci")
            while time.monotonic() < end:
                sess.step()
            sess.quit()
            status = "ok"
        except AssertionError as e:
            failures += 1
            status = f"FAILED: {e}"
            with open(args.log, "a") as f:
                f.write(f"=== session seed {seed}: {e}\n" + "\n".join(log[-400:]) + "\n")
            sess.p.kill()
        total_cmds += sess.sent
        total_best += sess.bestmoves
        print(f"session seed {seed}: {sess.sent} commands, {sess.bestmoves} bestmoves: {status}",
              flush=True)
    print(f"{args.sessions} sessions, {total_cmds} commands, {total_best} bestmoves, "
          f"{failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
