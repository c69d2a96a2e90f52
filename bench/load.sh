#!/usr/bin/env bash
# Load test of the HTTP path: the release binary pinned to core 0 with one
# worker, driven by wrk pinned to core 1, one fixed-time run per scenario
# (after a short warm-up). Prints requests/s, p50 and p99 per scenario with
# ratios to GET /healthz, then the server's resident memory. The scenarios
# run ROUNDS times, interleaved, and the table shows medians (a shared
# machine is noisy). It also prints paired ratios: each round's hit and miss
# runs against the /healthz run seconds before them on the same server
# (healthz_nocache is that run for the misses).
#
#   bench/load.sh                   # 10 s per scenario, 2 s warm-up
#   DURATION=5 CONNS=32 bench/load.sh
#   BIN=/tmp/old/release/faan bench/load.sh   # another build, same scenarios
#
# Loopback only; every run is bounded by wrk's -d.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
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

# BIN=path/to/faan measures another build (e.g. an older commit) without building.
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=target/release/faan
fi

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
  taskset -c "$SERVER_CPU" "$BIN" serve --addr "127.0.0.1:$PORT" --admin-addr none --workers 1 \
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
run() { # name script path round
  local name=$1 script=$2 path=$3 k="$1.$4"
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"${WARMUP}s" -s "$script" "$URL$path" >/dev/null
  local t0 t1
  t0=$(cpu_ticks)
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNS" -d"${DURATION}s" --timeout 5s -s "$script" "$URL$path" \
    | tee "$OUT/$k.txt" >/dev/null
  t1=$(cpu_ticks)
  local line
  line=$(grep '^RESULT' "$OUT/$k.txt")
  RPS[$k]=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line")
  P50[$k]=$(sed -E 's/.* p50_us=([0-9]+).*/\1/' <<<"$line")
  P99[$k]=$(sed -E 's/.* p99_us=([0-9]+).*/\1/' <<<"$line")
  INFO[$name]="${INFO[$name]:-} $(sed -E 's/.* (s5xx=[0-9]+).*status_err=([0-9]+) codes=(.*)/\1 non2xx=\2 codes=\3/' <<<"$line")"
  # Server CPU time (user + system) per request, in microseconds.
  CPU[$k]=$(awk -v d=$((t1 - t0)) -v tck="$TCK" -v n="$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")" \
    'BEGIN { printf "%.1f", d / tck * 1e6 / n }')
  echo "  round $4 $name: $line cpu_us_per_req=${CPU[$k]}" >&2
}

# Median over the rounds of one figure of one scenario.
median() { # array-name scenario
  local -n arr=$1
  local r vals=()
  for r in $(seq "$ROUNDS"); do vals+=("${arr[$2.$r]}"); done
  printf '%s\n' "${vals[@]}" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "== faan load test: ${DURATION}s per scenario (+${WARMUP}s warm-up), $ROUNDS rounds (medians), $CONNS connections, server on CPU $SERVER_CPU (1 worker), wrk on CPU $CLIENT_CPU, log level $LOG_LEVEL" >&2
for round in $(seq "$ROUNDS"); do
  start_server 100000
  RSS_START=$(rss_kib)
  run healthz bench/get.lua /healthz "$round"
  run score_hit bench/score_hit.lua /v1/score "$round"
  run batch_100 bench/batch.lua /v1/score/batch "$round"
  # Fill the default-size cache with the whole corpus, then measure resident memory.
  run score_corpus_cached bench/score_cycle.lua /v1/score "$round"
  RSS_DEFAULT=$(rss_kib)
  stop_server

  start_server 0
  # The same ceiling measured again right before the misses, on their server,
  # for the paired ratio below.
  run healthz_nocache bench/get.lua /healthz "$round"
  run score_miss bench/score_cycle.lua /v1/score "$round"
  RSS_NOCACHE=$(rss_kib)
  stop_server
done
declare -A M_RPS M_P50 M_P99 M_CPU
for n in healthz healthz_nocache score_hit score_miss batch_100 score_corpus_cached; do
  M_RPS[$n]=$(median RPS "$n"); M_P50[$n]=$(median P50 "$n")
  M_P99[$n]=$(median P99 "$n"); M_CPU[$n]=$(median CPU "$n")
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }
echo
printf '%-22s %10s %9s %9s %8s %8s %11s  %s\n' scenario "req/s" "p50 µs" "p99 µs" "rps/hz" "p99/hz" "cpu µs/req" "statuses (every round)"
for n in healthz healthz_nocache score_hit score_miss batch_100 score_corpus_cached; do
  printf '%-22s %10.0f %9.0f %9.0f %8s %8s %11s  %s\n' "$n" "${M_RPS[$n]}" "${M_P50[$n]}" "${M_P99[$n]}" \
    "$(ratio "${M_RPS[$n]}" "${M_RPS[healthz]}")" "$(ratio "${M_P99[$n]}" "${M_P99[healthz]}")" "${M_CPU[$n]}" "${INFO[$n]}"
done
echo
echo "hands/s in batch_100: $(awk -v r="${M_RPS[batch_100]}" 'BEGIN { printf "%.0f", r * 100 }')"
echo "VmRSS (cache 100000, last round): ${RSS_START} KiB at start, ${RSS_DEFAULT} KiB after the runs above (corpus of $(wc -l <bench/corpus.jsonl) cached)"
echo "VmRSS (cache 0, last round): ${RSS_NOCACHE} KiB after score_miss"
echo
hit_ok=$(awk -v a="${M_RPS[score_hit]}" -v b="${M_RPS[healthz]}" 'BEGIN { print (a >= 0.9 * b) ? "PASS" : "FAIL" }')
miss_ok=$(awk -v a="${M_RPS[score_miss]}" -v b="${M_RPS[healthz]}" 'BEGIN { print (a >= 0.8 * b) ? "PASS" : "FAIL" }')
p99_ok=$(awk -v h="${M_P99[score_hit]}" -v m="${M_P99[score_miss]}" -v z="${M_P99[healthz]}" 'BEGIN { print (h <= 1.5 * z && m <= 1.5 * z) ? "PASS" : "FAIL" }')
order_ok=$(awk -v h="${M_RPS[score_hit]}" -v m="${M_RPS[score_miss]}" 'BEGIN { print (h >= m) ? "PASS" : "FAIL" }')
rss_ok=$(awk -v r="$RSS_DEFAULT" 'BEGIN { print (r < 64 * 1024) ? "PASS" : "FAIL" }')
# Paired ratios: each round's scenario against the /healthz run just before it
# on the same server (a shared machine drifts between rounds; within a round
# the two runs are seconds apart). Reported beside the medians above.
paired() { # scenario reference
  local r out=()
  for r in $(seq "$ROUNDS"); do out+=("$(ratio "${RPS[$1.$r]}" "${RPS[$2.$r]}")"); done
  printf '%s ' "${out[@]}"
  printf '(median %s)' "$(printf '%s\n' "${out[@]}" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
}
echo "paired rps ratios per round: hit/healthz $(paired score_hit healthz); miss/healthz $(paired score_miss healthz_nocache)"
echo
echo "target hit >= 90% of healthz rps: $hit_ok"
echo "target miss >= 80% of healthz rps: $miss_ok"
echo "target p99 of hit and miss <= 1.5x healthz: $p99_ok"
echo "target hit not slower than miss: $order_ok"
echo "target RSS < 64 MiB: $rss_ok"
