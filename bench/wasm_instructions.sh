#!/usr/bin/env bash
# Instructions per score in the WebAssembly module, counted by callgrind
# over Node: a run of N = 1 and one of N = 10,001 scores of one request
# (bench/wasm_score.mjs), the difference divided by 10,000, so Node's start,
# the module's compilation and its first call drop out.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
[ -f web/pkg/faan.wasm ] || web/pkg/build.sh
OUT=${OUT:-target/wasm-instructions}
mkdir -p "$OUT"
count() { # n -> total instructions of the run
  local f="$OUT/score-$1.out"
  # One V8 thread for compilation, so the count is of one deterministic run.
  valgrind --tool=callgrind --trace-children=no --callgrind-out-file="$f" \
    node --single-threaded bench/wasm_score.mjs "$1" 2>/dev/null >/dev/null
  awk '/^(summary|totals):/ { print $2; exit }' "$f"
}
a=$(count 1)
b=$(count 10001)
echo "module: $a instructions for 1 score, $b for 10,001"
echo "per score: $(( (b - a) / 10000 ))"
