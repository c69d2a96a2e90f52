#!/usr/bin/env bash
# Instructions per call of each case of benches/score.rs, counted by
# callgrind: deterministic, so an A/B of two builds holds on a busy shared
# machine where criterion's timings do not (see bench/core.md). Each case
# runs N times in the bench binary's counting mode (SCORE_COUNT, no
# criterion); the count of a run with N = 0 is subtracted and the rest
# divided by N.
#
#   bench/core_instructions.sh                  # this tree's bench binary
#   BIN=/tmp/old/score bench/core_instructions.sh   # another build (copy
#                                                   # benches/score.rs there first)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
  BIN=$(bench/bench_bin.sh score)
fi
N=${N:-2000}
OUT=${OUT:-target/core-instructions}
CASES=${CASES:-plain plain-melds flush-many-readings flush-nine-gates flush-pairs kongs thirteen-orphans seven-pairs big-three-dragons}
SETS=${SETS:-score score_house score_hand}
mkdir -p "$OUT"

count() { # group/case n -> total instructions of the run
  local f="$OUT/$(echo "$1" | tr / _)-$2.out"
  SCORE_COUNT="$1" SCORE_ITERS="$2" valgrind --tool=callgrind --callgrind-out-file="$f" "$BIN" 2>/dev/null >/dev/null
  awk '/^(summary|totals):/ { print $2; exit }' "$f"
}

echo "instructions per call of $BIN (callgrind, N = $N)"
for g in $SETS; do
  for c in $CASES; do
    a=$(count "$g/$c" 0)
    b=$(count "$g/$c" "$N")
    printf '%-32s %8d\n' "$g/$c" $(( (b - a) / N ))
  done
done
