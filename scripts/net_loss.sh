#!/usr/bin/env bash
# Held-out loss of networks on test files, the figure nets/README.md compares candidates by.
#
#   LAZULI=./lazuli scripts/net_loss.sh TEST.viri[,TEST2.viri...] NET.nnue [NET.nnue...]
#
# Prints one line per network: its loss on all the test files' trainable positions (the
# trainer's filters), at LAMBDA (default 0.25: the weight of the game result in the target,
# as in every fine-tune since candidate 33). Several test files go comma-separated.
# It runs `lazuli train --init NET --val TEST`, which logs the starting network's validation
# loss before it trains; the one epoch it then trains (on the first test file, into a
# temporary folder) is thrown away. A network is read in the frame of its header (train's
# --out-scale follows --init's header scale since 7c48b5b): its output in the engine's
# centipawns against sigmoid(score / 400), as scripts/result_fit.py's `score` and `result(k=1)`
# read it. Losses taken before 7c48b5b read every file at output scale 400 whatever its header
# said, so they do not compare with later ones for files whose header is not 400.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,15p' "$0"
    exit 2
fi
lazuli=$(realpath "${LAZULI:-./lazuli}")
lambda=${LAMBDA:-0.25}
IFS=, read -r -a tests <<<"$1"
shift
val=()
for t in "${tests[@]}"; do
    [ -r "$t" ] || { echo "cannot read test file $t" >&2; exit 2; }
    val+=(--val "$t")
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for net in "$@"; do
    line=$("$lazuli" train "${tests[0]}" "${val[@]}" --init "$net" --epochs 1 --lambda "$lambda" \
        --threads 1 --out "$tmp" 2>&1 | grep -m1 'starting from' || true)
    loss=$(sed -n 's/.*(validation loss \([0-9.]*\)).*/\1/p' <<<"$line")
    if [ -z "$loss" ]; then
        echo "$net: no loss (not a network file, or no trainable positions?)" >&2
        exit 1
    fi
    printf '%s %s\n' "$loss" "$net"
done
