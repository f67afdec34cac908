#!/bin/sh
# deps.sh [web] — makes sure the Debian 12 packages the build needs are
# installed: installs the missing ones when run as root (one apt-get update
# first), else prints the exact apt-get line and fails.
set -eu
pkgs="build-essential pkg-config libsqlite3-dev libjansson-dev libcsv-dev libmicrohttpd-dev libcmocka-dev jq sqlite3"
# The JSON Schemas of docs/schema/ are checked with python3-jsonschema.
pkgs="$pkgs python3 python3-jsonschema"
# The probe (issue 12): Open MPI for --mpi and its tests, hwloc, rdma-core.
pkgs="$pkgs libopenmpi-dev openmpi-bin hwloc rdma-core libibverbs-dev slurm-wlm munge"
if [ "${1:-}" = web ]; then
    # A nodejs from elsewhere (NodeSource) brings its own npm that dpkg does
    # not know: ask Debian for node and npm only when the commands are missing.
    pkgs="chromium"
    command -v node >/dev/null 2>&1 || pkgs="$pkgs nodejs"
    command -v npm >/dev/null 2>&1 || pkgs="$pkgs npm"
fi
if [ "${1:-}" = fuzz ]; then pkgs="clang libclang-rt-14-dev"; fi
missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >&2
else
    echo "deps: missing Debian packages. Run:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    exit 1
fi
