#!/usr/bin/env python3
"""SPRT match between two UCI engines (python-chess runner with real clocks).

Each opening of the book is played as a pair, colours reversed. Games run `--concurrency` at a
time, each worker with its own pair of engine processes. Time losses (measured around every
`go`), illegal moves and crashes end a game against the offender and are counted. After every
pair it prints games, W/D/L, the Elo estimate with its 95% interval, and the pentanomial LLR
against the bounds; it stops when the LLR crosses a bound.

  scripts/sprt.py NEW OLD [--tc 8+0.08 | --nodes 20000] [--elo0 0 --elo1 5]
                  [--alpha 0.05 --beta 0.05] [--concurrency 2] [--games 20000] [--min-games 40]
                  [--book ../shared/books/8mvs_+90_+99.epd] [--pgn out.pgn]
                  [--options1 Name=value,...] [--options2 ...]

The LLR uses the usual normal approximation on pentanomial pair scores (each pair scores
0, 1/4, 1/2, 3/4 or 1): LLR = N (s1 - s0)(2 m - s0 - s1) / (2 v), with s = 1/(1 + 10^(-elo/400)),
m and v the mean and variance of the pair scores. `--selftest` checks it on synthetic data.
"""
import argparse
import math
import os
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import chess

sys.path.insert(0, os.path.dirname(__file__))
from selfplay import open_engine, parse_tc, play_game  # noqa: E402


def logistic(elo):
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def pentanomial_stats(penta):
    """penta[k] = number of pairs scoring k/4 for the first engine (k = 0..4)."""
    n = sum(penta)
    if n == 0:
        return 0, 0.5, 0.0
    m = sum(k / 4 * c for k, c in enumerate(penta)) / n
    v = sum(c * (k / 4 - m) ** 2 for k, c in enumerate(penta)) / n
    return n, m, v


def llr(penta, elo0, elo1):
    n, m, v = pentanomial_stats(penta)
    if n == 0:
        return 0.0
    # All pairs alike (e.g. every game won) gives no variance; floor it so the test can end.
    v = max(v, 1e-3)
    s0, s1 = logistic(elo0), logistic(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


def elo_interval(penta):
    n, m, v = pentanomial_stats(penta)
    if n < 2:
        return 0.0, 0.0
    half = 1.96 * math.sqrt(v / n)
    return elo_of(m), (elo_of(min(m + half, 1 - 1e-6)) - elo_of(max(m - half, 1e-6))) / 2


def play(engines, names, fen, args, game_no):
    """One game; returns (points for engine 'A', termination, pgn game)."""
    base, inc = parse_tc(args.tc) if not args.nodes else (0, 0)
    result, reason, game = play_game(engines, names, fen, base, inc, game_no, nodes=args.nodes,
                                     event="Lazuli SPRT")
    points_a = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    if names[chess.WHITE] != "A":
        points_a = 1.0 - points_a
    return points_a, reason, game


def selftest():
    # Equal engines: LLR drifts negative for [0, 5]; a clearly better one crosses the upper bound.
    rng = random.Random(3)
    for true_elo, expect in ((0, "H0"), (30, "H1")):
        p = logistic(true_elo)
        penta = [0] * 5
        lo, hi = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
        verdict = None
        for _ in range(200000):
            k = sum(1 for _ in range(2) if rng.random() < p) * 2  # no draws: k in 0, 2, 4
            penta[k] += 1
            x = llr(penta, 0, 5)
            if x <= lo or x >= hi:
                verdict = "H0" if x <= lo else "H1"
                break
        assert verdict == expect, (true_elo, verdict, penta)
    assert abs(elo_of(logistic(50)) - 50) < 1e-6
    print("selftest passed")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("new", nargs="?")
    ap.add_argument("old", nargs="?")
    ap.add_argument("--tc", default="8+0.08")
    ap.add_argument("--nodes", type=int, default=0)
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--min-games", type=int, default=40,
                    help="no decision before this many games (the variance estimate of a handful "
                         "of pairs is too small to trust)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--book", default=os.path.join(os.path.dirname(__file__), "../../shared/books/8mvs_+90_+99.epd"))
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--options1", default="")
    ap.add_argument("--options2", default="")
    ap.add_argument("--selftest", action="store_true")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.new or not args.old:
        ap.error("two engine paths are needed")

    with open(args.book) as f:
        book = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    random.Random(args.seed).shuffle(book)
    lo, hi = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
    lock = threading.Lock()
    state = {"penta": [0] * 5, "wdl": [0, 0, 0], "games": 0, "bad": 0, "done": None, "next": 0}
    pgn = open(args.pgn, "w") if args.pgn else None

    def worker(wid):
        a = open_engine(args.new, args.threads, args.hash, args.options1)
        b = open_engine(args.old, args.threads, args.hash, args.options2)
        try:
            while True:
                with lock:
                    if state["done"] or state["next"] * 2 >= args.games:
                        return
                    pair = state["next"]
                    state["next"] += 1
                fen = book[pair % len(book)]
                pts = 0.0
                for g, (w, bl) in enumerate(((a, b), (b, a))):
                    names = {chess.WHITE: "A" if w is a else "B", chess.BLACK: "B" if w is a else "A"}
                    p, reason, game = play({chess.WHITE: w, chess.BLACK: bl}, names, fen, args, pair * 2 + g + 1)
                    pts += p
                    with lock:
                        state["games"] += 1
                        state["wdl"][0 if p == 1 else 2 if p == 0 else 1] += 1
                        if any(x in reason for x in ("forfeit", "illegal", "crash")):
                            state["bad"] += 1
                            print(f"game {pair * 2 + g + 1}: {reason}", flush=True)
                        if pgn:
                            print(game, file=pgn, end="\n\n", flush=True)
                with lock:
                    state["penta"][int(round(pts * 2))] += 1
                    x = llr(state["penta"], args.elo0, args.elo1)
                    elo, err = elo_interval(state["penta"])
                    w, d, l = state["wdl"]
                    print(f"games {state['games']}  W {w} D {d} L {l}  Elo {elo:+.1f} +- {err:.1f}  "
                          f"LLR {x:+.2f} [{lo:.2f}, {hi:.2f}]  penta {state['penta']}", flush=True)
                    if (x <= lo or x >= hi) and state["games"] >= args.min_games:
                        state["done"] = "H1 accepted (new is better)" if x >= hi else "H0 accepted (no gain)"
        finally:
            a.quit()
            b.quit()

    with ThreadPoolExecutor(max_workers=args.concurrency) as ex:
        list(ex.map(worker, range(args.concurrency)))
    if pgn:
        pgn.close()
    elo, err = elo_interval(state["penta"])
    print(f"result: {state['done'] or 'no decision'}; games {state['games']}, Elo {elo:+.1f} +- {err:.1f}, "
          f"time forfeits / illegal moves / crashes {state['bad']}")


if __name__ == "__main__":
    main()
