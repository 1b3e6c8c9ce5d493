#!/usr/bin/env python3
"""Latency of `stop` (until `bestmove`) and of `isready` (until `readyok`) during a search,
over many trials, as a GUI sees it through the pipes.

  scripts/latency.py [--engine target/release/lazuli] [--threads 2] [--trials 1000]

Each trial: position, `go infinite`, wait 10-60 ms, `isready` (timed), wait a little, `stop`
(timed). Prints p50, p90, p99 and max of each in milliseconds.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from uci_client import Engine  # noqa: E402

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8 b - - 0 40",
]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--trials", type=int, default=1000)
    args = ap.parse_args()
    rng = random.Random(7)
    e = Engine(args.engine, {"Threads": args.threads, "Hash": args.hash})
    stop_ms, ready_ms = [], []
    for i in range(args.trials):
        e.send(f"position fen {FENS[i % len(FENS)]}")
        e.send("go infinite")
        time.sleep(rng.uniform(0.01, 0.06))
        t0 = e.send("isready")
        t1, _ = e.wait(lambda l: l == "readyok")
        ready_ms.append((t1 - t0) * 1000)
        time.sleep(rng.uniform(0.0, 0.02))
        t0 = e.send("stop")
        t1, _ = e.wait(lambda l: l.startswith("bestmove"))
        stop_ms.append((t1 - t0) * 1000)
    e.quit()
    for name, xs in (("stop->bestmove", stop_ms), ("isready->readyok", ready_ms)):
        print(f"{name:17s} n={len(xs)}  p50 {pct(xs, 50):6.2f} ms  p90 {pct(xs, 90):6.2f} ms  "
              f"p99 {pct(xs, 99):6.2f} ms  max {max(xs):6.2f} ms")


if __name__ == "__main__":
    main()
