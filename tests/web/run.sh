#!/bin/sh
# run.sh CLUSTERFIT — the web tests: starts `clusterfit serve` on a free
# loopback port with a temporary catalog, runs the API tests (api.test.mjs),
# the Spanish of every generated sentence (gen-es.test.mjs, no browser),
# the browser test (browser.mjs, headless Chromium through playwright-core)
# and the malformed-request fuzz (fuzz.mjs), stops the server with SIGTERM
# and checks it stopped cleanly. Prints "web: N passed, N failed".
set -u
CF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${CLUSTERFIT_SHARED:-$ROOT/tests/data/shared}
SHARED=$(cd "$SHARED" && pwd)
WEB=$ROOT/tests/web

summary() { echo "web: $1 passed, $2 failed"; }
# Debian's packages when a command is missing (a nodejs from elsewhere may
# bring its own npm, which dpkg does not know about).
if ! command -v node >/dev/null || ! command -v npm >/dev/null || [ ! -x /usr/bin/chromium ]; then
    if ! sh "$ROOT/tools/deps.sh" web; then summary 0 1; exit 1; fi
fi
if [ ! -d "$WEB/node_modules/playwright-core" ]; then
    (cd "$WEB" && npm install --no-audit --no-fund --loglevel=error) || { summary 0 1; exit 1; }
fi

T=$(mktemp -d)
# Today: not before the newest date the shipped rows carry (the OCI price
# snapshot's read date, 2026-12-02), since every price's age must be >= 0.
export CLUSTERFIT_DB="$T/catalog.db" CLUSTERFIT_NOW=2026-12-02 HOME="$T" XDG_DATA_HOME="$T/xdg"
"$CF" serve --bind 127.0.0.1 --port 0 2> "$T/server.log" &
pid=$!
port=""
i=0
while [ $i -lt 100 ] && [ -z "$port" ]; do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$T/server.log")
    [ -n "$port" ] || { kill -0 "$pid" 2>/dev/null || break; sleep 0.1; }
    i=$((i + 1))
done
if [ -z "$port" ]; then
    echo "web: the server did not start:"; cat "$T/server.log"
    kill "$pid" 2>/dev/null; rm -rf "$T"; summary 0 1; exit 1
fi

export CF SHARED CF_BASE="http://127.0.0.1:$port" CF_PID=$pid
export CF_SCREENSHOT="$(dirname "$CF")/web-screenshot.png"
pass=0; fail=0
for t in api.test.mjs api-serve.test.mjs api-errors.test.mjs gen-es.test.mjs browser.mjs trial-es.mjs fuzz.mjs; do
    echo "-- $t"
    node "$WEB/$t" > "$T/$t.out" 2>&1
    rc=$?
    grep -v '^RESULT ' "$T/$t.out"
    set -- $(sed -n 's/^RESULT //p' "$T/$t.out") 
    if [ $# -ge 2 ]; then
        pass=$((pass + $1)); fail=$((fail + $2))
        [ "$rc" -eq 0 ] || [ "$2" -gt 0 ] || fail=$((fail + 1))
    else
        echo "FAIL $t ended without a result (exit $rc)"; fail=$((fail + 1))
    fi
done

# A clean stop: SIGTERM ends the server with exit 0 and its goodbye line.
kill -TERM "$pid"
wait "$pid"; rc=$?
if [ "$rc" -eq 0 ] && grep -q "clusterfit serve: stopped" "$T/server.log"; then
    pass=$((pass + 1)); echo "PASS SIGTERM stops the server cleanly"
else
    fail=$((fail + 1)); echo "FAIL SIGTERM: exit $rc"; tail -5 "$T/server.log"
fi
# One log line per request: the fuzz and tests made hundreds.
n=$(grep -c '^20[0-9-]*T[0-9:]*Z ' "$T/server.log")
if [ "$n" -gt 100 ]; then
    pass=$((pass + 1)); echo "PASS the server logged $n requests, one line each"
else
    fail=$((fail + 1)); echo "FAIL the server logged only $n request lines"
fi
rm -rf "$T"
summary "$pass" "$fail"
[ "$fail" -eq 0 ]
