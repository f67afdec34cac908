#!/bin/sh
# plan_vs_ref_bench.sh BUILD — issue 20's search-cost target, side by side
# in one run on one core: the llama3-405b plan and the deepseek-v3 plan
# over the whole catalog at this tree, against the llama3-405b plan at the
# reference commit REF (default 8053240, before the finer node ladder and
# batch growth). Builds REF's library and its bench/plan_bench.c in a
# temporary export (git archive), then runs the three in turn, best of 5
# each, alternating (so both see the same machine load), and prints each
# time and its ratio to the reference. Needs git and the commit; skipped
# (exit 0) with a message without them. Exit 1 when either plan is more
# than RATIO_MAX (default 1.0) times the reference.
set -eu
BUILD=${1:-build}
REF=${PLAN_BENCH_REF:-8053240}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if ! git rev-parse -q --verify "$REF^{commit}" > /dev/null 2>&1; then
    echo "plan vs $REF: skipped (commit $REF not in this clone)"; exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LIBS="$(pkg-config --libs sqlite3 jansson libmicrohttpd 2>/dev/null) -lcsv -lm -lpthread"
mkdir -p "$TMP/ref" "$BUILD/bench"
git archive "$REF" | tar -x -C "$TMP/ref"
echo "plan vs $REF: building the reference library ..."
make -s -C "$TMP/ref" -j2 build/libclusterfit.a > "$TMP/ref.log" 2>&1 || { cat "$TMP/ref.log"; exit 1; }
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$TMP/ref/include" -o "$TMP/ref_bench" \
    "$TMP/ref/bench/plan_bench.c" "$TMP/ref/build/libclusterfit.a" $LIBS
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude -o "$BUILD/bench/plan_bench" \
    bench/plan_bench.c "$BUILD/libclusterfit.a" $LIBS
PIN=""
command -v taskset > /dev/null 2>&1 && PIN="taskset -c 0"
# The best of 5 of one run: plan_bench prints "plan W: S s (best of 5), ...".
best() { $PIN "$@" 2>&1 | sed -n 's/^plan [^:]*: \([0-9.]*\) s (best.*/\1/p' | head -1; }
r=999; a=999; d=999
for i in 1 2 3; do
    x=$(best "$TMP/ref_bench" "$TMP/ref.db" llama3-405b 5); r=$(awk -v a="$r" -v b="$x" 'BEGIN{print (b<a)?b:a}')
    x=$(best "$BUILD/bench/plan_bench" "$TMP/now.db" llama3-405b 5); a=$(awk -v a="$a" -v b="$x" 'BEGIN{print (b<a)?b:a}')
    x=$(best "$BUILD/bench/plan_bench" "$TMP/now.db" deepseek-v3 5); d=$(awk -v a="$d" -v b="$x" 'BEGIN{print (b<a)?b:a}')
done
echo "plan vs $REF on one core ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')):"
awk -v r="$r" -v a="$a" -v d="$d" 'BEGIN {
    printf "  llama3-405b at %s   %.3f s\n", "REF", r;
    printf "  llama3-405b now        %.3f s  (%.2fx the reference)\n", a, a / r;
    printf "  deepseek-v3 now        %.3f s  (%.2fx the reference 405B plan)\n", d, d / r }' | sed "s/REF/$REF/"
awk -v r="$r" -v a="$a" -v d="$d" -v m="${RATIO_MAX:-1.0}" 'BEGIN { exit !(a / r <= m && d / r <= m) }' || {
    echo "plan vs $REF: over ${RATIO_MAX:-1.0}x the reference"; exit 1; }
