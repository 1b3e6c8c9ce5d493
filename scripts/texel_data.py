#!/usr/bin/env python3
"""Positions for Texel tuning from PGN games: `<FEN> | <result>` lines for `lazuli texel`.

Every position of every game (after the book opening the PGN starts from, and after
--skip-plies more plies) is labelled with the game's result from white's point of view
(1, 0.5, 0). Positions repeated across games are kept once (with the first game's result),
games without a result are left out, and the games (not the positions: each game's lines stay
together) are shuffled, so that the tuner's held-out last tenth is made of whole games it did
not train on. `lazuli texel` itself drops positions in check or with a winning capture.

    scripts/texel_data.py games1.pgn games2.pgn --out positions.txt

Needs python-chess (pip install chess).
"""

import argparse
import random
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("texel_data.py needs python-chess: pip install chess")

RESULTS = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}


def games(path, skip_plies, max_plies):
    """Yields, per game in `path`, a list of (fen without move counters, full fen, result)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            result = RESULTS.get(game.headers.get("Result", "*"))
            if result is None:
                continue
            board = game.board()
            out = []
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= max_plies:
                    break
                if ply >= skip_plies:
                    fen = board.fen()
                    out.append((" ".join(fen.split()[:4]), fen, result))
                board.push(move)
            yield out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--skip-plies", type=int, default=4,
                    help="plies after the PGN's start position left out (default 4)")
    ap.add_argument("--max-plies", type=int, default=300,
                    help="plies per game at most (default 300): long shuffles add little")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    seen = set()
    blocks = []
    for path in args.pgn:
        for game in games(path, args.skip_plies, args.max_plies):
            block = []
            for key, fen, result in game:
                if key in seen:
                    continue
                seen.add(key)
                block.append(f"{fen} | {result}\n")
            if block:
                blocks.append(block)
    random.Random(args.seed).shuffle(blocks)
    lines = [line for block in blocks for line in block]
    with open(args.out, "w", encoding="utf-8") as f:
        f.writelines(lines)
    print(f"{len(lines)} positions -> {args.out}")


if __name__ == "__main__":
    main()
