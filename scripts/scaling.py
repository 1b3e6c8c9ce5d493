#!/usr/bin/env python3
"""Thread scaling: the same positions searched at Threads = 1, 2, 4, ...: nodes per second
(from the engine's last `info` line) for a fixed movetime, and time to a fixed depth.

  scripts/scaling.py [--engine target/release/lazuli] [--threads 1,2,4,8,16]
                     [--movetime 3000] [--depth 12] [--positions 8]

Prints, per thread count, the median nps and its ratio to one thread, and the median time to
depth. Run it on an otherwise idle machine.
"""
import argparse
import statistics
import sys
import os

sys.path.insert(0, os.path.dirname(__file__))
from uci_client import Engine, last_info  # noqa: E402

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8 b - - 0 40",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--hash", type=int, default=256)
    args = ap.parse_args()
    fens = POSITIONS[: args.positions]
    base = None
    for t in [int(x) for x in args.threads.split(",")]:
        e = Engine(args.engine, {"Threads": t, "Hash": args.hash})
        nps, ttd = [], []
        for fen in fens:
            e.send("ucinewgame")
            e.send(f"position fen {fen}")
            e.send(f"go movetime {args.movetime}")
            _, lines = e.wait(lambda l: l.startswith("bestmove"), timeout=args.movetime / 1000 + 30)
            nps.append(int(last_info(lines).get("nps", 0)))
            e.send("ucinewgame")
            e.send(f"position fen {fen}")
            t0 = e.send(f"go depth {args.depth}")
            t1, _ = e.wait(lambda l: l.startswith("bestmove"), timeout=600)
            ttd.append(t1 - t0)
        e.quit()
        med = statistics.median(nps)
        base = base or med
        print(f"Threads {t:3d}: median nps {med:12.0f}  ratio {med / base:5.2f}   "
              f"median time to depth {args.depth}: {statistics.median(ttd):7.3f} s", flush=True)


if __name__ == "__main__":
    main()
