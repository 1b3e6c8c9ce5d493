#!/usr/bin/env python3
"""Rating ladder: Lazuli against reference engines, with an Elo estimate and error bars.

Plays `--games` games (opening pairs from the book, colours reversed) against each opponent with
real clocks (python-chess runner of selfplay.py: time forfeits, illegal moves and crashes are
detected and counted as losses for the offender), then fits one rating for Lazuli to all the
results by maximum likelihood under the logistic Elo model, given the opponents' ratings.

  scripts/ladder.py [--engine target/release/lazuli] [--tc 10+0.1] [--games 20]
                    [--concurrency 2] [--opponents sf1350,sf2000,glaurung,toga2]
                    [--pgn ladder.pgn] [--options Name=value,...]
                    [--baseline OTHER_BUILD [--baseline-options Name=value,...]]

Opponents (Debian packages `stockfish glaurung toga2`):
  sfNNNN    Stockfish 15.1 with UCI_LimitStrength and UCI_Elo=NNNN (1350..2850; the level is
            Stockfish's own calibration, anchored to CCRL 40/4)
  glaurung  Glaurung 2.2 (rating taken as 2600, `--glaurung-elo` to change)
  toga2     Toga II 3.0 (rating taken as 2900, `--toga-elo` to change; the issue's figure)
Every engine runs with Threads=1 (`--threads`), Hash=16 (`--hash`) and its own book off;
Stockfish with Move Overhead=50 ms (`--opponent-overhead`): at its default of 10 ms it ran its
clock down to a few ms and once lost on time by 4 ms here, a point it did not lose at the board.
Each opponent's result is printed as W/D/L, score, and the Elo difference +- 95%; the last
line is the fitted rating with its 95% interval (from the Fisher information).

With `--baseline`, a second Lazuli (another build, or the same one with other options such as
`EvalFile=...`) plays every opening pair too, against the same opponent instance, right after
the first: the two are compared pair by pair, which takes out the openings' share of the noise.
The report then adds each one's score and the paired difference (points per game and Elo, 95%).
This is how a candidate is checked against the default on a foreign opponent, since self-play
gains have not always shown there.
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
        return "/usr/games/stockfish", {"UCI_LimitStrength": True, "UCI_Elo": elo,
                                        "Move Overhead": args.opponent_overhead}, elo
    if name == "glaurung":
        return "/usr/games/glaurung", {}, args.glaurung_elo
    if name == "toga2":
        return "/usr/games/toga2", {}, args.toga_elo
    raise SystemExit(f"unknown opponent {name!r}")


def parse_options(text):
    """`Name=value,Name=value` as a dict (values as strings, as UCI sends them)."""
    opts = {}
    for kv in filter(None, (t.strip() for t in text.split(","))):
        k, sep, v = kv.partition("=")
        if not sep or not k.strip():
            raise SystemExit(f"bad option {kv!r}: expected Name=value")
        opts[k.strip()] = v.strip()
    return opts


def paired_difference(a_pairs, b_pairs):
    """Mean per-game score difference of A over B from per-opening-pair points (0..2 each),
    its 95% half-width, and the same as an Elo difference at the two's mean score."""
    diffs = [(a - b) / 2 for a, b in zip(a_pairs, b_pairs)]
    n = len(diffs)
    m = sum(diffs) / n
    v = sum((d - m) ** 2 for d in diffs) / max(n - 1, 1)
    half = 1.96 * math.sqrt(v / n)
    sa, sb = sum(a_pairs) / (2 * n), sum(b_pairs) / (2 * n)
    mid = min(max((sa + sb) / 2, 0.02), 0.98)
    slope = 400 / (math.log(10) * mid * (1 - mid))  # d Elo / d score at the mean score
    return m, half, elo_diff(sa) - elo_diff(sb), half * slope


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


def result_line(name, pts, rating):
    """One opponent's line: W/D/L, score, Elo difference +- 95%, and the implied rating."""
    w, d, l = pts.count(1.0), pts.count(0.5), pts.count(0.0)
    diff, err = score_interval(pts)
    return (f"  {name:10s} ({rating:.0f}): W {w} D {d} L {l}  score {sum(pts) / len(pts):.3f}  "
            f"Elo diff {diff:+.0f} +- {err:.0f}  -> {rating + diff:.0f}")


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
    ap.add_argument("--opponent-overhead", type=int, default=50,
                    help="Stockfish's Move Overhead in ms, 0..5000 (see above)")
    ap.add_argument("--glaurung-elo", type=float, default=2600)
    ap.add_argument("--toga-elo", type=float, default=2900)
    ap.add_argument("--book", default=os.path.join(os.path.dirname(__file__),
                                                   "../../shared/books/8mvs_+90_+99.epd"))
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--options", default="", help="Lazuli's extra options: Name=value,...")
    ap.add_argument("--baseline", default=None,
                    help="a second Lazuli that plays the same opening pairs, for a paired comparison")
    ap.add_argument("--baseline-options", default="", help="the baseline's options: Name=value,...")
    args = ap.parse_args()
    my_opts = parse_options(args.options)
    base_opts = parse_options(args.baseline_options)
    if not 0 <= args.opponent_overhead <= 5000:
        raise SystemExit("--opponent-overhead must be 0..5000 (Stockfish's range)")
    if args.baseline_options and not args.baseline:
        raise SystemExit("--baseline-options needs --baseline")

    base, inc = parse_tc(args.tc)
    with open(args.book) as f:
        book = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    random.Random(args.seed).shuffle(book)
    names = [n.strip() for n in args.opponents.split(",") if n.strip()]
    specs = {n: opponent_spec(n, args) for n in names}
    jobs = [(n, pair) for n in names for pair in range(args.games // 2)]
    lock = threading.Lock()
    points = {n: [] for n in names}
    # With a baseline: per opponent, {pair: [Lazuli's pair points, the baseline's]}.
    paired = {n: {} for n in names}
    base_points = {n: [] for n in names}
    bad = [0]
    pgn = open(args.pgn, "w") if args.pgn else None
    game_no = [0]

    def worker(wid):
        engines = {}
        me = open_engine(args.engine, my_opts, args.threads, args.hash)
        players = [("Lazuli", me, points)]
        if args.baseline:
            players.append(("Baseline", open_engine(args.baseline, base_opts, args.threads,
                                                    args.hash), base_points))
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
                pair_points = []
                for label, lz, table in players:
                    got = 0.0
                    for lazuli_white in (True, False):
                        eng = {chess.WHITE: lz, chess.BLACK: opp} if lazuli_white else {chess.WHITE: opp, chess.BLACK: lz}
                        who = {chess.WHITE: label if lazuli_white else name,
                               chess.BLACK: name if lazuli_white else label}
                        with lock:
                            game_no[0] += 1
                            g = game_no[0]
                        result, reason, game = play_game(eng, who, fen, base, inc, g, event="Lazuli ladder")
                        p = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                        if not lazuli_white:
                            p = 1 - p
                        got += p
                        with lock:
                            table[name].append(p)
                            if any(x in reason for x in ("forfeit", "illegal", "crash")):
                                bad[0] += 1
                                print(f"game {g} ({label}) vs {name}: {reason}", flush=True)
                            if pgn:
                                print(game, file=pgn, end="\n\n", flush=True)
                            pts = table[name]
                            print(f"{label} vs {name}: {len(pts)} games, score {sum(pts):.1f}", flush=True)
                    pair_points.append(got)
                if args.baseline:
                    with lock:
                        paired[name][pair] = pair_points
        finally:
            for _, lz, _ in players:
                lz.quit()
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
        results += [(specs[n][2], p) for p in pts]
        print(result_line(n, pts, specs[n][2]))
    r, err = fit_rating(results)
    print(f"Lazuli rating (maximum likelihood over all games): {r:.0f} +- {err:.0f}")
    if args.baseline:
        print("Baseline (same openings, same opponents):")
        for n in names:
            pts = base_points[n]
            if not pts:
                continue
            print(result_line(n, pts, specs[n][2]))
            pairs = sorted(paired[n])
            if len(pairs) >= 2:
                m, half, elo, elo_half = paired_difference([paired[n][k][0] for k in pairs],
                                                           [paired[n][k][1] for k in pairs])
                print(f"  Lazuli - baseline vs {n}: {m:+.3f} +- {half:.3f} points per game, "
                      f"{elo:+.0f} +- {elo_half:.0f} Elo ({len(pairs)} opening pairs)")
    print(f"time forfeits / illegal moves / crashes: {bad[0]}")


if __name__ == "__main__":
    main()
