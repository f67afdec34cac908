#!/bin/sh
# serve_bench.sh [BUILD] [SECONDS] — requests per second of `clusterfit serve`
# for GET /api/offerings?multinode=yes with wrk, 4 connections on loopback
# (DESIGN §7: target >= 10k req/s; replies are cached until the catalog
# changes). The server logs every request to a file as it does in use.
# Prints wrk's report and a line "serve: N req/s (target >= 10000)"; exits 1
# below the target.
set -eu
BUILD=${1:-build}
SECS=${2:-10}
CF=$(cd "$BUILD" && pwd)/clusterfit
if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2
    else echo "serve_bench: wrk is missing: sudo apt-get install -y wrk" >&2; exit 1; fi
fi
T=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$T"' EXIT
CLUSTERFIT_DB="$T/catalog.db" "$CF" serve --port 0 2> "$T/server.log" &
pid=$!
port=""
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$T/server.log")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$T/server.log" >&2; exit 1; }
URL="http://127.0.0.1:$port/api/offerings?multinode=yes"
bytes=$(curl -sf "$URL" | wc -c)
echo "serve_bench: $(nproc) CPUs, $(date -u +%Y-%m-%d), reply $bytes bytes, $SECS s"
wrk -t2 -c4 -d"${SECS}s" --latency "$URL" | tee "$T/wrk.out"
rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$T/wrk.out")
echo "serve: $rps req/s (target >= 10000)"
awk -v r="$rps" 'BEGIN { exit !(r >= 10000) }'
