#!/bin/sh
# replay.sh BUILD — compiles each harness tests/fuzz/fuzz_NAME.c with the
# normal cc against BUILD/libclusterfit.a (adding the sanitizer flags when
# that library was built with them) and the main() of replay_main.c, then
# runs every seed in tests/fuzz/corpus/NAME/ and every saved crash in
# tests/fuzz/crashes/NAME/ (and tests/fuzz/crashes/* through all harnesses).
# A harness of a front end's code links that code too (fuzz_query: the
# server's server/query.c, through its header server/query.h).
# Each run has $FUZZ_REPLAY_TIMEOUT seconds (default 60; timeouts found by
# the fuzzer are kept too). Prints "fuzz-replay: N passed, N failed".
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
OUT=$BUILD/fuzz-replay
mkdir -p "$OUT"
CC=${CC:-cc}
LIMIT=${FUZZ_REPLAY_TIMEOUT:-60}
TO=""
command -v timeout >/dev/null 2>&1 && TO="timeout $LIMIT"
SANF=""
if nm "$BUILD/libclusterfit.a" 2>/dev/null | grep -q __asan_; then
    SANF="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
fi
PKG_CFLAGS=$(pkg-config --cflags jansson 2>/dev/null)
PKG_LIBS=$(pkg-config --libs sqlite3 jansson libmicrohttpd 2>/dev/null)
pass=0; fail=0
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c); name=${name#fuzz_}
    bin=$OUT/replay_$name
    extra=""
    case $name in query) extra="-Iserver server/query.c" ;; http) extra="-Iserver server/head.c server/multipart.c" ;; esac
    # shellcheck disable=SC2086
    if ! $CC -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -g -O1 $SANF \
        -Iinclude -Ilib -Itests/fuzz $PKG_CFLAGS -o "$bin" "$h" tests/fuzz/replay_main.c $extra \
        "$BUILD/libclusterfit.a" $PKG_LIBS -lcsv -lm -lpthread; then
        echo "FAIL: fuzz-replay: $name does not build"; fail=$((fail + 1)); continue
    fi
    for f in tests/fuzz/corpus/"$name"/* tests/fuzz/crashes/"$name"/* tests/fuzz/crashes/*; do
        [ -f "$f" ] || continue
        # shellcheck disable=SC2086
        if $TO "$bin" "$f" > "$OUT/last.log" 2>&1; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL: fuzz-replay $name $f"; tail -n 20 "$OUT/last.log"
        fi
    done
done
echo "fuzz-replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
