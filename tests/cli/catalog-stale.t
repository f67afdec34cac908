# `list --stale MONTHS` and the staleness summary of `providers` (issue 13):
# a row's date is price_as_of where set, else as_of (YYYY-MM as its 1st),
# stale when before today minus MONTHS months (CLUSTERFIT_NOW=2026-12-02).
. tests/cli/catalog-lib.sh
import_small
# Six months back is 2026-06-02: only testb-h100-efa (2025-11-30).
expect_ids --stale 6 -- testb-h100-efa
# Three months back is 2026-09-02: testa-h100-ib (2026-08 = Aug 1) and
# testc-h100-unknown (2026-09 = Sep 1) too; not
# testb-h200-roce, whose as_of (2026-06) is old but whose prices are dated
# 2026-11-20.
expect_ids --stale 3 --sort as-of -- testc-h100-unknown testa-h100-ib testb-h100-efa
expect_ids --stale 3 --provider TestBeta -- testb-h100-efa
# The cutoff's day is clamped to the month's end: on 2026-11-30, minus 9
# months is 2026-02-28, so a row of 2026-02-28 is not stale and one of 02-27 is.
printf 'id,provider,offering,source_url,as_of\ntestf-a,TestFeb,A,https://example.com/a,2026-02-28\ntestf-b,TestFeb,B,https://example.com/b,2026-02-27\n' > "$T/feb.csv"
cf import "$T/feb.csv"; expect_rc 0
CLUSTERFIT_NOW=2026-11-30 "$CF" list --stale 9 --provider TestFeb --format json > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0; [ "$(test_ids)" = testf-b ] || fail "list --stale 9 on 2026-11-30: got '$(test_ids)', expected 'testf-b'"
cf list --stale 0; expect_rc 2; expect_err '--stale: expected a whole number of months from 1 to 1200, got "0"'
cf list --stale 6x; expect_rc 2; expect_err 'got "6x"'
# providers: oldest date and stale rows per provider, in JSON and text.
cf providers --format json; expect_rc 0
expect_json '[.[] | select(.provider == "TestBeta")][0].oldest_as_of' 2025-11-30
expect_json '[.[] | select(.provider == "TestBeta")][0].stale_rows' 1
expect_json '[.[] | select(.provider == "TestBeta")][0].stale_before' 2026-06-02
expect_json '[.[] | select(.provider == "TestAlpha")][0].stale_rows' 0
expect_json '[.[] | select(.provider == "TestAlpha")][0].oldest_as_of' 2026-08
cf providers --stale 3 --format json; expect_rc 0
expect_json '[.[] | select(.provider == "TestAlpha")][0].stale_rows' 1
expect_json '[.[] | select(.provider == "TestBeta")][0].stale_before' 2026-09-02
cf providers --provider x; expect_rc 2
cf providers; expect_rc 0
expect_out "Stale"
expect_out "stale offerings"; expect_out "dated before 2026-06-02, 6 months ago"
expect_out "(price_as_of where set, else as_of); the oldest "
grep '^TestBeta ' "$T/out" | grep -q ' 1  *-  *-$' || fail "TestBeta's stale count in the table (then Rating and Terms)"
w=$(perl -CSD -ne 'chomp; $m = length if length > $m; END { print $m + 0 }' "$T/out")
[ "$w" -le 80 ] || fail "providers table is $w columns wide, over 80"
cf providers --stale 0; expect_rc 2
