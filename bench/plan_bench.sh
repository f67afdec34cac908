#!/bin/sh
# plan_bench.sh BUILD — DESIGN §7: `plan` for llama3-405b over every
# multi-node offering of the shipped catalog, node counts up to 16,384 GPUs,
# in under 1 s on one core. Builds bench/plan_bench.c against
# BUILD/libclusterfit.a, pins it to one core (taskset, when present) and
# prints seconds and layouts evaluated per second. Exit 1 if over 1 s.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p "$BUILD/bench"
LIBS="$(pkg-config --libs sqlite3 jansson libmicrohttpd 2>/dev/null) -lcsv -lm -lpthread"
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude -o "$BUILD/bench/plan_bench" \
    bench/plan_bench.c "$BUILD/libclusterfit.a" $LIBS
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PIN=""
command -v taskset > /dev/null 2>&1 && PIN="taskset -c 0"
echo "plan bench: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//'), $(date -u +%Y-%m-%d)"
$PIN "$BUILD/bench/plan_bench" "$TMP/catalog.db" "${PLAN_BENCH_WORKLOAD:-llama3-405b}" 5
