#!/usr/bin/env python3
"""Plays games between two UCI engines through python-chess (the client library that
lichess-bot and many GUI tools use) with real clocks, and reports every game's end.

It checks what a tournament manager checks: time forfeits (a move that takes longer than the
time left on the clock, measured here around each `go`), illegal moves and crashes (both end the
game and are counted), and it writes the games as PGN.

  scripts/selfplay.py --games 200 --tc 1+0.01 --threads 2 [--engine A] [--engine2 B]
                      [--book ../shared/books/8mvs_+90_+99.epd] [--pgn out.pgn]
  scripts/selfplay.py --selftest

A game ends as cutechess-cli and fastchess end it (`game_end`): a draw by repetition only when a
position has stood three times, by the fifty-move rule only after 100 plies.

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


def game_end(board):
    """(result, reason) if the game is over at `board` by the rules tournament managers apply
    (cutechess-cli, fastchess), else None: mate, stalemate, insufficient material, the position on
    the board standing for the third time, or 100 plies without a capture or pawn move (mate
    first). Not python-chess's `claim_draw=True`, which also ends a game when the side to move
    merely *could* claim, by a move that would repeat a position a third time or reach the
    fifty-move mark: that drew games the side to move was winning and need not repeat."""
    outcome = board.outcome()  # mate, stalemate, insufficient material, fivefold, 75 moves
    if outcome is not None:
        return outcome.result(), outcome.termination.name.lower()
    if board.is_repetition(3):
        return "1/2-1/2", "threefold_repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "fifty_moves"
    return None


def selftest():
    # A claim is open to the side to move (Ng1 would stand a third time) but nothing repeated
    # three times yet: the game goes on. One more shuffle makes it a threefold.
    b = chess.Board()
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        b.push_uci(m)
    assert b.can_claim_threefold_repetition() and game_end(b) is None
    b.push_uci("f6g8")
    assert game_end(b) == ("1/2-1/2", "threefold_repetition"), game_end(b)
    # 99 quiet plies: a claim by the next move, not yet a draw; the 100th ends it.
    b = chess.Board("8/8/8/4k3/8/8/R7/4K3 w - - 99 80")
    assert b.can_claim_fifty_moves() and game_end(b) is None
    b.push_uci("a2a3")
    assert game_end(b) == ("1/2-1/2", "fifty_moves"), game_end(b)
    # Mate on the 100th ply is mate.
    b = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")
    b.push_uci("a1a8")
    assert game_end(b) == ("1-0", "checkmate"), game_end(b)
    # A position with a claim open: python-chess's claim rule calls it over, this one does not.
    assert chess.Board("8/8/8/4k3/8/8/R7/4K3 w - - 99 80").is_game_over(claim_draw=True)
    print("selftest passed")


def play_game(engines, names, fen, base, inc, game_no, nodes=0, event="Lazuli self-play"):
    """One game with real clocks (or `nodes` per move, no clocks); returns (result, reason, pgn)."""
    board = chess.Board(fen)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    result, reason = None, None
    notes = []  # per ply: "score/depth seconds", as tournament managers annotate
    while result is None:
        end = game_end(board)
        if end is not None:
            result, reason = end
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
    ap.add_argument("--selftest", action="store_true",
                    help="check the end-of-game rules on a few positions and exit")
    args = ap.parse_args()
    if args.selftest:
        selftest()
        return

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
