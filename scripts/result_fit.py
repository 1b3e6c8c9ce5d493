#!/usr/bin/env python3
"""How well networks predict game results and search scores, each at its own fitted scale.

  scripts/result_fit.py [--phases] ENGINE TEXT[,TEXT2...] NET.nnue [NET.nnue...]
  scripts/result_fit.py --selftest

TEXT: test positions as `lazuli data text` writes them, '<FEN> | <score> | <result>' (white's
view; `lazuli data text gen-test.viri > test.txt`). Each network's static evaluation of every
position comes from ENGINE's UCI `eval` with `EvalFile` set (read by eval_scale.py's `evals`),
in the engine's centipawns: the frame the search reads, the scores' frame, and the one
`lazuli train --init` reads a network in (its --out-scale follows the file's header since
7c48b5b, so the lambda-0 and lambda-1 losses of scripts/net_loss.sh are `score` and
`result(k=1)` here, up to quantisation). Per network:

  result(fit)  min over k of mean (sigmoid(k * cp / 400) - result)^2, and that k
  result(k=1)  the same at k = 1, the trainer's lambda-1 loss
  score        mean (sigmoid(cp / 400) - sigmoid(score / 400))^2, the lambda-0 loss

Why a fitted k: training with more weight on the result stretches a network's output, and the
result-only loss at k = 1 rewards a wider scale by itself, so it cannot compare networks
trained at different lambdas (nets/README.md, 2026-12-06). The search never sees the scale
either: `lazuli net --scale` sets it. With k fitted, what is left is how well the network
orders positions by their outcome.

Every network after the first gets its difference from the first in % with a 95% interval
from a paired bootstrap over blocks of 128 consecutive positions (a game is ~90), k held at
each network's full-sample fit. With --phases, the result(fit) difference is also given by the
number of pieces on the board, kings and pawns included (2-10, 11-18, 19-26, 27-32), each with
its own interval (fine-tunes of candidate 37 gain most in endgames of 2-10 pieces;
nets/README.md, 2026-12-07). numpy is the only dependency.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_scale import evals as uci_evals  # noqa: E402

BLOCK = 128
RESAMPLES = 400
PHASES = ((2, 10), (11, 18), (19, 26), (27, 32))


def piece_count(fen):
    """Pieces on the board of a FEN, kings and pawns included."""
    return sum(c.isalpha() for c in fen.split(" ", 1)[0])


def read_text(paths):
    fens, scores, results = [], [], []
    for p in paths:
        with open(p) as f:
            for line in f:
                parts = line.rstrip("\n").split(" | ")
                if len(parts) != 3:
                    continue
                try:
                    score, result = float(parts[1]), float(parts[2])
                except ValueError:
                    continue
                fens.append(parts[0])
                scores.append(score)
                results.append(result)
    return fens, np.array(scores), np.array(results)


def evals(engine, net, fens):
    """White's-view static evals of `fens` in the engine's centipawns.

    Until 2026-12-07 they were converted to output scale 400 (times 400 / the header scale),
    the trainer's frame before 7c48b5b: `score` then compared a network read in that frame
    with search scores in the engine's, which for a network at header 276 is a different
    loss from the trainer's and can order two networks the other way (it did for candidates
    37 and 40). `result(fit)` does not depend on the frame; `result(k=1)` and `score` do.
    """
    return np.array(uci_evals(engine, net, fens), dtype=float)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def fit_k(cp, results, lo=0.2, hi=10.0):
    """Golden-section search for the k minimising the result loss (it is unimodal in k)."""
    loss = lambda k: np.mean((sigmoid(k * cp / 400) - results) ** 2)  # noqa: E731
    g = (5**0.5 - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = loss(c), loss(d)
    while b - a > 1e-4:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = loss(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = loss(d)
    return (a + b) / 2


def selftest():
    """fit_k recovers the k that generated synthetic results."""
    rng = np.random.default_rng(7)
    cp = rng.normal(0, 300, 200_000)
    for k in (0.7, 2.1, 3.5, 7.0):
        results = (rng.random(cp.size) < sigmoid(k * cp / 400)).astype(float)
        got = fit_k(cp, results)
        assert abs(got - k) < 0.05 * k, f"fit_k gave {got:.3f} for k = {k}"
    assert piece_count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 32
    assert piece_count("8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1") == 14
    print("selftest passed")
    return 0


def main():
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    args = sys.argv[1:]
    phases = "--phases" in args
    args = [a for a in args if a != "--phases"]
    if len(args) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    engine, texts, nets = args[0], args[1].split(","), args[2:]
    fens, scores, results = read_text(texts)
    if not fens:
        sys.exit("no test positions read")
    n = len(fens)
    blocks = np.arange(n) // BLOCK
    nb = int(blocks.max()) + 1
    counts = np.bincount(blocks, minlength=nb)
    rng = np.random.default_rng(1)
    boot = [rng.integers(0, nb, nb) for _ in range(RESAMPLES)]
    print(f"{n} positions from {', '.join(texts)}")
    pieces = np.array([piece_count(f) for f in fens])
    masks = [(lo, hi, (pieces >= lo) & (pieces <= hi)) for lo, hi in PHASES]
    base = None
    base_fit = None
    for net in nets:
        cp = evals(engine, net, fens)
        k = fit_k(cp, results)
        err_fit = (sigmoid(k * cp / 400) - results) ** 2
        err_k1 = (sigmoid(cp / 400) - results) ** 2
        err_score = (sigmoid(cp / 400) - sigmoid(scores / 400)) ** 2
        line = (
            f"{net}: k {k:.3f} result(fit) {err_fit.mean():.6f} result(k=1) {err_k1.mean():.6f}"
            f" score {err_score.mean():.6f}"
        )
        sums = [np.bincount(blocks, weights=e, minlength=nb) for e in (err_fit, err_score)]
        if base is None:
            base, base_fit = sums, err_fit
        else:
            for name, s, s0 in zip(("result(fit)", "score"), sums, base):
                mean0 = s0.sum() / n
                d = s - s0
                diffs = [d[b].sum() / counts[b].sum() / mean0 * 100 for b in boot]
                lo, hi = np.percentile(diffs, [2.5, 97.5])
                line += f" | {name} {d.sum() / s0.sum() * 100:+.2f}% [{lo:+.2f}, {hi:+.2f}]"
            if phases:
                for p_lo, p_hi, m in masks:
                    if not m.any():
                        continue
                    cm = np.bincount(blocks, weights=m, minlength=nb)
                    s0 = np.bincount(blocks, weights=base_fit * m, minlength=nb)
                    d = np.bincount(blocks, weights=(err_fit - base_fit) * m, minlength=nb)
                    mean0 = s0.sum() / cm.sum()
                    diffs = [d[b].sum() / max(cm[b].sum(), 1) / mean0 * 100 for b in boot]
                    lo, hi = np.percentile(diffs, [2.5, 97.5])
                    line += (
                        f"\n    {p_lo}-{p_hi} pieces ({int(cm.sum())} positions):"
                        f" result(fit) {d.sum() / s0.sum() * 100:+.2f}% [{lo:+.2f}, {hi:+.2f}]"
                    )
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
