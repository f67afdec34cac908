#!/bin/sh
# soak.sh CLUSTERFIT [SECONDS] — `make soak` (issue 15): `clusterfit serve`
# under wrk for SECONDS (default 600) on loopback, 16 connections rotating
# over the API's routes (cached and uncached offerings, one offering,
# predict, vocab, healthz, plans, audits, bad requests), while 32 slow
# clients hold connections (tests/hostile/hclient.c). Samples the server's
# RSS every 10 s, counts statuses from the server's own log, and prints
# the figures for bench/RESULTS.md. Exits 1 on any 5xx or a dead server.
set -eu
CF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SECS=${2:-${SOAK_SECONDS:-600}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v wrk >/dev/null || { echo "soak: wrk is missing: apt-get install -y wrk" >&2; exit 1; }
T=$(mktemp -d)
pid=; slow=
trap 'kill $pid $slow 2>/dev/null || true; rm -rf "$T"' EXIT
cc -O2 -o "$T/hclient" "$ROOT/tests/hostile/hclient.c"
CLUSTERFIT_DB="$T/catalog.db" "$CF" serve --port 0 2> "$T/server.log" &
pid=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$T/server.log")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$T/server.log" >&2; exit 1; }
printf 'NCCL version 2.21.5+cuda12.4\n#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n 1048576 262144 float sum -1 100.0 10.49 19.66 0 100.0 10.49 19.66 0\n' > "$T/audit.txt"
cat > "$T/mix.lua" <<LUA
local n = 0
local audit = io.open("$T/audit.txt"):read("*a")
local reqs = {
  function() return wrk.format("GET", "/api/offerings?multinode=yes") end,
  function() return wrk.format("GET", "/api/offerings?max_price=" .. (n % 5000)) end,
  function() return wrk.format("GET", "/api/offerings/aws-p5-48xlarge") end,
  function() return wrk.format("GET", "/api/predict/collective?collective=all_reduce&bytes=" .. (n % 4096 + 1) .. "M&nodes=4&offering=aws-p5-48xlarge") end,
  function() return wrk.format("GET", "/api/vocab") end,
  function() return wrk.format("GET", "/healthz") end,
  function() return wrk.format("GET", "/api/offerings?network=%ff") end,
  function() return wrk.format("POST", "/api/audit", nil, audit) end,
  function() return wrk.format("GET", "/nope") end,
}
request = function()
  n = n + 1
  if n % 500 == 0 then
    return wrk.format("POST", "/api/plan", {["Content-Type"] = "application/json"}, '{"workload":"llama3-8b","top":3}')
  end
  return reqs[n % #reqs + 1]()
end
LUA
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
echo "soak: $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ), $SECS s, 16 wrk connections + 32 slow clients"
rss0=$(rss)
"$T/hclient" slow "$port" 127.0.0.3 32 "$SECS" > "$T/slow" &
slow=$!
wrk -t2 -c16 -d"${SECS}s" -s "$T/mix.lua" "http://127.0.0.1:$port/" > "$T/wrk.out" &
w=$!
samples="$rss0"
while kill -0 "$w" 2>/dev/null; do
    sleep 10
    kill -0 "$pid" 2>/dev/null || break
    samples="$samples $(rss)"
done
wait "$w" || true
wait "$slow" || true; slow=
alive=yes; kill -0 "$pid" 2>/dev/null || alive=no
rss1=$(rss 2>/dev/null || echo -)
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
cat "$T/wrk.out"
counts=$(awk '/ closed \(/ {c["closed"]++; next} $5 ~ /^[0-9][0-9][0-9]$/ {c[$5]++} END {for (k in c) printf "%s: %d\n", k, c[k]}' "$T/server.log" | sort | tr '\n' ' ')
fivexx=$(awk '/ closed \(/ {next} $5 ~ /^5/ {n++} END {print n + 0}' "$T/server.log")
max=$(echo "$samples" | tr ' ' '\n' | sort -n | tail -1)
echo "soak: requests logged $(grep -c '^[0-9-]*T' "$T/server.log"); statuses $counts 5xx $fivexx; server alive $alive; slow clients: $(cat "$T/slow")"
echo "soak: RSS start ${rss0} kB, end ${rss1} kB, max ${max} kB; samples every 10 s: $samples"
[ "$alive" = yes ] && [ "$fivexx" = 0 ]
