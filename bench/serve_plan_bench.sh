#!/bin/sh
# serve_plan_bench.sh BUILD — issue 25: `plan` for deepseek-v3-serve over
# every offering of the shipped catalog in under 2 s on one core. Builds
# bench/serve_plan_bench.c against BUILD/libclusterfit.a, pins it to one
# core (taskset, when present) and prints the seconds. Exit 1 if over 2 s.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p "$BUILD/bench"
LIBS="$(pkg-config --libs sqlite3 jansson libmicrohttpd 2>/dev/null) -lcsv -lm -lpthread"
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude -o "$BUILD/bench/serve_plan_bench" \
    bench/serve_plan_bench.c "$BUILD/libclusterfit.a" $LIBS
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PIN=""
command -v taskset > /dev/null 2>&1 && PIN="taskset -c 0"
echo "serve plan bench: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//'), $(date -u +%Y-%m-%d)"
for wl in ${SERVE_BENCH_WORKLOADS:-deepseek-v3-serve llama3-405b-serve qwen3-235b-serve}; do
    $PIN "$BUILD/bench/serve_plan_bench" "$TMP/catalog.db" "$wl" 5
done
