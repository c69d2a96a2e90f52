#!/usr/bin/env bash
# Two faan instances on one PostgreSQL, behind nginx (deploy/nginx/faan.conf),
# on 127.0.0.1: tables made and changed through nginx, event streams opened
# on both instances (deploy/loopback/tables.py). Passes when every stream's
# versions rise to the last and each change reaches every stream within a
# second.
#
#   deploy/loopback/tables.sh                       # target/debug/faan, the check
#   deploy/loopback/tables.sh target/release/faan   # or FAAN_BIN=...
#   LOAD="--tables 200 --streams 4 --interval-ms 100 --seconds 60" \
#     SERVE_ARGS="--max-connections 512" \
#     deploy/loopback/tables.sh target/release/faan  # the load figures
#       (400 streams an instance need more than the 64 connections a
#       worker takes by default)
#   STORE=sqlite ... deploy/loopback/tables.sh   # one instance on SQLite instead
#
# Needs nginx and postgresql (Debian's packages) and python3. PostgreSQL
# refuses root: as root its tools run as the postgres user. Loopback only;
# a throwaway cluster under target/loopback-tables/, stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/loopback/nginx.sh

BIN=${1:-${FAAN_BIN:-target/debug/faan}}
[ -x "$BIN" ] || { echo "tables.sh: no faan binary at $BIN (cargo build first)" >&2; exit 1; }
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] || { echo "tables.sh: postgresql is missing (apt-get install postgresql)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "tables.sh: python3 is missing" >&2; exit 1; }

T0=$(date +%s%N)
WORK=$(pwd)/target/loopback-tables
rm -rf "$WORK"
mkdir -p "$WORK/logs"
read -r NGINX_PORT PG_PORT P1 P2 < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(4)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')

if [ "${STORE:-postgres}" = sqlite ]; then
  INSTANCES=("$P1")
  DB="sqlite:$WORK/tables.db"
  PG=
else
  INSTANCES=("$P1" "$P2")
  # The cluster's directory must be reachable by postgres when root runs
  # this from a private home: then it lives in /tmp.
  PG=$WORK/pg
  AS_PG=()
  if [ "$(id -u)" = 0 ]; then
    AS_PG=(runuser -u postgres --)
    mkdir -p "$PG"
    chown postgres:postgres "$PG"
    if ! "${AS_PG[@]}" test -w "$PG"; then
      rmdir "$PG"
      PG=$(mktemp -d /tmp/faan-loopback-pg.XXXXXX)
      chown postgres:postgres "$PG"
    fi
  else
    mkdir -p "$PG"
  fi
  "${AS_PG[@]}" "$PGBIN/initdb" -D "$PG/data" -A trust -U faan --no-sync >"$WORK/logs/initdb.log"
  "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PG/data" -l "$PG/pg.log" -w \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG -c max_connections=100" start >/dev/null
  DB="postgres://faan@127.0.0.1:$PG_PORT/postgres"
fi

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  stop_nginx "$WORK/nginx" "$WORK/logs"
  [ -n "$PG" ] || return 0
  "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PG/data" -m fast -w stop >/dev/null 2>&1 || true
  cp "$PG/pg.log" "$WORK/logs/" 2>/dev/null || true
  [ "$PG" = "$WORK/pg" ] || rm -rf "$PG"
}
trap cleanup EXIT

# Each instance as a pod would run it; new tables through nginx all come
# from one address, so the per-address rate is lifted for the load.
for port in "${INSTANCES[@]}"; do
  FAAN_STORE="$DB" "$BIN" serve --addr "127.0.0.1:$port" --admin-addr none \
    --workers 2 --log-level warn --tables-per-hour 100000 --events-max 4096 \
    ${SERVE_ARGS:-} >"$WORK/logs/faan-$port.log" 2>&1 &
  PIDS+=($!)
done
for port in "${INSTANCES[@]}"; do
  for _ in $(seq 300); do
    "$BIN" healthcheck --addr "127.0.0.1:$port" 2>/dev/null && break
    sleep 0.1
  done
  "$BIN" healthcheck --addr "127.0.0.1:$port" || { cat "$WORK/logs/faan-$port.log" >&2; exit 1; }
done
start_nginx "$WORK/nginx" "$NGINX_PORT" "${INSTANCES[@]}"

PIDLIST=$(IFS=,; echo "${PIDS[*]}")
if [ -n "${LOAD:-}" ]; then
  # shellcheck disable=SC2086
  python3 deploy/loopback/tables.py --nginx-port "$NGINX_PORT" --ports "$(IFS=,; echo "${INSTANCES[*]}")" \
    --pids "$PIDLIST" $LOAD | tee "$WORK/figures.json"
else
  python3 deploy/loopback/tables.py --nginx-port "$NGINX_PORT" --ports "$(IFS=,; echo "${INSTANCES[*]}")" \
    --pids "$PIDLIST" --tables 3 --streams 3 --interval-ms 100 --seconds 5 --check
fi
MS=$(( ($(date +%s%N) - T0) / 1000000 ))
printf 'tables.sh: done in %d.%d s\n' $((MS / 1000)) $((MS % 1000 / 100))
