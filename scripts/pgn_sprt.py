#!/usr/bin/env python3
"""SPRT figures for games a tournament manager played: fastchess (or cutechess) PGNs of a match
played with `-games 2 -repeat`, where the two games of an opening share a `[Round]` tag.

  scripts/pgn_sprt.py NAME FILE.pgn... [--elo0 0 --elo1 10]

NAME is the engine under test. Games are paired by round, not by their order in the file: at
concurrency above 1 the games are written as they finish, so neighbours are often not a pair.
Prints games, W/D/L for NAME, the pentanomial, the Elo estimate with its 95% interval and the
LLR (the model of scripts/sprt.py). Rounds with one game (a match stopped mid-pair) count in
W/D/L, not in the pentanomial.

--prior W,D,L,P0,P1,P2,P3,P4 adds games whose PGNs are gone (a machine handed over wiped) but
whose counts were written down, e.g. in nets/README.md: their W/D/L and pentanomial are summed
with the files' games.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sprt import elo_interval, llr  # noqa: E402

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def rounds(text, name):
    """{(round): [points for NAME, ...]} of one PGN's finished games."""
    out = {}
    for game in text.split("[Event ")[1:]:
        tag = lambda t: (re.search(r'\[%s "(.*?)"\]' % t, game) or [None, None])[1]  # noqa: E731
        white, black, result, rnd = tag("White"), tag("Black"), tag("Result"), tag("Round")
        if result not in POINTS or name not in (white, black):
            continue
        p = POINTS[result]
        out.setdefault(rnd, []).append(p if white == name else 1.0 - p)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("pgns", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--prior", default=None, help="W,D,L,P0,P1,P2,P3,P4 of earlier games")
    a = ap.parse_args()
    penta = [0] * 5
    points = []
    if a.prior:
        try:
            prior = [int(x) for x in a.prior.split(",")]
        except ValueError:
            prior = []
        if len(prior) != 8 or min(prior) < 0:
            sys.exit("--prior wants 8 non-negative integers: W,D,L,P0,P1,P2,P3,P4")
        points += [1.0] * prior[0] + [0.5] * prior[1] + [0.0] * prior[2]
        penta = prior[3:]
    for path in a.pgns:
        with open(path, encoding="utf-8", errors="replace") as f:
            for rs in rounds(f.read(), a.name).values():
                points += rs
                if len(rs) == 2:
                    penta[int(round((rs[0] + rs[1]) * 2))] += 1
    if not points:
        sys.exit(f"no finished games of {a.name}")
    w, d, l = points.count(1.0), points.count(0.5), points.count(0.0)
    elo, half = elo_interval(penta) if sum(penta) else (float("nan"), float("nan"))
    print(f"games {len(points)}  W {w} D {d} L {l}  pentanomial {penta}")
    print(f"Elo {elo:+.1f} +- {half:.1f}  LLR {llr(penta, a.elo0, a.elo1):.2f} "
          f"for [{a.elo0:g}, {a.elo1:g}] (bounds -2.94, 2.94)")


if __name__ == "__main__":
    main()
