#!/usr/bin/env python3
"""A long `go infinite`, as an analyst runs one: every interval the last `info` line's depth,
nodes and hashfull and the engine's resident memory, then `stop` and the time to `bestmove`.

  scripts/long_analysis.py [--engine target/release/lazuli] [--minutes 30] [--threads 2]
                           [--hash 1024] [--interval 60] [--fen FEN]

Prints one row per interval and, at the end, whether depth, nodes and hashfull kept rising,
how much the memory moved after the first interval, and the stop latency. Nodes and hashfull
come from the engine's own `info` lines, which arrive per iteration and on bound changes, so a
long iteration can leave an interval without new figures.
"""
import argparse
import os
import queue
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from uci_client import Engine  # noqa: E402

FEN = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9"


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=1024)
    ap.add_argument("--interval", type=float, default=60)
    ap.add_argument("--fen", default=FEN)
    args = ap.parse_args()
    e = Engine(args.engine, {"Threads": args.threads, "Hash": args.hash})
    e.send(f"position fen {args.fen}")
    start = e.send("go infinite")
    rows = []
    last = None
    deadline = start + args.minutes * 60
    next_mark = start + args.interval
    print(f"{'min':>6} {'depth':>5} {'nodes':>14} {'nps':>10} {'hashfull':>8} {'RSS MiB':>8}")
    while True:
        now = time.perf_counter()
        if now >= next_mark:
            info = last or ""
            depth = int(m.group(1)) if (m := re.search(r"\bdepth (\d+)", info)) else 0
            nodes = int(m.group(1)) if (m := re.search(r"\bnodes (\d+)", info)) else 0
            nps = int(m.group(1)) if (m := re.search(r"\bnps (\d+)", info)) else 0
            full = int(m.group(1)) if (m := re.search(r"\bhashfull (\d+)", info)) else 0
            rss = rss_mib(e.p.pid)
            rows.append((now - start, depth, nodes, full, rss))
            print(f"{(now - start) / 60:6.1f} {depth:5d} {nodes:14d} {nps:10d} {full:8d} {rss:8.0f}",
                  flush=True)
            next_mark += args.interval
            if now >= deadline:
                break
        try:
            _, line = e.q.get(timeout=0.05)
        except queue.Empty:
            continue
        if line is None:
            print("engine exited")
            return 1
        if line.startswith("info") and " nodes " in line:
            last = line
        if line.startswith("bestmove"):
            print(f"unexpected bestmove during go infinite: {line}")
            return 1
    sent = e.send("stop")
    t, lines = e.wait(lambda l: l.startswith("bestmove"), timeout=30)
    latency_ms = (t - sent) * 1000
    e.quit()
    depths = [r[1] for r in rows]
    nodes = [r[2] for r in rows]
    fulls = [r[3] for r in rows]
    rss = [r[4] for r in rows]
    print(f"depth {depths[0]} -> {depths[-1]} (never fell: {all(a <= b for a, b in zip(depths, depths[1:]))}), "
          f"nodes {nodes[0]} -> {nodes[-1]} (never fell: {all(a <= b for a, b in zip(nodes, nodes[1:]))}; "
          f"new info in {sum(a < b for a, b in zip(nodes, nodes[1:]))} of {len(nodes) - 1} intervals), "
          f"hashfull {fulls[0]} -> {fulls[-1]}")
    print(f"RSS after the first interval {rss[0]:.0f} MiB, max {max(rss):.0f}, last {rss[-1]:.0f} "
          f"(moved {max(rss) - min(rss[0:]):.0f} MiB)")
    print(f"stop -> bestmove {latency_ms:.2f} ms ({lines[-1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
