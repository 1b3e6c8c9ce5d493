#!/usr/bin/env python3
"""Games through a real tournament manager (fastchess) on a loaded machine: time losses,
illegal moves, crashes and the tightest clock, per engine.

  scripts/load_games.py --fastchess /path/to/fastchess --engine A [--engine B] \\
      [--tc 1+0.01] [--threads 1] [--games 1000] [--concurrency 2] [--busy 1] \\
      [--busy-cmd "..."] [--book ../shared/books/8moves_v3_5k.epd] [--pgn out.pgn]

The busy load: `--busy N` processes, each `--busy-cmd` (default: a shell loop that spins one
core), started before the match and killed after it. fastchess runs with no time margin
(`timemargin` left at 0) and writes the time left after every move (`timeleft=true`), which
gives the tightest margin seen. `--analyse FILE.pgn` only reads an existing PGN.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPIN = "while :; do :; done"


def analyse(pgn_path):
    """Per engine: games, losses by termination kind, min time left, moves under 20 ms."""
    stats = {}
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for game in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', game, re.M))
        if "White" not in tags:
            continue
        white, black = tags["White"], tags["Black"]
        for name in (white, black):
            stats.setdefault(name, {"games": 0, "losses": {}, "min_tl": None, "low": 0,
                                    "moves": 0, "max_latency": 0.0})
            stats[name]["games"] += 1
        term = tags.get("Termination", "normal")
        result = tags.get("Result", "*")
        if term not in ("normal", "adjudication"):
            loser = white if result == "0-1" else black if result == "1-0" else None
            if loser:
                stats[loser]["losses"][term] = stats[loser]["losses"].get(term, 0) + 1
            else:
                for name in (white, black):
                    stats[name]["losses"][term] = stats[name]["losses"].get(term, 0) + 1
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        # Move comments alternate white, black from the start position of the game.
        side = 0 if " w " in tags.get("FEN", " w ") else 1
        for m in re.finditer(r"\{([^}]*)\}", body):
            c = m.group(1)
            name = (white, black)[side]
            side ^= 1
            tl = re.search(r"tl=(-?[0-9.]+)s", c)
            lat = re.search(r"latency=(-?[0-9.]+)s", c)
            s = stats[name]
            if tl:
                t = float(tl.group(1))
                s["moves"] += 1
                s["min_tl"] = t if s["min_tl"] is None else min(s["min_tl"], t)
                if t < 0.020:
                    s["low"] += 1
            if lat:
                s["max_latency"] = max(s["max_latency"], float(lat.group(1)))
    return stats


def report(stats):
    for name, s in stats.items():
        losses = ", ".join(f"{k}: {v}" for k, v in s["losses"].items()) or "none"
        min_tl = "n/a" if s["min_tl"] is None else f"{s['min_tl'] * 1000:.0f} ms"
        print(f"{name}: {s['games']} games, {s['moves']} moves; losses other than on the "
              f"board: {losses}; tightest time left {min_tl}; moves ending under 20 ms: "
              f"{s['low']}; max latency (manager's time - engine's) "
              f"{s['max_latency'] * 1000:.0f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fastchess")
    ap.add_argument("--engine", action="append", default=[])
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--busy", type=int, default=1)
    ap.add_argument("--busy-cmd", default=SPIN)
    ap.add_argument("--book", default=os.path.join(HERE, "../../shared/books/8moves_v3_5k.epd"))
    ap.add_argument("--pgn", default="load_games.pgn")
    ap.add_argument("--analyse")
    args = ap.parse_args()
    if args.analyse:
        report(analyse(args.analyse))
        return
    if not args.fastchess or not args.engine:
        ap.error("--fastchess and --engine are needed")
    engines = args.engine if len(args.engine) > 1 else args.engine * 2
    cmd = [args.fastchess]
    for i, e in enumerate(engines[:2]):
        cmd += ["-engine", f"cmd={e}", f"name={'AB'[i]}-{os.path.basename(e)}"]
    cmd += ["-each", "proto=uci", f"tc={args.tc}", f"option.Threads={args.threads}",
            f"option.Hash={args.hash}",
            "-rounds", str((args.games + 1) // 2), "-games", "2", "-repeat",
            "-concurrency", str(args.concurrency),
            "-openings", f"file={args.book}", "format=epd", "order=random",
            "-pgnout", f"file={args.pgn}", "timeleft=true", "latency=true",
            "-ratinginterval", "100"]
    if os.path.exists(args.pgn):
        os.remove(args.pgn)
    busy = [subprocess.Popen(["sh", "-c", args.busy_cmd]) for _ in range(args.busy)]
    try:
        subprocess.run(cmd, check=False)
    finally:
        for p in busy:
            p.kill()
    print(f"\n{args.games} games at {args.tc}, Threads={args.threads}, concurrency "
          f"{args.concurrency}, {args.busy} busy process(es) beside:")
    report(analyse(args.pgn))


if __name__ == "__main__":
    sys.exit(main())
