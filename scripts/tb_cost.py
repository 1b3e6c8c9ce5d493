#!/usr/bin/env python3
"""Cost of tablebase probing in nodes per second: the same 5-6 piece positions (which trade
down into the tables) searched with and without SyzygyPath, alternating, fixed movetime.

  scripts/tb_cost.py --syzygy ../shared/syzygy [--movetime 3000] [--rounds 2]
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from uci_client import Engine, last_info  # noqa: E402

FENS = [
    "8/5k2/8/3p4/3P4/2r5/2R5/4K3 w - - 0 1",
    "8/8/3k4/2p5/2P5/3K4/1B6/6n1 w - - 0 1",
    "8/8/4k3/8/2R1P3/8/4K3/r7 b - - 0 1",
    "6k1/8/8/8/3q4/8/3Q1P2/6K1 w - - 0 1",
    "8/4kp2/8/8/8/8/4KP2/3R4 w - - 0 1",
]


def run(path, opts, movetime):
    e = Engine(path, opts)
    nps, hits = [], []
    for fen in FENS:
        e.send("ucinewgame")
        e.send(f"position fen {fen}")
        e.send(f"go movetime {movetime}")
        _, lines = e.wait(lambda l: l.startswith("bestmove"), timeout=movetime / 1000 + 30)
        info = last_info(lines)
        nps.append(int(info.get("nps", 0)))
        hits.append(int(info.get("tbhits", 0)))
    e.quit()
    return nps, hits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--syzygy", default="../shared/syzygy")
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with_nps, without_nps, all_hits = [], [], []
    for _ in range(args.rounds):
        n, h = run(args.engine, {"SyzygyPath": args.syzygy}, args.movetime)
        with_nps += n
        all_hits += h
        n, _ = run(args.engine, {}, args.movetime)
        without_nps += n
    ratios = [a / b for a, b in zip(with_nps, without_nps)]
    print(f"median nps with tables {statistics.median(with_nps):.0f}, without {statistics.median(without_nps):.0f}; "
          f"median per-position ratio {statistics.median(ratios):.3f}; median tbhits {statistics.median(all_hits):.0f}")


if __name__ == "__main__":
    main()
