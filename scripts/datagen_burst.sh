#!/bin/sh
# A generation of self-play on a lent many-core machine in one timed call: RUNS datagen
# processes of THREADS threads side by side (so the cores are used in a few big files, each
# deterministic for its seed), each stopped by SIGTERM after SECONDS. datagen appends whole
# games, so a stopped run loses only the games in play; `lazuli data stats` reads the result.
#
#   scripts/datagen_burst.sh LAZULI NET SECONDS SEED OUTDIR [RUNS] [THREADS]
#
# LAZULI is the engine (build it where you are with RUSTFLAGS="-C target-cpu=x86-64-v3" and carry
# it), NET the network that plays (`-` for the embedded one), SEED the first seed (run i uses
# SEED + i, files OUTDIR/gen-SEED+i.viri). RUNS defaults to 2 and THREADS to nproc / RUNS.
# The settings are the lineage's (nets/README): 5,000 soft / 20,000 hard nodes, 8-9 random
# plies; SOFT_NODES and NODES in the environment change the node limits (deeper labels, e.g.
# SOFT_NODES=10000 NODES=40000). At the end: each file's stats and the machine's facts, in OUTDIR.
set -u
if [ $# -lt 5 ]; then
    sed -n '2,14p' "$0"
    exit 2
fi
LAZULI=$(realpath "$1") NET=$2 SECS=$3 SEED=$4 OUT=$(realpath -m "$5")
RUNS=${6:-2}
THREADS=${7:-$(($(nproc) / RUNS))}
SOFT=${SOFT_NODES:-5000} HARD=${NODES:-20000}
mkdir -p "$OUT"
net_opt=""
if [ "$NET" != "-" ]; then
    net_opt="--net $(realpath "$NET")"
fi
{ date -u; echo "soft nodes $SOFT, hard nodes $HARD"; lscpu | grep -E 'Model name|^CPU\(s\)'; "$LAZULI" --version; } >"$OUT/machine.txt" 2>&1
i=0
while [ "$i" -lt "$RUNS" ]; do
    s=$((SEED + i))
    # shellcheck disable=SC2086
    timeout -s TERM "$SECS" "$LAZULI" datagen --out "$OUT/gen-$s.viri" --threads "$THREADS" --games 100000000 \
        --soft-nodes "$SOFT" --nodes "$HARD" --random-plies 8-9 --seed "$s" $net_opt \
        >"$OUT/log-$s.txt" 2>&1 &
    i=$((i + 1))
done
wait
for f in "$OUT"/gen-*.viri; do
    echo "== $f"
    "$LAZULI" data stats "$f" 2>&1
done >"$OUT/stats.txt"
grep -E '^(==|games|results)' "$OUT/stats.txt"
