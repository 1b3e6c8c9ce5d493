#!/usr/bin/env bash
# Side-by-side perft timing: Lazuli, Stockfish (`go perft`) and shakmaty's perft, on the same
# positions in one run, alternating the programs. Prints the median time of each and the ratios.
#
#   scripts/perft-compare.sh [runs] [depth]      (defaults: 11 runs, depth 6)
#
# Needs: stockfish on PATH or in /usr/games (apt-get install stockfish), bc. Builds the release
# binary and the shakmaty example itself; set RUSTFLAGS (e.g. "-C target-cpu=native") to time
# that build instead. Stockfish's own start-up (~0.1 s: it loads its network) is measured with a
# bare `quit` and subtracted.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
depth=${2:-6}
sf=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$sf" ] || { echo "stockfish not found (apt-get install stockfish)"; exit 1; }
cargo build --release --quiet --bin lazuli --example shakmaty_perft
target=${CARGO_TARGET_DIR:-target}/release
lz="$target/lazuli"
sm="$target/examples/shakmaty_perft"

positions=(
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
)

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

for fen in "${positions[@]}"; do
  d=$depth
  # Kiwipete is ~40x the start position per depth: one less ply keeps the run short.
  [[ "$fen" == r3k2r/p1ppqpb1* ]] && d=$((depth - 1))
  tl=(); ts=(); tm=(); tq=()
  for _ in $(seq "$runs"); do
    s=$(now); "$lz" perft "$d" $fen >/dev/null; e=$(now); tl+=("$(echo "$e - $s" | bc)")
    s=$(now); printf 'position fen %s\ngo perft %s\nquit\n' "$fen" "$d" | "$sf" >/dev/null; e=$(now); ts+=("$(echo "$e - $s" | bc)")
    s=$(now); printf 'quit\n' | "$sf" >/dev/null; e=$(now); tq+=("$(echo "$e - $s" | bc)")
    s=$(now); "$sm" "$d" $fen >/dev/null; e=$(now); tm+=("$(echo "$e - $s" | bc)")
  done
  ml=$(printf '%s\n' "${tl[@]}" | median)
  ms=$(printf '%s\n' "${ts[@]}" | median)
  mq=$(printf '%s\n' "${tq[@]}" | median)
  mm=$(printf '%s\n' "${tm[@]}" | median)
  msf=$(echo "$ms - $mq" | bc)
  nodes=$("$lz" perft "$d" $fen | awk '/Nodes searched/{print $3}')
  echo "perft $d  $fen  ($nodes nodes, medians of $runs runs)"
  printf '  lazuli    %.3f s\n  stockfish %.3f s  (%.3f s with start-up %.3f s)\n  shakmaty  %.3f s\n' "$ml" "$msf" "$ms" "$mq" "$mm"
  printf '  ratio lazuli/stockfish %.3f   lazuli/shakmaty %.3f\n' "$(echo "$ml / $msf" | bc -l)" "$(echo "$ml / $mm" | bc -l)"
done
