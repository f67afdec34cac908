#!/bin/sh
# build-without-pkg-config.sh — builds a clean tree with PKG_CONFIG=false (what
# a fresh machine sees when make parses the Makefile before deps has installed
# the -dev packages) and checks that the tool links and runs: the Makefile's
# fallback -l flags must be enough. Prints "N passed, N failed" like the
# other runners.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=build-nopc
cd "$ROOT" || exit 1
rm -rf "$B"
if ! make -s BUILD=$B PKG_CONFIG=false CFLAGS="-O0" $B/clusterfit $B/libclusterfit.so > $B.log 2>&1; then
    tail -20 $B.log >&2
    echo "build-without-pkg-config: 0 passed, 1 failed"
    exit 1
fi
# A private catalog: the user's default one may belong to another version.
if ! CLUSTERFIT_DB="$ROOT/$B/catalog.db" ./$B/clusterfit list --format json > /dev/null; then
    echo "build-without-pkg-config: the tool built with PKG_CONFIG=false does not run" >&2
    echo "build-without-pkg-config: 0 passed, 1 failed"
    exit 1
fi
rm -rf "$B" $B.log
echo "build-without-pkg-config: 1 passed, 0 failed"
