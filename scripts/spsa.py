#!/usr/bin/env python3
"""SPSA tuning of the search parameters by self-play (a `--features tune` build).

The tunables, their defaults, ranges and perturbation sizes are read from
src/search/params.rs (`NAME = default, min, max, step;` inside `tunables!`), so that file stays
the one place the numbers live. Each iteration draws a random sign per parameter, plays one game
pair (an opening from the book, both colours) between theta + c_k * delta and
theta - c_k * delta, and moves theta by a_k / c_k * (wins - losses of the plus side) * delta,
with the usual schedules c_k = c / k^0.101 and a_k = a / (A + k)^0.602 (A = N / 10), where c
and a are set so that c_N equals each parameter's step and a_N / c_N^2 equals `--r-end`.

  cargo build --release --features tune --target-dir target/tune
  scripts/spsa.py target/tune/release/lazuli --iterations 1000 --nodes 20000 \
      --params RFP_MARGIN,FP_BASE,... --log spsa.log

It prints theta every `--report` iterations and at the end, as `NAME = value` lines and as a
`--options` string that scripts/sprt.py takes (tuned build against defaults, same binary).
"""
import argparse
import os
import random
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import chess

sys.path.insert(0, os.path.dirname(__file__))
from selfplay import open_engine, play_game  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ALPHA, GAMMA = 0.602, 0.101


def read_tunables(path):
    """[(name, default, min, max, step)] from the `tunables!` block of params.rs."""
    text = open(path).read()
    block = text[text.index("tunables! {"):]
    block = block[:block.index("\n}\n")]
    rows = []
    for m in re.finditer(r"^\s*([A-Z][A-Z0-9_]*) = (-?\d+), (-?\d+), (-?\d+), ([0-9.]+);", block, re.M):
        name, d, lo, hi, step = m.groups()
        rows.append((name, int(d), int(lo), int(hi), float(step)))
    if not rows:
        raise SystemExit(f"no tunables found in {path}")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", help="a build with --features tune")
    ap.add_argument("--params", default="",
                    help="comma-separated names to tune (default: all but the TM_ ones, which "
                         "fixed-node games cannot see)")
    ap.add_argument("--iterations", type=int, default=1000, help="game pairs")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--r-end", type=float, default=0.002,
                    help="final learning rate a_N / c_N^2 (Fishtest's default is 0.002)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--book", default=os.path.join(ROOT, "../shared/books/8mvs_+90_+99.epd"))
    ap.add_argument("--params-file", default=os.path.join(ROOT, "src/search/params.rs"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report", type=int, default=50)
    ap.add_argument("--log", default=None, help="append theta after every iteration here")
    args = ap.parse_args()

    rows = read_tunables(args.params_file)
    wanted = [p.strip() for p in args.params.split(",") if p.strip()]
    known = {r[0] for r in rows}
    for w in wanted:
        if w not in known:
            raise SystemExit(f"unknown tunable {w}; known: {', '.join(sorted(known))}")
    rows = [r for r in rows if (r[0] in wanted if wanted else not r[0].startswith("TM_"))]

    n = args.iterations
    big_a = n / 10
    theta = {r[0]: float(r[1]) for r in rows}
    spec = {r[0]: r for r in rows}
    c0 = {r[0]: r[4] * n ** GAMMA for r in rows}
    a0 = {r[0]: args.r_end * r[4] ** 2 * (big_a + n) ** ALPHA for r in rows}

    with open(args.book) as f:
        book = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    rng = random.Random(args.seed)
    rng.shuffle(book)
    lock = threading.Lock()
    state = {"k": 0, "done": 0, "score": [0, 0, 0]}
    log = open(args.log, "a") if args.log else None

    def clamp(name, v):
        _, _, lo, hi, _ = spec[name]
        return min(max(v, lo), hi)

    def options(values):
        return {name: int(round(clamp(name, v))) for name, v in values.items()}

    def show():
        return ",".join(f"{k}={int(round(v))}" for k, v in theta.items())

    def worker(_):
        plus = open_engine(args.engine, 1, args.hash)
        minus = open_engine(args.engine, 1, args.hash)
        try:
            while True:
                with lock:
                    if state["k"] >= n:
                        return
                    state["k"] += 1
                    k = state["k"]
                    flips = {name: rng.choice((-1, 1)) for name in theta}
                    ck = {name: c0[name] / k ** GAMMA for name in theta}
                    ak = {name: a0[name] / (big_a + k) ** ALPHA for name in theta}
                    tp = {name: theta[name] + ck[name] * flips[name] for name in theta}
                    tm = {name: theta[name] - ck[name] * flips[name] for name in theta}
                    fen = book[k % len(book)]
                plus.configure(options(tp))
                minus.configure(options(tm))
                result = 0  # wins - losses of the plus side over the pair
                for g, (w, b) in enumerate(((plus, minus), (minus, plus))):
                    names = {chess.WHITE: "plus" if w is plus else "minus",
                             chess.BLACK: "minus" if w is plus else "plus"}
                    res, reason, _ = play_game({chess.WHITE: w, chess.BLACK: b}, names, fen, 0, 0,
                                               k * 2 + g, nodes=args.nodes, event="Lazuli SPSA")
                    if any(x in reason for x in ("illegal", "crash")):
                        print(f"iteration {k}: {reason}", flush=True)
                    if res == "1-0":
                        result += 1 if w is plus else -1
                    elif res == "0-1":
                        result += -1 if w is plus else 1
                with lock:
                    state["score"][0 if result > 0 else 2 if result < 0 else 1] += 1
                    for name in theta:
                        theta[name] = clamp(name, theta[name] + ak[name] / ck[name] * result * flips[name])
                    state["done"] += 1
                    if log:
                        print(f"{state['done']} {show()}", file=log, flush=True)
                    if state["done"] % args.report == 0:
                        print(f"iteration {state['done']}/{n} (pairs +{state['score'][0]} "
                              f"={state['score'][1]} -{state['score'][2]}): {show()}", flush=True)
        finally:
            plus.quit()
            minus.quit()

    print(f"SPSA over {len(theta)} parameters, {n} pairs at {args.nodes} nodes per move", flush=True)
    with ThreadPoolExecutor(max_workers=args.concurrency) as ex:
        list(ex.map(worker, range(args.concurrency)))
    print("final:")
    for name, v in theta.items():
        d = spec[name][1]
        print(f"  {name} = {int(round(v))}   (default {d}, raw {v:.2f})")
    print(f"options: {show()}")


if __name__ == "__main__":
    main()
