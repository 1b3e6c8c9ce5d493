#!/bin/sh
# The many-core measurements of one machine, in one run (for a lent 16-core machine, where each
# minute counts): machine facts, `speedtest --scaling` (nps efficiency and time to depth on 20
# positions, chart), NumaPolicy none vs system at all threads, stop/isready latency through the
# pipes at all threads, the pool's start/stop/resize figures, then two short matches through
# fastchess: 8 threads against 1 and 16 against 8 (2+0.02, Hash 64, 8moves_v3).
#
#   scripts/many_cores.sh LAZULI POOL_LATENCY FASTCHESS BOOK OUTDIR [MATCH_SECONDS]
#
# LAZULI is the engine, POOL_LATENCY the built `examples/pool_latency`, BOOK an EPD file. Each
# match runs MATCH_SECONDS (default 150) and is then stopped with SIGINT; its PGN is kept, so the
# score is read from OUTDIR/*.pgn (scripts/load_games.py --analyse, or any PGN tool).
set -u
LAZULI=$(realpath "$1") POOL=$(realpath "$2") FC=$(realpath "$3") BOOK=$(realpath "$4")
OUT=$(realpath -m "$5") MATCH=${6:-150}
N=$(nproc)
mkdir -p "$OUT"
log() { echo "== $(date +%T) $*"; }

log machine
{ lscpu; echo; ls /sys/devices/system/node/ 2>/dev/null; cat /sys/kernel/mm/transparent_hugepage/enabled; } \
    >"$OUT/machine.txt" 2>&1
grep -E 'Model name|^CPU\(s\)|Thread|NUMA node' "$OUT/machine.txt"

log "speedtest --scaling up to $N threads"
"$LAZULI" speedtest --threads "$N" --scaling --seconds 240 --rounds 3 --depth 16 --png "$OUT/scaling.png" 2>&1

for numa in none system; do
    log "speedtest $N threads NumaPolicy $numa"
    "$LAZULI" speedtest --threads "$N" --seconds 20 --numa "$numa" 2>&1 | tail -4
done

log "stop and isready latency through the pipes, $N threads"
python3 "$(dirname "$0")/latency.py" --engine "$LAZULI" --threads "$N" --hash 256 --trials 300 2>&1

log "pool start/stop/resize"
"$POOL" 1 2 16 64 256 1024 --trials 30 2>&1

match() { # name threadsA threadsB concurrency
    log "match $1: $2 threads vs $3 threads, concurrency $4, $MATCH s"
    # fastchess writes config.json (its resume state) where it runs: not into the checkout.
    mkdir -p /tmp/many_cores && cd /tmp/many_cores || return
    timeout -s INT "$MATCH" "$FC" \
        -engine cmd="$LAZULI" name="T$2" option.Threads="$2" \
        -engine cmd="$LAZULI" name="T$3" option.Threads="$3" \
        -each proto=uci tc=2+0.02 option.Hash=64 \
        -rounds 2000 -games 2 -repeat -concurrency "$4" \
        -openings file="$BOOK" format=epd order=random \
        -pgnout file="$OUT/$1.pgn" timeleft=true \
        -ratinginterval 10 >"$OUT/$1.log" 2>&1
    tail -12 "$OUT/$1.log"
    cd - >/dev/null || return
}
match t8-vs-t1 8 1 $((N / 8))
match t16-vs-t8 "$N" $((N / 2)) 1
log done
