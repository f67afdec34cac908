#!/bin/sh
# tests/install/run.sh [BUILD] — `make install` into a temporary DESTDIR
# (PREFIX /usr/local), then what a user of the library does: build
# tests/install/hello.c with `pkg-config --cflags --libs clusterfit` alone
# (PKG_CONFIG_PATH into the DESTDIR, PKG_CONFIG_SYSROOT_DIR so the .pc's
# /usr/local paths land there), run it, and compare what it prints with the
# source tree (VERSION, data/offerings.csv, the nccl-tests busbw factor);
# the same linked against the static library; the tool, man page and
# soname links; then `make uninstall` must leave no file behind. Prints
# "install: N passed, N failed" like the other runners.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
cd "$ROOT" || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "install: $*"; fail=$((fail + 1)); }
D=$(mktemp -d); W=$(mktemp -d)
trap 'rm -rf "$D" "$W"' EXIT
P=/usr/local
ver=$(cat VERSION); major=${ver%%.*}
if ! make -s BUILD="$BUILD" DESTDIR="$D" PREFIX=$P install > "$W/log" 2>&1; then
    cat "$W/log"; echo "install: 0 passed, 1 failed"; exit 1
fi
for f in bin/clusterfit lib/libclusterfit.so.$ver lib/libclusterfit.a include/clusterfit/clusterfit.h \
         include/clusterfit/version.h include/clusterfit/release.h share/man/man1/clusterfit.1 \
         lib/pkgconfig/clusterfit.pc share/doc/clusterfit/LICENSE share/doc/clusterfit/CHANGELOG.md; do
    if [ -f "$D$P/$f" ]; then ok; else bad "missing $P/$f"; fi
done
[ "$(readlink "$D$P/lib/libclusterfit.so.$major")" = "libclusterfit.so.$ver" ] && ok || bad "libclusterfit.so.$major does not link to libclusterfit.so.$ver"
[ "$(readlink "$D$P/lib/libclusterfit.so")" = "libclusterfit.so.$major" ] && ok || bad "libclusterfit.so does not link to libclusterfit.so.$major"
so=$(readelf -d "$D$P/lib/libclusterfit.so.$ver" | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
[ "$so" = "libclusterfit.so.$major" ] && ok || bad "soname '$so', expected libclusterfit.so.$major"
n=$(ls include/clusterfit/*.h | wc -l); m=$(ls "$D$P/include/clusterfit/"*.h | wc -l)
[ "$n" = "$m" ] && ok || bad "$m headers installed of $n"
grep -q "^\.TH CLUSTERFIT 1 .*clusterfit $ver" "$D$P/share/man/man1/clusterfit.1" && ok || bad "man page not of $ver"
"$D$P/bin/clusterfit" --version > "$W/v" 2>&1 && [ "$(head -n 1 "$W/v")" = "clusterfit $ver" ] && ok ||
    bad "installed clusterfit --version: $(head -n 1 "$W/v")"
# The program, with pkg-config alone.
export PKG_CONFIG_PATH="$D$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
[ "$(pkg-config --modversion clusterfit)" = "$ver" ] && ok || bad "pkg-config --modversion: $(pkg-config --modversion clusterfit)"
# shellcheck disable=SC2046
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$W/hello" tests/install/hello.c \
       $(pkg-config --cflags --libs clusterfit) -Wl,-rpath,"$D$P/lib" 2> "$W/cc"; then ok
else cat "$W/cc"; bad "hello.c does not build against the installed library"; fi
rows=$(($(grep -c '' data/offerings.csv) - 1))
factor=$(awk 'BEGIN { printf "%.6f", 2 * (8 - 1) / 8 }')
consts=$("$D$P/bin/clusterfit" version --format json | jq -r .model_constants)
commit=$("$D$P/bin/clusterfit" version --format json | jq -r .commit)
check_out() { # LABEL OUTPUT-FILE
    for want in "version $ver" "commit $commit" "constants $consts" "busbw_factor $factor" \
                "builtin_rows $rows" "catalog_rows $rows"; do
        grep -qxF "$want" "$2" && ok || bad "$1: no line '$want' in: $(tr '\n' ' ' < "$2")"
    done
}
if [ -x "$W/hello" ] && "$W/hello" > "$W/out" 2>&1; then
    check_out "hello (shared)" "$W/out"
    ldd "$W/hello" | grep -q "$D$P/lib/libclusterfit.so.$major" && ok || bad "hello does not load the installed libclusterfit.so.$major"
else bad "hello failed: $(cat "$W/out" 2>/dev/null)"; fi
# The static library: its private dependencies from --static.
# shellcheck disable=SC2046
if ${CC:-cc} -std=c11 -o "$W/hello-static" tests/install/hello.c $(pkg-config --cflags clusterfit) \
       "$D$P/lib/libclusterfit.a" $(pkg-config --static --libs clusterfit | sed 's/-lclusterfit//') 2> "$W/cc" &&
   "$W/hello-static" > "$W/out-static" 2>&1; then
    check_out "hello (static)" "$W/out-static"
    ldd "$W/hello-static" | grep -q libclusterfit && bad "hello-static loads libclusterfit.so" || ok
else cat "$W/cc"; bad "hello.c does not build or run against libclusterfit.a"; fi
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
# Uninstall: no file left, clusterfit's own directories gone.
make -s BUILD="$BUILD" DESTDIR="$D" PREFIX=$P uninstall > "$W/log" 2>&1 || { cat "$W/log"; bad "make uninstall failed"; }
left=$(find "$D" ! -type d)
[ -z "$left" ] && ok || bad "uninstall left: $left"
[ ! -d "$D$P/include/clusterfit" ] && [ ! -d "$D$P/share/doc/clusterfit" ] && ok || bad "uninstall left clusterfit's directories"
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
