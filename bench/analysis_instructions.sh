#!/usr/bin/env bash
# Instructions (callgrind) and, with PERF=1, CPU time (`perf stat` task-clock,
# the time the process ran, not the wall clock another job shares)
# per call of each case of benches/analysis.rs: deterministic or nearly, so
# an A/B of two builds holds on a busy shared machine where criterion's
# timings drift. Each case runs N times in the bench binary's counting mode
# (ANALYSIS_COUNT, no criterion); the count of a run with N = 0 (start-up,
# the rulesets, the shanten tables) is subtracted and the rest divided by N.
#
#   bench/analysis_instructions.sh                 # this tree's bench binary
#   BIN=/tmp/old/analysis bench/analysis_instructions.sh
#   CASES="shanten_14/plain chances_13/one_from_ready_self_draw" N=200 bench/analysis_instructions.sh
#   WARM=1 N=10 CASES=... bench/analysis_instructions.sh   # the run with 1
#     call subtracted instead: the cost of a call after the first, which
#     pays glibc's one-time consolidation of the tables' freed pass
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  BIN=$(bench/bench_bin.sh analysis)
fi
OUT=${OUT:-target/analysis-instructions}
CASES=${CASES:-shanten_14/plain shanten_14/flush shanten_14/pairs shanten_14/far acceptance_13/one_from_ready acceptance_13/two_from_ready analyze_14/one_from_ready analyze_14/ready_after chances_13/one_from_ready_self_draw chances_13/two_from_ready_self_draw chances_13/one_from_ready_discards chances_13/two_from_ready_discards chances_13/three_from_ready_self_draw chances_13/three_from_ready_discards}
mkdir -p "$OUT"

iters() { # case -> N for it (fewer for the slow ones), unless N is set
  if [ -n "${N:-}" ]; then echo "$N"; return; fi
  case "$1" in
    shanten_14/*|acceptance_13/*|necessary_13*) echo 20000 ;;
    analyze_14/*) echo 500 ;;
    chances_13/three*) echo 5 ;;
    *) echo 50 ;;
  esac
}

count() { # case n -> total instructions of the run
  local f="$OUT/$(echo "$1" | tr / _)-$2.out"
  ANALYSIS_COUNT="$1" ANALYSIS_ITERS="$2" valgrind --tool=callgrind --callgrind-out-file="$f" "$BIN" 2>/dev/null >/dev/null
  awk '/^(summary|totals):/ { print $2; exit }' "$f"
}

cputime() { # case n -> CPU nanoseconds of the run (hardware counters are not offered here)
  ANALYSIS_COUNT="$1" ANALYSIS_ITERS="$2" perf stat -x, -e task-clock "$BIN" 2>&1 >/dev/null | awk -F, '/task-clock/ { printf "%d\n", $1 * 1e6; exit }'
}

W=${WARM:-0}
echo "per call of $BIN (N = $W run subtracted)"
for c in $CASES; do
  n=$(iters "$c")
  a=$(count "$c" "$W")
  b=$(count "$c" $(( n + W )))
  line=$(printf '%-40s %10d instructions' "$c" $(( (b - a) / n )))
  if [ -n "${PERF:-}" ]; then
    # Median of three runs each, the N = 0 run's time subtracted.
    z=$(for _ in 1 2 3; do cputime "$c" 0; done | sort -n | sed -n 2p)
    y=$(for _ in 1 2 3; do cputime "$c" $(( n * 10 )); done | sort -n | sed -n 2p)
    line="$line $(printf '%10d ns CPU' $(( (y - z) / (n * 10) )))"
  fi
  echo "$line"
done
