#!/bin/sh
# run.sh — builds each libFuzzer harness with clang -fsanitize=fuzzer,address
# (plus undefined) over the library sources the audit uses, and fuzzes each
# for $FUZZ_SECONDS (default 600) from the seeds in tests/fuzz/corpus/NAME,
# working in build-fuzz/. Crashes land in build-fuzz/crashes/NAME/: fix
# them, then copy each into tests/fuzz/crashes/NAME/ so `make test` replays it.
# FUZZ_ONLY=name limits the run to one harness.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SECS=${FUZZ_SECONDS:-600}
OUT=build-fuzz
mkdir -p "$OUT"
SRC=$(ls lib/*.c)
CFL="-std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Ilib -Itests/fuzz $(pkg-config --cflags jansson)"
LIBS="$(pkg-config --libs sqlite3 jansson) -lcsv -lm -lpthread"
# the embedded data table status.c refers to (as the Makefile generates it)
# shellcheck disable=SC2046
sh tools/embed.sh cf__embedded_files cf__embedded_file $(ls data/*.csv data/workloads/*.json 2>/dev/null) > "$OUT/data_embed.c"
SRC="$SRC $OUT/data_embed.c"
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c); name=${name#fuzz_}
    [ -n "${FUZZ_ONLY:-}" ] && [ "$FUZZ_ONLY" != "$name" ] && continue
    # shellcheck disable=SC2086
    clang $CFL -o "$OUT/fuzz_$name" "$h" $SRC $LIBS
    mkdir -p "$OUT/corpus/$name" "$OUT/crashes/$name"
    cp -n tests/fuzz/corpus/"$name"/* "$OUT/corpus/$name/" 2>/dev/null || true
    echo "fuzz: $name for ${SECS}s"
    "$OUT/fuzz_$name" -max_total_time="$SECS" -max_len=65536 -timeout=10 \
        -artifact_prefix="$OUT/crashes/$name/" "$OUT/corpus/$name" > "$OUT/fuzz_$name.log" 2>&1 || true
    grep -E "^Done|ERROR|SUMMARY" "$OUT/fuzz_$name.log" || tail -n 3 "$OUT/fuzz_$name.log"
done
