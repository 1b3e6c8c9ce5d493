#!/usr/bin/env python3
"""Fit the win/draw/loss model behind `UCI_ShowWDL` to Lazuli's own self-play games.

The model is the one Stockfish fits to its games (an idea, not its numbers): with material
m = P + 3N + 3B + 5R + 9Q of both sides, clamped to 17..78, and x = m / 58,

    win  = 1 / (1 + exp((a(x) - v) / b(x)))
    loss = 1 / (1 + exp((a(x) + v) / b(x)))
    draw = 1 - win - loss

where v is the engine's score in centipawns and a, b are cubic polynomials in x. The eight
coefficients are fitted by maximum likelihood of the games' results.

Input: datagen text lines `<FEN> | <score> | <result>` (white's point of view), the layout of
`lazuli datagen --format text`, of `lazuli data text` (viriformat games as text) and of
../shared/data. Output: the Rust constants for
`src/eval/wdl.rs`, and a table of predicted against observed results per score bucket.

Whether a refit is worth it: the positions are cut into two halves in file order (whole games
but one), the model is fitted to each half and scored on the other, and the model now in
`src/eval/wdl.rs` is scored on both; a refit that does not beat the current model out of
sample is not worth taking. `--score-mult K` multiplies the scores first, for data made by a
network whose output scale has since changed (e.g. 476 / 400).

    pip install numpy scipy
    python3 scripts/fit_wdl.py ~/lazuli-data/gen0-shared.txt ~/lazuli-data/gen0-hce-s2.txt
    python3 scripts/fit_wdl.py gen1.txt --score-mult 1.19
"""

import os
import re

import sys

import numpy as np
from scipy.optimize import minimize

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}


def read(paths, max_abs=2000):
    scores, mats, results = [], [], []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.split("|")
                if len(parts) != 3:
                    continue
                try:
                    v = int(parts[1])
                    r = float(parts[2])
                except ValueError:
                    continue
                if abs(v) > max_abs or r not in (0.0, 0.5, 1.0):
                    continue
                board = parts[0].split()[0] if parts[0].split() else ""
                m = sum(VALUES.get(c.lower(), 0) for c in board)
                scores.append(v)
                mats.append(min(max(m, 17), 78))
                results.append(r)
    return np.array(scores, float), np.array(mats, float), np.array(results, float)


def model(params, v, x):
    pa, pb = params[:4], params[4:]
    a = ((pa[0] * x + pa[1]) * x + pa[2]) * x + pa[3]
    b = ((pb[0] * x + pb[1]) * x + pb[2]) * x + pb[3]
    b = np.maximum(b, 1.0)
    win = 1.0 / (1.0 + np.exp((a - v) / b))
    loss = 1.0 / (1.0 + np.exp((a + v) / b))
    return win, loss


def neg_log_likelihood(params, v, x, r):
    win, loss = model(params, v, x)
    draw = np.clip(1.0 - win - loss, 1e-9, 1.0)
    p = np.where(r == 1.0, win, np.where(r == 0.0, loss, draw))
    return -np.mean(np.log(np.clip(p, 1e-9, 1.0)))


def fit_model(v, x, r, start=None):
    """Maximum-likelihood coefficients, searched from `start` (the current model, where there is
    one: it is near the optimum, so the search takes far fewer steps) or from a flat guess."""
    if start is None:
        start = np.array([0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 80.0])
    fit = minimize(neg_log_likelihood, start, args=(v, x, r), method="Nelder-Mead",
                   options={"maxiter": 20000, "maxfev": 20000, "xatol": 1e-3, "fatol": 1e-9})
    fit = minimize(neg_log_likelihood, fit.x, args=(v, x, r), method="BFGS")
    return fit.x, fit.fun


def current_model():
    """The coefficients in src/eval/wdl.rs, or None where it cannot be read."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "eval", "wdl.rs")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return None
    coeffs = []
    for name in ("AS", "BS"):
        found = re.search(r"const %s: \[f64; 4\] = \[([^\]]*)\]" % name, text)
        if not found:
            return None
        coeffs += [float(c) for c in found.group(1).split(",")]
    return np.array(coeffs)


def main():
    args = sys.argv[1:]
    if not args or "-h" in args or "--help" in args:
        print(__doc__)
        sys.exit(0 if args else 2)
    mult = 1.0
    if "--score-mult" in args:
        i = args.index("--score-mult")
        try:
            mult = float(args[i + 1])
        except (IndexError, ValueError):
            sys.exit("--score-mult wants a number, e.g. --score-mult 1.19")
        del args[i:i + 2]
    missing = [a for a in args if not os.path.isfile(a)]
    if missing:
        sys.exit(f"no such file: {', '.join(missing)}")
    v, m, r = read(args)
    v = v * mult
    if len(v) < 1000:
        sys.exit(f"only {len(v)} usable positions; need at least 1000")
    x = m / 58.0
    h = len(v) // 2
    a, b = slice(0, h), slice(h, len(v))
    old = current_model()
    pa, _ = fit_model(v[a], x[a], r[a], old)
    pb, _ = fit_model(v[b], x[b], r[b], old)
    print("out of sample (mean log-loss, lower is better): "
          f"fitted on the first half, on the second {neg_log_likelihood(pa, v[b], x[b], r[b]):.5f}; "
          f"fitted on the second, on the first {neg_log_likelihood(pb, v[a], x[a], r[a]):.5f}")
    if old is not None:
        print(f"the model in src/eval/wdl.rs: on the first half {neg_log_likelihood(old, v[a], x[a], r[a]):.5f}, "
              f"on the second {neg_log_likelihood(old, v[b], x[b], r[b]):.5f}")
    p, loss = fit_model(v, x, r, old)
    print(f"positions {len(v)}  mean log-loss {loss:.5f}")
    print(f"const AS: [f64; 4] = [{p[0]:.3f}, {p[1]:.3f}, {p[2]:.3f}, {p[3]:.3f}];")
    print(f"const BS: [f64; 4] = [{p[4]:.3f}, {p[5]:.3f}, {p[6]:.3f}, {p[7]:.3f}];")
    win, loss = model(p, v, x)
    print("score bucket   positions   observed W/D/L per mille   predicted W/D/L")
    for lo in range(-600, 600, 100):
        sel = (v >= lo) & (v < lo + 100)
        n = int(sel.sum())
        if n == 0:
            continue
        ow = 1000 * np.mean(r[sel] == 1.0)
        ol = 1000 * np.mean(r[sel] == 0.0)
        pw = 1000 * np.mean(win[sel])
        pl = 1000 * np.mean(loss[sel])
        print(f"{lo:5}..{lo + 99:5}  {n:9}   {ow:4.0f} {1000 - ow - ol:4.0f} {ol:4.0f}"
              f"                {pw:4.0f} {1000 - pw - pl:4.0f} {pl:4.0f}")


if __name__ == "__main__":
    main()
