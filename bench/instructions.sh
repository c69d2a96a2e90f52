#!/usr/bin/env bash
# Instructions per request, counted by callgrind: deterministic, so an A/B of
# two builds holds on a busy shared machine where requests/s do not (see
# bench/load.md). The server (one worker) runs under valgrind twice, for N1
# and N2 requests on one keep-alive connection (bench/requests.py); the
# difference divided by N2 - N1 leaves start-up out. User-space instructions
# only: system calls count as a few instructions each (count them with
# `strace -c -f -p PID`).
#
#   bench/instructions.sh                       # this tree's release build
#   BIN=/tmp/old/faan bench/instructions.sh     # another build
#   KINDS="healthz hit" LEVELS=info bench/instructions.sh
#
# Loopback only; bounded by the request counts.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=target/release/faan
fi
N1=${N1:-1000}
N2=${N2:-6000}
KINDS=${KINDS:-healthz hit miss}
LEVELS=${LEVELS:-info warn}
OUT=${OUT:-target/instructions}
mkdir -p "$OUT"

count() { # kind level n -> total instructions of the run
  local port cache=100000
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  [ "$1" = miss ] && cache=0
  valgrind --tool=callgrind --callgrind-out-file="$OUT/$1-$2-$3.out" "$BIN" serve \
    --addr "127.0.0.1:$port" --admin-addr none --workers 1 --cache-size "$cache" --log-level "$2" \
    2>"$OUT/$1-$2-$3.log" >/dev/null &
  local pid=$!
  for _ in $(seq 300); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
    sleep 0.2
  done
  python3 bench/requests.py "$port" "$3" "$1"
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  awk '/^(summary|totals):/ { print $2; exit }' "$OUT/$1-$2-$3.out"
}

echo "instructions per request of $BIN (callgrind, ($N2 - $N1) requests)"
for level in $LEVELS; do
  for kind in $KINDS; do
    a=$(count "$kind" "$level" "$N1")
    b=$(count "$kind" "$level" "$N2")
    printf 'log level %-5s %-8s %8d\n' "$level" "$kind" $(( (b - a) / (N2 - N1) ))
  done
done
