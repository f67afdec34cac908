# Catalog release files (issue 26): `import --catalog FILE` replaces the
# built-in catalog with a dated offerings CSV, whole or not at all (a bad
# line: FILE:LINE:COLUMN, exit 3, nothing changed); `version` and
# `providers` show its date, source and rows; `--builtin-catalog` goes back.
# The release is made here from the shipped data/offerings.csv itself.
URL=https://example.org/clusterfit/catalog-2026-11-30.csv
head1="#clusterfit-catalog date=2026-11-30 source=$URL"
{ echo "$head1"; head -n 21 data/offerings.csv; } > "$T/rel.csv"
shipped=$(($(grep -c '' data/offerings.csv) - 1))
# Before: the built-in rows, as many as data/offerings.csv holds.
cf version --format json; expect_rc 0
expect_json .catalog.origin built-in; expect_json .catalog.source null
cf list --format json; expect_json '[.[] | select(.origin == "shipped")] | length' "$shipped"
newest=$(jq -r '[.[].as_of] | max' "$T/out")
cf version --format json; expect_json .catalog.rows "$shipped"; expect_json .catalog.date "$newest"
expect_json .catalog.built_in.rows "$shipped"
# A row of your own survives the release and still wins.
printf 'id,provider,offering,gpu,source_url,as_of\nmine-1,Mine,My quote,H100-SXM,https://example.com/q,2026-11\n' > "$T/mine.csv"
cf import "$T/mine.csv"; expect_rc 0
cf import --catalog "$T/rel.csv"; expect_rc 0
expect_out "installed the catalog release 2026-11-30 from $T/rel.csv: 20 offerings"
expect_out "source: $URL"; expect_out "replaces the built-in catalog ($shipped rows"
cf list --format json
expect_json '[.[] | select(.origin == "shipped")] | length' 20
expect_json '[.[] | select(.id == "mine-1")] | length' 1
first=$(sed -n 2p data/offerings.csv | cut -d, -f1); last=$(sed -n "$((shipped + 1))p" data/offerings.csv | cut -d, -f1)
cf show "$first"; expect_rc 0
cf show "$last"; expect_rc 2
cf version --format json
expect_json .catalog.origin release; expect_json .catalog.date 2026-11-30
expect_json .catalog.rows 20; expect_json .catalog.source "$URL"; expect_json .catalog.file "$T/rel.csv"
expect_json .catalog.installed 2026-12-02; expect_json .catalog.built_in.rows "$shipped"
cf --version; expect_rc 0; expect_out "catalog: release 2026-11-30, 20 rows"; expect_out "source: $URL"
cf providers; expect_rc 0; expect_out "catalog: release 2026-11-30 (20 rows) from $URL"
# Bad files: refused at the file's own line and column, exit 3, nothing changed.
bad() { # NAME SED-SCRIPT EXPECTED-STDERR
    sed "$2" "$T/rel.csv" > "$T/$1.csv"
    cf import --catalog "$T/$1.csv"; expect_rc 3; expect_err "$T/$1.csv:$3"
}
bad date '1s/date=2026-11-30/date=2026-11-31/' '1:21: date: expected YYYY-MM-DD, got "2026-11-31"'
bad future '1s/date=2026-11-30/date=2026-12-05/' '1:21: date: expected a date no later than today (2026-12-02)'
bad magic '1s/^#clusterfit-catalog/#catalog/' '1:1: first line: expected "#clusterfit-catalog date=YYYY-MM-DD source=URL"'
bad nosource '1s/ source=[^ ]*//' '1:36: first line: expected source=URL too'
bad twice '1s/$/ date=2026-11-30/' '1:98: first line: date given twice'
bad key '1s/$/ note=x/' '1:98: first line: expected the key date or source, got "note"'
bad url '1s/source=https:/source=ftp:/' '1:37: source: expected the http(s) URL'
bad cell '5s/^[^,]*,/Bad Id,/' '5:1: id: expected a slug'
bad early '1s/date=2026-11-30/date=2020-01-01/' "3:29: as_of: expected a date no later than the release's date (2020-01-01)"
printf '%s\n' "$head1" > "$T/empty.csv"
cf import --catalog "$T/empty.csv"; expect_rc 3; expect_err "$T/empty.csv:2"
cf import --catalog "$T/no-such.csv"; expect_rc 3
cf version --format json; expect_json .catalog.rows 20; expect_json .catalog.date 2026-11-30
# A second release replaces the first whole.
{ echo "#clusterfit-catalog source=$URL date=2026-11-29"; head -n 11 data/offerings.csv; } > "$T/rel2.csv"
sed -n 2,11p data/offerings.csv | grep -q ',2026-11-30,' && sed -i '1s/2026-11-29/2026-11-30/' "$T/rel2.csv"
cf import --catalog "$T/rel2.csv"; expect_rc 0; expect_out ": 10 offerings"
expect_out "replaces the catalog release of 2026-11-30 ($URL)"
cf list --format json; expect_json '[.[] | select(.origin == "shipped")] | length' 10
# Back to the built-in rows; your row is still there.
cf import --builtin-catalog; expect_rc 0; expect_out "removed the catalog release; back to the built-in catalog ($shipped rows"
cf list --format json; expect_json '[.[] | select(.origin == "shipped")] | length' "$shipped"
expect_json '[.[] | select(.id == "mine-1")] | length' 1
cf version --format json; expect_json .catalog.origin built-in
cf import --builtin-catalog; expect_rc 0; expect_out "no catalog release installed"
# Usage.
cf import --catalog; expect_rc 2
cf import --catalog "$T/rel.csv" "$T/rel2.csv"; expect_rc 2
cf import --catalog --reset "$T/rel.csv"; expect_rc 2; expect_err "exclude each other"
cf import --builtin-catalog x; expect_rc 2
# make catalog-release (tools/catalog-release.sh): today's release of the
# whole data/offerings.csv, checked by installing it; it then installs here.
sh tools/catalog-release.sh "$T/rel" "$URL" "$CF" > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0; expect_out "$T/rel/clusterfit-catalog-2026-12-02.csv ($shipped offerings"
cf import --catalog "$T/rel/clusterfit-catalog-2026-12-02.csv"; expect_rc 0; expect_out ": $shipped offerings"
cf version --format json; expect_json .catalog.origin release; expect_json .catalog.rows "$shipped"
sh tools/catalog-release.sh "$T/rel" "" "$CF" > "$T/out" 2> "$T/err"; RC=$?
expect_rc 2; expect_err "SOURCE=https://"
