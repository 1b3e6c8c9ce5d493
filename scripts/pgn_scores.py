#!/usr/bin/env python3
"""One engine's scores from match PGNs, as datagen text lines for `scripts/fit_wdl.py`.

fastchess (and cutechess) write each move's score as a comment, `{+0.35/17 0.227s}`, from the
mover's point of view. For every move the named engine made at ply >= 16 with a centipawn score
(mate scores skipped), this prints `<FEN before the move> | <score, white's view> | <result,
white's view>`, the layout of `lazuli datagen --format text`, so the WDL model can be checked on
games at a real time control:

    python3 scripts/pgn_scores.py c11 runs/c11e30/*.pgn > c11.txt
    python3 scripts/fit_wdl.py c11.txt

Needs python-chess (`pip install chess`).
"""

import re
import sys

import chess
import chess.pgn

SCORE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)/\d+")
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: pgn_scores.py ENGINE_NAME FILE.pgn...")
    name = sys.argv[1]
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                result = RESULTS.get(game.headers.get("Result", ""))
                if result is None:
                    continue
                if game.headers.get("White") == name:
                    colour = chess.WHITE
                elif game.headers.get("Black") == name:
                    colour = chess.BLACK
                else:
                    continue
                board = game.board()
                for node in game.mainline():
                    m = SCORE.match(node.comment or "")
                    if m and board.turn == colour and board.ply() >= 16:
                        cp = round(float(m.group(1)) * 100)
                        if colour == chess.BLACK:
                            cp = -cp
                        print(f"{board.fen()} | {cp} | {result}")
                    board.push(node.move)


if __name__ == "__main__":
    main()
