#!/usr/bin/env python3
"""Re-score training positions with a deeper search, to measure label quality.

Reads '<FEN> | <score> | <result>' lines (white's view; `lazuli data text FILE` writes them),
keeps every EVERY-th one from START on, searches each with ENGINE (`go nodes NODES`, a fresh
`ucinewgame` before each) and writes the same line with the new score to OUT. With --orig-out
the kept lines also go there unchanged, so two test sets on the same positions differ only in
the depth of their labels. Positions whose search reports a mate are left out of both.

    lazuli data text gen19-3204.viri > t.txt
    scripts/relabel.py --engine lazuli --nodes 100000 --every 16 --start 160000 \
        --out deep.txt --orig-out orig.txt < t.txt

Several engines run side by side with --jobs; the output keeps the input's order.
"""

import argparse
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(__file__))
from uci_client import Engine  # noqa: E402


def white_view(fen: str, score: int) -> int:
    return score if fen.split()[1] == "w" else -score


def search_score(eng: Engine, fen: str, nodes: int):
    """The last exact score the search reported (side to move, cp); None for a mate or none."""
    eng.send("ucinewgame")
    eng.send("isready")
    eng.wait(lambda l: l == "readyok")
    eng.send(f"position fen {fen}")
    eng.send(f"go nodes {nodes}")
    _, lines = eng.wait(lambda l: l.startswith("bestmove"), timeout=600)
    last = None
    for line in lines:
        parts = line.split()
        if parts[:1] != ["info"] or "score" not in parts:
            continue
        i = parts.index("score")
        if i + 2 >= len(parts) or "lowerbound" in parts or "upperbound" in parts:
            continue
        last = int(parts[i + 2]) if parts[i + 1] == "cp" else None
    return last


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--nodes", type=int, default=100000)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="skip this many input lines first")
    ap.add_argument("--limit", type=int, default=0, help="at most this many positions (0: all)")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--orig-out")
    a = ap.parse_args()

    items = []
    for n, line in enumerate(sys.stdin):
        if n < a.start or (n - a.start) % a.every:
            continue
        parts = [s.strip() for s in line.split("|")]
        if len(parts) != 3:
            continue
        items.append(parts)
        if a.limit and len(items) >= a.limit:
            break

    results = [None] * len(items)
    lock = threading.Lock()
    next_i = [0]
    done = [0]

    def work():
        eng = Engine(a.engine, {"Hash": a.hash, "Threads": 1})
        while True:
            with lock:
                i = next_i[0]
                next_i[0] += 1
            if i >= len(items):
                break
            s = search_score(eng, items[i][0], a.nodes)
            results[i] = None if s is None else white_view(items[i][0], s)
            with lock:
                done[0] += 1
                if done[0] % 500 == 0:
                    print(f"{done[0]}/{len(items)}", file=sys.stderr, flush=True)
        eng.quit()

    threads = [threading.Thread(target=work) for _ in range(a.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    kept = 0
    orig = open(a.orig_out, "w") if a.orig_out else None
    with open(a.out, "w") as out:
        for (fen, score, result), s in zip(items, results):
            if s is None:
                continue
            kept += 1
            out.write(f"{fen} | {s} | {result}\n")
            if orig:
                orig.write(f"{fen} | {score} | {result}\n")
    if orig:
        orig.close()
    print(f"{kept} of {len(items)} positions written (mates left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
