#!/bin/sh
# run.sh CLUSTERFIT — runs every tests/cli/*.t case against the tool, each in
# a fresh temporary catalog (CLUSTERFIT_DB) and a fixed "today"
# (CLUSTERFIT_NOW). Prints "cli: N passed, N failed". CLI_ONLY=GLOB runs only
# the cases whose name matches (CLI_ONLY='plan-*' sh tests/cli/run.sh ...).
set -u
CF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${CLUSTERFIT_SHARED:-$ROOT/tests/data/shared}
export CF ROOT SHARED
pass=0; fail=0
for t in "$ROOT"/tests/cli/*.t; do
    [ -e "$t" ] || continue
    CASE=$(basename "$t" .t)
    # shellcheck disable=SC2254
    case "$CASE" in ${CLI_ONLY:-*}) ;; *) continue;; esac
    T=$(mktemp -d)
    export CASE T
    if (cd "$ROOT" && CLUSTERFIT_DB="$T/catalog.db" CLUSTERFIT_NOW=2026-12-02 HOME="$T" \
        XDG_DATA_HOME="$T/xdg" sh -c ". tests/cli/lib.sh; . '$t'"); then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: cli/$CASE"
    fi
    rm -rf "$T"
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
