# The fitted `list` table (80 columns): GPU names are never cut (A100-SXM-40
# and A100-SXM-80 differ only at the end) and the IDs of the shipped
# catalog are not either (the key `show` takes: As of, GPUs and GDR go
# first); sorted by provider (the default) the rows come under a heading
# per provider; --stale shows the date each row is judged by.
. tests/cli/catalog-lib.sh
import_small
width() { perl -CSD -ne 'chomp; $m = length if length > $m; END { print $m + 0 }' "$T/out"; }
cf list; expect_rc 0
[ "$(width)" -le 80 ] || fail "table is $(width) columns wide, over 80"
# The shipped AWS rows: p4d is A100 40 GB, p4de A100 80 GB, both whole.
grep '^aws-p4d-24xlarge ' "$T/out" | grep -q ' A100-SXM-40 ' || fail "p4d's GPU cut or missing"
grep '^aws-p4de-24xlarge ' "$T/out" | grep -q ' A100-SXM-80 ' || fail "p4de's GPU cut or missing"
grep -q 'A100-SX…' "$T/out" && fail "a GPU name is cut"
# A heading per provider, once, in the sorted order: TestAlpha before TestBeta.
[ "$(grep -c '^== TestAlpha ==$' "$T/out")" = 1 ] || fail "no single TestAlpha heading"
a=$(grep -n '^== TestAlpha ==$' "$T/out" | cut -d: -f1); b=$(grep -n '^== TestBeta ==$' "$T/out" | cut -d: -f1)
[ "$a" -lt "$b" ] || fail "TestAlpha's heading after TestBeta's"
sed -n "$((a + 1))p" "$T/out" | grep -q '^testa-' || fail "TestAlpha's rows not under its heading"
# No ID of the shipped catalog is cut in the fitted table, the longest
# (31 characters) included.
grep -q '…' "$T/out" && fail "an ID or GPU is cut"
id=$(awk -F, 'NR > 1 && length($1) > m { m = length($1); id = $1 } END { print id }' data/offerings.csv)
[ -z "$id" ] || grep -q "^$id " "$T/out" || fail "the longest id $id not whole"
# Sorted otherwise: no headings. --wide: a Provider column, no headings.
cf list --sort price; expect_rc 0
grep -q '^== ' "$T/out" && fail "headings in a table not sorted by provider"
cf list --wide --provider TestAlpha; expect_rc 0
expect_out "Provider"; grep -q '^== ' "$T/out" && fail "headings in the wide table"
# --stale 6 (CLUSTERFIT_NOW=2026-12-02): testb-h100-efa, dated 2025-11-30.
cf list --stale 6; expect_rc 0
[ "$(width)" -le 80 ] || fail "stale table is $(width) columns wide, over 80"
head -1 "$T/out" | grep -q 'Dated$' || fail "no Dated column"
grep '^testb-h100-efa ' "$T/out" | grep -q ' 2025-11-30$' || fail "testb-h100-efa's date"
expect_out "Dated: the date each row is judged by (price_as_of where set, else as_of)"
# A row with price_as_of shows that date, not its newer as_of.
printf 'id,provider,offering,price_on_demand_gpu_hr,currency,price_as_of,source_url,as_of\ntestp-old-price,TestPrice,P,2.5,USD,2025-01-15,https://example.com/p,2026-11-01\n' > "$T/p.csv"
cf import "$T/p.csv"; expect_rc 0
cf list --stale 6 --provider TestPrice; expect_rc 0
grep '^testp-old-price ' "$T/out" | grep -q ' 2025-01-15$' || fail "the Dated column is not price_as_of"
