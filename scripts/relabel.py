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
import subprocess
import sys
import threading


def white_view(fen: str, score: int) -> int:
    return score if fen.split()[1] == "w" else -score


class Engine:
    def __init__(self, path: str, hash_mb: int):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, token: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(token):
                return lines
        raise RuntimeError("engine closed its output")

    def score(self, fen: str, nodes: int):
        """The last reported score (side to move, cp), or None for a mate or no score."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = None
        for line in self.wait_for("bestmove"):
            parts = line.split()
            if parts[:1] != ["info"] or "score" not in parts:
                continue
            i = parts.index("score")
            if i + 2 >= len(parts):
                continue
            if parts[i + 1] == "cp" and "lowerbound" not in parts and "upperbound" not in parts:
                last = int(parts[i + 2])
            elif parts[i + 1] == "mate":
                last = None
        return last

    def close(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


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
        eng = Engine(a.engine, a.hash)
        while True:
            with lock:
                i = next_i[0]
                next_i[0] += 1
            if i >= len(items):
                break
            s = eng.score(items[i][0], a.nodes)
            results[i] = None if s is None else white_view(items[i][0], s)
            with lock:
                done[0] += 1
                if done[0] % 500 == 0:
                    print(f"{done[0]}/{len(items)}", file=sys.stderr, flush=True)
        eng.close()

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
