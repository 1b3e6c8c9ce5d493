#!/usr/bin/env python3
"""Rating ladder: Lazuli against reference engines, with an Elo estimate and error bars.

Plays `--games` games (opening pairs from the book, colours reversed) against each opponent with
real clocks (python-chess runner of selfplay.py: time forfeits, illegal moves and crashes are
detected and counted as losses for the offender), then fits one rating for Lazuli to all the
results by maximum likelihood under the logistic Elo model, given the opponents' ratings.

  scripts/ladder.py [--engine target/release/lazuli] [--tc 10+0.1] [--games 20]
                    [--concurrency 2] [--opponents sf1350,sf2000,glaurung,toga2]
                    [--pgn ladder.pgn]

Opponents (Debian packages `stockfish glaurung toga2`):
  sfNNNN    Stockfish 15.1 with UCI_LimitStrength and UCI_Elo=NNNN (1350..2850; the level is
            Stockfish's own calibration, anchored to CCRL 40/4)
  glaurung  Glaurung 2.2 (rating taken as 2600, `--glaurung-elo` to change)
  toga2     Toga II 3.0 (rating taken as 2900, `--toga-elo` to change; the issue's figure)
Every engine runs with Threads=1 (`--threads`), Hash=16 (`--hash`) and its own book off.
Each opponent's result is printed as W/D/L, score, and the Elo difference +- 95%; the last
line is the fitted rating with its 95% interval (from the Fisher information).
"""
import argparse
import math
import os
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import chess
import chess.engine

sys.path.insert(0, os.path.dirname(__file__))
from selfplay import parse_tc, play_game  # noqa: E402


def opponent_spec(name, args):
    """(path, options, rating) of a named reference engine."""
    if name.startswith("sf"):
        elo = int(name[2:])
        return "/usr/games/stockfish", {"UCI_LimitStrength": True, "UCI_Elo": elo}, elo
    if name == "glaurung":
        return "/usr/games/glaurung", {}, args.glaurung_elo
    if name == "toga2":
        return "/usr/games/toga2", {}, args.toga_elo
    raise SystemExit(f"unknown opponent {name!r}")


def open_engine(path, options, threads, hash_mib):
    eng = chess.engine.SimpleEngine.popen_uci(path)
    opts = dict(options)
    for names, value in ((("Threads", "Number of Threads"), threads), (("Hash",), hash_mib),
                         (("OwnBook",), False)):
        for n in names:
            if n in eng.options:
                opts[n] = value
    eng.configure(opts)
    return eng


def elo_diff(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def score_interval(points):
    """Elo difference and its 95% half-width from per-game points (0, 0.5, 1)."""
    n = len(points)
    m = sum(points) / n
    v = sum((p - m) ** 2 for p in points) / max(n - 1, 1)
    half = 1.96 * math.sqrt(v / n)
    return elo_diff(m), (elo_diff(min(m + half, 0.999)) - elo_diff(max(m - half, 0.001))) / 2


def fit_rating(results):
    """Maximum-likelihood rating from [(opponent rating, points)], with a 95% half-width."""
    def expected(r, ro):
        return 1 / (1 + 10 ** ((ro - r) / 400))

    r = sum(ro for ro, _ in results) / len(results)
    k = math.log(10) / 400
    info = 1e-9
    for _ in range(100):
        grad = sum(k * (p - expected(r, ro)) for ro, p in results)
        info = sum(k * k * expected(r, ro) * (1 - expected(r, ro)) for ro, _ in results)
        step = grad / max(info, 1e-12)
        r += max(min(step, 200), -200)
        if abs(step) < 0.01:
            break
    return r, 1.96 / math.sqrt(max(info, 1e-12))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--opponents", default="sf1800,sf2200,sf2600,glaurung,toga2")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--games", type=int, default=20, help="games per opponent (even)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--glaurung-elo", type=float, default=2600)
    ap.add_argument("--toga-elo", type=float, default=2900)
    ap.add_argument("--book", default=os.path.join(os.path.dirname(__file__),
                                                   "../../shared/books/8mvs_+90_+99.epd"))
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    base, inc = parse_tc(args.tc)
    with open(args.book) as f:
        book = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    random.Random(args.seed).shuffle(book)
    names = [n.strip() for n in args.opponents.split(",") if n.strip()]
    specs = {n: opponent_spec(n, args) for n in names}
    jobs = [(n, pair) for n in names for pair in range(args.games // 2)]
    lock = threading.Lock()
    points = {n: [] for n in names}
    bad = [0]
    pgn = open(args.pgn, "w") if args.pgn else None
    game_no = [0]

    def worker(wid):
        engines = {}
        me = open_engine(args.engine, {}, args.threads, args.hash)
        try:
            while True:
                with lock:
                    if not jobs:
                        return
                    name, pair = jobs.pop(0)
                if name not in engines:
                    path, opts, _ = specs[name]
                    engines[name] = open_engine(path, opts, args.threads, args.hash)
                opp = engines[name]
                fen = book[pair % len(book)]
                for lazuli_white in (True, False):
                    eng = {chess.WHITE: me, chess.BLACK: opp} if lazuli_white else {chess.WHITE: opp, chess.BLACK: me}
                    who = {chess.WHITE: "Lazuli" if lazuli_white else name,
                           chess.BLACK: name if lazuli_white else "Lazuli"}
                    with lock:
                        game_no[0] += 1
                        g = game_no[0]
                    result, reason, game = play_game(eng, who, fen, base, inc, g, event="Lazuli ladder")
                    p = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                    if not lazuli_white:
                        p = 1 - p
                    with lock:
                        points[name].append(p)
                        if any(x in reason for x in ("forfeit", "illegal", "crash")):
                            bad[0] += 1
                            print(f"game {g} vs {name}: {reason}", flush=True)
                        if pgn:
                            print(game, file=pgn, end="\n\n", flush=True)
                        pts = points[name]
                        print(f"{name}: {len(pts)} games, score {sum(pts):.1f}", flush=True)
        finally:
            me.quit()
            for e in engines.values():
                e.quit()

    with ThreadPoolExecutor(max_workers=args.concurrency) as ex:
        list(ex.map(worker, range(args.concurrency)))
    if pgn:
        pgn.close()

    print(f"\nLadder at {args.tc}, Threads={args.threads}, Hash={args.hash}, {args.games} games each")
    results = []
    for n in names:
        pts = points[n]
        if not pts:
            continue
        w, d, l = pts.count(1.0), pts.count(0.5), pts.count(0.0)
        diff, err = score_interval(pts)
        rating = specs[n][2]
        results += [(rating, p) for p in pts]
        print(f"  {n:10s} ({rating:.0f}): W {w} D {d} L {l}  score {sum(pts) / len(pts):.3f}  "
              f"Elo diff {diff:+.0f} +- {err:.0f}  -> {rating + diff:.0f}")
    r, err = fit_rating(results)
    print(f"Lazuli rating (maximum likelihood over all games): {r:.0f} +- {err:.0f}")
    print(f"time forfeits / illegal moves / crashes: {bad[0]}")


if __name__ == "__main__":
    main()
