#!/usr/bin/env python3
"""Plays games between two UCI engines through python-chess (the client library that
lichess-bot and many GUI tools use) with real clocks, and reports every game's end.

It checks what a tournament manager checks: time forfeits (a move that takes longer than the
time left on the clock, measured here around each `go`), illegal moves and crashes (both end the
game and are counted), and it writes the games as PGN.

  scripts/selfplay.py --games 200 --tc 1+0.01 --threads 2 [--engine A] [--engine2 B]
                      [--book ../shared/books/8mvs_+90_+99.epd] [--pgn out.pgn]

Exit status 1 if any game ended by time forfeit, illegal move or crash.
"""
import argparse
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


def parse_tc(tc):
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def open_engine(path, threads, hash_mib, extra=""):
    eng = chess.engine.SimpleEngine.popen_uci(path)
    opts = {"Threads": threads, "Hash": hash_mib}
    for kv in filter(None, extra.split(",")):
        k, _, v = kv.partition("=")
        opts[k.strip()] = v.strip()
    eng.configure(opts)
    return eng


def move_note(info, spent):
    """`+0.35/12 0.412s` (the mover's view; `+M5` / `-M5` for mates), or the time alone without a score."""
    score, depth = info.get("score"), info.get("depth")
    if score is None:
        return f"{spent:.3f}s"
    pov = score.relative
    if pov.is_mate():
        text = f"{'+' if pov.mate() > 0 else '-'}M{abs(pov.mate())}"
    else:
        text = f"{pov.score() / 100:+.2f}"
    return f"{text}/{depth or 0} {spent:.3f}s"


def play_game(engines, names, fen, base, inc, game_no, nodes=0, event="Lazuli self-play"):
    """One game with real clocks (or `nodes` per move, no clocks); returns (result, reason, pgn)."""
    board = chess.Board(fen)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    result, reason = None, None
    notes = []  # per ply: "score/depth seconds", as tournament managers annotate
    while result is None:
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            result, reason = outcome.result(), outcome.termination.name.lower()
            break
        side = board.turn
        if nodes:
            limit = chess.engine.Limit(nodes=nodes)
        else:
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                white_inc=inc, black_inc=inc)
        t0 = time.monotonic()
        try:
            # `game` makes python-chess send ucinewgame when a new game starts.
            res = engines[side].play(board, limit, game=game_no,
                                     info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"crash or protocol error by {names[side]}: {e}"
            break
        spent = time.monotonic() - t0
        notes.append(move_note(res.info, spent))
        if not nodes:
            clocks[side] -= spent
            if clocks[side] < 0:
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"time forfeit by {names[side]} ({-clocks[side]*1000:.0f} ms over)"
                break
            clocks[side] += inc
        if res.move is None or res.move not in board.legal_moves:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"illegal move {res.move} by {names[side]}"
            break
        board.push(res.move)
    game = chess.pgn.Game.from_board(board)
    node = game
    for note in notes[:len(board.move_stack)]:
        node = node.next()
        node.comment = note
    game.headers["Event"] = event
    game.headers["Round"] = str(game_no)
    game.headers["White"] = names[chess.WHITE]
    game.headers["Black"] = names[chess.BLACK]
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    game.headers["FEN"] = fen
    return result, reason, game


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/lazuli")
    ap.add_argument("--engine2", default=None)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--book", default="../shared/books/8mvs_+90_+99.epd")
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--options1", default="", help="extra options of engine A: Name=value,...")
    ap.add_argument("--options2", default="", help="extra options of engine B: Name=value,...")
    ap.add_argument("--fens", default=None,
                    help="play these positions in order instead of random book lines (EPD: first 4 fields)")
    args = ap.parse_args()

    base, inc = parse_tc(args.tc)
    try:
        with open(args.fens or args.book) as f:
            book = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except OSError:
        book = [chess.STARTING_FEN]
    if args.fens:
        book = [" ".join(l.split()[:4]) + " 0 1" for l in book]
    rng = random.Random(args.seed)
    a = open_engine(args.engine, args.threads, args.hash, args.options1)
    b = open_engine(args.engine2 or args.engine, args.threads, args.hash, args.options2)
    score = {"A": 0.0, "B": 0.0}
    bad = 0
    terminations = {}
    pgn = open(args.pgn, "w") if args.pgn else None
    try:
        for g in range(args.games):
            if g % 2 == 0:
                fen = book[(g // 2) % len(book)] if args.fens else book[rng.randrange(len(book))]
            # Each opening is played twice, colours reversed.
            if g % 2 == 0:
                engines, names = {chess.WHITE: a, chess.BLACK: b}, {chess.WHITE: "A", chess.BLACK: "B"}
            else:
                engines, names = {chess.WHITE: b, chess.BLACK: a}, {chess.WHITE: "B", chess.BLACK: "A"}
            result, reason, game = play_game(engines, names, fen, base, inc, g + 1)
            if result == "1-0":
                score[names[chess.WHITE]] += 1
            elif result == "0-1":
                score[names[chess.BLACK]] += 1
            else:
                score["A"] += 0.5
                score["B"] += 0.5
            key = reason.split(" by ")[0] if " by " in reason else reason
            terminations[key] = terminations.get(key, 0) + 1
            if "forfeit" in reason or "illegal" in reason or "crash" in reason:
                bad += 1
                print(f"game {g+1}: {result} {reason}", flush=True)
            if pgn:
                print(game, file=pgn, end="\n\n", flush=True)
            if (g + 1) % 10 == 0 or g + 1 == args.games:
                print(f"{g+1} games: A {score['A']} - B {score['B']}; endings {terminations}", flush=True)
    finally:
        a.quit()
        b.quit()
        if pgn:
            pgn.close()
    print(f"time forfeits / illegal moves / crashes: {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
