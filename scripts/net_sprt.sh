#!/usr/bin/env bash
# SPRT of a candidate network against the default, the way nets/README.md's matches are run:
# one binary for both sides, the candidate through EvalFile, 8+0.08 (TC), Threads=1, Hash=16 (HASH),
# 8moves_v3 openings with both colours, fastchess at concurrency 2, bounds [0, 10].
#
#   FASTCHESS=/path/to/fastchess LAZULI=./lazuli scripts/net_sprt.sh NAME NET.nnue SRAND [BASE]
#
# NAME names the candidate in the PGN; BASE is the network it plays against (default: the
# embedded one). PGNs go to ${RUNS:-runs}/NAME/srand-SRAND.pgn, one file per seed, so a match
# cut off by the end of a session goes on with a new SRAND and is judged over all its files:
#
#   scripts/pgn_sprt.py NAME runs/NAME/*.pgn
#
# fastchess stops by itself when its own SPRT (logistic model) crosses a bound.
# TC and HASH (defaults 8+0.08 and 16) set the time control and hash of both sides, e.g.
# TC=20+0.2 HASH=32 for the confirmation at a longer time control.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,15p' "$0"
    exit 2
fi
name=$1 net=$2 srand=$3 base=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
fastchess=${FASTCHESS:-fastchess}
lazuli=$(realpath "${LAZULI:-./lazuli}")
net=$(realpath "$net")
book=${BOOK:-$here/../../shared/books/8moves_v3_5k.epd}
runs=${RUNS:-runs}
mkdir -p "$runs/$name"
base_opt=()
if [ -n "$base" ]; then
    base_opt=("option.EvalFile=$(realpath "$base")")
fi
exec "$fastchess" \
    -engine cmd="$lazuli" name="$name" "option.EvalFile=$net" \
    -engine cmd="$lazuli" name=default "${base_opt[@]}" \
    -each tc="${TC:-8+0.08}" option.Threads=1 option.Hash="${HASH:-16}" \
    -openings file="$book" format=epd order=random \
    -srand "$srand" -repeat -rounds 20000 -concurrency "${CONCURRENCY:-2}" \
    -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic \
    -pgnout file="$runs/$name/srand-$srand.pgn" \
    -ratinginterval 20
