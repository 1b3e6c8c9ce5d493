#!/usr/bin/env python3
"""Time `Hash` set-up, clear and shrink as a GUI sees them (command sent to `readyok` read),
for several engines in the same run, alternating, so the figures share the machine's state.

  scripts/hash_setup.py [--mib 8192] [--threads 1] [--rounds 3] ENGINE...

Per round and engine: start it, `setoption name Threads`, then
  grow:   `setoption name Hash value MIB` + `isready`
  clear:  `ucinewgame` + `isready`            (clearing the MIB table)
  shrink: `setoption name Hash value 16` + `isready`
Prints the median of each over the rounds, in seconds, and the maximum resident memory seen
is not measured (use /usr/bin/time for that).
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from uci_client import Engine  # noqa: E402


def timed(e, *lines):
    t0 = None
    for line in lines:
        t = e.send(line)
        t0 = t0 if t0 is not None else t
    t1 = e.send("isready")
    t0 = t0 if t0 is not None else t1
    t, _ = e.wait(lambda l: l == "readyok", timeout=600)
    return t - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--mib", type=int, default=8192)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    res = {e: {"grow": [], "clear": [], "shrink": []} for e in args.engines}
    for r in range(args.rounds):
        for path in args.engines:
            e = Engine(path, {"Threads": args.threads})
            res[path]["grow"].append(timed(e, f"setoption name Hash value {args.mib}"))
            res[path]["clear"].append(timed(e, "ucinewgame"))
            res[path]["shrink"].append(timed(e, "setoption name Hash value 16"))
            e.quit()
            print(f"round {r + 1} {path}: " + "  ".join(
                f"{k} {v[-1]:.3f}s" for k, v in res[path].items()), flush=True)
    print(f"\nmedians over {args.rounds} rounds, Hash {args.mib} MiB, Threads {args.threads}:")
    print(f"{'engine':40} {'grow':>8} {'clear':>8} {'shrink':>8}")
    for path in args.engines:
        m = {k: statistics.median(v) for k, v in res[path].items()}
        print(f"{path:40} {m['grow']:8.3f} {m['clear']:8.3f} {m['shrink']:8.3f}")


if __name__ == "__main__":
    main()
