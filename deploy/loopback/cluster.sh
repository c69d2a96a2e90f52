#!/usr/bin/env bash
# Three faan instances behind nginx (deploy/nginx/faan.conf) on 127.0.0.1,
# under a bounded load (deploy/loopback/cluster.py): every answer checked
# against the CLI's, keyed and unkeyed cache hit rates, a rolling restart
# with zero failed requests, then a SIGKILL with its failures counted.
#
#   deploy/loopback/cluster.sh                        # target/debug/faan
#   deploy/loopback/cluster.sh target/release/faan    # or FAAN_BIN=...
#   THROUGHPUT=10 deploy/loopback/cluster.sh target/release/faan
#       # then wrk for 10 s through nginx (three instances) and for 10 s
#       # straight at one instance, and prints both rates
#
# Needs nginx (Debian's package), python3, and wrk for THROUGHPUT. A missing
# tool is an error. nginx runs unprivileged (as nobody when started by
# root) with its prefix, configuration and logs in target/loopback/nginx/.
# Loopback only; the load is bounded in time (cluster.py: 60 s at most).
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/loopback/nginx.sh

BIN=${1:-${FAAN_BIN:-target/debug/faan}}
THROUGHPUT=${THROUGHPUT:-0}
[ -x "$BIN" ] || { echo "cluster.sh: no faan binary at $BIN (cargo build first)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "cluster.sh: python3 is missing" >&2; exit 1; }
if [ "$THROUGHPUT" != 0 ]; then
  command -v wrk >/dev/null || { echo "cluster.sh: wrk is missing (apt-get install wrk)" >&2; exit 1; }
fi

T0=$(date +%s%N)
WORK=$(pwd)/target/loopback
rm -rf "$WORK"
mkdir -p "$WORK/logs"

# Four free loopback ports: nginx and the three instances.
read -r NGINX_PORT P1 P2 P3 < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(4)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')

FAAN_PIDS=""
cleanup() {
  for p in $FAAN_PIDS; do kill -TERM "$p" 2>/dev/null || true; done
  stop_nginx "$WORK/nginx" "$WORK/logs"
}
trap cleanup EXIT
start_nginx "$WORK/nginx" "$NGINX_PORT" "$P1" "$P2" "$P3"

LEAVE=()
[ "$THROUGHPUT" != 0 ] && LEAVE=(--leave-running)
python3 deploy/loopback/cluster.py --bin "$BIN" --corpus bench/corpus.jsonl \
  --nginx-port "$NGINX_PORT" --ports "$P1,$P2,$P3" --logdir "$WORK/logs" \
  --access-log "$NGX/access.log" --summary "$WORK/summary.json" "${LEAVE[@]}"

if [ "$THROUGHPUT" != 0 ]; then
  FAAN_PIDS=$(cat "$WORK/logs/pids")
  NGINX_PIDS="$NGINX_PID $(cat "/proc/$NGINX_PID/task/$NGINX_PID/children")"
  TCK=$(getconf CLK_TCK)
  ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo $t; }
  rate() { # label url
    local n0 f0 line n1 f1 reqs
    n0=$(ticks $NGINX_PIDS); f0=$(ticks $FAAN_PIDS)
    line=$(wrk -t2 -c32 -d"${THROUGHPUT}s" --timeout 5s -s deploy/loopback/score_keyed.lua "$2/v1/score" | grep '^RESULT')
    n1=$(ticks $NGINX_PIDS); f1=$(ticks $FAAN_PIDS)
    reqs=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
    printf '%s: %s req/s; CPU per request: nginx %s us, faan %s us\n    %s\n' "$1" \
      "$(sed -E 's/.* rps=([0-9]+).*/\1/' <<<"$line")" \
      $(( (n1 - n0) * 1000000 / TCK / reqs )) $(( (f1 - f0) * 1000000 / TCK / reqs )) "$line"
  }
  # A short pass first, so that every instance has its share cached.
  wrk -t1 -c8 -d2s -s deploy/loopback/score_keyed.lua "http://127.0.0.1:$NGINX_PORT/v1/score" >/dev/null
  wrk -t1 -c8 -d2s -s deploy/loopback/score_keyed.lua "http://127.0.0.1:$P1/v1/score" >/dev/null
  for round in 1 2 3; do
    rate "round $round, 3 instances through nginx" "http://127.0.0.1:$NGINX_PORT"
    rate "round $round, 1 instance directly      " "http://127.0.0.1:$P1"
  done
fi

MS=$(( ($(date +%s%N) - T0) / 1000000 ))
printf 'cluster.sh: PASS in %d.%d s (figures: %s)\n' $((MS / 1000)) $((MS % 1000 / 100)) "$WORK/summary.json"
