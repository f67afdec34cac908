#!/bin/sh
# catalog-release.sh OUTDIR SOURCE_URL TOOL — `make catalog-release
# SOURCE=URL`: writes OUTDIR/clusterfit-catalog-DATE.csv, a catalog release
# file (include/clusterfit/release.h) of this tree's data/offerings.csv,
# dated today (UTC; $CLUSTERFIT_NOW when set), with SOURCE_URL as the place
# it will be published at, and checks it by installing it with TOOL into a
# throw-away catalog (every row as `import --catalog` checks it). Users then
# install it with `clusterfit import --catalog FILE`, no rebuild needed.
set -eu
out=$1; source=$2; tool=$3
case $source in http://?*|https://?*) ;; *)
    echo "catalog-release: give the URL the file will be published at: SOURCE=https://..." >&2; exit 2;; esac
date=${CLUSTERFIT_NOW:-$(date -u +%Y-%m-%d)}
mkdir -p "$out"
f=$out/clusterfit-catalog-$date.csv
{ echo "#clusterfit-catalog date=$date source=$source"; cat data/offerings.csv; } > "$f.tmp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$f.tmp"' EXIT
CLUSTERFIT_DB=$tmp/catalog.db CLUSTERFIT_NOW=$date "$tool" import --catalog "$f.tmp" > "$tmp/log" || {
    cat "$tmp/log"; exit 1; }
mv "$f.tmp" "$f"
echo "catalog-release: $f ($(($(grep -c '' data/offerings.csv) - 1)) offerings, dated $date, source $source)"
