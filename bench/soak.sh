#!/usr/bin/env bash
# Soak test: SOAK_REQUESTS (200 000) mixed valid and invalid requests over
# loopback with bounded concurrency (wrk, CONNS connections), against the
# release binary with a cache smaller than the corpus (so it evicts all
# along). Checks zero 5xx, zero socket errors, and resident memory flat after
# the warm-up (VmRSS sampled every half second).
#
#   bench/soak.sh
#   SOAK_REQUESTS=50000 CONNS=16 bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SOAK_REQUESTS=${SOAK_REQUESTS:-200000}
THREADS=${THREADS:-2}
CONNS=${CONNS:-32}
MAX_SECONDS=${MAX_SECONDS:-300}          # hard bound on the run
CACHE_SIZE=${CACHE_SIZE:-1000}
PORT=${PORT:-18081}
URL="http://127.0.0.1:$PORT"
OUT=${OUT:-target/soak}
mkdir -p "$OUT"

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }
cargo build --release --quiet

target/release/faan serve --addr "127.0.0.1:$PORT" --admin-addr none --workers 2 --cache-size "$CACHE_SIZE" \
  --log-level warn 2>"$OUT/server.log" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "$URL/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
rss() { awk '/^VmRSS/ {print $2}' "/proc/$PID/status"; }
echo "start RSS: $(rss) KiB" >&2

DONE_DIR="$OUT/done"
rm -rf "$DONE_DIR"; mkdir -p "$DONE_DIR"
SOAK_DONE_DIR="$DONE_DIR" SOAK_PER_THREAD=$((SOAK_REQUESTS / THREADS)) wrk -t"$THREADS" -c"$CONNS" -d"${MAX_SECONDS}s" --timeout 10s \
  -s bench/soak.lua "$URL" >"$OUT/wrk.txt" &
WRK=$!
: >"$OUT/rss.txt"
for s in $(seq $((MAX_SECONDS * 2))); do
  kill -0 "$WRK" 2>/dev/null || break
  echo "$s $(rss)" >>"$OUT/rss.txt"
  # Every thread has its share: stop wrk now (it reports on SIGINT).
  if [ "$(find "$DONE_DIR" -type f | wc -l)" -ge "$THREADS" ]; then
    kill -INT "$WRK"
    break
  fi
  sleep 0.5
done
wait "$WRK"
END_RSS=$(rss)
kill -0 "$PID" || { echo "FAIL: the server died" >&2; exit 1; }
curl -sf "$URL/healthz" >/dev/null || { echo "FAIL: /healthz after the soak" >&2; exit 1; }

line=$(grep '^RESULT' "$OUT/wrk.txt")
echo "$line"
get() { sed -E "s/.* $1=([0-9.]+).*/\\1/" <<<"$line"; }
requests=$(get requests); s5xx=$(get s5xx)
sockerr=$(( $(get connect_err) + $(get read_err) + $(get write_err) + $(get timeout_err) ))
echo "RSS samples (sample KiB, every 0.5 s): $(tr '\n' ' ' <"$OUT/rss.txt")"
echo "end RSS: $END_RSS KiB"
n=$(wc -l <"$OUT/rss.txt")
warm=$(awk -v n="$n" 'NR == int(n / 4) + 1 {print $2}' "$OUT/rss.txt")
peak=$(awk -v n="$n" 'NR > int(n / 4) {if ($2 > m) m = $2} END {print m}' "$OUT/rss.txt")
echo "RSS after warm-up (first quarter): $warm KiB; peak after it: $peak KiB"
fail=0
[ "$requests" -ge "$SOAK_REQUESTS" ] || { echo "FAIL: only $requests requests"; fail=1; }
[ "$s5xx" -eq 0 ] || { echo "FAIL: $s5xx 5xx answers"; fail=1; }
[ "$sockerr" -eq 0 ] || { echo "FAIL: $sockerr socket errors"; fail=1; }
awk -v w="$warm" -v p="$peak" 'BEGIN { exit !(p <= w * 1.10 + 2048) }' \
  || { echo "FAIL: RSS grew from $warm to $peak KiB after warm-up"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: $requests requests, 0 5xx, 0 socket errors, RSS flat ($warm -> $peak KiB)"
exit $fail
