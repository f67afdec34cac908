#!/bin/sh
# dist-check.sh BUILD VERSION — `make dist-check` (run by .ci/run after
# make check): unpacks BUILD/clusterfit-VERSION.tar.gz (make dist) in a
# temporary directory, where there is no .git, and there builds it and runs
# the quick runners (make unit and make cli: the tool, the library and
# their tests as the tarball holds them; the full make check is what CI
# runs on the clone). Also checks that the build there names the tarball's
# commit, not "unknown" or a -dirty tree. Prints "dist: N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
build=$1; ver=$2
tarball=$ROOT/$build/clusterfit-$ver.tar.gz
[ -f "$tarball" ] || { echo "dist: no $tarball; run make dist first"; echo "dist: 0 passed, 1 failed"; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
pass=0; fail=0
tar -xzf "$tarball" -C "$W" || { echo "dist: 0 passed, 1 failed"; exit 1; }
src=$W/clusterfit-$ver
[ ! -e "$src/.git" ] && [ -f "$src/COMMIT" ] && pass=$((pass + 1)) || { echo "dist: the tarball has .git or lacks COMMIT"; fail=$((fail + 1)); }
for t in all unit cli; do
    if (cd "$src" && make -j"${JOBS:-2}" -s $t > "$W/$t.log" 2>&1); then pass=$((pass + 1))
    else tail -20 "$W/$t.log"; echo "dist: make $t failed in the unpacked tarball"; fail=$((fail + 1)); fi
done
tail -n 1 "$W/unit.log" "$W/cli.log" 2>/dev/null | grep passed
want=$(cat "$src/COMMIT")
got=$(cd "$src" && CLUSTERFIT_DB="$W/c.db" ./build/clusterfit version --format json | jq -r .commit)
[ "$got" = "$want" ] && pass=$((pass + 1)) || { echo "dist: the build says commit '$got', the tarball's COMMIT '$want'"; fail=$((fail + 1)); }
echo "dist: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
