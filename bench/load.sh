#!/usr/bin/env bash
# Load test of the HTTP path: the release binary pinned to core 0 with one
# worker, driven by wrk pinned to core 1, one fixed-time run per scenario
# (after a short warm-up). Prints requests/s, p50 and p99 per scenario with
# ratios to GET /healthz, then the server's resident memory.
#
#   bench/load.sh                   # 10 s per scenario, 2 s warm-up
#   DURATION=5 CONNS=32 bench/load.sh
#
# Loopback only; every run is bounded by wrk's -d.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
CONNS=${CONNS:-16}
PORT=${PORT:-18080}
LOG_LEVEL=${LOG_LEVEL:-info}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
URL="http://127.0.0.1:$PORT"
OUT=${OUT:-target/load}
mkdir -p "$OUT"

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }
[ -s bench/corpus.jsonl ] || { echo "bench/corpus.jsonl is missing" >&2; exit 1; }

cargo build --release --quiet
BIN=target/release/faan

PID=
stop_server() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill -TERM "$PID"
    for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  fi
  PID=
}
trap stop_server EXIT

start_server() { # cache size
  taskset -c "$SERVER_CPU" "$BIN" serve --addr "127.0.0.1:$PORT" --workers 1 \
    --cache-size "$1" --log-level "$LOG_LEVEL" 2>"$OUT/server-cache$1.log" &
  PID=$!
  for _ in $(seq 100); do
    curl -sf "$URL/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server did not start" >&2; exit 1
}

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$PID/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
TCK=$(getconf CLK_TCK)

declare -A RPS P50 P99 INFO CPU
run() { # name script path
  local name=$1 script=$2 path=$3
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"${WARMUP}s" -s "$script" "$URL$path" >/dev/null
  local t0 t1
  t0=$(cpu_ticks)
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"${DURATION}s" --timeout 5s -s "$script" "$URL$path" \
    | tee "$OUT/$name.txt" >/dev/null
  t1=$(cpu_ticks)
  local line
  line=$(grep '^RESULT' "$OUT/$name.txt")
  RPS[$name]=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line")
  P50[$name]=$(sed -E 's/.* p50_us=([0-9]+).*/\1/' <<<"$line")
  P99[$name]=$(sed -E 's/.* p99_us=([0-9]+).*/\1/' <<<"$line")
  INFO[$name]=$(sed -E 's/.* (s2xx=.*)/\1/' <<<"$line")
  # Server CPU time (user + system) per request, in microseconds.
  CPU[$name]=$(awk -v d=$((t1 - t0)) -v tck="$TCK" -v n="$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")" \
    'BEGIN { printf "%.1f", d / tck * 1e6 / n }')
  echo "  $name: $line" >&2
}

echo "== faan load test: ${DURATION}s per scenario (+${WARMUP}s warm-up), $CONNS connections, server on CPU $SERVER_CPU (1 worker), wrk on CPU $CLIENT_CPU, log level $LOG_LEVEL" >&2
start_server 100000
RSS_START=$(rss_kib)
run healthz bench/get.lua /healthz
run score_hit bench/score_hit.lua /v1/score
run batch_100 bench/batch.lua /v1/score/batch
# Fill the default-size cache with the whole corpus, then measure resident memory.
run score_corpus_cached bench/score_cycle.lua /v1/score
RSS_DEFAULT=$(rss_kib)
stop_server

start_server 0
run score_miss bench/score_cycle.lua /v1/score
RSS_NOCACHE=$(rss_kib)
stop_server

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }
echo
printf '%-22s %10s %9s %9s %10s %10s %12s  %s\n' scenario "req/s" "p50 µs" "p99 µs" "rps/hz" "p99/hz" "cpu µs/req" statuses
for n in healthz score_hit score_miss batch_100 score_corpus_cached; do
  printf '%-22s %10.0f %9d %9d %10s %10s %12s  %s\n' "$n" "${RPS[$n]}" "${P50[$n]}" "${P99[$n]}" \
    "$(ratio "${RPS[$n]}" "${RPS[healthz]}")" "$(ratio "${P99[$n]}" "${P99[healthz]}")" "${CPU[$n]}" "${INFO[$n]}"
done
echo
echo "hands/s in batch_100: $(awk -v r="${RPS[batch_100]}" 'BEGIN { printf "%.0f", r * 100 }')"
echo "VmRSS (cache 100000): ${RSS_START} KiB at start, ${RSS_DEFAULT} KiB after the runs above (corpus of $(wc -l <bench/corpus.jsonl) cached)"
echo "VmRSS (cache 0): ${RSS_NOCACHE} KiB after score_miss"
echo
hit_ok=$(awk -v a="${RPS[score_hit]}" -v b="${RPS[healthz]}" 'BEGIN { print (a >= 0.9 * b) ? "PASS" : "FAIL" }')
miss_ok=$(awk -v a="${RPS[score_miss]}" -v b="${RPS[healthz]}" 'BEGIN { print (a >= 0.8 * b) ? "PASS" : "FAIL" }')
p99_ok=$(awk -v h="${P99[score_hit]}" -v m="${P99[score_miss]}" -v z="${P99[healthz]}" 'BEGIN { print (h <= 1.5 * z && m <= 1.5 * z) ? "PASS" : "FAIL" }')
order_ok=$(awk -v h="${RPS[score_hit]}" -v m="${RPS[score_miss]}" 'BEGIN { print (h >= m) ? "PASS" : "FAIL" }')
rss_ok=$(awk -v r="$RSS_DEFAULT" 'BEGIN { print (r < 64 * 1024) ? "PASS" : "FAIL" }')
echo "target hit >= 90% of healthz rps: $hit_ok"
echo "target miss >= 80% of healthz rps: $miss_ok"
echo "target p99 of hit and miss <= 1.5x healthz: $p99_ok"
echo "target hit not slower than miss: $order_ok"
echo "target RSS < 64 MiB: $rss_ok"
