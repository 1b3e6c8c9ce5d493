#!/usr/bin/env python3
"""How a network's centipawns compare with the hand-written evaluation's: static `eval` of the
same positions with both, and the least-squares slope net = k * hce (through the origin), with
the median ratio and the correlation. The search's margins were tuned on the hand-written scale,
so a network far from k = 1 plays with margins that are too wide or too narrow.

  scripts/eval_scale.py NET.nnue [--base NET0.nnue] [--engine target/release/lazuli]
                        [--epd FILE] [--lines 500] [--max-cp 1000]

--base compares with another network instead (the default: `<hce>`), e.g. a candidate against
the default network. The last line gives NET's output scale (from its file header, the layout in
nets/README.md) and the `lazuli net --scale` that would bring its slope to 1: wanted against the
default network, not against the hand-written eval (see nets/README.md, "Output scale").

Positions: the EPD file (default ../shared/books/8moves_v3_5k.epd, first 500 lines), or
tests/data/books/openings.epd when that is missing. Positions where either side says more than
--max-cp are left out.
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def evals(engine, evalfile, fens):
    lines = [f"setoption name EvalFile value {evalfile}"]
    for fen in fens:
        lines += [f"position fen {fen}", "eval"]
    lines.append("quit")
    out = subprocess.run([engine], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=600).stdout
    # A file the engine refuses leaves the previous evaluation in place: scoring that instead
    # would be silently wrong.
    refused = next((l for l in out.splitlines() if l.startswith("info string error: EvalFile")), None)
    if refused:
        sys.exit(f"{evalfile}: {engine} did not load it: {refused}")
    vals = [int(m.group(1)) for m in re.finditer(r"eval -?\d+ cp \(side to move\), (-?\d+) cp \(white\)", out)]
    if len(vals) != len(fens):
        sys.exit(f"{evalfile}: {len(vals)} evaluations for {len(fens)} positions")
    return vals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("net")
    ap.add_argument("--base", default="<hce>", help="network to compare with (default <hce>)")
    ap.add_argument("--engine", default=os.path.join(HERE, "..", "target", "release", "lazuli"))
    ap.add_argument("--epd")
    ap.add_argument("--lines", type=int, default=500)
    ap.add_argument("--max-cp", type=int, default=1000)
    args = ap.parse_args()
    epd = args.epd
    if epd is None:
        epd = os.path.join(HERE, "..", "..", "shared", "books", "8moves_v3_5k.epd")
        if not os.path.exists(epd):
            epd = os.path.join(HERE, "..", "tests", "data", "books", "openings.epd")
    fens = []
    with open(epd) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
            if len(fens) >= args.lines:
                break
    ref = evals(args.engine, args.base, fens)
    net = evals(args.engine, args.net, fens)
    pairs = [(h, n) for h, n in zip(ref, net) if abs(h) <= args.max_cp and abs(n) <= args.max_cp]
    sxy = sum(h * n for h, n in pairs)
    sxx = sum(h * h for h, _ in pairs)
    ratios = [n / h for h, n in pairs if abs(h) >= 30]
    mh = statistics.mean(h for h, _ in pairs)
    mn = statistics.mean(n for _, n in pairs)
    cov = sum((h - mh) * (n - mn) for h, n in pairs)
    vh = sum((h - mh) ** 2 for h, _ in pairs)
    vn = sum((n - mn) ** 2 for _, n in pairs)
    print(f"{len(pairs)} positions from {epd}")
    base = "hce" if args.base == "<hce>" else "base"
    print(f"slope net/{base} {sxy / sxx:.3f}  median ratio {statistics.median(ratios):.3f}  "
          f"sd {base} {math.sqrt(vh / len(pairs)):.0f} cp  sd net {math.sqrt(vn / len(pairs)):.0f} cp  "
          f"correlation {cov / math.sqrt(vh * vn):.3f}")
    scale = header_scale(args.net)
    if scale is not None:
        print(f"output scale {scale}; for slope 1: --scale {round(scale * sxx / sxy)}")


def header_scale(path):
    """The output scale in a network file's header (u32 LE at byte 24), or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
    except OSError:
        return None
    if len(head) < 32 or not head.startswith(b"LZNNUE"):
        return None
    return int.from_bytes(head[24:28], "little")


if __name__ == "__main__":
    main()
