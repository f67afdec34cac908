#!/bin/sh
# tests/container/run.sh [BUILD] — checks of packaging/ (issue 26), run by
# make check:
# 1. packaging/clusterfit.service passes `systemd-analyze verify` (with
#    ExecStart pointed at BUILD/clusterfit), when systemd-analyze exists;
# 2. the runtime stage of packaging/Dockerfile installs the Debian package
#    of every shared library the tool needs (readelf on BUILD/clusterfit,
#    dpkg -S; libc, the sanitizer runtimes and Open MPI aside: the image
#    builds without MPI);
# 3. with a container runtime that answers (docker or podman; `info`
#    succeeds), the image is built and run with a volume, and GET /healthz
#    answers 200 {"status":"ok"} with Host localhost:8080, a foreign Host is
#    still 403, and `clusterfit --version` inside names the volume's
#    catalog file. Without one it is skipped with a message (exit 0).
# CONTAINER_RUNTIME=none forces the skip, =NAME chooses the runtime.
# Prints "container: N passed, N failed[, N skipped]".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
B=$(cd "${1:-build}" 2>/dev/null && pwd) || B=$ROOT/build
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
bad() { echo "container: $*"; fail=$((fail + 1)); }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# 1. The unit.
if command -v systemd-analyze > /dev/null 2>&1 && [ -x "$B/clusterfit" ]; then
    sed -e "s|/usr/local/bin/clusterfit|$B/clusterfit|g" -e '/^Documentation=/d' \
        packaging/clusterfit.service > "$W/clusterfit.service"
    if systemd-analyze verify "$W/clusterfit.service" > "$W/verify" 2>&1; then ok
    else bad "packaging/clusterfit.service: $(cat "$W/verify")"; fi
else
    echo "container: skipped the unit check (no systemd-analyze or no $B/clusterfit)"; skip=$((skip + 1))
fi
# 2. The runtime stage's packages against the tool's NEEDED libraries.
runtime=$(awk '/^FROM/ { n++ } n == 2' packaging/Dockerfile)
echo "$runtime" | grep -q '^FROM debian:12' && ok || bad "the runtime stage is not FROM debian:12"
grep -q '^FROM debian:12.* AS build' packaging/Dockerfile && ok || bad "the build stage is not FROM debian:12"
if command -v dpkg > /dev/null 2>&1 && [ -x "$B/clusterfit" ]; then
    for lib in $(readelf -d "$B/clusterfit" | sed -n 's/.*NEEDED.*\[\(.*\)\].*/\1/p'); do
        case $lib in libc.so*|libm.so*|ld-linux*|libmpi*|libpthread*|libdl*|libasan*|libubsan*|libstdc++*|libgcc_s*) continue;; esac
        pkg=$(dpkg -S "*/$lib" 2>/dev/null | grep "/$lib\$" | head -n 1 | cut -d: -f1)
        if [ -n "$pkg" ] && echo "$runtime" | grep -qw -- "$pkg"; then ok
        else bad "the tool needs $lib (package '${pkg:-?}'), which the runtime stage does not install"; fi
    done
fi
# 3. The image.
rt=${CONTAINER_RUNTIME:-}
if [ -z "$rt" ]; then
    for c in docker podman; do
        if command -v $c > /dev/null 2>&1 && $c info > /dev/null 2>&1; then rt=$c; break; fi
    done
fi
if [ -z "$rt" ] || [ "$rt" = none ]; then
    echo "container: skipped the image check: no docker or podman that answers (\`docker info\`)"
    skip=$((skip + 1))
elif ! $rt info > /dev/null 2>&1; then
    bad "container runtime '$rt' does not answer ($rt info)"
else
    ver=$(cat VERSION); img=clusterfit-check:$ver; vol=clusterfit-check-$$; port=$((20000 + $$ % 20000))
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null || cat COMMIT 2>/dev/null || echo "")
    if $rt build -q -f packaging/Dockerfile --build-arg COMMIT="$commit" -t "$img" . > "$W/build" 2>&1; then ok
    else tail -20 "$W/build"; bad "the image does not build"; fi
    cid=$($rt run -d --rm -p 127.0.0.1:$port:8080 -v "$vol":/var/lib/clusterfit "$img" 2> "$W/run")
    [ -n "$cid" ] && ok || bad "the container does not start: $(cat "$W/run")"
    code=""; i=0
    # The server inside listens on 8080: Host names that port (docs/security.md).
    while [ -n "$cid" ] && [ $i -lt 30 ] && [ "$code" != 200 ]; do
        sleep 1; i=$((i + 1))
        code=$(curl -s -o "$W/h" -w '%{http_code}' -H 'Host: localhost:8080' "http://127.0.0.1:$port/healthz")
    done
    [ "$code" = 200 ] && jq -e '.status == "ok" and .version == "'"$ver"'"' "$W/h" > /dev/null && ok ||
        bad "/healthz: $code $(cat "$W/h" 2>/dev/null)"
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: evil.example' "http://127.0.0.1:$port/healthz")
    [ "$code" = 403 ] && ok || bad "a foreign Host got $code, expected 403 forbidden_host"
    $rt exec "$cid" clusterfit --version > "$W/v" 2>&1
    grep -q "catalog file: /var/lib/clusterfit/catalog.db" "$W/v" && ok || bad "--version in the container: $(cat "$W/v")"
    [ -n "$cid" ] && $rt stop "$cid" > /dev/null 2>&1
    $rt volume rm "$vol" > /dev/null 2>&1
fi
if [ "$skip" -gt 0 ]; then echo "container: $pass passed, $fail failed, $skip skipped"
else echo "container: $pass passed, $fail failed"; fi
[ "$fail" -eq 0 ]
