#!/bin/sh
# run.sh — builds each libFuzzer harness tests/fuzz/fuzz_NAME.c with clang
# (-fsanitize=fuzzer plus address and undefined) against the library sources
# and the embedded data table (BUILD/gen/data_embed.c, made by the Makefile's
# own rule, so that cf__embedded_files is defined), then fuzzes each, one at a
# time in one process, for $FUZZ_SECONDS (default 600) from the seeds in
# tests/fuzz/corpus/NAME, working in build-fuzz/. The library objects are
# compiled once into build-fuzz/obj/ (again only when a source or header is
# newer). Crashes, leaks and timeouts land in build-fuzz/crashes/NAME/: fix
# them, then copy each into tests/fuzz/crashes/NAME/ so `make test` replays
# it. Each fuzzer's full log is build-fuzz/fuzz_NAME.log; the summary line
# "fuzz: NAME: S s, N execs, E exec/s" comes from libFuzzer's final stats.
# tests/fuzz/NAME.dict, when present, is libFuzzer's -dict (edge numbers and
# vocabulary words mutations rarely reach). FUZZ_ONLY=name limits the run to one harness; FUZZ_BUILD_ONLY=1 builds
# every harness and fuzzes none.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SECS=${FUZZ_SECONDS:-600}
OUT=build-fuzz
CC=${FUZZ_CC:-clang}
mkdir -p "$OUT/obj"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFL="-std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 $SAN -Iinclude -Ilib -Itests/fuzz $(pkg-config --cflags jansson)"
LIBS="$(pkg-config --libs sqlite3 jansson) -lcsv -lm -lpthread"

# The embedded data table (base/embed.c; catalog/db.c, model/gpus.c and
# model/workload.c read it), generated exactly as the normal build does.
make -s BUILD="$OUT" "$OUT/gen/data_embed.c"

OBJS=""
newest_header=$(ls -t include/clusterfit/*.h lib/*/*.h | head -n 1)
for c in lib/*/*.c "$OUT/gen/data_embed.c"; do
    o=$OUT/obj/$(echo "${c#lib/}" | tr / _ | sed "s/\.c$//").o
    if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then
        # shellcheck disable=SC2086
        $CC $CFL -fsanitize=fuzzer-no-link -c "$c" -o "$o"
    fi
    OBJS="$OBJS $o"
done

for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c); name=${name#fuzz_}
    [ -n "${FUZZ_ONLY:-}" ] && [ "$FUZZ_ONLY" != "$name" ] && continue
    # A front end's code the harness fuzzes is linked in with its header:
    # fuzz_query takes the server's parameter parser, server/query.c.
    extra=""
    case $name in query) extra="-Iserver server/query.c" ;; http) extra="-Iserver server/head.c server/multipart.c" ;; esac
    # shellcheck disable=SC2086
    $CC $CFL -fsanitize=fuzzer -o "$OUT/fuzz_$name" "$h" $extra $OBJS $LIBS
    [ -n "${FUZZ_BUILD_ONLY:-}" ] && { echo "fuzz: built $OUT/fuzz_$name"; continue; }
    mkdir -p "$OUT/corpus/$name" "$OUT/crashes/$name"
    cp -n tests/fuzz/corpus/"$name"/* "$OUT/corpus/$name/" 2>/dev/null || true
    dict=""
    [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
    echo "fuzz: $name for ${SECS}s"
    # shellcheck disable=SC2086
    "$OUT/fuzz_$name" $dict -max_total_time="$SECS" -max_len=65536 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$OUT/crashes/$name/" "$OUT/corpus/$name" > "$OUT/fuzz_$name.log" 2>&1 || true
    grep -E "^Done|==ERROR|^SUMMARY" "$OUT/fuzz_$name.log" || tail -n 3 "$OUT/fuzz_$name.log"
    awk -v n="$name" '/stat::number_of_executed_units/ {e=$2} /stat::average_exec_per_sec/ {r=$2}
        /^Done [0-9]+ runs in/ {s=$5} END {printf "fuzz: %s: %s s, %s execs, %s exec/s\n", n, s, e, r}' \
        "$OUT/fuzz_$name.log"
done
