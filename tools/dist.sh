#!/bin/sh
# dist.sh BUILD VERSION — `make dist`: the release tarball
# BUILD/clusterfit-VERSION.tar.gz of HEAD's tracked files (git archive),
# with a COMMIT file naming HEAD (tools/version.sh reads it where there is
# no .git) — files only, under clusterfit-VERSION/, sorted, owned by root,
# dated HEAD's commit time, so two runs on one commit give the same bytes.
# Uncommitted changes are not in it (a warning says so).
set -eu
build=$1; ver=$2
name=clusterfit-$ver
command -v git > /dev/null 2>&1 && git rev-parse --git-dir > /dev/null 2>&1 || {
    echo "dist: needs the git work tree (the tarball is made of HEAD's files)" >&2; exit 1; }
commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- || echo "dist: warning: uncommitted changes are not in the tarball (it is HEAD, $commit)" >&2
mkdir -p "$build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive --format=tar --prefix="$name/" HEAD | tar -x -C "$tmp"
echo "$commit" > "$tmp/$name/COMMIT"
when=$(git log -1 --format=%ct HEAD)
out=$(cd "$build" && pwd)/$name.tar.gz
(cd "$tmp" && tar --sort=name --mtime="@$when" --owner=0 --group=0 --numeric-owner \
    -cf - "$name" | gzip -n -9 > "$out.tmp") && mv "$out.tmp" "$out"
echo "dist: $build/$name.tar.gz ($(wc -c < "$out" | tr -d ' ') bytes, commit $commit)"
