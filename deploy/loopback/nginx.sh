# Sourced by the loopback scripts: nginx with deploy/nginx/faan.conf in
# front of local instances, unprivileged, everything under one prefix.
#
#   start_nginx PREFIX NGINX_PORT PORT...   # one to three instance ports
#
# Sets NGX (the prefix actually used) and NGINX_PID, and adds stop_nginx to
# the caller's cleanup. As root, nginx runs as nobody (it needs no
# privilege on these ports) in a prefix it owns; should nobody be unable to
# reach the prefix (a checkout under a private home), it moves to /tmp.

start_nginx() {
  local prefix=$1 port=$2
  shift 2
  local ports=("$@")
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
  [ -x "$NGINX" ] || { echo "nginx is missing (apt-get install nginx)" >&2; return 1; }
  NGX=$prefix
  mkdir -p "$NGX"
  RUN_AS=()
  if [ "$(id -u)" = 0 ]; then
    RUN_AS=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
    chown 65534:65534 "$NGX"
    if ! "${RUN_AS[@]}" test -w "$NGX"; then
      rmdir "$NGX"
      NGX=$(mktemp -d /tmp/faan-loopback-nginx.XXXXXX)
      chown 65534:65534 "$NGX"
      echo "nobody cannot reach $prefix; nginx's prefix is $NGX"
    fi
  fi
  # The shipped configuration with this run's ports; the upstream servers
  # past the instances given are left out.
  local sed_args=(-e "s/listen 127\.0\.0\.1:8080;/listen 127.0.0.1:$port;/")
  local i
  for i in 1 2 3; do
    if [ "$i" -le "${#ports[@]}" ]; then
      sed_args+=(-e "s/127\.0\.0\.1:808$i /127.0.0.1:${ports[$((i - 1))]} /")
    else
      sed_args+=(-e "/server 127\.0\.0\.1:808$i /d")
    fi
  done
  sed "${sed_args[@]}" deploy/nginx/faan.conf > "$NGX/faan.conf"
  for p in "${ports[@]}" "$port"; do
    grep -q "127.0.0.1:$p" "$NGX/faan.conf" || { echo "port $p not set in faan.conf" >&2; return 1; }
  done
  cat > "$NGX/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $NGX/nginx.pid;
error_log $NGX/error.log warn;
events { worker_connections 4096; }
http {
    log_format faan '\$status upstream="\$upstream_addr" upstream_status="\$upstream_status" key="\$http_x_faan_key" rt=\$request_time';
    access_log $NGX/access.log faan;
    keepalive_requests 100000;
    client_body_temp_path $NGX/client_body;
    proxy_temp_path $NGX/proxy;
    fastcgi_temp_path $NGX/fastcgi;
    uwsgi_temp_path $NGX/uwsgi;
    scgi_temp_path $NGX/scgi;
    include $NGX/faan.conf;
}
CONF
  "${RUN_AS[@]}" "$NGINX" -t -q -p "$NGX" -c "$NGX/nginx.conf" -e "$NGX/error.log"
  "${RUN_AS[@]}" "$NGINX" -p "$NGX" -c "$NGX/nginx.conf" -e "$NGX/error.log" &
  NGINX_PID=$!
  for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && return 0
    kill -0 "$NGINX_PID" 2>/dev/null || { cat "$NGX/error.log" >&2; echo "nginx did not start" >&2; return 1; }
    sleep 0.1
  done
  echo "nginx did not listen on $port" >&2
  return 1
}

stop_nginx() {
  [ -n "${NGINX_PID:-}" ] || return 0
  kill -QUIT "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
  if [ -n "${NGX:-}" ] && [ -n "${1:-}" ] && [ "$NGX" != "$1" ]; then
    mkdir -p "$2"
    cp "$NGX"/*.log "$2/" 2>/dev/null || true
    rm -rf "$NGX"
  fi
}
